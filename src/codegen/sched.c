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

static const char *const fences[] = {
	"ST", "STG", "STS", "STL", "ATOM", "ATOMG", "ATOMS", "RED", "BAR", "MEMBAR", "FENCE", "ERRBAR",
	"CCTL", "SYNCS", "DEPBAR", "WARPSYNC", "BSSY", "BSYNC", "NANOSLEEP", "LDGSTS", "LDGDEPBAR",
	"UBLKCP", "UTMALDG", "UTMASTG", "UTMAPF", "ARRIVES", "CALL", "RET", "BRA", "BRX", "JMP", "JMX",
	"EXIT", "BPT", "KILL", "YIELD", "WARPGROUP", "HGMMA", "SETMAXNREG", "ELECT", "VOTE", "VOTEU",
	"SHFL", "MATCH", "REDUX", "CS2R", "S2UR", "BMOV", "PMTRIG", "NOP", "ACQBULK", "UCGABAR_ARV",
	"UCGABAR_WAIT", "CCTLL", "QSPC", "STSM", "LDTRAM", NULL,
};

static int
in_list(const char *op, const char *const *l)
{
	for (; *l; l++)  /* the first letter inline: most names differ there */
		if ((*l)[0] == op[0] && !strcmp(op, *l))
			return 1;
	return 0;
}

/* in_list(op, fences) per opcode id (hz_opid), 0/1, -1 not yet known. */
static struct {
	signed char *v;
	size_t n;
	int s2r;
} fence_of = {NULL, 0, -1};

static int
op_fence(const HIns *h)
{
	if (h->opid >= fence_of.n) {
		size_t n = MAX(2 * fence_of.n, (size_t)h->opid + 64);
		fence_of.v = xrealloc(fence_of.v, n);
		memset(fence_of.v + fence_of.n, -1, n - fence_of.n);
		fence_of.n = n;
	}
	if (fence_of.v[h->opid] < 0)
		fence_of.v[h->opid] = (signed char)in_list(h->in.op, fences);
	return fence_of.v[h->opid];
}

static int
is_fence(const HIns *h)
{
	if (fence_of.s2r < 0)
		fence_of.s2r = hz_opid("S2R");
	return h->kind != HK_NORMAL || op_fence(h) ||
	       (h->opid == fence_of.s2r && h->in.nops > 1 && h->in.o[1].text && strstr(h->in.o[1].text, "CLOCK"));
}

static int
overlap(const HRange *a, const HRange *b)
{
	return a->s < b->s + b->n && b->s < a->s + a->n;
}

/* Latency of the edge i -> j (j after i in program order), or -1 if none. */
static int
edge(const HIns *x, const HIns *y)
{
	int a, b, e = -1;

	for (a = 0; a < x->nwr; a++)
		for (b = 0; b < y->nrd; b++)
			if (overlap(&x->wr[a], &y->rd[b]))
				e = x->lat.var ? VAR_LAT : (x->lat.lat > e ? x->lat.lat : e);
	for (a = 0; a < x->nrd && e < 1; a++)
		for (b = 0; b < y->nwr; b++)
			if (overlap(&x->rd[a], &y->wr[b]))
				e = 1;
	for (a = 0; a < x->nwr && e < 1; a++)
		for (b = 0; b < y->nwr; b++)
			if (overlap(&x->wr[a], &y->wr[b]))
				e = 1;
	/* loads stay ordered among themselves only through registers */
	return e;
}

/* The slots of ranges r[0..n) folded into 64 bits (slot s sets bit s % 64):
   two instructions whose masks share no bit share no slot. */
static u64
slot_mask(const HRange *r, int n)
{
	u64 m = 0;
	int k, s;

	for (k = 0; k < n; k++) {
		if (r[k].n >= 64)
			return ~(u64)0;
		for (s = r[k].s; s < r[k].s + r[k].n; s++)
			m |= (u64)1 << (s & 63);
	}
	return m;
}

