/* test_arith_div.c -- the interpreter's correctly rounded div, rcp and sqrt
 * (f32 with and without .ftz, f64; .rn .rz .rm .rp), the reference the
 * compiled sequences are verified against (tests/compile/math/fdir, ddir,
 * frand, drand, sqrtdir), checked here against exact integer arithmetic:
 * the quotient / square root of the integer significands to p + 2 bits and
 * a sticky bit, rounded by hand (subnormals, overflow to max-finite or inf
 * by the direction).  It shares nothing with the host FPU path
 * (src/ptx/arith.c: fesetround + the host's division), so the two cannot
 * be wrong together.  Inputs: specials x specials, random bit patterns
 * over every exponent range, and operands built near rounding boundaries
 * (a = RN(q*b) +- 0..2 ulp, a = RN(s*s) +- 1 ulp).  OA_LONG=1: 50x more. */
#include <stdlib.h>

#include "test.h"
#include "ptx/arith.h"

typedef unsigned __int128 u128;
typedef unsigned long long ull;

typedef struct {
	int p, emin, emax, ebits;       /* precision, exponent range, exponent bits */
} Fm;
static const Fm FM32 = {24, -126, 127, 8}, FM64 = {53, -1022, 1023, 11};

static u64 fm_sign(const Fm *f) { return 1ull << (f->ebits + f->p - 1); }
static u64 fm_inf(const Fm *f) { return ((1ull << f->ebits) - 1) << (f->p - 1); }
static u64 fm_mmask(const Fm *f) { return (1ull << (f->p - 1)) - 1; }

static int
is_nan(const Fm *f, u64 a)
{
	return (a & ~fm_sign(f)) > fm_inf(f);
}

static int
is_inf(const Fm *f, u64 a)
{
	return (a & ~fm_sign(f)) == fm_inf(f);
}

static int
is_zero(const Fm *f, u64 a)
{
	return (a & ~fm_sign(f)) == 0;
}

/* finite nonzero a = M * 2^E with M normalised to exactly p bits */
static void
split(const Fm *f, u64 a, u64 *M, int *E)
{
	int be = (int)((a & ~fm_sign(f)) >> (f->p - 1));
	u64 m = a & fm_mmask(f);
	int bias = (1 << (f->ebits - 1)) - 1;

	if (be == 0) {
		*E = f->emin - (f->p - 1);
		while (!(m >> (f->p - 1))) {
			m <<= 1;
			(*E)--;
		}
	} else {
		m |= 1ull << (f->p - 1);
		*E = be - bias - (f->p - 1);
	}
	*M = m;
}

/* (-1)^sign (m + frac) 2^e, m of exactly p + 2 bits, frac != 0 iff sticky,
 * rounded to the format in mode rnd. */
static u64
round_exact(const Fm *f, int sign, u64 m, int e, int sticky, int rnd)
{
	int s = 2, E, bias = (1 << (f->ebits - 1)) - 1;
	u64 kept, guard, lower, up, bits;

	if (e + s < f->emin - (f->p - 1))
		s = f->emin - (f->p - 1) - e;
	if (s > 62) {
		kept = 0;
		guard = 0;
		lower = 1;
	} else {
		kept = m >> s;
		guard = (m >> (s - 1)) & 1;
		lower = (m & ((1ull << (s - 1)) - 1)) != 0 || sticky;
	}
	switch (rnd) {
	case RND_RN: up = guard && (lower || (kept & 1)); break;
	case RND_RZ: up = 0; break;
	case RND_RM: up = sign && (guard || lower); break;
	case RND_RP: up = !sign && (guard || lower); break;
	default: die("round_exact: mode %d", rnd);
	}
	kept += up;
	E = e + (s > 62 ? 0 : s);
	if (kept == 1ull << f->p) {
		kept >>= 1;
		E++;
	}
	if (kept >> (f->p - 1)) {
		if (E + f->p - 1 > f->emax) {
			int tomax = rnd == RND_RZ || (rnd == RND_RM && !sign) || (rnd == RND_RP && sign);
			bits = tomax ? fm_inf(f) - 1 : fm_inf(f);
		} else {
			bits = ((u64)(E + f->p - 1 + bias) << (f->p - 1)) | (kept & fm_mmask(f));
		}
	} else {
		bits = kept;            /* subnormal (or zero) */
	}
	return sign ? bits | fm_sign(f) : bits;
}

