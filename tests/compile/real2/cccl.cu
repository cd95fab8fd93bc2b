// libcu++ / CUB device code (cuda::atomic_ref, cuda::barrier + cuda::memcpy_async,
// cuda::pipeline, cuda::std::complex, cub::BlockReduce / BlockScan / BlockRadixSort /
// WarpReduce / BlockLoad), written for openassembler's tests.
// The .ptx files are nvcc 13.0 --ptx -O3 -arch=sm_XX of this file; //@ lines: launch specs.
#include <cuda/atomic>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda/std/complex>
#include <cuda/functional>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_store.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

//@ atomic_ref grid=2 block=128 | cnt:s32[4] check | mx:u64[1] check | in:s32[256] rand(-100,100)
extern "C" __global__ void atomic_ref(int *cnt, unsigned long long *mx, const int *in)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x, v = in[i];
	cuda::atomic_ref<int, cuda::thread_scope_device> c0(cnt[0]);
	c0.fetch_add(v, cuda::std::memory_order_relaxed);
	cuda::atomic_ref<int, cuda::thread_scope_block> c1(cnt[1 + (v & 1)]);
	c1.fetch_add(1, cuda::std::memory_order_acq_rel);
	cuda::atomic_ref<int, cuda::thread_scope_system> c3(cnt[3]);
	c3.fetch_max(v);
	cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> m(*mx);
	m.fetch_or(1ull << (unsigned)(v & 63), cuda::std::memory_order_seq_cst);
}

//@ barrier_copy grid=2 block=128 | o:f32[512] check | in:f32[512] rand(-1,1)
extern "C" __global__ void barrier_copy(float *o, const float *in)
{
	__shared__ float s[256];
#pragma nv_diag_suppress static_var_with_dynamic_init
	__shared__ cuda::barrier<cuda::thread_scope_block> bar;
	auto block = cg::this_thread_block();
	if (block.thread_rank() == 0) init(&bar, block.size());
	block.sync();
	cuda::memcpy_async(block, s, in + blockIdx.x * 256, sizeof(float) * 256, bar);
	bar.arrive_and_wait();
	int t = threadIdx.x;
	o[blockIdx.x * 256 + t] = s[t] + s[255 - t];
	o[blockIdx.x * 256 + 128 + t] = s[t + 128] * 2.f;
}

//@ pipeline2 grid=2 block=64 | o:f32[128] check | in:f32[1024] rand(-1,1)
extern "C" __global__ void pipeline2(float *o, const float *in)
{
	// double-buffered cuda::pipeline (thread scope) over 4 chunks of 128 floats per block
	__shared__ float buf[2][128];
	auto pipe = cuda::make_pipeline();
	const float *src = in + blockIdx.x * 512;
	int t = threadIdx.x;
	float acc = 0;
	for (int stage = 0; stage < 2; stage++) {
		pipe.producer_acquire();
		cuda::memcpy_async(&buf[stage][2 * t], src + stage * 128 + 2 * t, cuda::aligned_size_t<8>(8), pipe);
		pipe.producer_commit();
	}
	for (int c = 0; c < 4; c++) {
		cuda::pipeline_consumer_wait_prior<1>(pipe);
		__syncthreads();
		acc += buf[c & 1][t] * buf[c & 1][127 - t];
		__syncthreads();
		pipe.consumer_release();
		if (c + 2 < 4) {
			pipe.producer_acquire();
			cuda::memcpy_async(&buf[c & 1][2 * t], src + (c + 2) * 128 + 2 * t, cuda::aligned_size_t<8>(8), pipe);
			pipe.producer_commit();
		} else {
			pipe.producer_acquire();
			pipe.producer_commit();
		}
	}
	o[blockIdx.x * 64 + t] = acc;
}

