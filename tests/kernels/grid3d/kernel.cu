// grid3d -- 3-D grid and 3-D blocks: every index and dimension register.
extern "C" __global__ void grid3d(unsigned *out, int nx, int ny, int nz)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	int z = blockIdx.z * blockDim.z + threadIdx.z;
	if (x < nx && y < ny && z < nz) {
		unsigned cta = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
		unsigned tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
		out[(z * ny + y) * nx + x] = cta * 1000 + tid + 100000 * (blockDim.x * blockDim.y * blockDim.z);
	}
}
