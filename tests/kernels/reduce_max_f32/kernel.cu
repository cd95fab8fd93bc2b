// reduce_max_f32 -- per-block maximum of |x| with xor shuffles and shared memory.
extern "C" __global__ void reduce_max_f32(const float *x, float *out, int n)
{
	__shared__ float ws[32];
	int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
	float m = i < n ? fabsf(x[i]) : 0.0f;
	for (int o = 16; o > 0; o >>= 1)
		m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
	if (lane == 0)
		ws[threadIdx.x >> 5] = m;
	__syncthreads();
	if (threadIdx.x == 0) {
		for (int w = 1; w < (int)(blockDim.x >> 5); w++)
			m = fmaxf(m, ws[w]);
		out[blockIdx.x] = m;
	}
}
