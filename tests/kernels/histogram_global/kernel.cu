// histogram_global -- global atomics: add into 37 bins, running max and min.
extern "C" __global__ void histogram_global(const unsigned *x, unsigned *h, unsigned *mm, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		unsigned v = x[i];
		atomicAdd(&h[v % 37], 1u);
		atomicMax(&mm[0], v);
		atomicMin(&mm[1], v);
	}
}
