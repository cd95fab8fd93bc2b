// misc7.cu -- tests/compile/clang7: clang 14 PTX with inline asm (half, bf16,
// prmt, brev, funnel shifts), local arrays with dynamic indexing, non-inlined
// call chains, recursion and indirect calls, byte-array structs, 64-bit
// atomics and bit tricks.
#include "c7.h"

DI unsigned short f2h(float f) { unsigned short h; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f)); return h; }
DI float h2f(unsigned short h) { float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h)); return f; }
//@ half7 grid=1 block=64 | o:u16[128] check | a:f32[64] rand(-4,4) | b:f32[64] rand(-4,4) | r:f32[64] check(1e-6)
extern "C" __global__ void half7(unsigned short *o, const float *a, const float *b, float *r) {
	int i = threadIdx.x;
	unsigned short x = f2h(a[i]), y = f2h(b[i]), z;
	asm("fma.rn.f16 %0, %1, %2, %1;" : "=h"(z) : "h"(x), "h"(y));
	o[i] = z;
	unsigned p = (unsigned)x | (unsigned)y << 16, q;
	asm("{ .reg .b32 t; mul.rn.f16x2 t, %1, %1; add.rn.f16x2 %0, t, %1; }" : "=r"(q) : "r"(p));
	o[64 + i] = (unsigned short)(q >> 16) ^ (unsigned short)q;
	r[i] = h2f(z) + h2f((unsigned short)q);
}

//@ bf167 grid=1 block=64 | o:u32[64] check | a:f32[64] rand(-4,4) | b:f32[64] rand(-4,4)
extern "C" __global__ void bf167(unsigned *o, const float *a, const float *b) {
	int i = threadIdx.x;
	unsigned p, q;
	asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(p) : "f"(a[i]), "f"(b[i]));
	asm("fma.rn.bf16x2 %0, %1, %1, %1;" : "=r"(q) : "r"(p));
	o[i] = q;
}

//@ bits7 grid=1 block=64 | o:u32[320] check | a:u32[64] rand(0,4294967295) | b:u32[64] rand(0,4294967295)
extern "C" __global__ void bits7(unsigned *o, const unsigned *a, const unsigned *b) {
	int i = threadIdx.x;
	unsigned x = a[i], y = b[i], p, f;
	asm("prmt.b32 %0, %1, %2, 0x5140;" : "=r"(p) : "r"(x), "r"(y));
	asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(f) : "r"(x), "r"(y), "r"(i));
	o[i] = p;
	o[64 + i] = f;
	o[128 + i] = __brev(x) ^ (unsigned)__clz((int)y);
	o[192 + i] = (x << (y & 31)) | (x >> (32 - (y & 31)) & -(unsigned)((y & 31) != 0));
	o[256 + i] = (unsigned)__builtin_ctz(x | 0x80000000u) + __popc(y) * 100 + __builtin_bswap32(x);
}

static __device__ __noinline__ void sortn(int *v, int n) {
	for (int j = 1; j < n; j++) {
		int x = v[j], k = j - 1;
		while (k >= 0 && v[k] > x) { v[k + 1] = v[k]; k--; }
		v[k + 1] = x;
	}
}
//@ localsort7 grid=1 block=64 | o:s32[512] check | a:s32[512] rand(-1000,1000)
extern "C" __global__ void localsort7(int *o, const int *a) {
	int v[8];
	for (int j = 0; j < 8; j++) v[j] = a[threadIdx.x * 8 + j];
	sortn(v, 8);
	for (int j = 0; j < 8; j++) o[threadIdx.x * 8 + j] = v[j];
}

//@ dynidx7 grid=1 block=64 | o:f32[64] check(1e-6) | a:f32[64] rand(-2,2) | k:s32[64] rand(0,15)
extern "C" __global__ void dynidx7(float *o, const float *a, const int *k) {
	float t[16];
	for (int j = 0; j < 16; j++) t[j] = a[(threadIdx.x + j) & 63] * (float)j;
	t[k[threadIdx.x]] += 100.f;
	o[threadIdx.x] = t[k[(threadIdx.x + 3) & 63]] + t[15 - k[threadIdx.x]];
}

