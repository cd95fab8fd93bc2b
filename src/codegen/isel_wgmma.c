/* isel_wgmma.c -- sm_90a warpgroup MMA: wgmma.fence, wgmma.mma_async with
 * shared-memory descriptors for A and B, wgmma.commit_group and
 * wgmma.wait_group, as ptxas writes them:
 *
 *     R2UR URa..URa+3, the A and B descriptors (a UR quad)
 *     WARPGROUP.ARRIVE
 *     HGMMA.64xNxK.F32[.BF16|.TF32] G, gdesc[URa], G[, gsb0]      scale-d 1
 *     HGMMA.64xNxK.F32 G, gdesc[URa], RZ, !UPT[, gsb0]             scale-d 0
 *     VOTEU.ANY UPs, Pd; HGMMA ... G, gdesc[URa], G, UPs[, gsb0]   scale-d a predicate
 *     QGMMA.64xNx32.F32.E4M3.E5M2 ...                             (fp8)
 *     IGMMA.64xNx32.S8.U8[.SAT] ...              (s8/u8 into s32, .satfinite)
 *     WARPGROUP.DEPBAR.LE gsb0, 0xN                                wait_group N
 *
 * The accumulator fragment {d0, ..., d(N/2-1)} is one vreg G of N/2 (f16:
 * N/4) consecutive registers.  HGMMA reads and writes G asynchronously:
 * from the HGMMA to the DEPBAR that covers it nothing may touch G.  So G
 * is copied out into the PTX registers only after that DEPBAR (a pending
 * group, below); until then G stays live and the allocator gives its
 * registers to nobody else, and a second mma_async on the same registers
 * chains on G itself (HGMMA G, .., G) as ptxas does.  wgmma.fence's job
 * (order earlier register writes before the warpgroup MMA reads them) is
 * done by a WARPGROUP.ARRIVE right before every HGMMA, after the copies
 * into G and the R2URs.  gsb0 goes on the last HGMMA before a
 * commit_group, so DEPBAR.LE gsb0, N counts commit groups as PTX's
 * wait_group does.  Pending groups do not cross blocks: before a branch,
 * return or call and at a block's end they are waited for (DEPBAR 0) and
 * copied out -- waiting earlier than the program asks is always correct,
 * it only gives up overlap across a loop's back edge. */
#include <stdio.h>
#include <string.h>

#include "codegen/isel.h"

enum { WG_MAXPEND = 32, WG_MAXA = 64 };

typedef struct {
	const PtxOperand *d;   /* the PTX register list */
	MRef g;                /* the accumulator group */
	int n;                 /* registers */
	int commit;            /* commit group index, -1 while uncommitted */
} WgPend;

/* A fragment registers read by an MMA in flight (A from registers). */
typedef struct {
	MRef g;
	int commit;
} WgA;

struct WgState {
	WgPend p[WG_MAXPEND];
	int np;
	WgA a[WG_MAXA];
	int na;
	int ncommit;           /* commit groups so far */
	int last_b, last_i;    /* the last HGMMA not yet committed (block, index), -1 none */
	int last_guarded;      /* the last HGMMA since the last commit is guarded */
};

static struct WgState *
wg(Sel *s)
{
	if (!s->wg) {
		s->wg = arena_alloc(s->mf->a, sizeof *s->wg);
		memset(s->wg, 0, sizeof *s->wg);
		s->wg->last_b = -1;
	}
	return s->wg;
}

static int
need_sm90a(Sel *s)
{
	if (s->sm != 90 || !s->m->arch_a)
		return sel_unsupported(s, "wgmma outside sm_90a (`.target sm_90a` and --arch sm_90)");
	if (s->cur && s->cur->p.guard >= 0 && s->cur->p.op != PTX_OP_wgmma_mma_async)
		return sel_unsupported(s, "a guarded wgmma.fence, commit_group or wait_group");
	return 0;
}

