// coll7.cu -- tests/compile/clang7: clang 14 PTX, block/warp collectives and
// memory styles: shuffle reductions, shared-memory tiling, scans, histograms
// with atomics, vector loads, __ldg, transposes, dynamic shared memory.
#include "c7.h"

//@ warpsum7 grid=2 block=128 | o:s32[8] check | a:s32[256] rand(-1000,1000)
extern "C" __global__ void warpsum7(int *o, const int *a) {
	int v = a[GID];
	for (int d = 16; d > 0; d >>= 1) v += __shfl_down_sync(0xffffffffu, v, d);
	if ((threadIdx.x & 31) == 0) o[GID >> 5] = v;
}

//@ blockred7 grid=4 block=128 | o:f32[4] check(1e-4) | a:f32[512] rand(-1,1)
extern "C" __global__ void blockred7(float *o, const float *a) {
	__shared__ float s[4];
	float v = a[GID];
	for (int d = 16; d > 0; d >>= 1) v += __shfl_xor_sync(0xffffffffu, v, d);
	if ((threadIdx.x & 31) == 0) s[threadIdx.x >> 5] = v;
	__syncthreads();
	if (threadIdx.x == 0) o[blockIdx.x] = (s[0] + s[1]) + (s[2] + s[3]);
}

//@ treered7 grid=2 block=256 | o:u32[2] check | a:u32[512] rand(0,100000)
extern "C" __global__ void treered7(unsigned *o, const unsigned *a) {
	__shared__ unsigned s[256];
	unsigned t = threadIdx.x;
	s[t] = a[GID];
	__syncthreads();
	for (unsigned d = blockDim.x / 2; d > 0; d >>= 1) {
		if (t < d) s[t] += s[t + d];
		__syncthreads();
	}
	if (t == 0) o[blockIdx.x] = s[0];
}

#define TS 16
//@ gemm7 grid=2,2 block=16,16 | c:f32[1024] check(1e-4) | a:f32[1536] rand(-1,1) | b:f32[1536] rand(-1,1) | n=s32:32 | k=s32:48
extern "C" __global__ void gemm7(float *c, const float *a, const float *b, int n, int k) {
	__shared__ float as[TS][TS], bs[TS][TS + 1];
	int tx = threadIdx.x, ty = threadIdx.y;
	int row = blockIdx.y * TS + ty, col = blockIdx.x * TS + tx;
	float acc = 0.f;
	for (int t = 0; t < k; t += TS) {
		as[ty][tx] = a[row * k + t + tx];
		bs[ty][tx] = b[(t + ty) * n + col];
		__syncthreads();
#pragma unroll
		for (int j = 0; j < TS; j++) acc += as[ty][j] * bs[j][tx];
		__syncthreads();
	}
	c[row * n + col] = acc;
}

//@ scan7 grid=2 block=128 | o:s32[256] check | a:s32[256] rand(-100,100)
extern "C" __global__ void scan7(int *o, const int *a) {
	__shared__ int s[2][128];
	int t = threadIdx.x, p = 0;
	s[0][t] = a[GID];
	__syncthreads();
	for (int d = 1; d < 128; d <<= 1) {
		int v = s[p][t];
		if (t >= d) v += s[p][t - d];
		s[p ^ 1][t] = v;
		p ^= 1;
		__syncthreads();
	}
	o[GID] = s[p][t];
}

//@ warpscan7 grid=1 block=128 | o:s32[128] check | a:s32[128] rand(-100,100)
extern "C" __global__ void warpscan7(int *o, const int *a) {
	int v = a[threadIdx.x], l = threadIdx.x & 31;
	for (int d = 1; d < 32; d <<= 1) {
		int u = __shfl_up_sync(0xffffffffu, v, d);
		if (l >= d) v += u;
	}
	o[threadIdx.x] = v + __shfl_sync(0xffffffffu, v, 31) * 1000;
}

//@ hist7 grid=2 block=128 | h:u32[64] values(0) check | a:u8[1024] rand(0,255)
extern "C" __global__ void hist7(unsigned *h, const unsigned char *a) {
	__shared__ unsigned s[64];
	if (threadIdx.x < 64) s[threadIdx.x] = 0;
	__syncthreads();
	for (int j = GID; j < 1024; j += 256) atomicAdd(&s[a[j] >> 2], 1u);
	__syncthreads();
	if (threadIdx.x < 64) atomicAdd(&h[threadIdx.x], s[threadIdx.x]);
}

