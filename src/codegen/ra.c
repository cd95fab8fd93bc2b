/* ra.c -- liveness, linear-scan register allocation and spilling (see
 * ra.h). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/ra.h"
#include "codegen/ra_live.h"

/* A worklist of blocks for the dataflow fixpoints: a FIFO holding each
 * block at most once, all of them at first (last to first when
 * backward).  Visiting only the blocks whose inputs changed reaches the
 * same least fixpoint as sweeping every block until nothing changes.
 * Its arrays are ra_liveness's (nb + 1 entries each). */
typedef struct {
	int *q;
	u8 *on;
	size_t h, n, nb;
} Work;

static void
work_init(Work *k, size_t nb, int backward)
{
	size_t b;

	k->h = 0;
	k->n = k->nb = nb;
	for (b = 0; b < nb; b++) {
		k->q[b] = (int)(backward ? nb - 1 - b : b);
		k->on[b] = 1;
	}
}

static int
work_pop(Work *k)
{
	int b;

	if (!k->n)
		return -1;
	b = k->q[k->h];
	if (++k->h == k->nb)
		k->h = 0;
	k->n--;
	k->on[b] = 0;
	return b;
}

static void
work_push(Work *k, int b)
{
	if (!k->on[b]) {
		size_t t = k->h + k->n++;
		k->on[b] = 1;
		k->q[t < k->nb ? t : t - k->nb] = b;
	}
}

/* ra_liveness's scratch (in one allocation with Ra's arrays): per block
 * unit sets gen (units written), ue (read before any kill), kill; und
 * (units read before any def); the predecessor lists (np: per block its
 * first in pred). */
typedef struct {
	u64 *gen, *ue, *kill, *und;
	int *np, *pred;
	Work wk;
} LiveTmp;

/* Units that may have been defined at each block's entry (forward, any
 * def, guarded or not); liveness in/out is limited to them, so a value
 * is never live before its first definition.  gen: per block, the units
 * any of its defs writes (liveness's walk). */
static void
defined(Ra *r, LiveTmp *t)
{
	MFunc *f = r->f;
	size_t nb = f->b.n, b, W = r->words, w;
	u64 *din = r->din, *und = t->und, *gen = t->gen;
	int k, v, x;
	Work *wk = &t->wk;

	work_init(wk, nb, 0);
	while ((x = work_pop(wk)) >= 0)
		for (k = 0; k < 2; k++) {   /* the successors' din take x's exit: din | gen */
			int s = f->b.v[x].succ[k], grew = 0;
			if (s < 0)
				continue;
			for (w = 0; w < W; w++) {
				u64 d = din[(size_t)s * W + w] | din[(size_t)x * W + w] | gen[(size_t)x * W + w];
				grew |= d != din[(size_t)s * W + w];
				din[(size_t)s * W + w] = d;
			}
			if (grew)
				work_push(wk, s);
		}
	for (b = 0; b < nb; b++)
		for (w = 0; w < W; w++) {
			size_t i = b * W + w;
			und[w] |= r->in[i] & ~din[i];   /* read before any def */
			r->in[i] &= din[i];
			r->out[i] &= din[i] | gen[i];
		}
	for (w = 0, v = 0; w < W; w++)   /* und's units in order, so their vregs */
		for (u64 o = und[w]; o; o &= o - 1) {
			int u = (int)(w * 64) + __builtin_ctzll(o);
			while (v + 1 < (int)f->vr.n && r->ubase[v + 1] <= u)
				v++;
			r->undef[v] = 1;
		}
}

/* Live units at each block's entry and exit: the least fixpoint of
 * in = ue | (out & ~kill), out = the successors' in, where ue (read
 * before any killing def), kill (killed by an unguarded def) and gen
 * (written by any def, for defined()) come from one backward walk of
 * each block. */
static void
liveness(Ra *r, LiveTmp *t)
{
	MFunc *f = r->f;
	size_t nb = f->b.n, b, W = r->words, w;
	u64 *ue = t->ue, *kill = t->kill, *gen = t->gen;
	int *np = t->np, *pred = t->pred, i, k, u, n, first, x;
	Work *wk = &t->wk;

	for (b = 0; b < nb; b++) {
		const MBlock *B = &f->b.v[b];
		u64 *live = &ue[b * W], *kl = &kill[b * W], *g = &gen[b * W];
		for (i = (int)B->ins.n - 1; i >= 0; i--) {
			const MIns *m = &B->ins.v[i];
			for (k = 0; k < m->nr; k++)
				if ((m->rf[k] & MF_DEF) && (!r->only || r->only[m->r[k].v]))
					for (n = ra_ref_units(r, m->r[k], &first), u = 0; u < n; u++) {
						SET(g, first + u);
						if (ra_kills(f, m, m->r[k])) {
							CLR(live, first + u);
							SET(kl, first + u);
						}
					}
			for (k = 0; k < m->nr; k++)
				if ((m->rf[k] & MF_USE) && (!r->only || r->only[m->r[k].v]))
					for (n = ra_ref_units(r, m->r[k], &first), u = 0; u < n; u++)
						SET(live, first + u);
			if (m->guard >= 0 && (!r->only || r->only[m->guard]))
				SET(live, r->ubase[m->guard]);
		}
	}
	/* predecessors: np[b + 1] counts, then np[b] is b's first in pred */
	for (b = 0; b < nb; b++)
		for (k = 0; k < 2; k++)
			if (f->b.v[b].succ[k] >= 0)
				np[f->b.v[b].succ[k] + 1]++;
	for (b = 0; b < nb; b++)
		np[b + 1] += np[b];
	for (b = 0; b < nb; b++)
		for (k = 0; k < 2; k++)
			if (f->b.v[b].succ[k] >= 0)
				pred[np[f->b.v[b].succ[k]]++] = (int)b;
	for (b = nb; b > 0; b--)   /* np[b] was advanced to b + 1's first */
		np[b] = np[b - 1];
	np[0] = 0;
	work_init(wk, nb, 1);
	while ((x = work_pop(wk)) >= 0) {
		const MBlock *B = &f->b.v[x];
		u64 *out = &r->out[(size_t)x * W], *in = &r->in[(size_t)x * W];
		int changed = 0, s0 = B->succ[0], s1 = B->succ[1];
		for (w = 0; w < W; w++) {
			u64 o = (s0 >= 0 ? r->in[(size_t)s0 * W + w] : 0) | (s1 >= 0 ? r->in[(size_t)s1 * W + w] : 0);
			u64 y = ue[(size_t)x * W + w] | (o & ~kill[(size_t)x * W + w]);
			changed |= y != in[w];
			in[w] = y;
			out[w] = o;
		}
		if (changed)
			for (i = np[x]; i < np[x + 1]; i++)
				work_push(wk, pred[i]);
	}
}

/* ---- live ranges (lifetime holes) ---- */

typedef struct {
	int v, s, e;
} Seg;

typedef VEC(Seg) SegVec;

/* Add segment [s, e] of v, or widen v's last one (last[v], -1: none)
 * when the two overlap or touch: the ranges are the union of the
 * segments (ranges() merges them so), so this changes nothing but the
 * count to sort -- a vreg live through blocks adds one a block. */
static inline void
seg_add(SegVec *sv, int *last, int v, int s, int e)
{
	Seg x = { v, s, e };
	if (last[v] >= 0) {
		Seg *l = &sv->v[last[v]];
		if (MAX(l->s, s) <= MIN(l->e, e) + 1) {
			l->s = MIN(l->s, s);
			l->e = MAX(l->e, e);
			return;
		}
	}
	last[v] = (int)sv->n;
	vec_push(sv, x);
}

static int
cmp_seg(const void *a, const void *b)
{
	const Seg *x = a, *y = b;
	if (x->v != y->v)
		return x->v - y->v;
	return x->s != y->s ? x->s - y->s : x->e - y->e;
}

static int
cmp_seg_se(const Seg *x, const Seg *y)
{
	return x->s != y->s ? x->s - y->s : x->e - y->e;
}

/* Sort one vreg's segments by (s, e).  They come block by block (the
 * blocks' position ranges increase), each block's backwards: reversing
 * the descending runs leaves them nearly sorted, and insertion sort is
 * then linear; when it is not (a budget of moves runs out), qsort.  Any
 * sort gives the same array: equal keys are equal segments. */
