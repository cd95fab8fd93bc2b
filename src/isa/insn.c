/* insn.c -- parse the printer's text of one instruction into an Insn
 * (see insn.h).  The text is nvdisasm's, so the grammar is small and
 * regular; anything unexpected is an error, never a guess. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "isa/insn.h"

typedef struct {
	char *err;
	size_t errlen;
	int novalue;  /* insn_parse_novalue: float immediates without their value */
} Ctx;

static int
fail(Ctx *c, const char *what, const char *s)
{
	snprintf(c->err, c->errlen, "%s '%s'", what, s);
	return -1;
}

/* The value of hexadecimal digit c, or -1 (isxdigit is a call in musl). */
static inline int
hexdig(uchar c)
{
	if ((u32)(c - '0') < 10)
		return c - '0';
	c |= 0x20;
	return (u32)(c - 'a') < 6 ? c - 'a' + 10 : -1;
}

/* The hexadecimal number at s (at least one digit), as strtoull(s, end,
 * 16) reads it: an optional 0x before a digit, saturating at 2^64 - 1; by
 * hand (strtoull's locale and errno work cost more than the rest). */
static int
parse_hex(const char *s, u64 *v, const char **end)
{
	u64 x = 0;
	int over = 0, d;

	if (hexdig((uchar)*s) < 0)
		return -1;
	if (s[0] == '0' && (s[1] | 0x20) == 'x' && hexdig((uchar)s[2]) >= 0)
		s += 2;
	for (; (d = hexdig((uchar)*s)) >= 0; s++) {
		if (x >> 60)
			over = 1;
		x = x << 4 | (u64)d;
	}
	*v = over ? ~0ull : x;
	*end = s;
	return 0;
}

/* R5 / RZ / UR4 / URZ / P0 / PT / UP0 / UPT / B1 / SB0: kind and number. */
static int
parse_regname(const char *s, u8 *kind, u16 *reg, const char **end)
{
	u64 v;

	switch (s[0]) {
	case 'U':
		if (s[1] == 'R' && s[2] == 'Z') { *kind = OPK_UR; *reg = 63; *end = s + 3; return 0; }
		if (s[1] == 'P' && s[2] == 'T') { *kind = OPK_UP; *reg = 7; *end = s + 3; return 0; }
		if ((s[1] != 'R' && s[1] != 'P') || !isdigit((uchar)s[2]))
			return -1;
		*kind = s[1] == 'R' ? OPK_UR : OPK_UP;
		s += 2;
		break;
	case 'R':
		if (s[1] == 'Z') { *kind = OPK_R; *reg = 255; *end = s + 2; return 0; }
		if (!isdigit((uchar)s[1]))
			return -1;
		*kind = OPK_R;
		s += 1;
		break;
	case 'P':
		if (s[1] == 'T') { *kind = OPK_P; *reg = 7; *end = s + 2; return 0; }
		if (!isdigit((uchar)s[1]))
			return -1;
		*kind = OPK_P;
		s += 1;
		break;
	case 'S':
		if (s[1] != 'B' || !isdigit((uchar)s[2]))
			return -1;
		*kind = OPK_SB;
		s += 2;
		break;
	case 'B':
		if (!isdigit((uchar)s[1]))
			return -1;
		*kind = OPK_B;
		s += 1;
		break;
	default:
		return -1;
	}
	/* the digits (at least one, checked above) by hand: strtoull's
	 * locale and errno work cost more than the rest of an operand */
	for (v = 0; isdigit((uchar)*s); s++)
		v = v > 255 ? v : v * 10 + (u64)(*s - '0');
	*end = s;
	if (v > 255)
		return -1;
	*reg = (u16)v;
	return 0;
}

static const struct { const char *s; u8 n, sel; } sels[] = {
	{".H0_H0", 6, SEL_H0_H0}, {".H1_H1", 6, SEL_H1_H1}, {".H0", 3, SEL_H0}, {".H1", 3, SEL_H1},
	{".B0", 3, SEL_B0}, {".B1", 3, SEL_B1}, {".B2", 3, SEL_B2}, {".B3", 3, SEL_B3}, {".F32", 4, SEL_F32},
	{".SIGN", 5, SEL_SIGN},   /* PLOP3's register inputs: the sign bit */
};

