/* reduce_shfl_f64 reference: per-lane sums, the shuffle tree replayed, warp sums in order. */
#include "../ref.h"

void
ref_reduce_shfl_f64(Launch *l)
{
	const double *x = launch_buf(l, "x");
	double *out = launch_buf(l, "out"), v[1024], t[32];
	i32 n = SI32(l, "n"), bd = (i32)BX(l), gd = (i32)GX(l), b, k, i, o, w, ln;

	for (b = 0; b < gd; b++) {
		double s = 0;
		for (k = 0; k < bd; k++) {
			v[k] = 0.0;
			for (i = b * bd + k; i < n; i += gd * bd)
				v[k] += x[i];
		}
		for (w = 0; w < bd / 32; w++) {
			double *u = v + 32 * w;
			for (o = 16; o > 0; o >>= 1) {
				for (ln = 0; ln < 32; ln++)
					t[ln] = u[ln] + (ln + o < 32 ? u[ln + o] : u[ln]);
				memcpy(u, t, sizeof t);
			}
			s = w ? s + u[0] : u[0];
		}
		out[b] = s;
	}
}
