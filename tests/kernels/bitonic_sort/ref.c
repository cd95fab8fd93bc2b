/* bitonic_sort reference: qsort of each segment (independent of the network). */
#include "../ref.h"

static int
bitonic_sort_cmp(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return (x > y) - (x < y);
}

void
ref_bitonic_sort(Launch *l)
{
	float *x = launch_buf(l, "x");
	u32 b;

	for (b = 0; b < GX(l); b++)
		qsort(x + 256 * b, 256, sizeof *x, bitonic_sort_cmp);
}
