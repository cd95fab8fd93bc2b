// scan_block_s32 -- inclusive prefix sum per block, Hillis-Steele, double-buffered shared memory.
extern "C" __global__ void scan_block_s32(const int *x, int *y, int n)
{
	__shared__ int s[2][256];
	int t = threadIdx.x, i = blockIdx.x * blockDim.x + t, p = 0;
	s[0][t] = i < n ? x[i] : 0;
	__syncthreads();
	for (int d = 1; d < (int)blockDim.x; d <<= 1) {
		s[p ^ 1][t] = s[p][t] + (t >= d ? s[p][t - d] : 0);
		p ^= 1;
		__syncthreads();
	}
	if (i < n)
		y[i] = s[p][t];
}
