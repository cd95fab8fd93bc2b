/* bulk_copy reference: each block's 256 values reversed, times 3, plus the thread index. */
#include "../ref.h"

void
ref_bulk_copy(Launch *l)
{
	const i32 *x = launch_buf(l, "x");
	i32 *y = launch_buf(l, "y");
	u32 b, t;

	for (b = 0; b < GX(l); b++)
		for (t = 0; t < 256; t++)
			y[b * 256 + t] = x[b * 256 + 255 - t] * 3 + (i32)t;
}
