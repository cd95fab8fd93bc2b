// devfunc_noinline -- a non-inlined device function (.func + call) with a loop inside.
__device__ __noinline__ float devfunc_poly(float x, int n)
{
	float r = 0.0f;
	for (int k = n; k >= 0; k--)
		r = r * x + (float)k;
	return r;
}
extern "C" __global__ void devfunc_noinline(const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = devfunc_poly(x[i], i % 5 + 1) - devfunc_poly(-x[i], 2);
}
