// kernels.cu -- typical hand-written CUDA: a tensor-core GEMM (wmma, f16/bf16/
// tf32/int8) with a cp.async pipeline, softmax / layernorm / rmsnorm / gelu /
// rotary embedding over half and bfloat16 with vector loads and cache-hint
// intrinsics, a cuda::barrier producer/consumer; for nvcc -cubin probes
// (tools/harvest); never run.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <mma.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
using namespace nvcuda;
namespace cg = cooperative_groups;

template <typename T, typename Acc, int M, int N, int K>
__global__ void gemm_wmma(const T *a, const T *b, Acc *c, int n, int k)
{
	__shared__ __align__(128) T sa[2][M * K], sb[2][K * N];
	wmma::fragment<wmma::matrix_a, M, N, K, T, wmma::row_major> fa;
	wmma::fragment<wmma::matrix_b, M, N, K, T, wmma::col_major> fb;
	wmma::fragment<wmma::accumulator, M, N, K, Acc> fc;
	wmma::fill_fragment(fc, (Acc)0);
	auto block = cg::this_thread_block();
	cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
	for (int t = 0; t < k; t += K) {
		int s = (t / K) & 1;
		pipe.producer_acquire();
		for (int i = threadIdx.x; i < M * K; i += blockDim.x)
			cuda::memcpy_async(&sa[s][i], &a[blockIdx.x * M * k + t + i], sizeof(T), pipe);
		for (int i = threadIdx.x; i < K * N; i += blockDim.x)
			cuda::memcpy_async(&sb[s][i], &b[blockIdx.y * N * k + t + i], sizeof(T), pipe);
		pipe.producer_commit();
		pipe.consumer_wait();
		__syncthreads();
		wmma::load_matrix_sync(fa, sa[s], K);
		wmma::load_matrix_sync(fb, sb[s], K);
		wmma::mma_sync(fc, fa, fb, fc);
		pipe.consumer_release();
	}
	wmma::store_matrix_sync(c + blockIdx.x * M * n + blockIdx.y * N, fc, n, wmma::mem_row_major);
}
template __global__ void gemm_wmma<half, float, 16, 16, 16>(const half *, const half *, float *, int, int);
template __global__ void gemm_wmma<half, half, 32, 8, 16>(const half *, const half *, half *, int, int);
template __global__ void gemm_wmma<__nv_bfloat16, float, 16, 16, 16>(const __nv_bfloat16 *, const __nv_bfloat16 *, float *, int, int);
template __global__ void gemm_wmma<signed char, int, 16, 16, 16>(const signed char *, const signed char *, int *, int, int);

__global__ void gemm_tf32(const float *a, const float *b, float *c, int n)
{
	wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
	wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> fb;
	wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
	wmma::fill_fragment(fc, 0.0f);
	for (int k = 0; k < n; k += 8) {
		wmma::load_matrix_sync(fa, a + k, n);
		wmma::load_matrix_sync(fb, b + k, n);
		for (int i = 0; i < fa.num_elements; i++) fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
		wmma::mma_sync(fc, fa, fb, fc);
	}
	wmma::store_matrix_sync(c, fc, n, wmma::mem_col_major);
}

__device__ float warp_sum(float v) { for (int o = 16; o; o >>= 1) v += __shfl_xor_sync(~0u, v, o); return v; }
__device__ float warp_max(float v) { for (int o = 16; o; o >>= 1) v = fmaxf(v, __shfl_xor_sync(~0u, v, o)); return v; }

template <typename T>
__global__ void softmax(T *out, const T *in, int n)
{
	const T *row = in + blockIdx.x * n;
	float m = -INFINITY, s = 0;
	for (int i = threadIdx.x; i < n; i += 32) m = fmaxf(m, (float)row[i]);
	m = warp_max(m);
	for (int i = threadIdx.x; i < n; i += 32) s += __expf((float)row[i] - m);
	s = warp_sum(s);
	for (int i = threadIdx.x; i < n; i += 32) out[blockIdx.x * n + i] = (T)(__expf((float)row[i] - m) / s);
}
template __global__ void softmax<float>(float *, const float *, int);
template __global__ void softmax<half>(half *, const half *, int);
template __global__ void softmax<__nv_bfloat16>(__nv_bfloat16 *, const __nv_bfloat16 *, int);

__global__ void layernorm(float4 *out, const float4 *in, const float4 *g, const float4 *bta, int n4, float eps)
{
	__shared__ float red[32];
	float s = 0, s2 = 0;
	for (int i = threadIdx.x; i < n4; i += blockDim.x) {
		float4 v = __ldg(&in[blockIdx.x * n4 + i]);
		s += v.x + v.y + v.z + v.w; s2 += v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w;
	}
	s = warp_sum(s); s2 = warp_sum(s2);
	if ((threadIdx.x & 31) == 0) red[threadIdx.x >> 5] = s;
	__syncthreads();
	float mean = red[0] / (n4 * 4), var = s2 / (n4 * 4) - mean * mean, r = rsqrtf(var + eps);
	for (int i = threadIdx.x; i < n4; i += blockDim.x) {
		float4 v = __ldcs(&in[blockIdx.x * n4 + i]), gg = __ldca(&g[i]), bb = __ldcg(&bta[i]);
		v.x = (v.x - mean) * r * gg.x + bb.x; v.y = (v.y - mean) * r * gg.y + bb.y;
		v.z = (v.z - mean) * r * gg.z + bb.z; v.w = (v.w - mean) * r * gg.w + bb.w;
		__stcs(&out[blockIdx.x * n4 + i], v);
	}
}

__global__ void rmsnorm_gelu_rope(__half2 *x, const __nv_bfloat162 *w, const float2 *freq, int n2, float eps)
{
	__half2 *row = x + blockIdx.x * n2;
	float s = 0;
	for (int i = threadIdx.x; i < n2; i += 32) { float2 f = __half22float2(row[i]); s += f.x * f.x + f.y * f.y; }
	float r = rsqrtf(warp_sum(s) / (2 * n2) + eps);
	for (int i = threadIdx.x; i < n2; i += 32) {
		float2 f = __half22float2(row[i]);
		float2 ww = __bfloat1622float2(w[i]);
		f.x *= r * ww.x; f.y *= r * ww.y;
		f.x = 0.5f * f.x * (1.0f + tanhf(0.7978845608f * (f.x + 0.044715f * f.x * f.x * f.x)));
		f.y = f.y * normcdff(f.y);
		float sn, cs; __sincosf(freq[i].x * blockIdx.x, &sn, &cs);
		float2 o = make_float2(f.x * cs - f.y * sn, f.x * sn + f.y * cs);
		__stcg(&row[i], __float22half2_rn(o));
	}
}

__global__ void producer_consumer(int *out, const int *in, int n)
{
	__shared__ cuda::barrier<cuda::thread_scope_block> bar;
	__shared__ int buf[256];
	auto block = cg::this_thread_block();
	if (block.thread_rank() == 0) init(&bar, block.size());
	block.sync();
	cuda::memcpy_async(block, buf, in + blockIdx.x * 256, sizeof(int) * 256, bar);
	bar.arrive_and_wait();
	int v = buf[threadIdx.x] * 3;
	auto tok = bar.arrive();
	bar.wait(std::move(tok));
	out[blockIdx.x * 256 + threadIdx.x] = v + buf[(threadIdx.x + 1) & 255];
}
