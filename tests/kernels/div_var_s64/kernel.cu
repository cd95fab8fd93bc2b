// div_var_s64 -- 64-bit signed division and remainder by run-time divisors.
extern "C" __global__ void div_var_s64(const long long *x, const long long *d, long long *q, long long *r, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		long long v = x[i], w = d[i];
		q[i] = v / w;
		r[i] = v % w;
	}
}
