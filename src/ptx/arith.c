/* arith.c -- exact PTX floating-point arithmetic (f32, f64, f16, bf16).
 *
 * f32 and f64 operations run on the host's IEEE unit with the rounding
 * mode set by fesetround(); operands pass through volatile variables so
 * the compiler can neither fold nor move them across the mode switch.
 * -std=c11 makes GCC compile with -ffp-contract=off (no fused a*b+c).
 * f16/bf16 operations are computed in double rounded to odd (rounding
 * toward zero, then setting the last bit when inexact), then rounded once
 * to the narrow format by round_to(): with 53 >= p+2 bits this is exactly
 * the correctly rounded result (Boldo & Melquiond). */
#include <fenv.h>
#include <math.h>
#include <string.h>

#include "ptx/arith.h"

float
f32_of(u32 b)
{
	float f;

	memcpy(&f, &b, 4);
	return f;
}

u32
bits_f32(float f)
{
	u32 b;

	memcpy(&b, &f, 4);
	return b;
}

double
f64_of(u64 b)
{
	double d;

	memcpy(&d, &b, 8);
	return d;
}

u64
bits_f64(double d)
{
	u64 b;

	memcpy(&b, &d, 8);
	return b;
}

int f32_isnan(u32 a) { return (a & 0x7fffffff) > 0x7f800000; }
int f64_isnan(u64 a) { return (a & ~(1ull << 63)) > 0x7ff0000000000000ull; }
int f32_issub(u32 a) { return (a & 0x7f800000) == 0 && (a & 0x7fffff); }
u32 f32_flush(u32 a) { return f32_issub(a) ? a & 0x80000000u : a; }

static int
host_mode(int rnd)
{
	switch (rnd) {
	case RND_RZ: return FE_TOWARDZERO;
	case RND_RM: return FE_DOWNWARD;
	case RND_RP: return FE_UPWARD;
	default: return FE_TONEAREST;
	}
}

/* ---- narrow formats ---- */

typedef struct {
	int eb, mb;     /* exponent and mantissa bits */
	u32 maxbits;    /* largest finite magnitude, as bits */
	u32 nan, inf;   /* canonical NaN; infinity (0: none) */
	int shift;      /* bits are stored shifted left (tf32) */
} Fmt;

static const Fmt fmts[] = {
	[FF_F16] = { 5, 10, 0x7bff, 0x7fff, 0x7c00, 0 },
	[FF_BF16] = { 8, 7, 0x7f7f, 0x7fff, 0x7f80, 0 },
	[FF_TF32] = { 8, 10, 0x3fbff, 0x7ffff, 0x3fc00, 13 },
	[FF_F32] = { 8, 23, 0x7f7fffff, 0x7fffffff, 0x7f800000, 0 },
	[FF_E4M3] = { 4, 3, 0x7e, 0x7f, 0, 0 },
	[FF_E5M2] = { 5, 2, 0x7b, 0x7f, 0x7c, 0 },
};

static int
round_up(int rnd, int sign, u64 kept, u64 rem, u64 half)
{
	switch (rnd) {
	case RND_RN: return rem > half || (rem == half && (kept & 1));
	case RND_RNA: return rem >= half && rem;
	case RND_RZ: return 0;
	case RND_RM: return sign && rem;
	case RND_RP: return !sign && rem;
	}
	die("round_up: bad mode %d", rnd);
}

