/* isel_int.c -- integer arithmetic, logic, shifts, comparisons, moves
 * and selects. */
#include <stdio.h>

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

static int
is64(const IrIns *x)
{
	return ptx_type_size(ty(x)) == 8;
}

static int
sgn(const IrIns *x)
{
	return ptx_type_is_signed(ty(x));
}

/* The 32-bit part k of the destination register. */
static MRef
dst(Sel *s, const IrIns *x, int k)
{
	MRef d = sel_reg(s, D0->reg);
	return s->mf->vr.v[d.v].w > 1 ? mpart(d.v, k, 1) : d;
}

static int sel_addsat(Sel *s, const IrIns *x, int sub);
static int sel_mulhi64(Sel *s, const IrIns *x, int mad);
static int sel_minmax64(Sel *s, const IrIns *x, int max);
static int sel_abs64(Sel *s, const IrIns *x);
static int sel_shift64(Sel *s, const IrIns *x, int left);

static int
sel_mov(Sel *s, const IrIns *x)
{
	PtxType t = ty(x);
	MRef d;
	int k, n, neg;

	if (S1->kind == PTX_OPD_SREG && (S1->sreg == PTX_SR_globaltimer || S1->sreg == PTX_SR_clock64 ||
					 (S1->sreg >= PTX_SR_pm0_64 && S1->sreg <= PTX_SR_pm7_64))) {
		/* 64-bit counters: one CS2R of the pair, as ptxas */
		char sr[24];
		d = sel_reg(s, D0->reg);
		if (s->mf->vr.v[d.v].w != 2)
			return sel_unsupported(s, "a 64-bit counter into a register that is not 64-bit");
		if (S1->sreg == PTX_SR_clock64 || S1->sreg == PTX_SR_globaltimer)
			str_printf(sr, sizeof sr, "%s", S1->sreg == PTX_SR_clock64 ? "SR_CLOCKLO" : "SR_GLOBALTIMERLO");
		else
			str_printf(sr, sizeof sr, "SR_PM%d", S1->sreg - PTX_SR_pm0_64);
		mi(s->mf, "CS2R %D, %s", mpart(d.v, 0, 2), sr);
		return 0;
	}
	if (t == PTX_T_PRED && S1->kind == PTX_OPD_IMM) {
		/* mov.pred %p, 0 / -1 (thrust's sort, Triton) */
		sel_pred_const(s, sel_reg(s, D0->reg), S1->imm != 0);
		return 0;
	}
	if (t == PTX_T_PRED) {
		MRef p = sel_pred(s, S1, &neg);
		if (p.v < 0)
			return -1;
		mi(s->mf, "PLOP3.LUT %D, PT, %s%U, PT, PT, 0x80, 0x0", sel_reg(s, D0->reg), neg ? "!" : "", p);
		return 0;
	}
	if (S1->kind == PTX_OPD_SYM || S1->kind == PTX_OPD_VEC || D0->kind != PTX_OPD_REG)
		return sel_unsupported(s, "mov of a symbol address or a vector");
	d = sel_reg(s, D0->reg);
	n = s->mf->vr.v[d.v].w;
	for (k = 0; k < n; k++) {
		MOpd o = sel_b32u(s, S1, k);
		if (!o.txt[0] && o.r.v < 0)
			return -1;
		sel_mov32(s, n > 1 ? mpart(d.v, k, 1) : d, o);
	}
	return 0;
}

