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
 * time counted: scoreboard waits may last longer, never shorter.
 *
 * Only the slots some instruction of the kernel writes are tracked: a
 * slot nothing writes keeps its initial state (ready, no scoreboard), so
 * its reads can never be hazards.  The state holds those slots densely
 * (index d, real slot h->sh.slot[d]), which makes a state a few hundred
 * bytes for a small kernel instead of 21 KB. */
#include <stdlib.h>
#include <string.h>

#include "codegen/hazard.h"

enum { NSB = 6, SB_NONE = 0x40, AGE_MAX = 255, NPR = 8, AGE_DROP = 120 };
/* How many blocks back bump_back raises stalls. */
enum { BUMP_DEPTH = 4 };
/* Bytes per slot of rem: LC_NCAT padded so that one slot's rem is one
   8-byte word (the padding stays 0). */
enum { RSTR = 8 };
_Static_assert((int)LC_NCAT <= (int)RSTR && NPR == 8, "rem and pa are 8 bytes per slot");

/* One tracked slot's part of a state. */
typedef struct {
	u8 rem[RSTR];       /* per consumer category */
	/* the fixed producers still in flight on some path and their ages
	   (min over paths); pover: more than NPR, use rem */
	u8 pa[NPR];
	i32 pp[NPR];
	u32 rclk;           /* rem holds the cycles left at clock rclk (rem_at
			       counts them down to clk: no work per stall) */
	u32 fts;            /* clk when fprod issued: its age (min over paths) is
			       fage = min(clk - fts, AGE_MAX) */
	i32 fprod;          /* the fixed producer, -1 none */
	u32 pclk;           /* pa holds the ages at clock pclk (pa_now brings them to clk) */
	u32 pdue;           /* the clock at which a producer first reaches h->lim (pa_due) */
	i32 wprod, rprod;
	u8 np, pover;
	u8 wsb, wdep, rsb;
} HSlot;

/* The state at a program point; the arrays (the live sets, one HSlot per
 * tracked slot) live in one block after the struct, so a copy is one
 * memcpy. */
typedef struct {
	/* live slots: bit d clear means np is 0 (lnp), wsb and rsb are 0
	   (lsb), wsb lacks SB_NONE (lnone); a set bit may be stale */
	u64 *lnp, *lsb, *lnone;  /* [nwd] */
	HSlot *sl;          /* [ns] */
	u32 sbts[NSB];      /* clk when each scoreboard was last set (sbage as fage) */
	i32 sbprod[NSB];
	u32 clk;            /* cycles so far: ages are differences, advance adds to clk only */
	u32 mindue;         /* at most every live slot's pdue: advance looks at none before */
	u8 valid;
} HState;

/* The age of an event at clock ts, saturated as the ages once were (a
   sum of saturating additions is the saturated sum); setting it. */
static inline int
age(const HState *s, u32 ts)
{
	u32 a = s->clk - ts;

	return a > AGE_MAX ? AGE_MAX : (int)a;
}
#define FAGE(s, j) age((s), (s)->sl[j].fts)
#define SET_FAGE(s, j, a) ((s)->sl[j].fts = (s)->clk - (u32)(a))
#define SBAGE(s, k) age((s), (s)->sbts[k])

/* The joins' test age(s, ts) < age(d, td), unsaturated: an age of
   AGE_MAX or more is below none. */
#define YOUNGER(s, ts, d, td) ((s)->clk - (ts) < (u32)AGE_MAX && (s)->clk - (ts) < (d)->clk - (td))

/* A register an instruction reads or writes, as a tracked slot. */
typedef struct {
	u16 d;     /* dense index */
	u16 slot;  /* real slot */
	u8 cat;    /* reads: consumer category */
	u8 late;   /* reads: a late reader keeps it (not a guard, not uniform) */
	u8 file;   /* LF_* of the slot */
} HUse;

typedef VEC(size_t) SizeVec;

/* The CFG and the tracked slots of n instructions (the shape, see
 * shape_of).  An Hz holds a copy; the arrays belong to the refcounted
 * HzShape that shape_of keeps (refs). */
typedef struct HzShape {
	size_t n;
	size_t nb;
	size_t *bfirst, *blast;   /* block instruction ranges */
	u32 *bof;                 /* block of each instruction */
	SizeVec *succ, *pred;
	u8 *once;                 /* blocks no edge from at or after them
				     reaches at or before them: a solve visits
				     them once (hz_solve's order) */
	/* tracked slots */
	size_t ns;
	u16 *slot;                /* dense -> real slot */
	/* per instruction, computed once: the reads and writes of tracked
	   slots: use[uo[2i]] .. use[uo[2i + 1]] reads, then writes up to
	   use[uo[2i + 2]] (the next instruction's first);
	   the latencies and opcode facts are in HIns (hz_decode) */
	HUse *use;
	u32 *uo;
	int refs;
} HzShape;

struct Hz {
	const Arch *a;
	HIns *ins;
	size_t n;
	HzShape sh;               /* the CFG and tracked slots (a copy of *shape) */
	HState **st;              /* entry state per block */
	u8 *stmem;                /* all the states, one allocation */
	size_t nwd, ssz;          /* 64-bit words of a slot set; bytes of a state's arrays */
	u8 *lim;                  /* per instruction: age at which advance drops it as a producer */
	int m;                    /* need[] row of HIns: HN_* (hz_new's mode) */
	/* current pass */
	HState *tmp;
	const char *kernel;
	Buf *report, *observe;
	HzFoundVec *found;
	int nhaz, fixing, changes, unsat;
	/* the solve: each block's hazards and fix events (what hz_fix would act
	   on) on its latest visit, and their sums over the blocks */
	int nev, *bhaz, *bev, shaz, sev;
	size_t *bend;             /* one past the last instruction with an event */
	size_t *work;             /* hz_solve's work list */
	u8 *inq;                  /* and the blocks on it */
	int odd;                  /* the solve met a write that sets no scoreboard
				     or a producer list overflow (pover) */
	u8 *bumped;               /* hz_fix: blocks whose stalls it raised (bump_back) */
	u32 *bmemo, bgen;         /* bump_back: visits (block, depth) of bump number bgen
				     that raised nothing, and the unsat bits they set */
	u8 *bmemo_unsat;
	size_t stride;            /* bytes per state (HState and its arrays) */
	/* hz_solve: per block (nwd words from dirty + b * nwd), the slots whose
	   values in its entry state changed since its latest visit began (every
	   slot before its first); row nb: the visited block's, while it runs
	   (see hz_solve) */
	u64 *dirty;
	/* hz_fix's run of block runb: the cycles bump_back added to each of
	   its instructions (from addlo on; the rest 0) since the run began */
	u8 *added;
	u32 *ecache;              /* need_of's last answer per use */
	size_t runb, addlo;
	int keep;                 /* hz_keep_producers: no drop at maxneed */
	/* scratch: a solve may run a block it visits once (sh.once) on its
	   entry state instead of a copy, for a solve whose states are seldom
	   read again (the checker's; the assigner's after a fix: its check
	   that nothing is left to fix); spent: it did, so hz_pass and hz_fix
	   solve again first */
	int scratch, spent;
	int depbar;               /* the code has a DEPBAR: wdep is counted */
	HzShape *shape;           /* owns sh's arrays */
};

/* ---- CFG ---- */

static void
edge(Hz *h, size_t from, size_t to)
{
	size_t k;

	for (k = 0; k < h->sh.succ[from].n; k++)
		if (h->sh.succ[from].v[k] == to)
			return;
	vec_push(&h->sh.succ[from], to);
	vec_push(&h->sh.pred[to], from);
}

/* An indirect call (CALL.REL.NOINC Rn) may enter any function whose
 * address the code takes: every block that no edge reaches is one (its
 * code would otherwise never be analysed, nor given control bits; our
 * func_pointer kernel's callees ran with none on the H200). */
static void
indirect_calls(Hz *h)
{
	u8 *orphan = xcalloc(h->sh.nb + 1, 1);
	size_t i, t;

	for (t = 1; t < h->sh.nb; t++)
		orphan[t] = !h->sh.pred[t].n;
	for (i = 0; i < h->n; i++)
		if (h->ins[i].kind == HK_CALL && h->ins[i].target < 0)
			for (t = 1; t < h->sh.nb; t++)
				if (orphan[t])
					edge(h, h->sh.bof[i], t);
	free(orphan);
}

/* sh.once: the blocks b that no edge q -> r with r <= b <= q spans.
 * hz_solve visits the lowest queued block first, so once it takes b
 * every queued block is b or later; without such an edge none before b
 * is queued again and no join reaches b again: b's first visit is its
 * only one.  (reach: the largest q of the edges q -> r, r <= b, so far.) */
