/* const_global_mem reference: Horner with fmaf over the same coefficients. */
#include "../ref.h"

void
ref_const_global_mem(Launch *l)
{
	static const float c[6] = {1.0f, -0.5f, 0.25f, 2.0f, -3.0f, 0.125f};
	static const i32 t[8] = {3, 1, 4, 1, 5, 9, 2, 6};
	const float *x = launch_buf(l, "x");
	float *y = launch_buf(l, "y");
	i32 *z = launch_buf(l, "z"), n = SI32(l, "n"), i, k;

	for (i = 0; i < n; i++) {
		float r = 0.0f;
		for (k = 5; k >= 0; k--)
			r = fmaf(r, x[i], c[k]);
		y[i] = r;
		z[i] = t[i & 7] * t[(i >> 3) & 7];
	}
}
