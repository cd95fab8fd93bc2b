/* atomic_cas_max reference: maximum of the initial m and x; counters. */
#include "../ref.h"

void
ref_atomic_cas_max(Launch *l)
{
	const float *x = launch_buf(l, "x");
	float *m = launch_buf(l, "m");
	i32 *cnt = launch_buf(l, "cnt"), n = SI32(l, "n"), i;

	for (i = 0; i < n; i++) {
		m[0] = x[i] > m[0] ? x[i] : m[0];
		cnt[0]--;
		if (x[i] > 0.0f)
			cnt[1] = 7;
	}
}
