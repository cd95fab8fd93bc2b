/* arith_int.c -- exact PTX integer arithmetic and cvt between all types.
 *
 * Values are the low `bits` bits of a u64; results are returned the same
 * way (masked).  Division by zero gives what ptxas's division sequences
 * (sm_80/sm_90, CUDA 13.0) give: a/0 and a%0 are all ones (-1 signed) in
 * every width; INT_MIN/-1 wraps to INT_MIN and INT_MIN%-1 is 0. */
#include <fenv.h>
#include <math.h>

#include "ptx/arith.h"

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

u64
zext(u64 v, int bits)
{
	return bits >= 64 ? v : v & ((1ull << bits) - 1);
}

u64
sext(u64 v, int bits)
{
	if (bits >= 64)
		return v;
	v = zext(v, bits);
	if (v >> (bits - 1))
		v |= ~0ull << bits;
	return v;
}

static u64
ext(u64 v, int bits, int is_signed)
{
	return is_signed ? sext(v, bits) : zext(v, bits);
}

u64
i_mulwide(u64 a, u64 b, int bits, int is_signed)
{
	i64 x = (i64)ext(a, bits, is_signed), y = (i64)ext(b, bits, is_signed);

	ASSERT(bits <= 32);
	if (is_signed)
		return zext((u64)(x * y), 2 * bits);
	return zext((u64)x * (u64)y, 2 * bits);
}

u64
i_mulhi(u64 a, u64 b, int bits, int is_signed)
{
	if (bits == 64) {
		if (is_signed)
			return (u64)(((i128)(i64)a * (i64)b) >> 64);
		return (u64)(((u128)a * b) >> 64);
	}
	return zext(i_mulwide(a, b, bits, is_signed) >> bits, bits);
}

u64
i_div(u64 a, u64 b, int bits, int is_signed)
{
	if (!is_signed) {
		a = zext(a, bits);
		b = zext(b, bits);
		return b ? a / b : zext(~0ull, bits);
	}
	{
		i64 x = (i64)sext(a, bits), y = (i64)sext(b, bits);
		if (y == 0)
			return zext(~0ull, bits);
		if (y == -1)
			return zext(-(u64)x, bits);
		return zext((u64)(x / y), bits);
	}
}

u64
i_rem(u64 a, u64 b, int bits, int is_signed)
{
	if (!is_signed) {
		a = zext(a, bits);
		b = zext(b, bits);
		return b ? a % b : zext(~0ull, bits);
	}
	{
		i64 x = (i64)sext(a, bits), y = (i64)sext(b, bits);
		if (y == 0)
			return zext(~0ull, bits);
		if (y == -1)
			return 0;
		return zext((u64)(x % y), bits);
	}
}

/* Shift amounts are unsigned 32-bit; amounts >= width clamp. */
u64
i_shl(u64 a, u32 n, int bits)
{
	return n >= (u32)bits ? 0 : zext(a << n, bits);
}

u64
i_shr(u64 a, u32 n, int bits, int is_signed)
{
	if (n >= (u32)bits)
		n = bits - 1 + !is_signed;
	if (n >= 64)
		return 0;
	if (is_signed)
		return zext((u64)((i64)sext(a, bits) >> n), bits);
	return zext(a, bits) >> n;
}

u64
i_min(u64 a, u64 b, int bits, int is_signed)
{
	if (is_signed)
		return (i64)sext(a, bits) < (i64)sext(b, bits) ? zext(a, bits) : zext(b, bits);
	return MIN(zext(a, bits), zext(b, bits));
}

u64
i_max(u64 a, u64 b, int bits, int is_signed)
{
	if (is_signed)
		return (i64)sext(a, bits) > (i64)sext(b, bits) ? zext(a, bits) : zext(b, bits);
	return MAX(zext(a, bits), zext(b, bits));
}

u64
i_abs(u64 a, int bits)
{
	i64 x = (i64)sext(a, bits);

	return zext(x < 0 ? -(u64)x : (u64)x, bits);
}