static int
add_sub(Sel *s, const IrIns *x, int sub)
{
	MOpd b;
	MRef a;

	if (ptx_type_is_float(ty(x)))
		return sel_float_arith(s, x);
	if ((x->p.flags & PTX_F_SAT) && ty(x) == PTX_T_S32 && !(x->p.flags & PTX_F_CC))
		return sel_addsat(s, x, sub);
	if ((x->p.flags & PTX_F_CC) && !(x->p.flags & PTX_F_SAT))
		return sel_carry(s, x, sub, 0);
	if (x->p.flags & (PTX_F_SAT | PTX_F_CC))
		return sel_unsupported(s, "add/sub with .sat on this type or with .sat and .cc");
	if (!is64(x)) {
		a = sel_r32(s, S1, 0);
		b = sel_b32(s, S2, 0);
		if (sub && b.txt[0]) {
			b = mopd_imm((u32)-(i64)(i32)S2->imm, 0);  /* 32-bit: -INT_MIN wraps to INT_MIN */
			mi(s->mf, "IADD3 %D, %U, %O, RZ", dst(s, x, 0), a, b);
		} else {
			mi(s->mf, sub ? "IADD3 %D, %U, -%O, RZ" : "IADD3 %D, %U, %O, RZ", dst(s, x, 0), a, b);
		}
		return 0;
	} else {
		MRef c = sel_ptmp(s), lo = sel_tmp(s, 1);
		MRef alo = sel_r32(s, S1, 0), ahi = sel_r32(s, S1, 1);
		MRef blo = sel_r32(s, S2, 0), bhi = sel_r32(s, S2, 1);
		mi(s->mf, sub ? "IADD3 %D, %D, %U, -%U, RZ" : "IADD3 %D, %D, %U, %U, RZ", lo, c, alo, blo);
		mi(s->mf, sub ? "IADD3.X %D, %U, ~%U, RZ, %U, !PT" : "IADD3.X %D, %U, %U, RZ, %U, !PT",
		   dst(s, x, 1), ahi, bhi, c);
		sel_mov32(s, dst(s, x, 0), mopd_reg(lo));
	}
	return 0;
}

/* add.sat.s32 / sub.sat.s32: the sum overflows when its sign differs
 * from both addends' (add) or from a's while a and b differ (sub); then
 * the result is INT_MAX or INT_MIN by a's sign. */
static int
sel_addsat(Sel *s, const IrIns *x, int sub)
{
	Seq q;
	MRef r;

	seq_init(&q, s);
	seq_bind(&q, 4, sel_r32(s, S1, 0));
	seq_bind(&q, 5, sel_r32(s, S2, 0));
	seq_emit(&q, sub ? "IADD3 R6, R4, -R5, RZ" : "IADD3 R6, R4, R5, RZ");
	seq_emit(&q, sub ? "LOP3.LUT R7, R4, R5, R6, 0x18, !PT" : "LOP3.LUT R7, R4, R5, R6, 0x42, !PT");
	seq_emit(&q, "ISETP.LT.AND P0, PT, R7, RZ, PT");
	seq_emit(&q, "SHF.R.S32.HI R8, RZ, 0x1f, R4");
	seq_emit(&q, "LOP3.LUT R8, R8, 0x7fffffff, RZ, 0x3c, !PT");
	seq_emit(&q, "SEL R9, R8, R6, P0");
	r = seq_get(&q, 9);
	seq_end(&q);
	sel_mov32(s, dst(s, x, 0), mopd_reg(r));
	return 0;
}

/* mul.hi / mad.hi on 64 bits: the unsigned high product (seq_mulhi_u64),
 * minus b when a < 0 and a when b < 0 for signed types. */
static int
sel_mulhi64(Sel *s, const IrIns *x, int mad)
{
	Seq q;

	seq_init(&q, s);
	seq_bind64(&q, 2, sel_r64(s, S1));
	seq_bind64(&q, 4, sel_r64(s, S2));
	seq_mulhi_u64(&q, 6, 2, 4);
	if (sgn(x)) {
		seq_emit(&q, "ISETP.LT.AND P0, PT, R3, RZ, PT");
		seq_emit(&q, "ISETP.LT.AND P1, PT, R5, RZ, PT");
		seq_emit(&q, "@P0 IADD3 R6, P2, R6, -R4, RZ");
		seq_emit(&q, "@P0 IADD3.X R7, R7, ~R5, RZ, P2, !PT");
		seq_emit(&q, "@P1 IADD3 R6, P2, R6, -R2, RZ");
		seq_emit(&q, "@P1 IADD3.X R7, R7, ~R3, RZ, P2, !PT");
	}
	if (mad) {
		seq_bind64(&q, 8, sel_r64(s, S3));
		seq_emit(&q, "IADD3 R6, P2, R6, R8, RZ");
		seq_emit(&q, "IADD3.X R7, R7, R9, RZ, P2, !PT");
	}
	{
		MRef lo = seq_get(&q, 6), hi = seq_get(&q, 7);
		seq_end(&q);
		sel_mov32(s, dst(s, x, 0), mopd_reg(lo));
		sel_mov32(s, dst(s, x, 1), mopd_reg(hi));
	}
	return 0;
}

