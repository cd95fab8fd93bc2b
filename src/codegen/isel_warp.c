/* isel_warp.c -- warp-level and CTA-level synchronisation: shfl.sync,
 * vote.sync, activemask, redux.sync, match.sync, elect.sync, bar/barrier
 * (sync, arrive, red) with thread counts and register ids, membar and
 * fence, nanosleep.  Sequences are ptxas's (ptxas 13.0 on probes, see
 * docs/compiler-mem.md).  The code assumes the threads a member mask
 * names execute the instruction (the PTX requirement); a mask in a
 * register may leave out lanes that run it with us (the groups of
 * match.any), so redux, vote and match.any confine their result to it. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "codegen/isel.h"
#include "codegen/peep.h"
#include "isa/isa.h"

#define D0 (&x->p.opds[0])
#define S1 (&x->p.opds[1])

/* Can the ISA tables encode this text (registers as written)?  Some
 * immediate fields were learned as enumerations of the values ptxas used
 * (BAR.SYNC's thread count), so a form is tried before it is emitted.
 * The probe is the peepholes' (peep_encodes). */
int
sel_can_encode(Sel *s, const char *text)
{
	return peep_encodes(arch_lookup(s->sm >= 90 ? "sm_90" : "sm_80"), text);
}

/* A 32-bit source: an immediate (masked to bits) stays literal, 0 is RZ. */
static MOpd
src_imm(Sel *s, const PtxOperand *o, u32 bits)
{
	u64 v;
	char t[24];

	if (o->kind == PTX_OPD_IMM && sel_imm(o, &v)) {
		if (!((u32)v & bits))
			return mopd_reg(mref(s->mf->rz));
		str_printf(t, sizeof t, "0x%" PRIx32, (u32)v & bits);
		return mopd_txt(t);
	}
	return mopd_reg(sel_r32(s, o, 0));
}

static MRef
dreg(Sel *s, const PtxOperand *o)
{
	MRef d = sel_reg(s, o->reg);
	return s->mf->vr.v[d.v].w > 1 ? mpart(d.v, 0, 1) : d;
}

/* The optional predicate of `d|p`: a vreg or PT. */
static MRef
dpred(Sel *s, const PtxOperand *o)
{
	return o->kind == PTX_OPD_REG && o->reg2 >= 0 ? sel_reg(s, o->reg2) : mref(s->mf->pt);
}

static int
check_mask(Sel *s, const PtxOperand *o)
{
	if (o->kind != PTX_OPD_IMM && o->kind != PTX_OPD_REG)
		return sel_unsupported(s, "this member mask");
	return 0;
}

static int
sel_shfl(Sel *s, const IrIns *x)
{
	static const char *mode[] = {
		[PTX_MODE_UP] = "UP", [PTX_MODE_DOWN] = "DOWN", [PTX_MODE_BFLY] = "BFLY", [PTX_MODE_IDX] = "IDX",
	};
	MOpd b, c;
	MRef a, d, p;

	if (x->p.mode < PTX_MODE_UP || x->p.mode > PTX_MODE_IDX || x->p.nopds < 4 || D0->kind != PTX_OPD_REG)
		return sel_unsupported(s, "this form of shfl");
	if (x->p.nopds > 4 && check_mask(s, &x->p.opds[4]) < 0)
		return -1;
	a = sel_r32(s, S1, 0);
	b = src_imm(s, &x->p.opds[2], 0x1f);
	c = src_imm(s, &x->p.opds[3], 0x1f1f);
	if (a.v < 0 || (!b.txt[0] && b.r.v < 0) || (!c.txt[0] && c.r.v < 0))
		return -1;
	d = dreg(s, D0);
	p = dpred(s, D0);
	mi(s->mf, "SHFL.%s %D, %D, %U, %O, %O", mode[x->p.mode], p, d, a, b, c);
	return 0;
}

/* vote.sync with a member mask in a register: as for redux, lanes of
 * other masks may vote with ours, so the ballot is cut to the mask and
 * any / all / uni are decided on that. */
