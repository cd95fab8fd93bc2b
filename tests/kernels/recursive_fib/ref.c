/* recursive_fib reference: Fibonacci by iteration (independent of the recursion). */
#include "../ref.h"

void
ref_recursive_fib(Launch *l)
{
	const u32 *x = launch_buf(l, "x");
	u32 *y = launch_buf(l, "y");
	i32 n = SI32(l, "n"), i;

	for (i = 0; i < n; i++) {
		u32 a = 0, b = 1, k, m = x[i] % 11;
		for (k = 0; k < m; k++) {
			u32 c = a + b;
			a = b;
			b = c;
		}
		y[i] = a;
	}
}
