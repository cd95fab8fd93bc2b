// misc.cu -- device features beyond CUB: calls to noinline functions,
// printf, atomics, warp intrinsics, math library calls, cp.async pipelines,
// cooperative groups, 64-bit and half arithmetic.
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_pipeline.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__device__ __noinline__ float helper(float x, int k)
{
	return k > 3 ? sinf(x) * expf(x) : logf(x + 1.0f) / (float)k;
}
__device__ __noinline__ void say(int v) { printf("value %d\n", v); }
__device__ double dtable[4] = { 1.0, 2.5, -3.0, 0.125 };
__constant__ int ctab[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
__device__ int *ptrs[2] = { nullptr, nullptr };

__global__ void k_calls(float *out, const float *in, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = helper(in[i], i & 7) + ctab[i & 7];
	if (i == 0)
		say(n);
}

__global__ void k_atomics(int *c, unsigned long long *u, float *f, double *d, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	atomicAdd(c, 1);
	atomicMax(c + 1, i);
	atomicCAS(c + 2, 0, i);
	atomicExch(c + 3, i);
	atomicAdd(u, (unsigned long long)i);
	atomicAdd(f, 1.5f);
	atomicAdd(d, dtable[i & 3]);
	atomicInc((unsigned *)c + 4, 100);
	atomicOr(c + 5, 1 << (i & 31));
	__threadfence();
	unsigned m = __ballot_sync(0xffffffffu, i & 1);
	int s = __shfl_xor_sync(0xffffffffu, i, 1) + __shfl_up_sync(0xffffffffu, i, 2);
	s += __reduce_add_sync(0xffffffffu, i) + __popc(m) + __clz(i) + __brev(i) + __ffs(i);
	s += __match_any_sync(0xffffffffu, i & 3);
	if (__all_sync(0xffffffffu, s > 0))
		c[6 + (i & 1)] = s;
}

__global__ void k_half(__half2 *h, __nv_bfloat162 *b, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		h[i] = __hfma2(h[i], h[i], __float2half2_rn(1.0f));
		b[i] = __hmul2(b[i], b[i]);
	}
}

__global__ void k_pipeline(float *out, const float *in)
{
	__shared__ float buf[256];
	__pipeline_memcpy_async(&buf[threadIdx.x], &in[blockIdx.x * 256 + threadIdx.x], sizeof(float));
	__pipeline_commit();
	__pipeline_wait_prior(0);
	__syncthreads();
	cg::thread_block tb = cg::this_thread_block();
	cg::thread_block_tile<32> w = cg::tiled_partition<32>(tb);
	float v = cg::reduce(w, buf[threadIdx.x ^ 1], cg::plus<float>());
	out[blockIdx.x * 256 + threadIdx.x] = v + __fdividef(1.0f, v) + rsqrtf(v) + (float)sqrt((double)v);
	__nanosleep(100);
}

__global__ void k_dyn(long long *out, int n)
{
	extern __shared__ long long sm[];
	long long acc = 0;
	for (int i = threadIdx.x; i < n; i += blockDim.x) {
		sm[i] = (long long)i * i / 7 % 13;
	}
	__syncthreads();
	for (int i = 0; i < n; i++)
		acc += sm[i] >> (i & 3);
	out[threadIdx.x] = acc + clock64();
}