int
insn_sel_at(const char *s, size_t *len)
{
	size_t i;

	for (i = 0; i < NELEM(sels); i++)
		if (!strncmp(s, sels[i].s, sels[i].n)) {
			*len = sels[i].n;
			return sels[i].sel;
		}
	return -1;
}

/* Register suffixes: .reuse, .64, .U32, .X4, selectors. */
static int
parse_suffixes(Ctx *c, const char *s, Operand *o, const char *all)
{
	size_t n;
	int sel;

	while (*s == '.') {
		if (!strncmp(s, ".reuse", 6)) { s += 6; continue; }
		if (!strncmp(s, ".64", 3)) { o->x64 = 1; s += 3; continue; }
		if (!strncmp(s, ".U32", 4)) { o->u32 = 1; s += 4; continue; }
		if (!strncmp(s, ".ROW", 4) || !strncmp(s, ".COL", 4)) { s += 4; continue; }
		if (s[1] == 'X' && isdigit((uchar)s[2])) {
			o->scale = (u8)strtoul(s + 2, (char **)&s, 10);
			continue;
		}
		if ((sel = insn_sel_at(s, &n)) < 0)
			return fail(c, "unknown register suffix in", all);
		o->sel = (u8)sel;
		s += n;
	}
	if (*s)
		return fail(c, "junk after operand", all);
	return 0;
}

/* The inside of [...]: terms joined by '+'. */
static int
parse_addr(Ctx *c, const char *s, const char *e, Operand *o, const char *all)
{
	char tmp[128];
	size_t n = (size_t)(e - s);
	char *p, *tok, *cur;

	if (n >= sizeof tmp)
		return fail(c, "address too long", all);
	memcpy(tmp, s, n);
	tmp[n] = 0;
	o->kind = OPK_MEM;
	o->ur = 63;
	o->scale = 1;
	for (cur = tmp;;) {
		u8 k;
		u16 r;
		const char *end;
		u64 v;

		/* the next term, as strtok_r(.., "+", ..) cuts them (no empty ones) */
		while (*cur == '+')
			cur++;
		if (!*cur)
			break;
		tok = cur;
		while (*cur && *cur != '+')
			cur++;
		if (*cur)
			*cur++ = 0;
		p = tok;
		while (*p == ' ')
			p++;
		if (*p == '-' || isdigit((uchar)*p)) {
			int neg = *p == '-';
			if (parse_hex(p + neg, &v, &end) < 0 || p[neg] != '0' || p[neg + 1] != 'x' || *end)
				return fail(c, "bad address offset in", all);
			o->imm += neg ? -v : v;
		} else if (parse_regname(p, &k, &r, &end) == 0 && (k == OPK_R || k == OPK_UR)) {
			Operand t = {0};
			if (parse_suffixes(c, end, &t, all) < 0)
				return -1;
			if (k == OPK_R || (tok == tmp && !o->rk)) {
				if (o->rk)
					return fail(c, "two base registers in", all);
				o->rk = k;
				o->reg = r;
				o->x64 = t.x64;
				o->u32 = t.u32;
				o->scale = t.scale ? t.scale : 1;
			} else if (o->ur == 63)
				o->ur = r;
			else
				return fail(c, "bad address register in", all);
		} else
			return fail(c, "bad address term in", all);
	}
	return 0;
}

/* Is s a plain decimal number, digits[.digits][e[+-]digits] (so that
   strtod reads all of it)? */
static int
plain_decimal(const char *s)
{
	if (!isdigit((uchar)*s))
		return 0;
	while (isdigit((uchar)*s))
		s++;
	if (*s == '.')
		for (s++; isdigit((uchar)*s); s++)
			;
	if (*s == 'e' || *s == 'E') {
		s += s[1] == '+' || s[1] == '-' ? 2 : 1;
		if (!isdigit((uchar)*s))
			return 0;
		while (isdigit((uchar)*s))
			s++;
	}
	return !*s;
}

