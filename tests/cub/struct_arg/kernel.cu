// struct_arg -- a 40-byte struct passed by value (the way CUB passes
// GridEvenShare and ScaleTransform): pointers, ints, a 64-bit integer
// and a byte at their C offsets, plus an int after it.  Checks that the
// spec's "struct" arguments reach the kernel laid out as the driver lays
// them out (the cubin's .nv.info offsets; the PTX .param byte array).
struct Args {
	const int *in;          // 0
	int n;                  // 8
	int mul;                // 12
	int *out;               // 16
	long long add;          // 24
	unsigned char shift;    // 32
};                              // 40 bytes, align 8

extern "C" __global__ void
struct_arg(Args a, int extra)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	for (; i < a.n; i += gridDim.x * blockDim.x)
		a.out[i] = (int)(((long long)a.in[i] * a.mul + a.add) >> a.shift) + extra;
}
