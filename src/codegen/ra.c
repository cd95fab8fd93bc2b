/* ra.c -- liveness and linear-scan register allocation (see ra.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/ra.h"

typedef struct {
	MFunc *f;
	int nunits;
	int *ubase;          /* vreg -> first unit */
	size_t words;        /* u64 words per unit set */
	u64 *in, *out;       /* per block */
	int *start, *end;    /* per vreg interval, -1 when unused */
	int *bstart, *bend;  /* per block position range */
} Ra;

#define BIT(s, u) ((s)[(u) >> 6] >> ((u) & 63) & 1)
#define SET(s, u) ((s)[(u) >> 6] |= 1ull << ((u) & 63))
#define CLR(s, u) ((s)[(u) >> 6] &= ~(1ull << ((u) & 63)))

static int
ref_units(const Ra *r, MRef x, int *first)
{
	const MVreg *v = &r->f->vr.v[x.v];
	*first = r->ubase[x.v] + x.sub;
	return x.w ? x.w : v->w - x.sub;
}

/* Does this def kill the parts it writes (not a guarded update)? */
static int
kills(const MFunc *f, const MIns *m, MRef x)
{
	return m->guard < 0 || f->vr.v[x.v].tmp;
}

static void
interval_add(Ra *r, int v, int pos)
{
	if (r->f->vr.v[v].fixed)
		return;
	if (r->start[v] < 0 || pos < r->start[v])
		r->start[v] = pos;
	if (pos > r->end[v])
		r->end[v] = pos;
}

static void
liveness(Ra *r)
{
	MFunc *f = r->f;
	size_t nb = f->b.n, b, W = r->words;
	u64 *live = xcalloc(W, 8);
	int changed = 1, i, k, u, n, first;

	while (changed) {
		changed = 0;
		for (b = nb; b-- > 0;) {
			MBlock *B = &f->b.v[b];
			memset(live, 0, W * 8);
			for (k = 0; k < 2; k++)
				if (B->succ[k] >= 0)
					for (size_t w = 0; w < W; w++)
						live[w] |= r->in[(size_t)B->succ[k] * W + w];
			memcpy(&r->out[b * W], live, W * 8);
			for (i = (int)B->ins.n - 1; i >= 0; i--) {
				const MIns *m = &B->ins.v[i];
				for (k = 0; k < m->nr; k++)
					if ((m->rf[k] & MF_DEF) && kills(f, m, m->r[k]))
						for (n = ref_units(r, m->r[k], &first), u = 0; u < n; u++)
							CLR(live, first + u);
				for (k = 0; k < m->nr; k++)
					if (m->rf[k] & MF_USE)
						for (n = ref_units(r, m->r[k], &first), u = 0; u < n; u++)
							SET(live, first + u);
				if (m->guard >= 0)
					SET(live, r->ubase[m->guard]);
			}
			if (memcmp(&r->in[b * W], live, W * 8)) {
				memcpy(&r->in[b * W], live, W * 8);
				changed = 1;
			}
		}
	}
	free(live);
}

static void
intervals(Ra *r)
{
	MFunc *f = r->f;
	size_t b;
	int pos = 0, i, k, v;
	int *uv = xcalloc((size_t)r->nunits, sizeof *uv);

	for (v = 0; v < (int)f->vr.n; v++)
		for (k = 0; k < f->vr.v[v].w; k++)
			uv[r->ubase[v] + k] = v;
	for (b = 0; b < f->b.n; b++) {
		MBlock *B = &f->b.v[b];
		r->bstart[b] = pos;
		for (i = 0; i < (int)B->ins.n; i++, pos += 2) {
			const MIns *m = &B->ins.v[i];
			for (k = 0; k < m->nr; k++)
				interval_add(r, m->r[k].v, pos + ((m->rf[k] & MF_DEF) ? 1 : 0));
			if (m->guard >= 0)
				interval_add(r, m->guard, pos);
		}
		r->bend[b] = pos;
		for (k = 0; k < r->nunits; k++) {
			if (BIT(&r->in[b * r->words], k))
				interval_add(r, uv[k], r->bstart[b]);
			if (BIT(&r->out[b * r->words], k))
				interval_add(r, uv[k], r->bend[b]);
		}
	}
	free(uv);
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
	size_t b;
	int i, pos;

	for (b = 0; b < f->b.n; b++)
		for (i = 0, pos = r->bstart[b]; i < (int)f->b.v[b].ins.n; i++, pos += 2) {
			const MIns *m = &f->b.v[b].ins.v[i];
			if (!m->copy || m->nr != 2 || m->r[0].v != v || m->guard >= 0)
				continue;
			if (pos + 1 != r->start[v])
				return 0;
			{
				MRef s = m->r[1];
				if (f->vr.v[s.v].phys < 0 || r->end[s.v] > pos)
					return 0;
				*hint = f->vr.v[s.v].phys + s.sub - m->r[0].sub;
				return 1;
			}
		}
	return 0;
}

