// cluster90.cu -- sm_90 features: thread-block clusters, distributed shared
// memory, cluster barriers (compile with -arch=sm_90 only).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void __cluster_dims__(2, 1, 1) k_cluster(int *out)
{
	__shared__ int s[64];
	cg::cluster_group cl = cg::this_cluster();
	unsigned r = cl.block_rank();
	s[threadIdx.x] = r * 100 + threadIdx.x;
	cl.sync();
	int *peer = cl.map_shared_rank(s, r ^ 1);
	out[blockIdx.x * 64 + threadIdx.x] = peer[threadIdx.x];
	cl.sync();
}
