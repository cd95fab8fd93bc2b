/* isel_div.c -- integer division and remainder: 16, 32 and 64 bits, by
 * a register or through divconst by an immediate.
 *
 * The register sequences are ptxas's (CUDA 13.0, sm_80/sm_90): for 32
 * bits I2F.RP + MUFU.RCP + IMAD.HI refinement and two corrections; for 64
 * bits the 32-bit division when both high words are zero, else the method
 * of ptxas's __cuda_sm20_div_u64 subroutine, inline, each branched over.
 * 16 bits: the operands extended, the 32-bit sequences.  Division by zero
 * gives all ones (-1) for quotient and remainder, like ptxas's code and
 * our interpreter; INT_MIN / -1 wraps. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/isel.h"
/* divconst (another helper's) until it is committed: without it a
 * division by an immediate takes the general sequence. */
#if defined(__has_include)
#if __has_include("codegen/divconst.h")
#include "codegen/divconst.h"
#define HAVE_DIVCONST 1
#endif
#endif

#define D0 (&x->p.opds[0])
#define S1 (&x->p.opds[1])
#define S2 (&x->p.opds[2])

static PtxType
ty(const IrIns *x)
{
	return (PtxType)x->p.types[0];
}

/* ---- 32 bits: a in R9, b in R8 ---- */

static const char *const udiv32[] = {
	"I2F.U32.RP R10, R8",
	"IADD3 R11, RZ, -R8, RZ",
	"ISETP.NE.U32.AND P2, PT, R8, RZ, PT",
	"MUFU.RCP R10, R10",
	"IADD3 R6, R10, 0xffffffe, RZ",
	"F2I.FTZ.U32.TRUNC.NTZ R7, R6",
	"IMAD R11, R11, R7, RZ",
	"IMAD.HI.U32 R4, R7, R11, RZ",
	"IADD3 R4, R4, R7, RZ",
	"IMAD.HI.U32 R7, R4, R9, RZ",
	"IADD3 R5, -R7, RZ, RZ",
	"IMAD R5, R8, R5, R9",
	"ISETP.GE.U32.AND P0, PT, R5, R8, PT",
	NULL,
};
static const char *const udiv32_q[] = {
	"@P0 IADD3 R5, -R8, R5, RZ",
	"@P0 IADD3 R7, R7, 0x1, RZ",
	"ISETP.GE.U32.AND P1, PT, R5, R8, PT",
	"@P1 IADD3 R7, R7, 0x1, RZ",
	"@!P2 LOP3.LUT R7, RZ, R8, RZ, 0x33, !PT",
	NULL,
};
static const char *const udiv32_r[] = {
	"@P0 IADD3 R5, -R8, R5, RZ",
	"ISETP.GE.U32.AND P0, PT, R5, R8, PT",
	"@P0 IADD3 R5, -R8, R5, RZ",
	"@!P2 LOP3.LUT R5, RZ, R8, RZ, 0x33, !PT",
	NULL,
};

/* a in R6, b in R7; quotient in R5 */
static const char *const sdiv32[] = {
	"IABS R9, R7",
	"IABS R12, R7",
	"I2F.RP R8, R9",
	"MUFU.RCP R8, R8",
	"IADD3 R4, R8, 0xffffffe, RZ",
	"IABS R8, R6",
	"LOP3.LUT R6, R6, R7, RZ, 0x3c, !PT",
	"F2I.FTZ.U32.TRUNC.NTZ R5, R4",
	"ISETP.GE.AND P1, PT, R6, RZ, PT",
	"IADD3 R10, RZ, -R5, RZ",
	"IMAD R11, R10, R9, RZ",
	"IADD3 R10, RZ, -R12, RZ",
	"IMAD.HI.U32 R4, R5, R11, RZ",
	"IADD3 R5, R4, R5, RZ",
	"IMAD.HI.U32 R5, R5, R8, RZ",
	"IMAD R4, R5, R10, R8",
	"ISETP.GT.U32.AND P2, PT, R9, R4, PT",
	"@!P2 IADD3 R4, R4, -R9, RZ",
	"@!P2 IADD3 R5, R5, 0x1, RZ",
	"ISETP.NE.AND P2, PT, R7, RZ, PT",
	"ISETP.GE.U32.AND P0, PT, R4, R9, PT",
	"@P0 IADD3 R5, R5, 0x1, RZ",
	"@!P1 IADD3 R5, -R5, RZ, RZ",
	"@!P2 LOP3.LUT R5, RZ, R7, RZ, 0x33, !PT",
	NULL,
};

