// float_classify -- exact float library functions on special and ordinary values: isnan/isinf/
// isfinite/signbit (setp.nan/num, integer tests), copysign, trunc/round/ceil/floor/rint (cvt.r*i.f32.f32), fmod,
// remainder, frexp, ldexp, fdim, nextafter; plus hypot/cbrt/exp2/log2/expm1/log1p (approximate).
extern "C" __global__ void float_classify(const float *a, const float *b, const float *c, float *f, int *k,
					  float *g, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		float x = a[i], y = b[i], z = c[i];
		int e;
		k[5 * i + 0] = isnan(x) ? 1 : 0;
		k[5 * i + 1] = isinf(x) ? 1 : 0;
		k[5 * i + 2] = isfinite(x) ? 1 : 0;
		k[5 * i + 3] = signbit(x) ? 1 : 0;
		f[12 * i + 0] = copysignf(y, x);
		f[12 * i + 1] = truncf(x);
		f[12 * i + 2] = roundf(x);
		f[12 * i + 3] = ceilf(x);
		f[12 * i + 4] = floorf(x);
		f[12 * i + 5] = rintf(x);
		f[12 * i + 6] = fmodf(x, y);
		f[12 * i + 7] = remainderf(x, y);
		f[12 * i + 8] = frexpf(x, &e);
		k[5 * i + 4] = isfinite(x) ? e : 0;
		f[12 * i + 9] = ldexpf(y, (int)(z * 10.0f));
		f[12 * i + 10] = fdimf(x, y);
		f[12 * i + 11] = nextafterf(x, y);
		g[6 * i + 0] = hypotf(z, y);
		g[6 * i + 1] = cbrtf(z);
		g[6 * i + 2] = exp2f(z);
		g[6 * i + 3] = log2f(fabsf(z) + 0.25f);
		g[6 * i + 4] = expm1f(z * 0.1f);
		g[6 * i + 5] = log1pf(fabsf(z) * 0.01f);
	}
}
