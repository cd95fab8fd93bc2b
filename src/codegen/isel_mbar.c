/* isel_mbar.c -- mbarrier objects and the bulk copy engine, as ptxas
 * lowers them.
 *
 * sm_90: mbarrier.init is SYNCS.EXCH.64 URZ, [UR], UR (address and value
 * in uniform registers), arrive SYNCS.ARRIVE.TRANS64[.RED].A1T0 (a count:
 * .ART0; arrive_drop: .OPTOUT), expect_tx
 * SYNCS.ARRIVE.TRANS64.RED.A0TR, complete_tx .RED.A0TX, test_wait /
 * try_wait SYNCS.PHASECHK.TRANS64[.TRYWAIT] P, [R+URZ], token_hi (the
 * parity forms shift the parity to bit 31), inval SYNCS.CCTL.IV, and
 * cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes is
 * UBLKCP.S.G [URdst:URbar], [URsrc], URsize/16, and
 * cp.async.mbarrier.arrive SYNCS.ARRIVE.TRANS64.RED.A0T1 +
 * ARRIVES.LDGSTSBAR.64.TRANSCNT (.noinc: ARRIVES...ARVCNT alone).
 *
 * sm_80 keeps the state in the 64-bit word itself (the emulator's model,
 * src/emu/emu_memops.c): init is STS.64 {0x40000000 - n, 0x80000000 - n},
 * arrive MEMBAR.ALL.CTA + ATOMS.ARRIVE.64 (arrive_drop, .noComplete: see
 * arrive80), test_wait LDS of the high word and a compare of bit 31 (the
 * phase) with the token's; inval is nothing.
 *
 * Warp-wide instructions (EXCH, UBLKCP) read uniform registers, so the
 * operands of one lane: init takes them with R2UR when they are provably
 * the same in every thread; otherwise, and always for the bulk copy (one
 * copy per thread), a waterfall loop runs the instruction once per active
 * lane (ELECT one pending lane, R2UR its operands, BRA.U.ANY back while
 * any is pending; sm_80 has no ELECT: the highest pending lane, FLO of
 * the VOTE mask, and a divergent loop). */
#include <stdio.h>

#include "codegen/isel.h"

/* Is operand o the same value in every thread of the CTA? */
static int
uniform(Sel *s, const PtxOperand *o, int depth)
{
	const PtxInstr *d;
	int k;

	switch (o->kind) {
	case PTX_OPD_IMM:
		return 1;
	case PTX_OPD_SYM:
		return 1;
	case PTX_OPD_SREG:
		return o->sreg == PTX_SR_ntid || o->sreg == PTX_SR_ctaid || o->sreg == PTX_SR_nctaid;
	case PTX_OPD_ADDR:   /* [sym+off], [reg+off] */
		if (o->reg < 0)
			return 1;
		break;
	case PTX_OPD_REG:
		break;
	default:
		return 0;
	}
	if (depth > 8 || !(d = sel_only_def(s, o->reg)) || d->guard >= 0)
		return 0;
	switch (d->op) {
	case PTX_OP_mov: case PTX_OP_add: case PTX_OP_sub: case PTX_OP_mul: case PTX_OP_shl:
	case PTX_OP_shr: case PTX_OP_and: case PTX_OP_or: case PTX_OP_xor: case PTX_OP_cvt:
	case PTX_OP_cvta: case PTX_OP_mad:
		break;
	case PTX_OP_ld:   /* a kernel parameter (a .func's are per thread) */
		if (d->nspaces == 1 && d->space[0] == PTX_S_PARAM && s->fn->is_entry)
			break;
		return 0;
	default:
		return 0;
	}
	for (k = 1; k < d->nopds; k++)
		if (!uniform(s, &d->opds[k], depth + 1))
			return 0;
	return 1;
}

/* An immediate, or a register whose only definition moves one in. */
static int
const_of(Sel *s, const PtxOperand *o, u64 *v)
{
	const PtxInstr *d;

	if (sel_imm(o, v))
		return 1;
	if (o->kind != PTX_OPD_REG || !(d = sel_only_def(s, o->reg)) || d->guard >= 0 || d->op != PTX_OP_mov ||
	    d->nopds != 2)
		return 0;
	return sel_imm(&d->opds[1], v);
}

/* The mbarrier operand: a .shared / .shared::cta address, as a 32-bit
 * register and a non-negative offset. */