static u64
ref_div(const Fm *f, u64 a, u64 b, int rnd)
{
	int sign = ((a ^ b) & fm_sign(f)) != 0, Ea, Eb, k;
	u64 Ma, Mb, S = sign ? fm_sign(f) : 0;
	u128 N, Q;

	if (is_nan(f, a) || is_nan(f, b) || (is_zero(f, a) && is_zero(f, b)) || (is_inf(f, a) && is_inf(f, b)))
		return fm_inf(f) | 1;   /* a NaN */
	if (is_inf(f, a) || is_zero(f, b))
		return S | fm_inf(f);
	if (is_zero(f, a) || is_inf(f, b))
		return S;
	split(f, a, &Ma, &Ea);
	split(f, b, &Mb, &Eb);
	k = f->p + 2;
	N = (u128)Ma << k;
	Q = N / Mb;
	if (Q >> (f->p + 2)) {
		k--;
		N = (u128)Ma << k;
		Q = N / Mb;
	}
	ASSERT(Q >> (f->p + 1) == 1);
	return round_exact(f, sign, (u64)Q, Ea - Eb - k, N % Mb != 0, rnd);
}

static u128
isqrt128(u128 n)
{
	u128 r = 0, bit = (u128)1 << 126;

	while (bit > n)
		bit >>= 2;
	while (bit) {
		if (n >= r + bit) {
			n -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return r;
}

static u64
ref_sqrt(const Fm *f, u64 a, int rnd)
{
	int E, t;
	u64 M;
	u128 N, r;

	if (is_nan(f, a) || ((a & fm_sign(f)) && !is_zero(f, a)))
		return fm_inf(f) | 1;
	if (is_zero(f, a) || is_inf(f, a))
		return a;
	split(f, a, &M, &E);
	t = (E - (f->p + 3)) % 2 == 0 ? f->p + 3 : f->p + 4;
	N = (u128)M << t;
	r = isqrt128(N);
	ASSERT(r >> (f->p + 1) == 1);
	return round_exact(f, 0, (u64)r, (E - t) / 2, r * r != N, rnd);
}

static u64
flush32(u64 a)
{
	return (a & 0x7f800000u) ? a : a & 0x80000000u;
}

static u64
mix(u64 *s)
{
	u64 z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* a random pattern: exponents tiny (subnormal too), near 1, huge, any */
static u64
rnd_bits(const Fm *f, u64 *s)
{
	u64 z = mix(s), y = mix(s), emax = (1ull << f->ebits) - 1, e;

	switch (y % 5) {
	case 0: e = y >> 8 & 31; break;
	case 1: e = emax / 2 - 16 + (y >> 8 & 31); break;
	case 2: e = emax - 32 + (y >> 8 & 31); break;
	default: e = (y >> 8) % (emax + 1); break;
	}
	if ((y >> 20) % 8 == 0)
		z &= ~0ull << (f->p / 2);       /* short mantissas: exact quotients */
	return (z & (fm_sign(f) | fm_mmask(f))) | e << (f->p - 1);
}

static const u32 S32[] = {0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 1, 0x80000001, 0x7fffff,
			  0x800000, 0x800001, 0x7f7fffff, 0xff7fffff, 0x3f800000, 0xbf800000, 0x3f7fffff,
			  0x40400000, 0x00400000, 0x7e800000, 0x12800000, 0x5f800000};
static const u64 S64[] = {0, 1ull << 63, 0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull,
			  1, 0x8000000000000001ull, 0x000fffffffffffffull, 0x0010000000000000ull,
			  0x7fefffffffffffffull, 0xffefffffffffffffull, 0x3ff0000000000000ull, 0xbff0000000000000ull,
			  0x3fefffffffffffffull, 0x4008000000000000ull, 0x0008000000000000ull, 0x7fd0000000000000ull,
			  0x03f0000000000000ull, 0x6570000000000000ull};

/* one pair (a, b) of bit patterns: specials first, then random, then near
 * a boundary (a = RN(q*b) + d, d in -2..2: a/b within ulps of q) */
static void
pick(const Fm *f, u64 i, u64 *s, u64 *a, u64 *b)
{
	int w = f->p == 24;
	u64 ns = w ? NELEM(S32) : NELEM(S64);

	if (i < ns * ns) {
		*a = w ? S32[i / ns] : S64[i / ns];
		*b = w ? S32[i % ns] : S64[i % ns];
		return;
	}
	*a = rnd_bits(f, s);
	*b = rnd_bits(f, s);
	if (i % 2) {
		u64 q = rnd_bits(f, s), d = mix(s) % 5;
		if (w) {
			float p = f32_of((u32)q) * f32_of((u32)*b);     /* exact in double, then RN */
			*a = bits_f32(p);
		} else {
			*a = bits_f64(f64_of(q) * f64_of(*b));
		}
		*a = *a + d - 2;
	}
}

static int
same(const Fm *f, u64 got, u64 want)
{
	return got == want || (is_nan(f, got) && is_nan(f, want));
}

TEST(arith_div_exact_f32)
{
	u64 s = 777, i, n = getenv("OA_LONG") ? 10000000 : 200000;
	int r, bad = 0;

	for (i = 0; i < n && bad < 8; i++) {
		u64 a, b, got, want;
		pick(&FM32, i, &s, &a, &b);
		a &= 0xffffffffu;
		b &= 0xffffffffu;
		for (r = RND_RN; r <= RND_RP; r++) {
			got = f32_div((u32)a, (u32)b, r, 0);
			want = ref_div(&FM32, a, b, r);
			if (!same(&FM32, got, want))
				bad++, FAIL("div %08llx %08llx mode %d: %08llx != %08llx", (ull)a, (ull)b, r, (ull)got, (ull)want);
			got = f32_div((u32)a, (u32)b, r, 1);
			want = flush32(ref_div(&FM32, flush32(a), flush32(b), r));
			if (!same(&FM32, got, want))
				bad++, FAIL("div.ftz %08llx %08llx mode %d: %08llx != %08llx", (ull)a, (ull)b, r, (ull)got, (ull)want);
			got = f32_rcp((u32)b, r, i & 1);
			want = ref_div(&FM32, 0x3f800000u, i & 1 ? flush32(b) : b, r);
			if (!same(&FM32, got, i & 1 ? flush32(want) : want))
				bad++, FAIL("rcp %08llx mode %d: %08llx != %08llx", (ull)b, r, (ull)got, (ull)want);
			got = f32_sqrt((u32)a, r, 0);
			want = ref_sqrt(&FM32, a, r);
			if (!same(&FM32, got, want))
				bad++, FAIL("sqrt %08llx mode %d: %08llx != %08llx", (ull)a, r, (ull)got, (ull)want);
		}
	}
	CHECK(bad == 0);
}

TEST(arith_div_exact_f64)
{
	u64 s = 778, i, n = getenv("OA_LONG") ? 10000000 : 200000;
	int r, bad = 0;

	for (i = 0; i < n && bad < 8; i++) {
		u64 a, b, got, want;
		pick(&FM64, i, &s, &a, &b);
		if (i % 4 == 3 && i >= NELEM(S64) * NELEM(S64)) {     /* a near a square */
			double q = f64_of(rnd_bits(&FM64, &s) & ~(1ull << 63));
			a = bits_f64(q * q) + mix(&s) % 3 - 1;
		}
		for (r = RND_RN; r <= RND_RP; r++) {
			got = f64_div(a, b, r);
			want = ref_div(&FM64, a, b, r);
			if (!same(&FM64, got, want))
				bad++, FAIL("div %016llx %016llx mode %d: %016llx != %016llx", (ull)a, (ull)b, r, (ull)got, (ull)want);
			got = f64_rcp(b, r);
			want = ref_div(&FM64, 0x3ff0000000000000ull, b, r);
			if (!same(&FM64, got, want))
				bad++, FAIL("rcp %016llx mode %d: %016llx != %016llx", (ull)b, r, (ull)got, (ull)want);
			got = f64_sqrt(a, r);
			want = ref_sqrt(&FM64, a, r);
			if (!same(&FM64, got, want))
				bad++, FAIL("sqrt %016llx mode %d: %016llx != %016llx", (ull)a, r, (ull)got, (ull)want);
		}
	}
	CHECK(bad == 0);
}
