// reduce_shfl_f64 -- double-precision grid-stride sum and shuffle tree (64-bit shuffles).
extern "C" __global__ void reduce_shfl_f64(const double *x, double *out, int n)
{
	__shared__ double ws[32];
	int t = threadIdx.x, lane = t & 31, w = t >> 5;
	double v = 0.0;
	for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x)
		v += x[i];
	for (int o = 16; o > 0; o >>= 1)
		v += __shfl_down_sync(0xffffffffu, v, o);
	if (lane == 0)
		ws[w] = v;
	__syncthreads();
	if (t == 0) {
		double s = ws[0];
		for (int k = 1; k < (int)(blockDim.x >> 5); k++)
			s += ws[k];
		out[blockIdx.x] = s;
	}
}