/* a in R6, b in R12; remainder in R5 */
static const char *const srem32[] = {
	"IABS R8, R12",
	"IABS R11, R12",
	"I2F.RP R7, R8",
	"IABS R10, R6",
	"ISETP.GE.AND P2, PT, R6, RZ, PT",
	"MUFU.RCP R7, R7",
	"IADD3 R4, R7, 0xffffffe, RZ",
	"IADD3 R7, RZ, -R11, RZ",
	"F2I.FTZ.U32.TRUNC.NTZ R5, R4",
	"IADD3 R9, RZ, -R5, RZ",
	"IMAD R9, R9, R8, RZ",
	"IMAD.HI.U32 R4, R5, R9, RZ",
	"IADD3 R5, R4, R5, RZ",
	"IMAD.HI.U32 R5, R5, R10, RZ",
	"IMAD R5, R5, R7, R10",
	"ISETP.GT.U32.AND P0, PT, R8, R5, PT",
	"@!P0 IADD3 R5, R5, -R8, RZ",
	"ISETP.NE.AND P0, PT, R12, RZ, PT",
	"ISETP.GT.U32.AND P1, PT, R8, R5, PT",
	"@!P1 IADD3 R5, R5, -R8, RZ",
	"@!P2 IADD3 R5, -R5, RZ, RZ",
	"@!P0 LOP3.LUT R5, RZ, R12, RZ, 0x33, !PT",
	NULL,
};

static MRef
div32(Sel *s, MRef a, MRef b, int sgn, int rem)
{
	Seq q;
	MRef r;

	seq_init(&q, s);
	if (!sgn) {
		seq_bind(&q, 9, a);
		seq_bind(&q, 8, b);
		seq_lines(&q, udiv32);
		seq_lines(&q, rem ? udiv32_r : udiv32_q);
		r = seq_get(&q, rem ? 5 : 7);
	} else {
		seq_bind(&q, 6, a);
		seq_bind(&q, rem ? 12 : 7, b);
		seq_lines(&q, rem ? srem32 : sdiv32);
		r = seq_get(&q, 5);
	}
	seq_end(&q);
	return r;
}

/* ---- 64 bits ---- */

/* Unsigned 64-bit division, ptxas's method (the body of its
 * __cuda_sm20_div_u64): a reciprocal estimate from I2F.U64.RP + MUFU.RCP,
 * two Newton steps r += mulhi(r, -r*d), q = mulhi(n, r) and two
 * corrections.  n in R2:R3, d in R4:R5; quotient in R6:R7, remainder in
 * R10:R11 (d = 0 gives garbage: the callers select all ones). */
static void
udiv64(Seq *q)
{
	int k;

	seq_emit(q, "I2F.U64.RP R12, R4:2");
	seq_emit(q, "MUFU.RCP R12, R12");
	seq_emit(q, "IADD3 R12, R12, 0x1ffffffe, RZ");
	seq_emit(q, "F2I.U64.TRUNC R14:2, R12");
	for (k = 0; k < 2; k++) {
		seq_mullo_u64(q, 16, 14, 4);
		seq_emit(q, "IADD3 R16, P3, RZ, -R16, RZ");
		seq_emit(q, "IADD3.X R17, RZ, ~R17, RZ, P3, !PT");
		seq_mulhi_u64(q, 18, 14, 16);
		seq_emit(q, "IADD3 R14, P3, R14, R18, RZ");
		seq_emit(q, "IADD3.X R15, R15, R19, RZ, P3, !PT");
	}
	seq_mulhi_u64(q, 6, 2, 14);
	seq_mullo_u64(q, 16, 6, 4);
	seq_emit(q, "IADD3 R10, P3, R2, -R16, RZ");
	seq_emit(q, "IADD3.X R11, R3, ~R17, RZ, P3, !PT");
	for (k = 0; k < 2; k++) {
		seq_emit(q, "ISETP.GE.U32.AND P4, PT, R10, R4, PT");
		seq_emit(q, "ISETP.GE.U32.AND.EX P4, PT, R11, R5, PT, P4");
		seq_emit(q, "@P4 IADD3 R10, P3, R10, -R4, RZ");
		seq_emit(q, "@P4 IADD3.X R11, R11, ~R5, RZ, P3, !PT");
		seq_emit(q, "@P4 IADD3 R6, P3, R6, 0x1, RZ");
		seq_emit(q, "@P4 IADD3.X R7, RZ, R7, RZ, P3, !PT");
	}
}

