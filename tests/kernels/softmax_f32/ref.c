/* softmax_f32 reference: in double from the float inputs, then rounded. */
#include "../ref.h"

void
ref_softmax_f32(Launch *l)
{
	const float *x = launch_buf(l, "x");
	float *y = launch_buf(l, "y");
	i32 cols = SI32(l, "cols"), r, c;

	for (r = 0; r < (i32)GX(l); r++) {
		const float *row = x + r * cols;
		double m = -INFINITY, s = 0;
		for (c = 0; c < cols; c++)
			m = fmax(m, row[c]);
		for (c = 0; c < cols; c++)
			s += exp((double)row[c] - m);
		for (c = 0; c < cols; c++)
			y[r * cols + c] = (float)(exp((double)row[c] - m) / s);
	}
}
