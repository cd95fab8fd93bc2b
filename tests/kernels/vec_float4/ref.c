/* vec_float4 reference: the same shuffle of components. */
#include "../ref.h"

void
ref_vec_float4(Launch *l)
{
	const float *x = launch_buf(l, "x");
	float *y = launch_buf(l, "y");
	const i32 *p = launch_buf(l, "p");
	i32 *q = launch_buf(l, "q"), n4 = SI32(l, "n4"), i;

	for (i = 0; i < n4; i++) {
		const float *v = x + 4 * i;
		y[4 * i + 0] = v[3];
		y[4 * i + 1] = v[2] * 2.0f;
		y[4 * i + 2] = v[1] - v[0];
		y[4 * i + 3] = v[0];
		q[i] = p[2 * i] - 3 * p[2 * i + 1];
	}
}
