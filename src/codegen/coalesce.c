/* coalesce.c -- copy coalescing before register allocation (ra_live.h).
 *
 * Selection copies values around: PTX registers redefined several times
 * (copy propagation only handles single definitions), fragments gathered
 * into the aligned groups MMA/LDSM/STS.128 read and scattered out of the
 * groups they write, loop-carried values.  "MOV d, s" costs nothing when
 * d and s get the same register, which is possible when their values do
 * not interfere (Chaitin): no definition of one while the other is live,
 * except the copy itself.
 *
 * Interference is computed per 32-bit unit, only among the units of the
 * vregs that take part in copies (a bit matrix).  Copies are coalesced
 * greedily, innermost loops first, by merging vregs: the narrower side
 * (scalar, pair) becomes a slot of the wider one (a pair or a quad group)
 * at the offset the copy asks for, aligned as its own width needs; a
 * merged unit's interference is the union of its members'.  References
 * are then rewritten to the group's vreg and part, and the copies read
 * "MOV x, x" (ra.c deletes them after allocation). */
#include <stdlib.h>
#include <string.h>

#include "codegen/ra_live.h"

enum { MAX_CUNITS = 8192 };  /* bit matrix of at most 8 MiB */

typedef struct {
	int b, i, depth;
} Cand;

typedef struct {
	MFunc *f;
	Ra *r;
	int *root, *off, *nxt;  /* per vreg: group root, offset in it, next member */
	int *last;              /* per root: last member */
	int *cidx;              /* per unit: row index, -1 when not tracked */
	int nc;
	size_t cw;              /* u64 words per row */
	u64 *rows;
} Co;

static int
width(const Co *c, int v)
{
	return c->f->vr.v[v].w;
}

static u64 *
row(Co *c, int v, int k)
{
	return &c->rows[(size_t)c->cidx[c->r->ubase[v] + k] * c->cw];
}

/* A plain, unguarded-or-guarded 32-bit copy between allocatable vregs of
 * one class: MOV d, s. */
static int
is_cand(const MFunc *f, const MIns *m)
{
	const MVreg *d, *s;
	if (!m->copy || m->nr != 2 || m->rf[0] != MF_DEF || m->rf[1] != MF_USE)
		return 0;
	d = &f->vr.v[m->r[0].v];
	s = &f->vr.v[m->r[1].v];
	if (d->fixed || s->fixed || d->cls != s->cls || d->cls == RC_P || d->cls == RC_UP || d->w == 3 || s->w == 3)
		return 0;
	return (m->r[0].w == 1 || d->w - m->r[0].sub == 1) && (m->r[1].w == 1 || s->w - m->r[1].sub == 1);
}

/* Rows for every unit of every vreg some copy touches. */
static int
track(Co *c, const Cand *cd, int n)
{
	MFunc *f = c->f;
	int i, k, j, nc = 0;

	c->cidx = xcalloc((size_t)c->r->nunits + 1, sizeof *c->cidx);
	for (i = 0; i < c->r->nunits; i++)
		c->cidx[i] = -1;
	for (i = 0; i < n; i++) {
		const MIns *m = &f->b.v[cd[i].b].ins.v[cd[i].i];
		for (k = 0; k < 2; k++) {
			int v = m->r[k].v, u = c->r->ubase[v];
			if (c->cidx[u] >= 0)
				continue;
			for (j = 0; j < f->vr.v[v].w; j++)
				c->cidx[u + j] = nc++;
		}
	}
	if (nc > MAX_CUNITS)
		return -1;
	c->nc = nc;
	c->cw = ((size_t)nc + 63) / 64;
	c->rows = xcalloc((size_t)nc * c->cw + 1, 8);
	return 0;
}

/* Has v rows?  track gives all its units or none, and a ref's units lie
 * within its vreg (mir_verify), so an untracked vreg's refs touch no row. */
static int
tracked(const Co *c, int v)
{
	return c->cidx[c->r->ubase[v]] >= 0;
}

/* row[d] |= live (tracked units), except the copy's source xc. */
static void
add_edges(Co *c, int d, const u64 *livec, int xc)
{
	u64 *rw = &c->rows[(size_t)d * c->cw];
	size_t w;
	for (w = 0; w < c->cw; w++) {
		u64 x = livec[w];
		if (xc >= 0 && (size_t)xc >> 6 == w)
			x &= ~(1ull << (xc & 63));
		if ((size_t)d >> 6 == w)
			x &= ~(1ull << (d & 63));
		rw[w] |= x;
	}
}

