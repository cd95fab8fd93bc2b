/* gemv_warp reference: per-lane fmaf sums, then the shuffle tree replayed. */
#include "../ref.h"

void
ref_gemv_warp(Launch *l)
{
	const float *A = launch_buf(l, "A"), *x = launch_buf(l, "x");
	float *y = launch_buf(l, "y");
	i32 rows = SI32(l, "rows"), cols = SI32(l, "cols"), r, k, o, ln;

	for (r = 0; r < rows; r++) {
		float s[32], t[32];
		for (ln = 0; ln < 32; ln++) {
			s[ln] = 0.0f;
			for (k = ln; k < cols; k += 32)
				s[ln] = fmaf(A[r * cols + k], x[k], s[ln]);
		}
		for (o = 16; o > 0; o >>= 1) {
			for (ln = 0; ln < 32; ln++)
				t[ln] = s[ln] + (ln + o < 32 ? s[ln + o] : s[ln]);
			memcpy(s, t, sizeof t);
		}
		y[r] = s[0];
	}
}
