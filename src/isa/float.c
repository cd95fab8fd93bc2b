/* float.c -- float immediates as nvdisasm prints them.
 *
 * Measured against nvdisasm 13.2 (docs/findings-encoding.md):
 *   NaN  -> "+QNAN " / "-SNAN " (quiet bit decides; payload not shown)
 *   inf  -> "+INF " / "-INF "      -0.0 -> "-0.0 "      +0 -> "0"
 *   |x| >= 1e9 -> "%.20e"          otherwise -> "%.20g"
 * The special values carry a trailing space ("+INF , PT"). */
#include <math.h>
#include <string.h>

#include "isa/isa_impl.h"

static double
half_to_double(u32 h)
{
	int e = (h >> 10) & 31;
	double m = h & 1023;
	double v;

	if (e == 0)
		v = ldexp(m, -24);
	else if (e == 31)
		v = m ? NAN : INFINITY;
	else
		v = ldexp(m + 1024, e - 25);
	return h & 0x8000 ? -v : v;
}

/* The exact decimal digits of x > 0 (a finite double), no leading zeros,
 * into d (room for 800); returns their number, and *point the number of
 * them before the decimal point (may be negative).
 * x = m * 2^e exactly: for e >= 0 the digits are those of the integer
 * m << e; for e < 0 those of m * 5^-e, with the point -e from the right.
 * A bignum in base 1e9 (little end first) holds the product. */
static int
exact_digits(double x, char *d, int *point)
{
	u32 n[100];
	int e, len = 0, i, nd = 0, k;
	u64 m = (u64)ldexp(frexp(x, &e), 53);

	e -= 53;
	if (e < 0) { /* m odd or e = 0: at most 767 digits then */
		int z = __builtin_ctzll(m) < -e ? __builtin_ctzll(m) : -e;
		m >>= z;
		e += z;
	}
	n[len++] = (u32)(m % 1000000000u);
	if (m >= 1000000000u)
		n[len++] = (u32)(m / 1000000000u % 1000000000u);
	if (m >= 1000000000000000000ull)
		n[len++] = (u32)(m / 1000000000000000000ull);
	for (k = e < 0 ? -e : e; k > 0;) {
		int step = e < 0 ? (k < 13 ? k : 13) : (k < 31 ? k : 31);
		u64 mul = 1, carry = 0;

		for (i = 0; i < step; i++)
			mul *= e < 0 ? 5 : 2;
		k -= step;
		for (i = 0; i < len; i++) {
			u64 v = n[i] * mul + carry;
			n[i] = (u32)(v % 1000000000u);
			carry = v / 1000000000u;
		}
		while (carry) {
			n[len++] = (u32)(carry % 1000000000u);
			carry /= 1000000000u;
		}
	}
	for (i = len - 1; i >= 0; i--) {
		char t[9];
		u32 v = n[i];
		int j;

		for (j = 8; j >= 0; j--, v /= 10)
			t[j] = (char)('0' + v % 10);
		for (j = 0; j < 9; j++)
			if (nd || t[j] != '0')
				d[nd++] = t[j];
	}
	*point = e < 0 ? nd + e : nd;
	return nd;
}

/* x > 0 to nsig significant digits, rounded to nearest, ties to even
 * (as glibc's printf rounds the exact value); *x10 the exponent of the
 * first digit, as %e prints it. */
static void
round_digits(double x, int nsig, char *d, int *x10)
{
	char all[800];
	int point, nd = exact_digits(x, all, &point), i, up;

	for (i = 0; i < nsig; i++)
		d[i] = i < nd ? all[i] : '0';
	*x10 = point - 1;
	if (nd <= nsig)
		return;
	up = all[nsig] > '5';
	if (all[nsig] == '5') {
		up = (d[nsig - 1] - '0') & 1;
		for (i = nsig + 1; i < nd && !up; i++)
			up = all[i] != '0';
	}
	for (i = nsig - 1; up && i >= 0; i--) {
		if (d[i] != '9') {
			d[i]++;
			up = 0;
		} else
			d[i] = '0';
	}
	if (up) { /* 99..9 rounded up to 100..0 */
		d[0] = '1';
		++*x10;
	}
}

/* printf's "%.{prec}e" (g = 0), or "%.{prec}g" (g = 1) of x, without
 * glibc's __printf_fp (a tenth of a float-heavy compile): the same digits,
 * rounded the same way, laid out by the same rules (C11 7.21.6.1). */
