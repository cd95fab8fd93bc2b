/* isel_tma.c -- TMA tensor copies (sm_90), as ptxas 13.0 lowers them
 * (docs/compiler-tma.md):
 *
 *   cp.async.bulk.tensor.Nd.shared::cluster.global[.tile].mbarrier::complete_tx::bytes
 *       [dst], [tmap, {c}], [mbar]{, ctaMask}{, policy}
 *     -> UTMALDG.ND[.MULTICAST] [URa], [URt]{, URm}{, desc[URp]}
 *        URa.. = {dst, mbar, c0..}, URt:URt+1 = the map's generic address
 *   cp.async.bulk.tensor.Nd.global.shared::cta[.tile].bulk_group [tmap, {c}], [src]{, policy}
 *     -> UTMASTG.ND [URa], [URt]{, desc[URp]}    URa.. = {src, c0..}
 *   cp.reduce.async.bulk.tensor.Nd.global.shared::cta.OP[.tile].bulk_group ...
 *     -> UTMAREDG.ND.OP [URa], [URt]
 *   cp.async.bulk.prefetch.tensor.Nd.L2.global[.tile] [tmap, {c}]{, policy}
 *     -> UTMAPF.L2.ND [URc], [URt]                URc.. = {c0..}
 *   prefetch{,.global,.param,.const}.tensormap [a] -> UTMACCTL.PF [URa]
 *   cp.async.bulk.commit_group -> UTMACMDFLUSH; cp.async.bulk.wait_group[.read] n
 *     -> DEPBAR.LE SB0, n (+ CCTL.IVALL without .read)
 *   fence.proxy.tensormap::generic.release -> MEMBAR.ALL.GPU; ERRBAR; CGAERRBAR,
 *     .acquire [a], 128 -> DEPBAR {5,4,3,2,1,0}; UTMACCTL.IV [URa]
 *
 * Every copy runs once per active thread (PTX): a waterfall (isel_mbar.c)
 * issues it for one elected lane at a time, R2UR of that lane's operands.
 * The register groups are aligned like ptxas's (a group of 3 takes 4). */
#include <stdio.h>

#include "codegen/isel.h"

enum { LOAD, STORE, RED, PF };

typedef struct {
	int kind, n, mc, hint;
	const char *red;
	MRef grp, map, mask, pol;
} Tma;

static void
body(Sel *s, const MRef *u, void *ctx)
{
	static const char *const op[] = { "UTMALDG", "UTMASTG", "UTMAREDG", "UTMAPF.L2" };
	const Tma *t = ctx;
	char m[32], p[32] = "";

	(void)u;
	if (t->hint)
		str_printf(p, sizeof p, ", desc[%%U]");
	str_printf(m, sizeof m, "%s.%dD%s%s", op[t->kind], t->n, t->red ? t->red : "", t->mc ? ".MULTICAST" : "");
	if (t->mc && t->hint)
		mi(s->mf, "%s [%U], [%U], %U, desc[%U]", m, t->grp, t->map, t->mask, t->pol);
	else if (t->mc)
		mi(s->mf, "%s [%U], [%U], %U", m, t->grp, t->map, t->mask);
	else if (t->hint)
		mi(s->mf, "%s [%U], [%U], desc[%U]", m, t->grp, t->map, t->pol);
	else
		mi(s->mf, "%s [%U], [%U]", m, t->grp, t->map);
}

/* A shared address operand as one register. */
static MRef
shared_reg(Sel *s, const PtxOperand *o)
{
	MRef b;
	i64 off;

	if (o->kind != PTX_OPD_ADDR) {
		sel_unsupported(s, "this TMA shared-memory operand");
		return (MRef){ -1, 0, 0 };
	}
	if (sel_address(s, o, PTX_S_SHARED, &b, &off) < 0)
		return (MRef){ -1, 0, 0 };
	return sel_addr_reg(s, b, off);
}