static int
mbar_addr(Sel *s, const PtxOperand *a, MRef *base, i64 *off)
{
	const PtxInstr *in = &s->cur->p;

	if (in->nspaces < 1 || in->space[0] != PTX_S_SHARED)
		return sel_unsupported(s, "an mbarrier outside .shared::cta (generic or shared::cluster address)");
	if (sel_address(s, a, PTX_S_SHARED, base, off) < 0)
		return -1;
	if (*off < 0) {
		MRef r = sel_tmp(s, 1);
		mi(s->mf, "IADD3 %D, %U, %x, RZ", r, *base, (i32)*off);
		*base = r;
		*off = 0;
	}
	return 0;
}

/* The address as a register alone (offset added in). */
MRef
sel_addr_reg(Sel *s, MRef base, i64 off)
{
	MRef r;

	if (!off)
		return base;
	r = sel_tmp(s, 1);
	mi(s->mf, "IADD3 %D, %U, %x, RZ", r, base, (i32)off);
	return r;
}

/* ---- waterfall: a warp-wide instruction once per active lane ---- */

/* Emit body once per active lane (and where the PTX guard holds): the
 * 32-bit registers r[0..n) of that lane are in the uniform registers
 * u[0..n) (pairs: both parts of one pair vreg).  per_lane: the body
 * runs under the elected lane's predicate (a per-lane instruction that
 * takes a uniform address, ARRIVES); otherwise the warp runs it once.
 *
 * A loop, as ptxas writes it (lanes where the guard is false branch
 * around it first):
 *
 *     PLOP3.LUT pend = PT
 *   loop:                                  sm_90                  sm_80
 *     elect one pending lane into el       @pend ELECT el         VOTE.ANY + FLO + ISETP.EQ lane
 *     @el R2UR u[i], r[i]
 *     @el PLOP3.LUT pend = false
 *     body
 *     sm_90: PLOP3.LUT el = false; @pend BRA.U.ANY loop  (the warp stays converged)
 *     sm_80: @pend BRA loop                               (a divergent loop: reconv) */
void
sel_waterfall(Sel *s, const MRef *r, const MRef *u, int n, WfBody body, void *ctx, int per_lane)
{
	MFunc *f = s->mf;
	int g = f->guard, gn = f->guard_neg, i, head = seq_mark(), out = -1;
	MRef pend = mref(mvreg(f, RC_P, 1)), el = mref(mvreg(f, RC_P, 1)), lane = s->sm < 90 ? sel_tmp(s, 1) : mref(-1);

	f->guard = -1;
	f->guard_neg = 0;
	if (g >= 0) {
		out = seq_mark();
		f->guard = g;
		f->guard_neg = (u8)!gn;
		mi(f, "BRA %L", out);
		f->guard = -1;
		f->guard_neg = 0;
	}
	mi(f, "PLOP3.LUT %D, PT, PT, PT, PT, 0x80, 0x0", pend);
	if (s->sm >= 90)
		mi(f, "PLOP3.LUT %D, PT, PT, PT, PT, 0x8, 0x0", el);
	else
		mi(f, "S2R %D, SR_LANEID", lane);
	seq_label(f, head);
	if (s->sm >= 90) {
		f->guard = pend.v;
		mi(f, "ELECT %D, URZ, PT", el);
	} else {   /* no ELECT: the highest pending lane */
		MRef any = sel_tmp(s, 1), hi = sel_tmp(s, 1);
		mi(f, "VOTE.ANY %D, PT, %U", any, pend);
		mi(f, "FLO.U32 %D, %U", hi, any);
		mi(f, "ISETP.EQ.U32.AND %D, PT, %U, %U, PT", el, hi, lane);
	}
	f->guard = el.v;
	for (i = 0; i < n; i++)
		mi(f, "R2UR %D, %U", u[i], r[i]);
	mi(f, "PLOP3.LUT %D, PT, PT, PT, PT, 0x8, 0x0", pend);
	f->guard = per_lane ? el.v : -1;
	body(s, u, ctx);
	f->guard = -1;
	if (s->sm >= 90)
		mi(f, "PLOP3.LUT %D, PT, PT, PT, PT, 0x8, 0x0", el);
	f->guard = pend.v;
	mi(f, s->sm >= 90 ? "BRA.U.ANY %L" : "BRA %L", head);
	f->guard = -1;
	if (out != -1)
		seq_label(f, out);
	f->guard = g;
	f->guard_neg = (u8)gn;
}

MRef
sel_ur_tmp(Sel *s, int w)
{
	int v = mvreg(s->mf, RC_UR, w);
	s->mf->vr.v[v].tmp = 1;
	return mref(v);
}

