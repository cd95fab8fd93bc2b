// ew_special_f32 -- IEEE special values: NaN, infinities, signed zeros, subnormals through
// add/mul/min/max/div/sqrt (no flush to zero) and saturating float-to-integer conversions. (-0.0 is kept away from .sat: its sign there is unspecified.)
extern "C" __global__ void ew_special_f32(const float *a, const float *b, float *f, int *k, long long *w, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		float x = a[i], y = b[i];
		f[7 * i + 0] = x + y;
		f[7 * i + 1] = x * y;
		f[7 * i + 2] = fminf(x, y);
		f[7 * i + 3] = fmaxf(x, y);
		f[7 * i + 4] = x / y;
		f[7 * i + 5] = sqrtf(x);
		f[7 * i + 6] = __saturatef(y);
		k[3 * i + 0] = __float2int_rz(x);
		k[3 * i + 1] = (int)__float2uint_rn(x);
		k[3 * i + 2] = __float2int_rd(x);
		w[i] = __float2ll_rz(y);
	}
}