/* Round x into format ff.  ftz flushes a subnormal result. */
u64
round_to(double x, int ff, int rnd, int ftz)
{
	const Fmt *f;
	u64 b, m, kept, rem, half, raw, sbit;
	int sign, e, bias, emin, shift, totbits;

	if (ff == FF_F64)
		return bits_f64(x);
	ASSERT(ff >= 0 && ff < (int)NELEM(fmts) && fmts[ff].eb);
	f = &fmts[ff];
	totbits = 1 + f->eb + f->mb;
	sbit = 1ull << (totbits - 1);
	b = bits_f64(x);
	sign = b >> 63;
	if (isnan(x))
		return (u64)f->nan << f->shift;
	if (isinf(x)) {
		raw = f->inf ? f->inf : f->nan;
		return (sign ? sbit | raw : raw) << f->shift;
	}
	if (x == 0)
		return (sign ? sbit : 0) << f->shift;
	bias = (1 << (f->eb - 1)) - 1;
	emin = 1 - bias;
	e = (int)((b >> 52) & 0x7ff);
	m = b & ((1ull << 52) - 1);
	if (e == 0) {           /* double subnormal: normalise */
		e = -1022;
		while (!(m & (1ull << 52))) {
			m <<= 1;
			e--;
		}
	} else {
		m |= 1ull << 52;
		e -= 1023;
	}
	/* x = m * 2^(e-52), m in [2^52, 2^53) */
	shift = 52 - f->mb + (e < emin ? emin - e : 0);
	if (shift > 60) {       /* far below the smallest subnormal */
		kept = 0;
		rem = 1;
		half = 2;
	} else {
		kept = m >> shift;
		rem = m & ((1ull << shift) - 1);
		half = 1ull << (shift - 1);
	}
	if (round_up(rnd, sign, kept, rem, half))
		kept++;
	if (e < emin)
		raw = kept;     /* subnormal; a carry makes it the min normal */
	else
		raw = ((u64)(e + bias) << f->mb) + (kept - (1ull << f->mb));
	if (raw > f->maxbits) {
		int tomax = rnd == RND_RZ || (rnd == RND_RM && !sign) ||
			    (rnd == RND_RP && sign) || !f->inf;
		raw = tomax ? f->maxbits : f->inf;
	}
	if (ftz && raw < (1ull << f->mb))
		raw = 0;
	return (sign ? sbit | raw : raw) << f->shift;
}

double
widen(u64 bits, int ff)
{
	const Fmt *f;
	int e, bias, sign, totbits;
	u64 m;
	double v;

	switch (ff) {
	case FF_F64: return f64_of(bits);
	case FF_F32: case FF_TF32: return f32_of((u32)bits);
	case FF_BF16: return f32_of((u32)(bits & 0xffff) << 16);
	}
	ASSERT(ff >= 0 && ff < (int)NELEM(fmts) && fmts[ff].eb);
	f = &fmts[ff];
	totbits = 1 + f->eb + f->mb;
	bits &= (1ull << totbits) - 1;
	sign = bits >> (totbits - 1);
	bits &= ~(1ull << (totbits - 1));
	if (f->inf && bits == f->inf)
		return sign ? -INFINITY : INFINITY;
	if (f->inf ? bits > f->inf : bits > f->maxbits)
		return NAN;
	bias = (1 << (f->eb - 1)) - 1;
	e = (int)(bits >> f->mb);
	m = bits & ((1ull << f->mb) - 1);
	if (e == 0)
		v = ldexp((double)m, 1 - bias - f->mb);
	else
		v = ldexp((double)(m | (1ull << f->mb)), e - bias - f->mb);
	return sign ? -v : v;
}

/* ---- double rounded to odd ---- */

enum { O_ADD, O_MUL, O_DIV, O_SQRT, O_FMA };

/* fma(a, b, c) as IEEE 754 asks.  With c = +-0 and a*b finite and nonzero
 * the exact result is a*b, so the rounded product, with its sign when it
 * rounds to zero: musl's fma returns a*b + c there, and a product that
 * rounds to -0 plus +0 gives +0 (glibc gives -0). */
double
fma_ieee(double a, double b, double c)
{
	if (c == 0 && a != 0 && b != 0 && isfinite(a) && isfinite(b))
		return a * b;
	return fma(a, b, c);
}

static double
host_op(int op, double a, double b, double c, int mode)
{
	volatile double va = a, vb = b, vc = c, r = 0;

	fesetround(mode);
	switch (op) {
	case O_ADD: r = va + vb; break;
	case O_MUL: r = va * vb; break;
	case O_DIV: r = va / vb; break;
	case O_SQRT: r = sqrt(va); break;
	case O_FMA: r = fma_ieee(va, vb, vc); break;
	}
	fesetround(FE_TONEAREST);
	return r;
}