/* min/max on 64 bits: a two-word compare, then SEL per word. */
static int
sel_minmax64(Sel *s, const IrIns *x, int max)
{
	MRef p = sel_ptmp(s), t = sel_ptmp(s), lo = sel_tmp(s, 1);
	MRef alo = sel_r32(s, S1, 0), ahi = sel_r32(s, S1, 1), blo = sel_r32(s, S2, 0), bhi = sel_r32(s, S2, 1);
	const char *c = max ? "GT" : "LT";

	if (x->p.flags & PTX_F_RELU)
		return sel_unsupported(s, "min/max.relu");
	mi(s->mf, "ISETP.%s.U32.AND %D, PT, %U, %U, PT", c, t, alo, blo);
	mi(s->mf, "ISETP.%s%s.AND.EX %D, PT, %U, %U, PT, %U", c, sgn(x) ? "" : ".U32", p, ahi, bhi, t);
	mi(s->mf, "SEL %D, %U, %U, %U", lo, alo, blo, p);
	mi(s->mf, "SEL %D, %U, %U, %U", dst(s, x, 1), ahi, bhi, p);
	sel_mov32(s, dst(s, x, 0), mopd_reg(lo));
	return 0;
}

static int
sel_abs64(Sel *s, const IrIns *x)
{
	Seq q;
	MRef lo, hi;

	seq_init(&q, s);
	seq_bind(&q, 2, sel_r32(s, S1, 0));
	seq_bind(&q, 3, sel_r32(s, S1, 1));
	seq_emit(&q, "IADD3 R7, P1, RZ, -R2, RZ");
	seq_emit(&q, "ISETP.LT.AND P0, PT, R3, RZ, PT");
	seq_emit(&q, "IMAD.X R9, RZ, RZ, ~R3, P1");
	seq_emit(&q, "SEL R4, R7, R2, P0");
	seq_emit(&q, "SEL R5, R9, R3, P0");
	lo = seq_get(&q, 4);
	hi = seq_get(&q, 5);
	seq_end(&q);
	sel_mov32(s, dst(s, x, 0), mopd_reg(lo));
	sel_mov32(s, dst(s, x, 1), mopd_reg(hi));
	return 0;
}

/* 64-bit shifts by a register (ptxas's SHF pair: the funnel shifts clamp,
 * so amounts >= 64 give 0 or the sign; PTX clamps the same way) or by an
 * immediate of 0 or >= 32. */