u64
i_sad(u64 a, u64 b, u64 c, int bits, int is_signed)
{
	u64 d;

	if (is_signed)
		d = (i64)sext(a, bits) < (i64)sext(b, bits) ? b - a : a - b;
	else
		d = zext(a, bits) < zext(b, bits) ? b - a : a - b;
	return zext(d + c, bits);
}

static u32
sat32(i64 v)
{
	return (u32)(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v);
}

u32 i_add_sat_s32(u32 a, u32 b) { return sat32((i64)(i32)a + (i32)b); }
u32 i_sub_sat_s32(u32 a, u32 b) { return sat32((i64)(i32)a - (i32)b); }

/* bfe: pos and len are the low 8 bits of their operands. */
u64
i_bfe(u64 a, u32 pos, u32 len, int bits, int is_signed)
{
	u32 msb = bits - 1, i;
	u64 d = 0, sbit = 0;

	pos &= 0xff;
	len &= 0xff;
	if (is_signed && len > 0)
		sbit = (a >> MIN(pos + len - 1, msb)) & 1;
	for (i = 0; i < (u32)bits; i++) {
		u64 bit = (i < len && pos + i <= msb) ? (a >> (pos + i)) & 1 : sbit;
		d |= bit << i;
	}
	return d;
}

u64
i_bfi(u64 f, u64 b, u32 pos, u32 len, int bits)
{
	u32 msb = bits - 1, i;

	pos &= 0xff;
	len &= 0xff;
	for (i = 0; i < len && pos + i <= msb; i++) {
		b &= ~(1ull << (pos + i));
		b |= ((f >> i) & 1) << (pos + i);
	}
	return zext(b, bits);
}

u32
i_bfind(u64 a, int bits, int is_signed, int shiftamt)
{
	int i;

	a = zext(a, bits);
	if (is_signed && (a >> (bits - 1)))
		a = zext(~a, bits);
	for (i = bits - 1; i >= 0; i--)
		if ((a >> i) & 1)
			return shiftamt ? (u32)(bits - 1 - i) : (u32)i;
	return 0xffffffffu;
}

u64
i_brev(u64 a, int bits)
{
	u64 d = 0;
	int i;

	for (i = 0; i < bits; i++)
		d |= ((a >> i) & 1) << (bits - 1 - i);
	return d;
}

u32
i_popc(u64 a, int bits)
{
	return (u32)__builtin_popcountll(zext(a, bits));
}

u32
i_clz(u64 a, int bits)
{
	a = zext(a, bits);
	return a ? (u32)(__builtin_clzll(a) - (64 - bits)) : (u32)bits;
}

/* prmt: bytes 0-3 come from a, 4-7 from b. */
u32
i_prmt(u32 a, u32 b, u32 c, int mode)
{
	static const char *tab[6][4] = {
		/* d.b3 d.b2 d.b1 d.b0 for c[1:0] = 0..3 */
		[PRMT_F4E - 1] = { "3210", "4321", "5432", "6543" },
		[PRMT_B4E - 1] = { "5670", "6701", "7012", "0123" },
		[PRMT_RC8 - 1] = { "0000", "1111", "2222", "3333" },
		[PRMT_ECL - 1] = { "3210", "3211", "3222", "3333" },
		[PRMT_ECR - 1] = { "0000", "1110", "2210", "3210" },
		[PRMT_RC16 - 1] = { "1010", "3232", "1010", "3232" },
	};
	u64 x = (u64)b << 32 | a;
	u32 d = 0;
	int i;

	for (i = 0; i < 4; i++) {
		u32 sel, byte;
		if (mode == PRMT_DEFAULT) {
			sel = (c >> (4 * i)) & 0xf;
			byte = (x >> (8 * (sel & 7))) & 0xff;
			if (sel & 8)
				byte = (byte & 0x80) ? 0xff : 0;
		} else {
			sel = tab[mode - 1][c & 3][3 - i] - '0';
			byte = (x >> (8 * sel)) & 0xff;
		}
		d |= byte << (8 * i);
	}
	return d;
}

/* fns: the offset-th set bit of mask counting from base (inclusive),
 * upward for offset > 0, downward for offset < 0; 0xffffffff if none. */
