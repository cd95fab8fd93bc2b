/* hazard.c -- the static hazard checker (see hazard.h).
 *
 * State at a program point, per register slot:
 *   rem[cat]  cycles a consumer of category cat must still wait for the
 *             last fixed-latency producer (0 = ready); join = max;
 *   wsb       write scoreboards the slot's pending variable-latency
 *             producers set (bit 6: a producer that set none); join = or;
 *   rsb       read scoreboards of pending late readers (stores ...);
 * and per scoreboard the cycles since it was last incremented.  An
 * instruction first waits (its wait mask clears those scoreboards from
 * every slot), then reads (a read of a slot with rem > 0 or wsb != 0 is a
 * hazard), then writes (a write over pending wsb or rsb is one), then the
 * clock advances by its stall count.  Blocks are joined at their entry and
 * iterated to a fixed point; a final pass reports.  Stalls are the only
 * time counted: scoreboard waits may last longer, never shorter. */
#include <stdlib.h>
#include <string.h>

#include "codegen/hazard.h"

enum { NSB = 6, SB_NONE = 0x40, AGE_MAX = 255, NPR = 8, AGE_DROP = 120 };

typedef struct {
	u8 rem[NSLOT][LC_NCAT];
	u8 fage[NSLOT];     /* cycles since fprod issued (min over paths) */
	i32 fprod[NSLOT];   /* the fixed producer, -1 none */
	/* the fixed producers still in flight on some path and their ages
	   (min over paths); pover: more than NPR, use rem */
	i32 pp[NSLOT][NPR];
	u8 pa[NSLOT][NPR], np[NSLOT], pover[NSLOT];
	u8 wsb[NSLOT], wdep[NSLOT], rsb[NSLOT];
	i32 wprod[NSLOT], rprod[NSLOT];
	u8 sbage[NSB];
	i32 sbprod[NSB];
	u8 valid;
} HState;

struct Hz {
	const Arch *a;
	HIns *ins;
	size_t n;
	int mode;
	size_t nb;
	size_t *bfirst, *blast;   /* block instruction ranges */
	size_t *bof;              /* block of each instruction */
	VEC(size_t) *succ, *pred;
	HState *st;               /* entry state per block */
	/* per instruction, computed once: the table row, the distance each
	   consumer category needs per destination file, the smallest stall */
	const LatRow **row;
	u8 (*need)[LF_N][LC_NCAT];
	u8 *minst;
	u8 *maxneed;              /* the largest of need[i]: older entries never bind */
	/* current pass */
	const char *kernel;
	Buf *report, *observe;
	int nhaz, fixing, changes, unsat;
};

/* ---- CFG ---- */

static void
edge(Hz *h, size_t from, size_t to)
{
	size_t k;

	for (k = 0; k < h->succ[from].n; k++)
		if (h->succ[from].v[k] == to)
			return;
	vec_push(&h->succ[from], to);
	vec_push(&h->pred[to], from);
}

