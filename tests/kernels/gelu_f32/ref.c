/* gelu_f32 reference: the same formula in double. */
#include "../ref.h"

void
ref_gelu_f32(Launch *l)
{
	const float *x = launch_buf(l, "x");
	float *y = launch_buf(l, "y");
	i32 n = SI32(l, "n"), i;

	for (i = 0; i < n; i++) {
		double v = x[i];
		y[i] = (float)(0.5 * v * (1.0 + tanh(0.7978845608 * (v + 0.044715 * v * v * v))));
	}
}
