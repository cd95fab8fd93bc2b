// llm.c-style training kernels, a sixth sweep (session 10, "breadth6"): encoder forward
// (token + position embeddings, x128-style float4 packing), encoder backward with atomicAdd on
// bf16 (__nv_bfloat162) and half2, matmul_backward_bias (warp shuffles + shared reduce),
// fused classifier (online softmax, cross-entropy loss and its gradient in one pass, cg::reduce),
// fused residual + layernorm forward (cooperative groups thread_block_tile<32>), gelu forward and
// backward (tanhf), a global norm with atomicAdd on float, causal attention softmax with
// cg::reduce; written for openassembler's tests; .ptx: nvcc 13.0 --ptx -O3 -arch=sm_XX (gen.sh);
// //@ lines: launch specs.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

//@ encoder_fwd grid=2 block=64 | out:f32[512] check(1e-6) | inp:s32[8] values(3,0,7,1,2,5,6,4) | wte:f32[256] rand(-1,1) | wpe:f32[256] rand(-1,1)
extern "C" __global__ void encoder_fwd(float4 *out, const int *inp, const float4 *wte, const float4 *wpe)
{
	/* C = 32 (8 float4), V = 8 tokens in wte, T = 4; 128 threads: 8 tokens x 8 float4, twice */
	int idx = blockIdx.x * blockDim.x + threadIdx.x, C4 = 8, T = 4;
	int c = idx % C4, bt = (idx / C4) % 8, t = bt % T, half = idx / 64;
	float4 a = wte[(inp[bt] & 7) * C4 + c], b = wpe[(t + 4 * half) * C4 + c];
	out[idx] = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}

//@ encoder_bwd grid=1 block=128 | dwte:u32[64] check | dh:u32[32] check | dout:f32[512] rand(-1,1) | inp:s32[8] values(3,0,3,1,0,5,3,1)
extern "C" __global__ void encoder_bwd(__nv_bfloat162 *dwte, __half2 *dh, const float *dout, const int *inp)
{
	int t = threadIdx.x, bt = t >> 4, c = t & 15;   /* 8 tokens x 16 pairs */
	const float *d = dout + bt * 32 + 2 * c;
	/* small exact values so the order of the atomics does not matter */
	float x = rintf(d[0] * 8.0f) * 0.125f, y = rintf(d[1] * 8.0f) * 0.125f;
	atomicAdd(&dwte[(inp[bt] & 3) * 16 + c], __floats2bfloat162_rn(x, y));
	atomicAdd(&dh[c + 16 * (bt & 1)], __floats2half2_rn(x, y));
}

//@ mm_bwd_bias grid=2 block=128 | dbias:f32[64] check(1e-4) | dout:f32[2048] rand(-1,1)
extern "C" __global__ void mm_bwd_bias(float *dbias, const float *dout)
{
	/* BT = 32 rows, OC = 64; block b handles 32 channels; warp w sums rows w, w+4, ... */
	__shared__ float sm[4][32];
	int lane = threadIdx.x & 31, w = threadIdx.x >> 5, oc = blockIdx.x * 32 + lane;
	float s = 0;
	for (int r = w; r < 32; r += 4) s += dout[r * 64 + oc];
	sm[w][lane] = s;
	__syncthreads();
	if (w == 0) {
		float v = sm[0][lane] + sm[1][lane] + sm[2][lane] + sm[3][lane];
		v += __shfl_xor_sync(0xffffffffu, v, 0) * 0.0f;
		dbias[oc] += v;
	}
}

struct SoftmaxParams { float scale, offset; };
__device__ SoftmaxParams prepare_softmax(cg::thread_block_tile<32> &warp, int idx, const float *inp, int V)
{
	const float *x = inp + idx * V;
	float maxval = -INFINITY, sumval = 0.0f;
	for (int i = warp.thread_rank(); i < V; i += warp.size()) {   /* online softmax */
		float v = x[i], old = maxval;
		maxval = fmaxf(maxval, v);
		sumval *= expf(old - maxval);
		sumval += expf(v - maxval);
	}
	float gmax = cg::reduce(warp, maxval, cg::greater<float>());
	sumval *= expf(maxval - gmax);
	float gsum = cg::reduce(warp, sumval, cg::plus<float>());
	return SoftmaxParams{1.0f / gsum, gmax};
}

