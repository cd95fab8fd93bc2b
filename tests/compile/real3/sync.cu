// A third sweep (session 7, "breadth2"): 64-bit atomics (atomicCAS loops on double),
// cuda::atomic_ref with memory orders and scopes, a __nanosleep spin lock, CUB
// WarpMergeSort / WarpExchange / BlockAdjacentDifference, written for openassembler's tests;
// .ptx: nvcc 13.0 --ptx -O3 -arch=sm_XX (gen.sh); //@ lines: launch specs.
#include <cuda/atomic>
#include <cub/warp/warp_merge_sort.cuh>
#include <cub/warp/warp_exchange.cuh>
#include <cub/block/block_adjacent_difference.cuh>

__device__ double atomic_max_f64(double *p, double v)
{
	unsigned long long *q = (unsigned long long *)p, old = *q, seen;
	do {
		seen = old;
		if (__longlong_as_double(seen) >= v) break;
		old = atomicCAS(q, seen, __double_as_longlong(v));
	} while (old != seen);
	return __longlong_as_double(old);
}
__device__ double atomic_mul_f64(double *p, double v)
{
	unsigned long long *q = (unsigned long long *)p, old = *q, seen;
	do {
		seen = old;
		old = atomicCAS(q, seen, __double_as_longlong(__longlong_as_double(seen) * v));
	} while (old != seen);
	return __longlong_as_double(old);
}
// Max and product (powers of two: exact in any order) through CAS loops; 64-bit add/min/xor.
//@ cas_f64 grid=2 block=128 | m:f64[2] check | p:f64[1] values(1) check | c:u64[4] check | in:f64[256] rand(-1000,1000) | e:s32[256] rand(-1,1)
extern "C" __global__ void cas_f64(double *m, double *p, unsigned long long *c, const double *in, const int *e)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	atomic_max_f64(&m[0], in[i]);
	atomic_max_f64(&m[1], -in[i]);
	atomic_mul_f64(p, e[i] > 0 ? 2.0 : e[i] < 0 ? 0.5 : 1.0);
	atomicAdd(&c[0], (unsigned long long)(in[i] + 1000.0) << 20);
	atomicMin((long long *)&c[1], (long long)in[i] - 5000);
	atomicXor(&c[2], (unsigned long long)__double_as_longlong(in[i]));
	atomicMax(&c[3], (unsigned long long)i << 40);
}
// cuda::atomic_ref with explicit orders and scopes: a release/acquire ticket handoff per
// block and relaxed device-wide counters; fetch_max/fetch_min, compare_exchange_strong.
//@ atomic_orders grid=2 block=64 | o:s32[128] check | st:s32[8] check | in:s32[128] rand(-100,100)
extern "C" __global__ void atomic_orders(int *o, int *st, const int *in)
{
	__shared__ int ticket, slot[64];
	int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
	if (t == 0) ticket = 0;
	__syncthreads();
	cuda::atomic_ref<int, cuda::thread_scope_block> tk(ticket);
	cuda::atomic_ref<int, cuda::thread_scope_device> sum(st[0]), mx(st[1]), mn(st[2]), cas(st[3]);
	int my = tk.fetch_add(1, cuda::std::memory_order_relaxed);
	cuda::atomic_ref<int, cuda::thread_scope_block>(slot[my]).store(in[i], cuda::std::memory_order_release);
	sum.fetch_add(in[i], cuda::std::memory_order_relaxed);
	mx.fetch_max(in[i], cuda::std::memory_order_acq_rel);
	mn.fetch_min(in[i], cuda::std::memory_order_seq_cst);
	int want = 0;
	while (!cas.compare_exchange_strong(want, want + 1, cuda::std::memory_order_acq_rel,
					    cuda::std::memory_order_acquire))
		;
	__syncthreads();
	int s = 0;
	for (int k = 0; k < 64; k++)
		s += cuda::atomic_ref<int, cuda::thread_scope_block>(slot[k]).load(cuda::std::memory_order_acquire);
	o[i] = s;
	cuda::atomic_ref<int, cuda::thread_scope_system>(st[4]).fetch_or(1 << (i & 31), cuda::std::memory_order_relaxed);
	cuda::atomic_ref<int, cuda::thread_scope_device>(st[5]).exchange(7, cuda::std::memory_order_release);
}
// One lock per block guarding a non-atomic read-modify-write of shared counters; the loser
// backs off with __nanosleep.  One lane per warp takes the lock (no intra-warp livelock).
//@ spin_lock grid=2 block=128 | o:s32[8] check | in:s32[256] rand(0,9)
extern "C" __global__ void spin_lock(int *o, const int *in)
{
	__shared__ int lock, cnt[4];
	int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
	if (t < 4) cnt[t] = 0;
	if (t == 0) lock = 0;
	__syncthreads();
	int v = in[i];
	for (int off = 16; off; off >>= 1) v += __shfl_xor_sync(0xffffffff, v, off);
	if ((t & 31) == 0) {
		unsigned ns = 8;
		while (atomicCAS(&lock, 0, 1) != 0) {
			__nanosleep(ns);
			ns = min(ns * 2, 256u);
		}
		__threadfence_block();
		volatile int *c = cnt;
		c[t >> 5] += v;
		c[(t >> 5) ^ 1] += 1000;
		__threadfence_block();
		atomicExch(&lock, 0);
	}
	__syncthreads();
	if (t < 4) o[blockIdx.x * 4 + t] = cnt[t];
}
// A global ticket lock across blocks with acquire/release through cuda::atomic_ref.
//@ global_lock grid=4 block=32 | o:s32[5] check | lk:s32[2]
extern "C" __global__ void global_lock(int *o, int *lk)
{
	if (threadIdx.x == 0) {
		cuda::atomic_ref<int, cuda::thread_scope_device> next(lk[0]), serving(lk[1]);
		int me = next.fetch_add(1, cuda::std::memory_order_relaxed);
		while (serving.load(cuda::std::memory_order_acquire) != me) __nanosleep(32);
		o[blockIdx.x] = o[4]++; /* order of service: a permutation of 0..3 */
		o[blockIdx.x] = 0;      /* keep it deterministic: only the count is checked */
		serving.store(me + 1, cuda::std::memory_order_release);
	}
}
//@ warp_msort grid=2 block=64 | k:s32[512] rand(-500,500) check | v:s32[512] range(0,1) check
extern "C" __global__ void warp_msort(int *k, int *v)
{
	typedef cub::WarpMergeSort<int, 4, 32, int> WS;
	__shared__ typename WS::TempStorage tmp[2];
	int w = threadIdx.x / 32, base = (blockIdx.x * 2 + w) * 128 + (threadIdx.x & 31) * 4;
	int kk[4], vv[4];
	for (int j = 0; j < 4; j++) kk[j] = k[base + j], vv[j] = v[base + j];
	WS(tmp[w]).StableSort(kk, vv, cuda::std::less<int>());
	for (int j = 0; j < 4; j++) k[base + j] = kk[j], v[base + j] = vv[j];
}
//@ warp_xchg grid=1 block=64 | o:s32[256] check | in:s32[256] range(0,1)
extern "C" __global__ void warp_xchg(int *o, const int *in)
{
	typedef cub::WarpExchange<int, 4, 32> WE;
	__shared__ typename WE::TempStorage tmp[2];
	int w = threadIdx.x / 32, l = threadIdx.x & 31, v[4];
	for (int j = 0; j < 4; j++) v[j] = in[w * 128 + j * 32 + l];
	WE(tmp[w]).StripedToBlocked(v, v);
	for (int j = 0; j < 4; j++) o[w * 128 + l * 4 + j] = v[j] * 3 + j;
}
//@ adj_diff grid=2 block=64 | o:s32[512] check | in:s32[512] rand(-1000,1000)
extern "C" __global__ void adj_diff(int *o, const int *in)
{
	typedef cub::BlockAdjacentDifference<int, 64> BA;
	__shared__ typename BA::TempStorage tmp;
	int v[4], d[4];
	for (int j = 0; j < 4; j++) v[j] = in[blockIdx.x * 256 + threadIdx.x * 4 + j];
	BA(tmp).SubtractLeft(v, d, cuda::std::minus<int>());
	for (int j = 0; j < 4; j++) o[blockIdx.x * 256 + threadIdx.x * 4 + j] = d[j];
}
