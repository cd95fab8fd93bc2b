/* asm_code.c -- assemble one instruction line of a code section:
 *     [(slash-star)addr(star-slash)]  [@P0] OP operands ;  [(slash-star) [B------:R-:W-:Y:S05] (star-slash)]  [// comment]
 * The address comment is ignored (addresses follow from the order).
 * "UNKNOWN 0x<lo>, 0x<hi>" gives the 128-bit word verbatim.  Without a
 * control comment the control field defaults to [B------:R-:W-:Y:S15]
 * (no scoreboards, the longest fixed stall). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cubin/asmint.h"
#include "cubin/elfio.h"

static int
addr_of(void *ctx, const char *name, u64 *addr)
{
	Asm *s = ctx;
	size_t i;

	for (i = 0; i < s->labels.n; i++)
		if (s->labels.v[i].sec == s->cur && !strcmp(s->labels.v[i].name, name)) {
			*addr = s->labels.v[i].addr;
			s->last_label = &s->labels.v[i];
			return 0;
		}
	return -1;
}

/* The parser may print what it encoded to check it: name the label the
 * text used (else the first label at that address). */
static const char *
label_of(void *ctx, u64 addr)
{
	Asm *s = ctx;
	size_t i;

	if (s->last_label && s->last_label->sec == s->cur && s->last_label->addr == addr)
		return s->last_label->name;
	for (i = 0; i < s->labels.n; i++)
		if (s->labels.v[i].sec == s->cur && s->labels.v[i].addr == addr)
			return s->labels.v[i].name;
	return NULL;
}

static const char *
find(const char *p, const char *e, const char *what)
{
	size_t n = strlen(what);

	for (; p + n <= e; p++)
		if (!memcmp(p, what, n))
			return p;
	return NULL;
}

static int
unknown_word(Asm *s, const char *p, const char *e, Word *w)
{
	char buf[128], *q, *end;
	size_t n = e - p;

	if (n >= sizeof buf)
		return asm_error(s, p, "malformed UNKNOWN word");
	memcpy(buf, p, n);
	buf[n] = 0;
	q = buf + 7;
	errno = 0;
	while (*q == ' ' || *q == '\t')
		q++;
	if (strncmp(q, "0x", 2))
		return asm_error(s, p, "UNKNOWN takes two 64-bit hex numbers: UNKNOWN 0x<lo>, 0x<hi>");
	w->lo = strtoull(q, &end, 16);
	q = end;
	while (*q == ' ' || *q == '\t')
		q++;
	if (*q != ',')
		return asm_error(s, p + (q - buf), "expected ',' between the two words");
	q++;
	while (*q == ' ' || *q == '\t')
		q++;
	if (strncmp(q, "0x", 2))
		return asm_error(s, p + (q - buf), "expected the high word as 0x<hex>");
	w->hi = strtoull(q, &end, 16);
	q = end;
	while (*q == ' ' || *q == '\t')
		q++;
	if (*q || errno)
		return asm_error(s, p + (q - buf), "unexpected text after the UNKNOWN word");
	return 0;
}

void
asm_insn(Asm *s, const char *p, const char *e)
{
	const char *semi, *txt, *tend, *cm;
	Buf *d = &s->data.v[s->cur];
	Word w = {0, 0};
	Ctrl ctl = {15, 0, 7, 7, 0, 0};
	Word hidden = {0, 0};
	u8 bytes[16];

	while (p < e && isspace((uchar)*p))
		p++;
	if (e - p >= 2 && p[0] == '/' && p[1] == '*') {
		const char *c = find(p, e, "*/");

		if (!c) {
			asm_error(s, p, "unterminated comment");
			return;
		}
		p = c + 2;
	}
	while (p < e && isspace((uchar)*p))
		p++;
	txt = p;
	semi = memchr(p, ';', e - p);
	tend = semi ? semi : e;
	if ((cm = find(p, tend, "//")) || (cm = find(p, tend, "/*")))
		tend = cm;
	while (tend > txt && isspace((uchar)tend[-1]))
		tend--;
	if (tend == txt) {
		asm_error(s, txt, "expected an instruction");
		return;
	}
	if (tend - txt >= 7 && !memcmp(txt, "UNKNOWN", 7) && (tend - txt == 7 || isspace((uchar)txt[7]))) {
		if (unknown_word(s, txt, tend, &w) < 0)
			return;
		goto emit;
	}
	if (!s->arch) {
		if (s->have_target)
			asm_error(s, txt, "no SASS tables for this target: write the word as UNKNOWN 0x<lo>, 0x<hi>");
		else
			asm_error(s, txt, "no .target before the first instruction");
		return;
	}
	{
		char err[256] = "", *one = xmalloc(tend - txt + 1);
		size_t errpos = 0;
		IsaSyms syms = {label_of, addr_of, s};

		s->last_label = NULL;
		int rc;

		memcpy(one, txt, tend - txt);
		one[tend - txt] = 0;
		rc = isa_parse(s->arch, one, d->n, &syms, &w, err, sizeof err, &errpos);
		free(one);
		if (rc < 0) {
			asm_error(s, txt + MIN(errpos, (size_t)(tend - txt)), "%s", err[0] ? err : "cannot assemble this instruction");
			return;
		}
	}
	if ((cm = find(semi ? semi : tend, e, "/*"))) {
		const char *c = cm + 2, *end;

		while (c < e && (*c == ' ' || *c == '\t'))
			c++;
		if (c < e && *c == '[') {
			if (ctrl_parse(c, &ctl, &end) < 0 || end > e) {
				asm_error(s, c, "malformed control bits; expected e.g. [B------:R-:W-:Y:S05]");
				return;
			}
			if (isa_parse_hidden(end, &hidden, &end) < 0 || end > e) {
				asm_error(s, end, "malformed hidden bits; expected hidden=0x<lo>:0x<hi>");
				return;
			}
		}
	}
	/* hidden bits first: with the yield bit 0 they repeat the reuse flags
	   that ":U" also gives (isa_hidden reports what the text cannot show) */
	w.lo ^= hidden.lo;
	w.hi ^= hidden.hi;
	ctl.reuse |= ctrl_get(w).reuse;
	w = ctrl_set(w, ctl);
emit:
	wr64(bytes, w.lo);
	wr64(bytes + 8, w.hi);
	buf_putn(d, bytes, 16);
}