/* |n| into R2:R3 and |d| into R4:R5 from n in R20:R21, d in R22:R23;
 * P5 = the quotient is negative. */
static const char *const sabs64[] = {
	"IADD3 R24, P1, RZ, -R22, RZ",
	"ISETP.GE.AND P0, PT, R23, RZ, PT",
	"ISETP.GE.AND P3, PT, R21, RZ, PT",
	"IMAD.X R25, RZ, RZ, ~R23, P1",
	"SEL R4, R24, R22, !P0",
	"SEL R5, R25, R23, !P0",
	"IADD3 R26, P4, RZ, -R20, RZ",
	"IMAD.X R27, RZ, RZ, ~R21, P4",
	"SEL R2, R26, R20, !P3",
	"SEL R3, R27, R21, !P3",
	"LOP3.LUT R28, R23, R21, RZ, 0x3c, !PT",
	"ISETP.LT.AND P5, PT, R28, RZ, PT",
	NULL,
};
static const char *const sfix64[] = {
	"IADD3 R30, P2, RZ, -R6, RZ",
	"IMAD.X R31, RZ, RZ, ~R7, P2",
	"SEL R6, R30, R6, P5",
	"SEL R7, R31, R7, P5",
	NULL,
};
/* remainder n - q*d into R6:R7 (n in R20:R21, d in R22:R23) */
static const char *const rem64[] = {
	"IMAD.WIDE.U32 R32:2, R6, R22, RZ",
	"IMAD R34, R6, R23, R33",
	"IMAD R34, R7, R22, R34",
	"IADD3 R6, P2, R20, -R32, RZ",
	"IADD3.X R7, R21, ~R34, RZ, P2, !PT",
	NULL,
};
static const char *const zero64[] = {
	"ISETP.NE.U32.AND P6, PT, R22, RZ, PT",
	"ISETP.NE.AND.EX P6, PT, R23, RZ, PT, P6",
	"SEL R6, R6, 0xffffffff, P6",
	"SEL R7, R7, 0xffffffff, P6",
	NULL,
};

