// A second sweep: CUB block primitives beyond reduce/scan (BlockHistogram, BlockExchange,
// BlockDiscontinuity, WarpScan, BlockMergeSort), cooperative-groups multi-warp tiles,
// warp intrinsics (__reduce_*_sync, __match_any_sync), SIMD video intrinsics (__vadd4,
// __vabsdiffu4), fp8 / half atomics, 128-bit integers, special math, assert and malloc,
// a 64-thread cooperative-groups tile (its scratch in the reserved shared memory),
// written for openassembler's tests; .ptx: nvcc 13.0 --ptx -O3 -arch=sm_XX.
#include <cassert>
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cub/block/block_histogram.cuh>
#include <cub/block/block_exchange.cuh>
#include <cub/block/block_discontinuity.cuh>
#include <cub/block/block_merge_sort.cuh>
#include <cub/warp/warp_scan.cuh>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

//@ cub_hist grid=2 block=64 | h:u32[512] check | d:u8[1024] rand(0,255)
extern "C" __global__ void cub_hist(unsigned *h, const unsigned char *d)
{
	typedef cub::BlockHistogram<unsigned char, 64, 8, 256> BH;
	__shared__ typename BH::TempStorage tmp;
	__shared__ unsigned bins[256];
	unsigned char v[8];
	for (int j = 0; j < 8; j++) v[j] = d[blockIdx.x * 512 + threadIdx.x * 8 + j];
	BH(tmp).Histogram(v, bins);
	__syncthreads();
	for (int b = threadIdx.x; b < 256; b += 64) h[blockIdx.x * 256 + b] = bins[b];
}
//@ cub_exchange grid=1 block=64 | o:s32[512] check | f:s32[256] check | in:s32[256] rand(0,3)
extern "C" __global__ void cub_exchange(int *o, int *f, const int *in)
{
	typedef cub::BlockExchange<int, 64, 4> BE;
	typedef cub::BlockDiscontinuity<int, 64> BD;
	__shared__ union { typename BE::TempStorage e; typename BD::TempStorage d; } tmp;
	int v[4], flags[4];
	for (int j = 0; j < 4; j++) v[j] = in[j * 64 + threadIdx.x];
	BE(tmp.e).StripedToBlocked(v);
	for (int j = 0; j < 4; j++) o[threadIdx.x * 4 + j] = v[j];
	__syncthreads();
	BD(tmp.d).FlagHeads(flags, v, cuda::std::not_equal_to<int>());
	for (int j = 0; j < 4; j++) f[threadIdx.x * 4 + j] = flags[j];
	__syncthreads();
	BE(tmp.e).BlockedToWarpStriped(v);
	for (int j = 0; j < 4; j++) o[256 + threadIdx.x * 4 + j] = v[j];
}
struct Less { __device__ bool operator()(int a, int b) const { return a < b; } };
//@ cub_mergesort grid=2 block=32 | k:s32[256] rand(-1000,1000) check
extern "C" __global__ void cub_mergesort(int *k)
{
	typedef cub::BlockMergeSort<int, 32, 4> BMS;
	__shared__ typename BMS::TempStorage tmp;
	int v[4];
	for (int j = 0; j < 4; j++) v[j] = k[blockIdx.x * 128 + threadIdx.x * 4 + j];
	BMS(tmp).Sort(v, Less());
	for (int j = 0; j < 4; j++) k[blockIdx.x * 128 + threadIdx.x * 4 + j] = v[j];
}
//@ warp_scan grid=1 block=64 | o:s32[192] check | in:s32[64] rand(-100,100)
extern "C" __global__ void warp_scan(int *o, const int *in)
{
	typedef cub::WarpScan<int> WS;
	__shared__ typename WS::TempStorage tmp[2];
	int x = in[threadIdx.x], inc, exc, agg;
	WS(tmp[threadIdx.x / 32]).InclusiveSum(x, inc);
	WS(tmp[threadIdx.x / 32]).ExclusiveScan(x, exc, 0, cuda::maximum<>{}, agg);
	o[threadIdx.x] = inc;
	o[64 + threadIdx.x] = exc;
	o[128 + threadIdx.x] = agg;
}

//@ cg_scan grid=1 block=64 | o:s32[128] check | in:s32[64] rand(-50,50)
extern "C" __global__ void cg_scan(int *o, const int *in)
{
	cg::thread_block_tile<16> t = cg::tiled_partition<16>(cg::this_thread_block());
	int x = in[threadIdx.x];
	o[threadIdx.x] = cg::inclusive_scan(t, x);
	o[64 + threadIdx.x] = cg::exclusive_scan(t, x, cg::bit_xor<int>());
}

//@ redux grid=1 block=64 | o:u32[256] check | in:u32[64] rand(0,1000)
extern "C" __global__ void redux(unsigned *o, const unsigned *in)
{
	unsigned x = in[threadIdx.x];
	unsigned m = __match_any_sync(~0u, x & 3);
	o[threadIdx.x] = __reduce_add_sync(~0u, x);
	o[64 + threadIdx.x] = __reduce_max_sync(m, x);
	o[128 + threadIdx.x] = __reduce_or_sync(~0u, x) ^ __reduce_and_sync(~0u, x | 0x100);
	o[192 + threadIdx.x] = m ^ (unsigned)__reduce_min_sync(~0u, (int)x - 500);
}

