/* func_pointer reference: the table as a switch. */
#include "../ref.h"

void
ref_func_pointer(Launch *l)
{
	const i32 *x = launch_buf(l, "x");
	i32 *y = launch_buf(l, "y"), n = SI32(l, "n"), i, k;

	for (i = 0; i < n; i++) {
		i32 v = x[i], acc = v;
		for (k = 0; k < 3; k++) {
			i32 b = k + 2;
			switch ((v >> (2 * k)) & 3) {
			case 0: acc = acc + b; break;
			case 1: acc = acc * b; break;
			case 2: acc = acc > b ? acc : b; break;
			default: acc = acc - b; break;
			}
		}
		y[i] = acc;
	}
}
