/* isel_async.c -- asynchronous copies: cp.async (LDGSTS), its groups
 * (LDGDEPBAR, DEPBAR.LE SB0, n). */
#include <stdio.h>

#include "codegen/isel.h"

/* The copy predicate of cp.async's src-size operand (or ignore-src
 * predicate): 1 copies, 0 zero-fills.
 * Returns 0 with *p = -1 (always copy) or a predicate, -1 if src-size may
 * be a partial size (zfill_addr). */
static int
src_pred(Sel *s, const PtxOperand *o, int cp, MRef *p, int *neg)
{
	const PtxInstr *d;
	u64 a, b;

	*neg = 0;
	p->v = -1;
	if (o->kind == PTX_OPD_IMM)
		return o->imm == cp ? 0 : -1;
	if (o->kind == PTX_OPD_REG && s->fn->regs[o->reg].type == PTX_T_PRED) {
		/* ignore-src: a true predicate zero-fills, so it copies on the negation */
		*p = sel_reg(s, o->reg);
		*neg = !o->neg;
		return 0;
	}
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

/* base + z (a register, or none: z.v < 0) + off, a 64-bit add. */
static MRef
add64(Sel *s, MRef base, MRef z, i64 off)
{
	MRef a = sel_tmp(s, 2), c = sel_ptmp(s);

	if (z.v < 0)
		z = mref(s->mf->rz);
	mi(s->mf, "IADD3 %D, %D, %U, %x, %U", mpart(a.v, 0, 1), c, mpart(base.v, base.sub, 1), (u32)off, z);
	mi(s->mf, "IADD3.X %D, %U, %x, RZ, %U, !PT", mpart(a.v, 1, 1), mpart(base.v, base.sub + 1, 1),
	   (u32)((u64)off >> 32), c);
	return a;
}

/* A src-size n in a register, as ptxas: LDGSTS.ZFILL copies cp - z bytes from
 * the address rounded down to cp and zero-fills z, where z is the address's
 * low bits; so the address gains (cp - n) & (cp - 1), and the predicate
 * n != 0 zero-fills the whole copy when n is 0.  Returns the new base. */
static MRef
zfill_addr(Sel *s, const PtxOperand *o, int cp, MRef gb, MRef *p)
{
	MRef n = sel_r32(s, o, 0), z = sel_tmp(s, 1);

	if (n.v < 0)
		return n;
	*p = sel_ptmp(s);
	mi(s->mf, "ISETP.NE.U32.AND %D, PT, %U, RZ, PT", *p, n);
	mi(s->mf, "IADD3 %D, -%U, %x, RZ", z, n, cp);
	mi(s->mf, "LOP3.LUT %D, %U, %x, RZ, 0xc0, !PT", z, z, cp - 1);
	return add64(s, gb, z, 0);
}

static int
sel_cp_async(Sel *s, const IrIns *x)
{
	const PtxInstr *in = &x->p;
	const PtxOperand *dst = &in->opds[0], *src = &in->opds[1];
	u64 cp;
	i64 doff, goff;
	MRef sb, gb, p;
	int neg = 0, zfill;
	char mn[48], so[24] = "", go[24] = "";

	if (in->nopds < 3 || !sel_imm(&in->opds[2], &cp) || (cp != 4 && cp != 8 && cp != 16) ||
	    dst->kind != PTX_OPD_ADDR || dst->reg < 0 || src->kind != PTX_OPD_ADDR || src->reg < 0 ||
	    in->nspaces != 2 || in->space[0] != PTX_S_SHARED || in->space[1] != PTX_S_GLOBAL)
		return sel_unsupported(s, "cp.async other than [shared reg], [global reg], 4|8|16");
	if (in->nopds > 4 || (in->flags & PTX_F_CACHE_HINT))
		return sel_unsupported(s, "cp.async with a cache policy or prefetch size operand");
	zfill = in->nopds == 4 && src_pred(s, &in->opds[3], (int)cp, &p, &neg) < 0;
	if (in->nopds < 4)
		p.v = -1;
	/* sel_address: base and offset, [r] of `add r, y, imm` as [y+imm] */
	if (sel_address(s, dst, PTX_S_SHARED, &sb, &doff) < 0 || sel_address(s, src, PTX_S_GLOBAL, &gb, &goff) < 0)
		return -1;
	if (zfill && (gb = zfill_addr(s, &in->opds[3], (int)cp, gb, &p)).v < 0)
		return -1;
	if (doff < 0)
		return sel_unsupported(s, "cp.async with a negative shared address offset");
	if (goff < -0x800 || goff > 0x7ff) { /* LDGSTS's global offset: signed 12 bits */
		gb = add64(s, gb, mref(-1), goff);
		goff = 0;
	}
	sel_offtxt(so, sizeof so, doff);
	sel_offtxt(go, sizeof go, goff);
	str_printf(mn, sizeof mn, "LDGSTS.E%s%s%s", in->cache == PTX_CACHE_CG ? ".BYPASS" : "",
		 cp == 8 ? ".64" : cp == 16 ? ".128" : "", zfill ? ".ZFILL" : "");
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