/* Interference: walk each block backwards from its live-out set (the
 * tracked units' part of it: no other unit is looked at); every
 * def of a tracked unit interferes with the tracked units live after it
 * (but an unguarded copy's def not with its source) and with the other
 * units the instruction defines. */
static void
interfere(Co *c)
{
	MFunc *f = c->f;
	Ra *r = c->r;
	u64 *livec = xcalloc(c->cw + 1, 8);
	size_t b;
	int i, k, k2, u, u2, n, n2, first, first2;

	for (b = 0; b < f->b.n; b++) {
		const MBlock *B = &f->b.v[b];
		memset(livec, 0, c->cw * 8);
		for (size_t w = 0; w < r->words; w++)   /* the live units, not all units */
			for (u64 o = r->out[b * r->words + w]; o; o &= o - 1) {
				u = (int)(w * 64) + __builtin_ctzll(o);
				if (c->cidx[u] >= 0)
					SET(livec, c->cidx[u]);
			}
		for (i = (int)B->ins.n - 1; i >= 0; i--) {
			const MIns *m = &B->ins.v[i];
			int xc = -1;
			if (is_cand(f, m) && m->guard < 0) {
				ra_ref_units(r, m->r[1], &first);
				xc = c->cidx[first];
			}
			for (k = 0; k < m->nr; k++) {
				if (!(m->rf[k] & MF_DEF) || !tracked(c, m->r[k].v))
					continue;
				for (n = ra_ref_units(r, m->r[k], &first), u = 0; u < n; u++) {
					int d = c->cidx[first + u];
					if (d < 0)
						continue;
					add_edges(c, d, livec, xc);
					for (k2 = 0; k2 < m->nr; k2++)
						if ((m->rf[k2] & MF_DEF) && m->r[k2].v != m->r[k].v)
							for (n2 = ra_ref_units(r, m->r[k2], &first2), u2 = 0; u2 < n2; u2++)
								if (c->cidx[first2 + u2] >= 0)
									SET(&c->rows[(size_t)d * c->cw], c->cidx[first2 + u2]);
				}
			}
			for (k = 0; k < m->nr; k++)
				if ((m->rf[k] & MF_DEF) && ra_kills(f, m, m->r[k]) && tracked(c, m->r[k].v))
					for (n = ra_ref_units(r, m->r[k], &first), u = 0; u < n; u++)
						if (c->cidx[first + u] >= 0)
							CLR(livec, c->cidx[first + u]);
			for (k = 0; k < m->nr; k++)
				if ((m->rf[k] & MF_USE) && tracked(c, m->r[k].v))
					for (n = ra_ref_units(r, m->r[k], &first), u = 0; u < n; u++)
						if (c->cidx[first + u] >= 0)
							SET(livec, c->cidx[first + u]);
			if (m->guard >= 0 && c->cidx[r->ubase[m->guard]] >= 0)
				SET(livec, c->cidx[r->ubase[m->guard]]);
		}
	}
	free(livec);
}

/* Does a member unit of (root R, part j) have its bit in rw? */
static int
class_hits(const Co *c, int R, int j, const u64 *rw)
{
	int v;
	for (v = R; v >= 0; v = c->nxt[v]) {
		int k = j - c->off[v];
		if (k >= 0 && k < width(c, v) && BIT(rw, c->cidx[c->r->ubase[v] + k]))
			return 1;
	}
	return 0;
}

static int
align_of(int w)
{
	return w > 4 ? 8 : w;   /* as ra.c's place() */
}

/* Merge root X into root Y at offset o if no part interferes. */
static int
merge(Co *c, int X, int Y, int o)
{
	int wx = width(c, X), k, v;

	if (o < 0 || o + wx > width(c, Y) || o % align_of(wx))
		return 0;
	for (k = 0; k < wx; k++)
		if (class_hits(c, Y, o + k, row(c, X, k)) || class_hits(c, X, k, row(c, Y, o + k)))
			return 0;
	for (k = 0; k < wx; k++) {
		u64 *a = row(c, Y, o + k), *b = row(c, X, k);
		size_t w;
		for (w = 0; w < c->cw; w++)
			a[w] |= b[w];
	}
	for (v = X; v >= 0; v = c->nxt[v]) {
		c->root[v] = Y;
		c->off[v] += o;
	}
	c->nxt[c->last[Y]] = X;
	c->last[Y] = c->last[X];
	return 1;
}

