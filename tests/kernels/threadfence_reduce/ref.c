/* threadfence_reduce reference: block sums, their total, and the ticket
 * counter wrapped back to 0 by atomicInc's modulus. */
#include "../ref.h"

void
ref_threadfence_reduce(Launch *l)
{
	const i32 *x = launch_buf(l, "x");
	i32 *partial = launch_buf(l, "partial"), *out = launch_buf(l, "out");
	u32 *ticket = launch_buf(l, "ticket");
	i32 n = SI32(l, "n"), bd = (i32)BX(l), b, k, sum = 0;

	for (b = 0; b < (i32)GX(l); b++) {
		partial[b] = 0;
		for (k = 0; k < bd; k++)
			if (b * bd + k < n)
				partial[b] += x[b * bd + k];
		sum += partial[b];
	}
	ticket[0] = 0;
	out[0] = sum;
	out[1] = 0;
}