//@ simd_video grid=1 block=64 | o:u32[320] check | a:u32[64] rand(0,4294967295) | b:u32[64] rand(0,4294967295)
extern "C" __global__ void simd_video(unsigned *o, const unsigned *a, const unsigned *b)
{
	unsigned x = a[threadIdx.x], y = b[threadIdx.x];
	o[threadIdx.x] = __vadd4(x, y);
	o[64 + threadIdx.x] = __vabsdiffu4(x, y);
	o[128 + threadIdx.x] = __vmaxs2(x, y) ^ __vcmpgtu4(x, y);
	o[192 + threadIdx.x] = __vsadu4(x, y) + __vavgu2(x, y);
	o[256 + threadIdx.x] = __vsubss4(x, y);
}

//@ int128 grid=1 block=64 | o:u64[256] check | a:u64[64] rand(0,18446744073709551615) | b:u64[64] rand(1,18446744073709551615)
extern "C" __global__ void int128(unsigned long long *o, const unsigned long long *a, const unsigned long long *b)
{
	unsigned __int128 x = a[threadIdx.x], y = b[threadIdx.x];
	unsigned __int128 p = x * y + (x << 64);
	o[threadIdx.x] = (unsigned long long)p;
	o[64 + threadIdx.x] = (unsigned long long)(p >> 64);
	o[128 + threadIdx.x] = (unsigned long long)(p / (y | 1));
	o[192 + threadIdx.x] = __umul64hi(a[threadIdx.x], b[threadIdx.x]) ^ (unsigned long long)__brevll(x) ^ __clzll(y) ^ __ffsll(x);
}

//@ fp8_conv grid=1 block=64 | o:u8[256] check | f:f32[128] rand(-500,500) | h:f32[128] check
extern "C" __global__ void fp8_conv(unsigned char *o, const float2 *f, float *h)
{
	float2 v = f[threadIdx.x];
	__nv_fp8x2_e4m3 a(v);
	__nv_fp8x2_e5m2 b(v);
	*(__nv_fp8x2_e4m3 *)&o[threadIdx.x * 2] = a;
	*(__nv_fp8x2_e5m2 *)&o[128 + threadIdx.x * 2] = b;
	float2 back = (float2)a;
	h[threadIdx.x * 2] = back.x + (float)__nv_fp8_e5m2(v.y);
	h[threadIdx.x * 2 + 1] = back.y;
}

//@ atomics_half grid=2 block=64 | h:f16[2] check | b:bf16[2] check | d:f64[2] check(1e-12) | u:u64[2] check | s:u16[2] check
extern "C" __global__ void atomics_half(__half2 *h, __nv_bfloat162 *b, double *d, unsigned long long *u, unsigned short *s)
{
	unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
	atomicAdd(h, __halves2half2(__float2half(0.25f), __float2half(1.0f)));
	atomicAdd(b, __floats2bfloat162_rn(0.5f, 2.0f));
	atomicAdd(&d[0], 0.125 * t);
	atomicAdd(&d[1], (double)(t % 37));
	atomicMax(&u[0], (unsigned long long)t << 40);
	atomicAnd(&u[1], ~(1ull << (t & 63)));
	atomicCAS(&s[0], (unsigned short)0, (unsigned short)7);
	atomicAdd((unsigned *)&s[0], 0u);
}

//@ special_math grid=1 block=64 | o:f32[512] check(1e-6) | x:f32[64] rand(0.05,0.95) | od:f64[256] check(1e-14)
extern "C" __global__ void special_math(float *o, const float *x, double *od)
{
	float v = x[threadIdx.x];
	o[threadIdx.x] = erfcinvf(v);
	o[64 + threadIdx.x] = lgammaf(v * 10.f);
	o[128 + threadIdx.x] = tgammaf(v * 5.f);
	o[192 + threadIdx.x] = normcdfinvf(v);
	o[256 + threadIdx.x] = j0f(v * 20.f);
	o[320 + threadIdx.x] = cbrtf(v - 0.5f) + rhypotf(v, 1.f - v);
	float s, c;
	sincospif(v * 4.f, &s, &c);
	o[384 + threadIdx.x] = s * c;
	o[448 + threadIdx.x] = powf(v * 3.f, 7.5f - v) + expm1f(v) + log1pf(v);
	double dv = v;
	od[threadIdx.x] = pow(dv * 3, 2.5) + atan2(dv, 1 - dv);
	od[64 + threadIdx.x] = log1p(dv) * exp(-dv) + cbrt(dv);
	od[128 + threadIdx.x] = erf(dv) + lgamma(dv * 7);
	od[192 + threadIdx.x] = sinpi(dv * 3) + acosh(1 + dv) + asinh(dv);
}

//@ assert_malloc grid=1 block=32 | o:s32[32] check | n=s32:8
extern "C" __global__ void assert_malloc(int *o, int n)
{
	int *p = (int *)malloc(n * sizeof(int));
	assert(p != nullptr);
	for (int i = 0; i < n; i++) p[i] = i * threadIdx.x;
	int s = 0;
	for (int i = 0; i < n; i++) s += p[i];
	free(p);
	assert(s >= 0);
	o[threadIdx.x] = s;
}
//@ cg_multiwarp grid=2 block=128 | o:f32[8] check(1e-5) | in:f32[256] rand(-1,1)
extern "C" __global__ void cg_multiwarp(float *o, const float *in)
{
	cg::thread_block b = cg::this_thread_block();
	cg::thread_block_tile<64> t = cg::tiled_partition<64>(b);
	float x = in[blockIdx.x * 128 + threadIdx.x];
	float s = cg::reduce(t, x, cg::plus<float>());
	if (t.thread_rank() == 0) o[blockIdx.x * 2 + t.meta_group_rank()] = s;
	t.sync();
	float m = cg::reduce(t, x, cg::greater<float>());
	if (t.thread_rank() == 1) o[4 + blockIdx.x * 2 + t.meta_group_rank()] = m;
}
