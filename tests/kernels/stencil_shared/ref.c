/* stencil_shared reference: clamped neighbours, summed in source order;
 * the epilogue as in the PTX: fma(c, 0.5, 0.125 * sum). */
#include "../ref.h"

static float
stencil_shared_at(const float *in, i32 W, i32 H, i32 x, i32 y)
{
	x = x < 0 ? 0 : x >= W ? W - 1 : x;
	y = y < 0 ? 0 : y >= H ? H - 1 : y;
	return in[y * W + x];
}

void
ref_stencil_shared(Launch *l)
{
	const float *in = launch_buf(l, "in");
	float *out = launch_buf(l, "out");
	i32 W = SI32(l, "W"), H = SI32(l, "H"), x, y;

	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++) {
			float s = stencil_shared_at(in, W, H, x, y - 1) + stencil_shared_at(in, W, H, x, y + 1);
			s = s + stencil_shared_at(in, W, H, x - 1, y);
			s = s + stencil_shared_at(in, W, H, x + 1, y);
			out[y * W + x] = fmaf(in[y * W + x], 0.5f, 0.125f * s);
		}
}
