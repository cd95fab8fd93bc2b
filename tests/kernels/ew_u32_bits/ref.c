/* ew_u32_bits reference: bit loops (independent of the intrinsics). */
#include "../ref.h"

void
ref_ew_u32_bits(Launch *l)
{
	const u32 *a = launch_buf(l, "a");
	u32 *c = launch_buf(l, "c");
	u32 n = SU32(l, "n"), i, k;

	for (i = 0; i < n; i++) {
		u32 x = a[i], pop = 0, clz = 0, rev = 0;
		for (k = 0; k < 32; k++) {
			pop += x >> k & 1;
			rev |= (x >> k & 1) << (31 - k);
		}
		while (clz < 32 && !(x >> (31 - clz) & 1))
			clz++;
		c[4 * i + 0] = pop;
		c[4 * i + 1] = clz;
		c[4 * i + 2] = rev;
		c[4 * i + 3] = (x << 7 | x >> 25) ^ ((x >> 5) & 0x3ff);
	}
}
