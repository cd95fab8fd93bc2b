// tests/compile/intr7/cccl7.cu: cuda::atomic_ref / cuda::std::atomic (orders, scopes, 8/16-bit,
// float min/max, 64-bit), cuda::barrier (arrive/wait, arrive_and_drop, memcpy_async),
// cuda::pipeline (unified and block-shared), the __pipeline primitives and cooperative_groups
// (tiled_partition reduce/scan, coalesced/labeled/binary partitions, memcpy_async, invoke_one).

#include <cuda/atomic>
#include <cuda/std/atomic>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;
#define K(name) extern "C" __global__ void name(unsigned *o, const unsigned *a, const float *f)
#define I threadIdx.x
#define OU(k, v) o[(k)*32+I] = (unsigned)(v)

//@ c_atomic_ref grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(c_atomic_ref) { if (I < 8) { o[I] = 0; o[8+I] = 0; o[16+I] = 0; o[24+I] = 0; } __syncthreads();
  cuda::atomic_ref<unsigned, cuda::thread_scope_block> r0(o[I&7]); r0.fetch_add(a[I]&7, cuda::memory_order_relaxed);
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> r1(o[8+(I&7)]); r1.fetch_or(1u<<I, cuda::memory_order_acq_rel);
  cuda::atomic_ref<unsigned, cuda::thread_scope_system> r2(o[16+(I&7)]); r2.fetch_max(a[I], cuda::memory_order_seq_cst);
  cuda::atomic_ref<float, cuda::thread_scope_block> r3(*(float*)&o[24+(I&7)]); r3.fetch_add(0.5f, cuda::memory_order_release);
  __syncthreads(); }