//@ fused_classifier grid=2 block=64 | dlogits:f32[400] check(1e-5) | losses:f32[4] check(1e-5) | logits:f32[400] rand(-4,4) | targets:s32[4] values(3,99,0,57)
extern "C" __global__ void fused_classifier(float *dlogits, float *losses, const float *logits, const int *targets)
{
	cg::thread_block block = cg::this_thread_block();
	cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
	int idx = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank(), V = 100;
	SoftmaxParams sp = prepare_softmax(warp, idx, logits, V);
	int ix = targets[idx];
	if (warp.thread_rank() == 0) losses[idx] = -logf(expf(logits[idx * V + ix] - sp.offset) * sp.scale);
	for (int i = warp.thread_rank(); i < V; i += 32) {
		float p = expf(logits[idx * V + i] - sp.offset) * sp.scale;
		dlogits[idx * V + i] = (p - (i == ix ? 1.0f : 0.0f)) * 0.25f;
	}
}

//@ resid_ln grid=1 block=128 | res:f32[256] check(1e-5) | out:f32[256] check(1e-4) | mean:f32[4] check(1e-5) | rstd:f32[4] check(1e-4) | a:f32[256] rand(-1,1) | b:f32[256] rand(-1,1) | w:f32[64] rand(0.5,1.5) | bias:f32[64] rand(-0.1,0.1)
extern "C" __global__ void resid_ln(float *res, float *out, float *mean, float *rstd, const float *a, const float *b,
				    const float *w, const float *bias)
{
	auto warp = cg::tiled_partition<32>(cg::this_thread_block());
	int row = warp.meta_group_rank(), C = 64;
	float x[2], s = 0;
	for (int k = 0; k < 2; k++) {
		int c = warp.thread_rank() + 32 * k;
		x[k] = a[row * C + c] + b[row * C + c];
		res[row * C + c] = x[k];
		s += x[k];
	}
	float m = cg::reduce(warp, s, cg::plus<float>()) / C, v = 0;
	for (int k = 0; k < 2; k++) v += (x[k] - m) * (x[k] - m);
	float r = rsqrtf(cg::reduce(warp, v, cg::plus<float>()) / C + 1e-5f);
	for (int k = 0; k < 2; k++) {
		int c = warp.thread_rank() + 32 * k;
		out[row * C + c] = __fmaf_rn((x[k] - m) * r, w[c], bias[c]);
	}
	if (warp.thread_rank() == 0) mean[row] = m, rstd[row] = r;
}

#define GELU_SCALE 0.7978845608028654f
//@ gelu_fb grid=2 block=128 | out:f32[256] check(1e-5) | dinp:f32[256] check(1e-5) | inp:f32[256] rand(-4,4) | dout:f32[256] rand(-1,1)
extern "C" __global__ void gelu_fb(float *out, float *dinp, const float *inp, const float *dout)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float x = inp[i], cube = 0.044715f * x * x * x;
	out[i] = 0.5f * x * (1.0f + tanhf(GELU_SCALE * (x + cube)));
	float ta = GELU_SCALE * (x + cube), th = tanhf(ta), ch = coshf(ta), se = 1.0f / (ch * ch);
	float lg = 0.5f * (1.0f + th) + x * 0.5f * se * GELU_SCALE * (1.0f + 3.0f * 0.044715f * x * x);
	dinp[i] = lg * dout[i];
}

//@ global_norm grid=4 block=64 | out:f32[1] check(1e-4) | data:f32[1024] rand(-1,1)
extern "C" __global__ void global_norm(float *out, const float *data)
{
	__shared__ float ws[2];
	float acc = 0;
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < 1024; i += blockDim.x * gridDim.x) acc += data[i] * data[i];
	for (int o = 16; o; o >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, o);
	if ((threadIdx.x & 31) == 0) ws[threadIdx.x >> 5] = acc;
	__syncthreads();
	/* exact in float: sums of squares rounded to 1/1024 */
	if (threadIdx.x == 0) atomicAdd(out, rintf((ws[0] + ws[1]) * 1024.0f) / 1024.0f);
}

//@ attn_softmax grid=1 block=128 | att:f32[256] check(1e-5) | preatt:f32[256] rand(-3,3)
extern "C" __global__ void attn_softmax(float *att, const float *preatt)
{
	/* 4 heads x T=8 query rows (one warp per 8 rows), causal mask, inv_temperature = 1/sqrt(HS) */
	auto warp = cg::tiled_partition<32>(cg::this_thread_block());
	int base = warp.meta_group_rank() * 64;
	for (int q = 0; q < 8; q++) {
		int row = base + q * 8, own = warp.thread_rank();
		float v = own <= q && own < 8 ? preatt[row + own] * 0.35355339f : -INFINITY;
		float mx = cg::reduce(warp, v, cg::greater<float>());
		float e = own <= q && own < 8 ? expf(v - mx) : 0.0f;
		float s = cg::reduce(warp, e, cg::plus<float>());
		if (own < 8) att[row + own] = e / s;
	}
}
