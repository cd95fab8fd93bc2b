/* div_const_u64 reference: C unsigned 64-bit division. */
#include "../ref.h"

void
ref_div_const_u64(Launch *l)
{
	const u64 *x = launch_buf(l, "x");
	u64 *y = launch_buf(l, "y");
	i32 n = SI32(l, "n"), i;

	for (i = 0; i < n; i++) {
		y[4 * i + 0] = x[i] / 7;
		y[4 * i + 1] = x[i] % 10;
		y[4 * i + 2] = x[i] / 1000000007ull;
		y[4 * i + 3] = x[i] % 1000000007ull;
	}
}
