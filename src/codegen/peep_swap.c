/* peep_swap.c -- a literal into a register so that a constant pair fits
 * (part of peep_fold, see peep_fold.c).
 *
 * sm_80's IMAD.WIDE takes c[..] for its 64-bit addend only when the
 * multiplier is a register: "IMAD.WIDE.U32 d, i, 0x4, p" with p a pair
 * of parameter words becomes "MOV t, 0x4; IMAD.WIDE.U32 d, i, t,
 * c[0x0][0x160]" (ptxas's form).  Done for a pair whose every reader
 * takes the swap, when the MOVs added (one per literal and block) are
 * fewer than the two loads that go. */
#include <stdio.h>
#include <string.h>

#include "codegen/peep_fold.h"

/* sscanf(p, "0x%x%1[^,]", x, tail) == 1: hex digits, then ',' or the end */
static int
hex_operand(const char *p, u32 *x)
{
	const char *e;
	char tail[4];
	int r = peep_scan_x(p, "0x", x, &e);

	if (r > 0)
		r = !*e || *e == ',';
	return r >= 0 ? r : sscanf(p, "0x%x%1[^,]", x, tail) == 1;
}

/* The one hex literal operand of m (span), other than hole k; 0 if none
 * or several. */
static int
hex_literal(const MIns *m, int *from, int *to, u32 *val)
{
	int s[8], e[8], n, i, found = 0;
	u32 x;

	n = fold_operands(m->text, s, e, 8);
	for (i = 1; i < n; i++) {
		const char *p = m->text + s[i];
		int neg = *p == '-';
		if (!hex_operand(p + neg, &x) || memchr(p, 1, (size_t)(e[i] - s[i])))
			continue;
		if (found++)
			return 0;
		*from = s[i], *to = e[i], *val = neg ? (u32)-x : x;
	}
	return found == 1;
}

/* m with its literal [from, to) as a new hole reading t, into *out. */
static void
with_reg(MFunc *f, const MIns *m, int from, int to, int t, MIns *out)
{
	Buf b = {0};

	*out = *m;
	buf_putn(&b, m->text, (size_t)from);
	buf_putc(&b, 1);
	buf_putc(&b, (char)(m->nr + 1));
	buf_puts(&b, m->text + to);
	out->text = arena_strdup(f->a, b.s);
	buf_free(&b);
	out->r[m->nr] = mref(t);
	out->rf[m->nr] = MF_USE;
	out->nr = m->nr + 1;
}

/* Reader m's one literal (its span and value), when it has one and room
 * for a register more. */
static int
swap_lit(const MIns *m, int *from, int *to, u32 *val)
{
	return m->nr < MI_MAXREF && hex_literal(m, from, to, val);
}

/* Can (or, apply: does) reader m take the pair v as c[off] after its
 * literal [from, to) (swap_lit's) moves to register t? */
static int
swap_one(Fold *F, MIns *m, int k, int from, int to, int t, u32 off, int apply)
{
	MIns tmp;
	int at;
	char lit[40];
	int ok;

	with_reg(F->f, m, from, to, t, &tmp);
	at = peep_hole(&tmp, k);
	peep_cbank(lit, off);
	ok = peep_encodes(F->a, fold_trial(F, &tmp, at, at + 2, lit));
	F->cbank_ok |= ok;
	if (ok && apply) {
		fold_uses(F, m, -1);
		*m = tmp;
		peep_inline(F->f, m, k, at, at + 2, lit);
		fold_uses(F, m, 1);
	}
	return ok;
}

typedef struct {
	int b, i, k;
	int from, to;     /* its literal (swap_lit) */
	u32 val;
} Reader;

