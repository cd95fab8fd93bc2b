/* histogram_global reference: counts by v % 37, max and min of x. */
#include "../ref.h"

void
ref_histogram_global(Launch *l)
{
	const u32 *x = launch_buf(l, "x");
	u32 *h = launch_buf(l, "h"), *mm = launch_buf(l, "mm");
	i32 n = SI32(l, "n"), i;

	for (i = 0; i < n; i++) {
		h[x[i] % 37]++;
		mm[0] = x[i] > mm[0] ? x[i] : mm[0];
		mm[1] = x[i] < mm[1] ? x[i] : mm[1];
	}
}
