/* histogram_shared reference: count x & 63 (added to the initial h). */
#include "../ref.h"

void
ref_histogram_shared(Launch *l)
{
	const u8 *x = launch_buf(l, "x");
	u32 *h = launch_buf(l, "h");
	i32 n = SI32(l, "n"), i;

	for (i = 0; i < n; i++)
		h[x[i] & 63]++;
}
