/* ew_u64 reference: the high half through unsigned __int128. */
#include "../ref.h"

void
ref_ew_u64(Launch *l)
{
	const u64 *a = launch_buf(l, "a"), *b = launch_buf(l, "b");
	u64 *c = launch_buf(l, "c");
	i32 n = SI32(l, "n"), i;

	for (i = 0; i < n; i++) {
		u64 x = a[i], y = b[i];
		__extension__ unsigned __int128 p = (unsigned __int128)x * y;
		c[2 * i] = x * y + (x >> 17);
		c[2 * i + 1] = (u64)(p >> 64) ^ (y << 3);
	}
}