/* op in double, rounded to odd; exact zeros get the sign that final
 * rounding mode rnd gives them. */
static double
odd_op(int op, double a, double b, double c, int rnd)
{
	double r;
	int inexact;

	feclearexcept(FE_INEXACT);
	r = host_op(op, a, b, c, FE_TOWARDZERO);
	inexact = fetestexcept(FE_INEXACT);
	if (r == 0)
		return host_op(op, a, b, c, host_mode(rnd));
	if (inexact && isfinite(r))
		r = f64_of(bits_f64(r) | 1);
	return r;
}

/* ---- f32 ---- */

u32
f32_sat(u32 a)
{
	if (f32_isnan(a) || (a & 0x80000000u))
		return 0;
	if (a > 0x3f800000u)
		return 0x3f800000u;
	return a;
}

static u32
f32_finish(float r, int ftz, int sat)
{
	u32 b = bits_f32(r);

	if (f32_isnan(b))
		b = F32_NAN;
	if (ftz)
		b = f32_flush(b);
	if (sat)
		b = f32_sat(b);
	return b;
}

static u32
f32_op(int op, u32 a, u32 b, u32 c, int rnd, int ftz, int sat)
{
	volatile float va, vb, vc, r = 0;

	if (ftz) {
		a = f32_flush(a);
		b = f32_flush(b);
		c = f32_flush(c);
	}
	va = f32_of(a);
	vb = f32_of(b);
	vc = f32_of(c);
	if (rnd != RND_RN)
		fesetround(host_mode(rnd));
	switch (op) {
	case O_ADD: r = va + vb; break;
	case O_MUL: r = va * vb; break;
	case O_DIV: r = va / vb; break;
	case O_SQRT: r = sqrtf(va); break;
	case O_FMA: r = fmaf(va, vb, vc); break;
	}
	if (rnd != RND_RN)
		fesetround(FE_TONEAREST);
	return f32_finish(r, ftz, sat);
}

u32 f32_add(u32 a, u32 b, int rnd, int ftz, int sat) { return f32_op(O_ADD, a, b, 0, rnd, ftz, sat); }
u32 f32_sub(u32 a, u32 b, int rnd, int ftz, int sat) { return f32_op(O_ADD, a, b ^ 0x80000000u, 0, rnd, ftz, sat); }
u32 f32_mul(u32 a, u32 b, int rnd, int ftz, int sat) { return f32_op(O_MUL, a, b, 0, rnd, ftz, sat); }
u32 f32_fma(u32 a, u32 b, u32 c, int rnd, int ftz, int sat) { return f32_op(O_FMA, a, b, c, rnd, ftz, sat); }

/* a * b * 2^k rounded once (SASS FMUL.D2..D8 / .M2..M8, k = -3..3): the
 * product is exact in double, the scaling too, then one rounding to f32. */
u32
f32_mul_scaled(u32 a, u32 b, int k, int rnd, int ftz, int sat)
{
	volatile double p;
	volatile float r;

	if (ftz) {
		a = f32_flush(a);
		b = f32_flush(b);
	}
	p = ldexp((double)f32_of(a) * (double)f32_of(b), k);
	if (rnd != RND_RN)
		fesetround(host_mode(rnd));
	r = (float)p;
	if (rnd != RND_RN)
		fesetround(FE_TONEAREST);
	return f32_finish(r, ftz, sat);
}
u32 f32_div(u32 a, u32 b, int rnd, int ftz) { return f32_op(O_DIV, a, b, 0, rnd, ftz, 0); }
u32 f32_sqrt(u32 a, int rnd, int ftz) { return f32_op(O_SQRT, a, 0, 0, rnd, ftz, 0); }
u32 f32_rcp(u32 a, int rnd, int ftz) { return f32_op(O_DIV, 0x3f800000u, a, 0, rnd, ftz, 0); }

