// softmax_f32 -- row-wise softmax, one block per row: shared-memory max and sum trees, expf.
extern "C" __global__ void softmax_f32(const float *x, float *y, int cols)
{
	__shared__ float red[128];
	const float *row = x + blockIdx.x * cols;
	float *out = y + blockIdx.x * cols;
	int t = threadIdx.x;
	float m = -3.4028235e38f, s = 0.0f;
	for (int c = t; c < cols; c += blockDim.x)
		m = fmaxf(m, row[c]);
	red[t] = m;
	__syncthreads();
	for (int k = blockDim.x / 2; k > 0; k >>= 1) {
		if (t < k)
			red[t] = fmaxf(red[t], red[t + k]);
		__syncthreads();
	}
	m = red[0];
	__syncthreads();
	for (int c = t; c < cols; c += blockDim.x)
		s += expf(row[c] - m);
	red[t] = s;
	__syncthreads();
	for (int k = blockDim.x / 2; k > 0; k >>= 1) {
		if (t < k)
			red[t] += red[t + k];
		__syncthreads();
	}
	s = red[0];
	for (int c = t; c < cols; c += blockDim.x)
		out[c] = expf(row[c] - m) / s;
}
