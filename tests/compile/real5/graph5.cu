// Sparse and graph styles, a fifth sweep (session 9, "breadth5"): CSR SpMV with a warp per
// row (__shfl_down_sync reduction), one BFS level with a frontier queue (atomicCAS visited
// flags, atomicAdd on the queue tail), a single-pass decoupled look-back scan (volatile
// status words, ld.acquire / st.release, __threadfence, atomicCAS), written for
// openassembler's tests; .ptx: nvcc 13.0 --ptx -O3 -arch=sm_XX (gen.sh); //@ lines: launch specs.
#include <cstdint>

//@ spmv_warp grid=2 block=128 | y:f32[8] check(1e-5) | rowptr:u32[9] values(0,3,3,10,40,41,47,64,100) | col:u32[100] rand(0,63) | val:f32[100] rand(-1,1) | x:f32[64] rand(-2,2) | n=s32:8
extern "C" __global__ void spmv_warp(float *y, const int *rowptr, const int *col, const float *val, const float *x, int n)
{
	int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
	if (row >= n) return;
	float s = 0.f;
	for (int j = rowptr[row] + lane; j < rowptr[row + 1]; j += 32)
		s += val[j] * __ldg(&x[col[j]]);
	for (int o = 16; o > 0; o >>= 1)
		s += __shfl_down_sync(0xffffffffu, s, o);
	if (lane == 0) y[row] = s;
}

/* One BFS level over a ring+chords graph: the frontier's neighbours not yet visited join the
   next frontier (its order depends on the schedule, so the checked outputs are the visited
   flags, the levels and the queue's length). */
//@ bfs_level grid=2 block=64 | next:u32[256] | tail:u32[1] check | visited:u32[256] values(1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1) check | level:s32[256] check | rowptr:u32[257] range(0,3) | adj:u32[768] rand(0,255) | front:u32[2] values(0,32) | nfront=s32:2 | depth=s32:1
extern "C" __global__ void bfs_level(int *next, int *tail, int *visited, int *level, const int *rowptr, const int *adj,
				     const int *front, int nfront, int depth)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	for (int f = 0; f < nfront; f++) {
		int u = front[f], b = rowptr[u], e = rowptr[u + 1];
		for (int j = b + t; j < e; j += gridDim.x * blockDim.x) {
			int v = adj[j];
			if (atomicCAS(&visited[v], 0, 1) == 0) {
				level[v] = depth;
				next[atomicAdd(tail, 1)] = v;
			}
		}
	}
	/* a second hop from every vertex the first one reached, in-kernel */
	__threadfence();
	__syncthreads();
	if (t < 256 && visited[t] && level[t] == depth)
		for (int j = rowptr[t]; j < rowptr[t + 1]; j++) {
			int v = adj[j];
			if (atomicCAS(&visited[v], 0, 2) == 0) {
				level[v] = depth + 1;
				atomicAdd(tail, 1);
			}
		}
}

/* Decoupled look-back: each block publishes (flag << 30 | value) for its aggregate, then its
   inclusive prefix; a block looks back over its predecessors' words. */
#define ST_AGG 1u
#define ST_PRE 2u
__device__ unsigned ld_acq(const unsigned *p)
{
	unsigned v;
	asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
	return v;
}
__device__ void st_rel(unsigned *p, unsigned v)
{
	asm volatile("st.release.gpu.global.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory");
}
//@ lookback_scan grid=4 block=128 | out:u32[512] check | in:u32[512] rand(0,1000) | status:u32[4] | ticket:u32[1]
extern "C" __global__ void lookback_scan(unsigned *out, const unsigned *in, unsigned *status, unsigned *ticket)
{
	__shared__ unsigned s[128], bid_s, excl_s;
	if (threadIdx.x == 0) bid_s = atomicAdd(ticket, 1);   /* dynamic block ids: no deadlock */
	__syncthreads();
	unsigned bid = bid_s, t = threadIdx.x, i = bid * 128 + t;
	unsigned v = in[i];
	s[t] = v;
	__syncthreads();
	for (unsigned o = 1; o < 128; o <<= 1) {
		unsigned a = t >= o ? s[t - o] : 0;
		__syncthreads();
		s[t] += a;
		__syncthreads();
	}
	unsigned agg = s[127];
	if (t == 0) {
		unsigned excl = 0;
		if (bid == 0)
			st_rel(&status[0], ST_PRE << 30 | agg);
		else {
			st_rel(&status[bid], ST_AGG << 30 | agg);
			for (int p = bid - 1; p >= 0;) {
				unsigned w = ld_acq(&status[p]);
				if ((w >> 30) == 0) continue;
				excl += w & 0x3fffffffu;
				if ((w >> 30) == ST_PRE) break;
				p--;
			}
			__threadfence();
			atomicCAS(&status[bid], ST_AGG << 30 | agg, ST_PRE << 30 | (excl + agg));
		}
		excl_s = excl;
	}
	__syncthreads();
	out[i] = s[t] + excl_s;
}

//@ volatile_flags grid=2 block=64 | out:u32[128] check | data:u32[128] | flag:u32[2]
extern "C" __global__ void volatile_flags(unsigned *out, unsigned *data, unsigned *flag)
{
	/* block 1 waits (volatile polling) for block 0's data, ordered by __threadfence */
	unsigned t = threadIdx.x;
	if (blockIdx.x == 0) {
		data[t] = t * 2654435761u;
		data[64 + t] = t ^ 0x5a5a;
		__threadfence();
		__syncthreads();
		if (t == 0) atomicExch(&flag[0], 1);
	} else {
		if (t == 0)
			while (*(volatile unsigned *)&flag[0] == 0)
				;
		__syncthreads();
		volatile unsigned *d = data;
		out[t] = d[t] + d[64 + t];
		out[64 + t] = __ldcg(&data[(t * 7) & 127]);
	}
}
