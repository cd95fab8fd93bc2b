// ew_f64 -- double precision fma, sqrt and division (correctly rounded).
extern "C" __global__ void ew_f64(const double *x, const double *y, double *c, double *d, double a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		c[i] = a * x[i] + y[i];
		d[i] = sqrt(x[i] * x[i] + 1.0) / y[i];
	}
}