u32
f32_abs(u32 a, int ftz)
{
	if (ftz)
		a = f32_flush(a);
	return a & 0x7fffffffu;
}

u32
f32_neg(u32 a, int ftz)
{
	if (ftz)
		a = f32_flush(a);
	return a ^ 0x80000000u;
}

/* min/max: a NaN operand is ignored (both NaN -> canonical NaN); with
 * .NaN any NaN gives canonical NaN.  -0.0 < +0.0. */
static int
f32_less(u32 a, u32 b)
{
	if ((a | b) << 1 == 0)
		return (a >> 31) > (b >> 31);
	return f32_of(a) < f32_of(b);
}

static u32
f32_minmax(u32 a, u32 b, int ftz, int nan, int max)
{
	int an, bn;

	if (ftz) {
		a = f32_flush(a);
		b = f32_flush(b);
	}
	an = f32_isnan(a);
	bn = f32_isnan(b);
	if ((an && bn) || (nan && (an || bn)))
		return F32_NAN;
	if (an)
		return b;
	if (bn)
		return a;
	if (max)
		return f32_less(a, b) ? b : a;
	return f32_less(b, a) ? b : a;
}

u32 f32_min(u32 a, u32 b, int ftz, int nan) { return f32_minmax(a, b, ftz, nan, 0); }
u32 f32_max(u32 a, u32 b, int ftz, int nan) { return f32_minmax(a, b, ftz, nan, 1); }

/* Exact function of the approximate instructions, in double. */
static double
approx_fn(int op, double x)
{
	switch (op) {
	case AP_RCP: return 1.0 / x;
	case AP_RSQRT: return x == 0 ? copysign(INFINITY, x) : x < 0 ? NAN : 1.0 / sqrt(x);
	case AP_SQRT: return x < 0 ? NAN : sqrt(x);
	case AP_EX2: return exp2(x);
	case AP_LG2: return x == 0 ? -INFINITY : x < 0 ? NAN : log2(x);
	case AP_SIN: return isinf(x) ? NAN : sin(x);
	case AP_COS: return isinf(x) ? NAN : cos(x);
	case AP_TANH: return tanh(x);
	}
	die("approx_fn: bad op %d", op);
}

/* MUFU's model: the exact function rounded to nearest f32, input and
 * result flushed to zero; SIN and COS take their argument in turns. */
u32
f32_mufu(int op, u32 a)
{
	double x = f32_of(f32_flush(a));

	if (op == AP_SIN || op == AP_COS) {
		x *= 6.283185307179586476925;
		return (u32)round_to(op == AP_SIN ? sin(x) : cos(x), FF_F32, RND_RN, 1);
	}
	return f32_finish((float)approx_fn(op, x), 1, 0);
}

#define F32_TWO24 0x4b800000u   /* 2^24 */

static int
f32_tiny(u32 a)                 /* |a| < FLT_MIN (not NaN) */
{
	return (a & 0x7fffffffu) < 0x00800000u;
}

static u32
fmul(u32 a, u32 b)
{
	return f32_mul(a, b, RND_RN, 0, 0);
}

/* .approx.f32: what the compiled code computes (src/codegen/isel_math.c,
 * ptxas's sequences): one MUFU with .ftz; without, the MUFU with a tiny
 * (or, for rcp, huge) operand scaled around it; sin and cos: MUFU of the
 * argument times 1/(2 pi) rounded toward zero. */
