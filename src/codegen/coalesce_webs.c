/* coalesce_webs.c -- renumber the independent values of a vreg (webs)
 * before coalescing (ra_live.h).
 *
 * A vreg of selection is often written several times with unrelated
 * values: a PTX register redefined in each inline-asm scope, a register
 * of a fixed sequence (isel_seq.c) reused for each load.  As one vreg
 * those values interfere with everything live across any of them, so
 * copies out of one of them cannot be coalesced.  A web is a set of
 * definitions that reach a common use (reaching definitions over the
 * CFG, unioned at each use); each web gets a vreg of its own.
 *
 * Only vregs whose every definition writes the whole vreg are split (a
 * partial write would need a web per part).  A guarded definition that
 * does not kill (ra_kills) also reads the value it may keep, so it joins
 * the webs that reach it. */
#include <stdlib.h>
#include <string.h>

#include "codegen/ra_live.h"

/* A reference to a vreg being split, in program order: each
 * instruction's uses (its guard, then the refs it only reads), then its
 * defs.  The passes below walk these, not the code. */
typedef struct {
	int b, i, k;   /* block, instruction, ref (-1: the guard) */
	int v;
	int d;         /* a def: its id; a use: a definition reaching it, or -1 */
	u8 def, kills; /* a def; one that replaces every reaching definition */
} Ev;

typedef struct {
	MFunc *f;
	int nv, nd;           /* vregs, definitions tracked */
	u8 *ok;               /* per vreg: split it */
	int *dfirst, *ndef;   /* per vreg: its definition ids dfirst..+ndef */
	int *uf;              /* union-find over definitions */
	size_t W;             /* u64 words per definition set */
	Ev *ev;               /* the references of the vregs split */
	int *ebase;           /* per block: its first reference in ev (nb + 1) */
} Webs;

static int
find(int *uf, int x)
{
	while (uf[x] != x)
		x = uf[x] = uf[uf[x]];
	return x;
}

static void
unite(int *uf, int a, int b)
{
	a = find(uf, a);
	b = find(uf, b);
	if (a != b)
		uf[a > b ? a : b] = a < b ? a : b;
}

/* Does def ref k of m replace every reaching definition of its vreg?
 * (Not when it also reads it or is a guarded update.) */
static int
def_kills(const MFunc *f, const MIns *m, int k)
{
	return !(m->rf[k] & MF_USE) && ra_kills(f, m, m->r[k]);
}

/* Which vregs to split: written whole, never twice by one instruction,
 * at least twice.  Each of their definitions gets an id (in program
 * order), and ev lists their references only, in the order of Ev (ebase
 * per block).  A first walk counts the definitions (and finds the
 * partial writes); the references are listed only when some vreg is
 * split (nd > 0), and only those of the vregs split. */