/* ---- mbarrier.init ---- */

typedef struct {
	i64 off;
} InitCtx;

static void
init_body(Sel *s, const MRef *u, void *ctx)
{
	char ob[24];
	MRef val = mref(u[1].v);

	mi(s->mf, "SYNCS.EXCH.64 URZ, [%U%s], %U", u[0], sel_offtxt(ob, sizeof ob, ((InitCtx *)ctx)->off), val);
}

/* The sm_90 init value {(0x100000 - n) << 1, (0x100000 - n) << 11} and
 * sm_80's {0x40000000 - n, 0x80000000 - n} in a fresh pair. */
static MRef
init_value(Sel *s, const PtxOperand *cnt)
{
	MRef v = sel_tmp(s, 2), lo = mpart(v.v, 0, 1), hi = mpart(v.v, 1, 1), c, t;

	c = sel_r32(s, cnt, 0);
	if (s->sm >= 90) {
		t = sel_tmp(s, 1);
		mi(s->mf, "IADD3 %D, -%U, 0x100000, RZ", t, c);
		mi(s->mf, "SHF.L.U32 %D, %U, 0xb, RZ", hi, t);
		mi(s->mf, "SHF.L.U32 %D, %U, 0x1, RZ", lo, t);
	} else {
		mi(s->mf, "IADD3 %D, -%U, 0x40000000, RZ", lo, c);
		mi(s->mf, "IADD3 %D, -%U, -0x80000000, RZ", hi, c);
	}
	return v;
}

static int
sel_init(Sel *s, const IrIns *x)
{
	const PtxInstr *in = &x->p;
	MRef base, val;
	i64 off;
	char ob[24];

	if (in->nopds != 2 || in->opds[0].kind != PTX_OPD_ADDR)
		return sel_unsupported(s, "this form of mbarrier.init");
	if (mbar_addr(s, &in->opds[0], &base, &off) < 0)
		return -1;
	val = init_value(s, &in->opds[1]);
	if (s->sm < 90) {
		mi(s->mf, "STS.64 [%U%s], %U", base, sel_offtxt(ob, sizeof ob, off), val);
		return 0;
	}
	if (in->guard < 0 && uniform(s, &in->opds[0], 0) && uniform(s, &in->opds[1], 0)) {
		/* the same in every lane: one EXCH for the warp */
		MRef ua = sel_ur_tmp(s, 1), uv = sel_ur_tmp(s, 2);
		mi(s->mf, "R2UR %D, %U", ua, base);
		mi(s->mf, "R2UR %D, %U", mpart(uv.v, 0, 1), mpart(val.v, 0, 1));
		mi(s->mf, "R2UR %D, %U", mpart(uv.v, 1, 1), mpart(val.v, 1, 1));
		mi(s->mf, "SYNCS.EXCH.64 URZ, [%U%s], %U", ua, sel_offtxt(ob, sizeof ob, off), uv);
	} else {
		MRef uv = sel_ur_tmp(s, 2);
		MRef r[3] = {base, mpart(val.v, 0, 1), mpart(val.v, 1, 1)};
		MRef u[3] = {sel_ur_tmp(s, 1), mpart(uv.v, 0, 1), mpart(uv.v, 1, 1)};
		InitCtx c = {off};
		sel_waterfall(s, r, u, 3, init_body, &c, 0);
	}
	return 0;
}

/* ---- arrive, expect_tx, complete_tx ---- */

/* "[R+URZ+0x8]" (sm_90 SYNCS, sm_80 ATOMS) for the mbarrier operand */
static int
mbar_mem(Sel *s, const PtxOperand *a, MRef *base, char *ob, size_t n)
{
	i64 off;

	if (mbar_addr(s, a, base, &off) < 0)
		return -1;
	sel_offtxt(ob, n, off);
	return 0;
}

/* tx-count or arrival-count operand: must be a 32-bit value */
static MRef
count_reg(Sel *s, const PtxOperand *o)
{
	return sel_r32(s, o, 0);
}

/* sm_80 (ptxas's instructions; ptxas aggregates the counted adds per
 * warp, one lane adding popc * count, which is the same sum):
 *   arrive               MEMBAR.ALL.CTA; ATOMS.ARRIVE.64 st, [a]
 *   arrive_drop          + ATOMS.POPC.INC.32 RZ, [a] first (expected - 1)
 *   .noComplete, count c ATOMS.ADD t, [a+4], c (pending - c, no phase
 *                        check); drop: ATOMS.ADD RZ, [a], c first; the
 *                        state is {t, t}, as ptxas builds it */
