/* div_const_s32 reference: C99 signed division (truncation). */
#include "../ref.h"

void
ref_div_const_s32(Launch *l)
{
	const i32 *x = launch_buf(l, "x");
	i32 *y = launch_buf(l, "y"), n = SI32(l, "n"), i;

	for (i = 0; i < n; i++) {
		i32 v = x[i];
		y[7 * i + 0] = v / 7;
		y[7 * i + 1] = v % 7;
		y[7 * i + 2] = v / -3;
		y[7 * i + 3] = v % -3;
		y[7 * i + 4] = v / 16;
		y[7 * i + 5] = v % 16;
		y[7 * i + 6] = v / 1000000;
	}
}