static int
sel_tma(Sel *s, const IrIns *x)
{
	static const struct { int aop; const char *m; } reds[] = {
		{ PTX_AOP_ADD, ".ADD" }, { PTX_AOP_MIN, ".MIN" }, { PTX_AOP_MAX, ".MAX" }, { PTX_AOP_INC, ".INC" },
		{ PTX_AOP_DEC, ".DEC" }, { PTX_AOP_AND, ".AND" }, { PTX_AOP_OR, ".OR" }, { PTX_AOP_XOR, ".XOR" },
	};
	const PtxInstr *in = &x->p;
	int glob = in->nspaces > 0 && in->space[0] == PTX_S_GLOBAL, k = 0, ti, w, nr = 0, i;
	const PtxOperand *tm, *cv;
	MRef r[16], u[16], a[2], gb;
	Tma t = { 0 };
	i64 goff;

	if (s->sm < 90)
		return sel_unsupported(s, "TMA (cp.async.bulk.tensor and kin: sm_90 and later)");
	t.kind = in->op == PTX_OP_cp_async_bulk_prefetch_tensor ? PF : in->op == PTX_OP_cp_reduce_async_bulk_tensor ? RED :
		 glob ? STORE : LOAD;
	t.n = ptx_tensor_dims(in);
	t.mc = !!(in->flags & PTX_F_MULTICAST);
	t.hint = !!(in->flags & PTX_F_CACHE_HINT);
	if (ptx_has_mod(in, PTX_M_im2col) || ptx_has_mod(in, PTX_M_im2col_no_offs) || ptx_has_mod(in, PTX_M_tile_gather4) ||
	    ptx_has_mod(in, PTX_M_tile_scatter4) || ptx_has_mod(in, PTX_M_im2col_w) || ptx_has_mod(in, PTX_M_im2col_w_128))
		return sel_unsupported(s, "TMA other than the .tile mode (im2col, gather4/scatter4)");
	if (t.kind == RED) {
		for (i = 0; i < (int)(sizeof reds / sizeof *reds); i++)
			if (in->aop == reds[i].aop)
				t.red = reds[i].m;
		if (!t.red)
			return sel_unsupported(s, "this cp.reduce.async.bulk.tensor operation");
	}
	if (t.kind == LOAD && (!ptx_has_mod(in, PTX_M_mbarrier_complete_tx_bytes) || in->nspaces != 2 ||
			       in->space[0] != PTX_S_SHARED_CLUSTER))
		return sel_unsupported(s, "cp.async.bulk.tensor other than .shared::cluster.global...mbarrier::complete_tx::bytes "
					  "or .global.shared::cta...bulk_group");
	ti = t.kind == LOAD ? 1 : 0;
	tm = &in->opds[ti];
	if (!t.n || tm->kind != PTX_OPD_ADDR || tm->reg < 0 || tm->nelems != 1 ||
	    (cv = &tm->elems[0])->kind != PTX_OPD_VEC || cv->nelems != t.n)
		return sel_unsupported(s, "this TMA operand form (want [map-register, {N coordinates}])");
	if (in->nopds != (t.kind == PF ? 1 : 2) + (t.kind == LOAD) + t.mc + t.hint)
		return sel_unsupported(s, "this TMA operand form");
	/* the group: {smem, mbar}, {smem} or {}, then the coordinates */
	if (t.kind == LOAD) {
		r[nr++] = shared_reg(s, &in->opds[0]);
		r[nr++] = shared_reg(s, &in->opds[2]);
	} else if (t.kind != PF)
		r[nr++] = shared_reg(s, &in->opds[1]);
	for (i = 0; i < nr; i++)
		if (r[i].v < 0)
			return -1;
	for (i = 0; i < t.n; i++)
		r[nr++] = sel_r32(s, &cv->elems[i], 0);
	w = nr == 3 ? 4 : nr;
	t.grp = sel_ur_tmp(s, w);
	for (i = 0; i < nr; i++)
		u[i] = mpart(t.grp.v, i, 1);
	if (w > nr)
		mi(s->mf, "UMOV %D, URZ", mpart(t.grp.v, nr, 1));
	/* the map's address */
	if (sel_address(s, tm, PTX_S_GLOBAL, &gb, &goff) < 0)
		return -1;
	gb = sel_gaddr(s, gb, goff);
	t.map = sel_ur_tmp(s, 2);
	a[0] = mpart(gb.v, gb.sub, 1);
	a[1] = mpart(gb.v, gb.sub + 1, 1);
	for (i = 0; i < 2; i++, k++) {
		r[nr + k] = a[i];
		u[nr + k] = mpart(t.map.v, i, 1);
	}
	if (t.mc) {   /* ctaMask in bits 16..31 (ptxas: UMOV UR, 0x30000 for 3) */
		MRef m = sel_tmp(s, 1);
		mi(s->mf, "SHF.L.U32 %D, %U, 0x10, RZ", m, sel_r32(s, &in->opds[3], 0));
		t.mask = sel_ur_tmp(s, 1);
		r[nr + k] = m;
		u[nr + k++] = t.mask;
	}
	if (t.hint) {
		MRef p = sel_r64(s, &in->opds[in->nopds - 1]);
		t.pol = sel_ur_tmp(s, 2);
		for (i = 0; i < 2; i++, k++) {
			r[nr + k] = mpart(p.v, p.sub + i, 1);
			u[nr + k] = mpart(t.pol.v, i, 1);
		}
	}
	sel_waterfall(s, r, u, nr + k, body, &t, 0);
	return 0;
}

/* prefetch.tensormap [a]: UTMACCTL.PF [URa] of a generic or global
 * address; prefetch.param.tensormap [p] of a kernel parameter p: its
 * generic address c[0x0][0x198] + offset (ptxas). */
