// ew_u32_bits -- population count, leading zeros, bit reverse, rotate, field extract.
extern "C" __global__ void ew_u32_bits(const unsigned *a, unsigned *c, unsigned n)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	unsigned x = a[i];
	c[4 * i + 0] = __popc(x);
	c[4 * i + 1] = __clz(x);
	c[4 * i + 2] = __brev(x);
	c[4 * i + 3] = (x << 7 | x >> 25) ^ ((x >> 5) & 0x3ff);
}
