// ew_s32 -- elementwise 32-bit signed integer arithmetic, shifts, min/max/abs.
extern "C" __global__ void ew_s32(const int *a, const int *b, int *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		int x = a[i], y = b[i];
		c[i] = x * y + (x >> 3) - (y ^ 0x55) + max(x, y) - abs(y) + 2 * min(x, y) - (y << 4);
	}
}
