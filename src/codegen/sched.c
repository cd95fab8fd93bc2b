/* sched.c -- list scheduling within regions of straight-line code.
 *
 * The unit is a region: a run of instructions inside one basic block that
 * contains no fence (anything with effects beyond its registers other than
 * a load: stores, atomics, barriers, branches, synchronisation).  Fences
 * stay where they are, so memory order and control flow are untouched;
 * inside a region, instructions move freely subject to register, predicate
 * and uniform-register dependences (read-after-write with the producer's
 * latency, write-after-read and write-after-write as plain order).  The
 * priority is the longest latency path to the end of the region, so long
 * loads and MUFUs start early and their consumers go late.  Control bits
 * are assigned afterwards (ctrlbits.c) for the new order. */
#include <stdlib.h>
#include <string.h>

#include "codegen/hazard.h"
#include "codegen/sched.h"

/* Latency assumed for variable-latency producers (memory, MUFU, ...). */
enum { VAR_LAT = 24 };

/* A region boundary: a fence (hz_decode's opcode table, or a read of the
   clock) or control flow. */
static int
is_fence(const HIns *h)
{
	return h->kind != HK_NORMAL || h->fence;
}

/* Exact register sets: one bit per slot (hazard.h: hz_decode keeps
 * every slot below NSLOT), NSW words. */
enum { NSW = (NSLOT + 63) / 64 };

typedef struct {
	u64 rd[NSW], wr[NSW];
	u64 rm, wm;   /* the sets folded into 64 bits: a cheap first test */
} Sets;

/* The bit of slot s in a folded set: R registers in bits 0..47, UR in
 * 48..55, P and UP in 56..63, so that predicates and uniform registers
 * do not alias the common low R registers. */
static int
fold_bit(int s)
{
	return s < SLOT_UR ? s % 48 : s < SLOT_P ? 48 + (s - SLOT_UR) % 8 : 56 + (s - SLOT_P) % 8;
}

/* set = the slots of r[0..n); returns them folded (fold_bit). */
static u64
set_ranges(u64 *set, const HRange *r, int n)
{
	int k, s;
	u64 m = 0;

	memset(set, 0, NSW * 8);
	for (k = 0; k < n; k++) {
		ASSERT(r[k].s + r[k].n <= NSLOT);
		for (s = r[k].s; s < r[k].s + r[k].n; s++) {
			set[s / 64] |= (u64)1 << (s & 63);
			m |= (u64)1 << fold_bit(s);
		}
	}
	return m;
}

static void
sets_of(const HIns *h, Sets *x)
{
	x->rm = set_ranges(x->rd, h->rd, h->nrd);
	x->wm = set_ranges(x->wr, h->wr, h->nwr);
}

static int
meet(const u64 *a, const u64 *b)
{
	u64 m = 0;
	int w;
#pragma GCC unroll 8
	for (w = 0; w < NSW; w++)
		m |= a[w] & b[w];
	return m != 0;
}

/* Latency of the edge x -> y (y after x in program order), or -1 if
 * none: read-after-write with x's latency, write-after-read and
 * write-after-write as plain order (1). */
static int
edge(const HIns *x, const Sets *sx, const Sets *sy)
{
	/* the folded sets first: most pairs share no slot of a kind */
	int raw = (sx->wm & sy->rm) && meet(sx->wr, sy->rd);
	int war = ((sx->rm & sy->wm) && meet(sx->rd, sy->wr)) || ((sx->wm & sy->wm) && meet(sx->wr, sy->wr));

	/* loads stay ordered among themselves only through registers */
	if (raw && (x->lat.var || x->lat.lat >= 1))
		return x->lat.var ? VAR_LAT : x->lat.lat;
	return war ? 1 : raw ? x->lat.lat : -1;
}

/* An edge of the dependence graph (successor lists, in order). */
typedef struct {
	int to, lat;
} Edge;

/* Work arrays of sched_region, allocated once for the largest region
 * (the edges grow as needed). */
typedef struct {
	int *prio, *npred, *ready, *cand, *first;
	Word *out;
	u32 *pout;
	Sets *set;
	Edge *e;
	size_t ecap;
} Scratch;

/* The dependence edges of [lo, lo + n) as successor lists: sc->e from
 * sc->first[i] to sc->first[i + 1]; npred counts each one's predecessors. */
static void
edges(HIns *h, size_t lo, size_t n, Scratch *sc)
{
	size_t i, j, ne = 0;
	Sets *x = sc->set;

	for (i = 0; i < n; i++)
		sets_of(&h[lo + i], &x[i]);
	for (i = 0; i < n; i++) {
		sc->first[i] = (int)ne;
		for (j = i + 1; j < n; j++) {
			int l;
			/* no shared slot in the folded sets: no edge */
			if (!(x[i].wm & (x[j].rm | x[j].wm)) && !(x[i].rm & x[j].wm))
				continue;
			if ((l = edge(&h[lo + i], &x[i], &x[j])) < 0)
				continue;
			if (ne == sc->ecap) {
				sc->ecap = 2 * sc->ecap + 64;
				sc->e = xrealloc(sc->e, sc->ecap * sizeof *sc->e);
			}
			sc->e[ne].to = (int)j;
			sc->e[ne++].lat = l;
			sc->npred[j]++;
		}
	}
	sc->first[n] = (int)ne;
}