static int
sel_shift64(Sel *s, const IrIns *x, int left)
{
	MRef lo = sel_r32(s, S1, 0), hi = sel_r32(s, S1, 1), t = sel_tmp(s, 1);
	u64 k;

	if (sel_imm(S2, &k)) {
		if (k == 0) {
			sel_mov32(s, t, mopd_reg(lo));
			sel_mov32(s, dst(s, x, 1), mopd_reg(hi));
		} else if (left) {
			/* no funnel shift by 0: the H200 gives 0 for SHF.R.U32.HI
			 * by an immediate 0 (tools/gpu-check: div_const_u32), and
			 * ptxas never emits one */
			if (k == 32)
				sel_mov32(s, dst(s, x, 1), mopd_reg(lo));
			else if (k < 64)
				mi(s->mf, "SHF.L.U32 %D, %U, %h, RZ", dst(s, x, 1), lo, (u32)(k - 32));
			else
				mi(s->mf, "MOV %D, 0x0", dst(s, x, 1));
			mi(s->mf, "MOV %D, 0x0", t);
		} else if (sgn(x)) {
			if (k == 32)
				sel_mov32(s, t, mopd_reg(hi));
			else
				mi(s->mf, "SHF.R.S32.HI %D, RZ, %h, %U", t, (u32)(k < 64 ? k - 32 : 31), hi);
			mi(s->mf, "SHF.R.S32.HI %D, RZ, 0x1f, %U", dst(s, x, 1), hi);
		} else {
			if (k == 32)
				sel_mov32(s, t, mopd_reg(hi));
			else if (k < 64)
				mi(s->mf, "SHF.R.U32.HI %D, RZ, %h, %U", t, (u32)(k - 32), hi);
			else
				mi(s->mf, "MOV %D, 0x0", t);
			mi(s->mf, "MOV %D, 0x0", dst(s, x, 1));
		}
		sel_mov32(s, dst(s, x, 0), mopd_reg(t));
		return 0;
	}
	{
		MRef n = sel_r32(s, S2, 0);
		if (left) {
			mi(s->mf, "SHF.L.U64.HI %D, %U, %U, %U", dst(s, x, 1), lo, n, hi);
			mi(s->mf, "SHF.L.U32 %D, %U, %U, RZ", t, lo, n);
		} else {
			const char *w = sgn(x) ? "S" : "U";
			mi(s->mf, "SHF.R.%s64 %D, %U, %U, %U", w, t, lo, n, hi);
			mi(s->mf, "SHF.R.%s32.HI %D, RZ, %U, %U", w, dst(s, x, 1), n, hi);
		}
		sel_mov32(s, dst(s, x, 0), mopd_reg(t));
	}
	return 0;
}

static int sel_add(Sel *s, const IrIns *x) { return add_sub(s, x, 0); }
static int sel_sub(Sel *s, const IrIns *x) { return add_sub(s, x, 1); }

/* mul/mad: .lo .hi .wide for 32-bit; .lo for 64-bit. */
static int
mul_mad(Sel *s, const IrIns *x, int mad)
{
	const char *su = sgn(x) ? "" : ".U32";
	MRef a, c;
	MOpd b;

	if (ptx_type_is_float(ty(x)))
		return sel_float_arith(s, x);
	if (x->p.flags & PTX_F_SAT)
		return sel_unsupported(s, "mad.sat");
	if (mad && (x->p.flags & PTX_F_CC))
		return sel_carry(s, x, 2, 0);
	if (is64(x) && x->p.mode == PTX_MODE_HI)
		return sel_mulhi64(s, x, mad);
	if (!is64(x) && ptx_type_size(ty(x)) == 4) {
		a = sel_r32(s, S1, 0);
		b = sel_b32(s, S2, 0);
		switch (x->p.mode) {
		case PTX_MODE_LO: case PTX_MODE_NONE:
			c = mad ? sel_r32(s, S3, 0) : mref(s->mf->rz);
			mi(s->mf, "IMAD %D, %U, %O, %U", dst(s, x, 0), a, b, c);
			return 0;
		case PTX_MODE_HI:
			if (mad) {  /* hi(a*b) + c, wrapping */
				MRef t = sel_tmp(s, 1);
				mi(s->mf, "IMAD.HI%s %D, %U, %O, RZ", su, t, a, b);
				mi(s->mf, "IADD3 %D, %U, %U, RZ", dst(s, x, 0), t, sel_r32(s, S3, 0));
				return 0;
			}
			mi(s->mf, "IMAD.HI%s %D, %U, %O, RZ", su, dst(s, x, 0), a, b);
			return 0;
		case PTX_MODE_WIDE:
			c = mad ? sel_r64(s, S3) : mref(s->mf->rz);
			mi(s->mf, "IMAD.WIDE%s %D, %U, %O, %U", su, sel_reg(s, D0->reg), a, b, c);
			return 0;
		}
	}
	if (is64(x) && (x->p.mode == PTX_MODE_LO || x->p.mode == PTX_MODE_NONE)) {
		MRef alo = sel_r32(s, S1, 0), ahi = sel_r32(s, S1, 1);
		MRef blo = sel_r32(s, S2, 0), bhi = sel_r32(s, S2, 1);
		MRef p = sel_tmp(s, 2), t = sel_tmp(s, 1);
		c = mad ? sel_r64(s, S3) : mref(s->mf->rz);
		mi(s->mf, "IMAD.WIDE.U32 %D, %U, %U, %U", p, alo, blo, c);
		mi(s->mf, "IMAD %D, %U, %U, %U", t, alo, bhi, mpart(p.v, 1, 1));
		mi(s->mf, "IMAD %D, %U, %U, %U", dst(s, x, 1), ahi, blo, t);
		sel_mov32(s, dst(s, x, 0), mopd_reg(mpart(p.v, 0, 1)));
		return 0;
	}
	return ptx_type_size(ty(x)) < 4 ? sel_int_small(s, x) : sel_unsupported(s, "this mul/mad width or mode");
}