/* Append ", gsb0" to instruction i of block b (an HGMMA). */
static void
add_gsb0(Sel *s, int b, int i)
{
	MIns *m = &s->mf->b.v[b].ins.v[i];
	size_t n = strlen(m->text);
	char *t = arena_alloc(s->mf->a, n + 7);

	memcpy(t, m->text, n);
	memcpy(t + n, ", gsb0", 7);
	m->text = t;
}

/* Copy the pending entry k out into its PTX registers and drop it. */
static void
copy_out(Sel *s, int k)
{
	struct WgState *w = s->wg;
	WgPend *p = &w->p[k];
	int i;

	for (i = 0; i < p->n; i++)
		sel_mov32(s, sel_reg(s, p->d->elems[i].reg), mopd_reg(mpart(p->g.v, i, 1)));
	w->p[k] = w->p[--w->np];
}

/* A fragment a of an MMA in flight is done with: a self-copy (deleted
 * after allocation) reads it after the wait, so it stays live, and its
 * registers untouched, until then. */
static void
a_release(Sel *s, int k)
{
	struct WgState *w = s->wg;
	int i;

	for (i = 0; i < 4; i++)
		sel_mov32(s, mpart(w->a[k].g.v, i, 1), mopd_reg(mpart(w->a[k].g.v, i, 1)));
	w->a[k] = w->a[--w->na];
}

/* Put gsb0 on the last uncommitted HGMMA: it closes a commit group.  (A
 * guarded HGMMA carries its own gsb0 and leaves last_b -1.)  Every PTX
 * commit group ends with one gsb0 on every path, so DEPBAR.LE gsb0, N
 * is wait_group N. */
static void
commit(Sel *s)
{
	struct WgState *w = wg(s);
	int k;

	if (w->last_b >= 0)
		add_gsb0(s, w->last_b, w->last_i);
	else {   /* an empty group, or its last MMA guarded: ptxas's no-op HGMMA
		    closes it on every path (wait_group counts empty groups too) */
		int g = s->mf->guard, gn = s->mf->guard_neg;
		s->mf->guard = -1, s->mf->guard_neg = 0;
		mi(s->mf, "WARPGROUP.ARRIVE");
		mi(s->mf, "HGMMA.64x8x16.F16 RZ, gdesc[URZ], RZ, !UPT, gsb0");
		s->mf->guard = g, s->mf->guard_neg = (u8)gn;
	}
	w->last_guarded = 0;
	for (k = 0; k < w->np; k++)
		if (w->p[k].commit < 0)
			w->p[k].commit = w->ncommit;
	for (k = 0; k < w->na; k++)
		if (w->a[k].commit < 0)
			w->a[k].commit = w->ncommit;
	w->ncommit++;
	w->last_b = -1;
}

void
sel_wgmma_flush(Sel *s)
{
	struct WgState *w = s->wg;
	int guard, neg;

	if (!w || (!w->np && !w->na))
		return;
	guard = s->mf->guard, neg = s->mf->guard_neg;
	s->mf->guard = -1;
	if (w->last_b >= 0 || w->last_guarded)   /* MMAs not committed yet */
		commit(s);
	mi(s->mf, "WARPGROUP.DEPBAR.LE gsb0, 0x0");
	while (w->np)
		copy_out(s, w->np - 1);
	while (w->na)
		a_release(s, w->na - 1);
	s->mf->guard = guard, s->mf->guard_neg = (u8)neg;
}

static int
sel_wg_fence(Sel *s, const IrIns *x)
{
	(void)x;
	return need_sm90a(s);   /* the ARRIVE goes before each HGMMA */
}

static int
sel_wg_commit(Sel *s, const IrIns *x)
{
	(void)x;
	if (need_sm90a(s) < 0)
		return -1;
	commit(s);
	return 0;
}

