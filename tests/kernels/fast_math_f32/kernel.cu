// fast_math_f32 -- the hardware approximations: __sinf, __cosf, __expf, __logf, __fdividef,
// rsqrtf, __frcp_rn, __fsqrt_rn (sin/cos/ex2/lg2/div.approx, rsqrt.approx, rcp.rn, sqrt.rn).
extern "C" __global__ void fast_math_f32(const float *x, float *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		float v = x[i], a = fabsf(v) + 0.5f;
		y[8 * i + 0] = __sinf(v);
		y[8 * i + 1] = __cosf(v);
		y[8 * i + 2] = __expf(v);
		y[8 * i + 3] = __logf(a);
		y[8 * i + 4] = __fdividef(v, a);
		y[8 * i + 5] = rsqrtf(a);
		y[8 * i + 6] = __frcp_rn(a);
		y[8 * i + 7] = __fsqrt_rn(a);
	}
}