static void
arrive80(Sel *s, const IrIns *x, MRef st, MRef base, i64 off, int noc)
{
	const PtxInstr *in = &x->p;
	int drop = in->op == PTX_OP_mbarrier_arrive_drop;
	char ob[24];
	MRef c, t;

	sel_offtxt(ob, sizeof ob, off);
	mi(s->mf, "MEMBAR.ALL.CTA");
	if (!noc) {
		if (drop)
			mi(s->mf, "ATOMS.POPC.INC.32 RZ, [%U+URZ%s]", base, ob);
		if (st.v < 0)
			mi(s->mf, "ATOMS.ARRIVE.64 RZ, [%U+URZ%s]", base, ob);
		else
			mi(s->mf, "ATOMS.ARRIVE.64 %D, [%U+URZ%s]", mpart(st.v, 0, 2), base, ob);
		return;
	}
	c = count_reg(s, &in->opds[2]);
	if (drop)
		mi(s->mf, "ATOMS.ADD RZ, [%U%s], %U", base, ob, c);
	sel_offtxt(ob, sizeof ob, off + 4);
	if (st.v < 0) {
		mi(s->mf, "ATOMS.ADD RZ, [%U%s], %U", base, ob, c);
		return;
	}
	t = sel_tmp(s, 1);
	mi(s->mf, "ATOMS.ADD %D, [%U%s], %U", t, base, ob, c);
	mi(s->mf, "MOV %D, %U", mpart(st.v, 0, 1), t);
	mi(s->mf, "MOV %D, %U", mpart(st.v, 1, 1), t);
}

static int
sel_arrive(Sel *s, const IrIns *x)
{
	const PtxInstr *in = &x->p;
	const PtxOperand *d = &in->opds[0];
	int sink = d->kind == PTX_OPD_SINK, ex = (in->flags & PTX_F_EXPECT_TX) != 0;
	int noc = ptx_has_mod(in, PTX_M_noComplete), drop = in->op == PTX_OP_mbarrier_arrive_drop;
	MRef base, st = {-1, 0, 0};
	char ob[24], op[48];
	i64 off;
	u64 c = 1;
	int one;

	if (in->nopds < 2 || in->nopds > 3 || (d->kind != PTX_OPD_REG && !sink) || in->opds[1].kind != PTX_OPD_ADDR)
		return sel_unsupported(s, "this form of mbarrier.arrive (remote shared::cluster arrive without a state)");
	if (in->sem > PTX_SEM_RELAXED && in->sem != PTX_SEM_RELEASE)
		return sel_unsupported(s, "mbarrier.arrive with this memory order");
	if (in->scope > PTX_SCOPE_CLUSTER || (in->scope == PTX_SCOPE_CLUSTER && s->sm < 90))
		return sel_unsupported(s, "mbarrier.arrive at .cluster scope");
	if (ex && (s->sm < 90 || in->nopds != 3 || drop))
		return sel_unsupported(s, "mbarrier.arrive[_drop].expect_tx (sm_90 arrive, with a tx count)");
	if (noc && in->nopds != 3)
		return sel_unsupported(s, "mbarrier.arrive.noComplete without a count");
	one = in->nopds == 2 || ex || (const_of(s, &in->opds[2], &c) && c == 1);   /* one arrival */
	if (s->sm < 90 && !noc && !one)
		return sel_unsupported(s, "mbarrier.arrive[_drop] with a count on sm_80 (sm_90, or .noComplete)");
	if (!sink) {
		st = sel_reg(s, d->reg);
		if (s->mf->vr.v[st.v].w != 2)
			return sel_unsupported(s, "mbarrier.arrive into a state that is not 64-bit");
	}
	if (mbar_addr(s, &in->opds[1], &base, &off) < 0)
		return -1;
	if (s->sm < 90) {
		arrive80(s, x, st, base, off, noc);
		return 0;
	}
	sel_offtxt(ob, sizeof ob, off);
	/* .release.cluster: ptxas 13.0 puts a cluster-scope release fence
	   before the arrive (MEMBAR.ALL.CTA, MEMBAR.ALL.GPU, ERRBAR,
	   CGAERRBAR); .relaxed.cluster orders nothing */
	if (in->scope == PTX_SCOPE_CLUSTER && in->sem != PTX_SEM_RELAXED) {
		mi(s->mf, "MEMBAR.ALL.GPU");
		mi(s->mf, "ERRBAR");
		mi(s->mf, "CGAERRBAR");
	}
	if (ex) /* expect-tx, then arrive-on (the PTX definition of the pair) */
		mi(s->mf, "SYNCS.ARRIVE.TRANS64.RED.A0TR RZ, [%U+URZ%s], %U", base, ob, count_reg(s, &in->opds[2]));
	if (sink && one && !drop) {
		mi(s->mf, "SYNCS.ARRIVE.TRANS64.RED.A1T0 RZ, [%U+URZ%s], RZ", base, ob);
		return 0;
	}
	/* ptxas: A1T0 one arrival, ART0 a counted one (.noComplete too: ptxas
	   aggregates it per warp, TMASK.ART0, the same sum), OPTOUT drops */
	str_printf(op, sizeof op, "SYNCS.ARRIVE.TRANS64.%s%s", drop ? "OPTOUT." : "", one ? "A1T0" : "ART0");
	if (one && sink)
		mi(s->mf, "%s RZ, [%U+URZ%s], RZ", op, base, ob);
	else if (one)
		mi(s->mf, "%s %D, [%U+URZ%s], RZ", op, mpart(st.v, 0, 2), base, ob);
	else if (sink)
		mi(s->mf, "%s RZ, [%U+URZ%s], %U", op, base, ob, count_reg(s, &in->opds[2]));
	else
		mi(s->mf, "%s %D, [%U+URZ%s], %U", op, mpart(st.v, 0, 2), base, ob, count_reg(s, &in->opds[2]));
	return 0;
}