static void
sort_bucket(Seg *a, size_t n)
{
	size_t i, j, k, moves = 0;

	if (n > 64)
		for (i = 0; i < n; i = j) {
			for (j = i + 1; j < n && cmp_seg_se(&a[j - 1], &a[j]) > 0; j++)
				;
			for (k = 0; k < (j - i) / 2; k++) {
				Seg t = a[i + k];
				a[i + k] = a[j - 1 - k];
				a[j - 1 - k] = t;
			}
		}
	for (i = 1; i < n; i++) {
		Seg x = a[i];
		for (j = i; j > 0 && cmp_seg_se(&a[j - 1], &x) > 0; j--)
			a[j] = a[j - 1];
		a[j] = x;
		moves += i - j;
		if (n > 64 && moves > 8 * n) {
			qsort(a, n, sizeof *a, cmp_seg);
			return;
		}
	}
}

/* Sort by (v, s, e), as qsort with cmp_seg would: buckets per vreg
 * (counting sort), then each bucket. */
static void
sort_segs(SegVec *sv, int nv)
{
	int *at = xcalloc((size_t)nv + 2, sizeof *at), v;
	Seg *out = xmalloc((sv->n + 1) * sizeof *out);
	size_t i, lo, hi;

	for (i = 0; i < sv->n; i++)
		at[sv->v[i].v + 1]++;
	for (v = 0; v < nv; v++)
		at[v + 1] += at[v];
	for (i = 0; i < sv->n; i++)
		out[at[sv->v[i].v]++] = sv->v[i];
	for (v = 0, lo = 0; v < nv; v++, lo = hi) {
		hi = (size_t)at[v];
		sort_bucket(out + lo, hi - lo);
	}
	free(sv->v);
	sv->v = out;
	sv->cap = sv->n + 1;
	free(at);
}

/* Unit u of vreg v becomes live (walking backwards) at position pos. */
static void
unit_on(const Ra *r, u64 *live, int *cnt, int *open, int v, int u, int pos)
{
	if (BIT(live, u))
		return;
	SET(live, u);
	if (cnt[v]++ == 0)
		open[v] = pos;
}

/* May a unit of v live at block b's entry be defined there? */
static int
din_any(const Ra *r, size_t b, const u64 *live, int v)
{
	const u64 *d = &r->din[b * r->words];
	int u;

	for (u = r->ubase[v]; u < r->ubase[v] + r->f->vr.v[v].w; u++)
		if (BIT(live, u) && BIT(d, u))
			return 1;
	return 0;
}

/* Per vreg scratch of block_segs. */
typedef struct {
	int *cnt;    /* live units */
	int *open;   /* end of the segment being built */
	int *fd;     /* first def in the block (position), when stamp == block */
	int *stamp;
	int *last;   /* its last segment (seg_add) */
} SegScratch;

/* The segments of one block: a vreg is live where any of its units is;
 * a def nobody reads still holds its register at its position; a vreg
 * live at the entry but defined on no path to it starts at its first
 * def in the block.  The same walk finds each vreg's first unguarded
 * copy "MOV v, s" (cpos: the block's earliest, unless an earlier block
 * had one). */
static void
block_segs(Ra *r, size_t b, const int *uv, u64 *live, SegScratch *x, SegVec *sv)
{
	MFunc *f = r->f;
	const MBlock *B = &f->b.v[b];
	int i, k, u, n, first, *cnt = x->cnt, *open = x->open;
	size_t w;
	u64 o;

	for (w = 0; w < r->words; w++)   /* unit_on of each live-out unit, on an empty set */
		for (o = live[w] = r->out[b * r->words + w]; o; o &= o - 1) {
			int v = uv[(int)(w * 64) + __builtin_ctzll(o)];
			if (cnt[v]++ == 0)
				open[v] = r->bend[b];
		}
	for (i = (int)B->ins.n - 1; i >= 0; i--) {
		const MIns *m = &B->ins.v[i];
		int pos = r->bstart[b] + 2 * i;
		if (m->copy && m->nr == 2 && m->guard < 0 && (r->cpos[m->r[0].v] < 0 || r->cblock[m->r[0].v] == (int)b)) {
			r->cpos[m->r[0].v] = pos;
			r->cblock[m->r[0].v] = (int)b;
		}
		for (k = 0; k < m->nr; k++) {
			int v = m->r[k].v, kill;
			if (!(m->rf[k] & MF_DEF) || f->vr.v[v].fixed)
				continue;
			kill = ra_kills(f, m, m->r[k]);
			x->fd[v] = pos + 1;
			x->stamp[v] = (int)b;
			for (n = ra_ref_units(r, m->r[k], &first), u = 0; u < n; u++) {
				if (!BIT(live, first + u)) {
					seg_add(sv, x->last, v, pos + 1, pos + 1);
				} else if (kill) {
					CLR(live, first + u);
					if (--cnt[v] == 0)
						seg_add(sv, x->last, v, pos + 1, open[v]);
				}
			}
		}
		for (k = 0; k < m->nr; k++) {
			int v = m->r[k].v;
			if ((m->rf[k] & MF_USE) && !f->vr.v[v].fixed)
				for (n = ra_ref_units(r, m->r[k], &first), u = 0; u < n; u++)
					unit_on(r, live, cnt, open, v, first + u, pos);
		}
		if (m->guard >= 0 && !f->vr.v[m->guard].fixed)
			unit_on(r, live, cnt, open, m->guard, r->ubase[m->guard], pos);
	}
	for (w = 0; w < r->words; w++)
		for (o = live[w]; o; o &= o - 1) {
			int v, s;
			u = (int)(w * 64) + __builtin_ctzll(o);
			v = uv[u];
			if (!cnt[v])
				continue;
			s = r->bstart[b];
			if (x->stamp[v] == (int)b && x->fd[v] <= open[v] && !din_any(r, b, live, v))
				s = x->fd[v];
			seg_add(sv, x->last, v, s, open[v]);
			cnt[v] = 0;
		}
}

/* A vreg's interval runs from its first position to its last: the
 * entries and exits of blocks it is live into or out of, its references
 * (a def's is after its instruction).  Each lies in a range and each
 * range starts at one, so the ranges' span is the interval -- except
 * that block_segs starts the range of a unit read undefined in a block
 * at the block's entry, before its first position there (undef).  The
 * first position is at or after the first range's start s0: walk from
 * the block holding s0.  (A block's exit is never first: a unit live out
 * of a block without references there is live into it.) */
static int
undef_start(const Ra *r, int v, int s0)
{
	MFunc *f = r->f;
	size_t b, i;
	int k, p;

	for (b = 0; r->bend[b] < s0; b++)
		;
	for (; b < f->b.n; b++) {
		if (din_any(r, b, &r->in[b * r->words], v))   /* live in (in is within din) */
			return r->bstart[b];
		for (i = 0; i < f->b.v[b].ins.n; i++) {
			const MIns *m = &f->b.v[b].ins.v[i];
			for (k = 0, p = m->guard == v ? 0 : 2; k < m->nr; k++)
				if (m->r[k].v == v)
					p = MIN(p, m->rf[k] & MF_DEF ? 1 : 0);
			if (p < 2)
				return r->bstart[b] + 2 * (int)i + p;
		}
	}
	return s0;   /* not reached: a range holds a position */
}

/* Sorted, merged live ranges and the interval of every vreg (start..end:
 * from its first range to its last); the blocks' position ranges (two
 * positions an instruction). */
static void
ranges(Ra *r)
{
	MFunc *f = r->f;
	int nv = (int)f->vr.n, v, k, *uv, pos = 0;
	size_t b, i, n = 0;
	u64 *live;
	SegVec sv = {0};
	SegScratch x;

	/* the scratch in one zeroed block: live, then the int arrays */
	live = xcalloc((r->words + 1) * 8 + ((size_t)r->nunits + 1 + 5 * ((size_t)nv + 1)) * sizeof(int), 1);
	uv = (int *)(live + r->words + 1);
	x.cnt = uv + r->nunits + 1;
	x.open = x.cnt + nv + 1;
	x.fd = x.open + nv + 1;
	x.stamp = x.fd + nv + 1;
	x.last = x.stamp + nv + 1;
	for (v = 0; v < nv; v++)
		x.stamp[v] = x.last[v] = -1;
	for (v = 0; v < nv; v++)
		for (k = 0; k < f->vr.v[v].w; k++)
			uv[r->ubase[v] + k] = v;
	for (b = 0; b < f->b.n; b++) {
		r->bstart[b] = pos;
		pos += 2 * (int)f->b.v[b].ins.n;
		r->bend[b] = pos;
	}
	sv.cap = (size_t)pos + 8;   /* ~2 segments an instruction (more grow it) */
	sv.v = xmalloc(sv.cap * sizeof *sv.v);
	for (b = 0; b < f->b.n; b++)
		block_segs(r, b, uv, live, &x, &sv);
	if (sv.n)
		sort_segs(&sv, nv);
	r->rfirst = xcalloc(2 * ((size_t)nv + 1), sizeof(int));   /* rcount too */
	r->rcount = r->rfirst + nv + 1;
	r->rs = xcalloc(2 * (sv.n + 1), sizeof(int));   /* re too */
	r->re = r->rs + sv.n + 1;
	for (i = 0; i < sv.n; i++) {
		Seg g = sv.v[i];
		if (n && r->rcount[g.v] && r->re[n - 1] + 1 >= g.s) {
			if (g.e > r->re[n - 1])
				r->re[n - 1] = g.e;
			continue;
		}
		if (!r->rcount[g.v])
			r->rfirst[g.v] = (int)n;
		r->rcount[g.v]++;
		r->rs[n] = g.s;
		r->re[n++] = g.e;
	}
	for (v = 0; v < nv; v++)
		if (r->rcount[v] && !f->vr.v[v].fixed) {
			r->start[v] = r->rs[r->rfirst[v]];
			r->end[v] = r->re[r->rfirst[v] + r->rcount[v] - 1];
			if (r->undef[v])
				r->start[v] = undef_start(r, v, r->start[v]);
		}
	vec_free(&sv);
	free(live);
}

