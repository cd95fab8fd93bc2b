// half / bfloat16 arithmetic (__hfma2, __hmax2, h2exp, hdiv, __float22bfloat162_rn,
// bf16 reductions), written for openassembler's tests; .ptx: nvcc 13.0 --ptx -O3.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

//@ h2_ops grid=2 block=64 | o:f16[512] check | a:f16[256] rand(-2,2) | b:f16[256] rand(-2,2) | c:f16[256] rand(-1,1)
extern "C" __global__ void h2_ops(__half2 *o, const __half2 *a, const __half2 *b, const __half2 *c)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	__half2 x = a[i], y = b[i], z = c[i];
	__half2 f = __hfma2(x, y, z);
	__half2 m = __hmax2(f, __hmin2(x, y));
	o[i] = __hadd2(m, __hmul2_sat(x, z));
	o[128 + i] = __hfma2_relu(__hsub2(x, y), z, __habs2(y));
}
//@ h2_math grid=1 block=128 | o:f16[512] check | a:f16[256] rand(-2,2) | b:f16[256] rand(0.5,2)
extern "C" __global__ void h2_math(__half2 *o, const __half2 *a, const __half2 *b)
{
	int i = threadIdx.x;
	__half2 x = a[i], y = b[i];
	o[i] = h2exp(x);
	o[128 + i] = __h2div(x, y);
}
//@ h_scalar grid=1 block=128 | o:f16[512] check | a:f16[128] rand(-4,4) | b:f16[128] rand(0.5,3)
extern "C" __global__ void h_scalar(__half *o, const __half *a, const __half *b)
{
	int i = threadIdx.x;
	__half x = a[i], y = b[i];
	o[i] = __hdiv(x, y);
	o[128 + i] = hsqrt(y);
	o[256 + i] = hlog(y);
	o[384 + i] = __hgt(x, y) ? x : __hneg(y);
}
//@ bf16_conv grid=1 block=128 | o:bf16[256] check | p:f32[256] rand(-100,100) | s:f32[1] check
extern "C" __global__ void bf16_conv(__nv_bfloat162 *o, const float2 *p, float *s)
{
	int i = threadIdx.x;
	float2 v = p[i];
	__nv_bfloat162 b = __float22bfloat162_rn(v);
	b = __hfma2(b, b, __float2bfloat162_rn(1.0f));
	o[i] = b;
	float2 back = __bfloat1622float2(b);
	float r = back.x - back.y;
	for (int k = 16; k; k >>= 1) r += __shfl_xor_sync(~0u, r, k);
	if (i == 0) s[0] = r;
}
//@ h_dot grid=2 block=64 | o:f32[2] check(1e-3) | a:f16[512] rand(-1,1) | b:f16[512] rand(-1,1)
extern "C" __global__ void h_dot(float *o, const __half2 *a, const __half2 *b)
{
	__shared__ float ws[2];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	__half2 acc = __float2half2_rn(0.f);
	for (int k = i; k < 256; k += 128) acc = __hfma2(a[k], b[k], acc);
	float2 f = __half22float2(acc);
	float s = f.x + f.y;
	for (int k = 16; k; k >>= 1) s += __shfl_down_sync(~0u, s, k);
	if (threadIdx.x % 32 == 0) ws[threadIdx.x / 32] = s;
	__syncthreads();
	if (threadIdx.x == 0) o[blockIdx.x] = ws[0] + ws[1];
}