/* expect_tx: A0TR (adds to the transaction count), complete_tx: A0TX */
static int
sel_tx(Sel *s, const IrIns *x)
{
	const PtxInstr *in = &x->p;
	MRef base, c;
	char ob[24];

	if (s->sm < 90)
		return sel_unsupported(s, "mbarrier.expect_tx/complete_tx (sm_90 and later)");
	if (in->nopds != 2 || in->opds[0].kind != PTX_OPD_ADDR)
		return sel_unsupported(s, "this form of mbarrier.expect_tx/complete_tx");
	if (in->scope > PTX_SCOPE_CTA)
		return sel_unsupported(s, "mbarrier.expect_tx/complete_tx beyond .cta scope");
	if (mbar_mem(s, &in->opds[0], &base, ob, sizeof ob) < 0)
		return -1;
	c = count_reg(s, &in->opds[1]);
	mi(s->mf, "SYNCS.ARRIVE.TRANS64.RED.%s RZ, [%U+URZ%s], %U", in->op == PTX_OP_mbarrier_expect_tx ? "A0TR" : "A0TX",
	   base, ob, c);
	return 0;
}

/* ---- test_wait / try_wait ---- */

/* The phase to compare, in bit 31 of a register: the token's high word,
 * or the parity operand shifted up. */
static MRef
phase_word(Sel *s, const PtxOperand *o, int parity)
{
	MRef t;

	if (!parity)
		return sel_r32(s, o, 1);
	t = sel_tmp(s, 1);
	mi(s->mf, "SHF.L.U32 %D, %U, 0x1f, RZ", t, sel_r32(s, o, 0));
	return t;
}