static int
parse_float(Ctx *c, const char *s, Operand *o, const char *all)
{
	int neg = 0;
	char *e;

	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	if (c->novalue && plain_decimal(s)) {  /* valid; its value is not wanted */
		o->kind = OPK_FIMM;
		return 0;
	}
	if (!strcmp(s, "INF"))
		o->f = INFINITY;
	else if (!strcmp(s, "QNAN") || !strcmp(s, "NAN") || !strcmp(s, "SNAN"))
		o->f = NAN;
	else {
		o->f = strtod(s, &e);
		if (e == s || *e)
			return fail(c, "bad number", all);
	}
	if (neg)
		o->f = -o->f;
	o->kind = OPK_FIMM;  /* o->imm: f's bits (a union) */
	return 0;
}

/* A texture geometry operand (TEX ... 2D)?  The names start with 1, 2, 3,
   A or C: registers never do. */
static int
is_geom(const char *s)
{
	static const char *const g[] = {"1D", "2D", "3D", "CUBE", "ARRAY_1D", "ARRAY_2D", "ARRAY_CUBE", NULL};
	const char *const *p;

	switch (s[0]) {
	case '1': case '2': case '3': case 'A': case 'C':
		for (p = g; *p; p++)
			if (!strcmp(s, *p))
				return 1;
	}
	return 0;
}

/* o cleared for the operand text s (which lives in the Insn's text). */
static inline void
operand_init(Operand *o, const char *s)
{
	memset(o, 0, sizeof *o);
	o->text = s;
	o->desc = 0xffff;
	o->ur = 63;
	o->scale = 1;
}