/* Is vreg v live at position pos?  cur[v] is the first of v's ranges not
 * known to end before pos: the scan's positions only grow, so it moves
 * forward (amortised constant time, no search). */
static int
covers(const Ra *r, int *cur, int v, int pos)
{
	int i = cur[v], e = r->rfirst[v] + r->rcount[v];
	while (i < e && r->re[i] < pos)
		i++;
	cur[v] = i;
	return i < e && r->rs[i] <= pos;
}

/* Do the live ranges of a and b overlap?  From covers()'s cursors: the
 * ranges before them end before the scan's position, where the interval
 * being placed starts. */
static int
intersects(const Ra *r, const int *cur, int a, int b)
{
	int i = cur[a], ie = r->rfirst[a] + r->rcount[a], j = cur[b], je = r->rfirst[b] + r->rcount[b];
	while (i < ie && j < je) {
		if (r->re[i] < r->rs[j])
			i++;
		else if (r->re[j] < r->rs[i])
			j++;
		else
			return 1;
	}
	return 0;
}

/* Physical register files: a bitmap of busy registers per class. */
typedef struct {
	u64 busy[RC_NCLASS][4];
	int limit[RC_NCLASS];
} Files;

static int
fits(const Files *fl, int cls, int base, int w)
{
	int k;
	if (base + w > fl->limit[cls])
		return 0;
	for (k = 0; k < w; k++)
		if (fl->busy[cls][(base + k) >> 6] >> ((base + k) & 63) & 1)
			return 0;
	return 1;
}

/* The lowest base (a multiple of al) where w registers fit, or -1.
 * Widths 1, 2 and 4 (aligned) from the bitmap's words at once: a group
 * never straddles two words. */
static int
first_fit(const Files *fl, int cls, int w, int al)
{
	static const u64 lanes[5] = { 0, ~0ull, 0x5555555555555555ull, 0, 0x1111111111111111ull };
	int k, i;

	if (w != al || (w != 1 && w != 2 && w != 4)) {
		for (k = 0; k < fl->limit[cls]; k += al)
			if (fits(fl, cls, k, w))
				return k;
		return -1;
	}
	for (i = 0; i < 4 && i * 64 < fl->limit[cls]; i++) {
		u64 fr = ~fl->busy[cls][i], ok = fr;
		for (k = 1; k < w; k++)
			ok &= fr >> k;
		ok &= lanes[w];
		if (ok) {
			k = i * 64 + __builtin_ctzll(ok);
			return k + w <= fl->limit[cls] ? k : -1;
		}
	}
	return -1;
}

static void
mark(Files *fl, int cls, int base, int w, int busy)
{
	int k;
	for (k = 0; k < w; k++) {
		u64 bit = 1ull << ((base + k) & 63);
		if (busy)
			fl->busy[cls][(base + k) >> 6] |= bit;
		else
			fl->busy[cls][(base + k) >> 6] &= ~bit;
	}
}

/* A copy "MOV d, s" whose source dies there: d prefers s's register. */
static int
hint_of(const Ra *r, int v, int *hint)
{
	MFunc *f = r->f;
	const MIns *m;
	MRef s;
	int pos;

	if (r->cpos[v] < 0)
		return 0;
	pos = r->cpos[v];
	m = &f->b.v[r->cblock[v]].ins.v[(pos - r->bstart[r->cblock[v]]) / 2];
	if (pos + 1 != r->start[v])
		return 0;
	s = m->r[1];
	if (f->vr.v[s.v].phys < 0 || r->end[s.v] > pos)
		return 0;
	*hint = f->vr.v[s.v].phys + s.sub - m->r[0].sub;
	return 1;
}

/* A copy whose two sides got the same register. */
static int
noop_copy(const MFunc *f, const MIns *m)
{
	return m->copy && m->nr == 2 && f->vr.v[m->r[0].v].cls == f->vr.v[m->r[1].v].cls &&
	       f->vr.v[m->r[0].v].phys + m->r[0].sub == f->vr.v[m->r[1].v].phys + m->r[1].sub;
}

/* Spill state across allocation rounds. */
typedef struct {
	u8 *nospill;         /* per vreg: a spill temporary (never spilled again) */
	int *slot;           /* per vreg: frame offset, -1 */
	int *home;           /* per predicate vreg: the R vreg holding it, -1 */
	u8 *undef;           /* per vreg: may be read before any def */
	u8 *spill;           /* per vreg: chosen for spilling this round */
	MIns *remat;         /* per vreg (this round): its def, when recomputed instead */
	size_t n;            /* entries in the arrays */
	u32 frame;           /* bytes laid out so far */
} Spill;

/* Room for vregs below n at least; doubles, as the spill rewrite adds
 * a temporary at a time. */
static void
spill_grow(Spill *sp, size_t n)
{
	size_t i;
	if (n <= sp->n)
		return;
	n = MAX(n, 2 * sp->n);
	sp->nospill = realloc(sp->nospill, n);
	sp->slot = realloc(sp->slot, n * sizeof(int));
	sp->home = realloc(sp->home, n * sizeof(int));
	sp->undef = realloc(sp->undef, n);
	sp->spill = realloc(sp->spill, n);
	if (!sp->nospill || !sp->slot || !sp->home || !sp->undef || !sp->spill)
		die("out of memory");
	for (i = sp->n; i < n; i++) {
		sp->nospill[i] = 0;
		sp->slot[i] = -1;
		sp->home[i] = -1;
		sp->undef[i] = 0;
		sp->spill[i] = 0;
	}
	sp->n = n;
}

static int
spillable(const MFunc *f, const Spill *sp, int v)
{
	const MVreg *x = &f->vr.v[v];
	/* wider than a quad: an HGMMA accumulator, live while the MMA is in
	 * flight (isel_wgmma.c): no LDL/STL of it, and none would be allowed */
	return !x->fixed && !sp->nospill[v] && (x->cls == RC_R || x->cls == RC_P) && x->w <= 4;
}

/* The intervals the scan has placed and not yet passed: active ones are
 * live at the current position and hold their registers in fl; inactive
 * ones are in a lifetime hole (their registers are free for intervals
 * that fit in the hole). */
typedef struct {
	int *act, nact;
	int *ina, nina;
	int *cur;    /* per vreg: covers()'s cursor into its ranges */
	int *hold;   /* per placed vreg: see hold_of(), -1 unknown */
	int lo;      /* at most the least hold of act and ina */
} Sets;

static void
set_del(int *a, int *n, int j)
{
	a[j] = a[--*n];
}

/* Registers v may not take: the active intervals' and those of the
 * inactive ones its ranges overlap. */
static void
blocked(const Ra *r, const Files *fl, const Sets *st, int v, Files *out)
{
	const MFunc *f = r->f;
	int cls = f->vr.v[v].cls, j;

	*out = *fl;
	for (j = 0; j < st->nina; j++) {
		const MVreg *a = &f->vr.v[st->ina[j]];
		if (a->cls == cls && intersects(r, st->cur, st->ina[j], v))
			mark(out, cls, a->phys, a->w, 1);
	}
}

/* Choose where interval v goes, spilling the intervals of its class that
 * end furthest away when nothing fits.  Returns the base register, -1
 * when v itself is spilled, -2 when nothing can be spilled. */
