/* local_array reference: insertion sort (another algorithm) of the same 12 values. */
#include "../ref.h"

void
ref_local_array(Launch *l)
{
	const i32 *x = launch_buf(l, "x");
	i32 *y = launch_buf(l, "y"), n = SI32(l, "n"), i, k, j;

	for (i = 0; i < n; i++) {
		i32 a[12], idx = x[i] & 7;
		for (k = 0; k < 12; k++) {
			i32 v = x[(i * 5 + k * 7) % n];
			for (j = k; j > 0 && a[j - 1] > v; j--)
				a[j] = a[j - 1];
			a[j] = v;
		}
		y[2 * i] = a[idx] + a[idx + 4];
		y[2 * i + 1] = a[11] - a[0];
	}
}
