/* ew_convert reference: truncation by C casts, nearest-even by lrintf
 * (the default rounding mode), f16 by round-to-nearest-even from float. */
#include "../ref.h"

void
ref_ew_convert(Launch *l)
{
	const float *x = launch_buf(l, "x");
	i32 *si = launch_buf(l, "si");
	u32 *ui = launch_buf(l, "ui");
	u16 *h = launch_buf(l, "h");
	double *d = launch_buf(l, "d");
	float *f = launch_buf(l, "f");
	i32 n = SI32(l, "n"), i;

	for (i = 0; i < n; i++) {
		float v = x[i];
		si[i] = (i32)v;
		ui[i] = (u32)fabsf(v);
		h[i] = r_f2h(v * 0.001f);
		d[i] = (double)v * 3.0;
		f[i] = (float)(i32)lrintf(v * 1000.0f);
	}
}