int
sel_tmap_prefetch(Sel *s, const IrIns *x)
{
	const PtxInstr *in = &x->p;
	const PtxOperand *o = &in->opds[0];
	int sp = in->nspaces ? in->space[0] : PTX_S_GENERIC, i;
	MRef b, ua = sel_ur_tmp(s, 2);
	i64 off;

	if (s->sm < 90)
		return sel_unsupported(s, "prefetch.tensormap (sm_90 and later)");
	if (sp == PTX_S_PARAM && o->kind == PTX_OPD_ADDR && o->reg < 0 && o->var && s->fn->is_entry) {
		for (i = 0; i < s->fn->nparams && &s->fn->params[i] != o->var; i++)
			;
		if (i == s->fn->nparams)
			return sel_unsupported(s, "prefetch.param.tensormap of this symbol");
		b = sel_tmp(s, 2);
		mi(s->mf, "LDC.64 %D, c[0x0][0x198]", b);
		b = sel_gaddr(s, b, s->param_off[i] + o->imm);
	} else if ((sp == PTX_S_GENERIC || sp == PTX_S_GLOBAL || sp == PTX_S_NONE) && o->kind == PTX_OPD_ADDR &&
		   o->reg >= 0) {
		if (sel_address(s, o, PTX_S_GLOBAL, &b, &off) < 0)
			return -1;
		b = sel_gaddr(s, b, off);
	} else
		return sel_unsupported(s, "prefetch.tensormap other than of a register or kernel parameter address");
	mi(s->mf, "R2UR %D, %U", mpart(ua.v, 0, 1), mpart(b.v, b.sub, 1));
	mi(s->mf, "R2UR %D, %U", mpart(ua.v, 1, 1), mpart(b.v, b.sub + 1, 1));
	mi(s->mf, "UTMACCTL.PF [%U]", ua);
	return 0;
}

static int
sel_bulk_group(Sel *s, const IrIns *x)
{
	u64 n = 0;

	if (s->sm < 90)
		return sel_unsupported(s, "cp.async.bulk groups (sm_90 and later)");
	if (x->p.op == PTX_OP_cp_async_bulk_commit_group) {
		mi(s->mf, "UTMACMDFLUSH");
		return 0;
	}
	if (!x->p.nopds || !sel_imm(&x->p.opds[0], &n) || n > 63)
		return sel_unsupported(s, "cp.async.bulk.wait_group without an immediate count");
	mi(s->mf, "DEPBAR.LE SB0, %h", (u32)n);
	if (!ptx_has_mod(&x->p, PTX_M_read))
		mi(s->mf, "CCTL.IVALL");
	return 0;
}

/* fence.proxy.tensormap::generic.release: MEMBAR.ALL.GPU; ERRBAR;
 * CGAERRBAR.  .acquire [a], 128: DEPBAR on every scoreboard, then
 * UTMACCTL.IV [URa] (invalidate the map's cached copy), as ptxas. */
int
sel_tmap_fence(Sel *s, const IrIns *x)
{
	const PtxInstr *in = &x->p;
	MRef b, ua;
	i64 off;

	if (s->sm < 90)
		return sel_unsupported(s, "fence.proxy.tensormap (sm_90 and later)");
	if (in->sem == PTX_SEM_RELEASE && !in->nopds) {
		mi(s->mf, "MEMBAR.ALL.GPU");
		mi(s->mf, "ERRBAR");
		mi(s->mf, "CGAERRBAR");
		return 0;
	}
	if (in->sem != PTX_SEM_ACQUIRE || in->nopds != 2 || in->opds[0].kind != PTX_OPD_ADDR || in->opds[0].reg < 0)
		return sel_unsupported(s, "this form of fence.proxy.tensormap::generic");
	if (sel_address(s, &in->opds[0], PTX_S_GLOBAL, &b, &off) < 0)
		return -1;
	b = sel_gaddr(s, b, off);
	ua = sel_ur_tmp(s, 2);
	mi(s->mf, "R2UR %D, %U", mpart(ua.v, 0, 1), mpart(b.v, b.sub, 1));
	mi(s->mf, "R2UR %D, %U", mpart(ua.v, 1, 1), mpart(b.v, b.sub + 1, 1));
	mi(s->mf, "DEPBAR {5,4,3,2,1,0}");
	mi(s->mf, "UTMACCTL.IV [%U]", ua);
	return 0;
}

const SelRule sel_rules_tma[] = {
	{PTX_OP_cp_async_bulk_tensor, sel_tma}, {PTX_OP_cp_reduce_async_bulk_tensor, sel_tma},
	{PTX_OP_cp_async_bulk_prefetch_tensor, sel_tma},
	{PTX_OP_cp_async_bulk_commit_group, sel_bulk_group}, {PTX_OP_cp_async_bulk_wait_group, sel_bulk_group},
	{0, NULL},
};