/* Does candidate i go before candidate b?  Ready first, then the longest
 * path, then program order. */
static int
better(const Scratch *sc, int cycle, int i, int b)
{
	int ri = sc->ready[i] <= cycle, rb = sc->ready[b] <= cycle;
	if (ri != rb)
		return ri > rb;
	if (sc->prio[i] != sc->prio[b])
		return sc->prio[i] > sc->prio[b];
	return i < b;
}

static void
sched_region(HIns *h, Word *code, u32 *perm, size_t lo, size_t hi, Scratch *sc)
{
	size_t n = hi - lo, i, k;
	int *prio = sc->prio, *npred = sc->npred, *ready = sc->ready, *cand = sc->cand, *first = sc->first;
	int cycle = 0, nc = 0, e;

	memset(npred, 0, n * sizeof *npred);
	memset(ready, 0, n * sizeof *ready);
	edges(h, lo, n, sc);
	for (i = n; i-- > 0;) {
		int p = 0;
		for (e = first[i]; e < first[i + 1]; e++)
			if (sc->e[e].lat + prio[sc->e[e].to] > p)
				p = sc->e[e].lat + prio[sc->e[e].to];
		prio[i] = p + 1;
	}
	/* the candidates: instructions whose predecessors are all issued */
	for (i = 0; i < n; i++)
		if (!npred[i])
			cand[nc++] = (int)i;
	for (k = 0; k < n; k++) {
		int c, best = 0;
		for (c = 1; c < nc; c++)
			if (better(sc, cycle, cand[c], cand[best]))
				best = c;
		c = cand[best];
		cand[best] = cand[--nc];
		sc->out[k] = code[lo + c];
		sc->pout[k] = perm[lo + c];
		if (ready[c] > cycle)
			cycle = ready[c];
		cycle++;
		for (e = first[c]; e < first[c + 1]; e++) {
			int j = sc->e[e].to;
			if (cycle - 1 + sc->e[e].lat > ready[j])
				ready[j] = cycle - 1 + sc->e[e].lat;
			if (--npred[j] == 0)
				cand[nc++] = j;
		}
	}
	memcpy(&code[lo], sc->out, n * sizeof *sc->out);
	memcpy(&perm[lo], sc->pout, n * sizeof *sc->pout);
}

/* Schedule each region of two or more instructions between block leaders
   and fences (with sc; without, only measure them).  Returns the largest
   region's size. */
static size_t
each_region(HIns *h, Word *code, u32 *perm, const u8 *leader, size_t n, Scratch *sc)
{
	size_t i, start = 0, max = 0;

	for (i = 0; i <= n; i++) {
		int fence = i < n && is_fence(&h[i]);
		if (i < n && !leader[i] && !fence)
			continue;
		if (i > start + 1 && sc)
			sched_region(h, code, perm, start, i, sc);
		max = MAX(max, i - start);
		start = fence ? i + 1 : i;
	}
	return max;
}

int
sched_blocks(const Arch *a, Word *code, size_t n, const u8 *leader, u32 *perm)
{
	Arena ar = {0};
	HIns *h = xmalloc((n + 1) * sizeof *h);  /* hz_decode fills [0, n) */
	size_t bad, i, max;
	Scratch sc;

	for (i = 0; i < n; i++)
		perm[i] = (u32)i;

	if (hz_decode(a, code, n, h, &ar, &bad) < 0) {
		free(h);
		arena_free(&ar);
		return -1;
	}
	/* the regions [start, i) twice: their largest size, then the work */
	max = each_region(h, code, perm, leader, n, NULL);
	memset(&sc, 0, sizeof sc);
	sc.prio = xmalloc(5 * (max + 1) * sizeof *sc.prio);
	sc.npred = sc.prio + max + 1;
	sc.ready = sc.npred + max + 1;
	sc.cand = sc.ready + max + 1;
	sc.first = sc.cand + max + 1;
	sc.out = xmalloc((max + 1) * sizeof *sc.out);
	sc.pout = xmalloc((max + 1) * sizeof *sc.pout);
	sc.set = xmalloc((max + 1) * sizeof *sc.set);
	each_region(h, code, perm, leader, n, &sc);
	free(sc.prio);
	free(sc.out);
	free(sc.pout);
	free(sc.set);
	free(sc.e);
	free(h);
	arena_free(&ar);
	return 0;
}