static int
place(Ra *r, Files *fl, Spill *sp, int v, Sets *st)
{
	MFunc *f = r->f;
	MVreg *vr = &f->vr.v[v];
	int al = vr->w > 4 ? 8 : vr->w, base, hint;   /* wider: HGMMA groups, at multiples of 8 as ptxas */
	Files bl;

	for (;;) {
		int best = -1, bin = 0, j, a;
		base = -1;
		blocked(r, fl, st, v, &bl);
		if (hint_of(r, v, &hint) && hint >= 0 && hint % al == 0 && fits(&bl, vr->cls, hint, vr->w))
			return hint;
		base = first_fit(&bl, vr->cls, vr->w, al);
		if (base >= 0)
			return base;
		for (j = 0; j < st->nact + st->nina; j++) {
			int in = j >= st->nact;
			a = in ? st->ina[j - st->nact] : st->act[j];
			if (f->vr.v[a].cls != vr->cls || !spillable(f, sp, a) || (in && !intersects(r, st->cur, a, v)))
				continue;
			if (best < 0 || r->end[a] > r->end[bin ? st->ina[best] : st->act[best]]) {
				best = in ? j - st->nact : j;
				bin = in;
			}
		}
		a = best < 0 ? -1 : bin ? st->ina[best] : st->act[best];
		if (spillable(f, sp, v) && (best < 0 || r->end[v] >= r->end[a])) {
			sp->spill[v] = 1;
			return -1;
		}
		if (best < 0)
			return -2;
		sp->spill[a] = 1;
		if (bin) {
			set_del(st->ina, &st->nina, best);
		} else {
			mark(fl, f->vr.v[a].cls, f->vr.v[a].phys, f->vr.v[a].w, 0);
			set_del(st->act, &st->nact, best);
		}
	}
}

/* The vregs to place in order of (start, v): a counting sort over the
 * positions (v ascending within one). */
static int
by_start(const Ra *r, int *ord)
{
	MFunc *f = r->f;
	int n = 0, v, npos = f->b.n ? r->bend[f->b.n - 1] + 2 : 1, p, *at;

	at = xcalloc((size_t)npos + 1, sizeof *at);
	for (v = 0; v < (int)f->vr.n; v++)
		if (!f->vr.v[v].fixed && r->start[v] >= 0) {
			at[r->start[v] + 1]++;
			n++;
		}
	for (p = 0; p < npos; p++)
		at[p + 1] += at[p];
	for (v = 0; v < (int)f->vr.n; v++)
		if (!f->vr.v[v].fixed && r->start[v] >= 0)
			ord[at[r->start[v]]++] = v;
	free(at);
	return n;
}

/* The last position through which a's state cannot change: live (or in
 * a hole) until the end of its current range (or hole), and not past its
 * interval's end.  advance() skips a until then. */
static int
hold_of(const Ra *r, const Sets *st, int a, int live)
{
	int i = st->cur[a], h = r->end[a];
	if (i < r->rfirst[a] + r->rcount[a])
		h = MIN(h, live ? r->re[i] : r->rs[i] - 1);
	return h;
}

/* Move the placed intervals between the sets for position pos. */
static void
advance(const Ra *r, Files *fl, Sets *st, int pos)
{
	const MFunc *f = r->f;
	int j, lo = INT_MAX;

	if (pos <= st->lo)
		return;   /* every interval holds its state through pos */
	for (j = 0; j < st->nact;) {
		int a = st->act[j];
		const MVreg *x = &f->vr.v[a];
		if (pos <= st->hold[a]) {
			lo = MIN(lo, st->hold[a]);
			j++;
		} else if (r->end[a] < pos || !covers(r, st->cur, a, pos)) {
			mark(fl, x->cls, x->phys, x->w, 0);
			if (r->end[a] >= pos) {
				st->ina[st->nina++] = a;
				st->hold[a] = -1;
			}
			set_del(st->act, &st->nact, j);
		} else {
			st->hold[a] = hold_of(r, st, a, 1);
			lo = MIN(lo, st->hold[a]);
			j++;
		}
	}
	for (j = 0; j < st->nina;) {   /* (those just moved here too) */
		int a = st->ina[j];
		const MVreg *x = &f->vr.v[a];
		if (pos <= st->hold[a]) {
			lo = MIN(lo, st->hold[a]);
			j++;
		} else if (r->end[a] < pos) {
			set_del(st->ina, &st->nina, j);
		} else if (covers(r, st->cur, a, pos)) {
			mark(fl, x->cls, x->phys, x->w, 1);
			st->act[st->nact++] = a;
			st->hold[a] = hold_of(r, st, a, 1);
			lo = MIN(lo, st->hold[a]);
			set_del(st->ina, &st->nina, j);
		} else {
			st->hold[a] = hold_of(r, st, a, 0);
			lo = MIN(lo, st->hold[a]);
			j++;
		}
	}
	st->lo = lo;
}

/* One round of linear scan.  Returns 0 (maybe with vregs to spill in
 * sp->spill), or -1 with a message. */
static int
scan(Ra *r, const RaOpts *o, Spill *sp, RaResult *res, int *nspill, char *err, size_t errlen)
{
	MFunc *f = r->f;
	Files fl = {0};
	Sets st = {0};
	int nv = (int)f->vr.n, i, n, *ord, rc = 0;

	fl.limit[RC_R] = o->max_r > 0 && o->max_r < 255 ? o->max_r : 255;
	fl.limit[RC_P] = o->max_p > 0 && o->max_p < 7 ? o->max_p : 7;
	fl.limit[RC_UR] = 63;
	fl.limit[RC_UP] = 7;
	mark(&fl, RC_R, 1, 1, 1);     /* stack pointer */
	if (o->calls)
		mark(&fl, RC_R, 20, 2, 1);   /* return address of the call ABI (isel_call.h) */
	mark(&fl, RC_UR, 4, 2, 1);    /* memory descriptor */
	ord = xcalloc(5 * ((size_t)nv + 1), sizeof *ord);   /* and the four of st */
	st.act = ord + nv + 1;
	st.ina = st.act + nv + 1;
	st.cur = st.ina + nv + 1;
	st.hold = st.cur + nv + 1;
	memcpy(st.cur, r->rfirst, (size_t)nv * sizeof *st.cur);
	st.lo = INT_MAX;
	n = by_start(r, ord);
	res->regs = 2;
	*nspill = 0;
	for (i = 0; i < n; i++) {
		MVreg *vr = &f->vr.v[ord[i]];
		int base;
		advance(r, &fl, &st, r->start[ord[i]]);
		base = place(r, &fl, sp, ord[i], &st);
		if (base == -2) {
			snprintf(err, errlen, "out of %s registers (%d live at once, none of them can be spilled)",
				 vr->cls == RC_R ? "general" : vr->cls == RC_P ? "predicate" : "uniform", st.nact + 1);
			rc = -1;
			break;
		}
		if (base < 0)
			continue;
		vr->phys = base;
		mark(&fl, vr->cls, base, vr->w, 1);
		st.act[st.nact++] = ord[i];
		/* what the next advance() would find (unless it must move it) */
		st.hold[ord[i]] = covers(r, st.cur, ord[i], r->start[ord[i]]) ? hold_of(r, &st, ord[i], 1) : -1;
		st.lo = MIN(st.lo, st.hold[ord[i]]);
		if (vr->cls == RC_R && base + vr->w > res->regs)
			res->regs = base + vr->w;
	}
	for (i = 0; i < nv; i++)
		if (sp->spill[i])
			++*nspill;
	free(ord);   /* st's arrays too */
	return rc;
}

/* ---- spill code ---- */

/* The spill and frame texts are written by hand (mi_put_hex, get_hex):
 * snprintf costs ~1,000 instructions a call, sscanf more. */
static int
is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

/* The hex digits at s (as sscanf's %x reads isel_call.c's lowercase
 * texts). */
static u32
get_hex(const char *s)
{
	u32 v = 0;

	for (; is_hex(*s); s++)
		v = v * 16 + (u32)(*s <= '9' ? *s - '0' : *s - 'a' + 10);
	return v;
}

/* "[R1+0x10]", or "[R1]" for offset 0 (nvdisasm's spellings); t has
 * room for 16 bytes. */
static const char *
slot_addr(char *t, u32 off)
{
	char *p = t + 3;

	memcpy(t, "[R1", 3);
	if (off) {
		*p++ = '+';
		p = mi_put_hex(p, off);
	}
	memcpy(p, "]", 2);
	return t;
}

static const char *const ldl_op[] = { "", "LDL", "LDL.64", "", "LDL.128" };
static const char *const stl_op[] = { "", "STL", "STL.64", "", "STL.128" };

