/* ew_f32_ops reference: nvcc's default -prec-div/-prec-sqrt give
 * correctly rounded div.rn/sqrt.rn, which C float arithmetic matches. */
#include "../ref.h"

void
ref_ew_f32_ops(Launch *l)
{
	const float *a = launch_buf(l, "a"), *b = launch_buf(l, "b");
	float *c = launch_buf(l, "c"), *d = launch_buf(l, "d");
	i32 n = SI32(l, "n"), i;

	for (i = 0; i < n; i++) {
		float x = a[i], y = b[i], q = x / y, s = sqrtf(fabsf(x));
		c[i] = s + q;
		d[i] = fminf(x, y) - fmaxf(x * 2.0f, y);
	}
}
