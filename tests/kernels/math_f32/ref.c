/* math_f32 reference: the double libm functions, rounded to float (the
 * float arguments are formed in float, as the kernel does). */
#include "../ref.h"

void
ref_math_f32(Launch *l)
{
	const float *x = launch_buf(l, "x");
	float *y = launch_buf(l, "y");
	i32 n = SI32(l, "n"), i;

	for (i = 0; i < n; i++) {
		float v = x[i], h = v * 0.5f, a = fabsf(v) + 0.5f, e = v * 0.3f;
		y[8 * i + 0] = (float)sin(v);
		y[8 * i + 1] = (float)cos(v);
		y[8 * i + 2] = (float)exp(h);
		y[8 * i + 3] = (float)log(a);
		y[8 * i + 4] = (float)pow(a, (double)1.7f);
		y[8 * i + 5] = (float)tanh(v);
		y[8 * i + 6] = (float)atan2(v, 1.5);
		y[8 * i + 7] = (float)erf(e);
	}
}
