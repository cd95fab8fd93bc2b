/* reduce_atomic_s32 reference: plain sum and maximum (integer, any order). */
#include "../ref.h"

void
ref_reduce_atomic_s32(Launch *l)
{
	const i32 *x = launch_buf(l, "x");
	i32 *out = launch_buf(l, "out"), n = SI32(l, "n"), i;
	i32 s = out[0], m = out[1];

	for (i = 0; i < n; i++) {
		s += x[i];
		m = x[i] > m ? x[i] : m;
	}
	out[0] = s;
	out[1] = m;
}