u32
f32_approx(int op, u32 a, int ftz)
{
	u32 s, r;

	if (op == AP_SIN || op == AP_COS)
		return f32_mufu(op, f32_mul(a, 0x3e22f983u, RND_RZ, 0, 0));
	if (ftz || op == AP_TANH)
		return f32_mufu(op, a);
	switch (op) {
	case AP_RCP:
		s = f32_tiny(a) ? F32_TWO24 : 0x3f800000u;
		if (f32_cmp(CMP_GT, a & 0x7fffffffu, 0x7e800000u, 0))   /* |a| > 2^126 */
			s = 0x3e800000u;
		return fmul(s, f32_mufu(op, fmul(a, s)));
	case AP_SQRT:
		if (!f32_tiny(a))
			return f32_mufu(op, a);
		return fmul(f32_mufu(op, fmul(a, F32_TWO24)), 0x39800000u);        /* 2^-12 */
	case AP_RSQRT:
		if (!f32_tiny(a))
			return f32_mufu(op, a);
		return fmul(f32_mufu(op, fmul(a, F32_TWO24)), 0x45800000u);        /* 2^12 */
	case AP_LG2:
		if (!f32_tiny(a))
			return f32_mufu(op, a);
		return f32_add(f32_mufu(op, fmul(a, F32_TWO24)), 0xc1c00000u, RND_RN, 0, 0); /* -24 */
	case AP_EX2:
		if (!f32_cmp(CMP_LT, a, 0xc2fc0000u, 0))                           /* a < -126 */
			return f32_mufu(op, a);
		r = f32_mufu(op, fmul(a, 0x3f000000u));
		return fmul(r, r);
	}
	die("f32_approx: bad op %d", op);
}

/* div.approx / div.full: a * (1/b) with MUFU's reciprocal, as compiled:
 * .ftz flushes (FMUL.FTZ); otherwise a tiny |b| scales both operands by
 * 2^24.  div.full (.ftz or not) scales a huge |b| (> 2^126, whose
 * reciprocal would be subnormal) and a by 1/4 (ptxas 13: FSETP.GT(.FTZ)
 * |b|, 2^126; @P FMUL(.FTZ) both by 0.25). */
u32
f32_div_approx(u32 a, u32 b, int ftz, int full)
{
	u32 s = 0;

	if (ftz) {
		if (full && f32_cmp(CMP_GT, b & 0x7fffffffu, 0x7e800000u, 1)) {
			a = f32_mul(a, 0x3e800000u, RND_RN, 1, 0);
			b = f32_mul(b, 0x3e800000u, RND_RN, 1, 0);
		}
		return f32_mul(a, f32_mufu(AP_RCP, b), RND_RN, 1, 0);
	}
	if (f32_tiny(b))
		s = F32_TWO24;
	else if (full && f32_cmp(CMP_GT, b & 0x7fffffffu, 0x7e800000u, 0))
		s = 0x3e800000u;
	if (s) {
		a = fmul(a, s);
		b = fmul(b, s);
	}
	return fmul(f32_mufu(AP_RCP, b), a);
}

static int
cmp_core(int cmp, int unord, int lt, int eq)
{
	switch (cmp) {
	case CMP_EQ: return !unord && eq;
	case CMP_NE: return !unord && !eq;
	case CMP_LT: return !unord && lt;
	case CMP_LE: return !unord && (lt || eq);
	case CMP_GT: return !unord && !lt && !eq;
	case CMP_GE: return !unord && !lt;
	case CMP_EQU: return unord || eq;
	case CMP_NEU: return unord || !eq;
	case CMP_LTU: return unord || lt;
	case CMP_LEU: return unord || lt || eq;
	case CMP_GTU: return unord || (!lt && !eq);
	case CMP_GEU: return unord || !lt;
	case CMP_NUM: return !unord;
	case CMP_NAN: return unord;
	}
	die("float compare: bad op %d", cmp);
}

int
fx_cmp(int cmp, double a, double b)
{
	int unord = isnan(a) || isnan(b);

	return cmp_core(cmp, unord, !unord && a < b, !unord && a == b);
}

int
f32_cmp(int cmp, u32 a, u32 b, int ftz)
{
	if (ftz) {
		a = f32_flush(a);
		b = f32_flush(b);
	}
	return fx_cmp(cmp, f32_of(a), f32_of(b));
}

int f64_cmp(int cmp, u64 a, u64 b) { return fx_cmp(cmp, f64_of(a), f64_of(b)); }

