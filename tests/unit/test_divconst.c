/* test_divconst.c -- division by a constant (src/codegen/divconst.c):
 * every step is SASS our tables parse on sm_80 and sm_90; the 32-bit
 * plans are exact over all 2^32 x for chosen divisors and, for many more
 * divisors, by the magic-number inequality and a boundary sweep; the
 * 64-bit plans against C on random and boundary x.  OA_LONG=1 widens every
 * sweep (z3 proofs for 64 bits: tools/prove-divconst, tests/cli/divconst.sh). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "codegen/divconst.h"
#include "isa/isa.h"
#include "test.h"

static int
long_run(void)
{
	return getenv("OA_LONG") != NULL;
}

static u64 rng = 0x9e3779b97f4a7c15ull;

static u64
rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* C's answer, with the documented choices for d = 0 (quotient and
 * remainder all ones) and the overflow INT_MIN / -1 (INT_MIN, rem 0). */
static u64
ref(u64 x, u64 d, int bits, int sgn, int rem)
{
	if (bits == 32) {
		u32 a = (u32)x, b = (u32)d;
		if (!b)
			return 0xffffffffu;
		if (!sgn)
			return rem ? a % b : a / b;
		if ((i32)b == -1)
			return rem ? 0 : -a;
		return (u32)(rem ? (i32)a % (i32)b : (i32)a / (i32)b);
	}
	if (!d)
		return ~(u64)0;
	if (!sgn)
		return rem ? x % d : x / d;
	if ((i64)d == -1)
		return rem ? 0 : -x;
	return (u64)(rem ? (i64)x % (i64)d : (i64)x / (i64)d);
}

static int
check_plan(TestState *t_, u64 d, int bits, int sgn, int rem, const u64 *xs, int n)
{
	DivPlan p;
	u64 out[256];
	int i, k;

	if (divconst_plan(&p, d, bits, sgn, rem) < 0) {
		FAIL("no plan for d=0x%llx", (unsigned long long)d);
		return 0;
	}
	for (i = 0; i < n; i += 256) {
		k = MIN(n - i, 256);
		divconst_eval_n(&p, xs + i, out, k);
		for (int j = 0; j < k; j++) {
			u64 want = ref(xs[i + j], d, bits, sgn, rem);
			if (out[j] != want) {
				FAIL("%s%d %s 0x%llx, x=0x%llx: 0x%llx, want 0x%llx", sgn ? "s" : "u", bits,
				     rem ? "%" : "/", (unsigned long long)d, (unsigned long long)xs[i + j],
				     (unsigned long long)out[j], (unsigned long long)want);
				return 0;
			}
		}
	}
	return 1;
}

/* The placeholders of divconst_sass replaced by registers: {x} R2, {x.lo}
 * R2, {x.hi} R3, {tK} R(10+K) (pairs stay even-aligned), {pK} PK. */
static void
concrete(const char *s, char *out, size_t n)
{
	size_t o = 0;

	while (*s && o + 8 < n) {
		if (*s != '{') {
			out[o++] = *s++;
			continue;
		}
		if (!strncmp(s, "{x}", 3) || !strncmp(s, "{x.lo}", 6))
			o += (size_t)snprintf(out + o, n - o, "R2");
		else if (!strncmp(s, "{x.hi}", 6))
			o += (size_t)snprintf(out + o, n - o, "R3");
		else if (s[1] == 't')
			o += (size_t)snprintf(out + o, n - o, "R%d", 10 + atoi(s + 2));
		else if (s[1] == 'p')
			o += (size_t)snprintf(out + o, n - o, "P%d", atoi(s + 2));
		s = strchr(s, '}') + 1;
	}
	out[o] = 0;
}