static void
build_cfg(Hz *h)
{
	u8 *lead = xcalloc(h->n + 1, 1);
	size_t i, b;

	if (h->n)
		lead[0] = 1;
	for (i = 0; i < h->n; i++) {
		HIns *x = &h->ins[i];
		if (x->kind != HK_NORMAL && x->kind != HK_DEPBAR)
			lead[i + 1] = 1;
		if (x->target >= 0)
			lead[x->target] = 1;
	}
	h->bof = xcalloc(h->n + 1, sizeof *h->bof);
	h->bfirst = xcalloc(h->n + 1, sizeof *h->bfirst);
	h->blast = xcalloc(h->n + 1, sizeof *h->blast);
	for (i = 0; i < h->n; i++) {
		if (lead[i])
			h->bfirst[h->nb++] = i;
		h->bof[i] = h->nb - 1;
		h->blast[h->nb - 1] = i;
	}
	free(lead);
	h->succ = xcalloc(h->nb + 1, sizeof *h->succ);
	h->pred = xcalloc(h->nb + 1, sizeof *h->pred);
	for (b = 0; b < h->nb; b++) {
		size_t l = h->blast[b];
		HIns *x = &h->ins[l];
		int fall = l + 1 < h->n;
		switch (x->kind) {
		case HK_BRA:
			edge(h, b, h->bof[x->target]);
			/* BRA.DIV, BRA.ANY ... may fall through too */
			fall = fall && (x->cond || x->in.nmods > 0);
			break;
		case HK_EXIT:
			fall = fall && x->cond;
			break;
		case HK_CALL:
			if (x->target >= 0) {
				edge(h, b, h->bof[x->target]);
				fall = 0;  /* the return site is reached from RET */
			}
			break;
		case HK_RET: {
			/* back to the calls of the function this RET belongs to (the
			   nearest call target at or before it); every call when none */
			long fn = -1;
			int indirect = 0;
			for (i = 0; i < h->n; i++) {
				if (h->ins[i].kind != HK_CALL)
					continue;
				if (h->ins[i].target < 0)
					indirect = 1;
				else if ((size_t)h->ins[i].target <= l && h->ins[i].target > fn)
					fn = h->ins[i].target;
			}
			if (indirect)
				fn = -1;  /* an indirect call: any RET may return to any call */
			for (i = 0; i + 1 < h->n; i++)
				if (h->ins[i].kind == HK_CALL && (fn < 0 || h->ins[i].target == fn))
					edge(h, b, h->bof[i + 1]);
			fall = fall && x->cond;
			break;
		}
		case HK_BRX:
			/* unknown targets: any block */
			for (i = 0; i < h->nb; i++)
				edge(h, b, i);
			break;
		}
		if (fall)
			edge(h, b, h->bof[l + 1]);
	}
}

Hz *
hz_new(const Arch *a, HIns *ins, size_t n, int mode)
{
	Hz *h = xcalloc(1, sizeof *h);
	size_t i;

	h->a = a;
	h->ins = ins;
	h->n = n;
	h->mode = mode;
	build_cfg(h);
	h->st = xcalloc(h->nb + 1, sizeof *h->st);
	h->row = xcalloc(n + 1, sizeof *h->row);
	h->need = xcalloc(n + 1, sizeof *h->need);
	h->minst = xcalloc(n + 1, 1);
	h->maxneed = xcalloc(n + 1, 1);
	for (i = 0; i < n; i++) {
		int f, c;
		h->row[i] = lat_row(a, ins[i].cls);
		h->minst[i] = (u8)lat_min_stall(a, &ins[i].in);
		for (f = 0; f < LF_N; f++)
			for (c = 0; c < LC_NCAT; c++)
				h->need[i][f][c] = (u8)MIN(255, lat_need(a, ins[i].cls, f, c, mode)),
				h->maxneed[i] = MAX(h->maxneed[i], h->need[i][f][c]);
	}
	return h;
}

void
hz_free(Hz *h)
{
	size_t b;

	if (!h)
		return;
	for (b = 0; b < h->nb; b++) {
		vec_free(&h->succ[b]);
		vec_free(&h->pred[b]);
	}
	free(h->succ);
	free(h->pred);
	free(h->bof);
	free(h->bfirst);
	free(h->blast);
	free(h->st);
	free(h->row);
	free(h->need);
	free(h->minst);
	free(h->maxneed);
	free(h);
}

/* ---- state ---- */

static void
state_init(HState *s)
{
	memset(s, 0, sizeof *s);
	memset(s->fage, AGE_MAX, sizeof s->fage);
	memset(s->sbage, AGE_MAX, sizeof s->sbage);
	memset(s->fprod, 0xff, sizeof s->fprod);
	memset(s->sbprod, 0xff, sizeof s->sbprod);
	s->valid = 1;
}