//@ atomics7 grid=2 block=64 | o:s32[8] values(0,0,100000,-100000,0,0,0,0) check | f:f32[2] values(0) check(1e-3) | w:u64[2] values(0) check | a:s32[128] rand(-5000,5000)
extern "C" __global__ void atomics7(int *o, float *f, unsigned long long *w, const int *a) {
	int v = a[GID];
	atomicAdd(&o[0], v);
	atomicAdd(&o[1], 1);
	atomicMin(&o[2], v);
	atomicMax(&o[3], v);
	atomicOr((unsigned *)&o[4], 1u << (v & 31));
	int old = o[5], ass;
	do { ass = old; old = atomicCAS(&o[5], ass, ass + (v & 7)); } while (old != ass);
	atomicAdd(&f[0], (float)(v & 15) * 0.25f);
	atomicAdd(&w[0], (unsigned long long)(v + 5000) << 20);
	if (v == a[0]) atomicExch(&o[6], 42);
}

//@ vec7 grid=1 block=64 | o:f32[256] check(1e-6) | a:f32[256] rand(-2,2) | b:f32[128] rand(-2,2)
extern "C" __global__ void vec7(float4 *o, const float4 *a, const float2 *b) {
	int i = threadIdx.x;
	float4 x = a[i];
	float2 y = b[i];
	float4 r = x * y.x + y.y;
	r.w = x.x + x.y + x.z + x.w;
	o[i] = r;
}

//@ ivec7 grid=1 block=64 | o:s32[256] check | a:s32[256] rand(-1000,1000) | c:u8[256] rand(0,255)
extern "C" __global__ void ivec7(int4 *o, const int4 *a, const uchar4 *c) {
	int i = threadIdx.x;
	int4 x = a[i];
	uchar4 y = c[i];
	int4 r;
	r.x = x.x * y.x; r.y = x.y + y.y; r.z = x.z - y.z; r.w = x.w ^ y.w;
	o[i] = r;
}

//@ ldg7 grid=1 block=64 | o:f32[64] check(1e-6) | a:f32[64] rand(-2,2) | b:s32[64] rand(0,63)
extern "C" __global__ void ldg7(float *__restrict__ o, const float *__restrict__ a, const int *__restrict__ b) {
	int i = threadIdx.x;
	o[i] = __ldg(&a[__ldg(&b[i])]) + a[i];
}

//@ transpose7 grid=2,2 block=32,8 | o:f32[4096] check | a:f32[4096] rand(-9,9) | n=s32:64
extern "C" __global__ void transpose7(float *o, const float *a, int n) {
	__shared__ float t[32][33];
	int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
	for (int j = 0; j < 32; j += 8) t[threadIdx.y + j][threadIdx.x] = a[(y + j) * n + x];
	__syncthreads();
	x = blockIdx.y * 32 + threadIdx.x; y = blockIdx.x * 32 + threadIdx.y;
	for (int j = 0; j < 32; j += 8) o[(y + j) * n + x] = t[threadIdx.x][threadIdx.y + j];
}

extern __shared__ float dyn7s[];
//@ dynshm7 grid=1 block=64 shared=512 | o:f32[64] check(1e-6) | a:f32[64] rand(-2,2)
extern "C" __global__ void dynshm7(float *o, const float *a) {
	int t = threadIdx.x;
	dyn7s[t] = a[t];
	dyn7s[64 + t] = a[63 - t] * 2.f;
	__syncthreads();
	o[t] = dyn7s[(t + 1) & 63] - dyn7s[64 + ((t + 7) & 63)];
}

//@ ballot7 grid=1 block=64 | o:u32[128] check | a:s32[64] rand(-10,10)
extern "C" __global__ void ballot7(unsigned *o, const int *a) {
	int v = a[threadIdx.x];
	unsigned b = __ballot_sync(0xffffffffu, v > 0);
	o[threadIdx.x] = b;
	o[64 + threadIdx.x] = __popc(b & ((1u << (threadIdx.x & 31)) - 1));
}

__constant__ float cw7[8];
__device__ int gcount7;
//@ globals7 grid=1 block=64 | o:f32[64] check(1e-5) | a:f32[72] rand(-1,1)
extern "C" __global__ void globals7(float *o, const float *a) {
	float r = 0.f;
	for (int j = 0; j < 8; j++) r += a[threadIdx.x + j] * (float)(j + 1) * 0.125f;
	if (threadIdx.x == 0) gcount7 = 5;
	__syncthreads();
	o[threadIdx.x] = r + (float)gcount7;
}

//@ compact7 grid=1 block=128 | o:s32[129] values(0) check | a:s32[128] rand(-100,100)
extern "C" __global__ void compact7(int *o, const int *a) {
	__shared__ int cnt[4];
	int v = a[threadIdx.x], w = threadIdx.x >> 5, l = threadIdx.x & 31;
	unsigned m = __ballot_sync(0xffffffffu, v > 0);
	if (l == 0) cnt[w] = __popc(m);
	__syncthreads();
	int base = 0;
	for (int j = 0; j < w; j++) base += cnt[j];
	if (v > 0) o[1 + base + __popc(m & ((1u << l) - 1))] = v;
	if (threadIdx.x == 0) o[0] = cnt[0] + cnt[1] + cnt[2] + cnt[3];
}
