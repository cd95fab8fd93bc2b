/* scan_block_s32 reference: running sum restarted at each block. */
#include "../ref.h"

void
ref_scan_block_s32(Launch *l)
{
	const i32 *x = launch_buf(l, "x");
	i32 *y = launch_buf(l, "y"), n = SI32(l, "n"), bd = (i32)BX(l), i, acc = 0;

	for (i = 0; i < n; i++) {
		if (i % bd == 0)
			acc = 0;
		acc += x[i];
		y[i] = acc;
	}
}
