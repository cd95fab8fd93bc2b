/* peep.c -- machine-IR clean-ups before register allocation.
 *
 * Copy forwarding.  Selection often computes into a temporary and copies
 * it out ("IADD3 t, ...; MOV d, t") or copies a value into a temporary
 * that a later instruction reads.  Within a block:
 *   - forward: "X t; ...; MOV d, t" where t (one register) is written only
 *     by X and read only by the MOV, and nothing in between touches d:
 *     X writes d directly and the MOV goes;
 *   - backward: "MOV t, s; ...; Y t" where t is written only by the MOV
 *     and every read of t follows it in the block, and s is not written
 *     before the last of them: the readers read s and the MOV goes.
 * Constant loads: the two LDC halves of a 64-bit parameter become LDC.64. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/peep.h"

static int
parts_overlap(const MFunc *f, MRef a, MRef b)
{
	int wa, wb;
	if (a.v != b.v)
		return 0;
	wa = a.w ? a.w : f->vr.v[a.v].w - a.sub;
	wb = b.w ? b.w : f->vr.v[b.v].w - b.sub;
	return a.sub < b.sub + wb && b.sub < a.sub + wa;
}

/* Does m read (rw & MF_USE) or write (MF_DEF) any part of r? */
static int
touches(const MFunc *f, const MIns *m, MRef r, int rw)
{
	int k;
	for (k = 0; k < m->nr; k++)
		if ((m->rf[k] & rw) && parts_overlap(f, m->r[k], r))
			return 1;
	if ((rw & MF_USE) && m->guard == r.v)
		return 1;
	return 0;
}

static int
plain_copy(const MFunc *f, const MIns *m)
{
	return m->copy && m->nr == 2 && (m->rf[0] & MF_DEF) && (m->rf[1] & MF_USE) &&
	       f->vr.v[m->r[0].v].cls == f->vr.v[m->r[1].v].cls && !f->vr.v[m->r[0].v].fixed;
}

static int
one_reg(const MFunc *f, MRef r)
{
	return f->vr.v[r.v].w == 1 && r.sub == 0 && !f->vr.v[r.v].fixed;
}

static int
forward(MFunc *f, MBlock *B, size_t i, const MCounts *c)
{
	MIns *mv = &B->ins.v[i];
	MRef d = mv->r[0], t = mv->r[1];
	size_t j;
	int k;

	if (!one_reg(f, t) || c->defs[t.v] != 1 || c->uses[t.v] != 1 || !f->vr.v[t.v].tmp)
		return 0;
	for (j = i; j-- > 0;) {
		MIns *x = &B->ins.v[j];
		for (k = 0; k < x->nr; k++)
			if ((x->rf[k] & MF_DEF) && x->r[k].v == t.v) {
				if (x->rf[k] & MF_USE || x->guard != mv->guard || x->guard_neg != mv->guard_neg)
					return 0;
				x->r[k] = d;
				return 1;
			}
		if (touches(f, x, d, MF_DEF | MF_USE))
			return 0;
	}
	return 0;
}

static int
backward(MFunc *f, MBlock *B, size_t i, const MCounts *c)
{
	MIns *mv = &B->ins.v[i];
	MRef t = mv->r[0], s = mv->r[1];
	size_t j, last = i;
	int k, seen = 0;

	if (!one_reg(f, t) || c->defs[t.v] != 1 || !f->vr.v[t.v].tmp || mv->guard >= 0)
		return 0;
	/* every read of t is in this block after the MOV, before s changes */
	for (j = i + 1; j < B->ins.n && seen < c->uses[t.v]; j++) {
		const MIns *x = &B->ins.v[j];
		for (k = 0; k < x->nr; k++)
			if ((x->rf[k] & MF_USE) && x->r[k].v == t.v)
				seen++, last = j;
		if (x->guard == t.v)
			return 0;
		if (seen < c->uses[t.v] && touches(f, x, s, MF_DEF))
			return 0;
	}
	if (seen != c->uses[t.v])
		return 0;
	for (j = i + 1; j <= last; j++) {
		MIns *x = &B->ins.v[j];
		for (k = 0; k < x->nr; k++)
			if ((x->rf[k] & MF_USE) && x->r[k].v == t.v)
				x->r[k] = s;
	}
	return 1;
}

