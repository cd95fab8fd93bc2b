/* switch_jump reference: the same switch per element (values stay small). */
#include "../ref.h"

void
ref_switch_jump(Launch *l)
{
	const i32 *x = launch_buf(l, "x");
	i32 *y = launch_buf(l, "y"), n = SI32(l, "n"), i, k;

	for (i = 0; i < n; i++) {
		i32 v = x[i], acc = 0;
		for (k = 0; k < 6; k++) {
			switch ((v + k) & 7) {
			case 0: acc += 3; break;
			case 1: acc ^= 0x55; break;
			case 2: acc = acc * 3 + 1; break;
			case 3: acc -= v; break;
			case 4: acc = (i32)((u32)acc << 2) | 1; break;
			case 5: acc = acc / 3; break;
			case 6: acc += k * k; break;
			default: acc = ~acc; break;
			}
		}
		y[i] = acc;
	}
}
