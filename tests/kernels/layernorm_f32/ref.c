/* layernorm_f32 reference: in double, rounded at the end. */
#include "../ref.h"

void
ref_layernorm_f32(Launch *l)
{
	const float *x = launch_buf(l, "x"), *g = launch_buf(l, "gamma"), *b = launch_buf(l, "beta");
	float *y = launch_buf(l, "y");
	i32 cols = SI32(l, "cols"), r, c;
	double eps = launch_scalar(l, "eps");

	for (r = 0; r < (i32)GX(l); r++) {
		const float *row = x + r * cols;
		double mean = 0, var = 0, inv;
		for (c = 0; c < cols; c++)
			mean += row[c];
		mean /= cols;
		for (c = 0; c < cols; c++)
			var += (row[c] - mean) * (row[c] - mean);
		inv = 1 / sqrt(var / cols + eps);
		for (c = 0; c < cols; c++)
			y[r * cols + c] = (float)((row[c] - mean) * inv * g[c] + b[c]);
	}
}