/* sscanf(text, "LDC \001\001, c[0x0][0x%x]", x) == 1 */
static int
ldc_word(const char *text, u32 *x)
{
	const char *e;
	int r = peep_scan_x(text, "LDC \001\001, c[0x0][0x", x, &e);

	return r >= 0 ? r : sscanf(text, "LDC \001\001, c[0x0][0x%x]", x) == 1;
}

/* "LDC v, c[0x0][X]; LDC v.1, c[0x0][X+4]" (the two halves of a 64-bit
 * vreg, X 8-aligned) -> "LDC.64 v, c[0x0][X]". */
static int
ldc_pair(MFunc *f, MBlock *B, size_t i)
{
	MIns *a = &B->ins.v[i], *b = &B->ins.v[i + 1];
	u32 x, y;
	char t[64];

	if (a->nr != 1 || b->nr != 1 || a->guard != b->guard || a->guard_neg != b->guard_neg ||
	    a->r[0].v != b->r[0].v || a->r[0].sub != 0 || b->r[0].sub != 1 || f->vr.v[a->r[0].v].w != 2)
		return 0;
	if (!ldc_word(a->text, &x) || !ldc_word(b->text, &y) || y != x + 4 || x % 8)
		return 0;
	strcpy(peep_hex(peep_cat(t, "LDC.64 \001\001, c[0x0][0x"), x), "]");
	a->text = arena_strdup(f->a, t);
	a->r[0] = mref(a->r[0].v);
	b->text = NULL;
	return 1;
}

int
peep_ldc64(MFunc *f)
{
	size_t b, i, j;
	int n = 0;

	for (b = 0; b < f->b.n; b++) {
		MBlock *B = &f->b.v[b];
		for (i = 0; i + 1 < B->ins.n; i++)
			if (B->ins.v[i].text && B->ins.v[i + 1].text && ldc_pair(f, B, i))
				n++;
		for (i = j = 0; i < B->ins.n; i++)
			if (B->ins.v[i].text && j++ != i)   /* no copy before the first removal */
				B->ins.v[j - 1] = B->ins.v[i];
		B->ins.n = j;
	}
	return n;
}

/* Group forwarding: "X t (a pair or quad, written whole); MOV d.0, t.0;
 * MOV d.1, t.1 ..." with d as wide as t, the copies t's only readers and
 * nothing touching d in between: X writes d and the copies go. */
static int
forward_group(MFunc *f, MBlock *B, size_t i, const MCounts *c)
{
	MIns *x = &B->ins.v[i];
	MRef t;
	int k, w, d = -1, seen = 0;
	size_t j, *at;

	if (x->nr < 1 || !(x->rf[0] & MF_DEF) || (x->rf[0] & MF_USE) || x->r[0].sub || x->copy)
		return 0;
	t = x->r[0];
	w = f->vr.v[t.v].w;
	if (w < 2 || (t.w && t.w != w) || !f->vr.v[t.v].tmp || c->defs[t.v] != 1 || c->uses[t.v] != w)
		return 0;
	at = xcalloc((size_t)w, sizeof *at);
	for (j = i + 1; j < B->ins.n && seen < w; j++) {
		MIns *m = &B->ins.v[j];
		int uses_t = 0;
		for (k = 0; k < m->nr; k++)
			uses_t |= m->r[k].v == t.v;
		if (!uses_t) {
			if (d >= 0 && touches(f, m, mref(d), MF_DEF | MF_USE))
				goto no;
			continue;
		}
		if (!plain_copy(f, m) || m->r[1].v != t.v || m->r[1].w > 1 || m->guard != x->guard ||
		    m->guard_neg != x->guard_neg || f->vr.v[m->r[0].v].w != w || m->r[0].sub != m->r[1].sub ||
		    (d >= 0 && m->r[0].v != d) || at[m->r[1].sub])
			goto no;
		d = m->r[0].v;
		at[m->r[1].sub] = j + 1;
		seen++;
	}
	if (seen != w || f->vr.v[d].fixed)
		goto no;
	x->r[0] = mref(d);
	for (k = 0; k < w; k++) {
		B->ins.v[at[k] - 1].text = NULL;
		B->ins.v[at[k] - 1].nr = 0;
	}
	free(at);
	return w;
no:
	free(at);
	return 0;
}