static int
cmp_start(const void *a, const void *b, void *ctx)
{
	const int *st = ctx;
	int x = *(const int *)a, y = *(const int *)b;
	return st[x] != st[y] ? st[x] - st[y] : x - y;
}

static void
sort_by_start(int *ord, int n, const int *start)
{
	/* insertion sort keeps it deterministic and simple; n is modest */
	int i, j;
	for (i = 1; i < n; i++) {
		int t = ord[i];
		for (j = i; j > 0 && cmp_start(&ord[j - 1], &t, (void *)start) > 0; j--)
			ord[j] = ord[j - 1];
		ord[j] = t;
	}
}

static void
remove_noop_copies(MFunc *f, RaResult *res)
{
	size_t b, i, j;

	for (b = 0; b < f->b.n; b++) {
		MBlock *B = &f->b.v[b];
		for (i = j = 0; i < B->ins.n; i++) {
			MIns *m = &B->ins.v[i];
			if (m->copy && m->nr == 2 &&
			    f->vr.v[m->r[0].v].cls == f->vr.v[m->r[1].v].cls &&
			    f->vr.v[m->r[0].v].phys + m->r[0].sub == f->vr.v[m->r[1].v].phys + m->r[1].sub) {
				res->copies_removed++;
				continue;
			}
			B->ins.v[j++] = *m;
		}
		B->ins.n = j;
	}
}

int
ra_run(MFunc *f, const RaOpts *o, RaResult *res, char *err, size_t errlen)
{
	Ra r = {0};
	Files fl = {0};
	int nv = (int)f->vr.n, v, i, n = 0, *ord, *active, nact = 0, rc = 0;
	size_t nb = f->b.n;

	memset(res, 0, sizeof *res);
	r.f = f;
	r.ubase = xcalloc((size_t)nv, sizeof *r.ubase);
	for (v = 0; v < nv; v++) {
		r.ubase[v] = r.nunits;
		r.nunits += f->vr.v[v].w;
	}
	r.words = ((size_t)r.nunits + 63) / 64;
	r.in = xcalloc(nb * r.words + 1, 8);
	r.out = xcalloc(nb * r.words + 1, 8);
	r.start = xcalloc((size_t)nv, sizeof(int));
	r.end = xcalloc((size_t)nv, sizeof(int));
	r.bstart = xcalloc(nb + 1, sizeof(int));
	r.bend = xcalloc(nb + 1, sizeof(int));
	for (v = 0; v < nv; v++)
		r.start[v] = r.end[v] = -1;
	liveness(&r);
	intervals(&r);

	fl.limit[RC_R] = o->max_r > 0 && o->max_r < 255 ? o->max_r : 255;
	fl.limit[RC_P] = 7;
	fl.limit[RC_UR] = 63;
	fl.limit[RC_UP] = 7;
	mark(&fl, RC_R, 1, 1, 1);     /* stack pointer */
	mark(&fl, RC_UR, 4, 2, 1);    /* memory descriptor */
	ord = xcalloc((size_t)nv + 1, sizeof *ord);
	active = xcalloc((size_t)nv + 1, sizeof *active);
	for (v = 0; v < nv; v++)
		if (!f->vr.v[v].fixed && r.start[v] >= 0)
			ord[n++] = v;
	sort_by_start(ord, n, r.start);
	res->regs = 2;
	for (i = 0; i < n && !rc; i++) {
		MVreg *vr = &f->vr.v[ord[i]];
		int st = r.start[ord[i]], j, k, base = -1, hint, al;
		/* expire */
		for (j = k = 0; j < nact; j++) {
			MVreg *a = &f->vr.v[active[j]];
			if (r.end[active[j]] < st)
				mark(&fl, a->cls, a->phys, a->w, 0);
			else
				active[k++] = active[j];
		}
		nact = k;
		al = vr->w >= 4 ? 4 : vr->w;
		if (hint_of(&r, ord[i], &hint) && hint >= 0 && hint % al == 0 && fits(&fl, vr->cls, hint, vr->w))
			base = hint;
		for (k = 0; base < 0 && k < fl.limit[vr->cls]; k += al)
			if (fits(&fl, vr->cls, k, vr->w))
				base = k;
		if (base < 0) {
			snprintf(err, errlen, "out of %s registers (%d live at once; spilling is not implemented yet)",
				 vr->cls == RC_R ? "general" : vr->cls == RC_P ? "predicate" : "uniform", nact + 1);
			rc = -1;
			break;
		}
		vr->phys = base;
		mark(&fl, vr->cls, base, vr->w, 1);
		active[nact++] = ord[i];
		if (vr->cls == RC_R && base + vr->w > res->regs)
			res->regs = base + vr->w;
	}
	/* vregs never referenced keep phys -1; give them something printable */
	for (v = 0; v < nv; v++)
		if (f->vr.v[v].phys < 0)
			f->vr.v[v].phys = 0;
	if (!rc)
		remove_noop_copies(f, res);
	free(ord);
	free(active);
	free(r.ubase);
	free(r.in);
	free(r.out);
	free(r.start);
	free(r.end);
	free(r.bstart);
	free(r.bend);
	return rc;
}