/* Work arrays of sched_region, allocated once for the largest region. */
typedef struct {
	int *lat, *prio, *npred, *ready, *done;
	Word *out;
	u32 *pout;
	u64 *rm;
} Scratch;

static void
sched_region(HIns *h, Word *code, u32 *perm, size_t lo, size_t hi, const Scratch *sc)
{
	size_t n = hi - lo, i, j, k;
	int *lat = sc->lat, *prio = sc->prio, *npred = sc->npred, *ready = sc->ready, *done = sc->done;
	Word *out = sc->out;
	u32 *pout = sc->pout;
	u64 *rm = sc->rm, *wm = rm + n;
	int cycle = 0;

	/* lat (j > i), prio, out, pout, rm and wm are written before read */
	memset(npred, 0, n * sizeof *npred);
	memset(ready, 0, n * sizeof *ready);
	memset(done, 0, n * sizeof *done);

	for (i = 0; i < n; i++) {
		rm[i] = slot_mask(h[lo + i].rd, h[lo + i].nrd);
		wm[i] = slot_mask(h[lo + i].wr, h[lo + i].nwr);
	}
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			/* no shared slot: no edge (edge() would say -1) */
			if (!(wm[i] & (rm[j] | wm[j])) && !(rm[i] & wm[j]))
				lat[i * n + j] = -1;
			else if ((lat[i * n + j] = edge(&h[lo + i], &h[lo + j])) >= 0)
				npred[j]++;
		}
	for (i = n; i-- > 0;) {
		int p = 0;
		for (j = i + 1; j < n; j++)
			if (lat[i * n + j] >= 0 && lat[i * n + j] + prio[j] > p)
				p = lat[i * n + j] + prio[j];
		prio[i] = p + 1;
	}
	for (k = 0; k < n; k++) {
		size_t best = n;
		/* among instructions whose predecessors are all issued: ready first,
		   then the longest path, then program order */
		for (i = 0; i < n; i++) {
			if (done[i] || npred[i])
				continue;
			if (best == n)
				best = i;
			else {
				int ri = ready[i] <= cycle, rb = ready[best] <= cycle;
				if (ri > rb || (ri == rb && prio[i] > prio[best]))
					best = i;
			}
		}
		out[k] = code[lo + best];
		pout[k] = perm[lo + best];
		done[best] = 1;
		if (ready[best] > cycle)
			cycle = ready[best];
		cycle++;
		for (j = best + 1; j < n; j++)
			if (lat[best * n + j] >= 0) {
				npred[j]--;
				if (cycle - 1 + lat[best * n + j] > ready[j])
					ready[j] = cycle - 1 + lat[best * n + j];
			}
	}
	memcpy(&code[lo], out, n * sizeof *out);
	memcpy(&perm[lo], pout, n * sizeof *pout);
}

/* Schedule each region of two or more instructions between block leaders
   and fences (with sc; without, only measure them).  Returns the largest
   region's size. */
static size_t
each_region(HIns *h, Word *code, u32 *perm, const u8 *leader, size_t n, const Scratch *sc)
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
	sc.lat = xmalloc((max * max + 1) * sizeof *sc.lat);
	sc.prio = xmalloc(5 * (max + 1) * sizeof *sc.prio);
	sc.npred = sc.prio + max + 1;
	sc.ready = sc.npred + max + 1;
	sc.done = sc.ready + max + 1;
	sc.out = xmalloc((max + 1) * sizeof *sc.out);
	sc.pout = xmalloc((max + 1) * sizeof *sc.pout);
	sc.rm = xmalloc(2 * (max + 1) * sizeof *sc.rm);
	each_region(h, code, perm, leader, n, &sc);
	free(sc.lat);
	free(sc.prio);
	free(sc.out);
	free(sc.pout);
	free(sc.rm);
	free(h);
	arena_free(&ar);
	return 0;
}