static void
insert_mov(MFunc *f, int b, size_t at, int t, u32 val)
{
	MBlock *B = &f->b.v[b];
	MIns m = {0};
	char txt[32];

	peep_hex(peep_cat(txt, "MOV \001\001, 0x"), val);
	m.text = arena_strdup(f->a, txt);
	m.r[0] = mref(t);
	m.rf[0] = MF_DEF;
	m.nr = 1;
	m.guard = -1;
	m.target = -1;
	mir_insert(B, at, m);
}

/* The readers of a pair (whole, read only): n of them, or -1 when some
 * other use. */
typedef struct {
	int n;
	Reader rd[16];
} Readers;

/* Add ref k of m (at b, i) to the readers of its pair R. */
static void
add_reader(Readers *R, const MIns *m, int b, int i, int k)
{
	if (R->n < 0)
		return;
	if ((m->rf[k] & MF_DEF) || m->r[k].sub || (m->r[k].w && m->r[k].w != 2) || R->n == 16 || m->target >= 0) {
		R->n = -1;
		return;
	}
	R->rd[R->n].b = b, R->rd[R->n].i = i, R->rd[R->n].k = k;
	R->n++;
}

/* The readers of every pair p < nslot with slot[p] >= 0 into
 * rs[slot[p]], in one walk of the function. */
static void
pair_readers(Fold *F, const int *slot, int nslot, Readers *rs)
{
	MFunc *f = F->f;
	size_t b, i;
	int k, v;

	for (b = 0; b < f->b.n; b++)
		for (i = 0; i < f->b.v[b].ins.n; i++) {
			const MIns *m = &f->b.v[b].ins.v[i];
			for (k = 0; k < m->nr; k++)
				if ((m->rf[k] & MF_USE) && (v = m->r[k].v) >= 0 && v < nslot && slot[v] >= 0)
					add_reader(&rs[slot[v]], m, (int)b, (int)i, k);
		}
}

/* Literal registers made so far: the MOV of val at (b, i) defines t;
 * later readers of the same block share it. */
typedef struct {
	int b, i, t;
	u32 val;
} Lit;

typedef struct {
	Lit v[64];
	int n;
} Lits;

static int
lit_find(const Lits *L, int b, int i, u32 val)
{
	int q;
	for (q = 0; q < L->n; q++)
		if (L->v[q].b == b && L->v[q].val == val && L->v[q].i < i)
			return q;
	return -1;
}

/* The readers of the pairs as a swap changes the function (what a walk
 * would find again): an instruction inserted at (b, at) moves those at
 * or after it (k < 0), or ref k of the one at (b, at) goes and its later
 * refs move down (k >= 0). */
static void
readers_move(Readers *rs, int np, int b, int at, int k)
{
	int p, j;

	for (p = 0; p < np; p++)
		for (j = 0; j < rs[p].n; j++) {
			Reader *r = &rs[p].rd[j];
			if (r->b != b)
				continue;
			if (k < 0)
				r->i += r->i >= at;
			else
				r->k -= r->i == at && r->k > k;
		}
}

/* Swap pair v for its readers rs[self] (changed: every pair's readers
 * move with the function; dry: only whether it would). */
