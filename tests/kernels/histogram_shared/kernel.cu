// histogram_shared -- 64-bin histogram: shared-memory atomics, then global atomics per block.
extern "C" __global__ void histogram_shared(const unsigned char *x, unsigned *h, int n)
{
	__shared__ unsigned s[64];
	for (int b = threadIdx.x; b < 64; b += blockDim.x)
		s[b] = 0;
	__syncthreads();
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
		atomicAdd(&s[x[i] & 63], 1u);
	__syncthreads();
	for (int b = threadIdx.x; b < 64; b += blockDim.x)
		atomicAdd(&h[b], s[b]);
}
