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

/* An edge of the dependence graph (successor lists, in no particular
 * order: better() orders any candidates the same way). */
typedef struct {
	int to, lat;
} Edge;

/* Work arrays of sched_region: per instruction, sized for the whole code
 * (a region touches its own part); rows and the edges grow as needed.
 * Per register slot the code uses (dn: its dense index, in the order the
 * regions meet them, -1 before; all slots are below NSLOT: hz_decode
 * clamps them) a row of 2 * nw words: the sets of the region's later
 * instructions that read it and that write it.  Row d holds the sets of
 * region stamp[d] (regions are counted from 1): it is cleared at its
 * first use in another.  sx: the successor sets of one instruction. */
typedef struct {
	int *prio, *npred, *ready, *cand, *first;
	Word *out;
	u32 *pout;
	u64 *rows, *sx;
	size_t rcap, nw;       /* words rows holds; words of a set in this region */
	int region, nd;
	int *stamp;       /* [NSLOT] */
	short *dn;        /* [NSLOT] */
	Edge *e;
	size_t ecap;
} Scratch;

/* rows large enough for the nd slots met so far (at first for 32, not
 * 1, 3, 7, ...: a realloc each) */
static void
rows_fit(Scratch *sc)
{
	if ((size_t)sc->nd * 2 * sc->nw > sc->rcap) {
		sc->rcap = 2 * (size_t)MAX(sc->nd, 16) * 2 * sc->nw;
		sc->rows = xrealloc(sc->rows, sc->rcap * sizeof *sc->rows);
	}
}

/* Slot s's row in the current region. */
static inline u64 *
row(Scratch *sc, int s)
{
	size_t w, nw = sc->nw;
	int d = sc->dn[s];
	u64 *r;

	if (d < 0) {
		d = sc->dn[s] = (short)sc->nd++;
		sc->stamp[d] = 0;
		rows_fit(sc);
	}
	r = sc->rows + (size_t)d * 2 * nw;
	if (sc->stamp[d] != sc->region) {
		sc->stamp[d] = sc->region;
		r[0] = r[1] = 0;   /* most regions: nw 1, no memset call */
		for (w = 2; w < 2 * nw; w++)
			r[w] = 0;
	}
	return r;
}

/* The dependence graph of [lo, lo + n), from the last instruction up:
 * instruction i's successors are the later readers of what it writes
 * (read-after-write: its latency) and the later writers of what it
 * reads or writes (plain order: 1), from its slots' rows, which it then
 * joins.  Its edges go to sc->e from first[i + 1] to first[i]; npred
 * counts each one's predecessors; prio is the longest latency path to
 * the region's end. */
static void
edges(const HIns *h, size_t lo, size_t n, Scratch *sc)
{
	size_t i, w, nw = sc->nw, ne = 0;
	u64 *raw = sc->sx, *war = sc->sx + nw;
	int k, s, *npred = sc->npred, *prio = sc->prio;

	for (i = n; i-- > 0;) {
		const HIns *x = &h[lo + i];
		size_t iw = i / 64;
		u64 bit = 1ull << (i % 64);
		/* an edge's latency by how the two meet, [2 * raw + war]: a
		   read-after-write has x's (VAR_LAT when variable; loads stay
		   ordered among themselves only through registers), at least 1
		   when the reader also writes what x touches; a write after,
		   plain order */
		int lr = x->lat.var ? VAR_LAT : x->lat.lat, p = 0;
		int lat[4] = {0, 1, lr, MAX(lr, 1)};
		raw[iw] = war[iw] = 0;
		for (w = iw + 1; w < nw; w++)
			raw[w] = war[w] = 0;
		for (k = 0; k < x->nrd; k++)
			for (s = x->rd[k].s; s < x->rd[k].s + x->rd[k].n; s++) {
				u64 *r = row(sc, s);
				for (w = iw; w < nw; w++)
					war[w] |= r[nw + w];
				r[iw] |= bit;
			}
		for (k = 0; k < x->nwr; k++)
			for (s = x->wr[k].s; s < x->wr[k].s + x->wr[k].n; s++) {
				u64 *r = row(sc, s);
				for (w = iw; w < nw; w++) {
					raw[w] |= r[w];
					war[w] |= r[nw + w];
				}
				r[nw + iw] |= bit;
			}
		sc->first[i + 1] = (int)ne;
		npred[i] = sc->ready[i] = 0;
		/* i itself may be in the sets: only the later ones */
		for (w = iw; w < nw; w++) {
			u64 rw = raw[w], ww = war[w], m = (rw | ww) & ~(w == iw ? bit : 0);
			Edge *e;
			if (ne + 64 > sc->ecap) {  /* room for the word's edges */
				sc->ecap = 2 * sc->ecap + 64;
				sc->e = xrealloc(sc->e, sc->ecap * sizeof *sc->e);
			}
			for (e = sc->e; m; m &= m - 1) {
				int b = __builtin_ctzll(m), j = (int)(w * 64) + b;
				int l = lat[(rw >> b & 1) * 2 + (ww >> b & 1)];
				e[ne].to = j;
				e[ne++].lat = l;
				npred[j]++;
				p = MAX(p, l + prio[j]);
			}
		}
		prio[i] = p + 1;
	}
	sc->first[0] = (int)ne;
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
	int *npred = sc->npred, *ready = sc->ready, *cand = sc->cand, *first = sc->first;
	int cycle = 0, nc = 0, e;
	const Edge *ed;

	sc->nw = (n + 63) / 64;
	sc->region++;
	rows_fit(sc);
	edges(h, lo, n, sc);
	ed = sc->e;
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
		for (e = first[c + 1]; e < first[c]; e++) {
			int j = ed[e].to;
			if (cycle - 1 + ed[e].lat > ready[j])
				ready[j] = cycle - 1 + ed[e].lat;
			if (--npred[j] == 0)
				cand[nc++] = j;
		}
	}
	memcpy(&code[lo], sc->out, n * sizeof *sc->out);
	memcpy(&perm[lo], sc->pout, n * sizeof *sc->pout);
}

void
sched_blocks(Word *code, size_t n, const u8 *leader, u32 *perm, HIns *h)
{
	size_t i, start = 0;
	int stamp[NSLOT];
	short dn[NSLOT];
	Scratch sc = {.stamp = stamp, .dn = dn};

	memset(dn, -1, sizeof dn);
	sc.prio = xmalloc(5 * (n + 1) * sizeof *sc.prio);
	sc.npred = sc.prio + n + 1;
	sc.ready = sc.npred + n + 1;
	sc.cand = sc.ready + n + 1;
	sc.first = sc.cand + n + 1;
	sc.out = xmalloc((n + 1) * sizeof *sc.out);
	sc.pout = xmalloc((n + 1) * sizeof *sc.pout);
	sc.sx = xmalloc(2 * ((n + 63) / 64) * sizeof *sc.sx);
	/* each region of two or more instructions between block leaders and
	   fences */
	for (i = 0; i <= n; i++) {
		int fence = i < n && is_fence(&h[i]);
		if (i < n && !leader[i] && !fence)
			continue;
		if (i > start + 1)
			sched_region(h, code, perm, start, i, &sc);
		start = fence ? i + 1 : i;
	}
	free(sc.prio);
	free(sc.out);
	free(sc.pout);
	free(sc.rows);
	free(sc.sx);
	free(sc.e);
	hz_reorder(h, perm, n);
}