/* d = join(d, s); returns 1 if d changed. */
static int
state_join(HState *d, const HState *s)
{
	int ch = 0, i, c;

	if (!d->valid) {
		*d = *s;
		return 1;
	}
	for (i = 0; i < NSLOT; i++) {
		int k, m;
		for (c = 0; c < LC_NCAT; c++)
			if (s->rem[i][c] > d->rem[i][c]) {
				d->rem[i][c] = s->rem[i][c];
				d->fprod[i] = s->fprod[i];
				ch = 1;
			}
		if (s->fage[i] < d->fage[i]) {
			d->fage[i] = s->fage[i];
			if (d->fprod[i] < 0)
				d->fprod[i] = s->fprod[i];
			ch = 1;
		}
		if (s->pover[i] && !d->pover[i])
			d->pover[i] = 1, ch = 1;
		for (k = 0; k < s->np[i]; k++) {
			for (m = 0; m < d->np[i] && d->pp[i][m] != s->pp[i][k]; m++)
				;
			if (m < d->np[i]) {
				if (s->pa[i][k] < d->pa[i][m])
					d->pa[i][m] = s->pa[i][k], ch = 1;
			} else if (d->np[i] < NPR) {
				d->pp[i][d->np[i]] = s->pp[i][k];
				d->pa[i][d->np[i]++] = s->pa[i][k];
				ch = 1;
			} else if (!d->pover[i])
				d->pover[i] = 1, ch = 1;
		}
		if ((s->wsb[i] | d->wsb[i]) != d->wsb[i]) {
			d->wsb[i] |= s->wsb[i];
			d->wprod[i] = s->wprod[i];
			ch = 1;
		}
		if (s->wsb[i] && s->wdep[i] < d->wdep[i]) {
			d->wdep[i] = s->wdep[i];
			ch = 1;
		}
		if ((s->rsb[i] | d->rsb[i]) != d->rsb[i]) {
			d->rsb[i] |= s->rsb[i];
			d->rprod[i] = s->rprod[i];
			ch = 1;
		}
	}
	for (i = 0; i < NSB; i++)
		if (s->sbage[i] < d->sbage[i]) {
			d->sbage[i] = s->sbage[i];
			d->sbprod[i] = s->sbprod[i];
			ch = 1;
		}
	return ch;
}

/* ---- one instruction ---- */

