// Synchronisation, a fourth sweep (session 8, "breadth4"): cooperative_groups reduce / labeled_partition /
// tiled_partition<16> / thread_block_tile::shfl_down, a __nanosleep back-off mutex around a
// global critical section, device printf and assert in non-trivial kernels, written for
// openassembler's tests; .ptx: nvcc 13.0 --ptx -O3 -arch=sm_XX (gen.sh); //@ lines: launch specs.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>
#include <cassert>
namespace cg = cooperative_groups;

// cg::reduce over a tiled_partition<16>, labeled_partition by a bucket, and a
// thread_block_tile<16>::shfl_down reduction.
//@ cg_groups grid=2 block=128 | r16:s32[16] check | lab:s32[256] check | mx:f32[16] check | in:s32[256] rand(-50,50) | f:f32[256] rand(-9,9)
extern "C" __global__ void cg_groups(int *r16, int *lab, float *mx, const int *in, const float *f)
{
	auto blk = cg::this_thread_block();
	auto t16 = cg::tiled_partition<16>(blk);
	int g = blockIdx.x * 128 + threadIdx.x, tile = g / 16;
	int s = cg::reduce(t16, in[g], cg::plus<int>());
	if (t16.thread_rank() == 0) r16[tile] = s;
	float m = f[g];
	for (int o = t16.size() / 2; o; o >>= 1) m = fmaxf(m, t16.shfl_down(m, o));
	if (t16.thread_rank() == 0) mx[tile] = m;
	auto warp = cg::tiled_partition<32>(blk);
	int bucket = (in[g] + 50) / 25;
	auto grp = cg::labeled_partition(warp, bucket);
	int cnt = cg::reduce(grp, 1, cg::plus<int>()), lo = cg::reduce(grp, in[g], cg::less<int>());
	lab[g] = cnt * 1000 + grp.thread_rank() * 10 + (lo & 7);
}
// A global mutex (atomicCAS with exponential __nanosleep back-off) guarding a
// non-atomic read-modify-write of two words.
//@ nanosleep_mutex grid=4 block=32 | lock:s32[1] check | acc:u32[2] check | in:u32[128] rand(0,1000)
extern "C" __global__ void nanosleep_mutex(int *lock, unsigned *acc, const unsigned *in)
{
	int g = blockIdx.x * blockDim.x + threadIdx.x;
	for (int lane = 0; lane < 32; lane++) {
		if (threadIdx.x != lane) continue;
		unsigned ns = 8;
		while (atomicCAS(lock, 0, 1) != 0) {
			__nanosleep(ns);
			if (ns < 256) ns *= 2;
		}
		__threadfence();
		volatile unsigned *a = acc;
		a[0] = a[0] + in[g];
		a[1] = a[1] ^ (in[g] * 2654435761u);
		__threadfence();
		atomicExch(lock, 0);
	}
}
// printf with several argument types from a few threads, inside a loop and a branch.
//@ printf_mix grid=2 block=32 | o:s32[64] check | in:f32[64] rand(-2,2)
extern "C" __global__ void printf_mix(int *o, const float *in)
{
	int g = blockIdx.x * 32 + threadIdx.x, n = 0;
	for (int k = 0; k < 3; k++) {
		float v = in[(g + k) % 64];
		if (v > 1.5f && (threadIdx.x & 7) == 0) {
			printf("blk %d thr %u k %d v %.3f d %lld %s\n", blockIdx.x, threadIdx.x, k, v, (long long)g * -1000000007ll, v > 1.8f ? "big" : "small");
			n++;
		}
	}
	if (threadIdx.x == 5) printf("%c%c %5.2e %x %-6d|\n", 'o', 'k', (double)in[g], g * 0x10001u, -g);
	o[g] = n;
}
// assert on a data invariant (holds for the spec's data) in a loop with a reduction.
//@ assert_scan grid=1 block=64 | o:s32[64] check | in:s32[64] rand(0,100)
extern "C" __global__ void assert_scan(int *o, const int *in)
{
	__shared__ int s[64];
	int t = threadIdx.x;
	s[t] = in[t];
	__syncthreads();
	for (int d = 1; d < 64; d *= 2) {
		int v = t >= d ? s[t - d] : 0;
		__syncthreads();
		s[t] += v;
		__syncthreads();
		assert(s[t] >= 0 && s[t] <= 100 * (t + 1));
	}
	o[t] = s[t];
}
