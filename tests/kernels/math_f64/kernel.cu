// math_f64 -- double-precision library functions (software sequences on the GPU).
extern "C" __global__ void math_f64(const double *x, double *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		double v = x[i];
		y[8 * i + 0] = sin(v);
		y[8 * i + 1] = cos(v);
		y[8 * i + 2] = exp(v * 0.5);
		y[8 * i + 3] = log(fabs(v) + 0.5);
		y[8 * i + 4] = pow(fabs(v) + 0.5, 1.7);
		y[8 * i + 5] = atan(v);
		y[8 * i + 6] = cbrt(v);
		y[8 * i + 7] = sqrt(fabs(v)) + 1.0 / (v + 20.0);
	}
}