//@ complex_mul grid=2 block=64 | o:f32[256] check(1e-5) | a:f32[256] rand(-2,2) | b:f32[256] rand(-2,2)
extern "C" __global__ void complex_mul(cuda::std::complex<float> *o, const cuda::std::complex<float> *a, const cuda::std::complex<float> *b)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	cuda::std::complex<float> x = a[i], y = b[i];
	cuda::std::complex<float> r = x * y + x / (y + 3.0f);
	r += cuda::std::conj(x) * cuda::std::abs(y);
	o[i] = r;
}
//@ complex_exp grid=1 block=64 | o:f64[128] check(1e-12) | a:f64[128] rand(-2,2)
extern "C" __global__ void complex_exp(cuda::std::complex<double> *o, const cuda::std::complex<double> *a)
{
	int i = threadIdx.x;
	o[i] = cuda::std::exp(a[i]) + cuda::std::sqrt(a[i]);
}

//@ cub_reduce grid=2 block=128 | o:f32[2] check(1e-5) | o2:s32[2] check | in:f32[1024] rand(-1,1)
extern "C" __global__ void cub_reduce(float *o, int *o2, const float *in)
{
	typedef cub::BlockReduce<float, 128> BR;
	typedef cub::BlockReduce<int, 128, cub::BLOCK_REDUCE_RAKING> BRI;
	__shared__ union { typename BR::TempStorage f; typename BRI::TempStorage i; } tmp;
	float v[4];
	cub::LoadDirectBlockedVectorized((int)threadIdx.x, (float *)in + blockIdx.x * 512, v);
	float s = BR(tmp.f).Sum(v);
	if (threadIdx.x == 0) o[blockIdx.x] = s;
	__syncthreads();
	int m = BRI(tmp.i).Reduce((int)(v[0] * 1000), cuda::maximum<>());
	if (threadIdx.x == 0) o2[blockIdx.x] = m;
}
//@ cub_scan grid=2 block=128 | o:s32[1024] check | agg:s32[2] check | in:s32[1024] rand(-50,50)
extern "C" __global__ void cub_scan(int *o, int *agg, const int *in)
{
	typedef cub::BlockLoad<int, 128, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE> BL;
	typedef cub::BlockScan<int, 128> BS;
	typedef cub::BlockStore<int, 128, 4, cub::BLOCK_STORE_WARP_TRANSPOSE> BST;
	__shared__ union { typename BL::TempStorage l; typename BS::TempStorage s; typename BST::TempStorage st; } tmp;
	int v[4], total;
	BL(tmp.l).Load(in + blockIdx.x * 512, v);
	__syncthreads();
	BS(tmp.s).ExclusiveSum(v, v, total);
	__syncthreads();
	BST(tmp.st).Store(o + blockIdx.x * 512, v);
	if (threadIdx.x == 0) agg[blockIdx.x] = total;
}
//@ cub_radix grid=2 block=64 | k:u32[512] rand(0,4294967295) check | v:s32[512] range(0,1) check
extern "C" __global__ void cub_radix(unsigned *k, int *v)
{
	typedef cub::BlockRadixSort<unsigned, 64, 4, int> BRS;
	__shared__ typename BRS::TempStorage tmp;
	unsigned kk[4];
	int vv[4];
	for (int j = 0; j < 4; j++) { kk[j] = k[blockIdx.x * 256 + threadIdx.x * 4 + j]; vv[j] = v[blockIdx.x * 256 + threadIdx.x * 4 + j]; }
	BRS(tmp).Sort(kk, vv);
	for (int j = 0; j < 4; j++) { k[blockIdx.x * 256 + threadIdx.x * 4 + j] = kk[j]; v[blockIdx.x * 256 + threadIdx.x * 4 + j] = vv[j]; }
}
//@ cub_warp grid=1 block=128 | o:f32[8] check(1e-5) | in:f32[128] rand(-1,1)
extern "C" __global__ void cub_warp(float *o, const float *in)
{
	typedef cub::WarpReduce<float> WR;
	typedef cub::WarpReduce<float, 16> WR16;
	__shared__ typename WR::TempStorage tmp[4];
	__shared__ typename WR16::TempStorage tmp16[8];
	int w = threadIdx.x / 32;
	float x = in[threadIdx.x];
	float s = WR(tmp[w]).Sum(x);
	if (threadIdx.x % 32 == 0) o[w] = s;
	float m = WR16(tmp16[threadIdx.x / 16]).Reduce(x, cuda::maximum<>());
	if (threadIdx.x % 32 == 16) o[4 + w] = m;
}