static void
once_blocks(Hz *h)
{
	size_t b, k, q, reach = 0;
	int any = 0;

	h->sh.once = xmalloc(h->sh.nb + 1);
	for (b = 0; b < h->sh.nb; b++) {
		for (k = 0; k < h->sh.pred[b].n; k++)
			if ((q = h->sh.pred[b].v[k]) >= b && (!any || q > reach))
				reach = q, any = 1;
		h->sh.once[b] = !any || reach < b;
	}
}

static void
build_cfg(Hz *h)
{
	u8 *lead = xcalloc(h->n + 1, 1);
	size_t i, b, nb = 0;

	if (h->n)
		lead[0] = 1;
	for (i = 0; i < h->n; i++) {
		HIns *x = &h->ins[i];
		if (x->kind != HK_NORMAL && x->kind != HK_DEPBAR)
			lead[i + 1] = 1;
		if (x->target >= 0)
			lead[x->target] = 1;
	}
	for (i = 0; i < h->n; i++)
		nb += lead[i];
	h->sh.bof = xcalloc(h->n + 1, sizeof *h->sh.bof);
	h->sh.bfirst = xcalloc(nb + 1, sizeof *h->sh.bfirst);  /* per block, not per instruction */
	h->sh.blast = xcalloc(nb + 1, sizeof *h->sh.blast);
	for (i = 0; i < h->n; i++) {
		if (lead[i])
			h->sh.bfirst[h->sh.nb++] = i;
		h->sh.bof[i] = (u32)(h->sh.nb - 1);
		h->sh.blast[h->sh.nb - 1] = i;
	}
	free(lead);
	h->sh.succ = xcalloc(h->sh.nb + 1, sizeof *h->sh.succ);
	h->sh.pred = xcalloc(h->sh.nb + 1, sizeof *h->sh.pred);
	for (b = 0; b < h->sh.nb; b++) {
		size_t l = h->sh.blast[b];
		HIns *x = &h->ins[l];
		int fall = l + 1 < h->n;
		switch (x->kind) {
		case HK_BRA:
			edge(h, b, h->sh.bof[x->target]);
			/* BRA.DIV, BRA.ANY ... may fall through too */
			fall = fall && (x->cond || x->mods);
			break;
		case HK_EXIT:
			fall = fall && x->cond;
			break;
		case HK_CALL:
			if (x->target >= 0) {
				edge(h, b, h->sh.bof[x->target]);
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
					edge(h, b, h->sh.bof[i + 1]);
			fall = fall && x->cond;
			break;
		}
		case HK_BRX:
			/* unknown targets: any block */
			for (i = 0; i < h->sh.nb; i++)
				edge(h, b, i);
			break;
		}
		if (fall)
			edge(h, b, h->sh.bof[l + 1]);
	}
	indirect_calls(h);
	once_blocks(h);
}

/* The tracked slots (those some instruction writes) and each
 * instruction's uses of them. */
static void
track_slots(Hz *h)
{
	enum { NWM = (NSLOT + 63) / 64 };
	u64 wm[NWM] = {0};  /* the written slots */
	short dense[NSLOT];
	size_t i, nu = 0, nt = 0;
	int r, j, w;

	memset(dense, 0xff, sizeof dense);  /* -1: not tracked */
	for (i = 0; i < h->n; i++)
		for (r = 0; r < h->ins[i].nwr; r++)
			for (j = h->ins[i].wr[r].s; j < h->ins[i].wr[r].s + h->ins[i].wr[r].n; j++)
				wm[j / 64] |= 1ull << (j % 64);
	for (w = 0; w < NWM; w++)
		nt += (size_t)__builtin_popcountll(wm[w]);
	h->sh.slot = xmalloc((nt + 1) * sizeof *h->sh.slot);  /* the tracked ones */
	for (w = 0; w < NWM; w++)
		for (u64 m = wm[w]; m; m &= m - 1) {
			j = w * 64 + __builtin_ctzll(m);
			dense[j] = (short)h->sh.ns;
			h->sh.slot[h->sh.ns++] = (u16)j;
		}
	h->sh.uo = xmalloc((2 * h->n + 1) * sizeof *h->sh.uo);
	for (i = 0; i < h->n; i++) {
		const HIns *x = &h->ins[i];
		for (r = 0; r < x->nrd; r++)
			nu += x->rd[r].n;
		for (r = 0; r < x->nwr; r++)
			nu += x->wr[r].n;
	}
	h->sh.use = xcalloc(nu + 1, sizeof *h->sh.use);
	nu = 0;
	for (i = 0; i < h->n; i++) {
		const HIns *x = &h->ins[i];
		h->sh.uo[2 * i] = (u32)nu;
		for (r = 0; r < x->nrd; r++)
			for (j = x->rd[r].s; j < x->rd[r].s + x->rd[r].n; j++)
				if (dense[j] >= 0) {
					HUse *u = &h->sh.use[nu++];
					u->d = (u16)dense[j];
					u->slot = (u16)j;
					u->file = (u8)hz_file(j);
					u->cat = x->rd[r].cat;
					/* uniform registers are read at issue, except by
					   the TMA unit and the bulk copy engine (ptxas waits
					   on their read scoreboard before rewriting them) */
					u->late = x->rd[r].cat != LC_GUARD &&
						  (x->rd[r].s < SLOT_UR || (x->rd[r].s < SLOT_P && x->async_ur));
				}
		h->sh.uo[2 * i + 1] = (u32)nu;
		for (r = 0; r < x->nwr; r++)
			for (j = x->wr[r].s; j < x->wr[r].s + x->wr[r].n; j++) {
				HUse *u = &h->sh.use[nu++];
				u->d = (u16)dense[j];
				u->slot = (u16)j;
				u->file = (u8)hz_file(j);
			}
	}
	h->sh.uo[2 * h->n] = (u32)nu;  /* the number of uses */
}

/* h->lim: a fixed producer leaves the in-flight list once its age
 * passes AGE_DROP or (unless h->keep) reaches its largest latency. */
static void
set_lim(Hz *h)
{
	size_t i;

	for (i = 0; i < h->n; i++)
		h->lim[i] = (u8)(h->keep ? AGE_DROP + 1 : MIN(AGE_DROP + 1, h->ins[i].maxneed[h->m]));
}

/* A state laid out in mem (sizeof(HState) + h->ssz bytes, 8-aligned):
 * its arrays are filled by state_init or state_copy before any read, so
 * only valid is set here. */
static HState *
state_at(const Hz *h, void *mem)
{
	HState *s = mem;
	u8 *p = (u8 *)(s + 1);

	s->valid = 0;
	/* the block after the struct is aligned */
	s->lnp = (u64 *)p, p += h->nwd * sizeof(u64);
	s->lsb = (u64 *)p, p += h->nwd * sizeof(u64);
	s->lnone = (u64 *)p, p += h->nwd * sizeof(u64);
	s->sl = (HSlot *)p;  /* ns of them: h->ssz is these sizes' sum */
	return s;
}

static void
state_copy(const Hz *h, HState *d, const HState *s)
{
	memcpy(d + 1, s + 1, h->ssz);
	memcpy(d->sbts, s->sbts, sizeof d->sbts);
	d->clk = s->clk;
	d->mindue = s->mindue;
	memcpy(d->sbprod, s->sbprod, sizeof d->sbprod);
	d->valid = s->valid;
}

/* ---- the shape: CFG and tracked slots ----
 * What build_cfg and track_slots derive depends only on each
 * instruction's control flow (kind, target, guard, modifiers present)
 * and registers (rd, wr).  The checker of a compile analyses the words
 * the assigner has just analysed, differing only in their control bits,
 * so the last shape is kept for it (hazard_find_assigned). */

static HzShape *last_shape;  /* like hz_decode's memo: one thread analyses */

static void
shape_free(HzShape *sh)
{
	size_t b;

	if (!sh || --sh->refs > 0)
		return;
	for (b = 0; b < sh->nb; b++) {
		vec_free(&sh->succ[b]);
		vec_free(&sh->pred[b]);
	}
	free(sh->succ);
	free(sh->pred);
	free(sh->bof);
	free(sh->bfirst);
	free(sh->blast);
	free(sh->once);
	free(sh->slot);
	free(sh->use);
	free(sh->uo);
	free(sh);
}

/* h's CFG and slots: the last shape's when same (h->ins are the
 * instructions it was built for, changed since in their control bits
 * only), else built (and kept as the last). */
