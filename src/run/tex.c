/* tex.c -- texture sampling and surface access (tex.h). */
#include <math.h>
#include <string.h>

#include "run/tex.h"

/* Does a texture read as float? */
static int
reads_float(const SpecArg *a)
{
	return a->type == T_F32 || a->type == T_F16 || a->tex->read_norm;
}

/* Channel ch of texel (x, y, z), all in range, as a float (float reads)
 * or as integer bits. */
static float
texel_f(const SpecArg *a, const void *data, size_t idx)
{
	double v = elem_get(a->type, data, idx);

	if (!a->tex->read_norm)
		return (float)v;
	switch (a->type) {
	case T_U8: return (float)(v / 255.0);
	case T_U16: return (float)(v / 65535.0);
	case T_S8: return (float)fmax(v / 127.0, -1.0);
	case T_S16: return (float)fmax(v / 32767.0, -1.0);
	default: die("tex: normalized read of %s", elem_name(a->type));
	}
}

static size_t
texel_index(const SpecArg *a, const i32 *i, int ch)
{
	const SpecTex *t = a->tex;
	return (((size_t)i[2] * t->size[1] + (size_t)i[1]) * t->size[0] + (size_t)i[0]) * t->channels + ch;
}

static int
inside(const SpecTex *t, const i32 *i)
{
	int d;

	for (d = 0; d < 3; d++)
		if (i[d] < 0 || (u32)i[d] >= t->size[d])
			return 0;
	return 1;
}

/* Texel i (in range, or border) into out[4]. */
static void
texel(const SpecArg *a, const void *data, const i32 *i, int in, u32 out[4])
{
	int ch, flt = reads_float(a);

	for (ch = 0; ch < 4; ch++) {
		if (!in) {
			out[ch] = 0;
		} else if (ch >= a->tex->channels) {
			float one = 1.0f;
			if (ch < 3)
				out[ch] = 0;
			else if (flt)
				memcpy(&out[ch], &one, 4);
			else
				out[ch] = 1;
		} else if (flt) {
			float f = texel_f(a, data, texel_index(a, i, ch));
			memcpy(&out[ch], &f, 4);
		} else {
			out[ch] = (u32)(i64)elem_get(a->type, data, texel_index(a, i, ch));
		}
	}
}

void
tex_fetch(const SpecArg *a, const void *data, const i32 *c, u32 out[4])
{
	i32 i[3] = {0, 0, 0};
	int d;

	for (d = 0; d < a->tex->dims; d++)
		i[d] = c[d];
	texel(a, data, i, inside(a->tex, i), out);
}

/* Texel index i of a dimension of size n under address mode m; -1 for
 * a border texel. */
static i64
address(i64 i, u32 n, int m)
{
	if (i >= 0 && i < n)
		return i;
	switch (m) {
	case TEX_WRAP:
		i %= n;
		return i < 0 ? i + n : i;
	case TEX_MIRROR:
		i %= 2 * (i64)n;
		if (i < 0)
			i += 2 * (i64)n;
		return i < n ? i : 2 * (i64)n - 1 - i;
	case TEX_BORDER:
		return -1;
	default:
		return i < 0 ? 0 : n - 1;
	}
}

/* Coordinate of one dimension in texels: normalized coordinates are
 * first wrapped or mirrored into [0, 1] (CUDA's rule), then scaled. */
static double
texels(const SpecTex *t, int d, float c)
{
	double x = c;

	if (!t->normalized)
		return x;
	if (t->addr[d] == TEX_WRAP)
		x -= floor(x);
	else if (t->addr[d] == TEX_MIRROR) {
		double f = floor(x);
		x = fmod(f, 2.0) != 0 ? 1.0 - (x - f) : x - f;
	}
	return x * t->size[d];
}

void
tex_sample(const SpecArg *a, const void *data, const float *c, u32 out[4])
{
	const SpecTex *t = a->tex;
	i64 lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
	float w[3] = {0, 0, 0}, acc[4] = {0, 0, 0, 0};
	int d, k, ch, nd = t->dims;

	for (d = 0; d < nd; d++) {
		double x = texels(t, d, c[d]);
		if (isnan(x))
			x = 0;
		x = fmax(fmin(x, 1e9), -1e9);
		if (!t->filter_linear) {
			lo[d] = address((i64)floor(x), t->size[d], t->addr[d]);
			continue;
		}
		/* x_B = x - 0.5, i = floor(x_B), the weight frac(x_B) in 9-bit
		 * fixed point with 8 fractional bits (rounded to nearest) */
		x -= 0.5;
		double f = floor(x);
		w[d] = (float)(floor((x - f) * 256.0 + 0.5) / 256.0);
		lo[d] = address((i64)f, t->size[d], t->addr[d]);
		hi[d] = address((i64)f + 1, t->size[d], t->addr[d]);
	}
	if (!t->filter_linear) {
		i32 i[3] = {(i32)lo[0], (i32)lo[1], (i32)lo[2]};
		texel(a, data, i, lo[0] >= 0 && lo[1] >= 0 && lo[2] >= 0, out);
		return;
	}
	/* the 2^nd corners, weighted (1-w) for lo and w for hi per dimension */
	for (k = 0; k < (1 << nd); k++) {
		i32 i[3] = {0, 0, 0};
		float wt = 1.0f;
		u32 v[4];
		int in = 1;
		for (d = 0; d < nd; d++) {
			i64 x = (k >> d) & 1 ? hi[d] : lo[d];
			wt *= (k >> d) & 1 ? w[d] : 1.0f - w[d];
			in &= x >= 0;
			i[d] = (i32)x;
		}
		texel(a, data, i, in, v);
		for (ch = 0; ch < 4; ch++) {
			float f;
			memcpy(&f, &v[ch], 4);
			acc[ch] += wt * f;
		}
	}
	for (ch = 0; ch < 4; ch++)
		memcpy(&out[ch], &acc[ch], 4);
}

int
surf_access(const SpecArg *a, void *data, i64 x, i64 y, i64 z, u32 n, int mode, void *val, int store)
{
	const SpecTex *t = a->tex;
	i64 row = (i64)t->size[0] * t->channels * (i64)elem_size(a->type);
	i64 c[3] = {x, y, z}, lim[3] = {row - n + 1, t->size[1], t->size[2]};
	int d;

	if (x % n)
		return -1;
	for (d = 0; d < 3; d++) {
		if (c[d] >= 0 && c[d] < lim[d])
			continue;
		if (mode == SURF_TRAP || lim[d] <= 0)
			return -1;
		if (mode == SURF_ZERO) {
			if (!store)
				memset(val, 0, n);
			return 0;
		}
		c[d] = c[d] < 0 ? 0 : d ? lim[d] - 1 : (lim[d] - 1) / n * n;
	}
	u8 *p = (u8 *)data + (c[2] * t->size[1] + c[1]) * row + c[0];
	if (store)
		memcpy(p, val, n);
	else
		memcpy(val, p, n);
	return 0;
}
