/* ew_s32 reference: the same expression, element by element (values are
 * small enough not to overflow; shifts of negatives are arithmetic). */
#include "../ref.h"

void
ref_ew_s32(Launch *l)
{
	const i32 *a = launch_buf(l, "a"), *b = launch_buf(l, "b");
	i32 *c = launch_buf(l, "c");
	i32 n = SI32(l, "n"), i;

	for (i = 0; i < n; i++) {
		i32 x = a[i], y = b[i];
		c[i] = x * y + (x >> 3) - (y ^ 0x55) + (x > y ? x : y) - (y < 0 ? -y : y) +
		       2 * (x < y ? x : y) - (i32)((u32)y << 4);
	}
}