static const i64 divisors32[] = {
	0, 1, -1, 2, 3, 5, 6, 7, 9, 10, 11, 12, 13, 14, 19, 25, 28, 31, 60, 100, 125, 127, 641, 1000,
	4096, 6700417, 65535, 65537, 0x7fffffff, 0x40000000, -2, -3, -7, -8, -10, -641, -1000,
	0x80000000ll, 0x80000001ll, 0xfffffffell, 0xffffffffll, -0x7fffffffll, 1000000007, 0x55555555,
};

TEST(divconst_steps_are_sass)
{
	const Arch *arch[2] = { arch_lookup("sm_80"), arch_lookup("sm_90") };
	int bits, sgn, rem, i, a, steps = 0;
	size_t j;

	for (bits = 32; bits <= 64; bits += 32)
		for (sgn = 0; sgn < 2; sgn++)
			for (rem = 0; rem < 2; rem++)
				for (j = 0; j < NELEM(divisors32) + 4; j++) {
					u64 d = j < NELEM(divisors32) ? (u64)divisors32[j] :
						(u64[]){ 1ull << 63, (1ull << 63) + 1, 1000000000000ull, (1ull << 40) }[j - NELEM(divisors32)];
					DivPlan p;
					divconst_plan(&p, d, bits, sgn, rem);
					for (i = 0; i < p.nsteps; i++) {
						Buf b = { 0 }, o = { 0 };
						char text[200], err[200];
						Word w;
						size_t ep;
						divconst_sass(&p, i, &b);
						concrete(b.s, text, sizeof text);
						for (a = 0; a < 2; a++) {
							if (isa_parse(arch[a], text, 0, NULL, &w, err, sizeof err, &ep)) {
								FAIL("%s: '%s': %s", arch_name(arch[a]), text, err);
								continue;
							}
							buf_free(&o);
							isa_print(arch[a], w, 0, NULL, &o);
							if (strcmp(o.s, text))
								FAIL("%s: '%s' prints back as '%s'", arch_name(arch[a]), text, o.s);
						}
						steps++;
						buf_free(&b);
						buf_free(&o);
					}
				}
	CHECK(steps > 1000);
}

/* instruction counts: the quotient of every 32-bit divisor in 4 steps or
 * fewer (3 unless the magic needs 33 bits), the remainder one more */
TEST(divconst_counts)
{
	DivPlan p;
	Buf b = { 0 };
	u64 d;

	CHECK(divconst_plan(&p, 7, 16, 0, 0) == -1);
	CHECK(divconst_plan(&p, 7, 32, 0, 0) == 4 && p.method == DM_MULADD);
	CHECK(divconst_plan(&p, 10, 32, 0, 0) == 2 && p.method == DM_MUL);
	CHECK(divconst_plan(&p, 10, 32, 0, 1) == 3);
	CHECK(divconst_plan(&p, 641, 32, 0, 0) == 1);
	CHECK(divconst_plan(&p, 14, 32, 0, 0) == 3 && p.preshift == 1);
	CHECK(divconst_plan(&p, 3, 32, 1, 0) == 2);
	CHECK(divconst_plan(&p, 10, 32, 1, 0) == 3);
	CHECK(divconst_plan(&p, (u64)-7, 32, 1, 0) == 4);
	CHECK(divconst_plan(&p, 8, 32, 0, 0) == 1);
	CHECK(divconst_plan(&p, 8, 32, 0, 1) == 1);
	CHECK(divconst_plan(&p, 8, 32, 1, 0) == 3);
	CHECK(divconst_plan(&p, 0x80000001u, 32, 0, 0) == 2);
	CHECK(divconst_plan(&p, 0x80000000u, 32, 1, 0) == 2);
	CHECK(divconst_plan(&p, 1, 32, 0, 0) == 0 && p.result == 0);
	CHECK(divconst_plan(&p, 1000, 64, 0, 0) == 11);
	CHECK(divconst_plan(&p, 7, 64, 0, 0) == 12);
	divconst_plan(&p, 7, 32, 0, 0);
	divconst_print(&p, &b);
	CHECK_STR(b.s, "IMAD.HI.U32 {t1}, {x}, 0x24924925, RZ\n"
		       "IADD3 {t2}, {x}, -{t1}, RZ\n"
		       "LEA.HI {t3}, {t2}, {t1}, RZ, 0x1f\n"
		       "SHF.R.U32.HI {t3}, RZ, 0x2, {t3}\n"
		       "-> {t3}\n");
	buf_free(&b);
	for (d = 0; d < 100000; d++) {
		int n = divconst_plan(&p, d, 32, 0, 0), sn = divconst_plan(&p, d, 32, 1, 0);
		int r = divconst_plan(&p, d, 32, 0, 1), sr = divconst_plan(&p, d, 32, 1, 1);
		if (n > 4 || sn > 4 || r > n + 1 + (d == 0) || sr > 5) {
			FAIL("d=%llu: %d %d %d %d steps", (unsigned long long)d, n, sn, r, sr);
			break;
		}
	}
}

