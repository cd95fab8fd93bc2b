// const_global_mem -- initialised __constant__ and __device__ arrays (.const / .global with data).
__constant__ float const_global_mem_c[6] = {1.0f, -0.5f, 0.25f, 2.0f, -3.0f, 0.125f};
__device__ int const_global_mem_t[8] = {3, 1, 4, 1, 5, 9, 2, 6};
extern "C" __global__ void const_global_mem(const float *x, float *y, int *z, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		float v = x[i], r = 0.0f;
		for (int k = 5; k >= 0; k--)
			r = r * v + const_global_mem_c[k];
		y[i] = r;
		z[i] = const_global_mem_t[i & 7] * const_global_mem_t[(i >> 3) & 7];
	}
}