u32
i_fns(u32 mask, u32 base, i32 offset)
{
	i32 i;
	u32 n;

	base &= 31;
	if (offset == 0)
		return (mask >> base) & 1 ? base : 0xffffffffu;
	n = offset > 0 ? (u32)offset : 0u - (u32)offset;   /* |INT_MIN| = 2^31 */
	for (i = (i32)base; i >= 0 && i < 32; i += offset > 0 ? 1 : -1)
		if ((mask >> i) & 1 && --n == 0)
			return (u32)i;
	return 0xffffffffu;
}

u32
i_lop3(u32 a, u32 b, u32 c, u32 lut)
{
	u32 d = 0;
	int i;

	for (i = 0; i < 8; i++)
		if ((lut >> i) & 1)
			d |= ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? c : ~c);
	return d;
}

u32
i_dp4a(u32 a, u32 b, u32 c, int as, int bs)
{
	u32 d = c;
	int i;

	for (i = 0; i < 4; i++) {
		i64 x = (i64)ext(a >> (8 * i), 8, as);
		i64 y = (i64)ext(b >> (8 * i), 8, bs);
		d += (u32)(x * y);
	}
	return d;
}

u32
i_dp2a(u32 a, u32 b, u32 c, int as, int bs, int hi)
{
	u32 d = c;
	int i;

	for (i = 0; i < 2; i++) {
		i64 x = (i64)ext(a >> (16 * i), 16, as);
		i64 y = (i64)ext(b >> (8 * (i + 2 * hi)), 8, bs);
		d += (u32)(x * y);
	}
	return d;
}

u32
i_shf(u32 lo, u32 hi, u32 n, int left, int clamp)
{
	u64 x = (u64)hi << 32 | lo;

	n = clamp ? MIN(n, 32u) : n & 31;
	return left ? (u32)((x << n) >> 32) : (u32)(x >> n);
}

u32
i_bmsk(u32 pos, u32 len, int clamp)
{
	if (clamp) {
		pos = MIN(pos, 32u);
		len = MIN(len, 32u);
	} else {
		pos &= 31;
		len &= 31;
	}
	return (u32)((((1ull << len) - 1) << pos) & 0xffffffffu);
}

u64
cache_policy_fractional(int primary, int secondary_first, u32 fraction)
{
	u32 n = (u32)cvt_f2i(f32_mul(fraction, POLICY_FRACTION_SCALE, RND_RN, 0, 0), FF_F32, 32, 0, RND_RZ);

	return (u64)((0x100u | (u32)primary << 5 | (u32)!!secondary_first << 4 | (n & 0xf)) << 20) << 32;
}

u32
i_szext(u32 a, u32 pos, int clamp, int is_signed)
{
	pos = clamp ? MIN(pos, 32u) : pos & 31;
	if (pos == 0)
		return 0;
	return (u32)ext(a, pos, is_signed);
}

/* ---- cvt ---- */

static double
round_int(double x, int rnd)
{
	switch (rnd) {
	case RND_RZ: return trunc(x);
	case RND_RM: return floor(x);
	case RND_RP: return ceil(x);
	case RND_RNA: return round(x);
	default: return nearbyint(x);   /* host mode is nearest-even */
	}
}

static int
is_f32ish(int ff)
{
	return ff == FF_F32;
}

u64
cvt_f2f(u64 a, int from, int to, int rnd, int irnd, int ftz, int sat, int relu)
{
	double x;
	u64 r;

	if (ftz && is_f32ish(from))
		a = f32_flush((u32)a);
	x = widen(a, from);
	if (irnd && !isnan(x))
		x = round_int(x, rnd);
	if (relu && !isnan(x) && x < 0)
		x = 0;
	if (sat && !isnan(x))
		x = x < 0 ? 0 : x > 1 ? 1 : x;
	if (sat && isnan(x))
		x = 0;
	if (sat && x == 0)
		x = 0.0;        /* -0.0 -> +0.0 */
	if (to == FF_F64) {
		r = bits_f64(x);
		return f64_isnan(r) ? F64_NAN : r;
	}
	return round_to(x, to, rnd, ftz && to == FF_F32);
}

