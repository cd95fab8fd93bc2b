/* shfl_width reference: source lanes computed per segment; a lane whose
 * source falls outside its segment keeps its own value. */
#include "../ref.h"

void
ref_shfl_width(Launch *l)
{
	const i32 *x = launch_buf(l, "x");
	i32 *y = launch_buf(l, "y"), n = SI32(l, "n"), total = (i32)(GX(l) * BX(l)), i;

	for (i = 0; i < n && i < total; i++) {
		i32 w0 = i & ~31, lane = i & 31, v[32], k, s8 = lane & ~7, s16 = lane & ~15, src;
		for (k = 0; k < 32; k++)
			v[k] = w0 + k < n ? x[w0 + k] : -1;
		y[4 * i + 0] = v[s8 + 3];
		src = lane - 2;
		y[4 * i + 1] = src >= s16 ? v[src] : v[lane];
		src = lane + 5;
		y[4 * i + 2] = src < s8 + 8 ? v[src] : v[lane];
		y[4 * i + 3] = v[s16 + ((lane - s16) ^ 9)];
	}
}
