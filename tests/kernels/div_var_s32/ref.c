/* div_var_s32 reference: C99 signed division (x never INT_MIN: no overflow). */
#include "../ref.h"

void
ref_div_var_s32(Launch *l)
{
	const i32 *x = launch_buf(l, "x"), *d = launch_buf(l, "d");
	i32 *q = launch_buf(l, "q"), *r = launch_buf(l, "r"), n = SI32(l, "n"), i;

	for (i = 0; i < n; i++) {
		i32 w = d[i] ? d[i] : 1;
		q[i] = x[i] / w;
		r[i] = x[i] % w;
	}
}
