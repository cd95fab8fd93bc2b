// cluster.cu -- sm_90 only: a kernel with cluster dimensions.
extern "C" __global__ void __cluster_dims__(2, 1, 1) clustered(float *out)
{
	out[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
}