static u32
slot_of(Spill *sp, const MVreg *x, int v)
{
	u32 sz = x->cls == RC_P ? 4 : 4u * x->w;
	if (sp->slot[v] < 0) {
		sp->frame = (sp->frame + sz - 1) / sz * sz;
		sp->slot[v] = (int)sp->frame;
		sp->frame += sz;
	}
	return (u32)sp->slot[v];
}

static int
new_temp(MFunc *f, Spill *sp, int cls, int w)
{
	int t = mvreg(f, cls, w);
	f->vr.v[t].tmp = 1;
	spill_grow(sp, f->vr.n + 1);
	sp->nospill[t] = 1;
	return t;
}

/* A spilled predicate lives in a general register of its own (SEL after
 * each def, ISETP before each use); that register is an ordinary vreg,
 * spilled to memory in turn if registers run out. */
static int
home_of(MFunc *f, Spill *sp, int v)
{
	if (sp->home[v] < 0) {
		int h = mvreg(f, RC_R, 1), cur = f->cur;
		MBlock *B;
		MIns m;
		spill_grow(sp, f->vr.n + 1);
		sp->home[v] = h;
		if (sp->undef[v]) {
			/* read before any write (undefined in PTX): false, as the
			 * PTX interpreter has it, not a stale register */
			f->cur = 0;
			mi(f, "MOV %D, 0x0", mref(h));
			f->cur = cur;
			B = &f->b.v[0];
			m = B->ins.v[B->ins.n - 1];
			memmove(&B->ins.v[1], &B->ins.v[0], sizeof(MIns) * (B->ins.n - 1));
			B->ins.v[0] = m;
		}
	}
	return sp->home[v];
}

/* Load spilled v into a new temporary before the current position. */
static int
reload(MFunc *f, Spill *sp, int v, RaResult *res)
{
	MVreg x = f->vr.v[v];
	int t = new_temp(f, sp, x.cls, x.w);
	char a[32];

	if (x.cls == RC_P) {
		mi(f, "ISETP.NE.U32.AND %D, PT, %U, RZ, PT", mref(t), mref(home_of(f, sp, v)));
		res->spill_ins++;
		return t;
	}
	slot_addr(a, slot_of(sp, &x, v));
	mi(f, "%s %D, %s", ldl_op[x.w], mref(t), a);
	res->spill_ins++;
	return t;
}

/* Store the parts ref (of temporary t standing for v) writes. */
static void
store(MFunc *f, Spill *sp, int v, int t, MRef ref, RaResult *res)
{
	MVreg x = f->vr.v[v];
	int w = ref.w ? ref.w : x.w - ref.sub;
	char a[32], a2[32];
	u32 off;

	if (x.cls == RC_P) {
		mi(f, "SEL %D, RZ, 0x1, !%U", mref(home_of(f, sp, v)), mref(t));
		res->spill_ins++;
		return;
	}
	off = slot_of(sp, &x, v);
	slot_addr(a, off + 4u * ref.sub);
	if (w == 3) {   /* no STL.96: a pair and a single */
		slot_addr(a2, off + 4u * (ref.sub + 2u));
		mi(f, "STL.64 %s, %U", a, mpart(t, ref.sub, 2));
		mi(f, "STL %s, %U", a2, mpart(t, ref.sub + 2, 1));
		res->spill_ins += 2;
		return;
	}
	mi(f, "%s %s, %U", stl_op[w], a, mpart(t, ref.sub, ref.w ? ref.w : 0));
	res->spill_ins++;
}

/* Rematerialisation: a spilled vreg whose only def is an unguarded MOV
 * of a literal or an LDC from a constant bank (no register read) is
 * recomputed before each use instead of stored and loaded. */
static const MIns *
remat_of(const Spill *sp, int v)
{
	return sp->remat && sp->remat[v].text ? &sp->remat[v] : NULL;
}

/* "MOV %D, 0x10" / "MOV %D, -0x1" / "MOV %D, c[0x0][0x210]" or an LDC
 * with no register in its address: nothing that can change between uses
 * (not a literal register such as R20, which calls overwrite). */
static int
remat_text(const char *t)
{
	const char *o = strstr(t, "\001\001, ");
	if (!o || !(mir_op_is(t, "MOV") || mir_op_is(t, "LDC")))
		return 0;
	o += 4;
	if (!strncmp(o, "0x", 2) || !strncmp(o, "-0x", 3))
		return !strchr(o, ',');
	if (!strncmp(o, "c[0x", 4))
		return !strchr(o + 4, 'R') || strstr(o, "[RZ]") != NULL;
	return 0;
}

static void
find_remats(MFunc *f, Spill *sp)
{
	size_t b, i, n = f->vr.n;
	int *ndef = xcalloc(n + 1, sizeof *ndef), k;

	free(sp->remat);
	sp->remat = xcalloc(n + 1, sizeof *sp->remat);
	for (b = 0; b < f->b.n; b++)
		for (i = 0; i < f->b.v[b].ins.n; i++) {
			const MIns *m = &f->b.v[b].ins.v[i];
			for (k = 0; k < m->nr; k++)
				if (m->rf[k] & MF_DEF)
					ndef[m->r[k].v]++;
		}
	for (b = 0; b < f->b.n; b++)
		for (i = 0; i < f->b.v[b].ins.n; i++) {
			const MIns *m = &f->b.v[b].ins.v[i];
			int v = m->nr == 1 ? m->r[0].v : -1;
			if (v < 0 || !sp->spill[v] || ndef[v] != 1 || m->guard >= 0 || m->rf[0] != MF_DEF ||
			    m->r[0].sub || (m->r[0].w && m->r[0].w != f->vr.v[v].w) || f->vr.v[v].cls != RC_R)
				continue;
			if (remat_text(m->text))
				sp->remat[v] = *m;
		}
	free(ndef);
}

/* The spill code of one instruction m (already taken out of block b):
 * reloads, m itself with temporaries, stores. */
static void
spill_ins(MFunc *f, Spill *sp, MIns m, RaResult *res)
{
	int k, j, tmap[MI_MAXREF + 1], vmap[MI_MAXREF + 1], nm = 0;

	if (m.nr == 1 && sp->spill[m.r[0].v] && remat_of(sp, m.r[0].v) &&
	    remat_of(sp, m.r[0].v)->text == m.text && m.rf[0] == MF_DEF)
		return;   /* recomputed at each use instead */

	/* one temporary per spilled vreg of m, loaded if m reads it (or
	 * writes only part of it, or under a guard) */
	for (k = -1; k < m.nr; k++) {
		int v = k < 0 ? m.guard : m.r[k].v, need = 0, t;
		if (v < 0 || !sp->spill[v])
			continue;
		for (j = 0; j < nm; j++)
			if (vmap[j] == v)
				break;
		if (j < nm)
			continue;
		if (k < 0)
			need = 1;
		for (j = 0; j < m.nr; j++) {
			if (m.r[j].v != v)
				continue;
			if (m.rf[j] & MF_USE)
				need = 1;
			if ((m.rf[j] & MF_DEF) && (m.guard >= 0 || m.r[j].sub || (m.r[j].w && m.r[j].w < f->vr.v[v].w)))
				need = 1;
		}
		if (need && remat_of(sp, v)) {
			MIns d = *remat_of(sp, v);
			t = new_temp(f, sp, f->vr.v[v].cls, f->vr.v[v].w);
			d.r[0].v = t;
			vec_push(&f->b.v[f->cur].ins, d);
			res->spill_ins++;
		} else {
			t = need ? reload(f, sp, v, res) : new_temp(f, sp, f->vr.v[v].cls, f->vr.v[v].w);
		}
		vmap[nm] = v;
		tmap[nm++] = t;
	}
	for (j = 0; j < nm; j++) {
		if (m.guard == vmap[j])
			m.guard = tmap[j];
		for (k = 0; k < m.nr; k++)
			if (m.r[k].v == vmap[j])
				m.r[k].v = tmap[j];
	}
	vec_push(&f->b.v[f->cur].ins, m);
	for (k = 0; k < m.nr; k++)
		if (m.rf[k] & MF_DEF)
			for (j = 0; j < nm; j++)
				if (m.r[k].v == tmap[j] && !remat_of(sp, vmap[j]))
					store(f, sp, vmap[j], tmap[j], m.r[k], res);
}

