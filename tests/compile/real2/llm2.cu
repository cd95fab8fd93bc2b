// LLM inference / training kernels (online softmax, rmsnorm fwd+bwd, layernorm bwd,
// rotary embedding, swiglu, cross-entropy, top-k, paged-attention gather, int8 dequant
// with __dp4a / __byte_perm / lop3), written for openassembler's tests.
// The .ptx files are nvcc 13.0 --ptx -O3 -arch=sm_XX of this file; //@ lines: launch specs.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__device__ inline float warp_sum(float v)
{
	for (int o = 16; o; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
	return v;
}

//@ online_softmax grid=4 block=32 | o:f32[1024] check(1e-6) | x:f32[1024] rand(-8,8) | C=s32:256
extern "C" __global__ void online_softmax(float *o, const float *x, int C)
{
	// one warp per row, single pass max+sum with rescaling (flash-attention style)
	const float *r = x + blockIdx.x * C;
	float m = -INFINITY, s = 0;
	for (int i = threadIdx.x; i < C; i += 32) {
		float v = r[i], nm = fmaxf(m, v);
		s = s * __expf(m - nm) + __expf(v - nm);
		m = nm;
	}
	for (int off = 16; off; off >>= 1) {
		float om = __shfl_xor_sync(~0u, m, off), os = __shfl_xor_sync(~0u, s, off);
		float nm = fmaxf(m, om);
		s = s * __expf(m - nm) + os * __expf(om - nm);
		m = nm;
	}
	float inv = 1.f / s;
	for (int i = threadIdx.x; i < C; i += 32) o[blockIdx.x * C + i] = __expf(r[i] - m) * inv;
}

//@ rmsnorm_fwd grid=4 block=64 | o:bf16[1024] check | rms:f32[4] check | x:bf16[1024] rand(-3,3) | w:bf16[256] rand(0.5,1.5) | C=s32:256
extern "C" __global__ void rmsnorm_fwd(__nv_bfloat16 *o, float *rms, const __nv_bfloat16 *x, const __nv_bfloat16 *w, int C)
{
	__shared__ float part[2];
	const __nv_bfloat162 *r = (const __nv_bfloat162 *)(x + blockIdx.x * C);
	float ss = 0;
	for (int i = threadIdx.x; i < C / 2; i += blockDim.x) {
		float2 f = __bfloat1622float2(r[i]);
		ss += f.x * f.x + f.y * f.y;
	}
	ss = warp_sum(ss);
	if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = ss;
	__syncthreads();
	float inv = rsqrtf((part[0] + part[1]) / C + 1e-6f);
	if (threadIdx.x == 0) rms[blockIdx.x] = inv;
	for (int i = threadIdx.x; i < C; i += blockDim.x)
		o[blockIdx.x * C + i] = __float2bfloat16(__bfloat162float(x[blockIdx.x * C + i]) * inv * __bfloat162float(w[i]));
}
//@ rmsnorm_bwd grid=4 block=32 | dx:f32[512] check(1e-5) | dw:f32[128] check(1e-4) | dy:f32[512] rand(-1,1) | x:f32[512] rand(-2,2) | w:f32[128] rand(0.5,1.5) | rstd:f32[4] rand(0.5,1) | C=s32:128
extern "C" __global__ void rmsnorm_bwd(float *dx, float *dw, const float *dy, const float *x, const float *w, const float *rstd, int C)
{
	cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
	int row = blockIdx.x;
	float r = rstd[row], dot = 0;
	for (int i = warp.thread_rank(); i < C; i += 32) dot += dy[row * C + i] * w[i] * x[row * C + i];
	dot = cg::reduce(warp, dot, cg::plus<float>()) / C;
	for (int i = warp.thread_rank(); i < C; i += 32) {
		float xi = x[row * C + i];
		dx[row * C + i] = r * (dy[row * C + i] * w[i] - xi * r * r * dot);
		atomicAdd(&dw[i], dy[row * C + i] * xi * r);
	}
}
//@ layernorm_bwd grid=4 block=32 | dx:f32[512] check(1e-5) | dy:f32[512] rand(-1,1) | x:f32[512] rand(-2,2) | w:f32[128] rand(0.5,1.5) | mean:f32[4] rand(-0.1,0.1) | rstd:f32[4] rand(0.5,1) | C=s32:128
extern "C" __global__ void layernorm_bwd(float *dx, const float *dy, const float *x, const float *w, const float *mean, const float *rstd, int C)
{
	cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
	int row = blockIdx.x;
	float mu = mean[row], rs = rstd[row], a = 0, b = 0;
	for (int i = warp.thread_rank(); i < C; i += 32) {
		float n = (x[row * C + i] - mu) * rs, d = w[i] * dy[row * C + i];
		a += d; b += d * n;
	}
	a = cg::reduce(warp, a, cg::plus<float>()) / C;
	b = cg::reduce(warp, b, cg::plus<float>()) / C;
	for (int i = warp.thread_rank(); i < C; i += 32) {
		float n = (x[row * C + i] - mu) * rs, d = w[i] * dy[row * C + i];
		dx[row * C + i] = (d - a - n * b) * rs;
	}
}

//@ rope grid=4 block=32 | q:f32[512] rand(-1,1) check(1e-5) | pos=s32:17 | D=s32:64 | theta=f32:10000
extern "C" __global__ void rope(float *q, int pos, int D, float theta)
{
	// rotary embedding on 2 heads x 2 tokens; each thread rotates one pair
	int h = blockIdx.x, i = threadIdx.x;
	float freq = 1.0f / powf(theta, (2.0f * i) / D);
	float s, c;
	sincosf((pos + h) * freq, &s, &c);
	float2 *p = (float2 *)(q + h * 2 * D) + i;
	for (int t = 0; t < 2; t++, p += D / 2) {
		float2 v = *p;
		*p = make_float2(v.x * c - v.y * s, v.x * s + v.y * c);
	}
}

//@ swiglu grid=2 block=128 | o:bf16[256] check | g:bf16[256] rand(-4,4) | u:bf16[256] rand(-2,2) | n=s32:256
extern "C" __global__ void swiglu(__nv_bfloat16 *o, const __nv_bfloat16 *g, const __nv_bfloat16 *u, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	float a = __bfloat162float(g[i]), b = __bfloat162float(u[i]);
	o[i] = __float2bfloat16(a / (1.0f + expf(-a)) * b);
}
//@ gelu_erf grid=2 block=128 | o:f32[256] check | x:f32[256] rand(-5,5)
extern "C" __global__ void gelu_erf(float *o, const float *x)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float v = x[i];
	o[i] = 0.5f * v * (1.0f + erff(v * 0.70710678f));
}