static void
number_defs(Webs *w)
{
	MFunc *f = w->f;
	size_t b, i, nref = 0, nv1 = (size_t)w->nv + 1;
	int j, k, v, n = 0, *cnt;

	/* one zeroed block: dfirst, ndef (counted in cnt), ok */
	w->dfirst = xcalloc(nv1 * (2 * sizeof(int) + 1), 1);
	w->ndef = cnt = w->dfirst + nv1;
	w->ok = (u8 *)(cnt + nv1);
	for (v = 0; v < w->nv; v++)
		w->ok[v] = !f->vr.v[v].fixed;
	for (b = 0; b < f->b.n; b++)
		for (i = 0; i < f->b.v[b].ins.n; i++) {
			const MIns *m = &f->b.v[b].ins.v[i];
			nref += (size_t)m->nr + 1;
			for (k = 0; k < m->nr; k++) {
				int x = m->r[k].v;
				if (!(m->rf[k] & MF_DEF))
					continue;
				if (m->r[k].sub || (m->r[k].w && m->r[k].w != f->vr.v[x].w))
					w->ok[x] = 0;   /* a partial write */
				for (j = 0; j < k; j++)
					if ((m->rf[j] & MF_DEF) && m->r[j].v == x)
						w->ok[x] = 0;
				cnt[x]++;
			}
		}
	for (v = 0; v < w->nv; v++) {
		if (cnt[v] < 2)
			w->ok[v] = 0;
		w->dfirst[v] = w->nd;
		if (w->ok[v])
			w->nd += cnt[v];
		cnt[v] = 0;
	}
	if (!w->nd)
		return;
	/* one block: ev, uf, ebase */
	w->ev = xmalloc((nref + 1) * sizeof *w->ev + ((size_t)w->nd + f->b.n + 2) * sizeof(int));
	w->uf = (int *)(w->ev + nref + 1);
	w->ebase = w->uf + w->nd + 1;
	for (k = 0; k < w->nd; k++)
		w->uf[k] = k;
	w->W = ((size_t)w->nd + 63) / 64;
	for (b = 0; b < f->b.n; b++) {
		w->ebase[b] = n;
		for (i = 0; i < f->b.v[b].ins.n; i++) {
			const MIns *m = &f->b.v[b].ins.v[i];
			if (m->guard >= 0 && w->ok[m->guard])
				w->ev[n++] = (Ev){ (int)b, (int)i, -1, m->guard, -1, 0, 0 };
			for (k = 0; k < m->nr; k++)
				if (m->rf[k] == MF_USE && w->ok[m->r[k].v])
					w->ev[n++] = (Ev){ (int)b, (int)i, k, m->r[k].v, -1, 0, 0 };
			for (k = 0; k < m->nr; k++) {
				int x = m->r[k].v;
				if ((m->rf[k] & MF_DEF) && w->ok[x])
					w->ev[n++] = (Ev){ (int)b, (int)i, k, x, w->dfirst[x] + cnt[x]++, 1,
							   (u8)def_kills(f, m, k) };
			}
		}
	}
	w->ebase[f->b.n] = n;   /* cnt (ndef) counts the defs of the vregs split again */
}

/* The bits [lo, hi) of word x of a set: a mask. */
static u64
word_mask(size_t x, int lo, int hi)
{
	u64 m = ~0ull;
	if ((size_t)lo > 64 * x)
		m &= ~0ull << (lo - 64 * x);
	if ((size_t)hi < 64 * (x + 1))
		m &= ~(~0ull << (hi - 64 * x));
	return m;
}

/* Clears (or, with set, sets) v's definitions in s: a word at a time
 * (a vreg of a long branchy kernel has thousands). */
static void
defs_put(const Webs *w, u64 *s, int v, int set)
{
	int lo = w->dfirst[v], hi = lo + w->ndef[v];
	size_t x;

	for (x = (size_t)lo / 64; hi > lo && x <= (size_t)(hi - 1) / 64; x++)
		s[x] = set ? s[x] | word_mask(x, lo, hi) : s[x] & ~word_mask(x, lo, hi);
}

/* The definitions of v in cur, all unioned: one of them (-1 if none). */
static int
reaching(Webs *w, const u64 *cur, int v)
{
	int lo = w->dfirst[v], hi = lo + w->ndef[v], rep = -1;
	size_t x;

	for (x = (size_t)lo / 64; hi > lo && x <= (size_t)(hi - 1) / 64; x++) {
		u64 bits = cur[x] & word_mask(x, lo, hi);
		for (; bits; bits &= bits - 1) {
			int j = (int)(64 * x) + __builtin_ctzll(bits);
			if (rep < 0)
				rep = j;
			else
				unite(w->uf, rep, j);
		}
	}
	return rep;
}

/* Block b from the reaching set cur (updated to its exit): uses note a
 * reaching definition and join the webs that reach them. */
static void
walk(Webs *w, size_t b, u64 *cur)
{
	Ev *e;

	for (e = &w->ev[w->ebase[b]]; e < &w->ev[w->ebase[b + 1]]; e++) {
		if (!e->def) {
			e->d = reaching(w, cur, e->v);
			continue;
		}
		if (!e->kills) {
			int rep = reaching(w, cur, e->v);
			if (rep >= 0)
				unite(w->uf, rep, e->d);
		} else {
			defs_put(w, cur, e->v, 0);
		}
		SET(cur, e->d);
	}
}

