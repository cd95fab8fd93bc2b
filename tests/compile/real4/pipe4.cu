// Asynchronous pipelines, a fourth sweep (session 8, "breadth4"): a warp-specialized
// producer/consumer pipeline (cuda::pipeline with per-role partition, cuda::memcpy_async)
// and cuda::barrier arrive/wait phases, written for openassembler's tests;
// .ptx: nvcc 13.0 --ptx -O3 -arch=sm_XX (gen.sh; sm_90 only: on sm_80 the compiler refuses
// libcu++'s mbarrier.test_wait.parity); //@ lines: launch specs.
#include <cuda/pipeline>
#include <cuda/barrier>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Warp 0 produces (memcpy_async of 4 stages of 128 floats), warps 1..3 consume (sum of squares).
//@ ws_pipeline grid=2 block=128 | o:f32[2] check(1e-4) | in:f32[4096] rand(-1,1) | tiles=s32:16
extern "C" __global__ void ws_pipeline(float *o, const float *in, int tiles)
{
	constexpr int S = 4, T = 128;
	__shared__ __align__(16) float buf[S][T];
	__shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, S> st;
	__shared__ float part[4];
	auto blk = cg::this_thread_block();
	bool prod = threadIdx.x < 32;
	auto pipe = cuda::make_pipeline(blk, &st, prod ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer);
	const float *src = in + blockIdx.x * tiles * T;
	float acc = 0;
	if (prod) {
		for (int t = 0; t < tiles; t++) {
			pipe.producer_acquire();
			cuda::memcpy_async(&buf[t % S][threadIdx.x * 4], &src[t * T + threadIdx.x * 4], cuda::aligned_size_t<16>(16), pipe);
			pipe.producer_commit();
		}
	} else {
		for (int t = 0; t < tiles; t++) {
			pipe.consumer_wait();
			for (int i = threadIdx.x - 32; i < T; i += 96) acc += buf[t % S][i] * buf[t % S][i];
			pipe.consumer_release();
		}
	}
	for (int s = 16; s; s >>= 1) acc += __shfl_xor_sync(~0u, acc, s);
	if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = acc;
	__syncthreads();
	if (threadIdx.x == 0) o[blockIdx.x] = part[1] + part[2] + part[3];
}
// cuda::barrier phases: a 3-step stencil on shared data, each step behind arrive/wait.
//@ barrier_phases grid=2 block=64 | o:f32[128] check(1e-5) | in:f32[128] rand(0,1)
extern "C" __global__ void barrier_phases(float *o, const float *in)
{
	__shared__ float a[2][66];
	__shared__ cuda::barrier<cuda::thread_scope_block> bar;
	int t = threadIdx.x, g = blockIdx.x * 64 + t;
	if (t == 0) init(&bar, blockDim.x);
	a[0][t + 1] = in[g];
	if (t < 2) a[0][t * 65] = a[1][t * 65] = 0;
	__syncthreads();
	for (int s = 0; s < 3; s++) {
		float v = 0.25f * a[s & 1][t] + 0.5f * a[s & 1][t + 1] + 0.25f * a[s & 1][t + 2];
		bar.arrive_and_wait();
		a[(s + 1) & 1][t + 1] = v;
		auto tok = bar.arrive();
		bar.wait(std::move(tok));
	}
	o[g] = a[1][t + 1];
}
