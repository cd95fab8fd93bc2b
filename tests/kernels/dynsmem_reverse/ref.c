/* dynsmem_reverse reference: y[base + B-1-t] = 2*x[base + t] + 1 (x past n reads as -1). */
#include "../ref.h"

void
ref_dynsmem_reverse(Launch *l)
{
	const i32 *x = launch_buf(l, "x");
	i32 *y = launch_buf(l, "y"), n = SI32(l, "n"), bd = (i32)BX(l), b, t;

	for (b = 0; b < (i32)GX(l); b++)
		for (t = 0; t < bd; t++) {
			i32 i = b * bd + t, j = b * bd + bd - 1 - t;
			if (j < n)
				y[j] = (i < n ? x[i] : -1) * 2 + 1;
		}
}
