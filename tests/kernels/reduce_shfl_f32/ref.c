/* reduce_shfl_f32 reference: emulates every lane of every shuffle step
 * (a lane whose source is out of range keeps its own value). */
#include "../ref.h"

static void
reduce_shfl_f32_warp(float *v)
{
	float nv[32];
	int o, l;

	for (o = 16; o > 0; o >>= 1) {
		for (l = 0; l < 32; l++)
			nv[l] = v[l] + (l + o < 32 ? v[l + o] : v[l]);
		memcpy(v, nv, sizeof nv);
	}
}

void
ref_reduce_shfl_f32(Launch *l)
{
	const float *x = launch_buf(l, "x");
	float *out = launch_buf(l, "out"), v[1024], ws[32];
	i32 n = SI32(l, "n"), bd = (i32)BX(l), gd = (i32)GX(l), b, t, w, i;

	for (b = 0; b < gd; b++) {
		for (t = 0; t < bd; t++) {
			v[t] = 0.0f;
			for (i = b * bd + t; i < n; i += gd * bd)
				v[t] += x[i];
		}
		for (w = 0; w < bd / 32; w++) {
			reduce_shfl_f32_warp(v + 32 * w);
			ws[w] = v[32 * w];
		}
		for (t = 0; t < 32; t++)
			v[t] = t < bd / 32 ? ws[t] : 0.0f;
		reduce_shfl_f32_warp(v);
		out[b] = v[0];
	}
}
