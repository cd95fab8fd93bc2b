/* peep_combine.c -- two integer additions, or a shift and an addition,
 * into one instruction, the way ptxas writes address arithmetic:
 *
 *     IADD3 t, a, b, RZ;     IADD3 d, t, c, RZ  ->  IADD3 d, a, b, c
 *     SHF.L.U32 t, a, k, RZ; IADD3 d, t, b, RZ  ->  LEA d, a, b, k
 *
 *     LOP3.LUT t, a, b, c, lut, !PT; ISETP.NE.U32.AND q, PT, t, RZ, PT
 *                            ->  LOP3.LUT q, RZ, a, b, c, lut, !PT  (EQ: q's
 *                                reader takes !q)
 *     SEL t, 0x1, RZ, p; ISETP.EQ.U32.AND q, PT, t, RZ, PT
 *                            ->  PLOP3.LUT q, PT, !p, PT, PT, 0x80, 0x0
 *     PLOP3.LUT t, PT, p, PT, PT, 0xf, 0x0; @t X  ->  @!p X  (also an
 *                                                  operand "t" -> "!p")
 *     X t, ...;             IADD3 d, t, RZ, RZ ->  X d, ...  (any X, when
 *                                                  nothing in between
 *                                                  touches d)
 *
 * t is one register written once and read once (by the addition), in the
 * same block, and nothing in between writes what the first instruction
 * reads.  IADD3 is commutative: the addends are tried in each order until
 * the ISA tables encode one (an immediate, c[..] or UR only fits some
 * slots), so no slot rules are written here. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/peep.h"

/* An operand of an instruction's text: a register hole (ref >= 0, with
 * an optional '-' in front) or literal text. */
typedef struct {
	int ref;
	char pre;         /* '-' or '!' in front of the register, or 0 */
	char lit[48];
} Tok;

/* Split "OP d, x, y, z" (the text after the mnemonic) into tokens;
 * returns how many, or -1 when one does not fit. */
static int
split(const char *text, const char *op, Tok *t, int max)
{
	size_t n = strlen(op);
	const char *p = text + n;
	int k = 0;

	if (!peep_pre(text, op) || *p != ' ')
		return -1;
	for (p++; *p; k++) {
		const char *e = peep_comma(p);
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (k == max)
			return -1;
		memset(&t[k], 0, sizeof t[k]);
		t[k].ref = -1;
		if (len == 2 && p[0] == 1)
			t[k].ref = p[1] - 1;
		else if (len == 3 && (p[0] == '-' || p[0] == '!') && p[1] == 1)
			t[k].ref = p[2] - 1, t[k].pre = p[0];
		else if (len >= sizeof t[k].lit || memchr(p, 1, len) || memchr(p, 2, len))
			return -1;
		else
			memcpy(t[k].lit, p, len);
		p += len;
		if (e)
			p += 2;
	}
	return k;
}

/* sscanf(s, "0x%x", v) == 1 */
static int
lit_x(const char *s, u32 *v)
{
	const char *e;
	int r = peep_scan_x(s, "0x", v, &e);

	return r >= 0 ? r : sscanf(s, "0x%x", v) == 1;
}

/* sscanf(text, "MOV \001\001, 0x%x%3s", v, tail) == 1 */
static int
mov_bit(const char *text, u32 *v)
{
	const char *e;
	char tail[4];
	int r = peep_scan_x(text, "MOV \001\001, 0x", v, &e);

	if (r > 0 && *e)
		r = isspace((uchar)*e) ? -1 : 0;
	return r >= 0 ? r : sscanf(text, "MOV \001\001, 0x%x%3s", v, tail) == 1;
}

static int
is_rz(const MFunc *f, const MIns *m, const Tok *t)
{
	if (t->ref >= 0)
		return m->r[t->ref].v == f->rz;
	return !strcmp(t->lit, "RZ");
}

/* A source of the combined instruction: a token and the MIns it is in. */
typedef struct {
	const MIns *m;
	Tok t;
} Add;