static int
parse_operand(Ctx *c, const char *s, Operand *o, Arena *a)
{
	const char *all = s, *end, *q;
	u8 k;

	operand_init(o, s);
	/* most operands are plain registers; no branch below takes a text
	   that parse_regname reads (SR_*, SRZ and PR it refuses) */
	if (parse_regname(s, &o->kind, &o->reg, &end) == 0)
		return *end ? parse_suffixes(c, end, o, all) : 0;	/* most have none */
	if (s[0] == '-' && s[1] == '0' && s[2] == 'x') {
		u64 v;
		if (parse_hex(s + 1, &v, &end) < 0 || *end)
			return fail(c, "bad immediate", all);
		o->kind = OPK_IMM;
		o->imm = -v;
		return 0;
	}
	if (s[0] == '0' && s[1] == 'x') {
		if (parse_hex(s, &o->imm, &end) < 0 || *end)
			return fail(c, "bad immediate", all);
		o->kind = OPK_IMM;
		return 0;
	}
	if (is_geom(s)) {
		o->kind = OPK_GEOM;
		return 0;
	}
	if (isdigit((uchar)s[0]) || ((s[0] == '-' || s[0] == '+') && (isdigit((uchar)s[1]) || s[1] == 'I' || s[1] == 'Q' || s[1] == 'N' || s[1] == 'S')))
		return parse_float(c, s, o, all);
	if (*s == '-') { o->neg = 1; s++; }
	if (*s == '!' || *s == '~') { o->not = 1; s++; }
	if (*s == '|') {
		/* |R3|.reuse -> R3.reuse */
		const char *bar = strchr(s + 1, '|');
		char *t;
		if (!bar)
			return fail(c, "unbalanced | in", all);
		o->abs = 1;
		t = arena_strdup(a, s + 1);
		memmove(t + (bar - s - 1), t + (bar - s), strlen(bar));
		s = t;
	}
	if (s[0] == 'g' && !strncmp(s, "gdesc[", 6)) {   /* HGMMA: descriptors in URn.. */
		if (parse_regname(s + 6, &k, &o->desc, &end) < 0 || k != OPK_UR || *end != ']')
			return fail(c, "bad matrix descriptor in", all);
		/* .negA .negB .tnspA .tnspB follow (the handler reads o->text) */
		for (end++; *end; ) {
			static const char *const sfx[] = {".negA", ".negB", ".tnspA", ".tnspB"};
			size_t i, l = 0;
			for (i = 0; i < NELEM(sfx) && !l; i++)
				if (!strncmp(end, sfx[i], strlen(sfx[i])))
					l = strlen(sfx[i]);
			if (!l)
				return fail(c, "bad matrix descriptor in", all);
			end += l;
		}
		o->kind = OPK_MEM;
		return 0;
	}
	if (s[0] == 'g' && !strncmp(s, "gsb", 3) && isdigit((uchar)s[3])) {   /* warpgroup scoreboard */
		o->kind = OPK_SB;
		o->reg = (u16)strtoul(s + 3, NULL, 10);
		return 0;
	}
	if (s[0] == '{') {   /* a scoreboard set: DEPBAR {5,4,3,2,1,0} -> the mask as an immediate */
		o->kind = OPK_IMM;
		for (q = s + 1; *q >= '0' && *q <= '5'; q += q[1] == ',' ? 2 : 1)
			o->imm |= 1 << (*q - '0');
		return *q == '}' && !q[1] ? 0 : fail(c, "bad scoreboard set", all);
	}
	if (s[0] == 'd' && !strncmp(s, "desc[", 5)) {
		if (parse_regname(s + 5, &k, &o->desc, &end) < 0 || k != OPK_UR || *end != ']')
			return fail(c, "bad descriptor in", all);
		s = end + 1;
		if (!*s) {   /* a cache policy alone: UTMALDG ..., desc[URn] */
			o->kind = OPK_MEM;
			return 0;
		}
		if (*s != '[')
			return fail(c, "bad descriptor address", all);
		u16 d = o->desc;
		q = strchr(s, ']');
		if (!q || q[1] || parse_addr(c, s + 1, q, o, all) < 0)
			return q ? -1 : fail(c, "unclosed [ in", all);
		o->desc = d;
		return 0;
	}
	if (*s == '[') {
		q = strchr(s, ']');
		if (!q || q[1])
			return fail(c, "bad address", all);
		return parse_addr(c, s + 1, q, o, all);
	}
	if (s[0] == 'c' && s[1] == '[') {
		u64 b;
		if (parse_hex(s + 2, &b, &end) < 0 || end[0] != ']' || end[1] != '[')
			return fail(c, "bad constant bank in", all);
		o->bank = (u16)b;
		q = strchr(end + 2, ']');
		if (!q || (q[1] && q[1] != '.'))
			return fail(c, "bad constant operand", all);
		Operand t = {0};
		if (parse_addr(c, end + 2, q, &t, all) < 0)
			return -1;
		o->kind = OPK_CB;
		o->imm = t.imm;
		o->rk = t.rk;
		o->reg = t.reg;
		if (t.ur != 63)
			return fail(c, "two registers in constant operand", all);
		return parse_suffixes(c, q + 1, o, all);
	}
	if ((s[0] == 'S' && (!strncmp(s, "SR_", 3) || !strcmp(s, "SRZ"))) || (s[0] == 'P' && !strcmp(s, "PR"))) {
		o->kind = OPK_SR;
		o->text = s;
		return 0;
	}
	if (parse_regname(s, &o->kind, &o->reg, &end) == 0)
		return parse_suffixes(c, end, o, all);
	return fail(c, "cannot parse operand", all);
}

/* Split the operand list at top-level commas (and at blanks between
 * operands, as in "RET.REL.NODEC R20 0x0"): the separators between two
 * operands skipped at once (", " makes no empty operand), each operand
 * scanned to its end at depth 0. */
static int
split_ops(Ctx *c, char *s, Insn *in, Arena *a)
{
	int depth = 0;
	char *p = s, *start, save;

	/* the characters the scan acts on; the rest (most) it passes over */
	static const u8 special[256] = {[0] = 1, [' '] = 1, [','] = 1, ['['] = 1, [']'] = 1, ['{'] = 1, ['}'] = 1};

	for (;;) {
		const char *end;
		u8 k;
		u16 r;

		while (*p == ' ' || *p == ',')
			p++;
		if (!*p)
			return 0;
		/* a plain register (most operands) ends with its name: no scan
		   for its end, no parse_operand */
		if (in->nops < INSN_MAXOPS && parse_regname(p, &k, &r, &end) == 0 && (!*end || *end == ' ' || *end == ',')) {
			Operand *o = &in->o[in->nops++];

			operand_init(o, p);
			o->kind = k;
			o->reg = r;
			p = (char *)end;
			if (!*p)
				return 0;
			*p++ = 0;
			continue;
		}
		for (start = p;; p++) {
			uchar ch = (uchar)*p;

			if (!special[ch])
				continue;
			if (ch == '[' || ch == '{')
				depth++;
			else if (ch == ']' || ch == '}')
				depth--;
			else if (!depth)
				break;	/* ' ', ',' or the end */
			else if (!ch)
				return fail(c, "unbalanced [ in", in->text);
		}
		save = *p;
		*p = 0;
		if (in->nops == INSN_MAXOPS)
			return fail(c, "too many operands in", in->text);
		if (parse_operand(c, start, &in->o[in->nops++], a) < 0)
			return -1;
		if (!save)
			return 0;
		p++;
	}
}