/* Try to give both sides of copy m one register. */
static int
coalesce_copy(Co *c, const MIns *m)
{
	MRef d = m->r[0], s = m->r[1];
	int D = c->root[d.v], S = c->root[s.v];
	int od = c->off[d.v] + d.sub, os = c->off[s.v] + s.sub;

	int ok;
	if (D == S)
		return 0;
	if (width(c, D) <= width(c, S))
		ok = merge(c, D, S, os - od);
	else
		ok = merge(c, S, D, od - os);
	return ok;
}

static void
rewrite_ref(Co *c, MRef *x)
{
	int R = c->root[x->v], w;
	w = x->w ? x->w : width(c, x->v) - x->sub;
	x->sub = (u8)(x->sub + c->off[x->v]);
	x->w = (u8)w;
	x->v = R;
	if (!x->sub && w == width(c, R))
		x->w = 0;
}

/* Rewrite the refs of merged vregs, logging what they were.  Guards
 * are predicates, never merged (is_cand). */
static void
rewrite(Co *c, CoLog *log)
{
	MFunc *f = c->f;
	size_t b, i;
	int k, v;

	for (b = 0; b < f->b.n; b++)
		for (i = 0; i < f->b.v[b].ins.n; i++) {
			MIns *m = &f->b.v[b].ins.v[i];
			for (k = 0; k < m->nr; k++)
				if (c->root[m->r[k].v] != m->r[k].v) {
					CoRef x = { (int)b, (int)i, k, m->r[k] };
					vec_push(&log->refs, x);
					rewrite_ref(c, &m->r[k]);
				}
		}
	/* a guarded def kills only when every member was a temporary */
	for (v = 0; v < (int)f->vr.n; v++)
		if (c->root[v] != v && !f->vr.v[v].tmp && f->vr.v[c->root[v]].tmp) {
			vec_push(&log->tmp, c->root[v]);
			f->vr.v[c->root[v]].tmp = 0;
		}
}

static int
by_depth(const void *a, const void *b)
{
	const Cand *x = a, *y = b;
	if (x->depth != y->depth)
		return y->depth - x->depth;
	return x->b != y->b ? x->b - y->b : x->i - y->i;
}

int
ra_coalesce(MFunc *f, int *root, int *off, CoLog *log)
{
	Ra r = {0};
	Co c = {0};
	VEC(Cand) cd = {0};
	size_t b, i;
	int v, n = 0, nv = (int)f->vr.n;
	u8 *only = NULL;

	for (b = 0; b < f->b.n; b++)
		for (i = 0; i < f->b.v[b].ins.n; i++)
			if (is_cand(f, &f->b.v[b].ins.v[i])) {
				Cand x = { (int)b, (int)i, f->b.v[b].loop_depth };
				vec_push(&cd, x);
			}
	for (v = 0; v < nv; v++) {
		root[v] = v;
		off[v] = 0;
	}
	if (!cd.n)
		return 0;
	only = xcalloc((size_t)nv + 1, 1);   /* the copies' vregs: only their liveness matters */
	for (i = 0; i < cd.n; i++) {
		const MIns *m = &f->b.v[cd.v[i].b].ins.v[cd.v[i].i];
		only[m->r[0].v] = only[m->r[1].v] = 1;
	}
	ra_liveness(&r, f, only);
	c.f = f;
	c.r = &r;
	if (track(&c, cd.v, (int)cd.n) < 0)
		goto out;
	interfere(&c);
	c.root = root;   /* identity so far (above) */
	c.off = off;
	c.nxt = xcalloc(2 * ((size_t)nv + 1), sizeof(int));   /* last too */
	c.last = c.nxt + nv + 1;
	for (v = 0; v < nv; v++) {
		c.last[v] = v;
		c.nxt[v] = -1;
	}
	qsort(cd.v, cd.n, sizeof *cd.v, by_depth);
	for (i = 0; i < cd.n; i++)
		n += coalesce_copy(&c, &f->b.v[cd.v[i].b].ins.v[cd.v[i].i]);
	if (n)
		rewrite(&c, log);
out:
	free(c.nxt);   /* last too */
	free(c.cidx);
	free(c.rows);
	vec_free(&cd);
	ra_free(&r);
	free(only);
	return n;
}
