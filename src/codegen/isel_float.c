/* isel_float.c -- f32 and f64 arithmetic, comparisons and min/max. */
#include <stdio.h>
#include <string.h>

#include "codegen/isel.h"

#define D0 (&x->p.opds[0])
#define S1 (&x->p.opds[1])
#define S2 (&x->p.opds[2])
#define S3 (&x->p.opds[3])

static PtxType
ty(const IrIns *x)
{
	return (PtxType)x->p.types[0];
}

static const char *
rnd(const IrIns *x)
{
	switch (x->p.rnd) {
	case PTX_RND_RZ: return ".RZ";
	case PTX_RND_RM: return ".RM";
	case PTX_RND_RP: return ".RP";
	}
	return "";
}

/* Modifier suffix ".FTZ" / ".SAT" / rounding as ptxas orders them, into
 * out (at least 12 bytes); pasted, not formatted: every float add, mul
 * and fma comes here. */
static void
fmods(const IrIns *x, char *out, int f32)
{
	const char *r = rnd(x);
	size_t n = strlen(r);

	if (f32 && (x->p.flags & PTX_F_FTZ)) {
		memcpy(out, ".FTZ", 4);
		out += 4;
	}
	memcpy(out, r, n);
	out += n;
	if (x->p.flags & PTX_F_SAT) {
		memcpy(out, ".SAT", 4);
		out += 4;
	}
	*out = 0;
}

int
sel_float_arith(Sel *s, const IrIns *x)
{
	PtxType t = ty(x);
	char m[32];
	MRef d = sel_reg(s, D0->reg);
	int op = x->p.op;

	if (t != PTX_T_F32 && t != PTX_T_F64)
		return sel_is_half(t) ? sel_half_arith(s, x) : sel_unsupported(s, "f16/bf16 arithmetic");
	if (op == PTX_OP_mad && !(x->p.rnd))
		return sel_unsupported(s, "mad.f32 without a rounding mode");
	fmods(x, m, t == PTX_T_F32);
	if (t == PTX_T_F64) {
		MRef a = sel_r64(s, S1), b = sel_r64(s, S2);
		if (x->p.flags & PTX_F_SAT)
			return sel_unsupported(s, ".sat on f64");
		switch (op) {
		case PTX_OP_add: mi(s->mf, "DADD%s %D, %U, %U", m, d, a, b); return 0;
		case PTX_OP_sub: mi(s->mf, "DADD%s %D, %U, -%U", m, d, a, b); return 0;
		case PTX_OP_mul: mi(s->mf, "DMUL%s %D, %U, %U", m, d, a, b); return 0;
		case PTX_OP_mad: case PTX_OP_fma:
			mi(s->mf, "DFMA%s %D, %U, %U, %U", m, d, a, b, sel_r64(s, S3));
			return 0;
		}
	} else {
		MRef a = sel_r32(s, S1, 0), b = sel_r32(s, S2, 0);
		switch (op) {
		case PTX_OP_add: mi(s->mf, "FADD%s %D, %U, %U", m, d, a, b); return 0;
		case PTX_OP_sub: mi(s->mf, "FADD%s %D, %U, -%U", m, d, a, b); return 0;
		case PTX_OP_mul: mi(s->mf, "FMUL%s %D, %U, %U", m, d, a, b); return 0;
		case PTX_OP_mad: case PTX_OP_fma:
			mi(s->mf, "FFMA%s %D, %U, %U, %U", m, d, a, b, sel_r32(s, S3, 0));
			return 0;
		}
	}
	return sel_unsupported(s, "this float operation");
}

static int
sel_fma(Sel *s, const IrIns *x)
{
	return sel_float_arith(s, x);
}

static const char *
fcmp(int c)
{
	static const char *n[] = {
		[PTX_CMP_EQ] = "EQ", [PTX_CMP_NE] = "NE", [PTX_CMP_LT] = "LT", [PTX_CMP_LE] = "LE",
		[PTX_CMP_GT] = "GT", [PTX_CMP_GE] = "GE", [PTX_CMP_EQU] = "EQU", [PTX_CMP_NEU] = "NEU",
		[PTX_CMP_LTU] = "LTU", [PTX_CMP_LEU] = "LEU", [PTX_CMP_GTU] = "GTU", [PTX_CMP_GEU] = "GEU",
		[PTX_CMP_NUM] = "NUM", [PTX_CMP_NAN] = "NAN",
	};
	return c < (int)(sizeof n / sizeof *n) ? n[c] : NULL;
}

/* The negation of a float comparison (ordered <-> unordered). */
static int
neg_fcmp(int c)
{
	static const int n[][2] = {
		{PTX_CMP_EQ, PTX_CMP_NEU}, {PTX_CMP_NE, PTX_CMP_EQU}, {PTX_CMP_LT, PTX_CMP_GEU},
		{PTX_CMP_LE, PTX_CMP_GTU}, {PTX_CMP_GT, PTX_CMP_LEU}, {PTX_CMP_GE, PTX_CMP_LTU},
		{PTX_CMP_NUM, PTX_CMP_NAN},
	};
	size_t i;

	for (i = 0; i < sizeof n / sizeof *n; i++) {
		if (n[i][0] == c)
			return n[i][1];
		if (n[i][1] == c)
			return n[i][0];
	}
	return PTX_CMP_NONE;
}