//@ xent grid=4 block=64 | loss:f32[4] check(1e-5) | dlog:f32[1024] check(1e-6) | logits:f32[1024] rand(-5,5) | tgt:s32[4] rand(0,255) | V=s32:256
extern "C" __global__ void xent(float *loss, float *dlog, const float *logits, const int *tgt, int V)
{
	__shared__ float red[2];
	const float *l = logits + blockIdx.x * V;
	float m = -INFINITY;
	for (int i = threadIdx.x; i < V; i += blockDim.x) m = fmaxf(m, l[i]);
	for (int o = 16; o; o >>= 1) m = fmaxf(m, __shfl_xor_sync(~0u, m, o));
	if (threadIdx.x % 32 == 0) red[threadIdx.x / 32] = m;
	__syncthreads();
	m = fmaxf(red[0], red[1]);
	__syncthreads();
	float s = 0;
	for (int i = threadIdx.x; i < V; i += blockDim.x) s += expf(l[i] - m);
	s = warp_sum(s);
	if (threadIdx.x % 32 == 0) red[threadIdx.x / 32] = s;
	__syncthreads();
	s = red[0] + red[1];
	int t = tgt[blockIdx.x];
	if (threadIdx.x == 0) loss[blockIdx.x] = logf(s) + m - l[t];
	for (int i = threadIdx.x; i < V; i += blockDim.x) dlog[blockIdx.x * V + i] = expf(l[i] - m) / s - (i == t ? 1.f : 0.f);
}

//@ topk grid=4 block=32 | val:f32[32] check | idx:s32[32] check | x:f32[1024] rand(-10,10) | V=s32:256
extern "C" __global__ void topk(float *val, int *idx, const float *x, int V)
{
	// top-8 per row by 8 rounds of warp argmax
	const float *r = x + blockIdx.x * V;
	float loc[8];
	for (int j = 0; j < 8; j++) loc[j] = r[threadIdx.x + 32 * j];
	for (int k = 0; k < 8; k++) {
		float bv = -INFINITY;
		int bi = 0x7fffffff;
		for (int j = 0; j < 8; j++)
			if (loc[j] > bv) { bv = loc[j]; bi = threadIdx.x + 32 * j; }
		for (int o = 16; o; o >>= 1) {
			float ov = __shfl_xor_sync(~0u, bv, o);
			int oi = __shfl_xor_sync(~0u, bi, o);
			if (ov > bv || (ov == bv && oi < bi)) { bv = ov; bi = oi; }
		}
		if (threadIdx.x == 0) { val[blockIdx.x * 8 + k] = bv; idx[blockIdx.x * 8 + k] = bi; }
		if ((bi & 31) == (int)threadIdx.x) loc[bi >> 5] = -INFINITY;
	}
}

