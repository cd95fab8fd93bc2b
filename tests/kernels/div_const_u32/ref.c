/* div_const_u32 reference: C unsigned division. */
#include "../ref.h"

void
ref_div_const_u32(Launch *l)
{
	const u32 *x = launch_buf(l, "x");
	u32 *y = launch_buf(l, "y");
	i32 n = SI32(l, "n"), i;

	for (i = 0; i < n; i++) {
		u32 v = x[i];
		y[6 * i + 0] = v / 7;
		y[6 * i + 1] = v % 7;
		y[6 * i + 2] = v / 10;
		y[6 * i + 3] = v % 641;
		y[6 * i + 4] = v / 16;
		y[6 * i + 5] = v / 3000000000u;
	}
}