static int
vote_masked(Sel *s, const IrIns *x, MRef p, int neg, MRef m)
{
	MRef b = sel_tmp(s, 1), d, q;

	mi(s->mf, "VOTE.ANY %D, PT, %s%U", b, neg ? "!" : "", p);
	if (x->p.mode == PTX_MODE_BALLOT) {
		mi(s->mf, "LOP3.LUT %D, %U, %U, RZ, 0xc0, !PT", dreg(s, D0), b, m);
		return 0;
	}
	mi(s->mf, "LOP3.LUT %D, %U, %U, RZ, 0xc0, !PT", b, b, m);
	d = sel_reg(s, D0->reg);
	switch (x->p.mode) {
	case PTX_MODE_ANY: mi(s->mf, "ISETP.NE.U32.AND %D, PT, %U, RZ, PT", d, b); return 0;
	case PTX_MODE_ALL: mi(s->mf, "ISETP.EQ.U32.AND %D, PT, %U, %U, PT", d, b, m); return 0;
	case PTX_MODE_UNI:
		q = sel_ptmp(s);
		mi(s->mf, "ISETP.EQ.U32.AND %D, PT, %U, RZ, PT", q, b);
		mi(s->mf, "ISETP.EQ.U32.AND %D, PT, %U, %U, PT", d, b, m);
		mi(s->mf, "PLOP3.LUT %D, PT, %U, %U, PT, 0xa8, 0x0", d, d, q);
		return 0;
	}
	return sel_unsupported(s, "this vote mode");
}

static int
sel_vote(Sel *s, const IrIns *x)
{
	MRef p, d;
	int neg;
	const char *m;

	if (x->p.nopds < 2 || D0->kind != PTX_OPD_REG)
		return sel_unsupported(s, "this form of vote");
	if (x->p.nopds > 2 && check_mask(s, &x->p.opds[2]) < 0)
		return -1;
	p = sel_pred(s, S1, &neg);
	if (p.v < 0)
		return -1;
	if (x->p.nopds > 2 && x->p.opds[2].kind == PTX_OPD_REG)
		return vote_masked(s, x, p, neg, sel_r32(s, &x->p.opds[2], 0));
	if (x->p.mode == PTX_MODE_BALLOT) {
		mi(s->mf, "VOTE.ANY %D, PT, %s%U", dreg(s, D0), neg ? "!" : "", p);
		return 0;
	}
	switch (x->p.mode) {
	case PTX_MODE_ALL: m = "ALL"; break;
	case PTX_MODE_ANY: m = "ANY"; break;
	case PTX_MODE_UNI: m = "EQ"; break;
	default: return sel_unsupported(s, "this vote mode");
	}
	d = sel_reg(s, D0->reg);
	mi(s->mf, "VOTE.%s %D, %s%U", m, d, neg ? "!" : "", p);
	return 0;
}

static int
sel_activemask(Sel *s, const IrIns *x)
{
	if (D0->kind != PTX_OPD_REG)
		return sel_unsupported(s, "activemask into a non-register");
	mi(s->mf, "VOTE.ANY %D, PT, PT", dreg(s, D0));
	return 0;
}

/* redux.sync with a member mask in a register: lanes of another mask may
 * run it together with ours (the groups match.any makes), and REDUX
 * covers every active lane (ptxas loops over the masks with WARPSYNC
 * .EXCLUSIVE).  Here each lane takes every lane's value by SHFL.IDX and
 * combines those its mask names (they execute the instruction: the PTX
 * requirement), starting from the operation's identity. */
