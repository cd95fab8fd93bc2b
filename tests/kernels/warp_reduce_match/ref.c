/* warp_reduce_match reference: per warp sums, extremes and equal-key masks. */
#include "../ref.h"

void
ref_warp_reduce_match(Launch *l)
{
	const u32 *x = launch_buf(l, "x");
	u32 *y = launch_buf(l, "y");
	i32 n = SI32(l, "n"), total = (i32)(GX(l) * BX(l)), w, k, j;

	for (w = 0; w < total; w += 32) {
		u32 v[32], s = 0, mx = 0;
		i32 mn = 0x7fffffff;
		for (k = 0; k < 32; k++) {
			v[k] = w + k < n ? x[w + k] : 0;
			s += v[k];
			mx = v[k] > mx ? v[k] : mx;
			mn = (i32)v[k] - 50 < mn ? (i32)v[k] - 50 : mn;
		}
		for (k = 0; k < 32 && w + k < n; k++) {
			u32 m = 0;
			for (j = 0; j < 32; j++)
				m |= (u32)((v[j] & 3) == (v[k] & 3)) << j;
			y[4 * (w + k) + 0] = s;
			y[4 * (w + k) + 1] = mx;
			y[4 * (w + k) + 2] = (u32)mn;
			y[4 * (w + k) + 3] = m;
		}
	}
}
