/* atomics_float reference: plain sums, exact in any order: inputs are
 * small multiples of 1/4 and every possible partial sum is representable
 * (f16: below 2048 quarters; bf16: integer counts below 256). */
#include "../ref.h"

void
ref_atomics_float(Launch *l)
{
	const float *x = launch_buf(l, "x");
	float *sf = launch_buf(l, "sf");
	double *sd = launch_buf(l, "sd"), h[4], b[4];
	u16 *sh = launch_buf(l, "sh"), *sb = launch_buf(l, "sb");
	i32 n = SI32(l, "n"), i, k;

	for (k = 0; k < 4; k++) {
		h[k] = f16_to_double(sh[k]);
		b[k] = bf16_to_double(sb[k]);
	}
	for (i = 0; i < n; i++) {
		sf[i & 7] += x[i];
		sd[i & 3] += (double)x[i] * 0.5;
		h[2 * (i & 1)] += x[i];
		h[2 * (i & 1) + 1] += -x[i] * 0.25;
		b[2 * (i & 1)] += 1.0;
		b[2 * (i & 1) + 1] += x[i] > 0 ? 1.0 : -1.0;
	}
	for (k = 0; k < 4; k++) {
		sh[k] = r_f2h(h[k]);
		sb[k] = r_f2b(b[k]);
	}
}