static void
rewrite(MFunc *f, Spill *sp, RaResult *res)
{
	size_t b, i;
	int g = f->guard, cur = f->cur;
	u8 gn = f->guard_neg;

	f->guard = -1;
	f->guard_neg = 0;
	find_remats(f, sp);
	for (b = 0; b < f->b.n; b++) {
		MBlock *B = &f->b.v[b];
		MIns *old = B->ins.v;
		size_t n = B->ins.n;
		B->ins.v = NULL;
		B->ins.n = B->ins.cap = 0;
		f->cur = (int)b;
		for (i = 0; i < n; i++)
			spill_ins(f, sp, old[i], res);
		free(old);
	}
	for (i = 0; i < sp->n; i++)
		if (sp->spill[i]) {
			sp->spill[i] = 0;
			res->spilled++;
		}
	f->guard = g;
	f->guard_neg = gn;
	f->cur = cur;
}

/* Reserve the frame: R1 -= frame right after the prologue loads R1 (or
 * replace an adjustment already there). */
static void
reserve_frame(MFunc *f, u32 frame)
{
	MBlock *B;
	size_t i;
	int cur = f->cur, g = f->guard;
	char t[64];

	if (!frame || !f->b.n)
		return;
	B = &f->b.v[0];
	memcpy(t, "IADD3 R1, R1, -", 15);
	memcpy(mi_put_hex(t + 15, frame), ", RZ", 5);
	for (i = 0; i < B->ins.n; i++)
		if (!strncmp(B->ins.v[i].text, "IADD3 R1, R1,", 13) || !strncmp(B->ins.v[i].text, "VIADD R1, R1,", 13)) {
			B->ins.v[i].text = arena_strdup(f->a, t);
			return;
		}
	for (i = 0; i < B->ins.n; i++)
		if (strstr(B->ins.v[i].text, "R1, c[0x0][0x28]"))
			break;
	if (i == B->ins.n)
		die("ra: no stack pointer load in the prologue");
	f->cur = 0;
	f->guard = -1;
	mi(f, "%s", t);
	B = &f->b.v[0];
	{
		MIns m = B->ins.v[B->ins.n - 1];
		memmove(&B->ins.v[i + 2], &B->ins.v[i + 1], sizeof(MIns) * (B->ins.n - 2 - i));
		B->ins.v[i + 1] = m;
	}
	f->cur = cur;
	f->guard = g;
}

/* "STL[.64|.128] [addr], Rx" and "LDL[...] Ry, [addr]": the suffix, the
 * address text and the register ref; 0 if m is not such a plain one. */
static int
local_access(const MIns *m, int store, char *suffix, char *addr, MRef *reg)
{
	const char *t = m->text, *op = store ? "STL" : "LDL", *a, *e;
	size_t n;

	if (m->guard >= 0 || m->nr != 1 || t[0] != op[0] || strncmp(t, op, 3))
		return 0;
	t += 3;
	n = strcspn(t, " ");
	if (n >= 8 || (n && strncmp(t, ".64", n) && strncmp(t, ".128", n)))
		return 0;
	memcpy(suffix, t, n);
	suffix[n] = 0;
	if (!(a = strchr(t, '[')) || !(e = strchr(a, ']')) || e - a >= 40)
		return 0;
	memcpy(addr, a, (size_t)(e - a + 1));
	addr[e - a + 1] = 0;
	*reg = m->r[0];
	return 1;
}

static int
ref_phys(const MFunc *f, MRef r)
{
	return f->vr.v[r.v].phys + r.sub;
}

/* Spill code stores a value and often reloads it right away: an LDL m
 * right after an STL st of the same slot (same width) is dropped
 * (returns 1) when it loads the register stored, or becomes a MOV. */
static int
reload_dropped(MFunc *f, const MIns *st, MIns *m, RaResult *res)
{
	char s1[8], s2[8], a1[48], a2[48];
	MRef x, y;

	if (!local_access(m, 0, s2, a2, &y) || !local_access(st, 1, s1, a1, &x) || strcmp(s1, s2) ||
	    strcmp(a1, a2) || f->vr.v[x.v].cls != RC_R || f->vr.v[y.v].cls != RC_R)
		return 0;
	if (ref_phys(f, x) == ref_phys(f, y)) {
		res->spill_ins--;
		return 1;   /* the register still holds it */
	}
	if (!s1[0]) {
		m->text = arena_strdup(f->a, "MOV \001\001, \001\002");
		m->r[1] = x;
		m->rf[1] = MF_USE;
		m->nr = 2;
		m->copy = 1;
	}
	return 0;
}

/* The allocated code's clean-up, in one walk: copies that became no-ops
 * go, and reloads after their store (reload_dropped, which sees the
 * instruction kept before m). */
static void
tidy(MFunc *f, RaResult *res)
{
	size_t b, i, j;

	for (b = 0; b < f->b.n; b++) {
		MBlock *B = &f->b.v[b];
		for (i = j = 0; i < B->ins.n; i++) {
			MIns *m = &B->ins.v[i];
			if (noop_copy(f, m)) {
				res->copies_removed++;
				continue;
			}
			if (j > 0 && m->text[0] == 'L' && reload_dropped(f, &B->ins.v[j - 1], m, res))
				continue;
			if (j != i)   /* most blocks lose nothing */
				B->ins.v[j] = *m;
			j++;
		}
		B->ins.n = j;
	}
}

/* ---- the stack below the kernel's frame that calls use ---- */

/* The parameter area of the function starting at block e (from its entry
 * placeholder "IADD3 R1, R1, -FRAME-0xA, RZ", before fix_frames). */
static u32
area_of(const MFunc *f, int e)
{
	unsigned a = 0;
	const char *p;
	if (e < 0 || (size_t)e >= f->b.n || !f->b.v[e].ins.n)
		return 0;
	p = strstr(f->b.v[e].ins.v[0].text, "-FRAME-0x");
	if (p)
		a = get_hex(p + 9);
	return a;
}

/* Bytes of stack the deepest chain of calls takes below the kernel's
 * frame: each activation its parameter area + the frame.  Functions are
 * contiguous block ranges starting at CALL targets; an indirect call may
 * reach any function; a recursive chain is counted for at most as many
 * activations as there are functions + 1 (deeper recursion relies on the
 * driver's stack size, as ptxas's code does). */
static u32
call_stack(const MFunc *f, u32 frame)
{
	int nb = (int)f->b.n, nf = 0, b, i, k, *fof, *first, changed = 1;
	u32 *depth, best = 0;
	u8 *calls;

	fof = xcalloc((size_t)nb + 1, sizeof *fof);
	first = xcalloc((size_t)nb + 1, sizeof *first);
	for (b = 0; b < nb; b++)
		for (i = 0; i < (int)f->b.v[b].ins.n; i++) {
			const MIns *m = &f->b.v[b].ins.v[i];
			if (mir_op_is(m->text, "CALL") && !m->nr && m->target > 0 && m->target < nb)
				fof[m->target] = -1;   /* a function starts here */
		}
	for (b = 0; b < nb; b++) {   /* block -> function index (0 = the kernel) */
		if (fof[b] == -1)
			first[++nf] = b;
		fof[b] = nf;
	}
	calls = xcalloc((size_t)(nf + 1) * (size_t)(nf + 1), 1);
	for (b = 0; b < nb; b++)
		for (i = 0; i < (int)f->b.v[b].ins.n; i++) {
			const MIns *m = &f->b.v[b].ins.v[i];
			if (!mir_op_is(m->text, "CALL"))
				continue;
			for (k = 1; k <= nf; k++)
				if (m->nr ? 1 : m->target == first[k])
					calls[fof[b] * (nf + 1) + k] = 1;
		}
	/* longest path by relaxation, at most nf rounds (cycles stop there) */
	depth = xcalloc((size_t)nf + 1, sizeof *depth);
	for (int round = 0; round <= nf && changed; round++) {
		changed = 0;
		for (i = 0; i <= nf; i++)
			for (k = 1; k <= nf; k++) {
				u32 d = area_of(f, first[k]) + frame + depth[k];
				if (calls[i * (nf + 1) + k] && d > depth[i]) {
					depth[i] = d;
					changed = 1;
				}
			}
	}
	best = depth[0];
	free(fof);
	free(first);
	free(calls);
	free(depth);
	return best;
}

void
ra_free(Ra *r)
{
	free(r->block);
	free(r->rfirst);   /* rcount too */
	free(r->rs);       /* re too */
	memset(r, 0, sizeof *r);
}

