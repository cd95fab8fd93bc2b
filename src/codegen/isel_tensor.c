/* isel_tensor.c -- warp-level tensor core operations: mma.sync (HMMA /
 * IMMA, the shapes and types ptxas maps one to one onto an instruction)
 * ldmatrix (LDSM) and stmatrix (STSM, sm_90).  Fragments are PTX register lists {a0, a1, ...};
 * the SASS operands are aligned register groups, so the elements are
 * copied into a group before and out of it after (copy forwarding and the
 * allocator's hints remove most of those moves). */
#include <stdio.h>
#include <string.h>

#include "codegen/isel.h"

/* One mma.sync shape/type row: PTX modifiers -> SASS mnemonic and the
 * number of 32-bit registers of each fragment. */
typedef struct {
	int shape;            /* PTX_M_m16n8k16 ... */
	PtxType a, c;         /* A/B element type, C/D type */
	const char *sass;     /* mnemonic; IMMA takes .ROW/.COL on A/B */
	u8 na, nb, nc;
	u8 imma;
} MmaRow;

static const MmaRow mma_rows[] = {
	{PTX_M_m16n8k16, PTX_T_F16, PTX_T_F32, "HMMA.16816.F32", 4, 2, 4, 0},
	{PTX_M_m16n8k16, PTX_T_F16, PTX_T_F16, "HMMA.16816.F16", 4, 2, 2, 0},
	{PTX_M_m16n8k16, PTX_T_BF16, PTX_T_F32, "HMMA.16816.F32.BF16", 4, 2, 4, 0},
	{PTX_M_m16n8k8, PTX_T_F16, PTX_T_F32, "HMMA.1688.F32", 2, 1, 4, 0},
	{PTX_M_m16n8k8, PTX_T_F16, PTX_T_F16, "HMMA.1688.F16", 2, 1, 2, 0},
	{PTX_M_m16n8k8, PTX_T_BF16, PTX_T_F32, "HMMA.1688.F32.BF16", 2, 1, 4, 0},
	{PTX_M_m16n8k8, PTX_T_TF32, PTX_T_F32, "HMMA.1688.F32.TF32", 4, 2, 4, 0},
	{PTX_M_m16n8k32, PTX_T_S8, PTX_T_S32, "IMMA.16832.S8.S8", 4, 2, 4, 1},
	{PTX_M_m16n8k32, PTX_T_U8, PTX_T_S32, "IMMA.16832.U8.U8", 4, 2, 4, 1},
	{PTX_M_m16n8k16, PTX_T_S8, PTX_T_S32, "IMMA.16816.S8.S8", 2, 1, 4, 1},
	{PTX_M_m16n8k16, PTX_T_U8, PTX_T_S32, "IMMA.16816.U8.U8", 2, 1, 4, 1},
};

/* Copy a group out into the elements of a register list. */
static int
group_out(Sel *s, const PtxOperand *o, int n, MRef g)
{
	int i;

	for (i = 0; i < n; i++) {
		const PtxOperand *e = &o->elems[i];
		MRef d;
		if (e->kind != PTX_OPD_REG)
			return sel_unsupported(s, "a fragment element that is not a register");
		d = sel_reg(s, e->reg);
		sel_mov32(s, d, mopd_reg(n == 1 ? g : mpart(g.v, i, 1)));
	}
	return 0;
}

static int
has(const IrIns *x, int m)
{
	return ptx_has_mod(&x->p, (PtxModId)m);
}

static int
sel_mma(Sel *s, const IrIns *x)
{
	const PtxInstr *in = &x->p;
	const MmaRow *r = NULL;
	PtxType ta, tc;
	MRef A, B, C, D;
	size_t i;

	if (in->ntypes < 4 || in->nopds != 4 || !has(x, PTX_M_row) || !has(x, PTX_M_col))
		return sel_unsupported(s, "mma.sync other than .row.col with four types");
	ta = (PtxType)in->types[1];
	tc = (PtxType)in->types[3];
	if (in->types[2] != in->types[1] || in->types[0] != in->types[3] || (in->flags & PTX_F_SATFINITE))
		return sel_unsupported(s, "mma.sync with mixed A/B types, a D type other than C's, or .satfinite");
	for (i = 0; i < NELEM(mma_rows); i++)
		if (has(x, mma_rows[i].shape) && mma_rows[i].a == ta && mma_rows[i].c == tc)
			r = &mma_rows[i];
	if (!r)
		return sel_unsupported(s, "this mma.sync shape/type (m16n8k16/k8 f16/bf16/tf32, m16n8k32/k16 s8/u8 are)");
	if (sel_group_in(s, &in->opds[1], NULL, r->na, &A) < 0 || sel_group_in(s, &in->opds[2], NULL, r->nb, &B) < 0 ||
	    sel_group_in(s, &in->opds[3], NULL, r->nc, &C) < 0)
		return -1;
	D = sel_tmp(s, r->nc);
	if (r->imma)
		mi(s->mf, "%s %D, %U.ROW, %U.COL, %U", r->sass, D, A, B, C);
	else
		mi(s->mf, "%s %D, %U, %U, %U", r->sass, D, A, B, C);
	return group_out(s, &in->opds[0], r->nc, D);
}

