/* ew_special_f32 reference: C float arithmetic is IEEE (NaN payloads aside:
 * the check has nan_any); conversions follow PTX cvt: NaN -> 0, out of
 * range saturates to the integer type's limits. */
#include "../ref.h"

static i64
ew_special_f32_cvt(double v, double lo, double hi)
{
	if (isnan(v))
		return 0;
	if (v <= lo)
		return (i64)lo;
	if (v >= hi)
		return (i64)hi;
	return (i64)v;
}

void
ref_ew_special_f32(Launch *l)
{
	const float *a = launch_buf(l, "a"), *b = launch_buf(l, "b");
	float *f = launch_buf(l, "f");
	i32 *k = launch_buf(l, "k"), n = SI32(l, "n"), i;
	i64 *w = launch_buf(l, "w");

	for (i = 0; i < n; i++) {
		float x = a[i], y = b[i];
		f[7 * i + 0] = x + y;
		f[7 * i + 1] = x * y;
		f[7 * i + 2] = fminf(x, y);
		f[7 * i + 3] = fmaxf(x, y);
		f[7 * i + 4] = x / y;
		f[7 * i + 5] = sqrtf(x);
		f[7 * i + 6] = isnan(y) ? 0.0f : y < 0 ? 0.0f : y > 1 ? 1.0f : y;
		k[3 * i + 0] = (i32)ew_special_f32_cvt(trunc(x), -2147483648.0, 2147483647.0);
		k[3 * i + 1] = (i32)(u32)ew_special_f32_cvt(rint(x), 0.0, 4294967295.0);
		k[3 * i + 2] = (i32)ew_special_f32_cvt(floor(x), -2147483648.0, 2147483647.0);
		if (isnan(y))
			w[i] = 0;
		else if (y >= 0x1p63)
			w[i] = INT64_MAX;
		else if (y <= -0x1p63)
			w[i] = INT64_MIN;
		else
			w[i] = (i64)y;
	}
}