static size_t
fmt_double(char *out, double x, int prec, int g)
{
	char d[64], t[128];
	int nsig = g ? (prec ? prec : 1) : prec + 1, x10, n = 0, i, frac;

	if (x < 0) {
		t[n++] = '-';
		x = -x;
	}
	round_digits(x, nsig, d, &x10);
	if (g && x10 >= -4 && x10 < nsig) { /* %f with nsig - 1 - x10 decimals */
		if (x10 < 0) {
			t[n++] = '0';
			t[n++] = '.';
			for (i = -1; i > x10; i--)
				t[n++] = '0';
			for (i = 0; i < nsig; i++)
				t[n++] = d[i];
		} else {
			for (i = 0; i <= x10; i++)
				t[n++] = d[i];
			t[n++] = '.';
			for (; i < nsig; i++)
				t[n++] = d[i];
		}
	} else {
		t[n++] = d[0];
		t[n++] = '.';
		for (i = 1; i < nsig; i++)
			t[n++] = d[i];
	}
	if (g) { /* %g drops trailing zeros, then a bare point */
		while (t[n - 1] == '0')
			n--;
		if (t[n - 1] == '.')
			n--;
	}
	frac = g && x10 >= -4 && x10 < nsig;
	if (!frac) {
		int a = x10 < 0 ? -x10 : x10;
		t[n++] = 'e';
		t[n++] = x10 < 0 ? '-' : '+';
		if (a >= 100)
			t[n++] = (char)('0' + a / 100);
		t[n++] = (char)('0' + a / 10 % 10);
		t[n++] = (char)('0' + a % 10);
	}
	memcpy(out, t, (size_t)n);
	return (size_t)n;
}

/* The text (nvdisasm's: printf's %.20g, or %.20e from 1e9 up, made by
 * fmt_double) into t of ISA_FLOAT_TEXT bytes; returns its length. */
static size_t
format(u64 raw, int bits, char *t)
{
	u64 sign = raw >> (bits - 1) & 1, quiet;
	double x;
	int n;

	if (bits == 16) {
		x = half_to_double((u32)raw);
		quiet = 0x200;
	} else if (bits == 32) {
		float f;
		u32 r = (u32)raw;

		memcpy(&f, &r, 4);
		x = f;
		quiet = 0x400000;
	} else {
		memcpy(&x, &raw, 8);
		quiet = 0x8000000000000ull;
	}
	if (isnan(x))
		n = str_printf(t, ISA_FLOAT_TEXT, "%c%s ", sign ? '-' : '+', raw & quiet ? "QNAN" : "SNAN");
	else if (isinf(x))
		n = str_printf(t, ISA_FLOAT_TEXT, "%s", sign ? "-INF " : "+INF ");
	else if (x == 0)
		n = str_printf(t, ISA_FLOAT_TEXT, "%s", sign ? "-0.0 " : "0");
	else if (fabs(x) >= 1e9)
		n = (int)fmt_double(t, x, 20, 0);
	else
		n = (int)fmt_double(t, x, 20, 1);
	if (n < 0 || n >= ISA_FLOAT_TEXT)
		die("isa_float_text: %d bytes", n);
	return (size_t)n;
}

/* A per-thread memo of the texts made last (a MemoIndex: entries taken
 * in order, so they fill pages densely): a compile spells its constants
 * again and again (the parser's print-back, the peepholes' probes, the
 * hazard decoder, the listing).  In the heap (thread_calloc), as
 * isa_print's memo. */
typedef struct {
	u64 raw;
	u8 bits, len;
	char text[ISA_FLOAT_TEXT];
} FMemo;
typedef struct {
	MemoIndex index;
	FMemo e[MEMO_ENTRIES];
	u16 all[MEMO_SLOTS];
} FMemoTable;
static _Thread_local void *fmemo;

static u32
fmemo_hash(u64 raw, int bits)
{
	return (u32)((raw ^ (u64)bits) * 0x9e3779b97f4a7c15ull >> 32);
}

static u32
fmemo_hash_of(const void *e, u32 j)
{
	const FMemo *m = (const FMemo *)e + j;

	return fmemo_hash(m->raw, m->bits);
}

size_t
isa_float_text(u64 raw, int bits, char *t)
{
	FMemoTable *tab = thread_calloc(&fmemo, sizeof *tab);
	FMemo *m = &tab->e[memo_find(&tab->index, tab->all, fmemo_hash(raw, bits), tab->e, sizeof *m, fmemo_hash_of)];

	if (m->bits != bits || m->raw != raw) {
		m->len = (u8)format(raw, bits, m->text);
		m->raw = raw;
		m->bits = (u8)bits;
	}
	memcpy(t, m->text, m->len);
	return m->len;
}

/* The bits of the float text s[0..n) if this thread printed it lately (the
 * last FPRINTED entries of isa_float_text's memo): a compile reads back the
 * constants it printed (isa_parse's float holes), and musl's strtod costs
 * ~2,500 instructions a call.  Exact: the memo's text is %.20g (or %.20e) of
 * the value, 17 or more correctly rounded significant digits, from which a
 * correctly rounded strtod gives back that double exactly -- and for f32
 * and f16 values, exact in a double, the conversion then gives back the
 * bits (unit test isa_float_printed_round_trip). */
enum { FPRINTED = 64 };

int
isa_float_printed(const char *s, size_t n, int bits, u64 *raw)
{
	FMemoTable *tab = fmemo;
	u32 i, lo;

	if (!tab)
		return 0;
	lo = tab->index.n > FPRINTED ? tab->index.n - FPRINTED : 0;
	for (i = tab->index.n; i-- > lo;) {
		FMemo *m = &tab->e[i];

		if (m->len == n && m->bits == bits && !memcmp(m->text, s, n)) {
			*raw = m->raw;
			return 1;
		}
	}
	return 0;
}

void
isa_fmt_float(Buf *out, u64 raw, int bits)
{
	char t[ISA_FLOAT_TEXT];

	buf_putn(out, t, isa_float_text(raw, bits, t));
}