/* Build "op <dst of y>, s[0], s[1], ...tail" as an MIns into *out. */
static void
build(MFunc *f, const MIns *y, const char *op, const Add *s, int ns, const char *tail, MIns *out)
{
	Buf t = {0};
	int i;

	*out = *y;
	out->nr = 1;
	out->r[0] = y->r[0];
	out->rf[0] = MF_DEF;
	out->copy = 0;
	buf_puts(&t, op);
	buf_puts(&t, " \001\001");
	for (i = 0; i < ns; i++) {
		buf_puts(&t, ", ");
		if (s[i].t.ref < 0) {
			buf_puts(&t, s[i].t.lit);
			continue;
		}
		if (s[i].t.pre)
			buf_putc(&t, s[i].t.pre);
		out->r[out->nr] = s[i].m->r[s[i].t.ref];
		out->rf[out->nr] = MF_USE;
		out->nr++;
		buf_putc(&t, 1);
		buf_putc(&t, (char)out->nr);
	}
	buf_puts(&t, tail);
	out->text = arena_strdup(f->a, t.s);
	buf_free(&t);
}

static int
encodes(const Arch *a, const MFunc *f, const MIns *m)
{
	Buf b = {0};
	int ok;

	peep_trial(f, m, -1, -1, "", &b);
	ok = peep_encodes(a, b.s);
	buf_free(&b);
	return ok;
}

/* Try the orders of the three addends s[0..3) for "IADD3 d, ., ., .". */
static int
try_iadd3(MFunc *f, const Arch *a, const MIns *y, Add *s, MIns *out)
{
	static const int perm[6][3] = { {0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0} };
	int p, i;

	for (p = 0; p < 6; p++) {
		Add o[3];
		for (i = 0; i < 3; i++)
			o[i] = s[perm[p][i]];
		build(f, y, "IADD3", o, 3, "", out);
		if (encodes(a, f, out))
			return 1;
	}
	return 0;
}

/* Does any instruction of B in [from, to) write a register x reads? */
static int
inputs_change(const MFunc *f, const MBlock *B, size_t from, size_t to, const MIns *x)
{
	size_t j;
	int k, q;

	for (j = from; j < to; j++) {
		const MIns *m = &B->ins.v[j];
		for (k = 0; k < m->nr; k++) {
			if (!(m->rf[k] & MF_DEF))
				continue;
			for (q = 0; q < x->nr; q++)
				if ((x->rf[q] & MF_USE) && x->r[q].v == m->r[k].v)
					return 1;
		}
	}
	(void)f;
	return 0;
}

/* Does an instruction of B in [from, to) read or write a part of d? */
static int
d_touched(const MFunc *f, const MBlock *B, size_t from, size_t to, MRef d)
{
	size_t j;
	int k, dl = d.sub, dh = d.w ? d.sub + d.w : f->vr.v[d.v].w;

	for (j = from; j < to; j++) {
		const MIns *m = &B->ins.v[j];
		if (m->guard == d.v)
			return 1;
		for (k = 0; k < m->nr; k++) {
			MRef r = m->r[k];
			int rl = r.sub, rh = r.w ? r.sub + r.w : f->vr.v[r.v].w;
			if (r.v == d.v && rl < dh && dl < rh)
				return 1;
		}
	}
	return 0;
}