static int
sel_wg_wait(Sel *s, const IrIns *x)
{
	struct WgState *w = wg(s);
	u64 n;
	int k;

	if (need_sm90a(s) < 0)
		return -1;
	if (x->p.nopds != 1 || !sel_imm(&x->p.opds[0], &n) || n > 7)
		return sel_unsupported(s, "wgmma.wait_group with a count that is not an immediate 0..7");
	mi(s->mf, "WARPGROUP.DEPBAR.LE gsb0, %h", (u32)n);
	for (k = w->np - 1; k >= 0; k--)
		if (w->p[k].commit >= 0 && w->p[k].commit < w->ncommit - (int)n)
			copy_out(s, k);
	for (k = w->na - 1; k >= 0; k--)
		if (w->a[k].commit >= 0 && w->a[k].commit < w->ncommit - (int)n)
			a_release(s, k);
	return 0;
}

/* The SASS type suffix of an A/B element type ("" for f16). */
static const char *
ab_name(PtxType t)
{
	switch (t) {
	case PTX_T_F16: return "";
	case PTX_T_BF16: return ".BF16";
	case PTX_T_TF32: return ".TF32";
	case PTX_T_E4M3: return ".E4M3";
	case PTX_T_E5M2: return ".E5M2";
	default: return NULL;
	}
}

/* Is operand k the immediate v (absent counts as dflt)? */
static int
imm_is(const PtxInstr *in, int k, i64 v, i64 dflt)
{
	u64 x;

	if (k >= in->nopds)
		return v == dflt;
	return sel_imm(&in->opds[k], &x) && (i64)x == v;
}

static int
same_list(const PtxOperand *a, const PtxOperand *b)
{
	int i;

	if (a->nelems != b->nelems)
		return 0;
	for (i = 0; i < a->nelems; i++)
		if (a->elems[i].reg != b->elems[i].reg)
			return 0;
	return 1;
}

static int
overlaps(const PtxOperand *a, const PtxOperand *b)
{
	int i, j;

	for (i = 0; i < a->nelems; i++)
		for (j = 0; j < b->nelems; j++)
			if (a->elems[i].reg == b->elems[j].reg)
				return 1;
	return 0;
}

/* A guarded wgmma.mma_async (uniform over the warpgroup, as PTX needs):
 * everything but the MMA unguarded (G is loaded from d even for scale-d
 * 0, so a skipped MMA leaves d as it was), then ptxas's
 * "@!P BRA skip; WARPGROUP.ARRIVE; HGMMA ..., gsb0; skip:" (seq_link
 * makes the join).  The previous uncommitted HGMMA gets a gsb0 of its
 * own and so does the guarded one (extra gsb0s only make DEPBAR.LE
 * stricter); when the guarded MMA is the last of its commit group, the
 * commit adds ptxas's no-op "HGMMA.64x8x16.F16 RZ, gdesc[URZ], RZ, !UPT,
 * gsb0", so that every group ends with one gsb0 on every path and
 * DEPBAR.LE gsb0, N still counts commit groups. */
static int sel_wg_mma1(Sel *s, const IrIns *x, int g, int gn);

static int
sel_wg_mma(Sel *s, const IrIns *x)
{
	int g = s->mf->guard, gn = s->mf->guard_neg, r;

	if (g < 0)
		return sel_wg_mma1(s, x, -1, 0);
	s->mf->guard = -1, s->mf->guard_neg = 0;
	r = sel_wg_mma1(s, x, g, gn);
	s->mf->guard = g, s->mf->guard_neg = (u8)gn;
	return r;
}