static void
hazard(Hz *h, size_t i, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void
hazard(Hz *h, size_t i, const char *fmt, ...)
{
	va_list ap;

	h->nhaz++;
	if (!h->report)
		return;
	buf_printf(h->report, "%s+0x%zx: ", h->kernel ? h->kernel : "code", i * 16);
	va_start(ap, fmt);
	buf_vprintf(h->report, fmt, ap);
	va_end(ap);
	buf_putc(h->report, '\n');
}

/* Raise the stalls of block b's instructions before index end (back to
 * and including the producer p) by d cycles in all; what is left goes to
 * the predecessor blocks, up to a few blocks back. */
static void
bump_back(Hz *h, size_t b, size_t end, long p, int d, int depth)
{
	size_t j = end, k;

	while (d > 0 && j > h->bfirst[b]) {
		j--;
		HIns *x = &h->ins[j];
		int add = MIN(d, 15 - x->c.stall);
		if (add > 0) {
			x->c.stall = (u8)(x->c.stall + add);
			d -= add;
			h->changes++;
			/* ptxas yields where a stall waits for a fixed latency (98.7%
			   of its stalls >= 2 that feed the next instruction), never
			   on the scoreboard setters (docs/findings-ctrl.md) */
			if (x->c.wrsb == 7 && x->c.rdsb == 7)
				x->c.yield = 0;
		}
		if ((long)j == p)
			break;
	}
	if (d <= 0)
		return;
	if (p >= 0 && h->bof[p] == b && (size_t)p >= j && (size_t)p < end) {
		h->unsat = 1;  /* producer and consumer too close: needs padding */
		return;
	}
	if (depth >= 4) {
		h->unsat |= 2;
		return;
	}
	for (k = 0; k < h->pred[b].n; k++) {
		size_t pb = h->pred[b].v[k];
		bump_back(h, pb, h->blast[pb] + 1, p, d, depth + 1);
	}
}

static void
bump(Hz *h, size_t i, long p, int d)
{
	bump_back(h, h->bof[i], i, p, d, 0);
}

static int same_pipe(const char *a, const char *b);

static const char *
pname(Hz *h, long p, char *buf, size_t n)
{
	if (p < 0)
		snprintf(buf, n, "(another path)");
	else
		snprintf(buf, n, "%s at 0x%lx", h->ins[p].in.op, (unsigned long)p * 16);
	return buf;
}

static void
waits(Hz *h, HState *s, size_t i)
{
	HIns *x = &h->ins[i];
	int k, j;
	char b1[64];

	for (k = 0; k < NSB; k++) {
		if (!(x->c.wait >> k & 1))
			continue;
		/* a scoreboard increment is visible to waits one cycle later */
		if (s->sbage[k] < 2) {
			if (h->fixing)
				bump(h, i, s->sbprod[k], 2 - s->sbage[k]);
			else
				hazard(h, i, "%s waits on SB%d %d cycle(s) after %s set it (needs 2)",
				       x->in.op, k, s->sbage[k], pname(h, s->sbprod[k], b1, sizeof b1));
		}
		for (j = 0; j < NSLOT; j++) {
			s->wsb[j] &= (u8)~(1u << k);
			s->rsb[j] &= (u8)~(1u << k);
			/* an instruction whose result is written has read its sources */
			if (s->rsb[j] && s->rprod[j] >= 0 && h->ins[s->rprod[j]].c.wrsb == k &&
			    h->ins[s->rprod[j]].c.rdsb < NSB)
				s->rsb[j] &= (u8)~(1u << h->ins[s->rprod[j]].c.rdsb);
		}
	}
	if (x->kind == HK_DEPBAR && x->sb < NSB && !x->never)
		for (j = 0; j < NSLOT; j++) {
			if ((s->wsb[j] & (1u << x->sb)) && s->wdep[j] >= x->sbn)
				s->wsb[j] &= (u8)~(1u << x->sb);
			if (x->sbn == 0)
				s->rsb[j] &= (u8)~(1u << x->sb);
		}
}

static void
reads(Hz *h, HState *s, size_t i)
{
	HIns *x = &h->ins[i];
	int r, j, need;
	char b1[64], b2[16];

	for (r = 0; r < x->nrd; r++)
		for (j = x->rd[r].s; j < x->rd[r].s + x->rd[r].n; j++) {
			int cat = x->rd[r].cat;
			if (h->observe) {
				int k;
				for (k = 0; k < s->np[j]; k++)
					if (s->pa[j][k] < 64)
						buf_printf(h->observe, "obs %s %d %d %d %s\n",
							   h->ins[s->pp[j][k]].cls, hz_file(j), cat,
							   s->pa[j][k], x->cls);
			}
			need = s->rem[j][cat];
			if (!s->pover[j]) {
				int k, e;
				need = 0;
				for (k = 0; k < s->np[j]; k++) {
					i32 q = s->pp[j][k];
					e = lat_exc_in(h->row[q], hz_file(j), cat, x->cls);
					if (e < 0)
						e = h->need[q][hz_file(j)][cat];
					else if (h->mode == 0)
						e = MAX(e, LAT_SAFE);
					if (e - s->pa[j][k] > need) {
						need = e - s->pa[j][k];
						s->fprod[j] = s->pp[j][k];
						s->fage[j] = s->pa[j][k];
					}
				}
			}
			if (need > 0) {
				if (h->fixing)
					bump(h, i, s->fprod[j], need);
				else
					hazard(h, i, "%s read by %s before %s finished (stall sum %d < latency %d)",
					       hz_slot_name(j, b2, sizeof b2), x->in.op,
					       pname(h, s->fprod[j], b1, sizeof b1), s->fage[j],
					       s->fage[j] + need);
			}
			if (s->wsb[j]) {
				if (h->fixing) {
					if ((x->c.wait | (s->wsb[j] & 0x3f)) != x->c.wait)
						h->changes++;
					x->c.wait |= s->wsb[j] & 0x3f;
					if (s->wsb[j] & SB_NONE)
						h->unsat = 1;
					s->wsb[j] = 0;
				} else if (s->wsb[j] & SB_NONE)
					hazard(h, i, "%s read by %s before %s finished (it sets no scoreboard)",
					       hz_slot_name(j, b2, sizeof b2), x->in.op,
					       pname(h, s->wprod[j], b1, sizeof b1));
				else
					hazard(h, i, "%s read by %s before %s finished (scoreboard mask 0x%x not waited)",
					       hz_slot_name(j, b2, sizeof b2), x->in.op,
					       pname(h, s->wprod[j], b1, sizeof b1), s->wsb[j]);
			}
		}
}

static int
is_mem(const char *op)
{
	return !strncmp(op, "LD", 2) || !strncmp(op, "ST", 2) || !strncmp(op, "ATOM", 4) ||
	       !strncmp(op, "RED", 3);
}

static void
writes(Hz *h, HState *s, size_t i)
{
	HIns *x = &h->ins[i];
	int r, j, c;
	char b1[64], b2[16];

	for (r = 0; r < x->nwr; r++)
		for (j = x->wr[r].s; j < x->wr[r].s + x->wr[r].n; j++) {
			u8 pend = (s->wsb[j] | s->rsb[j]) & 0x3f;
			if (h->fixing && pend) {
				if ((x->c.wait | pend) != x->c.wait)
					h->changes++;
				x->c.wait |= pend;
				s->wsb[j] &= SB_NONE;
				s->rsb[j] = 0;
			}
			/* a result of the same in-order pipe lands before ours */
			if (s->wsb[j] == SB_NONE && s->wprod[j] >= 0 && x->lat.var &&
			    same_pipe(h->ins[s->wprod[j]].in.op, x->in.op))
				s->wsb[j] = 0;
			if (s->wsb[j] && !h->fixing)
				hazard(h, i, "%s overwritten by %s before %s finished (scoreboard mask 0x%x not waited)",
				       hz_slot_name(j, b2, sizeof b2), x->in.op,
				       pname(h, s->wprod[j], b1, sizeof b1), s->wsb[j]);
			/* memory instructions reach the memory pipe in order: a load
			   cannot write before an earlier store has read its data */
			if (s->rsb[j] && !h->fixing && x->lat.var && is_mem(x->in.op) &&
			    s->rprod[j] >= 0 && is_mem(h->ins[s->rprod[j]].in.op))
				s->rsb[j] = 0;
			if (s->rsb[j] && !h->fixing)
				hazard(h, i, "%s overwritten by %s before %s read it (read scoreboard mask 0x%x not waited)",
				       hz_slot_name(j, b2, sizeof b2), x->in.op,
				       pname(h, s->rprod[j], b1, sizeof b1), s->rsb[j]);
			if (x->lat.var) {
				u8 m = x->c.wrsb < NSB ? (u8)(1u << x->c.wrsb) : SB_NONE;
				/* the "done" predicate of a generic ATOM is known when its
				   operands are read: ptxas waits on the read scoreboard */
				if (m == SB_NONE && x->c.rdsb < NSB && j >= SLOT_P && j < SLOT_UP &&
				    !strncmp(x->in.op, "ATOM", 4))
					m = (u8)(1u << x->c.rdsb);
				s->wsb[j] = x->cond ? (u8)(s->wsb[j] | m) : m;
				s->wdep[j] = 0;
				s->wprod[j] = (i32)i;
				if (!x->cond) {
					memset(s->rem[j], 0, LC_NCAT);
					s->fprod[j] = -1;
					s->fage[j] = AGE_MAX;
					s->np[j] = s->pover[j] = 0;
				}
			} else {
				int f = hz_file(j);
				for (c = 0; c < LC_NCAT; c++) {
					int need = h->need[i][f][c];
					if (x->cond)
						s->rem[j][c] = (u8)MAX(s->rem[j][c], need);
					else
						s->rem[j][c] = (u8)need;
				}
				s->fprod[j] = (i32)i;
				s->fage[j] = 0;
				if (!x->cond) {
					s->np[j] = 1;
					s->pover[j] = 0;
					s->pp[j][0] = (i32)i;
					s->pa[j][0] = 0;
				} else if (s->np[j] < NPR) {
					s->pp[j][s->np[j]] = (i32)i;
					s->pa[j][s->np[j]++] = 0;
				} else
					s->pover[j] = 1;
				if (!x->cond)
					s->wsb[j] = 0;
			}
		}
}

static void
advance(const Hz *h, HState *s, int t)
{
	u8 *r = &s->rem[0][0], *a = s->fage;
	int j, c;

	if (t <= 0)
		return;
	/* flat loops the compiler can vectorise: this is the checker's hot spot */
	for (j = 0; j < NSLOT * LC_NCAT; j++)
		r[j] = (u8)(r[j] > t ? r[j] - t : 0);
	for (j = 0; j < NSLOT; j++)
		a[j] = (u8)(a[j] > AGE_MAX - t ? AGE_MAX : a[j] + t);
	for (j = 0; j < NSLOT; j++) {
		if (!s->np[j])
			continue;
		for (c = 0; c < s->np[j]; c++) {
			s->pa[j][c] = (u8)MIN(AGE_MAX, s->pa[j][c] + t);
			if ((s->pa[j][c] > AGE_DROP || s->pa[j][c] >= h->maxneed[s->pp[j][c]]) && !s->pover[j]) {
				s->pp[j][c] = s->pp[j][s->np[j] - 1];
				s->pa[j][c] = s->pa[j][--s->np[j]];
				c--;
			}
		}
	}
	for (j = 0; j < NSB; j++)
		s->sbage[j] = (u8)MIN(AGE_MAX, s->sbage[j] + t);
}

/* Variable-latency instructions that complete in order with each other. */
static int
same_pipe(const char *a, const char *b)
{
	/* FP64; the conversion/SFU pipe (ptxas: I2F without a scoreboard
	   covered by the next MUFU's, F2I by the next F2F's) */
	static const char *const pipes[][6] = {
		{"DFMA", "DADD", "DMUL", "DSETP", "DMNMX", NULL},
		{"MUFU", "I2F", "F2I", "F2F", "FRND", NULL},
	};
	size_t k;
	const char *const *p;

	if (!strcmp(a, b))
		return 1;
	for (k = 0; k < NELEM(pipes); k++) {
		int ia = 0, ib = 0;
		for (p = pipes[k]; *p; p++) {
			ia |= !strcmp(a, *p);
			ib |= !strcmp(b, *p);
		}
		if (ia && ib)
			return 1;
	}
	return 0;
}

static void
step(Hz *h, HState *s, size_t i)
{
	HIns *x = &h->ins[i];
	int r, j, k;

	if (h->observe)
		buf_printf(h->observe, "ins %s %d %d %d %d %d\n", x->cls, x->c.stall, x->c.wrsb != 7,
			   x->c.rdsb != 7, x->nwr > 0, x->nrd > 0);
	if (h->fixing) {
		if (x->c.stall < h->minst[i])
			x->c.stall = h->minst[i], h->changes++;
	} else if (x->c.stall < h->minst[i] && x->kind == HK_DEPBAR)
		hazard(h, i, "DEPBAR with stall %d (needs %d to take effect)", x->c.stall, h->minst[i]);
	waits(h, s, i);
	if (!x->never) {
		reads(h, s, i);
		writes(h, s, i);
		/* late readers keep their sources until the read scoreboard clears */
		/* (uniform registers are read at issue: ptxas never waits for them) */
		if (x->c.rdsb < NSB)
			for (r = 0; r < x->nrd; r++)
				if (x->rd[r].cat != LC_GUARD && x->rd[r].s < SLOT_UR)
				for (j = x->rd[r].s; j < x->rd[r].s + x->rd[r].n; j++) {
					s->rsb[j] |= (u8)(1u << x->c.rdsb);
					s->rprod[j] = (i32)i;
				}
	}
	for (k = 0; k < NSB; k++) {
		if (x->c.wrsb == k || x->c.rdsb == k) {
			s->sbage[k] = 0;
			s->sbprod[k] = (i32)i;
		}
		if (x->c.wrsb == k)
			for (j = 0; j < NSLOT; j++) {
				if ((s->wsb[j] & (1u << k)) && s->wprod[j] != (i32)i && s->wdep[j] < 255)
					s->wdep[j]++;
				/* results of the same pipe complete in order (ptxas relies on
				   it: MUFU.RCP without a scoreboard, covered by the wait on
				   the next MUFU's) */
				if (s->wsb[j] == SB_NONE && s->wprod[j] >= 0 && s->wprod[j] != (i32)i &&
				    same_pipe(h->ins[s->wprod[j]].in.op, x->in.op))
					s->wsb[j] = (u8)(1u << k);
			}
	}
	advance(h, s, x->c.stall);
}

/* ---- fixed point and passes ---- */

static void
run_block(Hz *h, size_t b, HState *s)
{
	size_t i;

	for (i = h->bfirst[b]; i <= h->blast[b]; i++)
		step(h, s, i);
}

void
hz_solve(Hz *h)
{
	size_t *work, nw = 0, b, k;
	u8 *inq;
	HState *s = xmalloc(sizeof *s);

	if (!h->nb) {
		free(s);
		return;
	}
	for (b = 0; b < h->nb; b++)
		h->st[b].valid = 0;
	work = xmalloc(h->nb * sizeof *work);
	inq = xcalloc(h->nb, 1);
	state_init(&h->st[0]);
	work[nw++] = 0;
	inq[0] = 1;
	while (nw) {
		/* lowest block first: fewer revisits in structured code */
		size_t best = 0;
		for (k = 1; k < nw; k++)
			if (work[k] < work[best])
				best = k;
		b = work[best];
		work[best] = work[--nw];
		inq[b] = 0;
		*s = h->st[b];
		run_block(h, b, s);
		for (k = 0; k < h->succ[b].n; k++) {
			size_t t = h->succ[b].v[k];
			if (state_join(&h->st[t], s) && !inq[t]) {
				inq[t] = 1;
				work[nw++] = t;
			}
		}
	}
	free(work);
	free(inq);
	free(s);
}

int
hz_pass(Hz *h, const char *kernel, Buf *report, Buf *observe)
{
	HState *s = xmalloc(sizeof *s);
	size_t b;

	h->kernel = kernel;
	h->report = report;
	h->observe = observe;
	h->nhaz = 0;
	for (b = 0; b < h->nb; b++) {
		if (!h->st[b].valid)
			continue;
		*s = h->st[b];
		run_block(h, b, s);
	}
	h->report = h->observe = NULL;
	free(s);
	return h->nhaz;
}

int
hz_fix(Hz *h)
{
	HState *s = xmalloc(sizeof *s);
	size_t b;

	h->fixing = 1;
	h->changes = 0;
	h->unsat = 0;
	for (b = 0; b < h->nb; b++) {
		if (!h->st[b].valid)
			continue;
		*s = h->st[b];
		run_block(h, b, s);
	}
	h->fixing = 0;
	free(s);
	return (h->unsat & 1) && !h->changes ? -2 : h->changes;
}

int
hazard_check(const Arch *a, const Word *code, size_t n, const char *kernel, Buf *report)
{
	Arena ar = {0};
	HIns *ins = xcalloc(n + 1, sizeof *ins);
	size_t bad;
	int rc = -1;

	if (hz_decode(a, code, n, ins, &ar, &bad) == 0) {
		Hz *h = hz_new(a, ins, n, 1);
		hz_solve(h);
		rc = hz_pass(h, kernel, report, NULL);
		hz_free(h);
	} else if (report)
		buf_printf(report, "%s+0x%zx: the word does not decode\n", kernel ? kernel : "code",
			   bad * 16);
	free(ins);
	arena_free(&ar);
	return rc;
}