/* x (at i) defines t, read only by y (at j > i): combine into y. */
static int
combine(MFunc *f, const Arch *a, MBlock *B, size_t i, size_t j)
{
	MIns *x = &B->ins.v[i], *y = &B->ins.v[j], nw;
	Tok tx[4], ty[4];
	Add s[3];
	int nx, ny, k, ns = 0, tpos = -1;
	u32 sh;

	ny = split(y->text, "IADD3", ty, 4);
	if (ny != 4 || ty[0].ref != 0 || (y->rf[0] & MF_USE))
		return 0;
	for (k = 1; k < 4; k++)
		if (ty[k].ref >= 0 && y->r[ty[k].ref].v == x->r[0].v) {
			if (tpos >= 0 || ty[k].pre)
				return 0;
			tpos = k;
		}
	if (tpos < 0)
		return 0;
	for (k = 1; k < 4; k++)
		if (k != tpos && !is_rz(f, y, &ty[k]))
			s[ns].m = y, s[ns++].t = ty[k];
	if (ns == 0) {
		/* y is "d = t + 0": x writes d, y goes */
		if (y->guard >= 0 || d_touched(f, B, i + 1, j, y->r[0]))
			return 0;
		x->r[0] = y->r[0];
		y->text = NULL;
		y->nr = 0;
		return 1;
	}
	if (!peep_pre(x->text, "IADD3 ") && !peep_pre(x->text, "SHF.L.U32 "))
		return 0;
	if ((nx = split(x->text, "IADD3", tx, 4)) == 4 && tx[0].ref == 0) {
		for (k = 1; k < 4; k++)
			if (!is_rz(f, x, &tx[k])) {
				if (ns == 3)
					return 0;
				s[ns].m = x, s[ns++].t = tx[k];
			}
		while (ns < 3) {
			memset(&s[ns].t, 0, sizeof s[ns].t);
			s[ns].t.ref = -1;
			strcpy(s[ns].t.lit, "RZ");
			s[ns++].m = y;
		}
		if (!try_iadd3(f, a, y, s, &nw))
			return 0;
	} else if ((nx = split(x->text, "SHF.L.U32", tx, 4)) == 4 && tx[0].ref == 0 && tx[1].ref >= 0 &&
		   !tx[1].pre && lit_x(tx[2].lit, &sh) && sh < 32 && is_rz(f, x, &tx[3]) && ns == 1) {
		Add l[2];
		char tail[16];
		l[0].m = x, l[0].t = tx[1];
		l[1] = s[0];
		peep_hex(peep_cat(tail, ", 0x"), sh);
		build(f, y, "LEA", l, 2, tail, &nw);
		if (!encodes(a, f, &nw))
			return 0;
	} else {
		return 0;
	}
	*y = nw;
	x->text = NULL;
	x->nr = 0;
	return 1;
}

static int
is_pt(const MFunc *f, const MIns *m, const Tok *t)
{
	if (t->ref >= 0)
		return m->r[t->ref].v == f->pt && !t->pre;
	return !strcmp(t->lit, "PT");
}

/* x (at i): "xSETP.<cmp>.AND t, PT, a, b, PT"; y (at j): "PLOP3.LUT d,
 * PT, p, q, PT, lut, 0x0" with t one of p, q.  When lut is "t bop p" or
 * "t bop !p" (bop AND, OR, XOR), y becomes "xSETP.<cmp>.<bop> d, PT, a,
 * b, [!]p" -- the comparison's own combining predicate, as ptxas does. */
