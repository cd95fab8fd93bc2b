// layernorm_f32 -- LayerNorm over rows: two-pass mean and variance in shared memory, rsqrtf, affine.
extern "C" __global__ void layernorm_f32(const float *x, const float *gamma, const float *beta, float *y,
					 int cols, float eps)
{
	__shared__ float red[64];
	const float *row = x + blockIdx.x * cols;
	int t = threadIdx.x;
	float s = 0.0f;
	for (int c = t; c < cols; c += blockDim.x)
		s += row[c];
	red[t] = s;
	__syncthreads();
	for (int k = blockDim.x / 2; k > 0; k >>= 1) {
		if (t < k)
			red[t] += red[t + k];
		__syncthreads();
	}
	float mean = red[0] / cols;
	__syncthreads();
	s = 0.0f;
	for (int c = t; c < cols; c += blockDim.x) {
		float d = row[c] - mean;
		s += d * d;
	}
	red[t] = s;
	__syncthreads();
	for (int k = blockDim.x / 2; k > 0; k >>= 1) {
		if (t < k)
			red[t] += red[t + k];
		__syncthreads();
	}
	float inv = rsqrtf(red[0] / cols + eps);
	for (int c = t; c < cols; c += blockDim.x)
		y[blockIdx.x * cols + c] = (row[c] - mean) * inv * gamma[c] + beta[c];
}
