// shfl_width -- shuffles on sub-warp segments (width 8 and 16): idx, up, down, bfly.
extern "C" __global__ void shfl_width(const int *x, int *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int v = i < n ? x[i] : -1;
	int b = __shfl_sync(0xffffffffu, v, 3, 8);
	int u = __shfl_up_sync(0xffffffffu, v, 2, 16);
	int d = __shfl_down_sync(0xffffffffu, v, 5, 8);
	int w = __shfl_xor_sync(0xffffffffu, v, 9, 16);
	if (i < n) {
		y[4 * i + 0] = b;
		y[4 * i + 1] = u;
		y[4 * i + 2] = d;
		y[4 * i + 3] = w;
	}
}