static int sel_mul(Sel *s, const IrIns *x) { return mul_mad(s, x, 0); }
static int sel_mad(Sel *s, const IrIns *x) { return mul_mad(s, x, 1); }

/* and/or/xor/not through LOP3 (registers) or PLOP3 (predicates). */
static int
logic(Sel *s, const IrIns *x, int lut)
{
	int k, n = sel_type_regs(ty(x));

	if (ty(x) == PTX_T_PRED) {
		int na, nb = 0;
		MRef a = sel_pred(s, S1, &na), b = x->p.nopds > 2 ? sel_pred(s, S2, &nb) : mref(s->mf->pt);
		if (a.v < 0 || b.v < 0)
			return -1;
		if (na)
			lut = lut == 0x0f ? 0xf0 : ((lut & 0xf0) >> 4 | (lut & 0x0f) << 4) & 0xff;
		if (nb)
			lut = ((lut & 0xcc) >> 2 | (lut & 0x33) << 2) & 0xff;
		/* PLOP3 computes lut(a, b, c) with c = PT */
		lut = (lut & 0xaa) | (lut & 0xaa) >> 1;
		mi(s->mf, "PLOP3.LUT %D, PT, %U, %U, PT, %h, 0x0", sel_reg(s, D0->reg), a, b, lut);
		return 0;
	}
	for (k = 0; k < n; k++) {
		MRef a = sel_r32(s, S1, k);
		MOpd b = x->p.nopds > 2 ? sel_b32u(s, S2, k) : mopd_txt("RZ");
		mi(s->mf, "LOP3.LUT %D, %U, %O, RZ, %h, !PT", dst(s, x, k), a, b, lut);
	}
	return 0;
}

static int sel_and(Sel *s, const IrIns *x) { return logic(s, x, 0xc0); }
static int sel_or(Sel *s, const IrIns *x) { return logic(s, x, 0xfc); }
static int sel_xor(Sel *s, const IrIns *x) { return logic(s, x, 0x3c); }
static int sel_not(Sel *s, const IrIns *x) { return logic(s, x, 0x0f); }

static int
shift(Sel *s, const IrIns *x, int left)
{
	MRef a;
	MOpd b;

	if (is64(x)) {
		u64 k;
		MRef lo = sel_r32(s, S1, 0), hi = sel_r32(s, S1, 1);
		if (!sel_imm(S2, &k) || k == 0 || k >= 32)
			return sel_shift64(s, x, left);
		if (left) {
			mi(s->mf, "SHF.L.U64.HI %D, %U, %h, %U", dst(s, x, 1), lo, (unsigned)k, hi);
			mi(s->mf, "SHF.L.U32 %D, %U, %h, RZ", dst(s, x, 0), lo, (unsigned)k);
		} else {
			const char *t = sgn(x) ? "S64" : "U64", *th = sgn(x) ? "S32" : "U32";
			MRef nlo = sel_tmp(s, 1);
			mi(s->mf, "SHF.R.%s %D, %U, %h, %U", t, nlo, lo, (unsigned)k, hi);
			mi(s->mf, "SHF.R.%s.HI %D, RZ, %h, %U", th, dst(s, x, 1), (unsigned)k, hi);
			sel_mov32(s, dst(s, x, 0), mopd_reg(nlo));
		}
		return 0;
	}
	if (ptx_type_size(ty(x)) != 4)
		return sel_int_small(s, x);   /* 8/16-bit: isel_cvt.c */
	a = sel_r32(s, S1, 0);
	b = sel_b32u(s, S2, 0);
	if (left)
		mi(s->mf, "SHF.L.U32 %D, %U, %O, RZ", dst(s, x, 0), a, b);
	else
		mi(s->mf, "SHF.R.%s.HI %D, RZ, %O, %U", sgn(x) ? "S32" : "U32", dst(s, x, 0), b, a);
	return 0;
}

