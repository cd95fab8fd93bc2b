/* scan_warp_f32 reference: emulates the shuffle steps lane by lane, in float. */
#include "../ref.h"

static void
scan_warp_f32_warp(float *v)
{
	float nv[32];
	int d, l;

	for (d = 1; d < 32; d <<= 1) {
		for (l = 0; l < 32; l++)
			nv[l] = l >= d ? v[l] + v[l - d] : v[l];
		memcpy(v, nv, sizeof nv);
	}
}

void
ref_scan_warp_f32(Launch *l)
{
	const float *x = launch_buf(l, "x");
	float *y = launch_buf(l, "y"), v[1024], ws[32];
	i32 n = SI32(l, "n"), bd = (i32)BX(l), b, t, w;

	for (b = 0; b < (i32)GX(l); b++) {
		for (t = 0; t < bd; t++)
			v[t] = b * bd + t < n ? x[b * bd + t] : 0.0f;
		for (w = 0; w < bd / 32; w++) {
			scan_warp_f32_warp(v + 32 * w);
			ws[w] = v[32 * w + 31];
		}
		for (t = bd / 32; t < 32; t++)
			ws[t] = 0.0f;
		scan_warp_f32_warp(ws);
		for (t = 0; t < bd; t++) {
			if (t >= 32)
				v[t] += ws[t / 32 - 1];
			if (b * bd + t < n)
				y[b * bd + t] = v[t];
		}
	}
}
