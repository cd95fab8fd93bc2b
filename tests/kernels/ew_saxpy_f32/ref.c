/* ew_saxpy_f32 reference: fmaf, as nvcc contracts a*x+y into fma.rn.f32. */
#include "../ref.h"

void
ref_ew_saxpy_f32(Launch *l)
{
	const float *x = launch_buf(l, "x");
	float *y = launch_buf(l, "y"), a = SF32(l, "a");
	u32 n = SU32(l, "n"), i;

	for (i = 0; i < n; i++)
		y[i] = fmaf(a, x[i], y[i]);
}