/* the magic-number inequality, exactly in 128-bit integers, for every
 * divisor below 2^18 (2^26 with OA_LONG), the top of the range, near
 * powers of two and random ones -- unsigned and signed, both signs */
TEST(divconst_prove32_many)
{
	u64 n = long_run() ? (1u << 26) : (1u << 18), i, proven = 0;
	int sgn, k;

	for (sgn = 0; sgn < 2; sgn++)
		for (i = 0; i < 3 * n + 64 * 64; i++) {
			u64 d;
			DivPlan p;
			int r;
			if (i < n)
				d = i;
			else if (i < 2 * n)
				d = 0xffffffffu - (i - n);
			else if (i < 3 * n)
				d = (u32)rnd() >> (rnd() % 32);
			else {
				k = (int)((i - 3 * n) / 64);
				d = (u32)((1ull << (k % 32)) + (i % 64) - 32);
			}
			if (sgn && (rnd() & 1))
				d = -d;
			divconst_plan(&p, d, 32, sgn, 0);
			r = divconst_prove32(&p);
			if (r == 0) {
				FAIL("%s32 d=0x%llx: inequality fails (method %d)", sgn ? "s" : "u",
				     (unsigned long long)(u32)d, p.method);
				return;
			}
			proven += r == 1;
		}
	CHECK(proven > n);
}

/* x near multiples of d, near 0, 2^31 and 2^32, for many divisors */
TEST(divconst_boundary32)
{
	static u64 xs[4096];
	int nd = long_run() ? 200000 : 4000, i, j, n, sgn, rem;

	for (i = 0; i < nd; i++) {
		u64 d = i < (int)NELEM(divisors32) ? (u64)divisors32[i] : (u32)rnd() >> (rnd() % 32);
		u32 ad = (u32)d;
		n = 0;
		for (j = -3; j <= 3; j++) {
			xs[n++] = (u32)j;
			xs[n++] = (u32)(0x80000000u + j);
			xs[n++] = (u32)(0xffffffffu + j + 1);
		}
		if (ad > 1)
			for (j = 0; j < 40; j++) {
				u64 k = rnd() % (0xffffffffull / ad + 1), m = k * ad;
				xs[n++] = (u32)m;
				xs[n++] = (u32)(m - 1);
				xs[n++] = (u32)(m + 1);
				xs[n++] = (u32)-m;
				xs[n++] = (u32)(-m - 1);
				xs[n++] = (u32)(-m + 1);
				m = (0xffffffffull / ad) * ad;
				xs[n++] = (u32)(m - j);
				xs[n++] = (u32)(m + j);
			}
		for (j = 0; j < 64; j++)
			xs[n++] = (u32)rnd();
		for (sgn = 0; sgn < 2; sgn++)
			for (rem = 0; rem < 2; rem++)
				if (!check_plan(t_, d, 32, sgn, rem, xs, n))
					return;
	}
}

