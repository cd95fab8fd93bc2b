// div_var_u32 -- unsigned division and remainder by run-time divisors.
extern "C" __global__ void div_var_u32(const unsigned *x, const unsigned *d, unsigned *q, unsigned *r, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		unsigned v = x[i], w = d[i];
		q[i] = v / w;
		r[i] = v % w;
	}
}
