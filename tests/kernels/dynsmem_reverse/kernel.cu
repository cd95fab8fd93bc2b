// dynsmem_reverse -- reverses each block's chunk through dynamic shared memory (extern __shared__).
extern "C" __global__ void dynsmem_reverse(const int *x, int *y, int n)
{
	extern __shared__ int buf[];
	int t = threadIdx.x, base = blockIdx.x * blockDim.x, i = base + t;
	buf[t] = i < n ? x[i] : -1;
	__syncthreads();
	int j = base + blockDim.x - 1 - t;
	if (j < n)
		y[j] = buf[t] * 2 + 1;
}
