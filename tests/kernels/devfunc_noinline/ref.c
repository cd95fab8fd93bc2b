/* devfunc_noinline reference: Horner with fmaf (r*x+k is contracted). */
#include "../ref.h"

static float
devfunc_noinline_poly(float x, int n)
{
	float r = 0.0f;
	int k;

	for (k = n; k >= 0; k--)
		r = fmaf(r, x, (float)k);
	return r;
}

void
ref_devfunc_noinline(Launch *l)
{
	const float *x = launch_buf(l, "x");
	float *y = launch_buf(l, "y");
	i32 n = SI32(l, "n"), i;

	for (i = 0; i < n; i++)
		y[i] = devfunc_noinline_poly(x[i], i % 5 + 1) - devfunc_noinline_poly(-x[i], 2);
}
