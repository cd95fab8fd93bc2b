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

/* The latency of the edge x -> y (y after x in program order) given
 * which of their registers meet: raw (x writes what y reads), war (y
 * writes what x reads or writes); -1 if none.  Read-after-write has x's
 * latency, write-after-read and write-after-write are plain order (1). */
static int
edge_lat(const HIns *x, int raw, int war)
{
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
 * (the edges grow as needed).  rd and wr: per register slot the code
 * uses (dn: its dense index; all slots are below NSLOT: hz_decode clamps
 * them), the set of the region's instructions that read (write) it, nw
 * words each; sx: the successor sets of one instruction (2 * nw words). */
typedef struct {
	int *prio, *npred, *ready, *cand, *first;
	Word *out;
	u32 *pout;
	u64 *rd, *wr, *sx;
	const u16 *dn;
	Edge *e;
	size_t ecap;
} Scratch;

/* Instruction i (x) joins the sets: bit i in its slots' rd and wr. */
static void
mark(const HIns *x, size_t i, u64 *rd, u64 *wr, size_t nw, const u16 *dn)
{
	int k, s;

	for (k = 0; k < x->nrd; k++)
		for (s = x->rd[k].s; s < x->rd[k].s + x->rd[k].n; s++)
			rd[dn[s] * nw + i / 64] |= 1ull << (i % 64);
	for (k = 0; k < x->nwr; k++)
		for (s = x->wr[k].s; s < x->wr[k].s + x->wr[k].n; s++)
			wr[dn[s] * nw + i / 64] |= 1ull << (i % 64);
}

/* Instruction i (x) leaves the sets (bit i out of its slots' rd and wr);
 * raw and war become the later readers of what it writes and the later
 * writers of what it reads or writes (and perhaps i itself). */
static void
succ_sets(const HIns *x, size_t i, u64 *rd, u64 *wr, size_t nw, const u16 *dn, u64 *raw, u64 *war)
{
	u64 out = ~(1ull << (i % 64));
	size_t w, at;
	int k, s;

	for (w = 0; w < nw; w++)
		raw[w] = war[w] = 0;
	for (k = 0; k < x->nrd; k++)
		for (s = x->rd[k].s; s < x->rd[k].s + x->rd[k].n; s++) {
			at = dn[s] * nw;
			rd[at + i / 64] &= out;
			for (w = 0; w < nw; w++)
				war[w] |= wr[at + w];
		}
	for (k = 0; k < x->nwr; k++)
		for (s = x->wr[k].s; s < x->wr[k].s + x->wr[k].n; s++) {
			at = dn[s] * nw;
			wr[at + i / 64] &= out;
			for (w = 0; w < nw; w++) {
				raw[w] |= rd[at + w];
				war[w] |= wr[at + w];
			}
		}
}

/* The dependence edges of [lo, lo + n) as successor lists: sc->e from
 * sc->first[i] to sc->first[i + 1], in order; npred counts each one's
 * predecessors.  From per-slot sets of the instructions that read and
 * write it: in program order, each instruction leaves them and finds its
 * successors there (so the sets are empty again at the end). */
static void
edges(HIns *h, size_t lo, size_t n, Scratch *sc)
{
	size_t i, w, nw = (n + 63) / 64, ne = 0;
	u64 *raw = sc->sx, *war = sc->sx + nw;

	for (i = 0; i < n; i++)
		mark(&h[lo + i], i, sc->rd, sc->wr, nw, sc->dn);
	for (i = 0; i < n; i++) {
		const HIns *x = &h[lo + i];
		succ_sets(x, i, sc->rd, sc->wr, nw, sc->dn, raw, war);
		sc->first[i] = (int)ne;
		/* the earlier instructions have left: only i itself is below */
		for (w = i / 64; w < nw; w++)
			for (u64 m = (raw[w] | war[w]) & ~(w == i / 64 ? 1ull << (i % 64) : 0); m; m &= m - 1) {
				size_t j = w * 64 + (size_t)__builtin_ctzll(m);
				int l = edge_lat(x, raw[w] >> (j % 64) & 1, war[w] >> (j % 64) & 1);
				if (l < 0)
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

/* dn: a dense index for each slot some instruction of h[0, n) reads or
   writes (the others are left as they are); returns their number. */
static size_t
dense_slots(const HIns *h, size_t n, u16 *dn)
{
	u64 used[(NSLOT + 63) / 64] = {0};
	size_t i, w, nd = 0;
	int k, s;

	for (i = 0; i < n; i++) {
		for (k = 0; k < h[i].nrd; k++)
			for (s = h[i].rd[k].s; s < h[i].rd[k].s + h[i].rd[k].n; s++)
				used[s / 64] |= 1ull << (s % 64);
		for (k = 0; k < h[i].nwr; k++)
			for (s = h[i].wr[k].s; s < h[i].wr[k].s + h[i].wr[k].n; s++)
				used[s / 64] |= 1ull << (s % 64);
	}
	for (w = 0; w < NELEM(used); w++)
		for (u64 m = used[w]; m; m &= m - 1)
			dn[w * 64 + (size_t)__builtin_ctzll(m)] = (u16)nd++;
	return nd;
}

void
sched_blocks(Word *code, size_t n, const u8 *leader, u32 *perm, HIns *h)
{
	size_t max, nw, nd;
	u16 dn[NSLOT];
	Scratch sc;

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
	nw = (max + 63) / 64;  /* words of a set of a region's instructions */
	/* the sets of the slots the code uses, not of all NSLOT (5 KiB per
	   64 instructions of the largest region, touched here and there) */
	nd = dense_slots(h, n, dn);
	sc.dn = dn;
	sc.rd = xcalloc(2 * nd * nw + 1, sizeof *sc.rd);
	sc.wr = sc.rd + nd * nw;
	sc.sx = xmalloc(2 * nw * sizeof *sc.sx);
	each_region(h, code, perm, leader, n, &sc);
	free(sc.prio);
	free(sc.out);
	free(sc.pout);
	free(sc.rd);
	free(sc.sx);
	free(sc.e);
	hz_reorder(h, perm, n);
}
