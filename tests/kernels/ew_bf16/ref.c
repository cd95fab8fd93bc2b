/* ew_bf16 reference: exact in double, rounded once to bfloat16 per op. */
#include "../ref.h"

void
ref_ew_bf16(Launch *l)
{
	const u16 *a = launch_buf(l, "a"), *b = launch_buf(l, "b");
	u16 *c = launch_buf(l, "c");
	float *f = launch_buf(l, "f");
	i32 n = SI32(l, "n"), i;

	for (i = 0; i < n; i++) {
		double x = bf16_to_double(a[i]), y = bf16_to_double(b[i]);
		double p = bf16_to_double(r_f2b(x * y));
		c[2 * i] = r_f2b(p + y);
		c[2 * i + 1] = r_f2b(fma(x, y, x));
		f[i] = (float)x + (float)y;
	}
}
