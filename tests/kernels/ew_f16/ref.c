/* ew_f16 reference: each half operation is computed exactly in double
 * (products of halves have 22 bits) and rounded once to nearest even. */
#include "../ref.h"

void
ref_ew_f16(Launch *l)
{
	const u16 *a = launch_buf(l, "a"), *b = launch_buf(l, "b");
	u16 *c = launch_buf(l, "c");
	float *f = launch_buf(l, "f");
	i32 n = SI32(l, "n"), i;

	for (i = 0; i < n; i++) {
		double x = f16_to_double(a[i]), y = f16_to_double(b[i]);
		double p = f16_to_double(r_f2h(x * y)), s = f16_to_double(r_f2h(x - y));
		c[2 * i] = r_f2h(p + s);
		c[2 * i + 1] = r_f2h(fma(x, y, 0.25));
		f[i] = (float)x * 3.0f;
	}
}
