/* regs.c -- the register count of a code section, computed from its
 * decoded instructions: the highest general register any operand touches
 * (a destination takes the width of the operation: ".64"/".WIDE" two
 * registers, ".128" four; so does a store's data operand, a ".WIDE"
 * addend, every operand of a double-precision op, and an "Rn.64"
 * address), plus 1, plus the 2 that ptxas always adds (observed on the
 * sm_90 test kernels: REGCOUNT = highest register + 3).  Used for
 * "EIATTR_REGCOUNT <k> auto"; -1 when a word does not decode. */
#include <stdlib.h>
#include <string.h>

#include "cubin/elfio.h"
#include "cubin/listing.h"

/* Does the mnemonic mn[0..n) contain s? */
static int
has(const char *mn, size_t n, const char *s, size_t k)
{
	size_t i;

	for (i = 0; i + k <= n; i++)
		if (mn[i] == s[0] && !memcmp(mn + i, s, k))
			return 1;
	return 0;
}

static int
digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Can c end a name (so that an 'R' after it is not a register)? */
static int
name_char(char c)
{
	return digit(c) || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == '.';
}

/* The highest register of one instruction's text: one pass over the
 * operands, k counting the commas (the operand an 'R' is in). */
int
sass_reg_max(const char *t)
{
	const char *mn = t, *p, *end;
	int w, k = 0, nops = 1, max = -1, store, dbl, wide, r;
	size_t n;

	if (*mn == '@')
		mn += strcspn(mn, " ") + 1;
	n = strcspn(mn, " ");
	wide = has(mn, n, ".WIDE", 5);
	w = has(mn, n, ".128", 4) ? 4 : has(mn, n, ".64", 3) || wide ? 2 : 1;
	store = !strncmp(mn, "ST", 2) || !strncmp(mn, "RED", 3);
	dbl = mn[0] == 'D' && strncmp(mn, "DEPBAR", 6);
	for (p = mn + n; *p; p++)
		nops += *p == ',';
	for (p = mn + n; *p; p++) {
		int wd = 1;

		if (*p == ',')
			k++;
		if (*p != 'R' || !digit(p[1]) || name_char(p[-1]))
			continue;
		for (r = 0, end = p + 1; digit(*end) && r < 1000; end++)
			r = r * 10 + (*end - '0');
		while (digit(*end))
			end++;
		if (r >= 255)
			continue;
		if (dbl || (k == 0 && !store) || (store && k == nops - 1) || (wide && k == nops - 1))
			wd = dbl ? 2 : w;
		r += (!strncmp(end, ".64", 3) ? 2 : wd) - 1;
		max = MAX(max, r);
	}
	return max;
}

/* The highest register the words [from, n) of code touch (at their own
 * addresses), -1 if none, -2 if one does not decode.  A count is a max
 * over the words, so counts of a prefix and of the rest combine. */
static int
words_max(const Arch *a, const u8 *code, u64 from, u64 n)
{
	Buf t = {0};
	u64 i;
	int max = -1;

	for (i = from; i + 16 <= n; i += 16) {
		Word w = {rd64(code + i), rd64(code + i + 8)};

		t.n = 0;
		if (isa_print(a, w, i, NULL, &t) < 0) {
			max = -2;
			break;
		}
		max = MAX(max, sass_reg_max(t.s));
	}
	buf_free(&t);
	return max;
}

/* The last codes counted, with their words_max: a compile counts each
 * kernel's code for its REGCOUNT, and the listing written next to the
 * cubin asks again for "auto" about the same code padded with NOPs
 * (code_regcount_known).  Per thread; an entry's copy is freed when the
 * entry is reused. */
enum { NMEMO = 4 };
static _Thread_local struct {
	const Arch *a;
	u8 *code;
	u64 n;
	int max;
} memo[NMEMO];
static _Thread_local unsigned memo_next;

static int
regcount_of_max(int max)
{
	return max < 0 ? -1 : max + 3;
}

static void
remember(const Arch *a, const u8 *code, u64 n, int max)
{
	unsigned i = memo_next++ % NMEMO;

	if (!n)
		return;
	free(memo[i].code);
	memo[i].a = a;
	memo[i].code = memcpy(xmalloc(n), code, n);
	memo[i].n = n;
	memo[i].max = max;
}

int
code_regcount_known(const Arch *a, const u8 *code, u64 n, int *count)
{
	int i, best = -1, max;

	for (i = 0; i < NMEMO; i++)
		if (memo[i].code && memo[i].a == a && memo[i].n <= n && memo[i].n % 16 == 0 &&
		    (best < 0 || memo[i].n > memo[best].n) && !memcmp(memo[i].code, code, memo[i].n))
			best = i;
	if (best < 0)
		return 0;
	max = memo[best].max;
	if (memo[best].n < n && max != -2) {
		int rest = words_max(a, code, memo[best].n, n);

		max = rest == -2 ? -2 : MAX(max, rest);
		remember(a, code, n, max);
	}
	*count = regcount_of_max(max);
	return 1;
}

int
code_regcount(const Arch *a, const u8 *code, u64 n)
{
	int count, max;

	if (code_regcount_known(a, code, n, &count))
		return count;
	max = words_max(a, code, 0, n);
	remember(a, code, n, max);
	return regcount_of_max(max);
}
