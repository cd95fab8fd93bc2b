// ew_u64 -- 64-bit integer multiply (low and high halves), shifts, xor.
extern "C" __global__ void ew_u64(const unsigned long long *a, const unsigned long long *b,
				  unsigned long long *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		unsigned long long x = a[i], y = b[i];
		c[2 * i] = x * y + (x >> 17);
		c[2 * i + 1] = __umul64hi(x, y) ^ (y << 3);
	}
}
