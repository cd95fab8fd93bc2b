// div_const_u32 -- unsigned division and remainder by constants (multiply-high sequences).
extern "C" __global__ void div_const_u32(const unsigned *x, unsigned *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		unsigned v = x[i];
		y[6 * i + 0] = v / 7;
		y[6 * i + 1] = v % 7;
		y[6 * i + 2] = v / 10;
		y[6 * i + 3] = v % 641;
		y[6 * i + 4] = v / 16;
		y[6 * i + 5] = v / 3000000000u;
	}
}