static void
shape_of(Hz *h, int same)
{
	HzShape *sh = last_shape;

	if (!same || !sh || sh->n != h->n) {
		build_cfg(h);
		track_slots(h);
		h->sh.n = h->n;
		h->sh.refs = 1;
		sh = xmalloc(sizeof *sh);
		*sh = h->sh;
		shape_free(last_shape);
		last_shape = sh;
	}
	sh->refs++;
	h->shape = sh;
	h->sh = *sh;
}

static Hz *
hz_make(const Arch *a, HIns *ins, size_t n, int mode, int same)
{
	Hz *h = xcalloc(1, sizeof *h);
	size_t b, nb, nm;
	u8 *p;

	h->a = a;
	h->ins = ins;
	h->n = n;
	h->m = mode;
	shape_of(h, same);
	h->nwd = (h->sh.ns + 63) / 64;
	h->ssz = 3 * h->nwd * sizeof(u64) + h->sh.ns * sizeof(HSlot);
	h->lim = xmalloc(n + 1);
	for (b = 0; b < n; b++)
		h->depbar |= ins[b].kind == HK_DEPBAR;
	set_lim(h);
	/* the arrays per block in one zeroed block: the 8-byte ones, then
	   the 4-byte ones, then the bytes */
	nb = h->sh.nb + 1, nm = nb * (BUMP_DEPTH + 1);
	p = xcalloc(1, nb * (sizeof *h->st + sizeof *h->bend + sizeof *h->work + 2 * sizeof *h->bhaz + 2 +
			     h->nwd * sizeof *h->dirty) +
			       nm * (sizeof *h->bmemo + 1));
	h->st = (HState **)p, p += nb * sizeof *h->st;
	h->bend = (size_t *)p, p += nb * sizeof *h->bend;
	h->work = (size_t *)p, p += nb * sizeof *h->work;
	h->dirty = (u64 *)p, p += nb * h->nwd * sizeof *h->dirty;
	h->bhaz = (int *)p, p += 2 * nb * sizeof *h->bhaz;
	h->bev = h->bhaz + nb;
	h->bmemo = (u32 *)p, p += nm * sizeof *h->bmemo;
	h->bumped = p, p += nb;
	h->inq = p, p += nb;
	h->bmemo_unsat = p;
	h->added = xcalloc(n + 1, 1);
	h->ecache = xcalloc(h->sh.uo[2 * n] + 1, sizeof *h->ecache);
	h->stride = (sizeof(HState) + h->ssz + 15) & ~(size_t)15;
	h->stmem = xmalloc((h->sh.nb + 1) * h->stride);
	for (b = 0; b < h->sh.nb; b++)
		h->st[b] = state_at(h, h->stmem + b * h->stride);
	h->tmp = state_at(h, h->stmem + h->sh.nb * h->stride);
	return h;
}

Hz *
hz_new(const Arch *a, HIns *ins, size_t n, int mode)
{
	return hz_make(a, ins, n, mode, 0);
}

void
hz_free(Hz *h)
{
	if (!h)
		return;
	shape_free(h->shape);
	free(h->st);  /* and the other arrays per block (hz_new) */
	free(h->stmem);
	free(h->lim);
	free(h->added);
	free(h->ecache);
	free(h);
}

/* ---- state ---- */

static inline void pa_now(HState *s, size_t j);
static inline void set_due(HState *s, size_t j, u32 due);
static void pa_due(const Hz *h, HState *s, size_t j);
static inline void sat_add_by(u8 *p, u32 d);
static inline u64 rem_at(const HState *s, size_t j);
static inline int sat_age(int a, u32 d);
static inline void rem_now(HState *s, size_t j);

static void
state_init(const Hz *h, HState *s)
{
	size_t ns = h->sh.ns, j;
	int k;

	memset(s + 1, 0, h->ssz);
	s->clk = 0;
	s->mindue = 0x7fffffff;
	for (j = 0; j < ns; j++) {
		SET_FAGE(s, j, AGE_MAX);
		s->sl[j].fprod = -1;
	}
	for (k = 0; k < NSB; k++)
		s->sbts[k] = s->clk - AGE_MAX;
	memset(s->sbprod, 0xff, sizeof s->sbprod);
	s->valid = 1;
}

/* Every slot of block t's entry state changed (it was just made). */
static void
all_dirty(Hz *h, size_t t)
{
	u64 *dirty = h->dirty + t * h->nwd;
	size_t w;

	for (w = 0; w < h->nwd; w++)
		dirty[w] = ~0ull;
	if (h->sh.ns % 64)
		dirty[h->nwd - 1] = (1ull << h->sh.ns % 64) - 1;
}

/* Slot i of d = its join with slot i of s: the fixed producers' part;
 * returns 1 if a value changed (rem_now and pa_now only restate d's
 * values as of its clock). */
static int
join_fixed(Hz *h, HState *d, const HState *s, size_t i)
{
	const HSlot *ss = &s->sl[i];
	HSlot *ds = &d->sl[i];
	int ch = 0, c, k, m;
	u64 rs = rem_at(s, i), rd;
	u8 sr[RSTR];

	if (rs) {  /* (a ready slot of s raises nothing) */
		rem_now(d, i);
		memcpy(&rd, ds->rem, 8);
		memcpy(sr, &rs, 8);
		for (c = 0; rs != rd && c < LC_NCAT; c++)
			if (sr[c] > ds->rem[c]) {
				ds->rem[c] = sr[c];
				ds->fprod = ss->fprod;
				ch = 1;
			}
	}
	if (YOUNGER(s, ss->fts, d, ds->fts)) {
		SET_FAGE(d, i, s->clk - ss->fts);
		if (ds->fprod < 0)
			ds->fprod = ss->fprod;
		ch = 1;
	}
	if (ss->np || (ss->pover && !ds->pover)) {
		u8 sa[NPR];  /* s's ages now */
		int pch = 0;
		memcpy(sa, ss->pa, NPR);
		sat_add_by(sa, s->clk - ss->pclk);
		pa_now(d, i);
		if (ss->pover && !ds->pover)
			ds->pover = 1, pch = 1;
		for (k = 0; k < ss->np; k++) {
			for (m = 0; m < ds->np && ds->pp[m] != ss->pp[k]; m++)
				;
			if (m < ds->np) {
				if (sa[k] < ds->pa[m])
					ds->pa[m] = sa[k], pch = 1;
			} else if (ds->np < NPR) {
				ds->pp[ds->np] = ss->pp[k];
				ds->pa[ds->np++] = sa[k];
				pch = 1;
			} else if (!ds->pover)
				ds->pover = 1, pch = 1, h->odd = 1;
		}
		if (pch)  /* else the producers and their issue times are d's as before */
			pa_due(h, d, i), ch = 1;
	}
	return ch;
}

/* The scoreboards' part of a slot's join (s has one pending there). */
static int
join_sb(HSlot *ds, const HSlot *ss)
{
	int ch = 0;

	if ((ss->wsb | ds->wsb) != ds->wsb) {
		ds->wsb |= ss->wsb;
		ds->wprod = ss->wprod;
		ch = 1;
	}
	if (ss->wsb && ss->wdep < ds->wdep) {
		ds->wdep = ss->wdep;
		ch = 1;
	}
	if ((ss->rsb | ds->rsb) != ds->rsb) {
		ds->rsb |= ss->rsb;
		ds->rprod = ss->rprod;
		ch = 1;
	}
	return ch;
}

/* Block t's entry state = its join with s, over the slots of dm (see
 * hz_solve: the others would not change); the slots that changed join
 * t's dirty set.  Returns 1 if the state changed. */
static int
state_join(Hz *h, size_t t, const HState *s, const u64 *dm)
{
	HState *d = h->st[t];
	u64 *dirty = h->dirty + t * h->nwd;
	int ch = 0, c;
	size_t i, w;

	if (!d->valid) {
		state_copy(h, d, s);
		all_dirty(h, t);
		return 1;
	}
	for (w = 0; w < h->nwd; w++)
		for (u64 m = dm[w]; m; m &= m - 1) {
			i = w * 64 + (size_t)__builtin_ctzll(m);
			int sch = join_fixed(h, d, s, i);
			/* scoreboards: only where s has one pending (lsb) */
			if (s->lsb[w] >> (i % 64) & 1)
				sch |= join_sb(&d->sl[i], &s->sl[i]);
			if (sch)
				dirty[w] |= 1ull << (i % 64), ch = 1;
		}
	for (w = 0; w < h->nwd; w++) {
		d->lnp[w] |= s->lnp[w];
		d->lnone[w] |= s->lnone[w];
		d->lsb[w] |= s->lsb[w];
	}
	for (c = 0; c < NSB; c++)
		if (YOUNGER(s, s->sbts[c], d, d->sbts[c])) {
			d->sbts[c] = d->clk - (s->clk - s->sbts[c]);
			d->sbprod[c] = s->sbprod[c];
			ch = 1;
		}
	return ch;
}

