/* device_syscalls reference: each thread's heap block gives in[i] - 1
 * (the printed lines are compared by compile --verify, not here). */
#include "../ref.h"

void
ref_device_syscalls(Launch *l)
{
	const i32 *in = launch_buf(l, "in");
	i32 *out = launch_buf(l, "out");
	i32 n = SI32(l, "n"), i;

	for (i = 0; i < n; i++)
		out[i] = in[i] - 1;
}
