/* test_float_fmt.c -- isa_fmt_float's own digit generator (src/isa/float.c)
 * against glibc's printf ("%.20g", "%.20e" of |x| >= 1e9) on every half,
 * a stride through every float, random doubles and decimal ties. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "isa/isa_impl.h"
#include "test.h"

static int
same_as_printf(TestState *t_, u64 raw, int bits, double x)
{
	Buf b = { 0 };
	char want[1100];
	int ok;

	if (!isfinite(x) || x == 0)
		return 1;
	snprintf(want, sizeof want, fabs(x) >= 1e9 ? "%.20e" : "%.20g", x);
	isa_fmt_float(&b, raw, bits);
	ok = !strcmp(b.s, want);
	if (!ok)
		test_fail(t_, __FILE__, __LINE__, "%d-bit 0x%llx: \"%s\", printf \"%s\"", bits,
			  (unsigned long long)raw, b.s, want);
	buf_free(&b);
	return ok;
}

static double
f32(u32 r)
{
	float f;

	memcpy(&f, &r, 4);
	return f;
}

typedef int Check(TestState *t_, u64 raw, int bits, double x);

/* check on every half and on floats stride apart: how many failed (it
 * stops after 10). */
static int
halves_and_floats(TestState *t_, Check *check, u64 stride)
{
	u64 r;
	u32 h;
	int bad = 0;

	for (h = 0; h < 0x10000 && bad < 10; h++) {
		int e = h >> 10 & 31;
		double m = h & 1023, v = e ? e == 31 ? NAN : ldexp(m + 1024, e - 25) : ldexp(m, -24);
		bad += !check(t_, h, 16, h & 0x8000 ? -v : v);
	}
	for (r = 0; r < 0xff800000u && bad < 10; r += stride)
		bad += !check(t_, r, 32, f32((u32)r));
	return bad;
}

TEST(isa_float_format_printf)
{
	u64 s = 88172645463325252ull, r;
	int i, bad = halves_and_floats(t_, same_as_printf, 9973);

	for (i = 0; i < 20000 && bad < 10; i++) {
		double d;

		s ^= s << 13, s ^= s >> 7, s ^= s << 17;
		memcpy(&d, &s, 8);
		bad += !same_as_printf(t_, s, 64, d);
		d = (double)(s % 100000000000ull) / 1e6;  /* short decimals: ties, 9..9 */
		memcpy(&r, &d, 8);
		bad += !same_as_printf(t_, r, 64, d);
		d = ldexp((double)(s >> 11), (int)(s % 100) - 90);
		memcpy(&r, &d, 8);
		bad += !same_as_printf(t_, r, 64, d);
	}
}

/* isa_float_printed's premise: strtod of isa_float_text's text gives back
 * the value exactly (every half, a stride through every float, random
 * doubles); and the memo, when it answers (a text printed lately), answers
 * with the bits it printed. */
static int hits;

static int
reads_back(TestState *t_, u64 raw, int bits, double x)
{
	char t[ISA_FLOAT_TEXT + 1], *e;
	size_t n;
	u64 got = ~0ull;
	double d;

	if (!isfinite(x) || x == 0)
		return 1;
	n = isa_float_text(raw, bits, t);
	t[n] = 0;
	d = strtod(t, &e);
	if (isa_float_printed(t, n, bits, &got))
		hits++;
	else
		got = raw;
	if (d == x && !*e && got == raw)
		return 1;
	test_fail(t_, __FILE__, __LINE__, "%d-bit 0x%llx: \"%s\" reads back as %.17g (memo 0x%llx)", bits,
		  (unsigned long long)raw, t, d, (unsigned long long)got);
	return 0;
}

TEST(isa_float_printed_round_trip)
{
	u64 s = 0x2545f4914f6cdd1dull;
	int i, bad = halves_and_floats(t_, reads_back, 65521);

	for (i = 0; i < 20000 && bad < 10; i++) {
		double d;

		s ^= s << 13, s ^= s >> 7, s ^= s << 17;
		memcpy(&d, &s, 8);
		bad += !reads_back(t_, s, 64, d);
	}
	CHECK(hits > 60000);
}