/* parse's work on buf, n bytes and a NUL, cut in place (the opcode, the
 * modifiers and the operands' text point into it); in: its header
 * cleared, the operands as parse_operand leaves them. */
static int
parse_buf(char *buf, size_t n, const char *text, Insn *in, Arena *a, Ctx c)
{
	char *s, *e;

	/* trim blanks and the trailing ';' */
	while (n && (buf[n - 1] == ' ' || buf[n - 1] == ';' || buf[n - 1] == '\n'))
		buf[--n] = 0;
	s = buf;
	while (*s == ' ')
		s++;
	if (*s == '@') {
		s++;
		if (*s == '!') { in->guard_not = 1; s++; }
		u8 k;
		u16 r;
		if (parse_regname(s, &k, &r, (const char **)&e) < 0 || (k != OPK_P && k != OPK_UP) || *e != ' ')
			return fail(&c, "bad guard in", text);
		in->guard = r;
		in->guard_up = k == OPK_UP;
		s = e + 1;
	}
	/* opcode and modifiers: the first word, cut at its dots */
	in->op = s;
	for (e = s; *e && *e != ' '; e++)
		if (*e == '.') {
			*e = 0;
			if (in->nmods == INSN_MAXMODS)
				return fail(&c, "too many modifiers in", text);
			in->mods[in->nmods++] = e + 1;
		}
	if (*e)
		*e++ = 0;
	else
		e = NULL;
	if (e && split_ops(&c, e, in, a) < 0)
		return -1;
	return 0;
}

static int
parse(const char *text, Insn *in, Arena *a, Ctx c)
{
	char *buf;
	size_t n = strlen(text);

	memset(in, 0, sizeof *in);
	in->guard = -1;
	/* the text and a working copy, cut in place, in one allocation from
	 * the arena (which hands out zeroed memory: both end in 0) */
	buf = arena_alloc(a, 2 * (n + 1));
	in->text = memcpy(buf + n + 1, text, n);
	if (n >= 512)
		return fail(&c, "instruction too long", "");
	memcpy(buf, text, n);
	return parse_buf(buf, n, text, in, a, c);
}

int
insn_parse(const char *text, Insn *in, Arena *a, char *err, size_t errlen)
{
	return parse(text, in, a, (Ctx){err, errlen, 0});
}

int
insn_parse_novalue(char *text, size_t n, Insn *in, Arena *a, char *err, size_t errlen)
{
	Ctx c = {err, errlen, 1};

	/* the header only: the operands are cleared one by one as they are
	 * parsed (most of the 450 bytes), the modifiers past nmods never
	 * read; the operand after the last one cleared for a reader that
	 * looks one past (tex_regs), as the whole memset left it */
	in->op = NULL;
	in->nmods = 0;
	in->guard = -1;
	in->guard_not = in->guard_up = 0;
	in->nops = 0;
	in->text = text;
	if (n >= 512)
		return fail(&c, "instruction too long", "");
	if (parse_buf(text, n, text, in, a, c) < 0)
		return -1;
	if (in->nops < INSN_MAXOPS)
		memset(&in->o[in->nops], 0, sizeof in->o[0]);
	return 0;
}

int
insn_has(const Insn *in, const char *m)
{
	int i;

	for (i = 0; i < in->nmods; i++)
		if (!strcmp(in->mods[i], m))
			return 1;
	return 0;
}