//@ paged_gather grid=2,4 block=64 | o:f16[2048] check | q:f16[128] rand(-1,1) | kc:f16[2048] rand(-1,1) | bt:s32[8] values(3,0,2,1,1,3,0,2) | ctx=s32:16 | scale=f32:0.125
extern "C" __global__ void paged_gather(__half *o, const __half *q, const __half *kc, const int *bt, int ctx, float scale)
{
	// paged-attention style: scores q.k for each token of a sequence, keys found through a block table
	// (block size 8 tokens, head dim 64); grid.x = sequence, grid.y = 4 token chunks
	const int BS = 8, D = 64;
	int seq = blockIdx.x, d = threadIdx.x;
	for (int t = blockIdx.y * 4; t < blockIdx.y * 4 + 4 && t < ctx; t++) {
		int blk = bt[seq * 4 + t / BS];
		const __half *k = kc + (blk * BS + t % BS) * D;
		float p = __half2float(q[seq * D + d]) * __half2float(k[d]);
		p = warp_sum(p);
		__shared__ float w[2];
		if (d % 32 == 0) w[d / 32] = p;
		__syncthreads();
		float sc = (w[0] + w[1]) * scale;
		o[(seq * 16 + t) * 64 + d] = __float2half(sc + (d & 1));
		__syncthreads();
	}
}

//@ dequant_dp4a grid=2 block=64 | o:f32[128] check | a:s32[512] rand(-2147483648,2147483647) | b:s32[512] rand(-2147483648,2147483647) | sc:f32[128] rand(0.001,0.01)
extern "C" __global__ void dequant_dp4a(float *o, const int *a, const int *b, const float *sc)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x, acc = 0;
	unsigned acc2 = 0;
	for (int k = 0; k < 4; k++) {
		acc = __dp4a(a[i * 4 + k], b[i * 4 + k], acc);
		acc2 = __dp2a_lo((unsigned)a[i * 4 + k], (unsigned)b[i * 4 + k], acc2);
	}
	o[i] = (float)acc * sc[i] + (float)(acc2 & 0xff);
}
//@ dequant_int4 grid=2 block=64 | o:f16[1024] check | w:u32[128] rand(0,4294967295) | sc:f16[128] rand(0.01,0.1) | zero=s32:8
extern "C" __global__ void dequant_int4(__half2 *o, const unsigned *w, const __half *sc, int zero)
{
	// unpack 8 int4 weights with prmt / lop3 magic-number trick (as in AWQ / Marlin kernels)
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned q = w[i];
	const unsigned MAGIC = 0x64006400; // fp16 1024
	__half2 s2 = __half2half2(sc[i]);
	__half2 z2 = __float2half2_rn(1024.f + zero);
	for (int k = 0; k < 4; k++) {
		unsigned src = __byte_perm(q, 0, 0x4440 + k) | (__byte_perm(q, 0, 0x4440 + k) << 12);
		unsigned h;
		asm("lop3.b32 %0, %1, %2, %3, 0xea;" : "=r"(h) : "r"(src), "n"(0x000f000f), "n"(MAGIC));
		__half2 v = *(__half2 *)&h;
		o[i * 4 + k] = __hmul2(__hsub2(v, z2), s2);
	}
}
//@ int8_gemv grid=2 block=32 | y:f32[8] check | W:s8[1024] rand(-128,127) | x:s8[256] rand(-128,127) | scale:f32[8] rand(0.01,0.02)
extern "C" __global__ void int8_gemv(float *y, const char4 *W, const char4 *x, const float *scale)
{
	// 8 rows of 128 int8, 4 rows per block, one warp per block looping over rows
	for (int r = blockIdx.x * 4; r < blockIdx.x * 4 + 4; r++) {
		int acc = __dp4a(*(const int *)&W[r * 32 + threadIdx.x], *(const int *)&x[(r & 1) * 32 + threadIdx.x], 0);
		for (int o = 16; o; o >>= 1) acc += __shfl_down_sync(~0u, acc, o);
		if (threadIdx.x == 0) y[r] = acc * scale[r];
	}
}
