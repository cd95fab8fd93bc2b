// div_const_s32 -- signed division and remainder by constants (truncating toward zero).
extern "C" __global__ void div_const_s32(const int *x, int *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		int v = x[i];
		y[7 * i + 0] = v / 7;
		y[7 * i + 1] = v % 7;
		y[7 * i + 2] = v / -3;
		y[7 * i + 3] = v % -3;
		y[7 * i + 4] = v / 16;
		y[7 * i + 5] = v % 16;
		y[7 * i + 6] = v / 1000000;
	}
}