static int sel_shl(Sel *s, const IrIns *x) { return shift(s, x, 1); }
static int sel_shr(Sel *s, const IrIns *x) { return shift(s, x, 0); }

static const char *
icmp(int c, int *uns)
{
	*uns = 0;
	switch (c) {
	case PTX_CMP_EQ: return "EQ";
	case PTX_CMP_NE: return "NE";
	case PTX_CMP_LT: return "LT";
	case PTX_CMP_LE: return "LE";
	case PTX_CMP_GT: return "GT";
	case PTX_CMP_GE: return "GE";
	}
	*uns = 1;
	switch (c) {
	case PTX_CMP_LO: return "LT";
	case PTX_CMP_LS: return "LE";
	case PTX_CMP_HI: return "GT";
	case PTX_CMP_HS: return "GE";
	}
	return NULL;
}

static const char *
bool_op(int aop)
{
	return aop == PTX_AOP_OR ? "OR" : aop == PTX_AOP_XOR ? "XOR" : "AND";
}

static int
neg_icmp(int c)
{
	switch (c) {
	case PTX_CMP_EQ: return PTX_CMP_NE;
	case PTX_CMP_NE: return PTX_CMP_EQ;
	case PTX_CMP_LT: return PTX_CMP_GE;
	case PTX_CMP_GE: return PTX_CMP_LT;
	case PTX_CMP_LE: return PTX_CMP_GT;
	case PTX_CMP_GT: return PTX_CMP_LE;
	case PTX_CMP_LO: return PTX_CMP_HS;
	case PTX_CMP_HS: return PTX_CMP_LO;
	case PTX_CMP_LS: return PTX_CMP_HI;
	case PTX_CMP_HI: return PTX_CMP_LS;
	}
	return PTX_CMP_NONE;
}

/* setp p[|q], a, b[, c]: q = !(a cmp b) BOP c is a second compare with
 * the negated comparison (ISETP's second destination is not in the
 * tables). */