/* ---- one instruction ---- */

static void
note_hazard(Hz *h, size_t i, int kind, long prod, int slot, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* One hazard at instruction i: kind (HZ_*), its producer (-1: none or
   another path), the register slot (-1: none).  Only counted (nhaz) unless
   there is a report or a found list: the solve's visits count theirs. */
#define hazard(h, ...) ((h)->report || (h)->found ? note_hazard((h), __VA_ARGS__) : (void)(h)->nhaz++)

static void
note_hazard(Hz *h, size_t i, int kind, long prod, int slot, const char *fmt, ...)
{
	va_list ap;

	h->nhaz++;
	if (h->found) {
		HzFound f = {(u32)i, (i32)prod, slot, (u8)kind, (u8)(slot >= 0 ? hz_file(slot) : 0xff)};
		vec_push(h->found, f);
	}
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
 * the predecessor blocks, up to BUMP_DEPTH blocks back.  Returns 1 when
 * it raised a stall here or further back.
 *
 * A visit that raised nothing met only stalls at 15 (what it adds does
 * not depend on d once d > 0) and those stay 15, so a later visit of the
 * same block at the same depth in the same bump (same p) would repeat it
 * step for step: bmemo keeps such visits (and the unsat bits they set)
 * for the rest of the bump.  Without it, code where a block has many
 * predecessors (a function called from many places: its entry's
 * predecessors are all the calls) revisits the same saturated blocks
 * along every path, exponentially in the depth. */
static int
bump_back(Hz *h, size_t b, size_t end, long p, int d, int depth)
{
	size_t j = end, k, key = b * (BUMP_DEPTH + 1) + (size_t)depth;
	int added = 0, unsat0 = h->unsat;

	if (depth > 0 && h->bmemo[key] == h->bgen) {
		h->unsat |= h->bmemo_unsat[key];
		return 0;
	}
	h->unsat = 0;
	while (d > 0 && j > h->sh.bfirst[b]) {
		j--;
		HIns *x = &h->ins[j];
		int add = MIN(d, 15 - x->c.stall);
		if (add > 0) {
			x->c.stall = (u8)(x->c.stall + add);
			d -= add;
			added = 1;
			h->changes++;
			h->bumped[b] = 1;
			if (depth == 0) {
				h->added[j] = (u8)(h->added[j] + add);
				h->addlo = MIN(h->addlo, j);
			}
			/* ptxas yields where a stall waits for a fixed latency (98.7%
			   of its stalls >= 2 that feed the next instruction), never
			   on the scoreboard setters (docs/findings-ctrl.md) */
			if (x->c.wrsb == 7 && x->c.rdsb == 7)
				x->c.yield = 0;
		}
		if ((long)j == p)
			break;
	}
	if (d > 0 && p >= 0 && h->sh.bof[p] == b && (size_t)p >= j && (size_t)p < end)
		h->unsat |= 1;  /* producer and consumer too close: needs padding */
	else if (d > 0 && depth >= BUMP_DEPTH)
		h->unsat |= 2;
	else if (d > 0)
		for (k = 0; k < h->sh.pred[b].n; k++) {
			size_t pb = h->sh.pred[b].v[k];
			added |= bump_back(h, pb, h->sh.blast[pb] + 1, p, d, depth + 1);
		}
	if (depth > 0 && !added) {
		h->bmemo[key] = h->bgen;
		h->bmemo_unsat[key] = (u8)h->unsat;
	}
	h->unsat |= unsat0;
	return added;
}

static void
bump(Hz *h, size_t i, long p, int d)
{
	h->bgen++;
	bump_back(h, h->sh.bof[i], i, p, d, 0);
}

/* Do instructions i and k complete in order with each other? */
static int
same_pipe(const Hz *h, size_t i, size_t k)
{
	const HIns *x = &h->ins[i], *y = &h->ins[k];

	return x->opid == y->opid || (x->pipe && x->pipe == y->pipe);
}

/* Instructions p < i of one block under complementary guards (@P0 and
 * @!P0) with no write of that predicate between them: at most one of the
 * two executes (ptxas: @P0 LDG R54 ... @!P0 LDC R54 without a wait). */
static int
exclusive(const Hz *h, size_t p, size_t i)
{
	const HIns *a = &h->ins[p], *b = &h->ins[i];
	size_t k;
	int r, slot = a->gslot;

	if (p >= i || h->sh.bof[p] != h->sh.bof[i] || !a->cond || !b->cond || a->gslot != b->gslot ||
	    a->gnot == b->gnot)
		return 0;
	for (k = p + 1; k < i; k++)
		for (r = 0; r < h->ins[k].nwr; r++)
			if (slot >= h->ins[k].wr[r].s && slot < h->ins[k].wr[r].s + h->ins[k].wr[r].n)
				return 0;
	return 1;
}

/* The names in a hazard's text, formatted only when there is a report. */
#define SLOT_NAME(h, slot, buf) ((h)->report ? hz_slot_name((slot), (buf), sizeof(buf)) : "")
#define PROD_NAME(h, p, buf) ((h)->report ? pname((h), (p), (buf), sizeof(buf)) : "")

static const char *
pname(Hz *h, long p, char *buf, size_t n)
{
	if (p < 0)
		snprintf(buf, n, "(another path)");
	else
		snprintf(buf, n, "%s at 0x%lx", hz_op_name(h->ins[p].opid), (unsigned long)p * 16);
	return buf;
}

#define LIVE(s, j) ((s)->lsb[(j) / 64] |= 1ull << ((j) % 64))

/* hz_fix: the cycles bump_back has added so far on every path from
 * instruction q (an issue of it, -1: none) to i, in block runb: those
 * from q (when the run passed it) or the block's entry on.  Stalls it
 * added elsewhere are not counted (the bumps it derives are then too
 * large, never too small). */
static int
since_bump(const Hz *h, i32 q, size_t i)
{
	size_t j = h->sh.bfirst[h->runb];
	int t = 0;

	if (q >= 0 && (size_t)q >= j && (size_t)q < i)
		j = (size_t)q;
	for (j = MAX(j, h->addlo); j < i; j++)
		t += h->added[j];
	return t;
}

/* The scoreboards of wm waited at instruction i: an increment is visible
   to waits one cycle later, so each must have been set 2 or more cycles
   ago (hz_fix raises the stalls before i to make it so). */
static void
wait_soon(Hz *h, HState *s, size_t i, u8 wm)
{
	int k, a;
	char b1[64];

	for (; wm; wm &= (u8)(wm - 1)) {
		k = __builtin_ctz(wm);
		if ((a = SBAGE(s, k)) >= 2 || (h->fixing && (a += since_bump(h, s->sbprod[k], i)) >= 2))
			continue;
		h->nev++;
		if (h->fixing)
			bump(h, i, s->sbprod[k], 2 - a);
		else
			hazard(h, i, HZ_SBWAIT, s->sbprod[k], -1, "%s waits on SB%d %d cycle(s) after %s set it (needs 2)",
			       hz_op_name(h->ins[i].opid), k, a, PROD_NAME(h, s->sbprod[k], b1));
	}
}

/* The scoreboards of wm are waited: clear them from every slot. */
static void
wait_clear(const Hz *h, HState *s, u8 wm)
{
	size_t j, w;

	/* all waited scoreboards at once, only the slots with one pending */
	for (w = 0; w < h->nwd; w++) {
		u64 m = s->lsb[w];
		while (m) {
			j = w * 64 + (size_t)__builtin_ctzll(m);
			m &= m - 1;
			HSlot *sl = &s->sl[j];
			sl->wsb &= (u8)~wm;
			sl->rsb &= (u8)~wm;
			/* an instruction whose result is written has read its sources */
			if (sl->rsb && sl->rprod >= 0) {
				const Ctrl *pc = &h->ins[sl->rprod].c;
				if (pc->wrsb < NSB && (wm >> pc->wrsb & 1) && pc->rdsb < NSB)
					sl->rsb &= (u8)~(1u << pc->rdsb);
			}
			if (!sl->wsb && !sl->rsb)
				s->lsb[w] &= ~(1ull << (j % 64));
		}
	}
}

static void
waits(Hz *h, HState *s, size_t i)
{
	HIns *x = &h->ins[i];
	size_t j, w;
	u8 wm = x->c.wait & 0x3f;

	if (wm) {
		wait_soon(h, s, i, wm);
		wait_clear(h, s, wm);
	}
	if (x->kind == HK_DEPBAR && x->sb < NSB && !x->never)
		for (w = 0; w < h->nwd; w++) {
			u64 m = s->lsb[w];
			while (m) {
				j = w * 64 + (size_t)__builtin_ctzll(m);
				m &= m - 1;
				HSlot *sl = &s->sl[j];
				if ((sl->wsb & (1u << x->sb)) && sl->wdep >= x->sbn)
					sl->wsb &= (u8)~(1u << x->sb);
				if (x->sbn == 0)
					sl->rsb &= (u8)~(1u << x->sb);
			}
		}
}

/* lat_exc_in's answers for the life of the process (the assigner's solves
 * and the checker's ask the same questions): the rows (the producer's and
 * the consumer's) are the static tables', so a pair of rows always means
 * the same.  An index slot holds an entry's index + 1
 * (open addressing, at most half full: when EXC_ENTRIES are taken the
 * memo starts afresh); entries are taken in order, so a compile's few
 * dozen questions (sgemm_tiled 21, softmax_f32 76) touch one page, not one
 * page each: the 512-byte index and 24 bytes an entry. */
typedef struct {
	const LatRow *row, *cons;
	u8 f, cat;
	short v;
} ExcMemo;
enum { EXC_BITS = 8, EXC_SLOTS = 1 << EXC_BITS, EXC_ENTRIES = EXC_SLOTS / 2 };
typedef struct {
	u16 slot[EXC_SLOTS];
	u32 n;
	ExcMemo e[EXC_ENTRIES];
} ExcTable;
static ExcTable *exc_tab;

static int
exc_of(const LatRow *row, int f, int cat, const LatRow *cons)
{
	u64 key = ((u64)(uintptr_t)row ^ (u64)(uintptr_t)cons << 7) + (u64)(f * LC_NCAT + cat);
	size_t i, h = (size_t)((key * 0x9e3779b97f4a7c15ull) >> (64 - EXC_BITS));
	ExcMemo *e;

	if (!exc_tab)
		exc_tab = xcalloc(1, sizeof *exc_tab);
	for (i = h; exc_tab->slot[i]; i = (i + 1) & (EXC_SLOTS - 1)) {
		e = &exc_tab->e[exc_tab->slot[i] - 1];
		if (e->row == row && e->cons == cons && e->f == f && e->cat == cat)
			return e->v;
	}
	if (exc_tab->n == EXC_ENTRIES) {
		memset(exc_tab->slot, 0, sizeof exc_tab->slot);
		exc_tab->n = 0;
		i = h;
	}
	exc_tab->slot[i] = (u16)++exc_tab->n;
	e = &exc_tab->e[exc_tab->n - 1];
	e->row = row, e->cons = cons, e->f = (u8)f, e->cat = (u8)cat;
	e->v = (short)lat_exc_in(row, f, cat, cons);
	return e->v;
}

/* The cycles read u of instruction x needs after fixed producer q.  The
   same read mostly meets the same producer on every solve: the last answer
   per use is kept (ecache: q + 1 above the low 8 bits, the cycles below;
   0 none). */
static inline int
need_of(Hz *h, const HIns *x, const HUse *u, i32 q)
{
	u32 *c = &h->ecache[u - h->sh.use];
	const LatRow *row;
	int e, f = u->file, cat = u->cat;

	if (*c >> 8 == (u32)q + 1)
		return (int)(*c & 0xff);
	row = h->ins[q].row;
	e = row && row->nexc ? exc_of(row, f, cat, x->row) : -1;
	/* the GPU floors: no exception below them (q is a fixed producer) */
	if (e < 0 || (h->m == HN_FLOOR && e < h->ins[q].need[h->m][f][cat]))
		e = h->ins[q].need[h->m][f][cat];
	else if (h->m == HN_SAFE)
		e = MAX(e, LAT_SAFE);
	if (u->slot == h->ins[q].wide_hi && cat == LC_ALU)
		e = MAX(e, LAT_WIDE_HI);
	if ((u32)q + 1 < 1u << 24 && e <= 0xff)
		*c = ((u32)q + 1) << 8 | (u32)e;
	return e;
}

/* The cycles read u of instruction x must still wait for its slot's fixed
   producers (a slot with some: np or pover); fprod and its age become the
   producer that needs the most.  With observe, lists their distances. */
static int
read_need(Hz *h, HState *s, const HIns *x, const HUse *u)
{
	size_t j = u->d;
	HSlot *sl = &s->sl[j];
	int cat = u->cat, f = u->file, need = 0, k, e, a;
	u32 dt = s->clk - sl->pclk;  /* the producers' ages: PA + dt, saturated */

	if (h->observe)
		for (k = 0; k < sl->np; k++)
			if ((a = sat_age(sl->pa[k], dt)) < 64)
				buf_printf(h->observe, "obs %s %d %d %d %s\n",
					   h->ins[sl->pp[k]].cls, f, cat, a, x->cls);
	if (sl->pover) {
		rem_now(s, j);
		return sl->rem[cat];
	}
	for (k = 0; k < sl->np; k++) {
		i32 q = sl->pp[k];
		e = need_of(h, x, u, q);
		a = sat_age(sl->pa[k], dt);
		if (e - a > need) {
			need = e - a;
			sl->fprod = q;
			SET_FAGE(s, j, a);
		}
	}
	return need;
}

static void
reads(Hz *h, HState *s, size_t i, const HUse *u, const HUse *end)
{
	HIns *x = &h->ins[i];
	int need;
	char b1[64], b2[16];

	for (; u < end; u++) {
		size_t j = u->d;
		HSlot *sl = &s->sl[j];
		need = sl->np || sl->pover ? read_need(h, s, x, u) : 0;
		if (need > 0) {
			h->nev++;
			if (h->fixing)
				bump(h, i, sl->fprod, need);
			else
				hazard(h, i, HZ_LATENCY, sl->fprod, u->slot,
				       "%s read by %s before %s finished (stall sum %d < latency %d)",
				       SLOT_NAME(h, u->slot, b2), hz_op_name(x->opid),
				       PROD_NAME(h, sl->fprod, b1), FAGE(s, j),
				       FAGE(s, j) + need);
		}
		if (sl->wsb) {
			h->nev++;
			if (h->fixing) {
				if ((x->c.wait | (sl->wsb & 0x3f)) != x->c.wait)
					h->changes++;
				x->c.wait |= sl->wsb & 0x3f;
				if (sl->wsb & SB_NONE)
					h->unsat = 1;
				sl->wsb = 0;
			} else if (sl->wsb & SB_NONE)
				hazard(h, i, HZ_NOSB, sl->wprod, u->slot,
				       "%s read by %s before %s finished (it sets no scoreboard)",
				       SLOT_NAME(h, u->slot, b2), hz_op_name(x->opid),
				       PROD_NAME(h, sl->wprod, b1));
			else
				hazard(h, i, HZ_RAW, sl->wprod, u->slot,
				       "%s read by %s before %s finished (scoreboard mask 0x%x not waited)",
				       SLOT_NAME(h, u->slot, b2), hz_op_name(x->opid),
				       PROD_NAME(h, sl->wprod, b1), sl->wsb);
		}
	}
}

/* Instruction i writes slot u->d while a variable-latency write or a late
   read of it is pending (wsb or rsb). */
static void
overwrite(Hz *h, HState *s, size_t i, const HUse *u)
{
	HIns *x = &h->ins[i];
	size_t j = u->d;
	HSlot *sl = &s->sl[j];
	u8 pend = (sl->wsb | sl->rsb) & 0x3f;
	char b1[64], b2[16];

	h->nev += pend != 0;
	if (h->fixing && pend) {
		if ((x->c.wait | pend) != x->c.wait)
			h->changes++;
		x->c.wait |= pend;
		sl->wsb &= SB_NONE;
		sl->rsb = 0;
	}
	/* a result of the same in-order pipe lands before ours */
	if (sl->wsb == SB_NONE && sl->wprod >= 0 && x->lat.var &&
	    same_pipe(h, (size_t)sl->wprod, i))
		sl->wsb = 0;
	if (sl->wsb && !h->fixing && sl->wprod >= 0 && exclusive(h, (size_t)sl->wprod, i))
		;  /* the two writes never both happen */
	else if (sl->wsb && !h->fixing)
		hazard(h, i, HZ_WAW, sl->wprod, u->slot,
		       "%s overwritten by %s before %s finished (scoreboard mask 0x%x not waited)",
		       SLOT_NAME(h, u->slot, b2), hz_op_name(x->opid),
		       PROD_NAME(h, sl->wprod, b1), sl->wsb);
	/* memory instructions reach the memory pipe in order: a load
	   cannot write before an earlier store has read its data */
	if (sl->rsb && !h->fixing && x->lat.var && (x->memf & HF_MEM) &&
	    sl->rprod >= 0 && (h->ins[sl->rprod].memf & HF_MEM))
		sl->rsb = 0;
	if (sl->rsb && !h->fixing)
		hazard(h, i, HZ_WAR, sl->rprod, u->slot,
		       "%s overwritten by %s before %s read it (read scoreboard mask 0x%x not waited)",
		       SLOT_NAME(h, u->slot, b2), hz_op_name(x->opid),
		       PROD_NAME(h, sl->rprod, b1), sl->rsb);
}

static void
writes(Hz *h, HState *s, size_t i, const HUse *u, const HUse *end)
{
	HIns *x = &h->ins[i];
	int c;

	for (; u < end; u++) {
		size_t j = u->d;
		HSlot *sl = &s->sl[j];
		if (sl->wsb | sl->rsb)
			overwrite(h, s, i, u);
		if (x->lat.var) {
			u8 m = x->c.wrsb < NSB ? (u8)(1u << x->c.wrsb) : SB_NONE;
			/* the "done" predicate of a generic ATOM is known when its
			   operands are read: ptxas waits on the read scoreboard */
			if (m == SB_NONE && x->c.rdsb < NSB && u->slot >= SLOT_P && u->slot < SLOT_UP &&
			    (x->memf & HF_ATOM))
				m = (u8)(1u << x->c.rdsb);
			sl->wsb = x->cond ? (u8)(sl->wsb | m) : m;
			LIVE(s, j);
			if (m == SB_NONE) {
				s->lnone[j / 64] |= 1ull << (j % 64);
				h->odd = 1;
			}
			sl->wdep = 0;
			sl->wprod = (i32)i;
			if (!x->cond) {
				memset(sl->rem, 0, LC_NCAT);
				sl->rclk = s->clk;
				sl->fprod = -1;
				SET_FAGE(s, j, AGE_MAX);
				sl->np = sl->pover = 0;
				set_due(s, j, s->clk + 0x7fffffff);  /* pa_due of no producer */
			}
		} else {
			int f = u->file;
			s->lnp[j / 64] |= 1ull << (j % 64);
			if (!x->cond) {
				memcpy(sl->rem, x->need[h->m][f], LC_NCAT);
				sl->rclk = s->clk;
			} else {
				rem_now(s, j);
				for (c = 0; c < LC_NCAT; c++)
					sl->rem[c] = (u8)MAX(sl->rem[c], x->need[h->m][f][c]);
			}
			if (u->slot == x->wide_hi)
				sl->rem[LC_ALU] = (u8)MAX(sl->rem[LC_ALU], LAT_WIDE_HI);
			sl->fprod = (i32)i;
			SET_FAGE(s, j, 0);
			if (!x->cond) {
				sl->np = 1;
				sl->pover = 0;
				sl->pp[0] = (i32)i;
				sl->pa[0] = 0;
				sl->pclk = s->clk;
				set_due(s, j, s->clk + h->lim[i]);  /* pa_due of producer i alone */
			} else {
				pa_now(s, j);
				if (sl->np < NPR) {
					sl->pp[sl->np] = (i32)i;
					sl->pa[sl->np++] = 0;
				} else
					sl->pover = 1, h->odd = 1;
				pa_due(h, s, j);
			}
			if (!x->cond)
				sl->wsb = 0;
		}
	}
}

/* Eight bytes at a time (0 < t < 128): p[j] = min(p[j] + t, 255) for
 * the whole words of p (n a multiple of 8). */
#define B7 0x8080808080808080ull
#define B0 0x0101010101010101ull

static void
sat_add(u8 *p, size_t n, int t)
{
	u64 T = B0 * (u64)t, x, y;
	size_t j;

	for (j = 0; j + 8 <= n; j += 8) {
		memcpy(&x, p + j, 8);
		y = (x & ~B7) + T;  /* no carry leaves a byte: 0x7f + t < 0x100 */
		/* overflow where both x and y have the high bit: 0xff */
		y = (y ^ (x & B7)) | ((((x & y) & B7) >> 7) * 0xff);
		memcpy(p + j, &y, 8);
	}
}

/* Each byte b of x: b > t ? b - t : 0, with T = t in every byte (t < 128).
 * (x | B7) - T borrows across no byte; its high bit, or x's, says b >= t. */
static u64
sat_sub(u64 x, u64 T)
{
	u64 d = (x | B7) - T, ge = (x | d) & B7;

	return (d ^ (~x & B7)) & ((ge >> 7) * 0xff);
}

/* An age a, d cycles later (saturated at AGE_MAX, as sat_add_by). */
static inline int
sat_age(int a, u32 d)
{
	return d >= AGE_MAX || a + (int)d > AGE_MAX ? AGE_MAX : a + (int)d;
}

/* p[0..8) += d, saturated at 255 (as d steps of one cycle would). */
static inline void
sat_add_by(u8 *p, u32 d)
{
	if (d >= AGE_MAX)
		memset(p, AGE_MAX, NPR);
	else if (d >= 128) {
		sat_add(p, NPR, 127);
		sat_add(p, NPR, (int)d - 127);
	} else if (d)
		sat_add(p, NPR, (int)d);
}

/* Slot j's rem as of now (in one word: LC_NCAT bytes and the 0 padding). */
static inline u64
rem_at(const HState *s, size_t j)
{
	const HSlot *sl = &s->sl[j];
	u32 d = s->clk - sl->rclk;
	u64 r;

	memcpy(&r, sl->rem, 8);
	if (!r || !d)
		return r;
	if (d >= AGE_MAX)
		return 0;  /* no rem is above 255 */
	if (d >= 128) {
		r = sat_sub(r, B0 * 127);
		d -= 127;
	}
	return sat_sub(r, B0 * d);
}

/* Bring slot j's rem to now. */
static inline void
rem_now(HState *s, size_t j)
{
	HSlot *sl = &s->sl[j];

	if (sl->rclk != s->clk) {
		u64 r = rem_at(s, j);
		memcpy(sl->rem, &r, 8);
		sl->rclk = s->clk;
	}
}

/* Slot j's producer ages as of now. */
static inline void
pa_now(HState *s, size_t j)
{
	HSlot *sl = &s->sl[j];

	if (sl->pclk != s->clk) {
		sat_add_by(sl->pa, s->clk - sl->pclk);
		sl->pclk = s->clk;
	}
}

/* Slot j's pdue = due, and mindue kept at most every pdue. */
static inline void
set_due(HState *s, size_t j, u32 due)
{
	s->sl[j].pdue = due;
	if ((i32)(due - s->mindue) < 0)
		s->mindue = due;
}

/* Slot j's pdue: the first clock at which one of its producers is old
 * enough to leave (never while pover), from the ages as of pclk. */
static void
pa_due(const Hz *h, HState *s, size_t j)
{
	const HSlot *sl = &s->sl[j];
	u32 due = s->clk + 0x7fffffff;  /* never */
	int c;

	for (c = 0; !sl->pover && c < sl->np; c++) {
		u32 at = sl->pclk - sl->pa[c] + h->lim[sl->pp[c]];
		if ((i32)(at - due) < 0)
			due = at;
	}
	set_due(s, j, due);
}

/* The clock advances by t cycles, a stall count (0..15). */
static void
advance(const Hz *h, HState *s, int t)
{
	size_t j, w;
	int c;

	if (t <= 0)
		return;
	s->clk += (u32)t;  /* rem counts down by itself (rem_at) */
	if ((i32)(s->clk - s->mindue) < 0)
		return;  /* no producer is old enough to leave yet */
	s->mindue = s->clk + 0x7fffffff;  /* the scan below lowers it again */
	for (w = 0; w < h->nwd; w++) {
		u64 m = s->lnp[w];
		while (m) {
			j = w * 64 + (size_t)__builtin_ctzll(m);
			m &= m - 1;
			HSlot *sl = &s->sl[j];
			int np = sl->np;
			/* a producer leaves at its limit (pa_due): the loop runs
			   when one gets there, as it did at every step */
			if (np && (i32)(s->clk - sl->pdue) >= 0) {
				/* the ages as of pclk plus dt: below 255 here (a
				   producer leaves by lim <= AGE_DROP + 1 plus a stall),
				   so pa_now's saturation would change none of them */
				u32 dt = s->clk - sl->pclk;
				for (c = 0; c < np; c++)
					if (sl->pa[c] + dt >= h->lim[sl->pp[c]]) {
						np--;
						sl->pp[c] = sl->pp[np];
						sl->pa[c] = sl->pa[np];
						c--;
					}
				sl->np = (u8)np;
				pa_due(h, s, j);
			} else if (np && (i32)(sl->pdue - s->mindue) < 0)
				s->mindue = sl->pdue;
			if (!np)
				s->lnp[w] &= ~(1ull << (j % 64));
		}
	}
}

/* Instruction i sets SBk: one more increment after their producer for
 * the slots waiting on SBk (what DEPBAR.LE SBk, n compares).  Only when
 * the code has a DEPBAR: without one, wdep stays 0 and is never read (the
 * solve may then visit fewer blocks again, to the same fixed point). */
static void
count_sb(const Hz *h, HState *s, size_t i, int k)
{
	size_t j, w;

	for (w = 0; w < h->nwd; w++) {
		u64 m = s->lsb[w];  /* the rest have wsb 0 */
		while (m) {
			j = w * 64 + (size_t)__builtin_ctzll(m);
			m &= m - 1;
			HSlot *sl = &s->sl[j];
			if ((sl->wsb & (1u << k)) && sl->wprod != (i32)i && sl->wdep < 255)
				sl->wdep++;
		}
	}
}

/* Results of the same pipe complete in order (ptxas relies on it:
 * MUFU.RCP without a scoreboard, covered by the wait on the next MUFU's):
 * a pending result with no scoreboard waits on SBk, which instruction i
 * of its pipe sets. */
static void
pipe_cover(const Hz *h, HState *s, size_t i, int k)
{
	size_t j, w;

	for (w = 0; w < h->nwd; w++) {
		u64 m = s->lnone[w];
		while (m) {
			j = w * 64 + (size_t)__builtin_ctzll(m);
			m &= m - 1;
			HSlot *sl = &s->sl[j];
			if (sl->wsb == SB_NONE && sl->wprod >= 0 && sl->wprod != (i32)i &&
			    same_pipe(h, (size_t)sl->wprod, i))
				sl->wsb = (u8)(1u << k);
			if (!(sl->wsb & SB_NONE))
				s->lnone[w] &= ~(1ull << (j % 64));
		}
	}
}

static void
step(Hz *h, HState *s, size_t i)
{
	HIns *x = &h->ins[i];
	int k;

	if (h->observe)
		buf_printf(h->observe, "ins %s %d %d %d %d %d\n", x->cls, x->c.stall, x->c.wrsb != 7,
			   x->c.rdsb != 7, x->nwr > 0, x->nrd > 0);
	if (x->c.stall < x->minst) {
		h->nev++;
		if (h->fixing)
			x->c.stall = x->minst, h->changes++;
		else if (x->kind == HK_DEPBAR)
			hazard(h, i, HZ_DEPBAR, -1, -1, "DEPBAR with stall %d (needs %d to take effect)",
			       x->c.stall, x->minst);
	}
	waits(h, s, i);
	if (!x->never) {
		u8 w0 = x->c.wait;
		const u32 *o = &h->sh.uo[2 * i];
		const HUse *rd = h->sh.use + o[0], *wr = h->sh.use + o[1], *end = h->sh.use + o[2];
		reads(h, s, i, rd, wr);
		/* hz_fix added waits (only it does): they act before the writes,
		   as waits() would, and obey its 2-cycle rule */
		if (x->c.wait != w0)
			wait_clear(h, s, x->c.wait & ~w0 & 0x3f);
		writes(h, s, i, wr, end);
		if (x->c.wait != w0)
			wait_soon(h, s, i, x->c.wait & ~w0 & 0x3f);
		/* late readers keep their sources until the read scoreboard clears */
		/* (uniform registers are read at issue: ptxas never waits for them) */
		if (x->c.rdsb < NSB) {
			for (const HUse *u = rd; u < wr; u++)
				if (u->late) {
					s->sl[u->d].rsb |= (u8)(1u << x->c.rdsb);
					LIVE(s, u->d);
					s->sl[u->d].rprod = (i32)i;
				}
		}
	}
	if (x->c.rdsb < NSB) {
		s->sbts[x->c.rdsb] = s->clk;
		s->sbprod[x->c.rdsb] = (i32)i;
	}
	if ((k = x->c.wrsb) < NSB) {
		s->sbts[k] = s->clk;
		s->sbprod[k] = (i32)i;
		if (h->depbar)
			count_sb(h, s, i, k);
		pipe_cover(h, s, i, k);
	}
	advance(h, s, x->c.stall);
}

/* ---- fixed point and passes ---- */

/* Block b's instructions before end on s; bend[b] ends up one past the
   last of them at which an event occurred (bfirst[b] when none). */
static void
run_block(Hz *h, size_t b, HState *s, size_t end)
{
	size_t i;
	int ev;

	h->bend[b] = h->sh.bfirst[b];
	h->runb = b;
	h->addlo = SIZE_MAX;
	for (i = h->sh.bfirst[b]; i < end; i++) {
		ev = h->nev;
		step(h, s, i);
		if (h->nev != ev)
			h->bend[b] = i + 1;
	}
	if (h->addlo < end)
		memset(h->added + h->addlo, 0, end - h->addlo);
}

/* The fixed point.  A visit joins only the slots whose values in the
 * block's entry state changed since its latest visit began (its dirty
 * set; all on the first): a run changes each slot by the slot's own
 * values and the block's instructions alone (the clock, the control
 * bits and every entry clock stay as they are during a solve), so the
 * other slots leave the run as they did last time, and each successor
 * holds that last exit state joined in already: a join changes no value
 * it has joined before (max, min, union). */
void
hz_solve(Hz *h)
{
	size_t *work = h->work, nw = 0, b, k;
	u64 *dm = h->dirty + h->sh.nb * h->nwd;  /* the visited block's */
	u8 *inq = h->inq;  /* all 0 between solves */
	HState *s, *tmp = h->tmp;
	int hz0, ev0;

	h->shaz = h->sev = h->odd = h->spent = 0;
	if (!h->sh.nb)
		return;
	for (b = 0; b < h->sh.nb; b++) {
		h->st[b]->valid = 0;
		h->bhaz[b] = h->bev[b] = 0;
	}
	state_init(h, h->st[0]);
	all_dirty(h, 0);
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
		for (k = 0; k < h->nwd; k++)  /* dm = b's dirty set, which starts afresh */
			dm[k] = h->dirty[b * h->nwd + k], h->dirty[b * h->nwd + k] = 0;
		if (h->scratch && h->sh.once[b])
			s = h->st[b], h->spent = 1;  /* nothing reads b's entry again */
		else
			state_copy(h, s = tmp, h->st[b]);
		hz0 = h->nhaz, ev0 = h->nev;
		run_block(h, b, s, h->sh.blast[b] + 1);
		h->bhaz[b] = h->nhaz - hz0;
		h->bev[b] = h->nev - ev0;
		for (k = 0; k < h->sh.succ[b].n; k++) {
			size_t t = h->sh.succ[b].v[k];
			if (!h->st[t]->valid && k + 1 == h->sh.succ[b].n) {
				/* the join would copy s, which is not read again:
				   t's state takes s's memory, s's owner the unused one */
				HState *u = h->st[t];
				h->st[t] = s;
				if (s == tmp)
					tmp = u;
				else
					h->st[b] = u;
				all_dirty(h, t);
			} else if (!state_join(h, t, s, dm))
				continue;
			if (!inq[t]) {
				inq[t] = 1;
				work[nw++] = t;
			}
		}
	}
	h->tmp = tmp;  /* the scratch state (run_all's) may have moved */
	/* the latest visit of a block ran from its final entry state (a change
	   to it queues the block again), so these are what a pass would see */
	for (b = 0; b < h->sh.nb; b++) {
		h->shaz += h->bhaz[b];
		h->sev += h->bev[b];
	}
}

int
hz_solved_hazards(const Hz *h)
{
	return h->shaz;
}

int
hz_solved_fixes(const Hz *h)
{
	return h->sev;
}

/* Every reachable block once from its entry state; for the fix pass,
 * not the blocks whose latest solve visit found no fix event (bev) and
 * whose stalls no fix raised since: run again they would repeat that
 * visit step for step, and a step changes bits only at an event.  The
 * fix pass runs on the entry states themselves (no copy): its changes
 * make them stale, and the next hz_solve starts afresh.
 *
 * A fix run also stops after the last instruction at which the solve's
 * visit met an event (bend), unless the code has a DEPBAR or the solve
 * was odd.  Otherwise the run meets no event after it: from the same
 * entry state, (1) the scoreboard masks (wsb, rsb) never depend on the
 * clock, and the fix only clears bits of them (the wait it adds), so at
 * each later instruction a mask the run holds is one the visit held, or
 * a subset: without a DEPBAR (wdep) or a write that sets no scoreboard
 * (pipe_cover's and same_pipe's SB_NONE) no rule adds a bit back;
 * (2) stalls only rise (bump, minst), so every age is as large or
 * larger and producers leave the lists as early or earlier: a latency
 * need or a scoreboard wait too soon is as small or absent -- except
 * across a list overflow (pover: rem's category need may be below an
 * exception), which the solve would have met first, with lists at least
 * as long. */
static void
run_all(Hz *h, int fixing)
{
	size_t b;

	for (b = 0; b < h->sh.nb; b++) {
		if (!h->st[b]->valid || (fixing && !h->bev[b] && !h->bumped[b]))
			continue;
		if (fixing)
			run_block(h, b, h->st[b], h->depbar || h->odd ? h->sh.blast[b] + 1 : h->bend[b]);
		else {
			state_copy(h, h->tmp, h->st[b]);
			run_block(h, b, h->tmp, h->sh.blast[b] + 1);
		}
	}
}

/* The solve again, keeping every entry state (hz_pass and hz_fix run
   from them): the same fixed point and counts as the spent solve's (its
   hazards only counted, as the first time). */
static inline void
resolve(Hz *h)
{
	int on = h->scratch;
	HzFoundVec *found = h->found;

	h->scratch = 0;
	h->found = NULL;
	hz_solve(h);
	h->scratch = on;
	h->found = found;
}

void
hz_keep_producers(Hz *h)
{
	h->keep = 1;
	set_lim(h);
}

int
hz_pass(Hz *h, const char *kernel, Buf *report, Buf *observe)
{
	if (h->spent)
		resolve(h);
	h->kernel = kernel;
	h->report = report;
	h->observe = observe;
	h->nhaz = 0;
	run_all(h, 0);
	h->report = h->observe = NULL;
	return h->nhaz;
}

int
hz_fix(Hz *h)
{
	if (h->spent)
		resolve(h);
	h->fixing = 1;
	h->changes = 0;
	h->unsat = 0;
	memset(h->bumped, 0, h->sh.nb);
	run_all(h, 1);
	h->fixing = 0;
	h->scratch = 1;  /* the next solve, the assigner's, mostly finds nothing to fix */
	return (h->unsat & 1) && !h->changes ? -2 : h->changes;
}

/* Do the n ranges at p and r say the same? */
static int
same_ranges(const HRange *p, const HRange *r, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (p[k].s != r[k].s || p[k].n != r[k].n || p[k].cat != r[k].cat)
			return 0;
	return 1;
}

/* Do x and y say the same of their instructions (pointers compared by
   what they point to)? */
int
hz_same_view(const HIns *x, const HIns *y)
{
	return !memcmp(&x->c, &y->c, sizeof x->c) && x->kind == y->kind && x->cond == y->cond &&
	       x->never == y->never && x->pipe == y->pipe && x->memf == y->memf && x->async_ur == y->async_ur &&
	       x->minst == y->minst && x->fence == y->fence && x->nrd == y->nrd && x->nwr == y->nwr &&
	       x->nd == y->nd && x->mods == y->mods && x->gnot == y->gnot && !memcmp(x->src, y->src, 3) &&
	       x->gslot == y->gslot && !memcmp(x->maxneed, y->maxneed, HN_N) && x->opid == y->opid &&
	       x->rmax == y->rmax && x->wide_hi == y->wide_hi && x->lat.var == y->lat.var && x->lat.lat == y->lat.lat &&
	       x->lat.rd_late == y->lat.rd_late && x->sb == y->sb && x->sbn == y->sbn && x->target == y->target &&
	       (x->cls == y->cls || (x->cls && y->cls && !strcmp(x->cls, y->cls))) && x->row == y->row &&
	       (x->need == y->need || (x->need && y->need && !memcmp(x->need, y->need, HN_N * sizeof *x->need))) &&
	       same_ranges(x->rd, y->rd, x->nrd) && same_ranges(x->wr, y->wr, x->nwr);
}

/* memcmp for arrays that may be empty (and then NULL) */
static int
same_bytes(const void *x, const void *y, size_t n)
{
	return !n || !memcmp(x, y, n);
}

/* Are x and y the same CFG and slots? */
static int
same_shape(const HzShape *x, const HzShape *y)
{
	size_t b, n = x->n;

	if (n != y->n || x->nb != y->nb || x->ns != y->ns || !same_bytes(x->bfirst, y->bfirst, x->nb * sizeof *x->bfirst) ||
	    !same_bytes(x->blast, y->blast, x->nb * sizeof *x->blast) || !same_bytes(x->bof, y->bof, n * sizeof *x->bof) ||
	    !same_bytes(x->once, y->once, x->nb) || !same_bytes(x->slot, y->slot, x->ns * sizeof *x->slot) ||
	    !same_bytes(x->uo, y->uo, (2 * n + 1) * sizeof *x->uo) ||
	    !same_bytes(x->use, y->use, x->uo[2 * n] * sizeof *x->use))
		return 0;
	for (b = 0; b < x->nb; b++)
		if (x->succ[b].n != y->succ[b].n || x->pred[b].n != y->pred[b].n ||
		    !same_bytes(x->succ[b].v, y->succ[b].v, x->succ[b].n * sizeof *x->succ[b].v) ||
		    !same_bytes(x->pred[b].v, y->pred[b].v, x->pred[b].n * sizeof *x->pred[b].v))
			return 0;
	return 1;
}

/* The assigner's view ins of code is a fresh decode's, and the last
   shape is the one built afresh for it (hazard_find_assigned's verify). */
static void
verify_view(const Arch *a, const Word *code, size_t n, const HIns *ins, const char *kernel)
{
	Arena ar = {0};
	HIns *fresh = xmalloc((n + 1) * sizeof *fresh);
	HzShape *kept = last_shape;
	Hz *h;
	size_t k;

	if (hz_decode(a, code, n, fresh, &ar, &k) < 0)
		die("%s: word %zu does not decode", kernel, k);
	for (k = 0; k < n; k++)
		if (!hz_same_view(&ins[k], &fresh[k]))
			die("%s: the assigner's view of word %zu is not a fresh decode's", kernel, k);
	if (!kept)
		die("%s: no shape kept for the checker", kernel);
	kept->refs++;
	h = hz_new(a, fresh, n, HN_MINED);  /* builds the shape, now the last */
	if (!same_shape(kept, h->shape))
		die("%s: the assigner's CFG and slots are not its view's", kernel);
	hz_free(h);
	shape_free(kept);
	free(fresh);
	arena_free(&ar);
}

/* The checker's solve and report on ins (decoded), with the CFG and slots
   of the last analysis when same (hz_make). */
static int
check(const Arch *a, HIns *ins, size_t n, int same, const char *kernel, Buf *report, HzFoundVec *found)
{
	Hz *h = hz_make(a, ins, n, HN_MINED, same);
	int rc;

	h->scratch = 1;  /* hz_pass solves again (rare: a hazard) */
	hz_solve(h);
	h->found = found;
	/* the pass only repeats the solve's last visits: needed for the
	   report and the list, i.e. when they have something to say */
	rc = hz_solved_hazards(h) ? hz_pass(h, kernel, report, NULL) : 0;
	hz_free(h);
	return rc;
}

int
hazard_find_assigned(const Arch *a, const Word *code, size_t n, HIns *ins, const char *kernel, Buf *report,
		     HzFoundVec *found, int verify)
{
	size_t i;

	for (i = 0; i < n; i++)
		ins[i].c = ctrl_get(code[i]);  /* the bits of the words checked */
	if (verify)
		verify_view(a, code, n, ins, kernel);
	return check(a, ins, n, 1, kernel, report, found);
}

int
hazard_find(const Arch *a, const Word *code, size_t n, const char *kernel, Buf *report, HzFoundVec *found)
{
	Arena ar = {0};
	HIns *ins = xmalloc((n + 1) * sizeof *ins);  /* hz_decode fills [0, n) */
	size_t bad;
	int rc = -1;

	if (hz_decode(a, code, n, ins, &ar, &bad) == 0)
		rc = check(a, ins, n, 0, kernel, report, found);
	else if (report)
		buf_printf(report, "%s+0x%zx: the word does not decode\n", kernel ? kernel : "code",
			   bad * 16);
	free(ins);
	arena_free(&ar);
	return rc;
}

int
hazard_check(const Arch *a, const Word *code, size_t n, const char *kernel, Buf *report)
{
	return hazard_find(a, code, n, kernel, report, NULL);
}
