/* fast_math_f32 reference: exact functions in double, rounded to float. */
#include "../ref.h"

void
ref_fast_math_f32(Launch *l)
{
	const float *x = launch_buf(l, "x");
	float *y = launch_buf(l, "y");
	i32 n = SI32(l, "n"), i;

	for (i = 0; i < n; i++) {
		float v = x[i], a = fabsf(v) + 0.5f;
		y[8 * i + 0] = (float)sin(v);
		y[8 * i + 1] = (float)cos(v);
		y[8 * i + 2] = (float)exp(v);
		y[8 * i + 3] = (float)log(a);
		y[8 * i + 4] = (float)((double)v / a);
		y[8 * i + 5] = (float)(1 / sqrt(a));
		y[8 * i + 6] = 1.0f / a;
		y[8 * i + 7] = sqrtf(a);
	}
}
