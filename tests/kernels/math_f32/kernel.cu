// math_f32 -- single-precision library functions (not the fast intrinsics).
extern "C" __global__ void math_f32(const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		float v = x[i];
		y[8 * i + 0] = sinf(v);
		y[8 * i + 1] = cosf(v);
		y[8 * i + 2] = expf(v * 0.5f);
		y[8 * i + 3] = logf(fabsf(v) + 0.5f);
		y[8 * i + 4] = powf(fabsf(v) + 0.5f, 1.7f);
		y[8 * i + 5] = tanhf(v);
		y[8 * i + 6] = atan2f(v, 1.5f);
		y[8 * i + 7] = erff(v * 0.3f);
	}
}