static int
swap_pair(Fold *F, int v, Readers *rs, int np, int self, int probe, Lits *L, int dry)
{
	MFunc *f = F->f;
	MIns *m;
	Reader *rd = rs[self].rd;
	int j, q, movs = 0, from, to, n = rs[self].n;
	u32 off = part(F, v, 0)->val, val;

	if (n <= 0)
		return 0;
	/* the first reader's c[..] slot asked first: on sm_90 no reader has
	   one, the cheapest no */
	m = &f->b.v[rd[0].b].ins.v[rd[0].i];
	if (!fold_may_cbank(F, m, peep_hole(m, rd[0].k)))
		return 0;
	for (j = 0; j < n; j++) {
		if (!swap_lit(&f->b.v[rd[j].b].ins.v[rd[j].i], &rd[j].from, &rd[j].to, &rd[j].val))
			return 0;
		for (q = 0; q < j && (rd[q].b != rd[j].b || rd[q].val != rd[j].val); q++)
			;
		movs += q == j && lit_find(L, rd[j].b, rd[j].i, rd[j].val) < 0;
		if (movs >= 2 || L->n + movs > 64)
			return 0;
	}
	/* the probes last: the MOVs, counted from the texts, rule out most
	   pairs that do not swap */
	for (j = 0; j < n; j++) {
		m = &f->b.v[rd[j].b].ins.v[rd[j].i];
		if ((j && !fold_may_cbank(F, m, peep_hole(m, rd[j].k))) ||
		    !swap_one(F, m, rd[j].k, rd[j].from, rd[j].to, probe, off, 0))
			return 0;
	}
	if (dry)
		return n;
	for (j = 0; j < n; j++) {
		int l = lit_find(L, rd[j].b, rd[j].i, rd[j].val), t;
		if (l < 0) {
			/* a new MOV right before this reader */
			t = mvreg(f, RC_R, 1);
			f->vr.v[t].tmp = 1;
			insert_mov(f, rd[j].b, (size_t)rd[j].i, t, rd[j].val);
			fold_inserted(F, rd[j].b, rd[j].i);
			/* (this pair's readers too: rd[j] and those after it in
			   its block, as they follow it) */
			readers_move(rs, np, rd[j].b, rd[j].i, -1);
			for (q = 0; q < L->n; q++)
				L->v[q].i += L->v[q].b == rd[j].b && L->v[q].i >= rd[j].i;
			L->v[L->n].b = rd[j].b, L->v[L->n].i = rd[j].i - 1;
			L->v[L->n].t = t, L->v[L->n].val = rd[j].val;
			l = L->n++;
		}
		/* (the literal found again: a reader that reads the pair twice
		   has a new text after its first) */
		m = &f->b.v[rd[j].b].ins.v[rd[j].i];
		if (swap_lit(m, &from, &to, &val) && swap_one(F, m, rd[j].k, from, to, L->v[l].t, off, 1))
			readers_move(rs, np, rd[j].b, rd[j].i, rd[j].k);
		vec_push(&F->swapped, m->text);
	}
	return n;
}

/* Is vreg v a constant pair of c[] words (8 aligned bytes)? */
static int
cbank_pair(Fold *F, int v)
{
	Part *a, *b;

	if (F->f->vr.v[v].w != 2)
		return 0;
	a = part(F, v, 0), b = part(F, v, 1);
	return a->kind == K_CBANK && b->kind == K_CBANK && b->val == a->val + 4 && !(a->val % 8) && a->guard < 0 &&
	       b->guard < 0;
}

int
fold_swap_pairs(Fold *F, int dry)
{
	MFunc *f = F->f;
	size_t v, nv = f->vr.n;
	int n = 0, probe = -1, np = 0, q, *slot;
	Readers *rs;
	Lits L;

	/* the pairs, their readers found in one walk (a swap moves the
	   other pairs' readers as it moves and rewrites instructions) */
	slot = xmalloc((nv + 1) * sizeof *slot);
	for (v = 0; v < nv; v++)
		slot[v] = cbank_pair(F, (int)v) ? np++ : -1;
	if (!np) {
		free(slot);
		return 0;
	}
	rs = xmalloc((size_t)np * sizeof *rs);
	for (q = 0; q < np; q++)
		rs[q].n = 0;
	pair_readers(F, slot, (int)nv, rs);
	L.n = 0;
	for (v = 0; v < nv; v++) {
		int k;
		if ((q = slot[v]) < 0)
			continue;
		if (probe < 0)   /* the literal's register (dry: a stand-in, as a trial
				    renders any R vreg by its place) */
			probe = dry ? (int)v : mvreg(f, RC_R, 1);
		k = swap_pair(F, (int)v, rs, np, q, probe, &L, dry);
		n += k;
		if (dry && k)
			break;
	}
	free(rs);
	free(slot);
	return n;
}
