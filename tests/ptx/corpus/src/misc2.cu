// misc2.cu -- more device features: texture and surface objects, assert,
// device malloc/free, cuda::atomic_ref scopes, cuda::barrier with
// memcpy_async, video and dot-product intrinsics, funnel shifts, fp8,
// 128-bit integers; compiled with -lineinfo for .loc/.file lines.
#include <cassert>
#include <cstdint>
#include <cuda/atomic>
#include <cuda/barrier>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void k_tex(cudaTextureObject_t t, cudaSurfaceObject_t s, float *out, int w)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	float4 v = tex2D<float4>(t, x + 0.5f, 0.5f);
	out[x] = v.x + v.y + tex1Dfetch<float>(t, x);
	surf2Dwrite(v.x, s, x * 4, 0);
	float r;
	surf2Dread(&r, s, x * 4, 1);
	out[x + w] = r;
}

__global__ void k_alloc(int *out, int n)
{
	assert(n > 0);
	int *p = (int *)malloc(n * sizeof(int));
	for (int i = 0; i < n; i++)
		p[i] = i * threadIdx.x;
	out[threadIdx.x] = p[n - 1];
	free(p);
}

__global__ void k_atomic_ref(int *x, unsigned long long *y)
{
	cuda::atomic_ref<int, cuda::thread_scope_device> a(*x);
	cuda::atomic_ref<unsigned long long, cuda::thread_scope_system> b(*y);
	cuda::atomic_ref<int, cuda::thread_scope_block> c(x[1]);
	a.fetch_add(1, cuda::memory_order_relaxed);
	b.fetch_or(1ull << (threadIdx.x & 63), cuda::memory_order_acq_rel);
	int old = c.load(cuda::memory_order_acquire);
	c.compare_exchange_strong(old, old + 1, cuda::memory_order_seq_cst);
	c.store(old, cuda::memory_order_release);
}

__global__ void k_barrier(float *out, const float *in)
{
	__shared__ float buf[256];
#pragma nv_diag_suppress static_var_with_dynamic_init
	__shared__ cuda::barrier<cuda::thread_scope_block> bar;
	auto block = cg::this_thread_block();
	if (block.thread_rank() == 0)
		init(&bar, block.size());
	block.sync();
	cuda::memcpy_async(block, buf, in + blockIdx.x * 256, sizeof(buf), bar);
	bar.arrive_and_wait();
	out[blockIdx.x * 256 + threadIdx.x] = buf[255 - threadIdx.x];
}

__global__ void k_intrinsics(unsigned *out, const unsigned *in, __nv_fp8_e4m3 *f8, float *f)
{
	int i = threadIdx.x;
	unsigned a = in[i], b = in[i + 1];
	out[i] = __vabsdiffu4(a, b) + __vadd2(a, b) + __dp4a(a, b, 7u) + __dp2a_lo(a, b, 3u) +
		 __funnelshift_l(a, b, i) + __funnelshift_rc(a, b, 5) + __byte_perm(a, b, 0x5140) +
		 __sad(a, b, 1) + __umulhi(a, b) + __usad(a, b, 2);
	f8[i] = __nv_fp8_e4m3(f[i]);
	f[i] = float(f8[i + 1]) + float(__half2float(__float2half_rz(f[i])));
	__uint128_t w = (__uint128_t)a * b + in[i + 2];
	out[i + 64] = (unsigned)(w >> 64) ^ (unsigned)w;
	out[i + 128] = (unsigned)clock() + (unsigned)0u;
}