static int
combine_setp(MFunc *f, const Arch *a, MBlock *B, size_t i, size_t j)
{
	static const char *const bops[] = { "AND", "OR", "XOR" };
	MIns *x = &B->ins.v[i], *y = &B->ins.v[j], nw;
	Tok tx[6], ty[8];
	Add s[4];
	u32 lut, zero;
	int tpos, opos, bop, neg, ta, tb, ok;
	const char *dot;
	char mn[64], op[72];

	if ((!peep_pre(x->text, "ISETP.") && !peep_pre(x->text, "FSETP.") && !peep_pre(x->text, "DSETP.")) ||
	    !peep_pre(y->text, "PLOP3.LUT "))
		return 0;
	dot = strchr(x->text, ' ');
	if (!dot || dot - x->text < 4 || dot - x->text >= (int)sizeof mn || !peep_pre(dot - 4, ".AND"))
		return 0;
	memcpy(mn, x->text, (size_t)(dot - x->text));
	mn[dot - x->text] = 0;
	/* operands of x: t, PT, a, b, PT */
	if (split(x->text, mn, tx, 6) != 5 || tx[0].ref != 0 || !is_pt(f, x, &tx[1]) || !is_pt(f, x, &tx[4]))
		return 0;
	if (split(y->text, "PLOP3.LUT", ty, 8) != 7 || ty[0].ref != 0 || !is_pt(f, y, &ty[1]) ||
	    !is_pt(f, y, &ty[4]) || ty[2].ref < 0 || ty[3].ref < 0 || ty[2].pre || ty[3].pre ||
	    !lit_x(ty[5].lit, &lut) || !lit_x(ty[6].lit, &zero) || zero)
		return 0;
	if (y->r[ty[2].ref].v == x->r[0].v && y->r[ty[3].ref].v != x->r[0].v)
		tpos = 2, opos = 3;
	else if (y->r[ty[3].ref].v == x->r[0].v && y->r[ty[2].ref].v != x->r[0].v)
		tpos = 3, opos = 2;
	else
		return 0;
	/* f(A, B) with C = PT: LUT bit A*4 + B*2 + 1 */
	for (bop = 0; bop < 3; bop++)
		for (neg = 0; neg < 2; neg++) {
			ok = 1;
			for (ta = 0; ta < 2; ta++)
				for (tb = 0; tb < 2; tb++) {
					int tv = tpos == 2 ? ta : tb, pv = (tpos == 2 ? tb : ta) ^ neg;
					int want = bop == 0 ? tv & pv : bop == 1 ? tv | pv : tv ^ pv;
					ok &= (int)(lut >> (ta * 4 + tb * 2 + 1) & 1) == want;
				}
			if (ok)
				goto found;
		}
	return 0;
found:
	memcpy(op, x->text, (size_t)(dot - 4 - x->text));
	strcpy(peep_cat(op + (dot - 4 - x->text), "."), bops[bop]);
	s[0].m = x, s[0].t = tx[1];
	s[1].m = x, s[1].t = tx[2];
	s[2].m = x, s[2].t = tx[3];
	s[3].m = y, s[3].t = ty[opos];
	s[3].t.pre = neg ? '!' : 0;
	build(f, y, op, s, 4, "", &nw);
	if (!encodes(a, f, &nw))
		return 0;
	*y = nw;
	x->text = NULL;
	x->nr = 0;
	return 1;
}

/* Every register m names (its refs and guard) to named. */
static void
name_refs(u8 *named, const MIns *m)
{
	int k;

	for (k = 0; k < m->nr; k++)
		named[m->r[k].v] = 1;
	if (m->guard >= 0)
		named[m->guard] = 1;
}

/* text with the '!' in front of the operand at offset at toggled when
 * neg (unchanged otherwise), in f's arena. */
static char *
toggle_bang(MFunc *f, char *text, int at, int neg)
{
	Buf t = {0};
	char *r;

	if (!neg)
		return text;
	if (at > 0 && text[at - 1] == '!') {
		buf_putn(&t, text, (size_t)at - 1);
	} else {
		buf_putn(&t, text, (size_t)at);
		buf_putc(&t, '!');
	}
	buf_puts(&t, text + at);
	r = arena_strdup(f->a, t.s);
	buf_free(&t);
	return r;
}

/* x (at i): "PLOP3.LUT t, PT, [!]p, PT, PT, lut, 0x0" computing !p or p;
 * its one reader y (at j) reads p instead, with the '!' toggled: as its
 * guard ("@!p") or as an operand where the ISA has the negated form. */