static int
redux_masked(Sel *s, const IrIns *x, MRef a, MRef m, int sg)
{
	const char *mn = s->sm >= 90 ? "VIMNMX" : "IMNMX";
	u32 id;
	MRef r = sel_tmp(s, 1);
	int j;

	switch (x->p.aop) {
	case PTX_AOP_MIN: id = sg ? 0x7fffffffu : 0xffffffffu; break;
	case PTX_AOP_MAX: id = sg ? 0x80000000u : 0; break;
	case PTX_AOP_AND: id = 0xffffffffu; break;
	default: id = 0; break;
	}
	mi(s->mf, "MOV %D, %h", r, (unsigned)id);
	for (j = 0; j < 32; j++) {
		MRef t = sel_tmp(s, 1), c = sel_tmp(s, 1), n = sel_tmp(s, 1), p = sel_ptmp(s);
		char b[16];
		str_printf(b, sizeof b, "0x%x", j);
		mi(s->mf, "SHFL.IDX PT, %D, %U, %O, 0x1f", t, a, mopd_txt(b));
		mi(s->mf, "LOP3.LUT %D, RZ, %U, %h, RZ, 0xc0, !PT", p, m, (unsigned)(1u << j));
		switch (x->p.aop) {
		case PTX_AOP_ADD: mi(s->mf, "IADD3 %D, %U, %U, RZ", c, r, t); break;
		case PTX_AOP_MIN: mi(s->mf, "%s%s %D, %U, %U, PT", mn, sg ? "" : ".U32", c, r, t); break;
		case PTX_AOP_MAX: mi(s->mf, "%s%s %D, %U, %U, !PT", mn, sg ? "" : ".U32", c, r, t); break;
		case PTX_AOP_AND: mi(s->mf, "LOP3.LUT %D, %U, %U, RZ, 0xc0, !PT", c, r, t); break;
		case PTX_AOP_OR: mi(s->mf, "LOP3.LUT %D, %U, %U, RZ, 0xfc, !PT", c, r, t); break;
		default: mi(s->mf, "LOP3.LUT %D, %U, %U, RZ, 0x3c, !PT", c, r, t); break;
		}
		mi(s->mf, "SEL %D, %U, %U, %U", n, c, r, p);
		r = n;
	}
	mi(s->mf, "MOV %D, %U", dreg(s, D0), r);
	return 0;
}

static int
sel_redux(Sel *s, const IrIns *x)
{
	PtxType t = x->p.ntypes ? (PtxType)x->p.types[0] : PTX_T_NONE;
	int sg = t == PTX_T_S32;
	const char *op;
	MRef a, u;

	if (ptx_type_size(t) != 4 || ptx_type_is_float(t) || x->p.nopds < 2 || D0->kind != PTX_OPD_REG)
		return sel_unsupported(s, "redux.sync of this type");
	if (x->p.nopds > 2 && check_mask(s, &x->p.opds[2]) < 0)
		return -1;
	switch (x->p.aop) {
	case PTX_AOP_ADD: op = sg ? "REDUX.SUM.S32" : "REDUX.SUM"; break;
	case PTX_AOP_MIN: op = sg ? "REDUX.MIN.S32" : "REDUX.MIN"; break;
	case PTX_AOP_MAX: op = sg ? "REDUX.MAX.S32" : "REDUX.MAX"; break;
	case PTX_AOP_AND: op = "REDUX.OR"; break;  /* of ~a, inverted (see below) */
	case PTX_AOP_OR: op = "REDUX.OR"; break;
	case PTX_AOP_XOR: op = "REDUX.XOR"; break;
	default: return sel_unsupported(s, "this redux.sync operation");
	}
	a = sel_r32(s, S1, 0);
	if (a.v < 0)
		return -1;
	if (x->p.nopds > 2 && x->p.opds[2].kind == PTX_OPD_REG)
		return redux_masked(s, x, a, sel_r32(s, &x->p.opds[2], 0), sg);
	u = mref(mvreg(s->mf, RC_UR, 1));
	s->mf->vr.v[u.v].tmp = 1;
	if (x->p.aop == PTX_AOP_AND) {
		/* ptxas writes plain `REDUX` (and), which the emulator does not
		 * model: and(a) = ~or(~a) */
		MRef n = sel_tmp(s, 1);
		mi(s->mf, "LOP3.LUT %D, RZ, %U, RZ, 0x33, !PT", n, a);
		mi(s->mf, "REDUX.OR %D, %U", u, n);
		mi(s->mf, "LOP3.LUT %D, RZ, %U, RZ, 0x33, !PT", dreg(s, D0), u);
		return 0;
	}
	mi(s->mf, "%s %D, %U", op, u, a);
	mi(s->mf, "MOV %D, %U", dreg(s, D0), u);
	return 0;
}