/* Block b's effect on a reaching set: out = (in & ~kill) | gen, where
 * kill holds every definition of a vreg the block redefines and gen the
 * block's definitions still reaching its end. */
static void
gen_kill(Webs *w, size_t b, u64 *gen, u64 *kill)
{
	const Ev *e;

	for (e = &w->ev[w->ebase[b]]; e < &w->ev[w->ebase[b + 1]]; e++) {
		if (!e->def)
			continue;
		if (e->kills) {
			defs_put(w, gen, e->v, 0);
			defs_put(w, kill, e->v, 1);
		}
		SET(gen, e->d);
	}
}

/* Reaching definitions at each block entry (iterated to a fixpoint),
 * in the first nb * W words of one zeroed block with the scratch. */
static u64 *
reach(Webs *w)
{
	MFunc *f = w->f;
	size_t nb = f->b.n, b, x, W = w->W;
	u64 *in = xcalloc(4 * nb * W + 1, 8), *out = in + nb * W, *gen = out + nb * W, *kill = gen + nb * W;
	int changed = 1, k;

	for (b = 0; b < nb; b++)
		gen_kill(w, b, &gen[b * W], &kill[b * W]);
	while (changed) {
		changed = 0;
		for (b = 0; b < nb; b++) {
			int grew = 0;
			for (x = 0; x < W; x++) {   /* out only grows */
				u64 o = (in[b * W + x] & ~kill[b * W + x]) | gen[b * W + x];
				grew |= o != out[b * W + x];
				out[b * W + x] = o;
			}
			if (!grew)
				continue;
			changed = 1;
			for (k = 0; k < 2; k++) {
				int s = f->b.v[b].succ[k];
				if (s >= 0)
					for (x = 0; x < W; x++)
						in[(size_t)s * W + x] |= out[b * W + x];
			}
		}
	}
	return in;
}

/* A vreg per web (the first definition's web keeps v), refs rewritten
 * (when there is a new one: the first definition is its web's root, as
 * unite keeps the lower id, so a vreg of one web keeps its refs). */
static int
renumber(Webs *w)
{
	MFunc *f = w->f;
	int *nvr = xcalloc((size_t)w->nd + 1, sizeof *nvr), v, d, n = 0;
	const Ev *e;

	for (v = 0; v < w->nv; v++) {
		if (!w->ok[v])
			continue;
		for (d = w->dfirst[v]; d < w->dfirst[v] + w->ndef[v]; d++) {
			int r = find(w->uf, d);
			if (r != d)
				continue;
			if (d == w->dfirst[v]) {
				nvr[d] = v;
			} else {
				MVreg x = f->vr.v[v];
				nvr[d] = mvreg(f, x.cls, x.w);
				f->vr.v[nvr[d]].tmp = x.tmp;
				n++;
			}
		}
	}
	for (e = w->ev; n && e < &w->ev[w->ebase[f->b.n]]; e++) {
		MIns *m = &f->b.v[e->b].ins.v[e->i];
		if (e->d < 0)
			continue;
		if (e->k < 0)
			m->guard = nvr[find(w->uf, e->d)];
		else
			m->r[e->k].v = nvr[find(w->uf, e->d)];
	}
	free(nvr);
	return n;
}

int
ra_split_webs(MFunc *f)
{
	Webs w = {0};
	u64 *in, *cur;
	size_t b;
	int n = 0;

	w.f = f;
	w.nv = (int)f->vr.n;
	number_defs(&w);
	if (w.nd) {
		in = reach(&w);
		cur = in + f->b.n * w.W;   /* reach's scratch, free now */
		for (b = 0; b < f->b.n; b++) {
			memcpy(cur, &in[b * w.W], w.W * 8);
			walk(&w, b, cur);
		}
		n = renumber(&w);
		free(in);
	}
	free(w.dfirst);   /* ndef, ok too */
	free(w.ev);       /* uf, ebase too */
	return n;
}
