/* ctrl.c -- the control field of an instruction word (bits 105..127).
 *
 *   127 126 | 125..122 | 121..116 | 115..113 | 112..110 | 109 | 108..105
 *    extra  |  reuse   |  wait    |  rdsb    |  wrsb    | yld | stall
 *
 * Printed as "[B------:R-:W-:Y:S04]": B = wait mask (digit k when bit k
 * is set), R/W = read/write scoreboard (digit, '-' for 7 = none), Y when
 * the yield bit is 0 ('-' when 1, CuAssembler's convention), S = stall.
 * Reuse flags normally print as ".reuse" on operands, but nvdisasm hides
 * them when the yield bit is 0: then ":U<hex>" carries them.  ":X<n>" shows
 * bits 126..127 when set.  With the instruction text, printing then parsing
 * is exact for every word.
 * Evidence: docs/findings-encoding.md, research/cubin-format.md section 11.1. */
#include <stdlib.h>
#include <string.h>

#include "isa/isa.h"

Word
ctrl_set(Word w, Ctrl c)
{
	u64 v = (u64)(c.stall & 15) | (u64)(c.yield & 1) << 4 | (u64)(c.wrsb & 7) << 5 |
		(u64)(c.rdsb & 7) << 8 | (u64)(c.wait & 63) << 11 | (u64)(c.reuse & 63) << 17;

	w.hi = (w.hi & ((1ull << 41) - 1)) | v << 41;
	return w;
}

/* Written in place: buf_printf cost more than everything else in a
 * listing line. */
char *
ctrl_text(Ctrl c, char *p)
{
	/* the wait mask's six characters at once: bit k of the mask times
	 * 2^(7k) lands alone at bit 8k (copies 7 bits apart, 6 bits wide),
	 * then selects byte k of "012345" over '-' */
	u64 m = (c.wait & 63) * 0x810204081ull & 0x10101010101ull, t;

	t = 0x2d2d2d2d2d2dull ^ ((0x2d2d2d2d2d2dull ^ 0x353433323130ull) & m * 0xff);
	*p++ = '[';
	*p++ = 'B';
	memcpy(p, &t, 6);
	p += 6;
	memcpy(p, ":R-:W-:Y:S", 10);
	if (c.rdsb != 7)
		p[2] = (char)('0' + c.rdsb);
	if (c.wrsb != 7)
		p[5] = (char)('0' + c.wrsb);
	if (c.yield)
		p[7] = '-';
	p += 10;
	if (c.stall < 10) {	/* ctrl_get's are 0..15 */
		*p++ = '0';
		*p++ = (char)('0' + c.stall);
	} else {
		if (c.stall >= 100)
			*p++ = (char)('0' + c.stall / 100);
		*p++ = (char)('0' + c.stall / 10 % 10);
		*p++ = (char)('0' + c.stall % 10);
	}
	if ((c.reuse & 15) && !c.yield) {
		*p++ = ':';
		*p++ = 'U';
		*p++ = "0123456789abcdef"[c.reuse & 15];
	}
	if (c.reuse >> 4) {
		*p++ = ':';
		*p++ = 'X';
		if (c.reuse >> 4 >= 10)
			*p++ = '1';
		*p++ = (char)('0' + (c.reuse >> 4) % 10);
	}
	*p++ = ']';
	return p;
}

static int
sb(char ch, u8 *v)
{
	if (ch == '-')
		*v = 7;
	else if (ch >= '0' && ch <= '6')
		*v = (u8)(ch - '0');
	else
		return -1;
	return 0;
}

int
ctrl_parse(const char *s, Ctrl *c, const char **end)
{
	int k;

	memset(c, 0, sizeof *c);
	if (strncmp(s, "[B", 2))
		return -1;
	s += 2;
	for (k = 0; k < 6; k++, s++)
		if (*s == '0' + k)
			c->wait |= (u8)(1 << k);
		else if (*s != '-')
			return -1;
	if (strncmp(s, ":R", 2) || sb(s[2], &c->rdsb) || strncmp(s + 3, ":W", 2) ||
	    sb(s[5], &c->wrsb) || s[6] != ':' || (s[7] != 'Y' && s[7] != '-') ||
	    strncmp(s + 8, ":S", 2) || s[10] < '0' || s[10] > '1' || s[11] < '0' || s[11] > '9')
		return -1;
	c->yield = s[7] == '-';
	c->stall = (u8)((s[10] - '0') * 10 + s[11] - '0');
	if (c->stall > 15)
		return -1;
	s += 12;
	if (!strncmp(s, ":U", 2)) {
		char *e;
		unsigned long u = strtoul(s + 2, &e, 16);

		if (e == s + 2 || u == 0 || u > 15)
			return -1;
		c->reuse = (u8)u;
		s = e;
	}
	if (!strncmp(s, ":X", 2)) {
		if (s[2] < '1' || s[2] > '3')
			return -1;
		c->reuse |= (u8)((s[2] - '0') << 4);
		s += 3;
	}
	if (*s != ']')
		return -1;
	if (end)
		*end = s + 1;
	return 0;
}

void
isa_print_hidden(Word h, Buf *out)
{
	if (h.lo || h.hi)
		buf_printf(out, " hidden=0x%llx:0x%llx", (unsigned long long)h.lo, (unsigned long long)h.hi);
}

int
isa_parse_hidden(const char *s, Word *h, const char **end)
{
	char *e;

	h->lo = h->hi = 0;
	while (*s == ' ')
		s++;
	if (strncmp(s, "hidden=0x", 9)) {
		*end = s;
		return 0;
	}
	h->lo = strtoull(s + 9, &e, 16);
	if (strncmp(e, ":0x", 3))
		return -1;
	h->hi = strtoull(e + 3, &e, 16);
	*end = e;
	return 0;
}
