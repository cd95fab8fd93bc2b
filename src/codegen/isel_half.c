/* isel_half.c -- f16, bf16, f16x2 and bf16x2 arithmetic: add sub mul fma
 * (.rn .ftz .sat .relu), neg abs, min max (.NaN), setp (scalar, and the
 * p|q pair of the x2 forms).  Reached from the float and integer
 * families' f16/bf16 cases (sel_half_*).
 *
 * A scalar half lives in the low 16 bits of its register (the bits above
 * are undefined: HADD2 on .H0_H0 operands writes the result to both
 * halves); every source is read through .H0_H0.  The SASS is ptxas 13.0's:
 * HADD2/HMUL2/HFMA2 on scalars, HFMA2.MMA (a*1+b, a*b-0) on pairs,
 * .BF16_V2 for bf16 (add/sub/mul of bf16 need sm_90, as in ptxas),
 * HMNMX2 with PT = min; neg and abs flip or clear sign bits (LOP3). */
#include <stdio.h>

#include "codegen/isel.h"

#define D0 (&x->p.opds[0])
#define S1 (&x->p.opds[1])
#define S2 (&x->p.opds[2])
#define S3 (&x->p.opds[3])

int
sel_is_half(PtxType t)
{
	return t == PTX_T_F16 || t == PTX_T_BF16 || t == PTX_T_F16X2 || t == PTX_T_BF16X2;
}

static PtxType
ty(const IrIns *x)
{
	return (PtxType)x->p.types[0];
}

static int
is_bf(const IrIns *x)
{
	return ty(x) == PTX_T_BF16 || ty(x) == PTX_T_BF16X2;
}

static int
is_x2(const IrIns *x)
{
	return ty(x) == PTX_T_F16X2 || ty(x) == PTX_T_BF16X2;
}

/* Operand selector: ".H0_H0" for scalars, none for pairs. */
static const char *
hs(const IrIns *x)
{
	return is_x2(x) ? "" : ".H0_H0";
}

static MRef
src(Sel *s, const PtxOperand *o)
{
	return sel_r32(s, o, 0);
}

/* Modifier suffix: .BF16_V2, .FTZ, .SAT, .RELU in ptxas's order. */
static int
mods(Sel *s, const IrIns *x, char *m, size_t n, int relu_ok)
{
	u32 f = x->p.flags;

	if (x->p.rnd && x->p.rnd != PTX_RND_RN)
		return sel_unsupported(s, "f16/bf16 arithmetic rounding other than .rn");
	if (is_bf(x) && (f & (PTX_F_FTZ | PTX_F_SAT)))
		return sel_unsupported(s, "bf16 arithmetic with .ftz or .sat");
	if ((f & PTX_F_RELU) && !relu_ok)
		return sel_unsupported(s, ".relu on this f16/bf16 operation");
	if ((f & PTX_F_RELU) && (f & PTX_F_SAT))
		return sel_unsupported(s, ".relu with .sat");
	str_printf(m, n, "%s%s%s%s", is_bf(x) ? ".BF16_V2" : "", f & PTX_F_FTZ ? ".FTZ" : "",
		 f & PTX_F_SAT ? ".SAT" : "", f & PTX_F_RELU ? ".RELU" : "");
	return 0;
}

static int
arith_x2(Sel *s, const IrIns *x, const char *m, MRef d, MRef a, MRef b)
{
	/* sm_80 has no HFMA2.MMA.BF16_V2: plain HFMA2 there */
	const char *mma = is_bf(x) && s->sm < 90 ? "" : ".MMA";

	switch (x->p.op) {
	case PTX_OP_add: mi(s->mf, "HFMA2%s%s %D, %U, 1, 1, %U", mma, m, d, a, b); return 0;
	case PTX_OP_sub: mi(s->mf, "HFMA2%s%s %D, %U, 1, 1, -%U", mma, m, d, a, b); return 0;
	case PTX_OP_mul: mi(s->mf, "HFMA2%s%s %D, %U, %U, -RZ", mma, m, d, a, b); return 0;
	case PTX_OP_fma:
		mi(s->mf, "HFMA2%s%s %D, %U, %U, %U", mma, m, d, a, b, src(s, S3));
		return 0;
	}
	return sel_unsupported(s, "this f16x2/bf16x2 operation");
}

