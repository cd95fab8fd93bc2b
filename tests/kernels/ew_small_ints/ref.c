/* ew_small_ints reference: int arithmetic, truncated modulo 2^16 / 2^8. */
#include "../ref.h"

void
ref_ew_small_ints(Launch *l)
{
	const int8_t *a = launch_buf(l, "a");
	const u16 *b = launch_buf(l, "b");
	int16_t *c = launch_buf(l, "c");
	u8 *d = launch_buf(l, "d");
	i32 n = SI32(l, "n"), i;

	for (i = 0; i < n; i++) {
		u16 v = (u16)(a[i] * 3 - b[i]);
		memcpy(&c[i], &v, 2);
		d[i] = (u8)(a[i] + (b[i] >> 4));
	}
}
