// regpressure_spill -- 64 live accumulators per thread under __launch_bounds__(1024, 1)
// (at most 64 registers), so ptxas spills to local memory; each accumulator sees its fmas in order.
extern "C" __global__ void __launch_bounds__(1024, 1)
regpressure_spill(const float *x, float *y, int n, int iters)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float acc[64];
#pragma unroll
	for (int k = 0; k < 64; k++)
		acc[k] = (float)k;
	for (int it = 0; it < iters; it++) {
		float v = x[(i + it) % n];
#pragma unroll
		for (int k = 0; k < 64; k++)
			acc[k] = acc[k] * v + acc[(k + 1) & 63] * 0.25f;
	}
	float s = 0.0f;
#pragma unroll
	for (int k = 0; k < 64; k++)
		s += acc[k];
	if (i < n)
		y[i] = s;
}