/* Liveness of the current MIR (ra_live.h). */
void
ra_liveness(Ra *r, MFunc *f, const u8 *only)
{
	int nv = (int)f->vr.n, v, nu = 0;
	size_t nb = f->b.n, nv1 = (size_t)nv + 1, sets;
	char *m;
	LiveTmp t;

	r->f = f;
	r->only = only;
	for (v = 0; v < nv; v++)
		nu += f->vr.v[v].w;
	r->words = ((size_t)nu + 63) / 64;
	/* one zeroed block (ra_free): the unit sets (Ra's, then LiveTmp's),
	 * the int arrays, the byte arrays */
	sets = nb * r->words + 1;
	m = r->block = xcalloc((6 * sets + r->words + 1) * 8 + (5 * nv1 + 6 * (nb + 1)) * sizeof(int) + nv1 + nb + 1, 1);
	r->in = (u64 *)m;
	r->out = r->in + sets;
	r->din = r->out + sets;
	t.gen = r->din + sets;
	t.ue = t.gen + sets;
	t.kill = t.ue + sets;
	t.und = t.kill + sets;
	r->ubase = (int *)(t.und + r->words + 1);
	r->start = r->ubase + nv1;
	r->end = r->start + nv1;
	r->cpos = r->end + nv1;
	r->cblock = r->cpos + nv1;
	r->bstart = r->cblock + nv1;
	r->bend = r->bstart + nb + 1;
	t.np = r->bend + nb + 1;
	t.pred = t.np + nb + 1;   /* at most two an edge source: 2 * nb */
	t.wk.q = t.pred + 2 * (nb + 1);
	r->undef = (u8 *)(t.wk.q + nb + 1);
	t.wk.on = r->undef + nv1;
	memset(r->start, 0xff, 3 * nv1 * sizeof(int));   /* start, end, cpos: -1 */
	for (v = 0, nu = 0; v < nv; v++) {
		r->ubase[v] = nu;
		nu += f->vr.v[v].w;
		if (!f->vr.v[v].fixed)
			f->vr.v[v].phys = -1;
	}
	r->nunits = nu;
	liveness(r, &t);
	defined(r, &t);
}

/* Every register is caller-saved: what is live after a CALL is spilled.
 * Returns the number of vregs marked, -1 for a uniform one (error). */
static int
cross_calls(Ra *r, Spill *sp, char *err, size_t errlen)
{
	MFunc *f = r->f;
	size_t b, w;
	int v, n = 0, nv = (int)f->vr.n;

	for (b = 0; b < f->b.n; b++) {
		const MBlock *B = &f->b.v[b];
		if (!B->ins.n || !mir_op_is(B->ins.v[B->ins.n - 1].text, "CALL"))
			continue;
		if (B->succ[1] >= 0)
			continue;   /* a shared slow path: its body is in this CFG (reconv.c) */
		/* the live units in order, so their vregs in order */
		for (w = 0, v = 0; w < r->words; w++)
			for (u64 o = r->out[b * r->words + w]; o; o &= o - 1) {
				int u = (int)(w * 64) + __builtin_ctzll(o);
				while (v + 1 < nv && r->ubase[v + 1] <= u)
					v++;
				if (f->vr.v[v].fixed || sp->spill[v])
					continue;
				if (f->vr.v[v].cls == RC_UR || f->vr.v[v].cls == RC_UP) {
					snprintf(err, errlen, "a uniform register is live across a call");
					return -1;
				}
				sp->spill[v] = 1;
				n++;
			}
	}
	return n;
}

/* Registers a RET reads are never spilled (a reload after R1 went back
 * up would read the caller's frame). */
static int
mark_ret_operands(MFunc *f, Spill *sp)
{
	size_t b, i;
	int k, calls = 0;

	for (b = 0; b < f->b.n; b++)
		for (i = 0; i < f->b.v[b].ins.n; i++) {
			const MIns *m = &f->b.v[b].ins.v[i];
			if (mir_op_is(m->text, "CALL"))
				calls = 1;
			if (mir_op_is(m->text, "RET"))
				for (k = 0; k < m->nr; k++)
					sp->nospill[m->r[k].v] = 1;
		}
	return calls;
}

/* Resolve the frame placeholders of isel_call.c: -FRAME-0xA, FRAME+0xA,
 * FRAME (frame + area, its negation, the frame), when f has any. */
static void
fix_frames(MFunc *f, u32 frame)
{
	size_t b, i;

	for (b = 0; f->frames && b < f->b.n; b++)
		for (i = 0; i < f->b.v[b].ins.n; i++) {
			MIns *m = &f->b.v[b].ins.v[i];
			const char *p = strstr(m->text, "FRAME"), *q;
			u64 val = frame;
			int neg = 0, pre;
			char *t, *e;
			if (!p)
				continue;
			pre = (int)(p - m->text);
			q = p + 5;
			if (pre > 0 && p[-1] == '-') {
				neg = 1;
				pre--;
			}
			if ((q[0] == '-' || q[0] == '+') && q[1] == '0' && q[2] == 'x' && is_hex(q[3])) {
				val += get_hex(q + 3);
				q++;
				while (*q == 'x' || is_hex(*q))
					q++;
			}
			/* the text before [-]FRAME, [-]0x<val>, the rest from q */
			t = arena_alloc(f->a, (size_t)pre + 20 + strlen(q));
			memcpy(t, m->text, (size_t)pre);
			e = t + pre;
			if (neg)
				*e++ = '-';
			strcpy(mi_put_hex(e, val), q);
			m->text = t;
		}
}

int
ra_reg_limit(u32 maxnreg, const u32 maxntid[3], u32 minctas)
{
	u32 lim = 255, t = 1, k;

	if (maxnreg && maxnreg < lim)
		lim = maxnreg;
	for (k = 0; k < 3; k++)
		t *= maxntid[k] ? maxntid[k] : 1;
	if (maxntid[0] || maxntid[1] || maxntid[2]) {
		/* 64K registers per SM; warps allocate in whole warps and
		 * threads in multiples of 8 registers */
		u32 per = 65536u / (((t + 31) / 32) * 32 * (minctas ? minctas : 1)) / 8 * 8;
		if (per < lim)
			lim = per;
	}
	return lim < 16 ? 16 : (int)lim;
}

/* The MIR before coalescing, to allocate again without it. */
typedef struct {
	VEC(MVreg) vr;
	MIns **ins;
	size_t *n, nb;
} Snap;

static void
snap_take(Snap *s, const MFunc *f)
{
	size_t b;
	memset(s, 0, sizeof *s);
	s->vr.n = s->vr.cap = f->vr.n;
	s->vr.v = memcpy(xmalloc((f->vr.n + 1) * sizeof(MVreg)), f->vr.v, f->vr.n * sizeof(MVreg));
	s->nb = f->b.n;
	s->ins = xcalloc(s->nb + 1, sizeof *s->ins);
	s->n = xcalloc(s->nb + 1, sizeof *s->n);
	for (b = 0; b < s->nb; b++) {
		s->n[b] = f->b.v[b].ins.n;
		s->ins[b] = xmalloc((s->n[b] + 1) * sizeof(MIns));
		if (s->n[b])
			memcpy(s->ins[b], f->b.v[b].ins.v, s->n[b] * sizeof(MIns));
	}
}

/* Put the snapshot back (it stays valid). */
static void
snap_restore(const Snap *s, MFunc *f)
{
	size_t b;
	if (f->vr.cap < s->vr.n) {
		f->vr.cap = s->vr.n;
		f->vr.v = xrealloc(f->vr.v, f->vr.cap * sizeof(MVreg));
	}
	memcpy(f->vr.v, s->vr.v, s->vr.n * sizeof(MVreg));
	f->vr.n = s->vr.n;
	for (b = 0; b < s->nb; b++) {
		MBlock *B = &f->b.v[b];
		B->ins.n = 0;
		B->ins.cap = s->n[b] + 1;
		B->ins.v = xrealloc(B->ins.v, B->ins.cap * sizeof(MIns));
		memcpy(B->ins.v, s->ins[b], s->n[b] * sizeof(MIns));
		B->ins.n = s->n[b];
	}
}

static void
snap_free(Snap *s)
{
	size_t b;
	for (b = 0; b < s->nb; b++)
		free(s->ins[b]);
	vec_free(&s->vr);
	free(s->ins);
	free(s->n);
}

static void
spill_free(Spill *sp)
{
	free(sp->nospill);
	free(sp->slot);
	free(sp->home);
	free(sp->undef);
	free(sp->spill);
	free(sp->remat);
	memset(sp, 0, sizeof *sp);
}

/* Allocation rounds: scan, spill what does not fit, scan again.  pre
 * (unless NULL) receives the code as it was before the first spill
 * rewrite, if there is one. */