static int
forward_not(MFunc *f, const Arch *a, MBlock *B, size_t i, size_t j)
{
	MIns *x = &B->ins.v[i], *y = &B->ins.v[j], nw;
	Tok tx[8];
	u32 lut, zero;
	int neg, k, at;
	MRef p;

	if (split(x->text, "PLOP3.LUT", tx, 8) != 7 || tx[0].ref != 0 || !is_pt(f, x, &tx[1]) || tx[2].ref < 0 ||
	    (tx[2].pre && tx[2].pre != '!') || !is_pt(f, x, &tx[3]) || !is_pt(f, x, &tx[4]) ||
	    !lit_x(tx[5].lit, &lut) || !lit_x(tx[6].lit, &zero) || zero)
		return 0;
	/* f(A) with B = C = PT: LUT bits 3 (A = 0) and 7 (A = 1) */
	if ((lut >> 3 & 1) == 1 && (lut >> 7 & 1) == 0)
		neg = 1;
	else if ((lut >> 3 & 1) == 0 && (lut >> 7 & 1) == 1)
		neg = 0;
	else
		return 0;
	neg ^= tx[2].pre == '!';
	p = x->r[tx[2].ref];
	if (y->guard == x->r[0].v) {
		y->guard = p.v;
		y->guard_neg ^= (u8)neg;
		x->text = NULL;
		x->nr = 0;
		return 1;
	}
	for (k = 0; k < y->nr && y->r[k].v != x->r[0].v; k++)
		;
	if (k == y->nr || (y->rf[k] & MF_DEF) || (at = peep_hole(y, k)) < 0)
		return 0;
	nw = *y;
	nw.r[k] = p;
	nw.text = toggle_bang(f, y->text, at, neg);
	if (!encodes(a, f, &nw))
		return 0;
	*y = nw;
	x->text = NULL;
	x->nr = 0;
	return 1;
}

/* Toggle the negation of predicate q at its one reader after y (at j)
 * in B: a guard, or an operand that encodes with '!' toggled (its
 * registers to named). */
static int
negate_reader(MFunc *f, const Arch *a, MBlock *B, size_t j, int q, u8 *named)
{
	size_t r;
	int k, at;
	MIns *z, nw;

	for (r = j + 1; r < B->ins.n; r++) {
		z = &B->ins.v[r];
		if (!z->text)
			continue;
		if (z->guard == q) {
			for (k = 0; k < z->nr; k++)
				if (z->r[k].v == q)
					return 0;
			z->guard_neg ^= 1;
			name_refs(named, z);
			return 1;
		}
		for (k = 0; k < z->nr && z->r[k].v != q; k++)
			;
		if (k == z->nr)
			continue;
		if ((z->rf[k] & MF_DEF) || (at = peep_hole(z, k)) < 0)
			return 0;
		nw = *z;
		nw.text = toggle_bang(f, z->text, at, 1);
		if (!encodes(a, f, &nw))
			return 0;
		*z = nw;
		name_refs(named, z);
		return 1;
	}
	return 0;
}

/* y is "ISETP.{NE,EQ}.U32.AND q, PT, t, RZ, PT" testing x's result t
 * against zero: 0 (NE) or 1 (EQ); -1 when it is not. */
static int
setp_zero(const MFunc *f, const MIns *x, const MIns *y)
{
	Tok ty[6];
	int eq;

	if (peep_pre(y->text, "ISETP.NE.U32.AND "))
		eq = 0;
	else if (peep_pre(y->text, "ISETP.EQ.U32.AND "))
		eq = 1;
	else
		return -1;
	if (split(y->text, eq ? "ISETP.EQ.U32.AND" : "ISETP.NE.U32.AND", ty, 6) != 5 || ty[0].ref != 0 ||
	    !is_pt(f, y, &ty[1]) || !is_pt(f, y, &ty[4]) || ty[2].ref < 0 || ty[2].pre ||
	    y->r[ty[2].ref].v != x->r[0].v || !(is_rz(f, y, &ty[3]) || !strcmp(ty[3].lit, "0x0")))
		return -1;
	return eq;
}

/* x (at i): "LOP3.LUT t, a, b, c, lut, !PT"; y (at j): "ISETP.NE.U32.AND
 * q, PT, t, RZ, PT" -> "LOP3.LUT q, RZ, a, b, c, lut, !PT" (LOP3's own
 * predicate: the result is not zero).  ISETP.EQ too when q's one reader
 * takes the negation. */