static int
sel_setp(Sel *s, const IrIns *x)
{
	int uns, nc = 0, k, cmp = x->p.cmp;
	const char *c;
	const char *u;
	MRef p, comb;

	if (ptx_type_is_float(ty(x)))
		return sel_setp_float(s, x);
	c = icmp(cmp, &uns);
	if (!c)
		return sel_unsupported(s, "this setp comparison");
	if (ptx_type_size(ty(x)) < 4) {
		if (D0->reg2 >= 0)
			return sel_unsupported(s, "setp with two destinations on 8/16-bit types");
		return sel_int_small(s, x);   /* 8/16-bit: isel_cvt.c */
	}
	comb = x->p.nopds > 3 ? sel_pred(s, S3, &nc) : mref(s->mf->pt);
	if (comb.v < 0)
		return -1;
	if (D0->reg2 >= 0 && comb.v == sel_reg(s, D0->reg).v) {  /* p is also c */
		MRef t = sel_ptmp(s);
		mi(s->mf, "PLOP3.LUT %D, PT, %U, PT, PT, 0x80, 0x0", t, comb);
		comb = t;
	}
	for (k = 0; k < 1 + (D0->reg2 >= 0); k++, cmp = neg_icmp(x->p.cmp)) {
		c = icmp(cmp, &uns);
		u = (uns || !sgn(x)) && ty(x) != PTX_T_S16 ? ".U32" : "";
		if (cmp == PTX_CMP_EQ || cmp == PTX_CMP_NE)
			u = ".U32";
		p = sel_reg(s, k ? D0->reg2 : D0->reg);
		if (!is64(x)) {
			mi(s->mf, "ISETP.%s%s.%s %D, PT, %U, %O, %s%U", c, u, bool_op(x->p.aop), p,
			   sel_r32(s, S1, 0), sel_b32(s, S2, 0), nc ? "!" : "", comb);
		} else {
			MRef t = sel_ptmp(s);
			const char *hu = (uns || !sgn(x)) ? ".U32" : "";
			if (cmp == PTX_CMP_EQ || cmp == PTX_CMP_NE)
				hu = "";
			mi(s->mf, "ISETP.%s.U32.AND %D, PT, %U, %O, PT", c, t, sel_r32(s, S1, 0), sel_b32(s, S2, 0));
			mi(s->mf, "ISETP.%s%s.%s.EX %D, PT, %U, %O, %s%U, %U", c, hu, bool_op(x->p.aop), p,
			   sel_r32(s, S1, 1), sel_b32(s, S2, 1), nc ? "!" : "", comb, t);
		}
	}
	return 0;
}

static int
sel_selp(Sel *s, const IrIns *x)
{
	int k, n = sel_type_regs(ty(x)), neg;
	MRef p = sel_pred(s, S3, &neg);

	if (p.v < 0)
		return -1;
	for (k = 0; k < n; k++)
		mi(s->mf, "SEL %D, %U, %O, %s%U", dst(s, x, k), sel_r32(s, S1, k), sel_b32u(s, S2, k),
		   neg ? "!" : "", p);
	return 0;
}

/* slct.dtype.{s32,f32}[.ftz] d, a, b, c: d = c >= 0 ? a : b (-0.0 selects a,
 * NaN selects b); a compare with zero and the SEL of selp. */
static int
sel_slct(Sel *s, const IrIns *x)
{
	int k, n = sel_type_regs(ty(x));
	MRef p = sel_ptmp(s);

	if (ptx_type_size(ty(x)) < 4)
		return sel_unsupported(s, "slct on 8/16-bit types");
	if (x->p.ntypes > 1 && x->p.types[1] == PTX_T_F32)
		mi(s->mf, "FSETP.GE%s.AND %D, PT, %U, RZ, PT", x->p.flags & PTX_F_FTZ ? ".FTZ" : "", p,
		   sel_r32(s, S3, 0));
	else
		mi(s->mf, "ISETP.GE.AND %D, PT, %U, RZ, PT", p, sel_r32(s, S3, 0));
	for (k = 0; k < n; k++)
		mi(s->mf, "SEL %D, %U, %O, %U", dst(s, x, k), sel_r32(s, S1, k), sel_b32u(s, S2, k), p);
	return 0;
}

static int
minmax(Sel *s, const IrIns *x, int max)
{
	int h16, relu;

	if (ptx_type_is_float(ty(x)))
		return sel_unsupported(s, "float min/max in the integer family");
	if (is64(x))
		return sel_minmax64(s, x, max);
	if (ptx_type_size(ty(x)) != 4)
		return sel_int_small(s, x);   /* 8/16-bit: isel_cvt.c */
	h16 = ty(x) == PTX_T_S16X2 || ty(x) == PTX_T_U16X2;
	relu = (x->p.flags & PTX_F_RELU) != 0;
	if ((h16 || relu) && s->sm < 90)
		return sel_unsupported(s, "min/max .s16x2/.u16x2/.relu (sm_90 and later)");
	/* sm_90: VIMNMX[.U32|.S16x2|.U16x2][.RELU], as ptxas */
	mi(s->mf, "%s%s%s %D, %U, %O, %s", s->sm >= 90 ? "VIMNMX" : "IMNMX",
	   h16 ? (sgn(x) ? ".S16x2" : ".U16x2") : sgn(x) ? "" : ".U32", relu ? ".RELU" : "", dst(s, x, 0),
	   sel_r32(s, S1, 0), sel_b32(s, S2, 0), max ? "!PT" : "PT");
	return 0;
}