/* setp p[|q]: q is a second compare with the negated comparison. */
int
sel_setp_float(Sel *s, const IrIns *x)
{
	PtxType t = ty(x);
	const char *c = fcmp(x->p.cmp);
	int nc = 0, k, cmp = x->p.cmp;
	MRef comb = x->p.nopds > 3 ? sel_pred(s, S3, &nc) : mref(s->mf->pt);
	const char *bop = x->p.aop == PTX_AOP_OR ? "OR" : x->p.aop == PTX_AOP_XOR ? "XOR" : "AND";

	if (sel_is_half(t))
		return sel_half_setp(s, x);
	if (!c || comb.v < 0 || (D0->reg2 >= 0 && !neg_fcmp(cmp)))
		return sel_unsupported(s, "this float setp");
	if (t != PTX_T_F64 && t != PTX_T_F32)
		return sel_unsupported(s, "setp on f16/bf16");
	if (D0->reg2 >= 0 && comb.v == sel_reg(s, D0->reg).v) {  /* p is also c */
		MRef pc = sel_ptmp(s);
		mi(s->mf, "PLOP3.LUT %D, PT, %U, PT, PT, 0x80, 0x0", pc, comb);
		comb = pc;
	}
	for (k = 0; k < 1 + (D0->reg2 >= 0); k++, cmp = neg_fcmp(x->p.cmp)) {
		MRef p = sel_reg(s, k ? D0->reg2 : D0->reg);
		c = fcmp(cmp);
		if (t == PTX_T_F64)
			mi(s->mf, "DSETP.%s.%s %D, PT, %U, %U, %s%U", c, bop, p, sel_r64(s, S1), sel_r64(s, S2),
			   nc ? "!" : "", comb);
		else
			mi(s->mf, "FSETP.%s%s.%s %D, PT, %U, %U, %s%U", c, x->p.flags & PTX_F_FTZ ? ".FTZ" : "", bop, p,
			   sel_r32(s, S1, 0), sel_r32(s, S2, 0), nc ? "!" : "", comb);
	}
	return 0;
}

int
sel_min_float(Sel *s, const IrIns *x, int max)
{
	if (sel_is_half(ty(x)))
		return sel_half_minmax(s, x, max);
	if (ty(x) == PTX_T_F64) {
		/* ptxas's: DSETP.MIN/MAX picks a (P0) and flags NaN (P1);
		   SEL/FSEL the halves, a NaN result quietened */
		Seq q;
		MRef d = sel_reg(s, D0->reg), lo, hi;
		if (x->p.flags & (PTX_F_NAN | PTX_F_XORSIGN))
			return sel_unsupported(s, "min/max.f64 with .NaN/.xorsign.abs");
		seq_init(&q, s);
		seq_bind64(&q, 2, sel_r64(s, S1));
		seq_bind64(&q, 4, sel_r64(s, S2));
		seq_emit(&q, max ? "DSETP.MAX.AND P0, P1, R2:2, R4:2, PT" : "DSETP.MIN.AND P0, P1, R2:2, R4:2, PT");
		seq_emit(&q, "FSEL R11, R3, R5, P0");
		seq_emit(&q, "SEL R10, R2, R4, P0");
		seq_emit(&q, "@P1 LOP3.LUT R11, R5, 0x80000, RZ, 0xfc, !PT");
		lo = seq_get(&q, 10);
		hi = seq_get(&q, 11);
		seq_end(&q);
		sel_mov32(s, mpart(d.v, 0, 1), mopd_reg(lo));
		sel_mov32(s, mpart(d.v, 1, 1), mopd_reg(hi));
		return 0;
	}
	if (ty(x) != PTX_T_F32)
		return sel_unsupported(s, "min/max on this type");
	if ((x->p.flags & PTX_F_XORSIGN) && s->sm < 86)   /* the PTX may target sm_86+ */
		return sel_unsupported(s, "min/max .xorsign.abs on sm_80 (sm_86 and later have it)");
	if (x->p.flags & PTX_F_XORSIGN)   /* sm_86+: |a|, |b|, the sign of a ^ b */
		mi(s->mf, "FMNMX%s%s.XORSIGN %D, |%U|, |%U|, %s", x->p.flags & PTX_F_FTZ ? ".FTZ" : "",
		   x->p.flags & PTX_F_NAN ? ".NAN" : "", sel_reg(s, D0->reg), sel_r32(s, S1, 0), sel_r32(s, S2, 0),
		   max ? "!PT" : "PT");
	else
		mi(s->mf, "FMNMX%s%s %D, %U, %U, %s", x->p.flags & PTX_F_FTZ ? ".FTZ" : "",
		   x->p.flags & PTX_F_NAN ? ".NAN" : "", sel_reg(s, D0->reg), sel_r32(s, S1, 0), sel_r32(s, S2, 0),
		   max ? "!PT" : "PT");
	return 0;
}

const SelRule sel_rules_float[] = {
	{PTX_OP_fma, sel_fma},
	{0, NULL},
};