int
peep_copies(MFunc *f)
{
	MCounts c;
	size_t b, i, j;
	int n = 0;

	mir_counts(f, &c);
	for (b = 0; b < f->b.n; b++) {
		MBlock *B = &f->b.v[b];
		for (i = 0; i < B->ins.n; i++) {
			MIns *m = &B->ins.v[i];
			if (!m->text)
				continue;
			n += forward_group(f, B, i, &c);
			if (!plain_copy(f, m))
				continue;
			if (forward(f, B, i, &c) || backward(f, B, i, &c)) {
				m->nr = 0;  /* mark deleted */
				m->text = NULL;
				n++;
			}
		}
		for (i = j = 0; i < B->ins.n; i++)
			if (B->ins.v[i].text && j++ != i)   /* no copy before the first removal */
				B->ins.v[j - 1] = B->ins.v[i];
		B->ins.n = j;
	}
	mir_counts_free(&c);
	return n;
}

/* Does text name the register R1 ("[R1+0x8]", "R1," -- not R10, UR1)? */
static int
names_r1(const char *t)
{
	const char *p;

	for (p = t; (p = strchr(p, 'R')); p++)   /* strchr reads a word at a time, strstr a byte */
		if (p[1] == '1' && (p == t || !(p[-1] == '_' || (p[-1] >= 'A' && p[-1] <= 'Z') || (p[-1] >= 'a' && p[-1] <= 'z') ||
				 (p[-1] >= '0' && p[-1] <= '9'))) &&
		    !(p[2] >= '0' && p[2] <= '9'))
			return 1;
	return 0;
}

int
peep_stack(MFunc *f)
{
	size_t b, i, at = 0;
	int k, found = 0, on_r1 = 0;

	if (!f->b.n)
		return 0;
	for (i = 0; i < f->b.v[0].ins.n; i++) {
		const MIns *m = &f->b.v[0].ins.v[i];
		if (m->nr == 0 && m->guard < 0 &&
		    (!strcmp(m->text, "MOV R1, c[0x0][0x28]") || !strcmp(m->text, "LDC R1, c[0x0][0x28]"))) {
			at = i, found = 1;
			break;
		}
	}
	if (!found)
		return 0;
	/* A ref's registers lie within its vreg's (mir_verify): with no general
	 * vreg on R1 no ref can be, and the texts alone decide. */
	for (i = 0; i < f->vr.n && !on_r1; i++) {
		const MVreg *v = &f->vr.v[i];
		on_r1 = v->cls == RC_R && !v->fixed && v->phys <= 1 && 1 < v->phys + v->w;
	}
	for (b = 0; b < f->b.n; b++)
		for (i = 0; i < f->b.v[b].ins.n; i++) {
			const MIns *m = &f->b.v[b].ins.v[i];
			if (b == 0 && i == at)
				continue;
			if (names_r1(m->text))
				return 0;
			for (k = 0; on_r1 && k < m->nr; k++) {
				const MVreg *v = &f->vr.v[m->r[k].v];
				int lo = v->phys + m->r[k].sub, n = m->r[k].w ? m->r[k].w : v->w - m->r[k].sub;
				if (v->cls == RC_R && !v->fixed && lo <= 1 && 1 < lo + n)
					return 0;
			}
		}
	memmove(&f->b.v[0].ins.v[at], &f->b.v[0].ins.v[at + 1], (f->b.v[0].ins.n - at - 1) * sizeof(MIns));
	f->b.v[0].ins.n--;
	return 1;
}
