// div_const_u64 -- 64-bit unsigned division and remainder by constants.
extern "C" __global__ void div_const_u64(const unsigned long long *x, unsigned long long *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		unsigned long long v = x[i];
		y[4 * i + 0] = v / 7;
		y[4 * i + 1] = v % 10;
		y[4 * i + 2] = v / 1000000007ull;
		y[4 * i + 3] = v % 1000000007ull;
	}
}
