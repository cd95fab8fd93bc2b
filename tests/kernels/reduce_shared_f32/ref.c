/* reduce_shared_f32 reference: the same tree, in the same order, in float. */
#include "../ref.h"

void
ref_reduce_shared_f32(Launch *l)
{
	const float *x = launch_buf(l, "x");
	float *out = launch_buf(l, "out"), s[1024];
	i32 n = SI32(l, "n"), bd = (i32)BX(l), b, t, k;

	for (b = 0; b < (i32)GX(l); b++) {
		for (t = 0; t < bd; t++) {
			i32 i = b * bd * 2 + t;
			float v = 0.0f;
			if (i < n)
				v = x[i];
			if (i + bd < n)
				v += x[i + bd];
			s[t] = v;
		}
		for (k = bd / 2; k > 0; k >>= 1)
			for (t = 0; t < k; t++)
				s[t] += s[t + k];
		out[b] = s[0];
	}
}
