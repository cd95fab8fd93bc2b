// gemv_warp -- y = A x, one warp per row: strided fma per lane, then a shuffle tree.
extern "C" __global__ void gemv_warp(const float *A, const float *x, float *y, int rows, int cols)
{
	int lane = threadIdx.x & 31, r = blockIdx.x * (blockDim.x / 32) + (threadIdx.x >> 5);
	if (r >= rows)
		return;
	float s = 0.0f;
	for (int k = lane; k < cols; k += 32)
		s += A[r * cols + k] * x[k];
	for (int o = 16; o > 0; o >>= 1)
		s += __shfl_down_sync(0xffffffffu, s, o);
	if (lane == 0)
		y[r] = s;
}