static int
sel_wait(Sel *s, const IrIns *x)
{
	const PtxInstr *in = &x->p;
	int parity = (in->flags & PTX_F_PARITY) != 0, tw = in->op == PTX_OP_mbarrier_try_wait;
	MRef base, p, ph;
	char ob[24];
	i64 off;

	if (in->nopds < 3 || in->nopds > 4 || in->opds[0].kind != PTX_OPD_REG || in->opds[1].kind != PTX_OPD_ADDR)
		return sel_unsupported(s, "this form of mbarrier.test_wait/try_wait");
	if (in->sem > PTX_SEM_RELAXED && in->sem != PTX_SEM_ACQUIRE)
		return sel_unsupported(s, "mbarrier wait with this memory order");
	if (in->scope > PTX_SCOPE_CLUSTER || (in->scope == PTX_SCOPE_CLUSTER && s->sm < 90))
		return sel_unsupported(s, "mbarrier wait at .cluster scope");
	if (s->sm < 90 && tw)
		return sel_unsupported(s, "mbarrier.try_wait (sm_90 and later)");
	if (!parity && in->opds[2].kind == PTX_OPD_REG && s->mf->vr.v[sel_reg(s, in->opds[2].reg).v].w != 2)
		return sel_unsupported(s, "an mbarrier state that is not 64-bit");
	/* a 4th operand (suspendTimeHint) is a hint: returning at once is allowed */
	if (mbar_addr(s, &in->opds[1], &base, &off) < 0)
		return -1;
	sel_offtxt(ob, sizeof ob, off);
	ph = phase_word(s, &in->opds[2], parity);
	p = sel_reg(s, in->opds[0].reg);
	if (s->sm >= 90) {
		mi(s->mf, "SYNCS.PHASECHK.TRANS64%s %D, [%U+URZ%s], %U", tw ? ".TRYWAIT" : "", p, base, ob, ph);
		/* .acquire.cluster: ptxas 13.0 follows with @P CCTL.IVALL (L1
		   invalidated once the phase completed); ours is unguarded */
		if (in->scope == PTX_SCOPE_CLUSTER && in->sem != PTX_SEM_RELAXED)
			mi(s->mf, "CCTL.IVALL");
	} else {
		MRef w = sel_tmp(s, 1);
		mi(s->mf, "LDS %D, [%U%s]", w, base, sel_offtxt(ob, sizeof ob, off + 4));
		mi(s->mf, "LOP3.LUT %D, RZ, %U, 0x80000000, %U, 0x48, !PT", p, w, ph);
	}
	return 0;
}

static int
sel_inval(Sel *s, const IrIns *x)
{
	MRef base;
	char ob[24];

	if (x->p.nopds != 1 || x->p.opds[0].kind != PTX_OPD_ADDR)
		return sel_unsupported(s, "this form of mbarrier.inval");
	if (mbar_mem(s, &x->p.opds[0], &base, ob, sizeof ob) < 0)
		return -1;
	if (s->sm >= 90)   /* sm_80: nothing, as ptxas */
		mi(s->mf, "SYNCS.CCTL.IV [%U+URZ%s]", base, ob);
	return 0;
}

/* ---- cp.async.bulk (global -> shared::cluster, completing on an mbarrier) ---- */

static void
blk_body(Sel *s, const MRef *u, void *ctx)
{
	(void)ctx;
	mi(s->mf, "UBLKCP.S.G [%U], [%U], %U", mref(u[0].v), mref(u[2].v), u[4]);
}

/* A 64-bit global address plus off, as a pair. */
MRef
sel_gaddr(Sel *s, MRef b, i64 off)
{
	MRef r, c;

	if (!off)
		return b;
	r = sel_tmp(s, 2);
	c = sel_ptmp(s);
	mi(s->mf, "IADD3 %D, %D, %U, %x, RZ", mpart(r.v, 0, 1), c, mpart(b.v, b.sub, 1), (i32)off);
	mi(s->mf, "IADD3.X %D, RZ, %U, RZ, %U, !PT", mpart(r.v, 1, 1), mpart(b.v, b.sub + 1, 1), c);
	return r;
}

static int
sel_bulk(Sel *s, const IrIns *x)
{
	const PtxInstr *in = &x->p;
	MRef db, gb, bb, n, ud, ug;
	i64 doff, goff, boff;
	int k, ctx = 0, mb = 0;

	for (k = 0; k < in->nmods; k++)
		mb |= in->mods[k] == PTX_M_mbarrier_complete_tx_bytes;
	if (s->sm < 90)
		return sel_unsupported(s, "cp.async.bulk (sm_90 and later)");
	/* .shared::cta as the destination (PTX 8.6, the cuda::ptx wrappers'
	   space_shared): a shared::cta address is the shared::cluster address
	   of the executing CTA's own window; ptxas emits the same UBLKCP.S.G */
	if (!mb || in->nspaces != 2 || (in->space[0] != PTX_S_SHARED_CLUSTER && in->space[0] != PTX_S_SHARED) ||
	    in->space[1] != PTX_S_GLOBAL || in->nopds != 4 || (in->flags & (PTX_F_MULTICAST | PTX_F_CACHE_HINT)))
		return sel_unsupported(s, "cp.async.bulk other than .shared::{cluster,cta}.global.mbarrier::complete_tx::bytes "
					  "[dst], [src], size, [mbar] (no multicast, no cache hint)");
	if (in->opds[0].kind != PTX_OPD_ADDR || in->opds[1].kind != PTX_OPD_ADDR || in->opds[3].kind != PTX_OPD_ADDR)
		return sel_unsupported(s, "this form of cp.async.bulk");
	if (sel_address(s, &in->opds[0], PTX_S_SHARED, &db, &doff) < 0 ||
	    sel_address(s, &in->opds[1], PTX_S_GLOBAL, &gb, &goff) < 0 ||
	    sel_address(s, &in->opds[3], PTX_S_SHARED, &bb, &boff) < 0)
		return -1;
	db = sel_addr_reg(s, db, doff);
	bb = sel_addr_reg(s, bb, boff);
	gb = sel_gaddr(s, gb, goff);
	/* size / 16 in the low 16 bits (ptxas: SHF.R.U32.HI + PRMT 0x5410) */
	n = sel_tmp(s, 1);
	mi(s->mf, "SHF.R.U32.HI %D, RZ, 0x4, %U", n, sel_r32(s, &in->opds[2], 0));
	mi(s->mf, "PRMT %D, %U, 0x5410, RZ", n, n);
	ud = sel_ur_tmp(s, 2);
	ug = sel_ur_tmp(s, 2);
	{
		MRef r[5] = {db, bb, mpart(gb.v, gb.sub, 1), mpart(gb.v, gb.sub + 1, 1), n};
		MRef u[5] = {mpart(ud.v, 0, 1), mpart(ud.v, 1, 1), mpart(ug.v, 0, 1), mpart(ug.v, 1, 1), sel_ur_tmp(s, 1)};
		sel_waterfall(s, r, u, 5, blk_body, &ctx, 0);
	}
	return 0;
}