static int
sel_wg_mma1(Sel *s, const IrIns *x, int g, int gn)
{
	const PtxInstr *in = &x->p;
	const PtxOperand *d = &in->opds[0];
	struct WgState *w;
	PtxType dt, at, bt;
	int m = 0, n = 0, k = 0, i, nr, fp8, isint, pend = -1, areg, ta, tb, skip = 0;
	u64 sd;
	const char *an, *bn;
	char op[64], nsfx[32];
	MRef G, U, UP = {-1, 0, 0}, adesc = {-1, 0, 0}, bdesc, A = {-1, 0, 0};

	if (need_sm90a(s) < 0)
		return -1;
	w = wg(s);
	if (in->ntypes != 3 || in->nopds < 4)
		return sel_unsupported(s, "this wgmma.mma_async form");
	dt = (PtxType)in->types[0], at = (PtxType)in->types[1], bt = (PtxType)in->types[2];
	for (i = 0; i < in->nmods; i++)
		if (sscanf(ptx_mod_name(in->mods[i]), ".m%dn%dk%d", &m, &n, &k) == 3)
			break;
	an = ab_name(at), bn = ab_name(bt);
	fp8 = at == PTX_T_E4M3 || at == PTX_T_E5M2;
	isint = at == PTX_T_S8 || at == PTX_T_U8;
	if (isint) {   /* s8/u8 x s8/u8 into s32: IGMMA.64xNx32.A.B[.SAT] */
		an = at == PTX_T_S8 ? ".S8" : ".U8";
		bn = bt == PTX_T_S8 ? ".S8" : bt == PTX_T_U8 ? ".U8" : NULL;
		if (!bn || dt != PTX_T_S32)
			return sel_unsupported(s, "wgmma.mma_async with these types (s8/u8 x s8/u8 into s32 are)");
	} else if (!an || !bn || (dt != PTX_T_F32 && dt != PTX_T_F16) || (dt == PTX_T_F16 && at == PTX_T_TF32) ||
	    (fp8 ? bt != PTX_T_E4M3 && bt != PTX_T_E5M2 : at != bt))
		return sel_unsupported(s, "wgmma.mma_async with these types (f16/bf16/tf32/e4m3/e5m2 into f32/f16, s8/u8 into s32 are)");
	if ((in->flags & PTX_F_SATFINITE) && !isint)
		return sel_unsupported(s, "wgmma.mma_async .satfinite with these types");
	if (m != 64 || n < 8 || n > 256 || n % 8 || k != (at == PTX_T_TF32 ? 8 : fp8 || isint ? 32 : 16) ||
	    (isint && n > 24 && n % 16))
		return sel_unsupported(s, "this wgmma.mma_async shape");
	if (isint && in->nopds != 4)
		return sel_unsupported(s, "integer wgmma.mma_async with imm-scale or imm-trans operands");
	areg = in->opds[1].kind == PTX_OPD_VEC;
	if (!areg && in->opds[1].kind != PTX_OPD_REG)
		return sel_unsupported(s, "wgmma.mma_async with an A that is neither a descriptor nor a register list");
	if (areg && in->opds[1].nelems != 4)
		return sel_unsupported(s, "a wgmma A fragment that is not 4 registers");
	if (in->opds[2].kind != PTX_OPD_REG)
		return sel_unsupported(s, "wgmma.mma_async with a B descriptor that is not a register");
	if (in->opds[3].kind == PTX_OPD_REG) {
		sd = 1;   /* a predicate: C is read unless it is false at run time */
	} else if (!sel_imm(&in->opds[3], &sd) || sd > 1)
		return sel_unsupported(s, "wgmma.mma_async with a scale-d that is not a predicate or the immediate 0 or 1");
	if ((!imm_is(in, 4, 1, 1) && !imm_is(in, 4, -1, 1)) || (!imm_is(in, 5, 1, 1) && !imm_is(in, 5, -1, 1)))
		return sel_unsupported(s, "wgmma.mma_async with imm-scale-a/b other than 1 or -1");
	ta = areg ? 0 : imm_is(in, 6, 1, 0);   /* imm-trans-a: A from registers has none */
	tb = imm_is(in, areg ? 6 : 7, 1, 0);
	if ((!areg && !ta && !imm_is(in, 6, 0, 0)) || (!tb && !imm_is(in, areg ? 6 : 7, 0, 0)))
		return sel_unsupported(s, "wgmma.mma_async with imm-trans-a/b other than 0 or 1");
	if ((ta || tb) && at != PTX_T_F16 && at != PTX_T_BF16)
		return sel_unsupported(s, "wgmma.mma_async transposing an operand that is not f16/bf16");
	str_printf(nsfx, sizeof nsfx, "%s%s%s%s", imm_is(in, 4, -1, 1) ? ".negA" : "", imm_is(in, 5, -1, 1) ? ".negB" : "",
		 ta ? ".tnspA" : "", tb ? ".tnspB" : "");
	nr = dt == PTX_T_F16 ? n / 4 : n / 2;   /* f32 and s32: n / 2 */
	if (d->kind != PTX_OPD_VEC || d->nelems != nr)
		return sel_unsupported(s, "a wgmma accumulator that is not a register list of the right length");
	for (i = 0; i < nr; i++)
		if (d->elems[i].kind != PTX_OPD_REG)
			return sel_unsupported(s, "a wgmma accumulator element that is not a register");
	/* the registers of an MMA in flight: the same list chains on it */
	for (i = 0; i < w->np; i++)
		if (same_list(w->p[i].d, d))
			pend = i;
		else if (overlaps(w->p[i].d, d))
			return sel_unsupported(s, "a wgmma accumulator that overlaps another one in flight");
	if (pend < 0 && w->np == WG_MAXPEND)
		return sel_unsupported(s, "more than 32 wgmma accumulators in flight");
	if (areg && w->na == WG_MAXA)
		return sel_unsupported(s, "more than 64 wgmma A fragments in flight");
	if (areg) {   /* read in flight too: a group of its own, kept until the wait */
		if (sel_group_in(s, &in->opds[1], NULL, 4, &A) < 0)
			return -1;
		w->a[w->na].g = A;
		w->a[w->na++].commit = -1;
	} else if ((adesc = sel_r64(s, &in->opds[1])).v < 0)
		return -1;
	bdesc = sel_r64(s, &in->opds[2]);
	if (bdesc.v < 0)
		return -1;
	if (pend >= 0)
		G = w->p[pend].g;
	else if (sd || g >= 0) {
		if (sel_group_in(s, d, NULL, nr, &G) < 0)
			return -1;
	} else
		G = sel_tmp(s, nr);
	if (in->opds[3].kind == PTX_OPD_REG) {   /* uniform over the warpgroup: VOTEU.ANY, as ptxas */
		int neg;
		MRef p = sel_pred(s, &in->opds[3], &neg);
		if (p.v < 0)
			return -1;
		UP = mref(mvreg(s->mf, RC_UP, 1));
		mi(s->mf, neg ? "VOTEU.ANY %D, !%U" : "VOTEU.ANY %D, %U", UP, p);
	}
	U = mref(mvreg(s->mf, RC_UR, 4));
	if (!areg) {   /* with A in registers URq:URq+1 are unused (ptxas leaves them) */
		mi(s->mf, "R2UR %D, %U", mpart(U.v, 0, 1), mpart(adesc.v, 0, 1));
		mi(s->mf, "R2UR %D, %U", mpart(U.v, 1, 1), mpart(adesc.v, 1, 1));
	}
	mi(s->mf, "R2UR %D, %U", mpart(U.v, 2, 1), mpart(bdesc.v, 0, 1));
	mi(s->mf, "R2UR %D, %U", mpart(U.v, 3, 1), mpart(bdesc.v, 1, 1));
	if (g >= 0) {
		skip = seq_mark();
		if (w->last_b >= 0)
			add_gsb0(s, w->last_b, w->last_i);
		w->last_b = -1;
		w->last_guarded = 1;
		s->mf->guard = g, s->mf->guard_neg = (u8)!gn;
		mi(s->mf, "BRA %L", skip);
		s->mf->guard = -1, s->mf->guard_neg = 0;
	}
	mi(s->mf, "WARPGROUP.ARRIVE");
	if (isint)
		str_printf(op, sizeof op, "IGMMA.64x%dx32%s%s%s", n, an, bn, in->flags & PTX_F_SATFINITE ? ".SAT" : "");
	else if (fp8)
		str_printf(op, sizeof op, "QGMMA.64x%dx%d.%s%s%s", n, k, dt == PTX_T_F32 ? "F32" : "F16", an, bn);
	else
		str_printf(op, sizeof op, "HGMMA.64x%dx%d.%s%s", n, k, dt == PTX_T_F32 ? "F32" : "F16", an);
	if (areg) {
		if (UP.v >= 0)
			mi(s->mf, "%s %D, %U, gdesc[%U]%s, %U, %U", op, G, A, U, nsfx, G, UP);
		else if (sd)
			mi(s->mf, "%s %D, %U, gdesc[%U]%s, %U", op, G, A, U, nsfx, G);
		else
			mi(s->mf, "%s %D, %U, gdesc[%U]%s, RZ, !UPT", op, G, A, U, nsfx);
	} else if (UP.v >= 0)
		mi(s->mf, "%s %D, gdesc[%U]%s, %U, %U", op, G, U, nsfx, G, UP);
	else if (sd)
		mi(s->mf, "%s %D, gdesc[%U]%s, %U", op, G, U, nsfx, G);
	else
		mi(s->mf, "%s %D, gdesc[%U]%s, RZ, !UPT", op, G, U, nsfx);
	if (g >= 0) {
		add_gsb0(s, s->mf->cur, (int)s->mf->b.v[s->mf->cur].ins.n - 1);
		mi(s->mf, "BRA %L", skip);
	} else {
		w->last_b = s->mf->cur;
		w->last_i = (int)s->mf->b.v[s->mf->cur].ins.n - 1;
		w->last_guarded = 0;
	}
	if (pend < 0) {
		WgPend *p = &w->p[w->np++];
		p->d = d, p->g = G, p->n = nr;
	}
	w->p[pend < 0 ? w->np - 1 : pend].commit = -1;
	return 0;
}