/* all 2^32 x.  A quotient plan: r = x - q*d (exact, 64-bit) must satisfy
 * 0 <= r < d (signed: |r| < |d|, r zero or of x's sign).  A remainder plan
 * for odd d: r as above and x - r a multiple of d, tested with d's inverse
 * mod 2^32 (n*inv <= (2^32-1)/d exactly when d divides n); since the plan
 * computes r = x - q*d mod 2^32 and d is odd, this proves its quotient
 * steps too.  No division in the loop. */
static inline int
valid(u32 x, u32 out, int sgn, int rem, i64 di, i64 ad, u32 inv, u32 lim)
{
	i64 xi = sgn ? (i64)(i32)x : (i64)x, v = sgn ? (i64)(i32)out : (i64)out, r, n;
	int ok = 1;

	if (rem) {
		r = v;
		n = xi - r;
		n = n < 0 ? -n : n;
		ok = (n >> 32 == 0) & ((u32)n * inv <= lim);
	} else
		r = xi - v * di;
	ok &= (r < ad) & (r > -ad) & ((r == 0) | ((r < 0) == (xi < 0)));
	/* the documented wrap: INT_MIN / -1 = INT_MIN, INT_MIN % -1 = 0 */
	return sgn && di == -1 && xi == INT32_MIN ? v == (rem ? 0 : INT32_MIN) : ok;
}

/* Under ASan/UBSan the 2^32 sweep takes ~15 min: there (without OA_LONG)
 * every 256th block of x is checked, plus the first and last blocks. */
#if defined(__SANITIZE_ADDRESS__)
enum { SANITIZED = 1 };
#else
enum { SANITIZED = 0 };
#endif

static int
exhaustive(TestState *t_, u64 d, int sgn, int rem)
{
	enum { N = 4096 };
	u64 stride = SANITIZED && !long_run() ? 256ull * N : N;
	static u32 out[N];
	DivPlan p;
	u64 base;
	u32 inv, lim;
	i64 di = sgn ? (i64)(i32)(u32)d : (i64)(u32)d, ad = di < 0 ? -di : di;
	int i, k;

	ASSERT(!rem || (d & 1));
	inv = (u32)ad;
	for (k = 0; k < 5; k++)
		inv *= 2 - (u32)ad * inv;  /* Newton: inverse of odd d mod 2^32 */
	lim = (u32)(0xffffffffu / (u32)ad);
	divconst_plan(&p, d, 32, sgn, rem);
	for (base = 0; base < (1ull << 32); base = base + stride < (1ull << 32) - N ? base + stride :
	     base + N) {
		int bad = 0;
		divconst_eval32_n(&p, (u32)base, out, N);
		/* branch-free checks over the block; a failing block is scanned
		 * again to report the first bad x */
		for (i = 0; i < N; i++)
			bad |= !valid((u32)base + (u32)i, out[i], sgn, rem, di, ad, inv, lim);
		if (!bad)
			continue;
		for (i = 0; i < N; i++)
			if (!valid((u32)base + (u32)i, out[i], sgn, rem, di, ad, inv, lim)) {
				FAIL("%s32 %s %lld, x=0x%x: 0x%x", sgn ? "s" : "u", rem ? "%" : "/", (long long)di,
				     (u32)base + (u32)i, out[i]);
				return 0;
			}
	}
	return 1;
}