static int
sel_match(Sel *s, const IrIns *x)
{
	PtxType t = x->p.ntypes ? (PtxType)x->p.types[0] : PTX_T_NONE;
	int w = ptx_type_size(t) == 8;
	MRef a, d;

	if ((ptx_type_size(t) != 4 && !w) || x->p.nopds < 2 || D0->kind != PTX_OPD_REG)
		return sel_unsupported(s, "match.sync of this type");
	if (x->p.nopds > 2 && check_mask(s, &x->p.opds[2]) < 0)
		return -1;
	a = w ? sel_r64(s, S1) : sel_r32(s, S1, 0);
	if (a.v < 0)
		return -1;
	d = dreg(s, D0);
	if (x->p.mode == PTX_MODE_ANY && x->p.nopds > 2 && x->p.opds[2].kind == PTX_OPD_REG) {
		/* a mask in a register: lanes of other masks may match with
		   ours (as for redux); cut to the mask */
		MRef mt = sel_tmp(s, 1);
		mi(s->mf, "MATCH.ANY%s %D, %U", w ? ".U64" : "", mt, a);
		mi(s->mf, "LOP3.LUT %D, %U, %U, RZ, 0xc0, !PT", d, mt, sel_r32(s, &x->p.opds[2], 0));
	} else if (x->p.mode == PTX_MODE_ANY)
		mi(s->mf, "MATCH.ANY%s %D, %U", w ? ".U64" : "", d, a);
	else if (x->p.mode == PTX_MODE_ALL) {
		/* ptxas: MATCH.ALL P, R, R (the emulator reads its operands in
		 * another order): all equal <=> the lanes equal to mine are the
		 * active lanes (the members, in a valid program) */
		MRef m = sel_tmp(s, 1), act = sel_tmp(s, 1), p = dpred(s, D0);
		if (p.v == s->mf->pt)
			p = sel_ptmp(s);
		mi(s->mf, "MATCH.ANY%s %D, %U", w ? ".U64" : "", m, a);
		mi(s->mf, "VOTE.ANY %D, PT, PT", act);
		mi(s->mf, "ISETP.EQ.U32.AND %D, PT, %U, %U, PT", p, m, act);
		mi(s->mf, "SEL %D, %U, RZ, %U", d, act, p);
	} else
		return sel_unsupported(s, "this match mode");
	return 0;
}

static int
sel_elect(Sel *s, const IrIns *x)
{
	MRef u, p;

	if (s->sm < 90)
		return sel_unsupported(s, "elect.sync (sm_90 and later)");
	if (x->p.nopds < 1 || (D0->kind != PTX_OPD_REG && D0->kind != PTX_OPD_SINK))
		return sel_unsupported(s, "this form of elect.sync");
	if (x->p.nopds > 1 && check_mask(s, S1) < 0)
		return -1;
	u = mref(mvreg(s->mf, RC_UR, 1));
	s->mf->vr.v[u.v].tmp = 1;
	p = D0->reg2 >= 0 ? sel_reg(s, D0->reg2) : mref(s->mf->pt);
	mi(s->mf, "ELECT %D, %D, PT", p, u);
	if (D0->kind == PTX_OPD_REG)
		mi(s->mf, "MOV %D, %U", dreg(s, D0), u);
	return 0;
}

/* ---- barriers ---- */

static void
note_barrier(Sel *s, const PtxOperand *id)
{
	u64 v = 15;
	if (id->kind == PTX_OPD_IMM)
		sel_imm(id, &v);
	if (v + 1 > s->barriers)
		s->barriers = (u32)v + 1;
}

/* Barrier id and thread count operands (count may be absent). */
static int
bar_operands(Sel *s, const PtxOperand *id, const PtxOperand *cnt, char *txt, size_t n, MRef *r, int *nr)
{
	u64 v;

	*nr = 0;
	note_barrier(s, id);
	if (id->kind == PTX_OPD_IMM) {
		sel_imm(id, &v);
		if (v > 15)
			return sel_unsupported(s, "a barrier id above 15");
		str_printf(txt, n, "0x%x", (unsigned)v);
	} else {
		r[(*nr)++] = sel_r32(s, id, 0);
		str_printf(txt, n, "%%U");
	}
	if (!cnt)
		return 0;
	if (cnt->kind == PTX_OPD_IMM) {
		sel_imm(cnt, &v);
		if (!v || v % 32 || v > 1024)
			return sel_unsupported(s, "a barrier thread count that is not a multiple of 32 up to 1024");
		str_printf(txt + strlen(txt), n - strlen(txt), ", 0x%x", (unsigned)v);
		return 0;
	}
	if (*nr)
		return sel_unsupported(s, "a barrier with both its id and its thread count in registers");
	r[(*nr)++] = sel_r32(s, cnt, 0);
	str_printf(txt + strlen(txt), n - strlen(txt), ", %%U");
	return 0;
}

