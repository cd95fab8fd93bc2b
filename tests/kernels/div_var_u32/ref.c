/* div_var_u32 reference: C unsigned division. */
#include "../ref.h"

void
ref_div_var_u32(Launch *l)
{
	const u32 *x = launch_buf(l, "x"), *d = launch_buf(l, "d");
	u32 *q = launch_buf(l, "q"), *r = launch_buf(l, "r");
	i32 n = SI32(l, "n"), i;

	for (i = 0; i < n; i++) {
		q[i] = x[i] / d[i];
		r[i] = x[i] % d[i];
	}
}
