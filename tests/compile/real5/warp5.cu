// Warp-cooperative styles, a fifth sweep (session 9, "breadth5"): stream compaction with
// warp-aggregated atomics (ballot + popc + leader atomicAdd + shfl broadcast, order kept by
// a block scan), segmented __shfl_up_sync scans of width 8 and 16, a shared-memory bitset
// (atomicOr, __brev, __clz, __popc), a padded-tile transpose with int2/float4 vector loads
// and __stcg, f64 __shfl_xor_sync reductions, __nv_atomic_fetch_add with scopes, carved
// dynamic shared memory, written for openassembler's tests; .ptx: nvcc 13.0 --ptx -O3
// -arch=sm_XX (gen.sh); //@ lines: launch specs.
#include <cstdint>

//@ compact grid=1 block=256 | out:s32[256] check | n:u32[1] check | in:s32[256] rand(-100,100)
extern "C" __global__ void compact(int *out, unsigned *n, const int *in)
{
	__shared__ unsigned wsum[8], wbase[8];
	int t = threadIdx.x, lane = t & 31, w = t >> 5;
	int v = in[t];
	bool keep = v > 0 && (v % 3) != 0;
	unsigned m = __ballot_sync(0xffffffffu, keep), below = __popc(m & ((1u << lane) - 1));
	if (lane == 0) wsum[w] = __popc(m);
	__syncthreads();
	if (t == 0) {
		unsigned s = 0;
		for (int k = 0; k < 8; k++) wbase[k] = s, s += wsum[k];
		unsigned base = atomicAdd(n, s);   /* one atomic per block */
		for (int k = 0; k < 8; k++) wbase[k] += base;
	}
	__syncthreads();
	unsigned base = 0;
	if (lane == 0) base = wbase[w];
	base = __shfl_sync(0xffffffffu, base, 0);
	if (keep) out[base + below] = v;   /* (no else: zeroing out[255 - t] raced with these stores) */
}

//@ seg_scan grid=1 block=64 | o:u32[128] check | a:u32[64] rand(0,1000)
extern "C" __global__ void seg_scan(unsigned *o, const unsigned *a)
{
	int t = threadIdx.x;
	unsigned x = a[t], y = x;
	for (int d = 1; d < 8; d <<= 1) {
		unsigned u = __shfl_up_sync(0xffffffffu, x, d, 8);
		if ((t & 7) >= d) x += u;
	}
	for (int d = 1; d < 16; d <<= 1) {
		unsigned u = __shfl_up_sync(0xffffffffu, y, d, 16);
		if ((t & 15) >= d) y = max(y, u);
	}
	o[t] = x;
	o[64 + t] = y ^ __shfl_down_sync(0xffffffffu, y, 3, 16);
}

//@ bitset grid=1 block=128 | o:u32[32] check | keys:u32[512] rand(0,1023)
extern "C" __global__ void bitset(unsigned *o, const unsigned *keys)
{
	__shared__ unsigned bits[32];
	int t = threadIdx.x;
	if (t < 32) bits[t] = 0;
	__syncthreads();
	for (int k = t; k < 512; k += 128) atomicOr(&bits[keys[k] >> 5], 1u << (keys[k] & 31));
	__syncthreads();
	if (t < 32) {
		unsigned b = bits[t];
		o[t] = __popc(b) | __clz(b) << 8 | (__brev(b) & 0xff) << 16 | (__ffs(b) << 24);
	}
}

//@ transpose grid=2,2 block=32,8 | o:f32[4096] check | in:f32[4096] range(0,1)
extern "C" __global__ void transpose(float *o, const float *in)
{
	__shared__ float tile[32][33];
	int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
	for (int j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = __ldg(&in[(y + j) * 64 + x]);
	__syncthreads();
	x = blockIdx.y * 32 + threadIdx.x; y = blockIdx.x * 32 + threadIdx.y;
	for (int j = 0; j < 32; j += 8) __stcg(&o[(y + j) * 64 + x], tile[threadIdx.x][threadIdx.y + j]);
}

//@ vec_loads grid=1 block=64 | o:f32[256] check(1e-6) | a:f32[256] rand(-1,1) | b:s32[128] rand(-9,9)
extern "C" __global__ void vec_loads(float4 *o, const float4 *a, const int2 *b)
{
	int t = threadIdx.x;
	float4 v = __ldg(&a[t]);
	int2 i = __ldg(&b[t]), j = __ldcs(&b[(t + 1) & 63]);
	float4 r = {v.x * i.x, v.y * i.y + j.x, v.z - j.y, v.w};
	__stcg(&o[t], r);
}

//@ dreduce grid=2 block=128 | o:f64[8] check(1e-12) | x:f64[256] rand(-1,1)
extern "C" __global__ void dreduce(double *o, const double *x)
{
	__shared__ double ws[4];
	int t = threadIdx.x, lane = t & 31;
	double v = x[blockIdx.x * 128 + t], m = v;
	for (int d = 16; d; d >>= 1) {
		v += __shfl_xor_sync(0xffffffffu, v, d);
		m = fmax(m, __shfl_xor_sync(0xffffffffu, m, d));
	}
	if (lane == 0) ws[t >> 5] = v;
	__syncthreads();
	if (t == 0) {
		o[blockIdx.x * 4] = ws[0] + ws[1] + ws[2] + ws[3];
		o[blockIdx.x * 4 + 1] = m;
	}
	if (t == 32) o[blockIdx.x * 4 + 2] = m;
	if (t == 33) o[blockIdx.x * 4 + 3] = v;
}

//@ nv_atomics grid=2 block=64 | c:u32[4] check | d:u64[2] check | x:u32[128] rand(0,100)
extern "C" __global__ void nv_atomics(unsigned *c, unsigned long long *d, const unsigned *x)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	__nv_atomic_fetch_add(&c[0], x[i], __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
	__nv_atomic_fetch_max(&c[1], x[i], __NV_ATOMIC_ACQ_REL, __NV_THREAD_SCOPE_BLOCK);
	__nv_atomic_fetch_or(&c[2], 1u << (x[i] & 31), __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_SYSTEM);
	__nv_atomic_fetch_add(&d[0], (unsigned long long)x[i] << 33, __NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_DEVICE);
	unsigned long long e = 0;
	if (i == 5) __nv_atomic_compare_exchange_n(&d[1], &e, 42ull, false, __NV_ATOMIC_ACQUIRE, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
	unsigned v = __nv_atomic_load_n(&c[0], __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE);
	(void)v;
	__nv_atomic_fetch_add(&c[3], 1u, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_BLOCK);
}

//@ carve_dyn grid=1 block=64 shared=1280 | o:f32[64] check(1e-6) | a:f32[64] rand(-1,1) | h:s32[64] rand(0,15)
extern "C" __global__ void carve_dyn(float *o, const float *a, const int *h)
{
	extern __shared__ __align__(16) unsigned char smem[];
	double *dd = (double *)smem;                  /* 64 doubles */
	int *hist = (int *)(smem + 512);              /* 16 ints */
	float *ff = (float *)(smem + 576);            /* 64 floats */
	int t = threadIdx.x;
	if (t < 16) hist[t] = 0;
	dd[t] = a[t] * 0.5;
	ff[t] = a[63 - t];
	__syncthreads();
	atomicAdd(&hist[h[t]], 1);
	__syncthreads();
	o[t] = (float)dd[(t + 1) & 63] + ff[t] * hist[t & 15];
}