/* The instruction text with placeholder registers, for sel_can_encode. */
static int
bar_encodable(Sel *s, const char *op, const char *ops, const char *tail)
{
	char t[128], *q;
	str_printf(t, sizeof t, "%s %s%s", op, ops, tail);
	while ((q = strstr(t, "%U")))
		q[0] = 'R', q[1] = '2';
	return sel_can_encode(s, t);
}

static void
bar_emit(Sel *s, const char *op, const char *ops, const char *tail, MRef *r, int nr, MRef p)
{
	char fmt[128];
	str_printf(fmt, sizeof fmt, "%s %s%s", op, ops, tail);
	if (nr == 2)
		mi(s->mf, fmt, r[0], r[1], p);
	else if (nr == 1)
		mi(s->mf, fmt, r[0], p);
	else
		mi(s->mf, fmt, p);
}

/* bar.sync / barrier.sync / bar.arrive / barrier.arrive. */
static int
bar_common(Sel *s, const IrIns *x, int arrive)
{
	const char *op = arrive ? "BAR.ARV" : "BAR.SYNC.DEFER_BLOCKING";
	const PtxOperand *cnt = x->p.nopds > 1 ? S1 : NULL;
	char ops[64];
	MRef r[2];
	int nr;

	if (x->p.nopds < 1 || (arrive && !cnt))
		return sel_unsupported(s, "a barrier without an id (or bar.arrive without a thread count)");
	if (bar_operands(s, D0, cnt, ops, sizeof ops, r, &nr) < 0)
		return -1;
	if (s->sm < 90 && !arrive && (x->p.op == PTX_OP_barrier || x->p.op == PTX_OP_barrier_sync) &&
	    !(x->p.flags & PTX_F_ALIGNED))
		op = "BAR.SYNC";
	if (cnt && cnt->kind == PTX_OPD_IMM && !bar_encodable(s, op, ops, "")) {
		/* the tables know few immediate counts: the count in a register */
		MRef c = sel_r32(s, cnt, 0);
		if (nr)
			return sel_unsupported(s, "a barrier register id with this thread count");
		if (bar_operands(s, D0, NULL, ops, sizeof ops, r, &nr) < 0)
			return -1;
		strcat(ops, ", %U");
		r[nr++] = c;
	}
	if (!bar_encodable(s, op, ops, ""))
		return sel_unsupported(s, "this barrier form (the ISA tables cannot encode it)");
	{
		char fmt[128];
		str_printf(fmt, sizeof fmt, "%s %s", op, ops);
		if (nr == 2)
			mi(s->mf, fmt, r[0], r[1]);
		else if (nr == 1)
			mi(s->mf, fmt, r[0]);
		else
			mi(s->mf, fmt);
	}
	return 0;
}

static int
sel_bar_sync(Sel *s, const IrIns *x)
{
	return bar_common(s, x, 0);
}

static int
sel_bar_arrive(Sel *s, const IrIns *x)
{
	return bar_common(s, x, 1);
}

/* `bar` / `barrier` with a sub-operation in the modifiers. */
static int
sel_bar_any(Sel *s, const IrIns *x)
{
	if (x->p.flags & PTX_F_ARRIVE)
		return bar_common(s, x, 1);
	if (x->p.flags & PTX_F_RED)
		return sel_unsupported(s, "this bar.red form");
	return bar_common(s, x, 0);
}

