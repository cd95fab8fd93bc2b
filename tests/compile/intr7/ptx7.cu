// tests/compile/intr7/ptx7.cu (sm_90): cluster groups, CCCL's cuda::ptx wrappers that compile
// (mbarrier init/arrive/test_wait/try_wait(.parity), expect_tx, cp.async.bulk to .shared::cluster
// and .shared::cta, fences of every scope, fence.proxy.tensormap, barrier.cluster, get_sreg,
// getctarank, prmt/bmsk/bfind/shl/shr/shfl) and cuda::barrier with a tx count.

#include <cuda/ptx>
#include <cuda/barrier>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
namespace ptx = cuda::ptx;
#define K(name) extern "C" __global__ void name(unsigned *o, const unsigned *a, const float *f)
#define I threadIdx.x
#define OU(k, v) o[(k)*32+I] = (unsigned)(v)

//@ x_cluster grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(x_cluster) { auto c = cg::this_cluster(); __shared__ unsigned sh[32]; sh[I] = a[I]; c.sync(); unsigned *r = c.map_shared_rank(sh, 0); OU(0, r[I^1]); OU(1, c.block_rank()); OU(2, c.num_blocks()); OU(3, c.dim_blocks().x); OU(4, c.block_index().x); OU(5, c.thread_rank()); OU(6, c.query_shared_rank(sh)); c.sync(); }
//@ x_ptx_mbar grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(x_ptx_mbar) { __shared__ alignas(8) cuda::std::uint64_t bar; if (I == 0) { ptx::mbarrier_init(&bar, 32u); ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster); } __syncthreads(); cuda::std::uint64_t st = ptx::mbarrier_arrive(&bar); while (!ptx::mbarrier_try_wait(&bar, st)) {} OU(0, 1); st = ptx::mbarrier_arrive(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar); while (!ptx::mbarrier_test_wait(&bar, st)) {} OU(1, 2); while (!ptx::mbarrier_try_wait_parity(&bar, 1u)) {} OU(2, 3); }
//@ x_ptx_expect_tx grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(x_ptx_expect_tx) { __shared__ alignas(8) cuda::std::uint64_t bar; __shared__ alignas(16) unsigned sh[32]; if (I == 0) { ptx::mbarrier_init(&bar, 1u); ptx::fence_proxy_async(ptx::space_shared); } __syncthreads(); if (I == 0) { ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, sh, a, 128u, &bar); ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, 128u); } while (!ptx::mbarrier_try_wait_parity(&bar, 0u)) {} OU(0, sh[I^3]); }
//@ x_ptx_expect_tx2 grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(x_ptx_expect_tx2) { __shared__ alignas(8) cuda::std::uint64_t bar; __shared__ alignas(16) unsigned sh[32]; if (I == 0) { ptx::mbarrier_init(&bar, 1u); ptx::mbarrier_expect_tx(ptx::sem_relaxed, ptx::scope_cta, ptx::space_shared, &bar, 128u); ptx::fence_proxy_async(ptx::space_shared); } __syncthreads(); if (I == 0) { ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, sh, a, 128u, &bar); ptx::mbarrier_arrive(&bar); } while (!ptx::mbarrier_try_wait_parity(ptx::sem_acquire, ptx::scope_cta, &bar, 0u)) {} OU(0, sh[I^3]); }
//@ x_ptx_elect grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(x_ptx_elect) { unsigned x = a[I]; __shared__ unsigned sh[4]; OU(1, ptx::getctarank(ptx::space_cluster, sh)); }
//@ x_ptx_fence_tmap grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(x_ptx_fence_tmap) { ptx::fence_proxy_tensormap_generic(ptx::sem_release, ptx::scope_gpu); ptx::fence_proxy_tensormap_generic(ptx::sem_acquire, ptx::scope_gpu, a, ptx::n32_t<128>()); OU(0, a[I]); }
//@ x_ptx_barrier_cluster grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(x_ptx_barrier_cluster) { ptx::barrier_cluster_arrive(); ptx::barrier_cluster_wait(); ptx::barrier_cluster_arrive(ptx::sem_relaxed); ptx::barrier_cluster_wait(); OU(0, a[I]); }
//@ x_ptx_misc grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(x_ptx_misc) { unsigned x = a[I]; OU(0, ptx::prmt(x, a[I^1], 0x3210u)); OU(1, ptx::bmsk_clamp(x & 31, 5u)); OU(2, ptx::bfind(x)); OU(3, ptx::shl(x, 3u)); OU(4, ptx::shr(x, 5u)); OU(5, ptx::shfl_sync_bfly(x, 1, 0x1f, ~0u)); }
//@ x_barrier_tx grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(x_barrier_tx) { __shared__ cuda::barrier<cuda::thread_scope_block> bar; __shared__ alignas(16) unsigned sh[32]; if (I == 0) init(&bar, blockDim.x); __syncthreads(); cuda::barrier<cuda::thread_scope_block>::arrival_token t; if (I == 0) { cuda::memcpy_async(sh, a, cuda::aligned_size_t<16>(128), bar); } t = bar.arrive(); bar.wait(cuda::std::move(t)); OU(0, sh[I^2]); if (I == 0) { auto *nb = cuda::device::barrier_native_handle(bar); cuda::device::barrier_expect_tx(bar, 0); } }
//@ x_ptx_ld_st grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(x_ptx_ld_st) { OU(0, ptx::ld(ptx::space_global, a + I)); }