int
sel_half_arith(Sel *s, const IrIns *x)
{
	char m[48];
	int op = x->p.op;
	MRef d = sel_reg(s, D0->reg), a, b;

	if (mods(s, x, m, sizeof m, op == PTX_OP_fma) < 0)
		return -1;
	if (is_bf(x) && s->sm < 90 && op != PTX_OP_fma)
		return sel_unsupported(s, "bf16 add/sub/mul (needs sm_90)");
	a = src(s, S1);
	b = src(s, S2);
	if (a.v < 0 || b.v < 0)
		return -1;
	if (is_x2(x))
		return arith_x2(s, x, m, d, a, b);
	switch (op) {
	case PTX_OP_add: mi(s->mf, "HADD2%s %D, %U.H0_H0, %U.H0_H0", m, d, a, b); return 0;
	case PTX_OP_sub: mi(s->mf, "HADD2%s %D, %U.H0_H0, -%U.H0_H0", m, d, a, b); return 0;
	case PTX_OP_mul: mi(s->mf, "HMUL2%s %D, %U.H0_H0, %U.H0_H0", m, d, a, b); return 0;
	case PTX_OP_fma:
		mi(s->mf, "HFMA2%s %D, %U.H0_H0, %U.H0_H0, %U.H0_H0", m, d, a, b, src(s, S3));
		return 0;
	}
	return sel_unsupported(s, "this f16/bf16 operation (mad.f16 does not exist; use fma)");
}

/* neg/abs: a sign-bit flip or clear (LOP3), exact for every input, NaN
 * payloads included; with .ftz, ptxas's -x + -0 (HADD2.FTZ), whose NaN
 * result is the canonical one. */
int
sel_half_negabs(Sel *s, const IrIns *x, int abs)
{
	int ftz = !!(x->p.flags & PTX_F_FTZ);
	MRef d = sel_reg(s, D0->reg), a = src(s, S1);

	if (a.v < 0)
		return -1;
	if (is_bf(x) && ftz)
		return sel_unsupported(s, "bf16 neg/abs with .ftz");
	if (!ftz) {
		u32 m = is_x2(x) ? 0x80008000u : 0x8000u;
		mi(s->mf, "LOP3.LUT %D, %U, %h, RZ, %h, !PT", d, a, abs ? ~m & (is_x2(x) ? ~0u : 0xffffu) : m,
		   abs ? 0xc0u : 0x3cu);
		return 0;
	}
	if (is_x2(x)) {   /* ptxas does the halves apart */
		MRef lo = sel_tmp(s, 1), hi = sel_tmp(s, 1);
		mi(s->mf, abs ? "HADD2.FTZ %D, |%U|.H0_H0, -RZ.H0_H0" : "HADD2.FTZ %D, -%U.H0_H0, -RZ.H0_H0", lo, a);
		mi(s->mf, abs ? "HADD2.FTZ %D, |%U|.H1_H1, -RZ.H0_H0" : "HADD2.FTZ %D, -%U.H1_H1, -RZ.H0_H0", hi, a);
		mi(s->mf, "PRMT %D, %U, 0x5410, %U", d, lo, hi);
		return 0;
	}
	mi(s->mf, abs ? "HADD2.FTZ %D, |%U|.H0_H0, -RZ.H0_H0" : "HADD2.FTZ %D, -%U.H0_H0, -RZ.H0_H0", d, a);
	return 0;
}