struct Rec { unsigned char tag[6]; short v; float w; };
static __device__ __noinline__ float score(Rec r) {
	float s = r.w;
	for (int j = 0; j < 6; j++) s += (float)r.tag[j] * (float)(j + 1);
	return s * (float)r.v;
}
//@ recs7 grid=1 block=64 | o:f32[64] check(1e-3) | r:u32[192] rand(0,4294967295) | w:f32[64] rand(-1,1)
extern "C" __global__ void recs7(float *o, const Rec *r, const float *w) {
	Rec x = r[threadIdx.x];
	x.w = w[threadIdx.x];
	o[threadIdx.x] = score(x);
}

static __device__ __noinline__ int f3(int x) { return x * 3 + 1; }
static __device__ __noinline__ long long f2(int x, long long y) { return f3(x) + y * f3((int)y); }
static __device__ __noinline__ double f1(double d, int x) { return (double)f2(x, (long long)d) * 0.5 + d; }
//@ chain7 grid=1 block=64 | o:f64[64] check(1e-9) | a:f64[64] rand(-1000,1000) | b:s32[64] rand(-1000,1000)
extern "C" __global__ void chain7(double *o, const double *a, const int *b) {
	o[threadIdx.x] = f1(a[threadIdx.x], b[threadIdx.x]);
}

//@ atom64_7 grid=2 block=64 | o:u64[4] values(0,0,18446744073709551615,0) check | a:u64[128] rand(0,1000000000000)
extern "C" __global__ void atom64_7(unsigned long long *o, const unsigned long long *a) {
	unsigned long long v = a[GID];
	atomicAdd(&o[0], v);
	__nvvm_atom_max_gen_ull(&o[1], v);
	__nvvm_atom_min_gen_ull(&o[2], v);
	__nvvm_atom_xor_gen_ll((long long *)&o[3], (long long)v);
}

//@ mulwide7 grid=1 block=64 | o:u64[192] check | a:u32[64] rand(0,4294967295) | b:s32[64] rand(-2147483648,2147483647)
extern "C" __global__ void mulwide7(unsigned long long *o, const unsigned *a, const int *b) {
	int i = threadIdx.x;
	o[i] = (unsigned long long)a[i] * a[(i + 1) & 63];
	o[64 + i] = (unsigned long long)((long long)b[i] * b[(i + 5) & 63]);
	o[128 + i] = (unsigned long long)(((unsigned __int128)a[i] * 0x9E3779B97F4A7C15ull) >> 64) + (unsigned long long)((long long)b[i] >> 3);
}

//@ loops7 grid=1 block=64 | o:s32[64] check | n:s32[64] rand(0,40)
extern "C" __global__ void loops7(int *o, const int *n) {
	int k = n[threadIdx.x], s = 0;
	for (int j = 0; j < k; j++) {
		if (j % 5 == 3) continue;
		s += j * j;
		if (s > 5000) break;
	}
	int w = 0;
	do { w += k; k >>= 1; } while (k);
	o[threadIdx.x] = s * 7 + w;
}

static __device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
typedef int (*op_t)(int, int);
static __device__ __noinline__ int add_(int a, int b) { return a + b; }
static __device__ __noinline__ int mul_(int a, int b) { return a * b; }
static __device__ __noinline__ int sub_(int a, int b) { return a - b; }
//@ rec7 grid=1 block=64 | o:s32[128] check | a:s32[64] rand(0,15)
extern "C" __global__ void rec7(int *o, const int *a) {
	int v = a[threadIdx.x];
	o[threadIdx.x] = fib(v);   /* recursion */
	op_t f = v % 3 == 0 ? add_ : v % 3 == 1 ? mul_ : sub_;
	o[64 + threadIdx.x] = f(v, 7);   /* an indirect call (a prototype) */
}