int
i_cmp(int cmp, u64 a, u64 b, int is_signed, int bits)
{
	int lt;

	if (is_signed)
		lt = (i64)sext(a, bits) < (i64)sext(b, bits);
	else
		lt = zext(a, bits) < zext(b, bits);
	a = zext(a, bits);
	b = zext(b, bits);
	switch (cmp) {
	case CMP_EQ: return a == b;
	case CMP_NE: return a != b;
	case CMP_LT: case CMP_LO: return lt;
	case CMP_LE: case CMP_LS: return lt || a == b;
	case CMP_GT: case CMP_HI: return !lt && a != b;
	case CMP_GE: case CMP_HS: return !lt;
	}
	die("integer compare: bad op %d", cmp);
}

/* ---- f64 ---- */

static u64
f64_op(int op, u64 a, u64 b, u64 c, int rnd)
{
	u64 r = bits_f64(host_op(op, f64_of(a), f64_of(b), f64_of(c), host_mode(rnd)));

	return f64_isnan(r) ? F64_NAN : r;
}

u64 f64_add(u64 a, u64 b, int rnd) { return f64_op(O_ADD, a, b, 0, rnd); }
u64 f64_sub(u64 a, u64 b, int rnd) { return f64_op(O_ADD, a, b ^ (1ull << 63), 0, rnd); }
u64 f64_mul(u64 a, u64 b, int rnd) { return f64_op(O_MUL, a, b, 0, rnd); }
u64 f64_fma(u64 a, u64 b, u64 c, int rnd) { return f64_op(O_FMA, a, b, c, rnd); }
u64 f64_div(u64 a, u64 b, int rnd) { return f64_op(O_DIV, a, b, 0, rnd); }
u64 f64_sqrt(u64 a, int rnd) { return f64_op(O_SQRT, a, 0, 0, rnd); }
u64 f64_rcp(u64 a, int rnd) { return f64_op(O_DIV, 0x3ff0000000000000ull, a, 0, rnd); }

static u64
f64_minmax(u64 a, u64 b, int nan, int max)
{
	int an = f64_isnan(a), bn = f64_isnan(b);
	int lt;

	if ((an && bn) || (nan && (an || bn)))
		return F64_NAN;
	if (an)
		return b;
	if (bn)
		return a;
	if ((a | b) << 1 == 0)
		lt = (a >> 63) > (b >> 63);
	else
		lt = f64_of(a) < f64_of(b);
	return (max ? lt : !lt) ? b : a;
}

u64 f64_min(u64 a, u64 b, int nan) { return f64_minmax(a, b, nan, 0); }
u64 f64_max(u64 a, u64 b, int nan) { return f64_minmax(a, b, nan, 1); }

/* MUFU.RCP64H / MUFU.RSQ64H's model: op (AP_RCP, AP_RSQRT) of the high
 * word hi with a zero low word, the high word of the double result.
 * Subnormal inputs and results are flushed to a zero of the same sign:
 * PTX has only the .ftz forms of rcp.approx.f64 (and documents the
 * flush), and ptxas lowers rcp/rsqrt.approx.ftz.f64 to this single
 * instruction, so the hardware instruction flushes. */
u32
f64_mufu_hi(int op, u32 hi)
{
	u64 r;

	if ((hi & 0x7ff00000u) == 0)
		hi &= 0x80000000u;
	r = bits_f64(approx_fn(op, f64_of((u64)hi << 32)));
	if (f64_isnan(r))
		r = F64_NAN;
	else if ((r & 0x7ff0000000000000ull) == 0)
		r &= 1ull << 63;
	return (u32)(r >> 32);
}

/* rcp.approx.ftz.f64 / rsqrt.approx.ftz.f64: what the compiled code (ours
 * and ptxas's) computes, one MUFU.RCP64H / RSQ64H of the high word and a
 * zero low word; rsqrt.approx.f64 / sqrt.approx.f64: the exact function
 * rounded to nearest.  .ftz flushes subnormal input and result. */
