/* div_var_s64 reference: C99 64-bit signed division. */
#include "../ref.h"

void
ref_div_var_s64(Launch *l)
{
	const i64 *x = launch_buf(l, "x"), *d = launch_buf(l, "d");
	i64 *q = launch_buf(l, "q"), *r = launch_buf(l, "r");
	i32 n = SI32(l, "n"), i;

	for (i = 0; i < n; i++) {
		q[i] = x[i] / d[i];
		r[i] = x[i] % d[i];
	}
}
