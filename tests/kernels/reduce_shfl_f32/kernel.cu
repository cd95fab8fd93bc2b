// reduce_shfl_f32 -- grid-stride sum, warp shuffles, then one warp over the warp sums.
extern "C" __global__ void reduce_shfl_f32(const float *x, float *out, int n)
{
	__shared__ float ws[32];
	int t = threadIdx.x, lane = t & 31, w = t >> 5;
	float v = 0.0f;
	for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x)
		v += x[i];
	for (int o = 16; o > 0; o >>= 1)
		v += __shfl_down_sync(0xffffffff, v, o);
	if (lane == 0)
		ws[w] = v;
	__syncthreads();
	if (w == 0) {
		v = lane < (int)(blockDim.x / 32) ? ws[lane] : 0.0f;
		for (int o = 16; o > 0; o >>= 1)
			v += __shfl_down_sync(0xffffffff, v, o);
		if (lane == 0)
			out[blockIdx.x] = v;
	}
}
