/* float_classify reference: C99 <math.h> (exact functions are exact in
 * glibc too); the approximate ones are compared within 4 ulp. */
#include "../ref.h"

void
ref_float_classify(Launch *l)
{
	const float *a = launch_buf(l, "a"), *b = launch_buf(l, "b"), *c = launch_buf(l, "c");
	float *f = launch_buf(l, "f"), *g = launch_buf(l, "g");
	i32 *k = launch_buf(l, "k"), n = SI32(l, "n"), i;

	for (i = 0; i < n; i++) {
		float x = a[i], y = b[i], z = c[i];
		int e = 0;
		k[5 * i + 0] = isnan(x) != 0;
		k[5 * i + 1] = isinf(x) != 0;
		k[5 * i + 2] = isfinite(x) != 0;
		k[5 * i + 3] = signbit(x) != 0;
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
		g[6 * i + 0] = (float)hypot(z, y);
		g[6 * i + 1] = (float)cbrt(z);
		g[6 * i + 2] = (float)exp2(z);
		g[6 * i + 3] = (float)log2(fabsf(z) + 0.25f);
		g[6 * i + 4] = (float)expm1((double)(z * 0.1f));
		g[6 * i + 5] = (float)log1p((double)(fabsf(z) * 0.01f));
	}
}
