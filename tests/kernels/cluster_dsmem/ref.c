/* cluster_dsmem reference: block sums; each block gets its own plus its
 * cluster partner's (blockIdx.x ^ 1), and its rank blockIdx.x % 2. */
#include "../ref.h"

void
ref_cluster_dsmem(Launch *l)
{
	const i32 *x = launch_buf(l, "x");
	i32 *y = launch_buf(l, "y"), n = SI32(l, "n"), bd = (i32)BX(l), b, k, s[64] = {0};

	for (b = 0; b < (i32)GX(l); b++)
		for (k = 0; k < bd; k++)
			if (b * bd + k < n)
				s[b] += x[b * bd + k];
	for (b = 0; b < (i32)GX(l); b++) {
		y[2 * b] = s[b] + s[b ^ 1];
		y[2 * b + 1] = b & 1;
	}
}
