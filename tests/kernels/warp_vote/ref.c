/* warp_vote reference: per warp of 32 consecutive threads (threads past n
 * vote with v = 0). */
#include "../ref.h"

void
ref_warp_vote(Launch *l)
{
	const i32 *x = launch_buf(l, "x");
	u32 *y = launch_buf(l, "y");
	i32 n = SI32(l, "n"), total = (i32)(GX(l) * BX(l)), w, k;

	for (w = 0; w < total; w += 32) {
		u32 b = 0, pop = 0;
		int any = 0, all = 1;
		for (k = 0; k < 32; k++) {
			i32 v = w + k < n ? x[w + k] : 0;
			b |= (u32)(v > 0) << k;
			any |= v > 90;
			all &= v > -95;
		}
		for (k = 0; k < 32; k++)
			pop += b >> k & 1;
		for (k = 0; k < 32 && w + k < n; k++) {
			u32 below = 0, j;
			for (j = 0; j < (u32)k; j++)
				below += b >> j & 1;
			y[w + k] = pop + (any ? 1000u : 0u) + (all ? 10000u : 0u) + 100000u * below;
		}
	}
}
