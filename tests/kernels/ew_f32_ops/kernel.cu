// ew_f32_ops -- IEEE-rounded division and square root, min/max, abs.
extern "C" __global__ void ew_f32_ops(const float *a, const float *b, float *c, float *d, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		float x = a[i], y = b[i];
		c[i] = sqrtf(fabsf(x)) + x / y;
		d[i] = fminf(x, y) - fmaxf(x * 2.0f, y);
	}
}