/* fence.proxy.async[.global|.shared::cta|.shared::cluster]: ptxas 13.0
 * writes MEMBAR.ALL.CTA (shared::cta) or MEMBAR.ALL.GPU (shared::cluster,
 * no space) and FENCE.VIEW.ASYNC.S; .global is FENCE.VIEW.ASYNC.G alone. */
static int
sel_fence_proxy(Sel *s, const IrIns *x)
{
	const PtxInstr *in = &x->p;
	int sp = in->nspaces ? in->space[0] : PTX_S_NONE;

	if (s->sm != 90)
		return sel_unsupported(s, "fence.proxy (sm_90 only)");
	if (ptx_has_mod(in, PTX_M_tensormap_generic))
		return sel_tmap_fence(s, x);
	if (!ptx_has_mod(in, PTX_M_async) || in->nopds)
		return sel_unsupported(s, "fence.proxy other than .async");
	if (sp == PTX_S_GLOBAL) {
		mi(s->mf, "FENCE.VIEW.ASYNC.G");
		return 0;
	}
	if (sp != PTX_S_NONE && sp != PTX_S_SHARED && sp != PTX_S_SHARED_CLUSTER)
		return sel_unsupported(s, "fence.proxy.async of this state space");
	mi(s->mf, sp == PTX_S_SHARED ? "MEMBAR.ALL.CTA" : "MEMBAR.ALL.GPU");
	mi(s->mf, "FENCE.VIEW.ASYNC.S");
	return 0;
}

const SelRule sel_rules_wgmma[] = {
	{PTX_OP_fence_proxy, sel_fence_proxy},
	{PTX_OP_wgmma_fence, sel_wg_fence}, {PTX_OP_wgmma_commit_group, sel_wg_commit},
	{PTX_OP_wgmma_wait_group, sel_wg_wait}, {PTX_OP_wgmma_mma_async, sel_wg_mma},
	{0, NULL},
};