static int
sel_min(Sel *s, const IrIns *x)
{
	return ptx_type_is_float(ty(x)) ? sel_min_float(s, x, 0) : minmax(s, x, 0);
}

static int
sel_max(Sel *s, const IrIns *x)
{
	return ptx_type_is_float(ty(x)) ? sel_min_float(s, x, 1) : minmax(s, x, 1);
}

static int
sel_neg_abs(Sel *s, const IrIns *x, int abs)
{
	if (ptx_type_is_float(ty(x))) {
		const char *ftz = x->p.flags & PTX_F_FTZ ? ".FTZ" : "";
		if (ty(x) == PTX_T_F64) {  /* the sign bit only (NaN payloads kept, as PTX) */
			MRef lo = sel_tmp(s, 1);
			sel_mov32(s, lo, mopd_reg(sel_r32(s, S1, 0)));
			mi(s->mf, abs ? "LOP3.LUT %D, %U, 0x7fffffff, RZ, 0xc0, !PT" : "LOP3.LUT %D, %U, 0x80000000, RZ, 0x3c, !PT",
			   dst(s, x, 1), sel_r32(s, S1, 1));
			sel_mov32(s, dst(s, x, 0), mopd_reg(lo));
			return 0;
		}
		if (ty(x) != PTX_T_F32)
			return sel_is_half(ty(x)) ? sel_half_negabs(s, x, abs) : sel_unsupported(s, "neg/abs of f16/bf16");
		mi(s->mf, abs ? "FADD%s %D, |%U|, -RZ" : "FADD%s %D, -%U, -RZ", ftz, dst(s, x, 0), sel_r32(s, S1, 0));
		return 0;
	}
	if (is64(x)) {
		if (abs)
			return sel_abs64(s, x);
		MRef c = sel_ptmp(s), lo = sel_tmp(s, 1);
		mi(s->mf, "IADD3 %D, %D, RZ, -%U, RZ", lo, c, sel_r32(s, S1, 0));
		mi(s->mf, "IADD3.X %D, RZ, ~%U, RZ, %U, !PT", dst(s, x, 1), sel_r32(s, S1, 1), c);
		sel_mov32(s, dst(s, x, 0), mopd_reg(lo));
		return 0;
	}
	if (abs && ptx_type_size(ty(x)) < 4)
		return sel_int_small(s, x);   /* extends first: isel_cvt.c */
	if (abs)
		mi(s->mf, "IABS %D, %U", dst(s, x, 0), sel_r32(s, S1, 0));
	else
		mi(s->mf, "IADD3 %D, -%U, RZ, RZ", dst(s, x, 0), sel_r32(s, S1, 0));
	return 0;
}

static int sel_neg(Sel *s, const IrIns *x) { return sel_neg_abs(s, x, 0); }
static int sel_abs(Sel *s, const IrIns *x) { return sel_neg_abs(s, x, 1); }

const SelRule sel_rules_int[] = {
	{PTX_OP_mov, sel_mov}, {PTX_OP_add, sel_add}, {PTX_OP_sub, sel_sub},
	{PTX_OP_mul, sel_mul}, {PTX_OP_mad, sel_mad}, {PTX_OP_and, sel_and},
	{PTX_OP_or, sel_or}, {PTX_OP_xor, sel_xor}, {PTX_OP_not, sel_not},
	{PTX_OP_shl, sel_shl}, {PTX_OP_shr, sel_shr}, {PTX_OP_setp, sel_setp},
	{PTX_OP_selp, sel_selp}, {PTX_OP_slct, sel_slct}, {PTX_OP_min, sel_min}, {PTX_OP_max, sel_max},
	{PTX_OP_neg, sel_neg}, {PTX_OP_abs, sel_abs},
	{0, NULL},
};
