// reduce_shared_f32 -- per-block tree sum in shared memory (two loads per thread).
extern "C" __global__ void reduce_shared_f32(const float *x, float *out, int n)
{
	__shared__ float s[256];
	int t = threadIdx.x, i = blockIdx.x * blockDim.x * 2 + t;
	float v = 0.0f;
	if (i < n)
		v = x[i];
	if (i + (int)blockDim.x < n)
		v += x[i + blockDim.x];
	s[t] = v;
	__syncthreads();
	for (int k = blockDim.x / 2; k > 0; k >>= 1) {
		if (t < k)
			s[t] += s[t + k];
		__syncthreads();
	}
	if (t == 0)
		out[blockIdx.x] = s[0];
}
