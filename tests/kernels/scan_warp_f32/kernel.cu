// scan_warp_f32 -- inclusive scan per block: shfl_up within warps, then over warp totals.
extern "C" __global__ void scan_warp_f32(const float *x, float *y, int n)
{
	__shared__ float ws[32];
	int t = threadIdx.x, i = blockIdx.x * blockDim.x + t, lane = t & 31, w = t >> 5;
	float v = i < n ? x[i] : 0.0f;
	for (int d = 1; d < 32; d <<= 1) {
		float u = __shfl_up_sync(0xffffffff, v, d);
		if (lane >= d)
			v += u;
	}
	if (lane == 31)
		ws[w] = v;
	__syncthreads();
	if (w == 0) {
		float s = lane < (int)(blockDim.x >> 5) ? ws[lane] : 0.0f;
		for (int d = 1; d < 32; d <<= 1) {
			float u = __shfl_up_sync(0xffffffff, s, d);
			if (lane >= d)
				s += u;
		}
		ws[lane] = s;
	}
	__syncthreads();
	if (w > 0)
		v += ws[w - 1];
	if (i < n)
		y[i] = v;
}
