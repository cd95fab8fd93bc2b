/* isel_async.c -- asynchronous copies: cp.async (LDGSTS), its groups
 * (LDGDEPBAR, DEPBAR.LE SB0, n). */
#include <stdio.h>

#include "codegen/isel.h"

/* The copy predicate of cp.async's src-size operand: 1 copies, 0 zero-fills.
 * Returns 0 with *p = -1 (always copy) or a predicate, -1 if src-size may
 * be a partial size (not supported). */
static int
src_pred(Sel *s, const PtxOperand *o, int cp, MRef *p, int *neg)
{
	const PtxInstr *d;
	u64 a, b;

	*neg = 0;
	p->v = -1;
	if (o->kind == PTX_OPD_IMM)
		return o->imm == cp ? 0 : -1;
	if (o->kind != PTX_OPD_REG || !(d = sel_only_def(s, o->reg)) || d->guard >= 0)
		return -1;
	if (d->op == PTX_OP_mov) /* mov.u32 %r, 16: CUTLASS's cp_async_zfill with a constant */
		return sel_imm(&d->opds[1], &a) && a == (u64)cp ? 0 : -1;
	if (d->op != PTX_OP_selp || !sel_imm(&d->opds[1], &a) || !sel_imm(&d->opds[2], &b) ||
	    d->opds[3].kind != PTX_OPD_REG)
		return -1;
	if (a == (u64)cp && b == 0)
		*neg = d->opds[3].neg;
	else if (a == 0 && b == (u64)cp)
		*neg = !d->opds[3].neg;
	else
		return -1;
	*p = sel_reg(s, d->opds[3].reg);
	return 0;
}

static int
sel_cp_async(Sel *s, const IrIns *x)
{
	const PtxInstr *in = &x->p;
	const PtxOperand *dst = &in->opds[0], *src = &in->opds[1];
	u64 cp;
	i64 doff, goff;
	MRef sb, gb, p;
	int neg;
	char mn[48], so[24] = "", go[24] = "";

	if (in->nopds < 3 || !sel_imm(&in->opds[2], &cp) || (cp != 4 && cp != 8 && cp != 16) ||
	    dst->kind != PTX_OPD_ADDR || dst->reg < 0 || src->kind != PTX_OPD_ADDR || src->reg < 0 ||
	    in->nspaces != 2 || in->space[0] != PTX_S_SHARED || in->space[1] != PTX_S_GLOBAL)
		return sel_unsupported(s, "cp.async other than [shared reg], [global reg], 4|8|16");
	if (in->nopds > 4 || (in->flags & PTX_F_CACHE_HINT))
		return sel_unsupported(s, "cp.async with a cache policy or prefetch size operand");
	if (in->nopds == 4) {
		if (src_pred(s, &in->opds[3], (int)cp, &p, &neg) < 0)
			return sel_unsupported(s, "cp.async with a src-size that may be neither 0 nor the copy size");
	} else {
		p.v = -1;
	}
	/* sel_address: base and offset, [r] of `add r, y, imm` as [y+imm] */
	if (sel_address(s, dst, PTX_S_SHARED, &sb, &doff) < 0 || sel_address(s, src, PTX_S_GLOBAL, &gb, &goff) < 0)
		return -1;
	if (doff < 0) /* global offsets are signed (ptxas: [R2.64+-0x80]) */
		return sel_unsupported(s, "cp.async with a negative shared address offset");
	sel_offtxt(so, sizeof so, doff);
	sel_offtxt(go, sizeof go, goff);
	snprintf(mn, sizeof mn, "LDGSTS.E%s%s", in->cache == PTX_CACHE_CG ? ".BYPASS" : "",
		 cp == 8 ? ".64" : cp == 16 ? ".128" : "");
	if (p.v >= 0)
		mi(s->mf, neg ? "%s [%U%s], %s[%U.64%s], !%U" : "%s [%U%s], %s[%U.64%s], %U", mn, sb, so,
		   sel_gdesc(s), gb, go, p);
	else
		mi(s->mf, "%s [%U%s], %s[%U.64%s]", mn, sb, so, sel_gdesc(s), gb, go);
	return 0;
}

static int
sel_commit(Sel *s, const IrIns *x)
{
	(void)x;
	mi(s->mf, "LDGDEPBAR");
	return 0;
}

static int
sel_wait(Sel *s, const IrIns *x)
{
	u64 n = 0;

	if (x->p.op == PTX_OP_cp_async_wait_group && (!x->p.nopds || !sel_imm(&x->p.opds[0], &n) || n > 63))
		return sel_unsupported(s, "cp.async.wait_group without an immediate count");
	mi(s->mf, "DEPBAR.LE SB0, %h", (u32)n);
	return 0;
}

const SelRule sel_rules_async[] = {
	{PTX_OP_cp_async, sel_cp_async}, {PTX_OP_cp_async_commit_group, sel_commit},
	{PTX_OP_cp_async_wait_group, sel_wait}, {PTX_OP_cp_async_wait_all, sel_wait},
	{0, NULL},
};
