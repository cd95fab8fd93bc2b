// Thread block clusters (sm_90), a fifth sweep (session 9, "breadth5"): cooperative_groups'
// this_cluster() with __cluster_dims__, block_rank, map_shared_rank (distributed shared
// memory) for a cluster-wide histogram and a neighbour exchange, cluster.sync(), and
// cg::this_grid()-free cluster reductions, written for openassembler's tests; .ptx: nvcc
// 13.0 --ptx -O3 -arch=sm_90 (gen.sh); //@ lines: launch specs.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

//@ dsmem_hist grid=4 block=128 cluster=2 | hist:u32[128] check | keys:u32[512] rand(0,63)
extern "C" __global__ void __cluster_dims__(2, 1, 1) dsmem_hist(unsigned *hist, const unsigned *keys)
{
	__shared__ unsigned bins[32];
	cg::cluster_group cluster = cg::this_cluster();
	unsigned rank = cluster.block_rank(), t = threadIdx.x;
	if (t < 32) bins[t] = 0;
	cluster.sync();
	unsigned k = keys[blockIdx.x * 128 + t];
	unsigned *dst = cluster.map_shared_rank(bins, k >> 5);   /* bins 0..31 in rank 0, 32..63 in rank 1 */
	atomicAdd(&dst[k & 31], 1);
	cluster.sync();
	if (t < 32) hist[(blockIdx.x / 2) * 64 + rank * 32 + t] = bins[t];
}

//@ dsmem_ring grid=12 block=64 cluster=4 | o:f32[768] check(1e-6) | x:f32[768] rand(-1,1)
extern "C" __global__ void __cluster_dims__(4, 1, 1) dsmem_ring(float *o, const float *x)
{
	__shared__ float buf[64];
	cg::cluster_group cluster = cg::this_cluster();
	unsigned rank = cluster.block_rank(), n = cluster.num_blocks(), t = threadIdx.x;
	buf[t] = x[blockIdx.x * 64 + t];
	cluster.sync();
	float *next = cluster.map_shared_rank(buf, (rank + 1) % n), *prev = cluster.map_shared_rank(buf, (rank + n - 1) % n);
	float v = next[(t + 1) & 63] - 2.f * buf[t] + prev[(t + 63) & 63];
	cluster.sync();   /* nobody leaves while a neighbour still reads its buffer */
	o[blockIdx.x * 64 + t] = v * (float)(cluster.dim_blocks().x + cluster.block_index().x);
}

//@ cluster_ids grid=6,4 block=32 cluster=3,2 | o:u32[768] check
extern "C" __global__ void __cluster_dims__(3, 2, 1) cluster_ids(unsigned *o)
{
	/* every cluster special register, 2-D: 6 x 4 blocks in 3 x 2 clusters */
	unsigned b = blockIdx.y * gridDim.x + blockIdx.x, *r = o + b * 32 + threadIdx.x * 0;
	unsigned v[8];
	asm("mov.u32 %0, %%cluster_ctaid.x;" : "=r"(v[0]));
	asm("mov.u32 %0, %%cluster_ctaid.y;" : "=r"(v[1]));
	asm("mov.u32 %0, %%clusterid.x;" : "=r"(v[2]));
	asm("mov.u32 %0, %%clusterid.y;" : "=r"(v[3]));
	asm("mov.u32 %0, %%nclusterid.x;" : "=r"(v[4]));
	asm("mov.u32 %0, %%nclusterid.y;" : "=r"(v[5]));
	asm("mov.u32 %0, %%cluster_nctaid.y;" : "=r"(v[6]));
	asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(v[7]));
	if (threadIdx.x < 8) r[threadIdx.x] = v[threadIdx.x];
	cg::this_cluster().sync();
}
