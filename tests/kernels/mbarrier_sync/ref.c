/* mbarrier_sync reference: the three phases per block. */
#include "../ref.h"

void
ref_mbarrier_sync(Launch *l)
{
	const i32 *x = launch_buf(l, "x");
	i32 *y = launch_buf(l, "y"), n = SI32(l, "n"), b = (i32)BX(l), g, t, s[1024], v[1024];

	for (g = 0; g < (i32)GX(l); g++) {
		for (t = 0; t < b; t++)
			s[t] = g * b + t < n ? x[g * b + t] : 0;
		for (t = 0; t < b; t++)
			v[t] = s[(t + 1) % b] + s[(t + 5) % b];
		for (t = 0; t < b; t++)
			if (g * b + t < n)
				y[g * b + t] = 2 * v[b - 1 - t] - v[t];
	}
}