/* ---- cp.async.mbarrier.arrive[.noinc] ----
 * ARRIVES.LDGSTSBAR.64 [UR] (an arrival once the thread's cp.async copies
 * are done) takes a uniform address: R2UR of it when it is provably the
 * same in every lane (uniform()), as ptxas (which branches around a
 * guarded one; we predicate both); otherwise one elected lane at a time
 * (the waterfall).  Without
 * .noinc the pending count first grows by one per thread, so the phase
 * waits for the copies but the thread's arrival is not counted.
 * sm_80: ATOMS.ADD.S32 -1 on the high word, per lane (ptxas adds -popc
 * once from the highest lane, which assumes one address for the warp),
 * then ARRIVES.LDGSTSBAR.64.
 * sm_90 (ptxas 13.0): the same as a transaction instead of an arrival:
 * SYNCS.ARRIVE.TRANS64.RED.A0T1 (tx-count + 1), then
 * ARRIVES.LDGSTSBAR.64.TRANSCNT (tx-count - 1 once the copies are done);
 * .noinc is ARRIVES.LDGSTSBAR.64.ARVCNT (an arrival once they are). */
typedef struct {
	i64 off;
	const char *op;
} ArrivesCtx;

static void
arrives_body(Sel *s, const MRef *u, void *ctx)
{
	const ArrivesCtx *c = ctx;
	char ob[24];

	mi(s->mf, "%s [%U%s]", c->op, u[0], sel_offtxt(ob, sizeof ob, c->off));
}

static int
sel_cp_arrive(Sel *s, const IrIns *x)
{
	const PtxInstr *in = &x->p;
	int noinc = !!(in->flags & PTX_F_NOINC);
	ArrivesCtx c;
	MRef base, m1;
	char ob[24];

	if (in->nopds != 1 || in->opds[0].kind != PTX_OPD_ADDR)
		return sel_unsupported(s, "this form of cp.async.mbarrier.arrive");
	if (mbar_addr(s, &in->opds[0], &base, &c.off) < 0)
		return -1;
	if (s->sm >= 90) {
		c.op = noinc ? "ARRIVES.LDGSTSBAR.64.ARVCNT" : "ARRIVES.LDGSTSBAR.64.TRANSCNT";
		if (!noinc)
			mi(s->mf, "SYNCS.ARRIVE.TRANS64.RED.A0T1 RZ, [%U+URZ%s], RZ", base,
			   sel_offtxt(ob, sizeof ob, c.off));
	} else {
		c.op = "ARRIVES.LDGSTSBAR.64";
		if (!noinc) {
			m1 = sel_tmp(s, 1);
			mi(s->mf, "MOV %D, 0xffffffff", m1);
			mi(s->mf, "ATOMS.ADD.S32 RZ, [%U%s], %U", base, sel_offtxt(ob, sizeof ob, c.off + 4), m1);
		}
	}
	if (uniform(s, &in->opds[0], 0)) {
		/* the same address in every lane: one ARRIVES, each lane (where
		   the guard holds: R2UR and ARRIVES take it) arrives */
		MRef u = sel_ur_tmp(s, 1);
		mi(s->mf, "R2UR %D, %U", u, base);
		arrives_body(s, &u, &c);
	} else {
		MRef r[1] = {base}, u[1] = {sel_ur_tmp(s, 1)};
		sel_waterfall(s, r, u, 1, arrives_body, &c, 1);
	}
	return 0;
}