//@ c_atomic_ld_st grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(c_atomic_ld_st) { __shared__ unsigned s[32]; cuda::atomic_ref<unsigned, cuda::thread_scope_block> r(s[I]); r.store(a[I], cuda::memory_order_release); __syncthreads(); cuda::atomic_ref<unsigned, cuda::thread_scope_block> q(s[I^1]); OU(0, q.load(cuda::memory_order_acquire)); OU(1, q.load(cuda::memory_order_seq_cst)); unsigned e = a[I^1]; OU(2, q.compare_exchange_strong(e, 7u, cuda::memory_order_acq_rel)); __syncthreads(); OU(3, s[I]); cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_block); cuda::atomic_thread_fence(cuda::memory_order_acq_rel, cuda::thread_scope_device); }
//@ c_atomic_small grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(c_atomic_small) { __shared__ unsigned char c[32]; __shared__ unsigned short h[32]; if (I < 8) { c[I] = 0; h[I] = 0; } __syncthreads(); cuda::atomic_ref<unsigned char, cuda::thread_scope_block> r(c[I&7]); r.fetch_add(1); cuda::atomic_ref<unsigned short, cuda::thread_scope_block> q(h[I&7]); q.fetch_add(3); __syncthreads(); if (I < 8) { OU(0, c[I]); OU(1, h[I]); } }
//@ c_atomic_f_minmax grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(c_atomic_f_minmax) { __shared__ float s[8]; if (I < 8) s[I] = 0.f; __syncthreads(); cuda::atomic_ref<float, cuda::thread_scope_block> r(s[I&7]); r.fetch_max(f[I]); r.fetch_min(f[I^1] + 10.f); __syncthreads(); if (I < 8) OU(0, __float_as_uint(s[I])); }
//@ c_atomic64 grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(c_atomic64) { __shared__ unsigned long long s[8], x[8]; __shared__ double d[8]; if (I < 8) { s[I] = 0; x[I] = 0; d[I] = 0; } __syncthreads(); cuda::atomic_ref<unsigned long long, cuda::thread_scope_block> r(s[I&7]); r.fetch_add((unsigned long long)a[I]<<8, cuda::memory_order_relaxed); cuda::atomic_ref<unsigned long long, cuda::thread_scope_block> rx(x[I&7]); rx.fetch_xor((unsigned long long)a[I^1] << (I & 31)); cuda::atomic_ref<double, cuda::thread_scope_block> q(d[I&7]); q.fetch_add(1.25); __syncthreads(); if (I < 8) { OU(0, s[I]); OU(1, s[I]>>32); OU(2, (float)d[I]); OU(3, x[I]); OU(4, x[I]>>32); } }
//@ c_std_atomic grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(c_std_atomic) { __shared__ cuda::std::atomic<int> s[8]; if (I < 8) s[I].store(0, cuda::std::memory_order_relaxed); __syncthreads(); s[I&7].fetch_sub(a[I]&3); __syncthreads(); if (I < 8) { OU(0, s[I].load()); OU(1, s[I].exchange(5)); int e = 5; OU(2, s[I].compare_exchange_strong(e, 2)); e = 7; OU(3, s[I].compare_exchange_strong(e, 9)); OU(4, e); OU(5, s[I].load(cuda::std::memory_order_acquire)); } }
//@ c_barrier grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(c_barrier) { __shared__ cuda::barrier<cuda::thread_scope_block> bar; __shared__ unsigned sh[32]; if (I == 0) init(&bar, blockDim.x); __syncthreads(); sh[I] = a[I]; bar.arrive_and_wait(); OU(0, sh[I^1]); auto t = bar.arrive(); bar.wait(cuda::std::move(t)); sh[I] = a[I^3]; bar.arrive_and_wait(); OU(1, sh[I^2]); }
//@ c_barrier_drop grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(c_barrier_drop) { __shared__ cuda::barrier<cuda::thread_scope_block> bar; if (I == 0) init(&bar, blockDim.x); __syncthreads(); if (I >= 16) { bar.arrive_and_drop(); return; } bar.arrive_and_wait(); OU(0, a[I]); bar.arrive_and_wait(); }
//@ c_memcpy_barrier grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(c_memcpy_barrier) { __shared__ cuda::barrier<cuda::thread_scope_block> bar; __shared__ alignas(16) unsigned sh[64]; if (I == 0) init(&bar, blockDim.x); __syncthreads(); if (I == 0) cuda::memcpy_async(sh, a, cuda::aligned_size_t<16>(sizeof(unsigned) * 32), bar); bar.arrive_and_wait(); OU(0, sh[I^5]); }
//@ c_memcpy_barrier_all grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(c_memcpy_barrier_all) { __shared__ cuda::barrier<cuda::thread_scope_block> bar; __shared__ alignas(16) unsigned sh[64]; if (I == 0) init(&bar, blockDim.x); __syncthreads(); cuda::memcpy_async(sh + I, a + I, sizeof(unsigned), bar); bar.arrive_and_wait(); OU(0, sh[I^5]); }
//@ c_pipeline grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(c_pipeline) { __shared__ alignas(16) unsigned sh[2][32]; auto pipe = cuda::make_pipeline(); unsigned acc = 0; for (int s = 0; s < 2; s++) { pipe.producer_acquire(); cuda::memcpy_async(&sh[s][I], a + ((I + s*7)&31), sizeof(unsigned), pipe); pipe.producer_commit(); } for (int s = 0; s < 2; s++) { pipe.consumer_wait(); acc += sh[s][I]; pipe.consumer_release(); } OU(0, acc); }
//@ c_pipeline_shared grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(c_pipeline_shared) { __shared__ alignas(16) unsigned sh[2][32]; __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> st; auto g = cg::this_thread_block(); auto pipe = cuda::make_pipeline(g, &st); unsigned acc = 0; for (int s = 0; s < 2; s++) { pipe.producer_acquire(); cuda::memcpy_async(g, sh[s], a + s*0, sizeof(unsigned)*32, pipe); pipe.producer_commit(); } for (int s = 0; s < 2; s++) { pipe.consumer_wait(); acc += sh[s][I^s]; pipe.consumer_release(); } OU(0, acc); }
//@ c_pipeline_prim grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(c_pipeline_prim) { __shared__ alignas(16) unsigned sh[32]; __pipeline_memcpy_async(&sh[I], a + (I^9), 4); __pipeline_commit(); __pipeline_wait_prior(0); __syncthreads(); OU(0, sh[I^1]); }
//@ c_cg_tile grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(c_cg_tile) { auto b = cg::this_thread_block(); auto t = cg::tiled_partition<8>(b); unsigned x = a[I]; OU(0, cg::reduce(t, x, cg::plus<unsigned>())); OU(1, cg::reduce(t, x, cg::greater<unsigned>())); OU(2, cg::reduce(t, x, cg::bit_xor<unsigned>())); OU(3, cg::inclusive_scan(t, x)); OU(4, cg::exclusive_scan(t, x, cg::bit_or<unsigned>())); OU(5, t.shfl_down(x, 1)); OU(6, t.ballot(x & 1)); OU(7, t.meta_group_rank()); OU(8, t.thread_rank()); OU(9, t.any(x&1)); OU(10, t.match_any(x & 3)); }
//@ c_cg_coalesced grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(c_cg_coalesced) { unsigned x = a[I]; if (x & 1) { auto c = cg::coalesced_threads(); OU(0, c.thread_rank()); OU(1, c.size()); OU(2, cg::reduce(c, x, cg::plus<unsigned>())); OU(3, cg::exclusive_scan(c, x)); OU(4, c.shfl(x, 0)); auto p = cg::labeled_partition(c, x & 6); OU(5, p.thread_rank()); OU(6, cg::reduce(p, x, cg::less<unsigned>())); auto q = cg::binary_partition(c, x & 8); OU(7, q.size()); } else { OU(0, 0); } }
//@ c_cg_memcpy grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(c_cg_memcpy) { __shared__ unsigned sh[64]; auto b = cg::this_thread_block(); cg::memcpy_async(b, sh, a, sizeof(unsigned) * 32); cg::wait(b); OU(0, sh[I^3]); auto t = cg::tiled_partition<32>(b); cg::memcpy_async(t, sh + 32, a, cuda::aligned_size_t<16>(sizeof(unsigned) * 32)); cg::wait_prior<0>(t); OU(1, sh[32 + (I^7)]); }
//@ c_cg_invoke_one grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(c_cg_invoke_one) { unsigned x = a[I]; auto b = cg::this_thread_block(); auto t = cg::tiled_partition<32>(b); unsigned r = cg::invoke_one_broadcast(t, [&]() { return x * 3; }); OU(0, r); cg::invoke_one(t, [&]() { o[32 + 0] = 77; }); }
//@ c_cg_block grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(c_cg_block) { auto b = cg::this_thread_block(); __shared__ unsigned sh[32]; sh[b.thread_rank()] = a[I]; b.sync(); OU(0, sh[I^1] + b.size() + b.group_index().x + b.thread_index().x + b.dim_threads().x + b.num_threads()); auto g = cg::this_grid(); OU(1, g.thread_rank() + g.num_blocks() + g.block_rank() + g.dim_blocks().x); }