/* bar.red.{popc.u32, and.pred, or.pred} d, a{, b}, {!}c */
static int
sel_bar_red(Sel *s, const IrIns *x)
{
	const char *op;
	const PtxOperand *cnt = x->p.nopds > 3 ? &x->p.opds[2] : NULL;
	const PtxOperand *c = &x->p.opds[x->p.nopds - 1];
	char ops[64], tail[8], ctail[8];
	MRef r[2], p;
	int nr, neg;

	switch (x->p.aop) {
	case PTX_AOP_POPC: op = "BAR.RED.POPC.DEFER_BLOCKING"; break;
	case PTX_AOP_AND: op = "BAR.RED.AND.DEFER_BLOCKING"; break;
	case PTX_AOP_OR: op = "BAR.RED.OR.DEFER_BLOCKING"; break;
	default: return sel_unsupported(s, "this bar.red operation");
	}
	if (x->p.nopds < 3 || D0->kind != PTX_OPD_REG)
		return sel_unsupported(s, "this form of bar.red");
	if (bar_operands(s, S1, cnt, ops, sizeof ops, r, &nr) < 0)
		return -1;
	p = sel_pred(s, c, &neg);
	if (p.v < 0)
		return -1;
	str_printf(tail, sizeof tail, ", %s%%U", neg ? "!" : "");
	str_printf(ctail, sizeof ctail, ", %sP0", neg ? "!" : "");
	if (!bar_encodable(s, op, ops, ctail))
		return sel_unsupported(s, "this bar.red form (the ISA tables cannot encode it)");
	bar_emit(s, op, ops, tail, r, nr, p);
	if (x->p.aop == PTX_AOP_POPC)
		mi(s->mf, "B2R.RESULT %D", dreg(s, D0));
	else
		mi(s->mf, "B2R.RESULT RZ, %D", sel_reg(s, D0->reg));
	return 0;
}

/* ---- memory barriers ---- */

static void
fence_emit(Sel *s, const char *kind, int scope)
{
	const char *sc = scope == PTX_SCOPE_CTA ? "CTA" : scope == PTX_SCOPE_SYS ? "SYS" : "GPU";
	mi(s->mf, "MEMBAR.%s.%s", kind, sc);
	if (scope == PTX_SCOPE_CTA)
		return;
	mi(s->mf, "ERRBAR");
	if (s->sm >= 90)
		mi(s->mf, "CGAERRBAR");
	mi(s->mf, "CCTL.IVALL");
}

/* membar.{cta,gl,sys} = fence.sc.{cta,gpu,sys}; fence.acq_rel.X: MEMBAR.ALL. */
static int
sel_membar(Sel *s, const IrIns *x)
{
	int sc = x->p.scope;
	if (sc != PTX_SCOPE_CTA && sc != PTX_SCOPE_GPU && sc != PTX_SCOPE_SYS)
		return sel_unsupported(s, "membar of this scope");
	fence_emit(s, "SC", sc);
	return 0;
}

static int
sel_fence(Sel *s, const IrIns *x)
{
	int sc = x->p.scope;
	/* fence.mbarrier_init.release.cluster (before a cluster sync makes the
	   mbarrier inits visible to the cluster's TMA multicasts): ptxas 13.0
	   emits only a NOP for it */
	if (ptx_has_mod(&x->p, PTX_M_mbarrier_init))
		return 0;
	/* .cluster (sm_90; cuda::atomic_thread_fence at thread_scope_cluster,
	   cuda::ptx::fence(.., scope_cluster)): ptxas 13.0 emits exactly its
	   .gpu sequence for fence.sc.cluster and fence.acq_rel.cluster */
	if (sc == PTX_SCOPE_CLUSTER && s->sm >= 90)
		sc = PTX_SCOPE_GPU;
	if (sc != PTX_SCOPE_CTA && sc != PTX_SCOPE_GPU && sc != PTX_SCOPE_SYS)
		return sel_unsupported(s, "fence of this scope (cta, gpu and sys are supported)");
	if (x->p.sem == PTX_SEM_SC)
		fence_emit(s, "SC", sc);
	else if (x->p.sem == PTX_SEM_ACQ_REL || x->p.sem == PTX_SEM_NONE)
		fence_emit(s, "ALL", sc);
	else
		return sel_unsupported(s, "this fence semantics");
	return 0;
}

static int
sel_nanosleep(Sel *s, const IrIns *x)
{
	MOpd t;
	u64 v;

	if (x->p.nopds != 1)
		return sel_unsupported(s, "this form of nanosleep");
	if (D0->kind == PTX_OPD_IMM && sel_imm(D0, &v)) {
		mi(s->mf, "NANOSLEEP %h", (unsigned)(u32)v);
		return 0;
	}
	t = mopd_reg(sel_r32(s, D0, 0));
	if (t.r.v < 0)
		return -1;
	mi(s->mf, "NANOSLEEP %O", t);
	return 0;
}