int
sel_async_addrs(Sel *s, const PtxInstr *in, const char *what, AsyncAddrs *aa)
{
	char t[120];

	if (in->opds[0].kind != PTX_OPD_ADDR || in->opds[0].reg < 0 || in->opds[2].kind != PTX_OPD_ADDR ||
	    in->opds[2].reg < 0) {
		str_printf(t, sizeof t, "%s with an address or mbarrier that is not a register (+offset)", what);
		return sel_unsupported(s, t);
	}
	if (sel_address(s, &in->opds[0], PTX_S_SHARED, &aa->ab, &aa->ao) < 0 ||
	    sel_address(s, &in->opds[2], PTX_S_SHARED, &aa->mb, &aa->mo) < 0)
		return -1;
	return 0;
}

MRef
sel_async_pair(Sel *s, const AsyncAddrs *aa)
{
	MRef pr = sel_tmp(s, 2);

	sel_mov32(s, mpart(pr.v, 0, 1), mopd_reg(sel_addr_reg(s, aa->ab, aa->ao)));
	sel_mov32(s, mpart(pr.v, 1, 1), mopd_reg(sel_addr_reg(s, aa->mb, aa->mo)));
	return pr;
}

/* st.async.shared::cluster.mbarrier::complete_tx::bytes{.v2|.v4}.type [a], b, [mbar]
 * (sm_90: a store into a CTA of the cluster that completes its bytes on
 * that CTA's mbarrier): ptxas's STAS[.64|.128] [Ra.64], Rb with the
 * shared::cluster address in Ra and the mbarrier's in Ra+1 (offsets
 * added in: the form has none), the data in a register tuple. */
static int
sel_st_async(Sel *s, const IrIns *x)
{
	const PtxInstr *in = &x->p;
	PtxType t = in->ntypes ? (PtxType)in->types[0] : PTX_T_NONE;
	int eb = ptx_type_size(t), nv = in->vec ? in->vec : 1, tot, ew, i, k;
	AsyncAddrs aa;
	MRef pr, d;
	const PtxOperand *v = &in->opds[1];

	if (s->sm < 90)
		return sel_unsupported(s, "st.async (sm_90 and later)");
	tot = eb * nv;
	if (in->nopds != 3 || (eb != 4 && eb != 8) || (tot != 4 && tot != 8 && tot != 16))
		return sel_unsupported(s, "this st.async form");
	if (sel_async_addrs(s, in, "st.async", &aa) < 0)
		return -1;
	ew = eb / 4;
	d = sel_tmp(s, tot / 4);
	for (i = 0; i < nv; i++) {
		const PtxOperand *e = v->kind == PTX_OPD_VEC ? &v->elems[i] : v;
		MRef r = ew == 2 ? sel_r64(s, e) : sel_r32(s, e, 0);
		if (r.v < 0)
			return -1;
		for (k = 0; k < ew; k++)
			sel_mov32(s, mpart(d.v, i * ew + k, 1), mopd_reg(ew == 2 ? mpart(r.v, r.sub + k, 1) : r));
	}
	pr = sel_async_pair(s, &aa);
	mi(s->mf, "STAS%s [%U.64], %U", tot == 16 ? ".128" : tot == 8 ? ".64" : "", pr, d);
	return 0;
}

const SelRule sel_rules_mbar[] = {
	{PTX_OP_mbarrier_init, sel_init}, {PTX_OP_mbarrier_arrive, sel_arrive}, {PTX_OP_mbarrier_arrive_drop, sel_arrive},
	{PTX_OP_mbarrier_expect_tx, sel_tx}, {PTX_OP_mbarrier_complete_tx, sel_tx},
	{PTX_OP_mbarrier_test_wait, sel_wait}, {PTX_OP_mbarrier_try_wait, sel_wait},
	{PTX_OP_mbarrier_inval, sel_inval}, {PTX_OP_cp_async_bulk, sel_bulk},
	{PTX_OP_cp_async_mbarrier_arrive, sel_cp_arrive}, {PTX_OP_st_async, sel_st_async},
	{0, NULL},
};
