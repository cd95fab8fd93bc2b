/* ew_f16x2 reference: per half lane, x*0.5 rounded, then fma rounded once
 * (fma in double is exact or rounds harmlessly: see README). */
#include "../ref.h"

void
ref_ew_f16x2(Launch *l)
{
	const u16 *a = launch_buf(l, "a"), *b = launch_buf(l, "b");
	u16 *c = launch_buf(l, "c");
	i32 n = SI32(l, "n"), i;

	for (i = 0; i < 2 * n; i++) {
		double x = f16_to_double(a[i]), y = f16_to_double(b[i]);
		double h = f16_to_double(r_f2h(x * 0.5));
		c[i] = r_f2h(fma(x, y, h));
	}
}
