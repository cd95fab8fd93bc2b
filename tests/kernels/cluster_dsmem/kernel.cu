// cluster_dsmem -- thread-block clusters of 2 (sm_90): each CTA sums its chunk in shared memory,
// the cluster syncs, and each CTA adds its partner's sum read through distributed shared memory.
// The sm_80 PTX (no clusters) computes the partner's sum from global memory instead.
#if __CUDA_ARCH__ >= 900
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
#endif
extern "C" __global__ void cluster_dsmem(const int *x, int *y, int n)
{
	__shared__ int sum;
	int t = threadIdx.x, b = blockIdx.x, i = b * blockDim.x + t;
	if (t == 0)
		sum = 0;
	__syncthreads();
	if (i < n)
		atomicAdd(&sum, x[i]);
	__syncthreads();
#if __CUDA_ARCH__ >= 900
	cg::cluster_group c = cg::this_cluster();
	c.sync();
	unsigned rank = c.block_rank();
	int other = *c.map_shared_rank(&sum, rank ^ 1);
	c.sync();
#else
	unsigned rank = b & 1;
	int other = 0;
	if (t == 0)
		for (int k = 0; k < (int)blockDim.x; k++) {
			int j = (b ^ 1) * blockDim.x + k;
			if (j < n)
				other += x[j];
		}
#endif
	if (t == 0) {
		y[2 * b] = sum + other;
		y[2 * b + 1] = (int)rank;
	}
}