u64
f64_approx(int op, u64 a, int ftz)
{
	u64 r;

	if (ftz && (a & 0x7ff0000000000000ull) == 0)
		a &= 1ull << 63;
	if (ftz && (op == AP_RCP || op == AP_RSQRT))
		r = (u64)f64_mufu_hi(op, (u32)(a >> 32)) << 32;
	else if (f64_isnan(r = bits_f64(approx_fn(op, f64_of(a)))))
		return F64_NAN;
	if (ftz && (r & 0x7ff0000000000000ull) == 0)
		r &= 1ull << 63;
	return r;
}

/* ---- f16 / bf16 ---- */

static u16
h_flush(int ff, u16 a)
{
	int mb = fmts[ff].mb;

	if ((a & 0x7fff) < (1u << mb))
		return a & 0x8000;
	return a;
}

static u16
h_sat(int ff, u16 a)
{
	u16 one = ff == FF_F16 ? 0x3c00 : 0x3f80;

	if ((a & 0x7fff) > fmts[ff].inf || (a & 0x8000))
		return 0;
	return a > one ? one : a;
}

static u16
h_op(int ff, int op, u16 a, u16 b, u16 c, int rnd, int ftz, int sat, int relu)
{
	double r;
	u16 res;

	if (ftz) {
		a = h_flush(ff, a);
		b = h_flush(ff, b);
		c = h_flush(ff, c);
	}
	r = odd_op(op, widen(a, ff), widen(b, ff), widen(c, ff), rnd);
	res = (u16)round_to(r, ff, rnd, ftz);
	if (sat)
		res = h_sat(ff, res);
	if (relu && (res & 0x8000) && (res & 0x7fff) <= fmts[ff].inf)
		res = 0;
	return res;
}

u16 h_add(int ff, u16 a, u16 b, int rnd, int ftz, int sat) { return h_op(ff, O_ADD, a, b, 0, rnd, ftz, sat, 0); }
u16 h_sub(int ff, u16 a, u16 b, int rnd, int ftz, int sat) { return h_op(ff, O_ADD, a, b ^ 0x8000, 0, rnd, ftz, sat, 0); }
u16 h_mul(int ff, u16 a, u16 b, int rnd, int ftz, int sat) { return h_op(ff, O_MUL, a, b, 0, rnd, ftz, sat, 0); }
u16 h_fma(int ff, u16 a, u16 b, u16 c, int rnd, int ftz, int sat, int relu) { return h_op(ff, O_FMA, a, b, c, rnd, ftz, sat, relu); }

static u16
h_minmax(int ff, u16 a, u16 b, int ftz, int nan, int max)
{
	double x, y;
	int an, bn, lt;

	if (ftz) {
		a = h_flush(ff, a);
		b = h_flush(ff, b);
	}
	x = widen(a, ff);
	y = widen(b, ff);
	an = isnan(x);
	bn = isnan(y);
	if ((an && bn) || (nan && (an || bn)))
		return F16_NAN;
	if (an)
		return b;
	if (bn)
		return a;
	if (x == 0 && y == 0)
		lt = (a >> 15) > (b >> 15);
	else
		lt = x < y;
	if (max)
		return lt ? b : a;
	return lt ? a : b;
}

u16 h_min(int ff, u16 a, u16 b, int ftz, int nan) { return h_minmax(ff, a, b, ftz, nan, 0); }
u16 h_max(int ff, u16 a, u16 b, int ftz, int nan) { return h_minmax(ff, a, b, ftz, nan, 1); }

u16
h_neg(int ff, u16 a, int ftz)
{
	if (ftz)
		a = h_flush(ff, a);
	return a ^ 0x8000;
}

u16
h_abs(int ff, u16 a, int ftz)
{
	if (ftz)
		a = h_flush(ff, a);
	return a & 0x7fff;
}

u16
h_approx(int op, u16 a, int ff, int ftz)
{
	if (ftz)
		a = h_flush(ff, a);
	return (u16)round_to(approx_fn(op, widen(a, ff)), ff, RND_RN, ftz);
}
