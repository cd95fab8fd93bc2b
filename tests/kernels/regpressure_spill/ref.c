/* regpressure_spill reference: the same recurrence per thread, fma as in
 * the PTX (fma(acc[k], v, 0.25 * acc[k+1])), then the sum in order. */
#include "../ref.h"

void
ref_regpressure_spill(Launch *l)
{
	const float *x = launch_buf(l, "x");
	float *y = launch_buf(l, "y");
	i32 n = SI32(l, "n"), iters = SI32(l, "iters"), i, it, k;

	for (i = 0; i < n; i++) {
		float acc[64], s = 0.0f;
		for (k = 0; k < 64; k++)
			acc[k] = (float)k;
		for (it = 0; it < iters; it++) {
			float v = x[(i + it) % n];
			for (k = 0; k < 64; k++)
				acc[k] = fmaf(acc[k], v, acc[(k + 1) & 63] * 0.25f);
		}
		for (k = 0; k < 64; k++)
			s += acc[k];
		y[i] = s;
	}
}