/* bar.warp.sync m: WARPSYNC (ptxas drops it where it knows the warp is
 * converged; we keep it, the reconvergence pass does not prove that). */
static int
sel_bar_warp(Sel *s, const IrIns *x)
{
	u64 v;
	MRef m;

	if (x->p.nopds != 1 || check_mask(s, D0) < 0)
		return x->p.nopds != 1 ? sel_unsupported(s, "this form of bar.warp.sync") : -1;
	if (sel_imm(D0, &v) && (u32)v == 0xffffffffu && sel_can_encode(s, "WARPSYNC.ALL")) {
		mi(s->mf, "WARPSYNC.ALL");
		return 0;
	}
	m = sel_r32(s, D0, 0);
	if (m.v < 0)
		return -1;
	if (m.v == s->mf->rz) { /* an empty mask: nothing to wait for */
		return 0;
	}
	mi(s->mf, "WARPSYNC %U", m);
	return 0;
}

/* ---- clusters (sm_90) ---- */

/* "Launched as a cluster" (c[0x0][0x140] == 1) as a predicate and as a
 * uniform predicate: ptxas branches on it; we predicate (UCGABAR takes
 * only uniform guards, written into the text).  Computed once per
 * function right after the prologue (block 0), far from the uses: the
 * latency model wants many cycles between UISETP and UCGABAR. */
static void
cluster_preds(Sel *s, MRef *p, MRef *up)
{
	MBlock *b0 = &s->mf->b.v[0];
	int cur = s->mf->cur, g = s->mf->guard, gn = s->mf->guard_neg, k;
	size_t i, at, n0;
	MRef r, ur;

	for (i = 0; i + 3 < b0->ins.n; i++)
		if (!strncmp(b0->ins.v[i].text, "LDC ", 4) && strstr(b0->ins.v[i].text, "c[0x0][0x140]") &&
		    !strncmp(b0->ins.v[i + 2].text, "ULDC ", 5)) {
			*p = b0->ins.v[i + 1].r[0];
			*up = b0->ins.v[i + 3].r[0];
			return;
		}
	at = sel_prologue_end(b0);
	r = mref(mvreg(s->mf, RC_R, 1));
	ur = mref(mvreg(s->mf, RC_UR, 1));
	*p = mref(mvreg(s->mf, RC_P, 1));
	*up = mref(mvreg(s->mf, RC_UP, 1));
	s->mf->guard = -1;
	s->mf->guard_neg = 0;
	s->mf->cur = 0;
	n0 = b0->ins.n;
	mi(s->mf, "LDC %D, c[0x0][0x140]", r);
	mi(s->mf, "ISETP.EQ.U32.AND %D, PT, %U, 0x1, PT", *p, r);
	mi(s->mf, "ULDC %D, c[0x0][0x140]", ur);
	mi(s->mf, "UISETP.EQ.U32.AND %D, UPT, %U, 0x1, UPT", *up, ur);
	b0 = &s->mf->b.v[0];
	for (k = 0; k < 4; k++) { /* rotate the four to position at */
		MIns m = b0->ins.v[n0 + k];
		memmove(&b0->ins.v[at + k + 1], &b0->ins.v[at + k], (n0 + k - at - k) * sizeof m);
		b0->ins.v[at + k] = m;
	}
	s->mf->cur = cur;
	s->mf->guard = g;
	s->mf->guard_neg = (u8)gn;
}

static int
cluster_check(Sel *s, const IrIns *x)
{
	if (s->sm < 90)
		return sel_unsupported(s, "cluster operations (sm_90 and later)");
	if (x->p.guard >= 0)
		return sel_unsupported(s, "a predicated barrier.cluster");
	return 0;
}

/* barrier.cluster.arrive{.release,.relaxed}: in a cluster launch a
 * release fence (unless .relaxed) and UCGABAR_ARV; nothing otherwise. */
