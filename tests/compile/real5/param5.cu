// Parameter and launch styles, a fifth sweep (session 9, "breadth5"): a by-value struct of
// 1.5 KiB, 64 scalar parameters, __launch_bounds__ with minBlocks and maxBlocksPerCluster,
// __maxnreg__, device-side malloc/free in a loop, prefetch and L2 eviction hints
// (ld.global.nc.L1::no_allocate, prefetch.global.L2::evict_last, createpolicy +
// ld.global.L2::cache_hint), written for openassembler's tests; .ptx: nvcc 13.0 --ptx -O3
// -arch=sm_XX (gen.sh); //@ lines: launch specs (bigstruct's spec is written by hand).
#include <cstdint>

struct Big { float w[376]; int n; unsigned flags; float *out; };   /* 1512+8+8 = 1520 bytes */

extern "C" __global__ void bigstruct(const Big b, const float *x)
{
	int t = threadIdx.x;
	float s = 0.f;
	for (int k = 0; k < b.n; k++) s += b.w[(t * 7 + k) % 376] * x[(t + k) & 63];
	b.out[t] = (b.flags & 1) ? s : -s;
}

#define P8(p) int p##0, int p##1, int p##2, int p##3, int p##4, int p##5, int p##6, int p##7
#define S8(p) (p##0 * 1 + p##1 * 3 + p##2 * 5 + p##3 * 7 + p##4 * 11 + p##5 * 13 + p##6 * 17 + p##7 * 19)
//@ manyparams grid=1 block=32 | o:s32[32] check | a0=s32:1 | a1=s32:2 | a2=s32:3 | a3=s32:4 | a4=s32:5 | a5=s32:6 | a6=s32:7 | a7=s32:8 | b0=s32:-1 | b1=s32:-2 | b2=s32:-3 | b3=s32:-4 | b4=s32:-5 | b5=s32:-6 | b6=s32:-7 | b7=s32:-8 | c0=s32:10 | c1=s32:20 | c2=s32:30 | c3=s32:40 | c4=s32:50 | c5=s32:60 | c6=s32:70 | c7=s32:80 | d0=s32:100 | d1=s32:200 | d2=s32:300 | d3=s32:400 | d4=s32:500 | d5=s32:600 | d6=s32:700 | d7=s32:800 | e0=s32:9 | e1=s32:8 | e2=s32:7 | e3=s32:6 | e4=s32:5 | e5=s32:4 | e6=s32:3 | e7=s32:2 | f0=s32:1000 | f1=s32:2000 | f2=s32:3000 | f3=s32:4000 | f4=s32:5000 | f5=s32:6000 | f6=s32:7000 | f7=s32:8000 | g0=s32:11 | g1=s32:12 | g2=s32:13 | g3=s32:14 | g4=s32:15 | g5=s32:16 | g6=s32:17 | g7=s32:18 | h0=s32:-11 | h1=s32:-12 | h2=s32:-13 | h3=s32:-14 | h4=s32:-15 | h5=s32:-16 | h6=s32:-17 | h7=s32:-18
extern "C" __global__ void manyparams(int *o, P8(a), P8(b), P8(c), P8(d), P8(e), P8(f), P8(g), P8(h))
{
	int t = threadIdx.x;
	int v[8] = {a0 + b7 * t, c1 - d2, e3 * f4, g5 ^ h6, a7 + h0, b3 * t, c5 - f1, d6 + e2};
	o[t] = v[t & 7] + S8(a) * (t & 1) + S8(b) + S8(c) - S8(d) + S8(e) * t + S8(f) + S8(g) - S8(h);
}

//@ bounded grid=2 block=128 | o:f32[256] check(1e-5) | x:f32[256] rand(-4,4)
extern "C" __global__ void __launch_bounds__(128, 4) bounded(float *o, const float *x)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float v = x[i], a = 0.f;
	for (int k = 0; k < 16; k++) a = fmaf(a, v, (float)(k * k - 5));
	o[i] = a * 1e-12f;
}

//@ maxnreg grid=1 block=64 | o:u32[64] check | x:u32[256] rand(0,4294967295)
extern "C" __global__ void __maxnreg__(40) maxnreg(unsigned *o, const unsigned *x)
{
	int t = threadIdx.x;
	unsigned r[12];
	for (int k = 0; k < 12; k++) r[k] = x[(t + k * 5) & 255];
	unsigned h = 0;
	for (int k = 0; k < 12; k++) h = (h ^ r[k]) * 0x01000193u + r[(k + 3) % 12] * r[(k + 7) % 12];
	o[t] = h;
}

//@ malloc_loop grid=1 block=32 | o:s32[32] check | n:s32[32] rand(1,12)
extern "C" __global__ void malloc_loop(int *o, const int *n)
{
	int t = threadIdx.x, acc = 0;
	for (int round = 0; round < 3; round++) {
		int m = n[t] + round;
		int *p = (int *)malloc(m * sizeof(int));
		if (!p) { acc = -1; break; }
		for (int k = 0; k < m; k++) p[k] = k * (t + 1) + round;
		for (int k = 0; k < m; k++) acc += p[k];
		free(p);
	}
	o[t] = acc;
}

//@ cache_hints grid=2 block=64 | o:f32[128] check(1e-6) | x:f32[256] rand(-1,1)
extern "C" __global__ void cache_hints(float *o, const float *x)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float a, b, c;
	asm volatile("prefetch.global.L2::evict_last [%0];" :: "l"(x + 128 + i));
	asm volatile("prefetch.global.L1 [%0];" :: "l"(x + i));
	asm("ld.global.nc.L1::no_allocate.f32 %0, [%1];" : "=f"(a) : "l"(x + i));
	asm("ld.global.L1::evict_last.f32 %0, [%1];" : "=f"(b) : "l"(x + 128 + i));
#if __CUDA_ARCH__ >= 800
	uint64_t pol;
	asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(pol));
	asm("ld.global.L2::cache_hint.f32 %0, [%1], %2;" : "=f"(c) : "l"(x + (i ^ 1)), "l"(pol));
	asm volatile("st.global.L2::cache_hint.f32 [%0], %1, %2;" :: "l"(o + i), "f"(a + b * 2.f + c * 4.f), "l"(pol));
#endif
}
