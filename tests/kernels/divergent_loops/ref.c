/* divergent_loops reference: the same walk per element. */
#include "../ref.h"

void
ref_divergent_loops(Launch *l)
{
	const u32 *x = launch_buf(l, "x");
	u32 *steps = launch_buf(l, "steps"), *peak = launch_buf(l, "peak");
	i32 n = SI32(l, "n"), i;

	for (i = 0; i < n; i++) {
		u32 v = x[i], s = 0, m = v;
		if (v == 0) {
			steps[i] = 0xffffffffu;
			continue;
		}
		while (v != 1 && s < 100) {
			v = (v & 1) ? 3 * v + 1 : v >> 1;
			m = v > m ? v : m;
			s++;
		}
		steps[i] = s;
		peak[i] = m;
	}
}