static int
combine_lop_setp(MFunc *f, const Arch *a, MBlock *B, size_t i, size_t j, const MCounts *c, u8 *named)
{
	MIns *x = &B->ins.v[i], *y = &B->ins.v[j], nw;
	Tok tx[8];
	Add s[6];
	int eq, q, k;

	if ((eq = setp_zero(f, x, y)) < 0)
		return 0;
	if (split(x->text, "LOP3.LUT", tx, 8) != 6 || tx[0].ref != 0 || strcmp(tx[5].lit, "!PT"))
		return 0;
	q = y->r[0].v;
	if (eq && (y->guard >= 0 || c->defs[q] != 1 || c->uses[q] != 1))
		return 0;
	memset(&s[0], 0, sizeof s[0]);
	s[0].t.ref = -1;
	strcpy(s[0].t.lit, "RZ");
	s[0].m = x;
	for (k = 1; k < 6; k++)
		s[k].m = x, s[k].t = tx[k];
	build(f, y, "LOP3.LUT", s, 6, "", &nw);
	if (!encodes(a, f, &nw))
		return 0;
	if (eq && !negate_reader(f, a, B, j, q, named))
		return 0;
	*y = nw;
	x->text = NULL;
	x->nr = 0;
	return 1;
}

/* 0 or 1 for an RZ / 0x0 / 0x1 operand, or a register whose one
 * definition is "MOV r, 0x0/0x1"; else -1. */
static int
bit_lit(const MFunc *f, const MIns *m, const Tok *t, const MCounts *c)
{
	size_t b, i;
	u32 v;

	if (is_rz(f, m, t) || !strcmp(t->lit, "0x0"))
		return 0;
	if (t->ref < 0)
		return !strcmp(t->lit, "0x1") ? 1 : -1;
	if (t->pre || c->defs[m->r[t->ref].v] != 1 || f->vr.v[m->r[t->ref].v].w != 1)
		return -1;
	for (b = 0; b < f->b.n; b++)
		for (i = 0; i < f->b.v[b].ins.n; i++) {
			const MIns *d = &f->b.v[b].ins.v[i];
			if (d->text && d->nr == 1 && d->r[0].v == m->r[t->ref].v && (d->rf[0] & MF_DEF))
				return d->guard < 0 && mov_bit(d->text, &v) && v <= 1 ? (int)v : -1;
		}
	return -1;
}

/* x (at i): "SEL t, 1, 0, [!]p" (a predicate as 0/1); y (at j):
 * "ISETP.{NE,EQ}.U32.AND q, PT, t, RZ, PT" -> "PLOP3.LUT q, PT, [!]p,
 * PT, PT, 0x80, 0x0" (a predicate copy, itself foldable). */
static int
combine_sel_setp(MFunc *f, const Arch *a, MBlock *B, size_t i, size_t j, const MCounts *c)
{
	MIns *x = &B->ins.v[i], *y = &B->ins.v[j], nw;
	Tok tx[6];
	Add s[2];
	int eq, one, zero, neg;

	if ((eq = setp_zero(f, x, y)) < 0)
		return 0;
	if (split(x->text, "SEL", tx, 6) != 4 || tx[0].ref != 0 || tx[3].ref < 0 || tx[3].pre == '-')
		return 0;
	one = bit_lit(f, x, &tx[1], c);
	zero = bit_lit(f, x, &tx[2], c);
	if (one < 0 || zero < 0 || one == zero)
		return 0;
	/* t = p ? one : zero; q = (t != 0) ^ eq */
	neg = (one == 0) ^ eq ^ (tx[3].pre == '!');
	memset(s, 0, sizeof s);
	s[0].m = x, s[0].t = tx[3];
	s[0].t.pre = neg ? '!' : 0;
	s[1].m = x, s[1].t.ref = -1;
	strcpy(s[1].t.lit, "PT, PT, 0x80, 0x0");
	build(f, y, "PLOP3.LUT", s, 2, "", &nw);
	/* "PLOP3.LUT q, [!]p, PT, ...": PT goes first */
	{
		Buf t = {0};
		const char *comma = strchr(nw.text, ',');
		buf_putn(&t, nw.text, (size_t)(comma - nw.text));
		buf_puts(&t, ", PT");
		buf_puts(&t, comma);
		nw.text = arena_strdup(f->a, t.s);
		buf_free(&t);
	}
	if (!encodes(a, f, &nw))
		return 0;
	*y = nw;
	x->text = NULL;
	x->nr = 0;
	return 1;
}