static int
alloc(MFunc *f, const RaOpts *o, Spill *sp, RaResult *res, int *calls, Snap *pre, char *err, size_t errlen)
{
	Ra r = {0};
	int rc = 0, nspill = 0, round, v;
	RaOpts oc = *o;

	sp->frame = (o->frame_base + 15) & ~15u;
	for (round = 0;; round++) {
		spill_grow(sp, f->vr.n + 1);
		*calls = mark_ret_operands(f, sp);
		oc.calls = *calls;
		ra_liveness(&r, f, NULL);
		for (v = 0; v < (int)f->vr.n; v++)
			sp->undef[v] |= r.undef[v];
		nspill = cross_calls(&r, sp, err, errlen);
		if (nspill < 0) {
			rc = -1;
		} else if (!nspill) {   /* (a round that spills across calls needs no ranges) */
			ranges(&r);
			rc = scan(&r, &oc, sp, res, &nspill, err, errlen);
		}
		ra_free(&r);
		if (rc < 0 || !nspill)
			return rc;
		if (round == 64) {
			snprintf(err, errlen, "register allocation does not converge after %d spill rounds", round);
			return -1;
		}
		if (pre && !round)
			snap_take(pre, f);
		rewrite(f, sp, res);
	}
}

/* Instructions the allocated code will have: copies that became no-ops
 * go. */
static int
cost(const MFunc *f)
{
	size_t b, i;
	int n = 0;

	for (b = 0; b < f->b.n; b++)
		for (i = 0; i < f->b.v[b].ins.n; i++)
			n += !noop_copy(f, &f->b.v[b].ins.v[i]);
	return n;
}

/* The code as coalescing found it, from the code it left (pre when the
 * allocation rewrote it since, else f itself) and its log. */
static void
uncoalesce(MFunc *f, const Snap *pre, const CoLog *log)
{
	size_t j;

	if (pre->ins)
		snap_restore(pre, f);
	for (j = 0; j < log->refs.n; j++) {
		const CoRef *x = &log->refs.v[j];
		f->b.v[x->b].ins.v[x->i].r[x->k] = x->was;
	}
	for (j = 0; j < log->tmp.n; j++)
		f->vr.v[log->tmp.v[j]].tmp = 1;
}

/* Coalescing can lengthen live ranges: when the coalesced code spills,
 * allocate the uncoalesced code too and keep whichever ends up with
 * fewer instructions (spill code against the copies saved). */
static int
alloc_coalesced(MFunc *f, const RaOpts *o, Spill *sp, RaResult *res, int *calls, char *err, size_t errlen)
{
	Snap pre = {0};
	CoLog log = {0};
	int rc, merged, c1, v, nv = (int)f->vr.n;
	int *root = xcalloc((size_t)nv + 1, sizeof *root), *off = xcalloc((size_t)nv + 1, sizeof *off);

	merged = ra_coalesce(f, root, off, &log);
	rc = alloc(f, o, sp, res, calls, merged ? &pre : NULL, err, errlen);
	res->coalesced = merged;
	if (merged && (rc < 0 || res->spill_ins)) {
		/* the coalesced result is kept aside, not computed again */
		Snap done;
		Spill sp1 = *sp;
		RaResult res1 = *res;
		int calls1 = *calls;
		c1 = rc < 0 ? -1 : cost(f);
		if (c1 >= 0)
			snap_take(&done, f);
		else
			spill_free(sp);
		uncoalesce(f, &pre, &log);
		memset(sp, 0, sizeof *sp);
		memset(res, 0, sizeof *res);
		rc = alloc(f, o, sp, res, calls, NULL, err, errlen);
		if (c1 >= 0 && (rc < 0 || cost(f) >= c1)) {
			snap_restore(&done, f);
			spill_free(sp);
			*sp = sp1;
			*res = res1;
			*calls = calls1;
			rc = 0;
		} else if (c1 >= 0)
			spill_free(&sp1);
		if (c1 >= 0)
			snap_free(&done);
	}
	/* merged vregs live on as parts of their group (for dumps, tests) */
	if (res->coalesced)
		for (v = 0; v < nv; v++)
			if (root[v] != v && f->vr.v[root[v]].phys >= 0)
				f->vr.v[v].phys = f->vr.v[root[v]].phys + off[v];
	snap_free(&pre);
	vec_free(&log.refs);
	vec_free(&log.tmp);
	free(root);
	free(off);
	return rc;
}

/* Debugging aid (OA_RA_CHECK=1): prove that no definition overwrites a
 * register holding a value still live (per unit, over the CFG). */
static void
check_alloc(MFunc *f)
{
	Ra r = {0};
	int *ph, *save, *fd, v, k, u, n, first, i, l;
	size_t b;
	u64 *live;

	save = xcalloc(f->vr.n + 1, sizeof *save);
	for (v = 0; v < (int)f->vr.n; v++)
		save[v] = f->vr.v[v].phys;
	ra_liveness(&r, f, NULL);
	for (v = 0; v < (int)f->vr.n; v++)
		f->vr.v[v].phys = save[v];
	ph = xcalloc((size_t)r.nunits + 1, sizeof *ph);
	for (v = 0; v < (int)f->vr.n; v++)
		for (k = 0; k < f->vr.v[v].w; k++)
			ph[r.ubase[v] + k] = f->vr.v[v].fixed ? -1 - v : f->vr.v[v].cls * 1000 + save[v] + k;
	live = xcalloc(r.words + 1, 8);
	fd = xcalloc((size_t)r.nunits + 1, sizeof *fd);
	for (b = 0; b < f->b.n; b++) {
		MBlock *B = &f->b.v[b];
		/* a unit holds a value after its first def in the block, or
		 * from the entry when some path there defines it */
		for (l = 0; l < r.nunits; l++)
			fd[l] = BIT(&r.din[b * r.words], l) ? -1 : (int)B->ins.n;
		for (i = (int)B->ins.n - 1; i >= 0; i--)
			for (k = 0; k < B->ins.v[i].nr; k++)
				if (B->ins.v[i].rf[k] & MF_DEF)
					for (n = ra_ref_units(&r, B->ins.v[i].r[k], &first), u = 0; u < n; u++)
						if (fd[first + u] >= 0)
							fd[first + u] = i;
		memcpy(live, &r.out[b * r.words], r.words * 8);
		for (i = (int)B->ins.n - 1; i >= 0; i--) {
			const MIns *m = &B->ins.v[i];
			int src = -1;
			if (m->copy && m->nr == 2 && m->guard < 0)
				ra_ref_units(&r, m->r[1], &src);
			for (k = 0; k < m->nr; k++)
				if (m->rf[k] & MF_DEF)
					for (n = ra_ref_units(&r, m->r[k], &first), u = 0; u < n; u++)
						for (l = 0; l < r.nunits; l++)
							if (BIT(live, l) && fd[l] < i && l != first + u && l != src && ph[l] == ph[first + u])
								fprintf(stderr, "ra check: block %zu ins %d `%s`: def of unit %d clobbers live unit %d (reg %d)\n",
									b, i, m->text, first + u, l, ph[l]);
			for (k = 0; k < m->nr; k++)
				if ((m->rf[k] & MF_DEF) && ra_kills(f, m, m->r[k]))
					for (n = ra_ref_units(&r, m->r[k], &first), u = 0; u < n; u++)
						CLR(live, first + u);
			for (k = 0; k < m->nr; k++)
				if (m->rf[k] & MF_USE)
					for (n = ra_ref_units(&r, m->r[k], &first), u = 0; u < n; u++)
						SET(live, first + u);
			if (m->guard >= 0)
				SET(live, r.ubase[m->guard]);
		}
	}
	free(live);
	free(fd);
	free(ph);
	free(save);
	ra_free(&r);
}

int
ra_run(MFunc *f, const RaOpts *o, RaResult *res, char *err, size_t errlen)
{
	Spill sp = {0};
	int v, rc, calls = 0;

	memset(res, 0, sizeof *res);
	if (o->coalesce) {
		int webs = ra_split_webs(f);
		rc = alloc_coalesced(f, o, &sp, res, &calls, err, errlen);
		res->webs = webs;
	} else
		rc = alloc(f, o, &sp, res, &calls, NULL, err, errlen);
	/* 16-aligned: R1 stays aligned for STL.128 */
	res->frame = ((res->spilled ? sp.frame : o->frame_base) + 15) & ~15u;
	if (calls && res->frame < 16)   /* at least 16 bytes keeps the placeholders simple */
		res->frame = 16;
	/* vregs never referenced keep phys -1; give them something printable */
	for (v = 0; v < (int)f->vr.n; v++)
		if (f->vr.v[v].phys < 0)
			f->vr.v[v].phys = 0;
	if (!rc && env_has("OA_RA_CHECK"))
		check_alloc(f);
	if (!rc) {
		tidy(f, res);
		if (calls)
			res->call_stack = call_stack(f, res->frame);
		reserve_frame(f, res->frame);
		fix_frames(f, res->frame);
	}
	spill_free(&sp);
	return rc;
}
