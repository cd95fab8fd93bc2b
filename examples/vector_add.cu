// vector_add.cu -- c[i] = a[i] + b[i] for i < n, one thread per element.
extern "C" __global__ void vector_add(const float *a, const float *b, float *c, unsigned n)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		c[i] = a[i] + b[i];
}
