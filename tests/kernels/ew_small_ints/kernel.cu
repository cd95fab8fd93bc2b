// ew_small_ints -- 8- and 16-bit loads and stores with int promotion and truncation.
extern "C" __global__ void ew_small_ints(const signed char *a, const unsigned short *b, short *c,
					 unsigned char *d, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		c[i] = (short)(a[i] * 3 - b[i]);
		d[i] = (unsigned char)(a[i] + (b[i] >> 4));
	}
}
