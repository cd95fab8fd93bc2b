/* early_exit reference: the same control flow per element. */
#include "../ref.h"

static i32
early_exit_one(const i32 *x, i32 n, i32 limit, i32 i)
{
	i32 acc = 0, a, b;

	for (a = 0; a < 8; a++) {
		if (x[(i + a) % n] < 0)
			continue;
		for (b = 0; b < x[i] % 7 + 1; b++) {
			acc += a * b + x[(i * 3 + b) % n];
			if (acc > limit)
				return -acc;
		}
		if ((acc & 15) == 3)
			break;
	}
	return acc;
}

void
ref_early_exit(Launch *l)
{
	const i32 *x = launch_buf(l, "x");
	i32 *y = launch_buf(l, "y"), n = SI32(l, "n"), limit = SI32(l, "limit"), i;

	for (i = 0; i < n; i++)
		y[i] = early_exit_one(x, n, limit, i);
}
