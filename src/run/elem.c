/* elem.c -- element types of launch buffers: names, sizes, typed access,
 * and the binary16 / bfloat16 conversions (round to nearest even). */
#include <math.h>
#include <string.h>

#include "run/spec.h"

static const struct {
	const char *name;
	size_t size;
} types[NTYPE] = {
	[T_S8] = {"s8", 1}, [T_U8] = {"u8", 1}, [T_S16] = {"s16", 2}, [T_U16] = {"u16", 2},
	[T_S32] = {"s32", 4}, [T_U32] = {"u32", 4}, [T_S64] = {"s64", 8}, [T_U64] = {"u64", 8},
	[T_F16] = {"f16", 2}, [T_BF16] = {"bf16", 2}, [T_F32] = {"f32", 4}, [T_F64] = {"f64", 8},
};

size_t
elem_size(ElemType t)
{
	ASSERT(t < NTYPE);
	return types[t].size;
}

const char *
elem_name(ElemType t)
{
	ASSERT(t < NTYPE);
	return types[t].name;
}

int
elem_lookup(const char *name, ElemType *t)
{
	static const struct {
		const char *name;
		ElemType t;
	} alias[] = {{"b8", T_U8}, {"b16", T_U16}, {"b32", T_U32}, {"b64", T_U64}};
	size_t i;

	for (i = 0; i < NTYPE; i++)
		if (!strcmp(name, types[i].name)) {
			*t = (ElemType)i;
			return 1;
		}
	for (i = 0; i < NELEM(alias); i++)
		if (!strcmp(name, alias[i].name)) {
			*t = alias[i].t;
			return 1;
		}
	return 0;
}

/* x rounded to nearest even into a binary format with ebits exponent
 * bits and mbits fraction bits (no implicit-bit storage). */
static u16
minifloat(double x, int ebits, int mbits)
{
	u16 sign = signbit(x) ? (u16)(1u << (ebits + mbits)) : 0;
	int bias = (1 << (ebits - 1)) - 1, e;
	u16 expmask = (u16)(((1u << ebits) - 1) << mbits);
	double a = fabs(x), q;
	u64 m;

	if (isnan(x))
		return sign | expmask | (u16)(1u << (mbits - 1));
	if (isinf(x))
		return sign | expmask;
	if (a == 0)
		return sign;
	frexp(a, &e);
	e -= 1;                         /* a = 1.f * 2^e */
	if (e < 1 - bias)
		e = 1 - bias;           /* subnormal range: fixed quantum */
	q = rint(ldexp(a, mbits - e));  /* exact scaling, then ties-to-even */
	m = (u64)q;
	if (m >> (mbits + 1)) {         /* rounding carried into a new binade */
		m >>= 1;
		e++;
	}
	if (e > bias)
		return sign | expmask;  /* overflow: infinity */
	if (!(m >> mbits))
		return sign | (u16)m;   /* subnormal (or zero) */
	return sign | (u16)((u64)(e + bias) << mbits) | (u16)(m & ((1u << mbits) - 1));
}

static double
minifloat_to_double(u16 h, int ebits, int mbits)
{
	int bias = (1 << (ebits - 1)) - 1;
	int ex = (h >> mbits) & ((1 << ebits) - 1);
	u32 fr = h & ((1u << mbits) - 1);
	double v;

	if (ex == (1 << ebits) - 1)
		v = fr ? NAN : INFINITY;
	else if (ex == 0)
		v = ldexp((double)fr, 1 - bias - mbits);
	else
		v = ldexp((double)(fr | 1u << mbits), ex - bias - mbits);
	return h >> (ebits + mbits) ? -v : v;
}

u16 f16_from_double(double x) { return minifloat(x, 5, 10); }
u16 bf16_from_double(double x) { return minifloat(x, 8, 7); }
double f16_to_double(u16 h) { return minifloat_to_double(h, 5, 10); }
double bf16_to_double(u16 h) { return minifloat_to_double(h, 8, 7); }

double
elem_get(ElemType t, const void *base, size_t i)
{
	const char *p = (const char *)base + i * elem_size(t);
	switch (t) {
	case T_S8: { int8_t v; memcpy(&v, p, 1); return v; }
	case T_U8: { uint8_t v; memcpy(&v, p, 1); return v; }
	case T_S16: { int16_t v; memcpy(&v, p, 2); return v; }
	case T_U16: { u16 v; memcpy(&v, p, 2); return v; }
	case T_S32: { i32 v; memcpy(&v, p, 4); return v; }
	case T_U32: { u32 v; memcpy(&v, p, 4); return v; }
	case T_S64: { i64 v; memcpy(&v, p, 8); return (double)v; }
	case T_U64: { u64 v; memcpy(&v, p, 8); return (double)v; }
	case T_F16: { u16 v; memcpy(&v, p, 2); return f16_to_double(v); }
	case T_BF16: { u16 v; memcpy(&v, p, 2); return bf16_to_double(v); }
	case T_F32: { float v; memcpy(&v, p, 4); return v; }
	case T_F64: { double v; memcpy(&v, p, 8); return v; }
	default: die("elem_get: bad type %d", (int)t);
	}
}

/* v rounded to nearest, as two's complement bits modulo 2^64. */
static u64
int_bits(double v)
{
	double r = rint(v);

	if (isnan(r))
		return 0;
	if (r < 0) {
		if (r < -9223372036854775808.0)
			return (u64)1 << 63;
		return (u64)(i64)r;
	}
	if (r >= 18446744073709551616.0)
		return ~(u64)0;
	return (u64)r;
}

void
elem_set(ElemType t, void *base, size_t i, double v)
{
	char *p = (char *)base + i * elem_size(t);
	u64 b;
	u16 h;
	float f;

	switch (t) {
	case T_F16: h = f16_from_double(v); memcpy(p, &h, 2); return;
	case T_BF16: h = bf16_from_double(v); memcpy(p, &h, 2); return;
	case T_F32: f = (float)v; memcpy(p, &f, 4); return;
	case T_F64: memcpy(p, &v, 8); return;
	default:
		b = int_bits(v);
		switch (elem_size(t)) {
		case 1: { u8 x = (u8)b; memcpy(p, &x, 1); return; }
		case 2: { u16 x = (u16)b; memcpy(p, &x, 2); return; }
		case 4: { u32 x = (u32)b; memcpy(p, &x, 4); return; }
		default: memcpy(p, &b, 8); return;
		}
	}
}

u64
elem_bits(ElemType t, const void *base, size_t i)
{
	const char *p = (const char *)base + i * elem_size(t);

	switch (elem_size(t)) {
	case 1: { u8 x; memcpy(&x, p, 1); return x; }
	case 2: { u16 x; memcpy(&x, p, 2); return x; }
	case 4: { u32 x; memcpy(&x, p, 4); return x; }
	default: { u64 x; memcpy(&x, p, 8); return x; }
	}
}

u64
splitmix64(u64 *state)
{
	u64 z = (*state += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}
