/* f16_math reference: exact functions in double, rounded to f16. */
#include "../ref.h"

void
ref_f16_math(Launch *l)
{
	const u16 *x = launch_buf(l, "x");
	u16 *y = launch_buf(l, "y");
	i32 n = SI32(l, "n"), i;

	for (i = 0; i < n; i++) {
		double v = f16_to_double(x[i]);
		y[8 * i + 0] = r_f2h(sqrt(v));
		y[8 * i + 1] = r_f2h(1 / sqrt(v));
		y[8 * i + 2] = r_f2h(1 / v);
		y[8 * i + 3] = r_f2h(exp(v));
		y[8 * i + 4] = r_f2h(log(v));
		y[8 * i + 5] = r_f2h(sin(v));
		y[8 * i + 6] = r_f2h(cos(v));
		y[8 * i + 7] = r_f2h(tanh(v));
	}
}