int
sel_half_minmax(Sel *s, const IrIns *x, int max)
{
	u32 f = x->p.flags;
	const char *h = hs(x);
	MRef a = src(s, S1), b = src(s, S2);

	if (a.v < 0 || b.v < 0)
		return -1;
	if (f & PTX_F_RELU)
		return sel_unsupported(s, "f16/bf16 min/max with .relu");
	if (is_bf(x) && (f & PTX_F_FTZ))
		return sel_unsupported(s, "bf16 min/max with .ftz");
	if ((f & PTX_F_XORSIGN) && s->sm < 86)   /* the PTX may target sm_86+ */
		return sel_unsupported(s, "min/max .xorsign.abs on sm_80 (sm_86 and later have it)");
	if (f & PTX_F_XORSIGN)   /* sm_86+: |a|, |b|, the sign of a ^ b */
		mi(s->mf, "HMNMX2%s%s%s.XORSIGN %D, |%U|%s, |%U|%s, %s", is_bf(x) ? ".BF16_V2" : "",
		   f & PTX_F_FTZ ? ".FTZ" : "", f & PTX_F_NAN ? ".NAN" : "", sel_reg(s, D0->reg), a, h, b, h,
		   max ? "!PT" : "PT");
	else
		mi(s->mf, "HMNMX2%s%s%s %D, %U%s, %U%s, %s", is_bf(x) ? ".BF16_V2" : "", f & PTX_F_FTZ ? ".FTZ" : "",
		   f & PTX_F_NAN ? ".NAN" : "", sel_reg(s, D0->reg), a, h, b, h, max ? "!PT" : "PT");
	return 0;
}

static const char *
hcmp(int c)
{
	static const char *n[] = {
		[PTX_CMP_EQ] = "EQ", [PTX_CMP_NE] = "NE", [PTX_CMP_LT] = "LT", [PTX_CMP_LE] = "LE",
		[PTX_CMP_GT] = "GT", [PTX_CMP_GE] = "GE", [PTX_CMP_EQU] = "EQU", [PTX_CMP_NEU] = "NEU",
		[PTX_CMP_LTU] = "LTU", [PTX_CMP_LEU] = "LEU", [PTX_CMP_GTU] = "GTU", [PTX_CMP_GEU] = "GEU",
		[PTX_CMP_NUM] = "NUM", [PTX_CMP_NAN] = "NAN",
	};
	return c > 0 && c < (int)(sizeof n / sizeof *n) ? n[c] : NULL;
}

/* setp.cmp[.ftz].{f16,bf16} p[|q], a, b[, {!}c]: HSETP2 on the low halves
 * (scalar) or on both, writing p (low half) and q (high half). */
int
sel_half_setp(Sel *s, const IrIns *x)
{
	const char *c = hcmp(x->p.cmp), *h = hs(x);
	const char *bop = x->p.aop == PTX_AOP_OR ? "OR" : x->p.aop == PTX_AOP_XOR ? "XOR" : "AND";
	int nc = 0;
	MRef comb = x->p.nopds > 3 ? sel_pred(s, S3, &nc) : mref(s->mf->pt);
	MRef a = src(s, S1), b = src(s, S2), p, q;

	if (!c || comb.v < 0 || a.v < 0 || b.v < 0)
		return sel_unsupported(s, "this f16/bf16 setp");
	if (is_bf(x) && (x->p.flags & PTX_F_FTZ))
		return sel_unsupported(s, "bf16 setp with .ftz");
	if (is_bf(x) && s->sm < 90)
		return sel_unsupported(s, "bf16 setp (needs sm_90)");
	if (!is_x2(x) && D0->reg2 >= 0)
		return sel_unsupported(s, "a second setp destination for a scalar half");
	p = sel_reg(s, D0->reg);
	q = is_x2(x) && D0->reg2 >= 0 ? sel_reg(s, D0->reg2) : mref(s->mf->pt);
	if (is_x2(x) && D0->reg2 < 0)
		return sel_unsupported(s, "setp on f16x2/bf16x2 without the p|q pair");
	if (q.v == s->mf->pt)
		mi(s->mf, "HSETP2%s.%s%s.%s %D, PT, %U%s, %U%s, %s%U", is_bf(x) ? ".BF16_V2" : "", c,
		   x->p.flags & PTX_F_FTZ ? ".FTZ" : "", bop, p, a, h, b, h, nc ? "!" : "", comb);
	else
		mi(s->mf, "HSETP2%s.%s%s.%s %D, %D, %U, %U, %s%U", is_bf(x) ? ".BF16_V2" : "", c,
		   x->p.flags & PTX_F_FTZ ? ".FTZ" : "", bop, p, q, a, b, nc ? "!" : "", comb);
	return 0;
}
