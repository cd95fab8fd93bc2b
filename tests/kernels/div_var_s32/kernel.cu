// div_var_s32 -- signed division and remainder by run-time divisors of both signs.
extern "C" __global__ void div_var_s32(const int *x, const int *d, int *q, int *r, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		int v = x[i], w = d[i];
		if (w == 0)
			w = 1;
		q[i] = v / w;
		r[i] = v % w;
	}
}