u64
cvt_f2i(u64 a, int from, int bits, int is_signed, int rnd)
{
	double x = widen(a, from), lo, hi;

	if (isnan(x))
		return 0;
	x = round_int(x, rnd);
	lo = is_signed ? -ldexp(1, bits - 1) : 0;
	hi = is_signed ? ldexp(1, bits - 1) : ldexp(1, bits);
	if (x <= lo)
		return zext(is_signed ? 1ull << (bits - 1) : 0, bits);
	if (x >= hi)
		return zext(is_signed ? (1ull << (bits - 1)) - 1 : ~0ull, bits);
	return zext(is_signed ? (u64)(i64)x : (u64)x, bits);
}

/* int -> double rounded to odd (exact below 2^53). */
static double
int_odd(u64 v, int neg)
{
	int s;
	u64 kept;
	double x;

	if (v < (1ull << 53))
		x = (double)v;
	else {
		s = 64 - __builtin_clzll(v) - 53;
		kept = v >> s;
		if (v & ((1ull << s) - 1))
			kept |= 1;
		x = ldexp((double)kept, s);
	}
	return neg ? -x : x;
}

u64
cvt_i2f(u64 a, int bits, int is_signed, int to, int rnd, int sat)
{
	u64 v = ext(a, bits, is_signed);
	int neg = is_signed && (i64)v < 0;
	double x;

	if (sat) {
		if (neg || v == 0)
			return 0;
		return to == FF_F64 ? 0x3ff0000000000000ull : round_to(1.0, to, RND_RN, 0);
	}
	if (to == FF_F64 || to == FF_F32) {
		volatile i64 si = (i64)v;
		volatile u64 ui = v;
		volatile double d = 0;
		volatile float f = 0;
		fesetround(rnd == RND_RZ ? FE_TOWARDZERO : rnd == RND_RM ? FE_DOWNWARD :
			   rnd == RND_RP ? FE_UPWARD : FE_TONEAREST);
		if (to == FF_F64)
			d = is_signed ? (double)si : (double)ui;
		else
			f = is_signed ? (float)si : (float)ui;
		fesetround(FE_TONEAREST);
		return to == FF_F64 ? bits_f64(d) : bits_f32(f);
	}
	x = int_odd(neg ? -v : v, neg);
	return round_to(x, to, rnd, 0);
}

u64
cvt_i2i(u64 a, int fb, int fs, int tb, int ts, int sat)
{
	u64 v = ext(a, fb, fs);

	if (sat) {
		if (fs && (i64)v < 0) {
			if (!ts)
				return 0;
			if (tb < 64 && (i64)v < -(i64)(1ull << (tb - 1)))
				return zext(1ull << (tb - 1), tb);
		} else {
			u64 max = ts ? (1ull << (tb - 1)) - 1 : zext(~0ull, tb);
			if (v > max)
				return max;
		}
	}
	return zext(v, tb);
}

/* One f32 to a narrower float.  .satfinite (always on the fp8 forms):
 * NaN stays NaN, out-of-range and infinite inputs give +-MAX_NORM --
 * clamping first is the same as after rounding, which rounds nothing past
 * MAX_NORM back below it. */
u32
cvt_f32_to(u32 a, int to, int rnd, int relu, int sat, int satfinite)
{
	double x = f32_of(a);
	double max = to == FF_E4M3 ? 448 : to == FF_E5M2 ? 57344 : to == FF_F16 ? 65504 :
		     to == FF_TF32 ? 0x1.ffcp127 : 0x1.fep127;

	if ((satfinite || to == FF_E4M3 || to == FF_E5M2) && !isnan(x) && fabs(x) > max)
		a = bits_f32((float)copysign(max, x));
	return (u32)cvt_f2f(a, FF_F32, to, rnd, 0, 0, sat, relu);
}

/* cvt.rn.f16x2.f32 d, a, b: a goes to the upper half. */
u32
cvt_pack_f32(u32 a, u32 b, int to, int rnd, int relu, int sat, int satfinite)
{
	int w = (to == FF_E4M3 || to == FF_E5M2) ? 8 : 16;

	return cvt_f32_to(a, to, rnd, relu, sat, satfinite) << w | cvt_f32_to(b, to, rnd, relu, sat, satfinite);
}
