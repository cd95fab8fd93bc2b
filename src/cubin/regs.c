/* regs.c -- the register count of a code section, computed from its
 * decoded instructions: the highest general register any operand touches
 * (a destination takes the width of the operation: ".64"/".WIDE" two
 * registers, ".128" four; so does a store's data operand, a ".WIDE"
 * addend, every operand of a double-precision op, and an "Rn.64"
 * address; any other register inside [...] is one address register,
 * as LDGSTS.128's first operand), plus 1, plus the 2 that ptxas always
 * adds (observed on the sm_90 test kernels: REGCOUNT = highest register
 * + 3).  Used for "EIATTR_REGCOUNT <k> auto"; -1 when a word does not
 * decode. */
#include <stdlib.h>
#include <string.h>

#include "cubin/elfio.h"
#include "cubin/listing.h"

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

/* The characters sass_reg_max acts on: NUL , [ ] R. */
static const u8 stop[256] = {[0] = 1, [','] = 1, ['['] = 1, [']'] = 1, ['R'] = 1};

void
reg_max_begin(RegMax *m, const char *mn)
{
	m->w = 1;
	m->wide = 0;
	m->store = (mn[0] == 'S' && mn[1] == 'T') || (mn[0] == 'R' && mn[1] == 'E' && mn[2] == 'D');
	m->dbl = mn[0] == 'D' && strncmp(mn, "DEPBAR", 6);
	m->k = 0;
	m->max = m->cur = m->cur_last = -1;
}

/* The highest register of one instruction's text, in one pass over the
 * operands (RegMax's events, listing.h). */
int
sass_reg_max(const char *t)
{
	const char *mn = t, *p;
	int addr = 0;
	RegMax m;

	if (*mn == '@') { /* the guard */
		while (*mn && *mn != ' ')
			mn++;
		mn += *mn == ' ';
	}
	reg_max_begin(&m, mn);
	/* (the character tests stop at the NUL: no strncmp calls per text) */
	for (p = mn; *p && *p != ' '; p++)
		if (*p == '.')
			reg_max_mod(&m, p + 1);
	reg_max_mods_done(&m);
	for (; *p; p++) {
		int r, own;

		while (!stop[(uchar)*p])	/* most characters are none of these */
			p++;
		if (!*p)
			break;
		if (*p == ',') {
			reg_max_comma(&m);
			continue;
		}
		if (*p == '[' || *p == ']')
			addr = *p == '[';
		if (*p != 'R' || !digit(p[1]) || name_char(p[-1]))
			continue;
		for (r = 0, p++; digit(*p) && r < 1000; p++)
			r = r * 10 + (*p - '0');
		while (digit(*p))
			p++;
		own = p[0] == '.' && p[1] == '6' && p[2] == '4';
		p--;
		reg_max_reg(&m, r, addr, own);
	}
	return reg_max_end(&m);
}

/* The highest register the words [from, n) of code touch (at their own
 * addresses), -1 if none, -2 if one does not decode.  A count is a max
 * over the words, so counts of a prefix and of the rest combine.  A word
 * equal to the one before it (the NOP padding) adds nothing: its text
 * differs, if at all, in a pc-relative target, a number. */
static int
words_max(const Arch *a, const u8 *code, u64 from, u64 n)
{
	Buf t = {0};
	u64 i;
	int max = -1;

	for (i = from; i + 16 <= n; i += 16) {
		Word w = {rd64(code + i), rd64(code + i + 8)};

		if (i > from && !memcmp(code + i, code + i - 16, 16))
			continue;
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
 * (code_regcount_known).  Per thread, in the heap (thread_calloc: a
 * process's static TLS block stays small enough for musl's built-in
 * one, see docs/compile-speed.md); an entry's copy is freed when the
 * entry is reused. */
enum { NMEMO = 4 };
typedef struct {
	struct {
		const Arch *a;
		u8 *code;
		u64 n;
		int max;
	} e[NMEMO];
	unsigned next;
} Memos;
static _Thread_local void *memos;

static int
regcount_of_max(int max)
{
	return max < 0 ? -1 : max + 3;
}

static void
remember(const Arch *a, const u8 *code, u64 n, int max)
{
	Memos *M = thread_calloc(&memos, sizeof *M);
	unsigned i = M->next++ % NMEMO;

	if (!n)
		return;
	free(M->e[i].code);
	M->e[i].a = a;
	M->e[i].code = memcpy(xmalloc(n), code, n);
	M->e[i].n = n;
	M->e[i].max = max;
}

int
code_regcount_known(const Arch *a, const u8 *code, u64 n, int *count)
{
	Memos *M = thread_calloc(&memos, sizeof *M);
	int i, best = -1, max;

	for (i = 0; i < NMEMO; i++)
		if (M->e[i].code && M->e[i].a == a && M->e[i].n <= n && M->e[i].n % 16 == 0 &&
		    (best < 0 || M->e[i].n > M->e[best].n) && !memcmp(M->e[i].code, code, M->e[i].n))
			best = i;
	if (best < 0)
		return 0;
	max = M->e[best].max;
	if (M->e[best].n < n && max != -2) {
		int rest = words_max(a, code, M->e[best].n, n);

		max = rest == -2 ? -2 : MAX(max, rest);
		remember(a, code, n, max);
	}
	*count = regcount_of_max(max);
	return 1;
}

int
code_regcount_of(const Arch *a, const u8 *code, u64 n, int max, int verify)
{
	if (verify && words_max(a, code, 0, n) != max)
		die("the highest register of the code is not %d, as its decoder counted", max);
	remember(a, code, n, max);
	return regcount_of_max(max);
}

int
code_regcount(const Arch *a, const u8 *code, u64 n)
{
	int count;

	if (code_regcount_known(a, code, n, &count))
		return count;
	return code_regcount_of(a, code, n, words_max(a, code, 0, n), 0);
}