static MRef
div64(Sel *s, MRef n, MRef d, int sgn, int rem)
{
	Seq q;
	MRef r;

	seq_init(&q, s);
	seq_bind64(&q, 20, n);
	seq_bind64(&q, 22, d);
	/* both high words zero: the 32-bit division (x/0: all ones); else
	   the 64-bit body; each skipped by a branch, like ptxas.  The result
	   R60:R61 is written in place by guarded moves (true where they run) */
	seq_emitf(&q, "MOV R60:p, 0x0");
	seq_emitf(&q, "MOV R61:p, 0x0");
	seq_emitf(&q, "LOP3.LUT R62, R21, R23, RZ, 0xfc, !PT");
	seq_emitf(&q, "ISETP.NE.U32.AND P6, PT, R62, RZ, PT");
	seq_skip(&q, "!P6");
	seq_bind(&q, 9, seq_get(&q, 20));
	seq_bind(&q, 8, seq_get(&q, 22));
	seq_lines(&q, udiv32);
	seq_lines(&q, rem ? udiv32_r : udiv32_q);
	seq_emitf(&q, "ISETP.EQ.U32.AND P3, PT, R22, RZ, PT");
	seq_emitf(&q, "SEL R63, RZ, 0xffffffff, !P3");
	seq_emitf(&q, "@!P6 MOV R60, R%d", rem ? 5 : 7);
	seq_emitf(&q, "@!P6 MOV R61, R63");
	seq_join(&q);
	seq_skip(&q, "P6");
	if (sgn) {
		seq_lines(&q, sabs64);
	} else {
		seq_bind64(&q, 2, n);
		seq_bind64(&q, 4, d);
	}
	udiv64(&q);
	if (sgn)
		seq_lines(&q, sfix64);
	if (rem)
		seq_lines(&q, rem64);
	seq_lines(&q, zero64);
	/* the merge writes R60:R61 in place (guarded; true here) */
	seq_emitf(&q, "LOP3.LUT R62, R21, R23, RZ, 0xfc, !PT");
	seq_emitf(&q, "ISETP.NE.U32.AND P0, PT, R62, RZ, PT");
	seq_emitf(&q, "@P0 MOV R60, R6");
	seq_emitf(&q, "@P0 MOV R61, R7");
	seq_join(&q);
	r = seq_pair(&q, 60);
	seq_end(&q);
	return r;
}

/* ---- by an immediate: a divconst plan ---- */

#ifdef HAVE_DIVCONST
/* The plan's step text with Seq register names: {x} {x.lo} -> R0,
 * {x.hi} -> R1, {tk} -> Rk, {pk} -> Pk; the pairs of IMAD.WIDE (dst, c)
 * and IMAD.HI (c) marked ":2". */
static void
plan_line(const char *in, char *line, size_t n)
{
	char tmp[180], *opd[8], *c, *o;
	int k = 0, i, wide = !strncmp(in, "IMAD.WIDE", 9), hi = !strncmp(in, "IMAD.HI", 7);
	int has_pd;

	for (c = (char *)in, o = tmp; *c && o < tmp + sizeof tmp - 8; c++) {
		if (*c != '{') {
			*o++ = *c;
			continue;
		}
		if (!strncmp(c, "{x}", 3) || !strncmp(c, "{x.lo}", 6))
			*o++ = 'R', *o++ = '0';
		else if (!strncmp(c, "{x.hi}", 6))
			*o++ = 'R', *o++ = '1';
		else
			o += str_printf(o, (size_t)(tmp + sizeof tmp - o), "%c%d", c[1] == 't' ? 'R' : 'P', atoi(c + 2));
		c = strchr(c, '}');
	}
	*o = 0;
	if (!wide && !hi) {
		/* nvdisasm spells a multiply by 1 IMAD.IADD */
		if (!strncmp(tmp, "IMAD R", 6) && strstr(tmp, ", 0x1, "))
			str_printf(line, n, "IMAD.IADD%s", tmp + 4);
		else
			str_printf(line, n, "%s", tmp);
		return;
	}
	/* split "MNEMO op0, op1, ..." */
	c = strchr(tmp, ' ');
	*c++ = 0;
	while (c && k < 8) {
		opd[k++] = c;
		c = strstr(c, ", ");
		if (c) {
			*c = 0;
			c += 2;
		}
	}
	has_pd = k > 1 && opd[1][0] == 'P';
	o = line;
	o += str_printf(o, n, "%s ", tmp);
	for (i = 0; i < k; i++) {
		int pair = (wide && i == 0) || (i == 3 + has_pd && strcmp(opd[i], "RZ"));
		o += str_printf(o, n - (size_t)(o - line), "%s%s%s", i ? ", " : "", opd[i], pair ? ":2" : "");
	}
}

