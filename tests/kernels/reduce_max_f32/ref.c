/* reduce_max_f32 reference: maximum of |x| per block (order-free). */
#include "../ref.h"

void
ref_reduce_max_f32(Launch *l)
{
	const float *x = launch_buf(l, "x");
	float *out = launch_buf(l, "out");
	i32 n = SI32(l, "n"), bd = (i32)BX(l), b, t;

	for (b = 0; b < (i32)GX(l); b++) {
		float m = 0.0f;
		for (t = 0; t < bd; t++)
			if (b * bd + t < n)
				m = fmaxf(m, fabsf(x[b * bd + t]));
		out[b] = m;
	}
}
