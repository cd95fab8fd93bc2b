/* ew_special_f64 reference: C double arithmetic (IEEE; NaN payloads aside);
 * integer -> float conversions by C casts (nearest even); f64 -> f32 in
 * directed modes by stepping the nearest result with nextafterf; PTX cvt
 * saturation for float -> integer (NaN -> 0). */
#include "../ref.h"

static float
ew_special_f64_round(double x, int mode)
{
	float r = (float)x;

	if (isnan(x) || (double)r == x)
		return r;
	if (mode == 'z' && fabs((double)r) > fabs(x))
		return nextafterf(r, 0.0f);
	if (mode == 'd' && (double)r > x)
		return nextafterf(r, -INFINITY);
	if (mode == 'u' && (double)r < x)
		return nextafterf(r, INFINITY);
	return r;
}

void
ref_ew_special_f64(Launch *l)
{
	const double *a = launch_buf(l, "a"), *b = launch_buf(l, "b");
	const i64 *p = launch_buf(l, "p");
	double *d = launch_buf(l, "d");
	float *f = launch_buf(l, "f");
	i64 *q = launch_buf(l, "q");
	i32 n = SI32(l, "n"), i;

	for (i = 0; i < n; i++) {
		double x = a[i], y = b[i], t;
		i64 s = p[i];
		d[6 * i + 0] = fmin(x, y);
		d[6 * i + 1] = fmax(x, y);
		d[6 * i + 2] = x / y;
		d[6 * i + 3] = sqrt(x);
		d[6 * i + 4] = fma(x, y, 1.0);
		d[6 * i + 5] = (double)s + (double)(u64)s;
		f[6 * i + 0] = (float)x;
		f[6 * i + 1] = ew_special_f64_round(x, 'z');
		f[6 * i + 2] = ew_special_f64_round(x, 'd');
		f[6 * i + 3] = ew_special_f64_round(x, 'u');
		f[6 * i + 4] = (float)s;
		f[6 * i + 5] = (float)(u64)s;
		t = trunc(x);
		q[2 * i + 0] = isnan(t) ? 0 : t >= 0x1p63 ? INT64_MAX : t <= -0x1p63 ? INT64_MIN : (i64)t;
		t = rint(y);
		q[2 * i + 1] = (i64)(isnan(t) || t <= 0 ? 0 : t >= 0x1p64 ? UINT64_MAX : (u64)t);
	}
}