static int
sel_ldmatrix(Sel *s, const IrIns *x)
{
	const PtxInstr *in = &x->p;
	const PtxOperand *a = &in->opds[1];
	int n = has(x, PTX_M_x4) ? 4 : has(x, PTX_M_x2) ? 2 : 1, sp = in->nspaces ? in->space[0] : PTX_S_SHARED;
	MRef base, D;
	char off[24] = "", op[32];

	if (!has(x, PTX_M_m8n8) || sp != PTX_S_SHARED || a->kind != PTX_OPD_ADDR || a->reg < 0)
		return sel_unsupported(s, "ldmatrix other than .m8n8 from a shared address in a register");
	base = sel_reg(s, a->reg);
	if (s->mf->vr.v[base.v].w > 1)
		base = mpart(base.v, 0, 1);
	if (a->imm < 0) {
		/* LDSM's offset is unsigned: add a negative one first */
		MRef t = sel_tmp(s, 1);
		mi(s->mf, "IADD3 %D, %U, %x, RZ", t, base, (i32)a->imm);
		base = t;
	} else {
		sel_offtxt(off, sizeof off, a->imm);
	}
	D = sel_tmp(s, n == 1 ? 1 : n);
	/* x1 has no count suffix: LDSM.16.M88 */
	str_printf(op, sizeof op, "LDSM.16.%s%s", (in->flags & PTX_F_TRANS) ? "MT88" : "M88",
		 n == 4 ? ".4" : n == 2 ? ".2" : "");
	mi(s->mf, "%s %D, [%U%s]", op, D, base, off);
	if (n == 1) {
		if (in->opds[0].kind == PTX_OPD_VEC && in->opds[0].nelems == 1)
			return group_out(s, &in->opds[0], 1, D);
		sel_mov32(s, sel_reg(s, in->opds[0].reg), mopd_reg(D));
		return 0;
	}
	if (in->opds[0].kind != PTX_OPD_VEC || in->opds[0].nelems != n)
		return sel_unsupported(s, "ldmatrix destination that is not a list of its registers");
	return group_out(s, &in->opds[0], n, D);
}

/* stmatrix.sync.aligned.m8n8.xN[.trans].shared.b16 [a], {r..}: STSM.16.
 * {M88,MT88}[.2|.4] [Ra+off], Rq (read off ptxas 13.0; the offset is
 * signed, unlike LDSM's). */
static int
sel_stmatrix(Sel *s, const IrIns *x)
{
	const PtxInstr *in = &x->p;
	const PtxOperand *a = &in->opds[0], *v = &in->opds[1];
	int n = has(x, PTX_M_x4) ? 4 : has(x, PTX_M_x2) ? 2 : 1, sp = in->nspaces ? in->space[0] : PTX_S_SHARED;
	MRef base, S;
	char off[24] = "";

	if (s->sm < 90)
		return sel_unsupported(s, "stmatrix before sm_90");
	if (!has(x, PTX_M_m8n8) || sp != PTX_S_SHARED || a->kind != PTX_OPD_ADDR || a->reg < 0)
		return sel_unsupported(s, "stmatrix other than .m8n8 to a shared address in a register");
	base = sel_reg(s, a->reg);
	if (s->mf->vr.v[base.v].w > 1)
		base = mpart(base.v, 0, 1);
	sel_offtxt(off, sizeof off, a->imm);
	if (v->kind == PTX_OPD_VEC && v->nelems == n) {
		if (sel_group_in(s, v, NULL, n, &S) < 0)
			return -1;
	} else if (n == 1 && v->kind == PTX_OPD_REG)
		S = sel_reg(s, v->reg);
	else
		return sel_unsupported(s, "stmatrix source that is not a list of its registers");
	mi(s->mf, "STSM.16.%s%s [%U%s], %U", (in->flags & PTX_F_TRANS) ? "MT88" : "M88",
	   n == 4 ? ".4" : n == 2 ? ".2" : "", base, off, S);
	return 0;
}

const SelRule sel_rules_tensor[] = {
	{PTX_OP_mma, sel_mma}, {PTX_OP_ldmatrix, sel_ldmatrix}, {PTX_OP_stmatrix, sel_stmatrix},
	{0, NULL},
};