static int
sel_cluster_arrive(Sel *s, const IrIns *x)
{
	MRef p, up;

	if (cluster_check(s, x) < 0)
		return -1;
	cluster_preds(s, &p, &up);
	if (x->p.sem != PTX_SEM_RELAXED) {
		s->mf->guard = p.v;
		mi(s->mf, "MEMBAR.ALL.GPU");
		mi(s->mf, "ERRBAR");
		mi(s->mf, "CGAERRBAR");
		s->mf->guard = -1;
	}
	mi(s->mf, "@%U UCGABAR_ARV", up);
	return 0;
}

/* barrier.cluster.wait{.acquire}: UCGABAR_WAIT + CCTL.IVALL in a cluster
 * launch, a CTA barrier (bar 0) otherwise. */
static int
sel_cluster_wait(Sel *s, const IrIns *x)
{
	MRef p, up;

	if (cluster_check(s, x) < 0)
		return -1;
	cluster_preds(s, &p, &up);
	mi(s->mf, "@%U UCGABAR_WAIT", up);
	s->mf->guard = p.v;
	mi(s->mf, "CCTL.IVALL");
	s->mf->guard_neg = 1;
	mi(s->mf, "BAR.SYNC.DEFER_BLOCKING 0x0");
	s->mf->guard = -1;
	s->mf->guard_neg = 0;
	if (!s->barriers)
		s->barriers = 1;
	return 0;
}

/* mapa: the same shared variable in CTA rank b of the cluster: the rank
 * byte (bits 24..31) of the address replaced (PRMT 0x654, as ptxas). */
static int
sel_mapa(Sel *s, const IrIns *x)
{
	MRef d, a, b;
	int w;

	if (s->sm < 90 || x->p.nopds != 3 || D0->kind != PTX_OPD_REG)
		return sel_unsupported(s, "mapa (sm_90 and later)");
	d = sel_reg(s, D0->reg);
	w = s->mf->vr.v[d.v].w;
	a = sel_r32(s, S1, 0);
	b = sel_r32(s, &x->p.opds[2], 0);
	if (a.v < 0 || b.v < 0)
		return -1;
	if (w == 2) {
		MRef hi = sel_r32(s, S1, 1), t = sel_tmp(s, 1);
		mi(s->mf, "PRMT %D, %U, 0x654, %U", t, b, a);
		sel_mov32(s, mpart(d.v, 1, 1), mopd_reg(hi));
		sel_mov32(s, mpart(d.v, 0, 1), mopd_reg(t));
	} else {
		mi(s->mf, "PRMT %D, %U, 0x654, %U", d, b, a);
	}
	return 0;
}

/* getctarank: the rank byte of a shared::cluster / generic address. */
static int
sel_getctarank(Sel *s, const IrIns *x)
{
	MRef a;

	if (s->sm < 90 || x->p.nopds != 2 || D0->kind != PTX_OPD_REG)
		return sel_unsupported(s, "getctarank (sm_90 and later)");
	a = sel_r32(s, S1, 0);
	if (a.v < 0)
		return -1;
	mi(s->mf, "SHF.R.U32.HI %D, RZ, 0x18, %U", dreg(s, D0), a);
	return 0;
}

const SelRule sel_rules_warp[] = {
	{PTX_OP_barrier_cluster_arrive, sel_cluster_arrive}, {PTX_OP_barrier_cluster_wait, sel_cluster_wait},
	{PTX_OP_mapa, sel_mapa}, {PTX_OP_getctarank, sel_getctarank},
	{PTX_OP_bar_warp_sync, sel_bar_warp},
	{PTX_OP_shfl, sel_shfl}, {PTX_OP_vote, sel_vote}, {PTX_OP_activemask, sel_activemask},
	{PTX_OP_redux, sel_redux}, {PTX_OP_match, sel_match}, {PTX_OP_elect, sel_elect},
	{PTX_OP_bar_sync, sel_bar_sync}, {PTX_OP_barrier_sync, sel_bar_sync},
	{PTX_OP_bar, sel_bar_any}, {PTX_OP_barrier, sel_bar_any},
	{PTX_OP_bar_arrive, sel_bar_arrive}, {PTX_OP_barrier_arrive, sel_bar_arrive},
	{PTX_OP_bar_red, sel_bar_red}, {PTX_OP_barrier_red, sel_bar_red},
	{PTX_OP_membar, sel_membar}, {PTX_OP_fence, sel_fence}, {PTX_OP_nanosleep, sel_nanosleep},
	{0, NULL},
};
