/* transpose_shared reference: out[c][r] = in[r][c]. */
#include "../ref.h"

void
ref_transpose_shared(Launch *l)
{
	const float *in = launch_buf(l, "in");
	float *out = launch_buf(l, "out");
	i32 rows = SI32(l, "rows"), cols = SI32(l, "cols"), r, c;

	for (r = 0; r < rows; r++)
		for (c = 0; c < cols; c++)
			out[c * rows + r] = in[r * cols + c];
}
