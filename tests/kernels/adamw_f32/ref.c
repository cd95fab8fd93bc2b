/* adamw_f32 reference: in double from the float inputs and scalars. */
#include "../ref.h"

void
ref_adamw_f32(Launch *l)
{
	float *p = launch_buf(l, "p"), *m = launch_buf(l, "m"), *v = launch_buf(l, "v");
	const float *g = launch_buf(l, "g");
	double lr = launch_scalar(l, "lr"), b1 = launch_scalar(l, "b1"), b2 = launch_scalar(l, "b2");
	double eps = launch_scalar(l, "eps"), wd = launch_scalar(l, "wd");
	double bc1 = launch_scalar(l, "bc1"), bc2 = launch_scalar(l, "bc2");
	i32 n = SI32(l, "n"), i;

	for (i = 0; i < n; i++) {
		double gi = g[i], mi = b1 * m[i] + (1 - (double)(float)b1) * gi;
		double vi = b2 * v[i] + (1 - (double)(float)b2) * gi * gi;
		m[i] = (float)mi;
		v[i] = (float)vi;
		p[i] = (float)(p[i] - lr * (mi / bc1 / (sqrt(vi / bc2) + eps) + wd * p[i]));
	}
}