/* Can try_pair apply to x and its reader y?  Only forward_not takes any
 * reader; the others need y to be "PLOP3.LUT " (combine_setp), "ISETP."
 * (setp_zero) or "IADD3 " (combine's split). */
static int
may_pair(const MIns *x, const MIns *y)
{
	return peep_pre(x->text, "PLOP3.LUT ") || peep_pre(y->text, "IADD3 ") || peep_pre(y->text, "ISETP.") ||
	       peep_pre(y->text, "PLOP3.LUT ");
}

/* The combinations of x (at i) and its reader y (at j); 1 when one
 * applied. */
static int
try_pair(MFunc *f, const Arch *a, MBlock *B, size_t i, size_t j, const MCounts *c, u8 *named)
{
	const MIns *x = &B->ins.v[i], *y = &B->ins.v[j];

	if (peep_pre(x->text, "PLOP3.LUT "))
		return forward_not(f, a, B, i, j);
	if (f->vr.v[x->r[0].v].cls == RC_P)
		return combine_setp(f, a, B, i, j);
	if (peep_pre(x->text, "LOP3.LUT ") && peep_pre(y->text, "ISETP."))
		return combine_lop_setp(f, a, B, i, j, c, named);
	if (peep_pre(x->text, "SEL ") && peep_pre(y->text, "ISETP."))
		return combine_sel_setp(f, a, B, i, j, c);
	return combine(f, a, B, i, j);
}

int
peep_combine(MFunc *f, const Arch *a, u8 *named)
{
	MCounts c;
	MIns x0, y0;
	size_t b, i, j, w;
	int n = 0;

	mir_counts(f, &c);
	for (b = 0; b < f->b.n; b++) {
		MBlock *B = &f->b.v[b];
		for (i = 0; i < B->ins.n; i++) {
			MIns *x = &B->ins.v[i];
			int t, k;
			if (!x->text || x->nr < 1 || x->rf[0] != MF_DEF || x->target >= 0)
				continue;
			t = x->r[0].v;
			if ((f->vr.v[t].cls != RC_R && f->vr.v[t].cls != RC_P) || f->vr.v[t].w != 1 ||
			    f->vr.v[t].fixed || c.defs[t] != 1 || c.uses[t] != 1)
				continue;
			if (x->copy || x->guard >= 0)
				continue;
			for (k = 1; k < x->nr && !(x->rf[k] & MF_DEF); k++)
				;
			if (k < x->nr)
				continue;
			/* the reader, later in this block */
			for (j = i + 1; j < B->ins.n; j++) {
				const MIns *y = &B->ins.v[j];
				int q, reads = 0;
				if (!y->text)
					continue;
				for (q = 0; q < y->nr; q++)
					reads |= y->r[q].v == t;
				if (reads || y->guard == t)
					break;
			}
			if (j == B->ins.n || !may_pair(x, &B->ins.v[j]))
				continue;
			if (inputs_change(f, B, i + 1, j, x))
				continue;
			if (B->ins.v[j].guard == t && !peep_pre(x->text, "PLOP3.LUT "))
				continue;   /* only a predicate's NOT goes into a guard */
			x0 = *x, y0 = B->ins.v[j];
			if (!try_pair(f, a, B, i, j, &c, named))
				continue;
			name_refs(named, &x0);
			name_refs(named, &y0);
			n++;
		}
		for (i = w = 0; i < B->ins.n; i++)
			if (B->ins.v[i].text && w++ != i)   /* no copy before the first removal */
				B->ins.v[w - 1] = B->ins.v[i];
		B->ins.n = w;
	}
	mir_counts_free(&c);
	return n;
}
