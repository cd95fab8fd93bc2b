/* math_f64 reference: glibc's libm (within 1 ulp); the last line is
 * correctly rounded on both sides. */
#include "../ref.h"

void
ref_math_f64(Launch *l)
{
	const double *x = launch_buf(l, "x");
	double *y = launch_buf(l, "y");
	i32 n = SI32(l, "n"), i;

	for (i = 0; i < n; i++) {
		double v = x[i];
		y[8 * i + 0] = sin(v);
		y[8 * i + 1] = cos(v);
		y[8 * i + 2] = exp(v * 0.5);
		y[8 * i + 3] = log(fabs(v) + 0.5);
		y[8 * i + 4] = pow(fabs(v) + 0.5, 1.7);
		y[8 * i + 5] = atan(v);
		y[8 * i + 6] = cbrt(v);
		y[8 * i + 7] = sqrt(fabs(v)) + 1.0 / (v + 20.0);
	}
}
