/* ew_special_f16 reference: half/bfloat16 semantics as documented in
 * cuda_fp16.h / cuda_bf16.h: min/max return the non-NaN operand and order
 * +0 above -0; directed roundings step the nearest-even result by one ulp
 * where it lies on the wrong side of the exact value. */
#include "../ref.h"

/* Round x (exact double) to a 16-bit format with mode 'n', 'z', 'd' or 'u'. */
static u16
ew_special_f16_round(double x, int mode, u16 (*from)(double), double (*to)(u16))
{
	u16 h = from(x);
	double v = to(h);
	int toward_zero, away;

	if (isnan(x) || v == x)
		return h;
	toward_zero = (mode == 'z' && fabs(v) > fabs(x)) || (mode == 'd' && v > x && x > 0) ||
		      (mode == 'u' && v < x && x < 0);
	away = (mode == 'd' && v > x && x < 0) || (mode == 'u' && v < x && x > 0);
	if (toward_zero && (h & 0x7fff))
		h--;
	else if (away)
		h++;
	return h;
}

static int
ew_special_f16_sat(double v)
{
	return isnan(v) ? 0 : v >= 2147483647.0 ? 2147483647 : v <= -2147483648.0 ? (-2147483647 - 1) : (int)v;
}

void
ref_ew_special_f16(Launch *l)
{
	const u16 *a = launch_buf(l, "a"), *b = launch_buf(l, "b");
	const float *c = launch_buf(l, "c");
	u16 *h = launch_buf(l, "h"), *bf = launch_buf(l, "bf");
	i32 *k = launch_buf(l, "k"), n = SI32(l, "n"), i, m;
	static const char modes[] = "nzdu";

	for (i = 0; i < n; i++) {
		double x = f16_to_double(a[i]), y = f16_to_double(b[i]), f = c[i];
		int xn = isnan(x), yn = isnan(y);
		if (xn && yn) {
			h[8 * i + 0] = h[8 * i + 1] = 0x7fff;
		} else if (xn || yn) {
			h[8 * i + 0] = h[8 * i + 1] = xn ? b[i] : a[i];
		} else if (x == y && x == 0) {
			h[8 * i + 0] = signbit(x) ? a[i] : b[i];  /* the -0 if any */
			h[8 * i + 1] = signbit(x) ? b[i] : a[i];
		} else {
			h[8 * i + 0] = x < y ? a[i] : b[i];
			h[8 * i + 1] = x > y ? a[i] : b[i];
		}
		h[8 * i + 2] = r_f2h(x + y);
		h[8 * i + 3] = r_f2h(x * y);
		for (m = 0; m < 4; m++) {
			h[8 * i + 4 + m] = ew_special_f16_round(f, modes[m], f16_from_double, f16_to_double);
			bf[4 * i + m] = ew_special_f16_round(f, modes[m], bf16_from_double, bf16_to_double);
		}
		k[5 * i + 0] = !xn && !yn && x < y;
		k[5 * i + 1] = xn || yn || x < y;
		k[5 * i + 2] = !xn && !yn && x == y;
		k[5 * i + 3] = xn;
		k[5 * i + 4] = ew_special_f16_sat(trunc(x));
	}
}