TEST(divconst_exhaustive32)
{
	/* make check: u32 % 7 (33-bit magic), s32 % -7 (signed magic with a
	 * subtract); OA_LONG adds every method and more divisors */
	static const i64 quick[][3] = { { 7, 0, 1 }, { -7, 1, 1 } };
	static const i64 more[][3] = {
		{ 7, 0, 0 }, { 10, 0, 0 }, { 641, 0, 1 }, { 14, 0, 0 }, { 7, 1, 0 }, { -7, 1, 0 }, { 3, 1, 1 },
		{ 3, 0, 1 }, { 0x80000001ll, 0, 1 }, { 8, 0, 0 }, { 1, 0, 1 }, { 0xffffffffll, 0, 1 },
		{ 19, 0, 1 }, { 1000000007, 0, 1 }, { 0x7fffffff, 0, 1 }, { 6, 0, 0 }, { 10, 1, 0 },
		{ -10, 1, 0 }, { 641, 1, 1 }, { 8, 1, 0 }, { -8, 1, 0 }, { 2, 1, 0 }, { -2, 1, 0 },
		{ -1, 1, 1 }, { -1, 1, 0 }, { 1, 1, 1 }, { INT32_MIN, 1, 0 }, { 0x7fffffff, 1, 1 },
		{ -0x7fffffff, 1, 1 }, { 1000000007, 1, 1 }, { 125, 1, 1 }, { 25, 0, 1 }, { 0x80000000ll, 0, 0 },
		{ 1000, 0, 0 }, { -1000, 1, 0 }, { 60, 1, 0 },
	};
	size_t i, n = long_run() ? NELEM(more) : 0;
	clock_t t0 = clock();

	for (i = 0; i < NELEM(quick); i++)
		if (!exhaustive(t_, (u64)quick[i][0], (int)quick[i][1], (int)quick[i][2]))
			return;
	for (i = 0; i < n; i++)
		if (!exhaustive(t_, (u64)more[i][0], (int)more[i][1], (int)more[i][2]))
			return;
	if (getenv("OA_VERBOSE"))
		fprintf(stderr, "divconst_exhaustive32: %zu plans x 2^32 in %.1f s\n", NELEM(quick) + n,
			(double)(clock() - t0) / CLOCKS_PER_SEC);
}

/* 64 bits against C: boundary and random x for special and random d */
TEST(divconst_random64)
{
	static const u64 special[] = {
		0, 1, 2, 3, 7, 10, 641, 1000, 1000000007, 6700417, 0xffffffffull, 0x100000000ull,
		0x100000001ull, 1ull << 62, 1ull << 63, (1ull << 63) + 1, ~0ull, ~0ull - 1,
		(u64)-1, (u64)-7, (u64)-10, (u64)-1000, 0x8000000000000001ull, 0x7fffffffffffffffull,
		1000000000000000000ull, 274177, 67280421310721ull, (u64)-(1ll << 40), 1ull << 40, 3ull << 33,
		(u64)-2, (u64)-8, (u64)-(1ll << 32), (u64)-(1ll << 62), 1ull << 31, 1ull << 33, 8, 1ull << 32,
		(u64)-3, (u64)-(1ll << 31), 0xfffffffeull, 0x1ffffffffull, (u64)INT64_MIN + 1,
	};
	static u64 xs[2048];
	int nd = long_run() ? 100000 : 3000, i, j, n, sgn, rem;

	for (i = 0; i < nd; i++) {
		u64 d = i < (int)NELEM(special) ? special[i] : rnd() >> (rnd() % 64);
		if (i >= (int)NELEM(special) && (rnd() & 3) == 0)
			d = -d;
		n = 0;
		for (j = -3; j <= 3; j++) {
			xs[n++] = (u64)j;
			xs[n++] = (1ull << 63) + (u64)j;
			xs[n++] = (1ull << 32) + (u64)j;
		}
		for (j = 0; j < 40 && d > 1; j++) {
			u64 m = (rnd() % (~0ull / d + 1)) * d;
			xs[n++] = m;
			xs[n++] = m - 1;
			xs[n++] = m + 1;
			xs[n++] = -m;
			xs[n++] = -m - 1;
			xs[n++] = (~0ull / d) * d + (u64)j;
		}
		for (j = 0; j < 64; j++)
			xs[n++] = rnd() >> (rnd() % 64);
		for (sgn = 0; sgn < 2; sgn++)
			for (rem = 0; rem < 2; rem++)
				if (!check_plan(t_, d, 64, sgn, rem, xs, n))
					return;
	}
}
