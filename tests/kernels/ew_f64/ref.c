/* ew_f64 reference: fma() where nvcc contracts, sqrt and / correctly rounded. */
#include "../ref.h"

void
ref_ew_f64(Launch *l)
{
	const double *x = launch_buf(l, "x"), *y = launch_buf(l, "y");
	double *c = launch_buf(l, "c"), *d = launch_buf(l, "d"), a = launch_scalar(l, "a");
	i32 n = SI32(l, "n"), i;

	for (i = 0; i < n; i++) {
		c[i] = fma(a, x[i], y[i]);
		d[i] = sqrt(fma(x[i], x[i], 1.0)) / y[i];
	}
}
