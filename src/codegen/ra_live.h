/* ra_live.h -- liveness per 32-bit part ("unit") of every virtual
 * register, shared by the allocator (ra.c) and copy coalescing
 * (coalesce.c).  Internal to src/codegen. */
#ifndef OA_RA_LIVE_H
#define OA_RA_LIVE_H

#include "codegen/mir.h"

typedef struct {
	MFunc *f;
	int nunits;
	int *ubase;          /* vreg -> first unit */
	size_t words;        /* u64 words per unit set */
	u64 *in, *out;       /* per block: live units (that may hold a value) */
	u64 *din;            /* per block: units some path to its entry defines */
	u8 *undef;           /* per vreg: some unit may be read before any def */
	int *start, *end;    /* per vreg interval, -1 when unused */
	int *bstart, *bend;  /* per block position range */
	int *rfirst, *rcount;/* per vreg: its live ranges rs/re[rfirst..+rcount) */
	int *rs, *re;        /* ranges [rs, re] of positions, sorted per vreg */
	int *cpos, *cblock;  /* per vreg: its first unguarded copy "MOV v, s" (position, block), -1 */
	const u8 *only;      /* per vreg: the units liveness follows (NULL: all; the others stay dead) */
	void *block;         /* holds in..undef above (one allocation) */
} Ra;

#define BIT(s, u) ((s)[(u) >> 6] >> ((u) & 63) & 1)
#define SET(s, u) ((s)[(u) >> 6] |= 1ull << ((u) & 63))
#define CLR(s, u) ((s)[(u) >> 6] &= ~(1ull << ((u) & 63)))

/* Units of ref x: returns the count, *first the first unit. */
static inline int
ra_ref_units(const Ra *r, MRef x, int *first)
{
	*first = r->ubase[x.v] + x.sub;
	return x.w ? x.w : r->f->vr.v[x.v].w - x.sub;
}
/* Does this def kill the parts it writes (not a guarded update)?  A
 * guarded def keeps the old value when its guard is false, whoever wrote
 * it: the value is live across it.  (A register defined only under guards
 * is not live before its first definition: liveness is limited to where
 * a definition may have happened.) */
static inline int
ra_kills(const MFunc *f, const MIns *m, MRef x)
{
	return m->guard < 0;
}
/* Liveness (in/out/din/undef per block) of the current MIR, of the
 * units of the vregs in only (NULL: all; see Ra); resets every
 * allocatable vreg's phys to -1.  The allocator adds the intervals and
 * ranges (ra.c's ranges()) when it scans. */
void ra_liveness(Ra *r, MFunc *f, const u8 *only);
void ra_free(Ra *r);

/* Copy coalescing (coalesce.c): give the two sides of "MOV d, s" the same
 * register wherever their values do not interfere, by merging the vregs
 * (a narrower one into its slot of a wider group); the copies become
 * "MOV x, x" for remove_noop_copies.  root/off (f->vr.n entries each)
 * receive each vreg's group and part; log receives what the rewrite
 * changed (for ra.c to undo it).  Returns the number of copies coalesced. */
typedef struct {
	int b, i, k;      /* ref k of instruction i of block b */
	MRef was;
} CoRef;
typedef struct {
	VEC(CoRef) refs;
	VEC(int) tmp;     /* vregs whose tmp flag it cleared */
} CoLog;
int ra_coalesce(MFunc *f, int *root, int *off, CoLog *log);
/* Give each web (definitions that reach common uses) of a vreg written
 * whole several times a vreg of its own (coalesce_webs.c).  Returns the
 * number of vregs added. */
int ra_split_webs(MFunc *f);

#endif