/* Emits a DivPlan's steps with operand k as Seq register Rk. */
static MRef
run_plan(Sel *s, const DivPlan *p, MRef x)
{
	Seq q;
	Buf b = {0};
	int i;
	MRef r;

	seq_init(&q, s);
	if (p->bits == 64)
		seq_bind64(&q, 0, x);
	else
		seq_bind(&q, 0, x);
	for (i = 0; i < p->nsteps; i++) {
		char line[200];
		b.n = 0;
		divconst_sass(p, i, &b);
		buf_putc(&b, 0);
		plan_line(b.s, line, sizeof line);
		seq_emit(&q, line);
	}
	r = p->bits == 64 ? seq_pair(&q, p->result) : seq_get(&q, p->result);
	seq_end(&q);
	buf_free(&b);
	return r;
}

#endif

/* A 16-bit operand zero- or sign-extended to 32 bits. */
static MRef
ext16(Sel *s, const PtxOperand *o, int sg)
{
	MRef a = sel_r32(s, o, 0), t = sel_tmp(s, 1);

	if (!sg) {
		mi(s->mf, "LOP3.LUT %D, %U, 0xffff, RZ, 0xc0, !PT", t, a);
	} else {
		MRef u = sel_tmp(s, 1);
		mi(s->mf, "SHF.L.U32 %D, %U, 0x10, RZ", u, a);
		mi(s->mf, "SHF.R.S32.HI %D, RZ, 0x10, %U", t, u);
	}
	return t;
}

static int
sel_divrem(Sel *s, const IrIns *x, int rem)
{
	PtxType t = ty(x);
	int n = ptx_type_size(t), sg = ptx_type_is_signed(t);
	MRef d = sel_reg(s, D0->reg), r;
	u64 imm = 0;

	if (ptx_type_is_float(t))
		return sel_div_float(s, x);
	if (n == 2) {  /* extended to 32 bits (the upper bits are undefined) */
		MRef a = ext16(s, S1, sg), b = ext16(s, S2, sg);
		sel_mov32(s, d, mopd_reg(div32(s, a, b, sg, rem)));
		return 0;
	}
	if (n != 4 && n != 8)
		return sel_unsupported(s, "div/rem on 8-bit integers");
#ifdef HAVE_DIVCONST
	/* x / 0 and x % 0 are all ones, like ptxas (divconst's plan for 0
	   leaves the remainder x) */
	if (S2->kind == PTX_OPD_IMM && sel_imm(S2, &imm) && (n == 8 ? imm : (u32)imm) == 0) {
		sel_mov32(s, n == 8 ? mpart(d.v, 0, 1) : d, mopd_txt("0xffffffff"));
		if (n == 8)
			sel_mov32(s, mpart(d.v, 1, 1), mopd_txt("0xffffffff"));
		return 0;
	}
	if (S2->kind == PTX_OPD_IMM && sel_imm(S2, &imm)) {
		DivPlan p;
		if (divconst_plan(&p, n == 8 ? imm : (u32)imm, n * 8, sg, rem) < 0)
			return sel_unsupported(s, "this division by a constant");
		r = run_plan(s, &p, n == 8 ? sel_r64(s, S1) : sel_r32(s, S1, 0));
	} else
#endif
	if (n == 4) {
		r = div32(s, sel_r32(s, S1, 0), sel_r32(s, S2, 0), sg, rem);
	} else {
		r = div64(s, sel_r64(s, S1), sel_r64(s, S2), sg, rem);
	}
	if (n == 4) {
		sel_mov32(s, d, mopd_reg(r));
	} else if (r.v == s->mf->rz) {
		sel_mov32(s, mpart(d.v, 0, 1), mopd_txt("RZ"));
		sel_mov32(s, mpart(d.v, 1, 1), mopd_txt("RZ"));
	} else {
		sel_mov32(s, mpart(d.v, 0, 1), mopd_reg(mpart(r.v, r.sub, 1)));
		sel_mov32(s, mpart(d.v, 1, 1), mopd_reg(mpart(r.v, r.sub + 1, 1)));
	}
	return 0;
}

static int sel_div(Sel *s, const IrIns *x) { return sel_divrem(s, x, 0); }
static int sel_rem(Sel *s, const IrIns *x) { return sel_divrem(s, x, 1); }

const SelRule sel_rules_div[] = {
	{PTX_OP_div, sel_div}, {PTX_OP_rem, sel_rem},
	{0, NULL},
};
