/* isel_math.c -- float division, reciprocal, square root and the MUFU
 * transcendentals (ex2 lg2 sin cos tanh rsqrt), f32 and f64.
 *
 * The sequences are ptxas's (CUDA 13.0).  Where ptxas calls a slow path
 * subroutine (div.rn.f32 when FCHK flags the operands, sqrt.rn.f32
 * outside the normal range, div/sqrt/rcp.rn.f64) the slow path follows
 * the fast one inline, skipped by one branch when it is not needed
 * ("SKIP P6" ... "JOIN", isel_seq.c); inside it every branch of ptxas's
 * subroutine became a selection, so the code is correct for every input
 * (zeros, denormals, infinities, NaNs, overflow and underflow). */
#include <stdio.h>
#include <string.h>

#include "codegen/isel.h"

#define D0 (&x->p.opds[0])
#define S1 (&x->p.opds[1])
#define S2 (&x->p.opds[2])

#define TWO64 "1.84467440737095516160e+19"
#define FLTMIN "1.175494350822287508e-38"
#define BIG "8.50705917302346158658e+37"

static PtxType
ty(const IrIns *x)
{
	return (PtxType)x->p.types[0];
}

static int
ftz(const IrIns *x)
{
	return !!(x->p.flags & PTX_F_FTZ);
}

/* ---- shared slow paths ----
 * The slow path of a kind below is a subroutine shared by its uses
 * (isel_seq.c, seq_call) when the function has two uses or more; one use
 * keeps it inline (a call costs its copies, the CALL and the RET). */
enum { SLOW_NONE, SLOW_FDIV, SLOW_FSQRT, SLOW_DDIV, SLOW_DSQRT, SLOW_DRCP };

static int
slow_kind(const PtxInstr *p)
{
	int t = p->types[0], approx = (p->flags & (PTX_F_APPROX | PTX_F_FULL)) != 0;
	int rn = p->rnd == PTX_RND_RN || p->rnd == PTX_RND_NONE;

	/* div/rcp .rz/.rm/.rp and sqrt.rz/rm/rp.f64 run the .rn sequence
	   (its slow path too), then a directed step (dir_step_preds) */
	if (approx || (!rn && !(p->op == PTX_OP_sqrt && t == PTX_T_F64)))
		return SLOW_NONE;
	if (p->op == PTX_OP_sqrt && t == PTX_T_F64)
		return SLOW_DSQRT;
	switch (p->op) {
	case PTX_OP_div:
		return t == PTX_T_F32 ? SLOW_FDIV : t == PTX_T_F64 ? SLOW_DDIV : SLOW_NONE;
	case PTX_OP_rcp:
		return t == PTX_T_F32 ? SLOW_FDIV : t == PTX_T_F64 ? SLOW_DRCP : SLOW_NONE;
	case PTX_OP_sqrt:
		return p->rnd != PTX_RND_RN ? SLOW_NONE : t == PTX_T_F32 ? SLOW_FSQRT : t == PTX_T_F64 ? SLOW_DSQRT : SLOW_NONE;
	}
	return SLOW_NONE;
}

/* Does the function use x's slow path more than once? */
static int
shared_slow(Sel *s, const IrIns *x)
{
	int k = slow_kind(&x->p), n = 0;
	size_t b, i;

	if (k == SLOW_NONE)
		return 0;
	for (b = 0; b < s->ir->b.n; b++)
		for (i = 0; i < s->ir->b.v[b].ins.n; i++) {
			const IrIns *y = &s->ir->b.v[b].ins.v[i];
			if (!y->dead && slow_kind(&y->p) == k && ++n > 1)
				return 1;
		}
	return 0;
}

/* The single 32-bit destination. */
static MRef
d32(Sel *s, const IrIns *x)
{
	return sel_reg(s, D0->reg);
}

/* Finish a sequence whose f32 result is R(r): flush it when .ftz. */
static void
put32(Sel *s, const IrIns *x, Seq *q, int r, int flush)
{
	MRef v;
	char l[48];

	if (flush) {
		str_printf(l, sizeof l, "FADD.FTZ R60, R%d, -RZ", r);
		seq_emit(q, l);
		r = 60;
	}
	v = seq_get(q, r);
	seq_end(q);
	sel_mov32(s, d32(s, x), mopd_reg(v));
}

/* An f32 .approx function: one MUFU with .ftz, else ptxas's sequence
 * (source in R4, result in R24) that scales denormals around it. */
static int
approx32(Sel *s, const IrIns *x, const char *mufu, const char *const *lines)
{
	Seq q;

	if (ftz(x)) {
		mi(s->mf, mufu, d32(s, x), sel_r32(s, S1, 0));
		return 0;
	}
	seq_init(&q, s);
	seq_bind(&q, 4, sel_r32(s, S1, 0));
	seq_lines(&q, lines);
	put32(s, x, &q, 24, 0);
	return 0;
}

/* ---- f32 division, correctly rounded ---- */

/* a in R0, b in R3 (flushed first for .ftz); the quotient in R24. */
static const char *const fdiv_fast[] = {
	"MUFU.RCP R20, R3",
	"FCHK P6, R0, R3",
	"FFMA R21, -R3, R20, 1",
	"FFMA R21, R20, R21, R20",
	"FFMA R22, R0, R21, RZ",
	"FFMA R23, -R3, R22, R0",
	"FFMA R24, R21, R23, R22",
	NULL,
};

/* ptxas's __cuda_sm3x_div_rn_noftz_f32_slowpath, every branch turned into
 * a selection: exponents split off, operands scaled to [1, 2), the same
 * refinement, then the normal / overflow / underflow / denormal results
 * (the denormal one rounded by hand from the RZ, RM and RP residual
 * FFMAs), then the special operands in the order ptxas tests them. */
static const char *const fdiv_slow[] = {
	"SKIP P6",
	"SHF.R.U32.HI R7, RZ, 0x17, R3",
	"SHF.R.U32.HI R2, RZ, 0x17, R0",
	"LOP3.LUT R9, R7, 0xff, RZ, 0xc0, !PT",
	"LOP3.LUT R2, R2, 0xff, RZ, 0xc0, !PT",
	"IADD3 R13, R9, -0x1, RZ",
	"IADD3 R12, R2, -0x1, RZ",
	"ISETP.GE.AND P0, PT, R12, RZ, PT",
	"ISETP.GE.AND P1, PT, R13, RZ, PT",
	"FFMA R10, R0, " TWO64 ", RZ",
	"FFMA R11, R3, " TWO64 ", RZ",
	"@P0 MOV R10, R0",
	"@P1 MOV R11, R3",
	"SEL R7, RZ, 0xffffffc0, P0",
	"@!P1 IADD3 R7, R7, 0x40, RZ",
	"LEA R12, R9, 0xc0800000, 0x17",
	"IADD3 R12, R11, -R12, RZ",
	"IADD3 R11, R2, -0x7f, RZ",
	"MUFU.RCP R13, R12",
	"FADD.FTZ R15, -R12, -RZ",
	"IMAD R2, R11, -0x800000, R10",
	"FFMA R14, R13, R15, 1",
	"FFMA R17, R13, R14, R13",
	"FFMA R10, R2, R17, RZ",
	"FFMA R13, R15, R10, R2",
	"FFMA R14, R17, R13, R10",
	"IADD3 R10, R11, 0x7f, -R9",
	"FFMA R15, R15, R14, R2",
	"IADD3 R10, R10, R7, RZ",
	"FFMA R2, R17, R15, R14",
	"SHF.R.U32.HI R9, RZ, 0x17, R2",
	"LOP3.LUT R9, R9, 0xff, RZ, 0xc0, !PT",
	"IADD3 R11, R9, R10, RZ",
	"IADD3 R7, R11, -0x1, RZ",
	/* normal, signed zero, signed infinity */
	"LEA R30, R10, R2, 0x17",
	"LOP3.LUT R31, R2, 0x80000000, RZ, 0xc0, !PT",
	"LOP3.LUT R32, R31, 0x7f800000, RZ, 0xfc, !PT",
	/* denormal */
	"FFMA.RZ R33, R17, R15, R14",
	"IADD3 R12, R11, 0x20, RZ",
	"FFMA.RM R34, R17, R15, R14",
	"ISETP.NE.AND P2, PT, R11, RZ, PT",
	"LOP3.LUT R35, R33, 0x7fffff, RZ, 0xc0, !PT",
	"FFMA.RP R36, R17, R15, R14",
	"IADD3 R37, RZ, -R11, RZ",
	"LOP3.LUT R35, R35, 0x800000, RZ, 0xfc, !PT",
	"FSETP.NEU.FTZ.AND P3, PT, R36, R34, PT",
	"SHF.L.U32 R12, R35, R12, RZ",
	"SEL R38, R37, RZ, P2",
	"ISETP.NE.AND P4, PT, R12, RZ, P2",
	"SHF.R.U32.HI R38, RZ, R38, R35",
	"PLOP3.LUT P3, PT, P3, P4, PT, 0xa8, 0x0",
	"SHF.R.U32.HI R12, RZ, 0x1, R38",
	"SEL R39, RZ, 0x1, !P3",
	"LOP3.LUT R39, R39, 0x1, R12, 0xf8, !PT",
	"LOP3.LUT R39, R39, R38, RZ, 0xc0, !PT",
	"IADD3 R39, R12, R39, RZ",
	"LOP3.LUT R39, R39, R31, RZ, 0xfc, !PT",
	/* pick by the result's biased exponent E = R11 */
	"ISETP.GE.AND P2, PT, R11, -0x18, PT",
	"SEL R40, R39, R31, P2",
	"ISETP.GT.AND P2, PT, R11, 0xfe, PT",
	"SEL R40, R32, R40, P2",
	"ISETP.GE.U32.AND P2, PT, R7, 0xfe, PT",
	"SEL R40, R40, R30, P2",
	/* special operands, the later ones first (the last write wins) */
	"LOP3.LUT R41, R3, 0x80000000, R0, 0x48, !PT",
	"LOP3.LUT R42, R41, 0x7f800000, RZ, 0xfc, !PT",
	"FSETP.NEU.FTZ.AND P2, PT, |R0|, +INF , PT",
	"LOP3.LUT P3, RZ, R3, 0x7fffffff, RZ, 0xc0, !PT",
	"PLOP3.LUT P2, PT, P2, P3, PT, 0x2a, 0x0",
	"@P2 MOV R40, R42",
	"FSETP.NEU.FTZ.AND P2, PT, |R3|, +INF , PT",
	"LOP3.LUT P3, RZ, R0, 0x7fffffff, RZ, 0xc0, !PT",
	"PLOP3.LUT P2, PT, P2, P3, PT, 0x2a, 0x0",
	"@P2 MOV R40, R41",
	"FSETP.NEU.FTZ.AND P2, PT, |R0|, +INF , PT",
	"FSETP.NEU.FTZ.AND P3, PT, |R3|, +INF , PT",
	"PLOP3.LUT P2, PT, P2, P3, PT, 0x2, 0x0",
	"LOP3.LUT P3, RZ, R3, 0x7fffffff, R0, 0xc8, !PT",
	"@P2 MOV R40, 0x7fffffff",
	"@!P3 MOV R40, 0x7fffffff",
	"FSETP.GTU.FTZ.AND P2, PT, |R0|, +INF , PT",
	"FSETP.GTU.FTZ.AND P3, PT, |R3|, +INF , PT",
	"PLOP3.LUT P2, PT, P2, P3, PT, 0xa8, 0x0",
	"FADD.FTZ R43, R0, R3",
	"@P2 MOV R40, R43",
	"@P6 MOV R24, R40",
	"JOIN",
	NULL,
};

/* R24 = a / b rounded to nearest even, a and b bound to R0 and R3. */
static void
fdiv_rn(Seq *q, int flush)
{
	if (flush) {
		seq_emit(q, "FADD.FTZ R0, R0, -RZ");
		seq_emit(q, "FADD.FTZ R3, R3, -RZ");
	}
	seq_lines(q, fdiv_fast);
	seq_lines(q, fdiv_slow);
}

/* ---- directed rounding: div/rcp/sqrt .rz/.rm/.rp (f32, f64) ----
 *
 * The round-to-nearest sequence above gives q = RN(x), x the exact
 * quotient a/b (or sqrt(a)), for every input.  The result rounded in a
 * direction is q or its neighbour: RZ(x) is q unless |x| < |q|, then the
 * next value toward zero; RP(x) is q unless x > q, then the next value
 * up; RM the mirror.  With q's sign equal to x's (RN keeps it, zeros
 * too), the neighbour is q's bits +1 when |x| > |q| is needed and -1 when
 * |x| < |q|; the bit step turns DBL_MAX into inf, min subnormal into 0,
 * +-0 into +-min subnormal, all as wanted.
 *
 * |x| vs |q| is the sign of the remainder r = a - q*b (a - q*q for
 * sqrt) relative to a's sign: one FMA, exact before its rounding, whose
 * rounding keeps r's sign whenever r cannot round to zero.  r is a
 * multiple of min(ulp(a), ulp(q) * ulp(b)) (all powers of two); when |a|
 * is not tiny that is at least 2^-121 (f32, |a| >= 2^-90) or 2^-1067 (f64,
 * |a| >= 2^-960), so a nonzero r stays nonzero (docs/compiler-math.md,
 * "Directed rounding", for the bounds, the subnormal q included).  A tiny
 * a is scaled with q (a * 2^64, q * 2^64; f64 2^600; sqrt a * 2^600,
 * q * 2^300): exact, no overflow, the same remainder scaled.
 *
 * Special operands need no case of their own: a NaN, inf/inf, 0/0, x/0,
 * x/inf, inf/x, sqrt(inf), sqrt(negative) make r NaN or zero (no step);
 * an overflowed q = inf with finite operands makes r infinite with the
 * sign opposite to a's, so |x| < |q| and RZ gives max-finite, RP of a
 * positive x keeps inf, exactly IEEE.  .ftz: the operands were flushed
 * before q, the result is flushed after (put32), as the interpreter.
 *
 * The remainder's sign and the step: P1 = |x| > |q|, P2 = |x| < |q|;
 * P4 = step up, P5 = step down by the rounding and q's sign (for RZ: P2
 * steps down, nothing up); returns 0 for RZ. */
static int
dir_step_preds(Seq *q, int rnd, int qhi)
{
	switch (rnd) {
	case PTX_RND_RZ:
		return 0;                       /* down = P2, never up */
	case PTX_RND_RP:
		seq_emitf(q, "ISETP.GE.AND P4, PT, R%d, RZ, P1", qhi);
		seq_emitf(q, "ISETP.LT.AND P5, PT, R%d, RZ, P2", qhi);
		return 1;
	case PTX_RND_RM:
		seq_emitf(q, "ISETP.LT.AND P4, PT, R%d, RZ, P1", qhi);
		seq_emitf(q, "ISETP.GE.AND P5, PT, R%d, RZ, P2", qhi);
		return 1;
	}
	ASSERT(!"dir_step_preds: not a directed rounding");
	return 0;
}

/* f32: a in R0, b in R3, q = RN(a/b) in R24 (updated).  R62..R66, P0..P5. */
static void
fdiv_dir(Seq *q, int rnd)
{
	seq_emit(q, "LOP3.LUT R62, R0, 0x7fffffff, RZ, 0xc0, !PT");
	seq_emit(q, "ISETP.LT.U32.AND P0, PT, R62, 0x12800000, PT");   /* |a| < 2^-90 */
	seq_emit(q, "MOV R63, 0x3f800000");
	seq_emit(q, "SEL R63, R63, 0x5f800000, !P0");                   /* 1 or 2^64 */
	seq_emit(q, "FMUL R64, R0, R63");
	seq_emit(q, "FMUL R65, R24, R63");
	seq_emit(q, "FFMA R66, -R65, R3, R64");
	seq_emit(q, "LOP3.LUT R62, R0, 0x80000000, RZ, 0xc0, !PT");
	seq_emit(q, "LOP3.LUT R66, R66, R62, RZ, 0x3c, !PT");
	seq_emit(q, "FSETP.GT.AND P1, PT, R66, RZ, PT");
	seq_emit(q, "FSETP.LT.AND P2, PT, R66, RZ, PT");
	if (dir_step_preds(q, rnd, 24)) {
		seq_emit(q, "@P4 IADD3 R24, R24, 0x1, RZ");
		seq_emit(q, "@P5 IADD3 R24, R24, -0x1, RZ");
	} else {
		seq_emit(q, "@P2 IADD3 R24, R24, -0x1, RZ");
	}
}

/* f64: q = RN(x) in R60:R61 (updated); a in R(a):R(a+1) (-1: a = 1, rcp),
 * b in R(b):R(b+1) (-1: sqrt, b = q).  R62..R77, P0..P5. */
static void
ddir(Seq *q, int rnd, int a, int b)
{
	int up;

	if (a >= 0) {
		/* |a| < 2^-960 (2^-900 for sqrt): scale a by 2^600, q by 2^600
		   (2^300 for sqrt) */
		seq_emitf(q, "LOP3.LUT R62, R%d, 0x7fffffff, RZ, 0xc0, !PT", a + 1);
		seq_emitf(q, "ISETP.LT.U32.AND P0, PT, R62, %s, PT", b < 0 ? "0x7b00000" : "0x3f00000");
		seq_emit(q, "MOV R63, 0x3ff00000");
		seq_emit(q, "MOV R64:p, 0x0");
		seq_emit(q, "SEL R65:p, R63, 0x65700000, !P0");
		seq_emit(q, "MOV R66:p, 0x0");
		seq_emitf(q, "SEL R67:p, R63, %s, !P0", b < 0 ? "0x52b00000" : "0x65700000");
		seq_emitf(q, "DMUL R68:2, R%d:2, R64:2", a);
		seq_emit(q, "DMUL R70:2, R60:2, R66:2");
		seq_emitf(q, "DFMA R74:2, -R70:2, R%d:2, R68:2", b < 0 ? 70 : b);
		seq_emitf(q, "LOP3.LUT R62, R%d, 0x80000000, RZ, 0xc0, !PT", a + 1);
		seq_emit(q, "MOV R72:p, R74");
		seq_emit(q, "LOP3.LUT R73:p, R75, R62, RZ, 0x3c, !PT");
	} else {
		seq_emitf(q, "DFMA R72:2, -R60:2, R%d:2, 1", b);
	}
	seq_emit(q, "DSETP.GT.AND P1, PT, R72:2, RZ, PT");
	seq_emit(q, "DSETP.LT.AND P2, PT, R72:2, RZ, PT");
	up = dir_step_preds(q, rnd, 61);
	/* q's bits + 1 (R76:R77) and - 1 (R62:R63, fresh) */
	if (up) {
		seq_emit(q, "IADD3 R76, R60, 0x1, RZ");
		seq_emit(q, "ISETP.EQ.AND P0, PT, R76, RZ, PT");
		seq_emit(q, "MOV R77, R61");
		seq_emit(q, "@P0 IADD3 R77, R61, 0x1, RZ");
	}
	seq_emit(q, "IADD3 R62, R60, -0x1, RZ");
	seq_emit(q, "ISETP.EQ.AND P0, PT, R60, RZ, PT");
	seq_emit(q, "MOV R63, R61");
	seq_emit(q, "@P0 IADD3 R63, R61, -0x1, RZ");
	if (up) {
		seq_emit(q, "@P4 MOV R60, R76");
		seq_emit(q, "@P4 MOV R61, R77");
	}
	seq_emitf(q, "@%s MOV R60, R62", up ? "P5" : "P2");
	seq_emitf(q, "@%s MOV R61, R63", up ? "P5" : "P2");
}

static int
div_f32(Sel *s, const IrIns *x, MRef a, MRef b)
{
	Seq q;
	const char *const *l = NULL;

	/* div.approx: ptxas scales a huge or tiny |b| first (not with .ftz) */
	static const char *const approx[] = {
		"FSETP.GEU.AND P0, PT, |R3|, " FLTMIN ", PT",
		"@!P0 FMUL R3, R3, 16777216",
		"@!P0 FMUL R0, R0, 16777216",
		"MUFU.RCP R3, R3",
		"FMUL R24, R3, R0",
		NULL,
	};
	static const char *const full[] = {
		"FSETP.GT.AND P0, PT, |R3|, " BIG ", PT",
		"FSETP.GEU.AND P1, PT, |R3|, " FLTMIN ", PT",
		"@P0 FMUL R3, R3, 0.25",
		"@P0 FMUL R0, R0, 0.25",
		"@!P1 FMUL R3, R3, 16777216",
		"@!P1 FMUL R0, R0, 16777216",
		"MUFU.RCP R3, R3",
		"FMUL R24, R3, R0",
		NULL,
	};
	static const char *const approx_ftz[] = {
		"MUFU.RCP R3, R3",
		"FMUL.FTZ R24, R0, R3",
		NULL,
	};
	/* div.full.ftz: ptxas 13 scales a huge |b| (and a) by 1/4, flushed */
	static const char *const full_ftz[] = {
		"FSETP.GT.FTZ.AND P0, PT, |R3|, " BIG ", PT",
		"@P0 FMUL.FTZ R3, R3, 0.25",
		"@P0 FMUL.FTZ R0, R0, 0.25",
		"MUFU.RCP R3, R3",
		"FMUL.FTZ R24, R0, R3",
		NULL,
	};

	seq_init(&q, s);
	q.share = (u8)shared_slow(s, x);
	seq_bind(&q, 0, a);
	seq_bind(&q, 3, b);
	if (x->p.flags & PTX_F_APPROX)
		l = ftz(x) ? approx_ftz : approx;
	else if (x->p.flags & PTX_F_FULL)
		l = ftz(x) ? full_ftz : full;
	if (l)
		seq_lines(&q, l);
	else {
		fdiv_rn(&q, ftz(x));
		if (x->p.rnd != PTX_RND_RN && x->p.rnd != PTX_RND_NONE)
			fdiv_dir(&q, x->p.rnd);
	}
	put32(s, x, &q, 24, !l && ftz(x));
	return 0;
}

/* ---- f64 division, correctly rounded ----
 *
 * ptxas's fast path (MUFU.RCP64H + DFMA refinement), and, when the
 * operands or the quotient are out of its range, the body of ptxas's
 * __cuda_sm20_div_rn_f64_full with every branch turned into selections.
 * a in R4:R5, b in R6:R7; the quotient in R60:R61. */
#define TINY "1.469367938527859385e-39"
static const char *const ddiv[] = {
	"MOV R2:p, 0x1",
	"MUFU.RCP64H R3:p, R7",
	"FSETP.GEU.AND P1, PT, |R5|, 6.5827683646048100446e-37, PT",
	"DFMA R8:2, -R6:2, R2:2, 1",
	"DFMA R8:2, R8:2, R8:2, R8:2",
	"DFMA R8:2, R2:2, R8:2, R2:2",
	"DFMA R2:2, -R6:2, R8:2, 1",
	"DFMA R2:2, R8:2, R2:2, R8:2",
	"DMUL R8:2, R4:2, R2:2",
	"DFMA R10:2, -R6:2, R8:2, R4:2",
	"DFMA R60:2, R2:2, R10:2, R8:2",
	"FFMA R0, RZ, R7, R61",
	"FSETP.GT.AND P0, PT, |R0|, " TINY ", PT",
	"PLOP3.LUT P6, PT, P0, P1, PT, 0x2a, 0x0",
	"SKIP P6",
	/* the slow path: b's mantissa scaled to [1, 2) (b tiny: by 2^1023
	   first), a scaled alike, exponents checked */
	"FSETP.GEU.AND P0, PT, |R7|, " TINY ", PT",
	"LOP3.LUT R2, R7, 0x800fffff, RZ, 0xc0, !PT",
	"MOV R13, 0x1ca00000",
	"LOP3.LUT R17, R7, 0x7ff00000, RZ, 0xc0, !PT",
	"LOP3.LUT R3, R2, 0x3ff00000, RZ, 0xfc, !PT",
	"MOV R2, R6",
	"LOP3.LUT R12, R5, 0x7ff00000, RZ, 0xc0, !PT",
	"ISETP.GE.U32.AND P1, PT, R12, R17, PT",
	"@!P0 DMUL R2:2, R6:2, 8.98846567431157953865e+307",
	"MOV R19, R12",
	"MOV R8:p, 0x1",
	"MUFU.RCP64H R9:p, R3",
	"DFMA R10:2, R8:2, -R2:2, 1",
	"DFMA R10:2, R10:2, R10:2, R10:2",
	"DFMA R10:2, R8:2, R10:2, R8:2",
	"SEL R9, R13, 0x63400000, !P1",
	"MOV R8, R4",
	"FSETP.GEU.AND P1, PT, |R5|, " TINY ", PT",
	"LOP3.LUT R9, R9, 0x800fffff, R5, 0xf8, !PT",
	"DFMA R14:2, R10:2, -R2:2, 1",
	"DFMA R10:2, R10:2, R14:2, R10:2",
	"@!P1 LOP3.LUT R15, R7, 0x7ff00000, RZ, 0xc0, !PT",
	"@!P1 MOV R14, 0x0",
	"@!P1 ISETP.GE.U32.AND P2, PT, R12, R15, PT",
	"@!P1 SEL R15, R13, 0x63400000, !P2",
	"@!P1 LOP3.LUT R15, R15, 0x80000000, R5, 0xf8, !PT",
	"@!P1 LOP3.LUT R15, R15, 0x100000, RZ, 0xfc, !PT",
	"@!P1 DFMA R8:2, R8:2, 2, -R14:2",
	"@!P1 LOP3.LUT R19, R9, 0x7ff00000, RZ, 0xc0, !PT",
	"MOV R18, R17",
	"@!P0 LOP3.LUT R18, R3, 0x7ff00000, RZ, 0xc0, !PT",
	"IADD3 R20, R19, -0x1, RZ",
	"DMUL R14:2, R10:2, R8:2",
	"IADD3 R21, R18, -0x1, RZ",
	"ISETP.GT.U32.AND P5, PT, R20, 0x7feffffe, PT",
	"ISETP.GT.U32.OR P5, PT, R21, 0x7feffffe, P5",
	"DFMA R16:2, R14:2, -R2:2, R8:2",
	"DFMA R10:2, R10:2, R16:2, R14:2",
	/* finite operands: scale the quotient back (exponent difference
	   clamped), then fix a result that underflows */
	"LOP3.LUT R25, R7, 0x7ff00000, RZ, 0xc0, !PT",
	"IADD3 R24, R12, -R25, RZ",
	"ISETP.LT.AND P4, PT, R24, -0x46a00000, PT",
	"SEL R24, R24, 0xb9600000, !P4",
	"ISETP.GE.U32.AND P4, PT, R12, R25, PT",
	"ISETP.GT.AND P3, PT, R24, 0x46a00000, PT",
	"SEL R24, R24, 0x46a00000, !P3",
	"SEL R13, R13, 0x63400000, !P4",
	"IADD3 R14, R24, -R13, RZ",
	"MOV R26:p, 0x0",
	"IADD3 R27:p, R14, 0x7fe00000, RZ",
	"DMUL R12:2, R10:2, R26:2",
	"FSETP.GTU.AND P3, PT, |R13|, " TINY ", PT",
	"DFMA R2:2, R10:2, -R2:2, R8:2",
	"FSETP.NEU.AND P2, PT, R3, RZ, PT",
	"LOP3.LUT R28, R3, 0x80000000, R7, 0x48, !PT",
	"MOV R30:p, 0x0",
	"LOP3.LUT R31:p, R28, R27, RZ, 0xfc, !PT",
	"DMUL.RP R32:2, R10:2, R30:2",
	"MOV R34:p, 0x0",
	"IADD3 R35:p, RZ, -R14, RZ",
	"DFMA R36:2, R12:2, -R34:2, R10:2",
	"LOP3.LUT R39, R33, R28, RZ, 0x3c, !PT",
	"IADD3 R38, -R14, -0x43300000, RZ",
	"FSETP.NEU.AND P1, PT, |R37|, R38, PT",
	"FSEL R40, R32, R12, !P1",
	"FSEL R41, R39, R13, !P1",
	"PLOP3.LUT P0, PT, P3, P2, PT, 0x8, 0x0",
	"@P0 MOV R12, R40",
	"@P0 MOV R13, R41",
	/* special operands (P5): NaN, 0/0, inf/inf, x/0, inf/x, 0/x, x/inf */
	"ISETP.NE.AND P2, PT, R19, R18, PT",
	"ISETP.NE.AND P3, PT, R19, 0x7ff00000, PT",
	"ISETP.EQ.OR P3, PT, R18, RZ, !P3",
	"LOP3.LUT R43, R5, 0x80000000, R7, 0x48, !PT",
	"LOP3.LUT R44, R43, 0x7ff00000, RZ, 0xfc, !PT",
	"SEL R43, R44, R43, P3",
	"SEL R43, R43, 0xfff80000, P2",
	"MOV R42, 0x0",
	"DSETP.NAN.AND P1, PT, R6:2, R6:2, PT",
	"LOP3.LUT R45, R7, 0x80000, RZ, 0xfc, !PT",
	"@P1 MOV R42, R6",
	"@P1 MOV R43, R45",
	"DSETP.NAN.AND P0, PT, R4:2, R4:2, PT",
	"LOP3.LUT R46, R5, 0x80000, RZ, 0xfc, !PT",
	"@P0 MOV R42, R4",
	"@P0 MOV R43, R46",
	"@P5 MOV R12, R42",
	"@P5 MOV R13, R43",
	"@P6 MOV R60, R12",
	"@P6 MOV R61, R13",
	"JOIN",
	NULL,
};

static int
div_f64(Sel *s, const IrIns *x, MRef a, MRef b)
{
	Seq q;
	MRef d = sel_reg(s, D0->reg), lo, hi;

	seq_init(&q, s);
	q.share = (u8)shared_slow(s, x);
	seq_bind64(&q, 4, a);
	seq_bind64(&q, 6, b);
	seq_lines(&q, ddiv);
	if (x->p.rnd != PTX_RND_RN && x->p.rnd != PTX_RND_NONE)
		ddir(&q, x->p.rnd, 4, 6);
	lo = seq_get(&q, 60);
	hi = seq_get(&q, 61);
	seq_end(&q);
	sel_mov32(s, mpart(d.v, 0, 1), mopd_reg(lo));
	sel_mov32(s, mpart(d.v, 1, 1), mopd_reg(hi));
	return 0;
}

/* ---- f64 square root and reciprocal, correctly rounded ----
 * ptxas's fast paths and their medium/slow paths (dsqrt_rn_f64_mediumpath,
 * dblrcp_rn_slowpath) as selections.  a in R2:R3; the result in R60:R61. */
static const char *const dsqrt[] = {
	"MOV R8:p, 0x0",
	"MOV R9:p, 0x3fd80000",
	"IADD3 R4:p, R3, -0x3500000, RZ",
	"MUFU.RSQ64H R5:p, R3",
	"ISETP.GE.U32.AND P6, PT, R4, 0x7ca00000, PT",
	"DMUL R6:2, R4:2, R4:2",
	"DFMA R6:2, R2:2, -R6:2, 1",
	"DFMA R8:2, R6:2, R8:2, 0.5",
	"DMUL R6:2, R4:2, R6:2",
	"DFMA R6:2, R8:2, R6:2, R4:2",
	"DMUL R8:2, R2:2, R6:2",
	"MOV R14:p, R6",
	"IADD3 R15:p, R7, -0x100000, RZ",
	"DFMA R10:2, R8:2, -R8:2, R2:2",
	"DFMA R60:2, R10:2, R14:2, R8:2",
	"SKIP P6",
	/* medium path: round by the RM result and its successor */
	"ISETP.GE.U32.AND P5, PT, R4, -0x3400000, PT",
	"DFMA.RM R16:2, R10:2, R14:2, R8:2",
	"IADD3 R18:p, P0, R16, 0x1, RZ",
	"IADD3.X R19:p, RZ, R17, RZ, P0, !PT",
	"DFMA.RP R20:2, -R16:2, R18:2, R2:2",
	"DSETP.GT.AND P0, PT, R20:2, RZ, PT",
	"FSEL R40, R18, R16, P0",
	"FSEL R41, R19, R17, P0",
	/* a denormal: scaled by 2^106 */
	"DMUL R22:2, R2:2, 8.11296384146066816958e+31",
	"MOV R24:p, 0x0",
	"MUFU.RSQ64H R25:p, R23",
	"MOV R26:p, 0x0",
	"MOV R27:p, 0x3fd80000",
	"DMUL R28:2, R24:2, R24:2",
	"DFMA R28:2, R22:2, -R28:2, 1",
	"DFMA R26:2, R28:2, R26:2, 0.5",
	"DMUL R28:2, R24:2, R28:2",
	"DFMA R28:2, R26:2, R28:2, R24:2",
	"DMUL R30:2, R22:2, R28:2",
	"IADD3 R29, R29, -0x100000, RZ",
	"DFMA R32:2, R30:2, -R30:2, R22:2",
	"DFMA R34:2, R28:2, R32:2, R30:2",
	"MOV R42, R34",
	"IADD3 R43, R35, -0x3500000, RZ",
	/* specials, the later tests first */
	"DADD R36:2, R2:2, R2:2",
	"ISETP.GT.AND P0, PT, R3, 0x7fefffff, PT",
	"@P0 MOV R42, R36",
	"@P0 MOV R43, R37",
	"ISETP.GE.AND P0, PT, R3, RZ, PT",
	"@!P0 MOV R42, 0x0",
	"@!P0 MOV R43, 0xfff80000",
	"DSETP.NE.AND P0, PT, R2:2, RZ, PT",
	"@!P0 MOV R42, R36",
	"@!P0 MOV R43, R37",
	"@P5 MOV R42, R40",
	"@P5 MOV R43, R41",
	"@P6 MOV R60, R42",
	"@P6 MOV R61, R43",
	"JOIN",
	NULL,
};

static const char *const drcp[] = {
	"IADD3 R4:p, R3, 0x300402, RZ",
	"MUFU.RCP64H R5:p, R3",
	"FSETP.GEU.AND P6, PT, |R4|, 5.8789094863358348022e-39, PT",
	"DFMA R6:2, -R2:2, R4:2, 1",
	"DFMA R6:2, R6:2, R6:2, R6:2",
	"DFMA R6:2, R4:2, R6:2, R4:2",
	"DFMA R8:2, -R2:2, R6:2, 1",
	"DFMA R60:2, R6:2, R8:2, R6:2",
	"SKIP !P6",
	/* slow path: |a| tiny (scaled by 2^106) */
	"LOP3.LUT R10, R3, 0x7fffffff, RZ, 0xc0, !PT",
	"IADD3 R11, R10, -0x100000, RZ",
	"DMUL R12:2, R2:2, 8.11296384146066816958e+31",
	"MOV R14:p, R11",
	"MUFU.RCP64H R15:p, R13",
	"DFMA R16:2, -R12:2, R14:2, 1",
	"DFMA R16:2, R16:2, R16:2, R16:2",
	"DFMA R16:2, R14:2, R16:2, R14:2",
	"DFMA R18:2, -R12:2, R16:2, 1",
	"DFMA R18:2, R16:2, R18:2, R16:2",
	"DMUL R40:2, R18:2, 8.11296384146066816958e+31",
	/* |a| huge: the reciprocal is denormal */
	"MOV R20:p, R2",
	"IADD3 R21:p, R3, -0x3fe00000, RZ",
	"MOV R22:p, R11",
	"MUFU.RCP64H R23:p, R21",
	"DFMA R24:2, -R20:2, R22:2, 1",
	"DFMA R24:2, R24:2, R24:2, R24:2",
	"DFMA R24:2, R22:2, R24:2, R22:2",
	"DFMA R26:2, -R20:2, R24:2, 1",
	"DFMA R26:2, R24:2, R26:2, R24:2",
	"DMUL R26:2, R26:2, 2.2250738585072013831e-308",
	"DFMA R28:2, -R2:2, R26:2, 1",
	"DFMA R28:2, R28:2, R28:2, R28:2",
	"DFMA R30:2, R26:2, R28:2, R26:2",
	"ISETP.GE.U32.AND P0, PT, R10, 0x1000001, PT",
	"@P0 MOV R40, R30",
	"@P0 MOV R41, R31",
	/* zero -> inf, inf -> zero, NaN -> the NaN quietened */
	"IADD3 R32, R10, -0x1, RZ",
	"ISETP.GE.U32.AND P0, PT, R32, 0x7fefffff, PT",
	"LOP3.LUT R33, R3, 0x7ff00000, RZ, 0x3c, !PT",
	"@P0 MOV R40, 0x0",
	"@P0 MOV R41, R33",
	"DSETP.GTU.AND P0, PT, |R2:2|, +INF , PT",
	"LOP3.LUT R34, R3, 0x80000, RZ, 0xfc, !PT",
	"@P0 MOV R40, R2",
	"@P0 MOV R41, R34",
	"@!P6 MOV R60, R40",
	"@!P6 MOV R61, R41",
	"JOIN",
	NULL,
};

/* a in R2:R3; for a directed rounding (rnd not RN) the directed step
 * with a = R(da) (-1: 1) and b = R(db) (-1: the result itself) */
static int
dfunc(Sel *s, const IrIns *x, const char *const *l, int da, int db)
{
	Seq q;
	MRef d = sel_reg(s, D0->reg), lo, hi;

	seq_init(&q, s);
	q.share = (u8)shared_slow(s, x);
	seq_bind64(&q, 2, sel_r64(s, S1));
	seq_lines(&q, l);
	if (x->p.rnd != PTX_RND_RN && x->p.rnd != PTX_RND_NONE)
		ddir(&q, x->p.rnd, da, db);
	lo = seq_get(&q, 60);
	hi = seq_get(&q, 61);
	seq_end(&q);
	sel_mov32(s, mpart(d.v, 0, 1), mopd_reg(lo));
	sel_mov32(s, mpart(d.v, 1, 1), mopd_reg(hi));
	return 0;
}

int
sel_div_float(Sel *s, const IrIns *x)
{
	if (ty(x) == PTX_T_F32)
		return div_f32(s, x, sel_r32(s, S1, 0), sel_r32(s, S2, 0));
	if (ty(x) == PTX_T_F64)
		return div_f64(s, x, sel_r64(s, S1), sel_r64(s, S2));
	return sel_unsupported(s, "div on this float type");
}

/* ---- reciprocal ---- */

static int
sel_rcp(Sel *s, const IrIns *x)
{
	Seq q;
	static const char *const approx[] = {
		"MOV R5, 0x4b800000",
		"FSETP.GEU.AND P1, PT, |R4|, " FLTMIN ", PT",
		"FSETP.GT.AND P0, PT, |R4|, " BIG ", PT",
		"FSEL R5, R5, 1, !P1",
		"FSEL R5, R5, 0.25, !P0",
		"FMUL R4, R4, R5",
		"MUFU.RCP R4, R4",
		"FMUL R24, R5, R4",
		NULL,
	};

	if (ty(x) == PTX_T_F64) {
		MRef d = sel_reg(s, D0->reg);
		if (!(x->p.flags & PTX_F_APPROX))
			return dfunc(s, x, drcp, -1, 2);
		if (!ftz(x))
			return sel_unsupported(s, "rcp.approx.f64 without .ftz");
		mi(s->mf, "MUFU.RCP64H %D, %U", mpart(d.v, 1, 1), sel_r32(s, S1, 1));
		mi(s->mf, "MOV %D, 0x0", mpart(d.v, 0, 1));
		return 0;
	}
	if (ty(x) != PTX_T_F32)
		return sel_unsupported(s, "rcp on this type");
	if (x->p.flags & PTX_F_APPROX) {
		return approx32(s, x, "MUFU.RCP %D, %U", approx);
	}
	/* rcp = div 1 / x */
	seq_init(&q, s);
	q.share = (u8)shared_slow(s, x);
	seq_bind(&q, 3, sel_r32(s, S1, 0));
	seq_emit(&q, "MOV R0, 0x3f800000");
	fdiv_rn(&q, ftz(x));
	if (x->p.rnd != PTX_RND_RN && x->p.rnd != PTX_RND_NONE)
		fdiv_dir(&q, x->p.rnd);
	put32(s, x, &q, 24, ftz(x));
	return 0;
}

/* ---- square root ---- */

/* the specials of sqrt.rn/rz/rm/rp.f32 (the later tests first), then the
 * slow path's result */
#define FSQRT_SPECIALS \
	"FSETP.NEU.FTZ.AND P0, PT, |R0|, +INF , PT", \
	"@!P0 MOV R40, R0", \
	"FSETP.GTU.FTZ.AND P0, PT, |R0|, +INF , PT", \
	"FADD.FTZ R41, R0, 1", \
	"@P0 MOV R40, R41", \
	"FSETP.GEU.FTZ.AND P0, PT, R0, RZ, PT", \
	"@!P0 MOV R40, 0x7fffffff", \
	"LOP3.LUT P0, RZ, R0, 0x7fffffff, RZ, 0xc0, !PT", \
	"@!P0 MOV R40, R0", \
	"@P6 MOV R24, R40", \
	"JOIN"

/* sqrt.rn.f32: ptxas's fast path (MUFU.RSQ + one Newton step) for a in
 * [2^-101, 2^127) roughly, and its slow path as selections: +-0 -> a,
 * negative -> NaN, NaN -> quiet NaN, +inf -> +inf, other a scaled by 2^64. */
static const char *const fsqrt_rn[] = {
	"IADD3 R2, R0, -0xd000000, RZ",
	"MUFU.RSQ R7, R0",
	"ISETP.GT.U32.AND P6, PT, R2, 0x727fffff, PT",
	"FMUL.FTZ R9, R0, R7",
	"FMUL.FTZ R7, R7, 0.5",
	"FFMA R2, -R9, R9, R0",
	"FFMA R24, R2, R7, R9",
	"SKIP P6",
	/* the slow path's scaled computation */
	"FFMA R17, R0, " TWO64 ", RZ",
	"MUFU.RSQ R12, R17",
	"FMUL.FTZ R18, R17, R12",
	"FMUL.FTZ R20, R12, 0.5",
	"FADD.FTZ R19, -R18, -RZ",
	"FFMA R19, R18, R19, R17",
	"FFMA R19, R19, R20, R18",
	"FMUL.FTZ R40, R19, 2.3283064365386962891e-10",
	FSQRT_SPECIALS,
	NULL,
};

/* sqrt.rz/rm/rp.f32: ptxas's sm20 sqrt_r{z,d,u} (the fast path with a
 * second Newton step for s = sqrt(a), then the directed FFMA h * (a - s*s)
 * + s; the slow path the same on a * 2^64, scaled back by 2^-32, exact),
 * the specials as sqrt.rn's.  One table per rounding R (".RZ" ..): a shared
 * slow path is keyed by its lines' address. */
#define FSQRT_DIR(R) { \
	"IADD3 R2, R0, -0xd000000, RZ", \
	"MUFU.RSQ R7, R0", \
	"ISETP.GT.U32.AND P6, PT, R2, 0x727fffff, PT", \
	"FMUL.FTZ R9, R0, R7", \
	"FMUL.FTZ R7, R7, 0.5", \
	"FADD.FTZ R10, -R9, -RZ", \
	"FFMA R11, R7, R10, 0.5", \
	"FFMA R11, R9, R11, R9", \
	"FADD.FTZ R10, -R11, -RZ", \
	"FFMA R10, R11, R10, R0", \
	"FFMA" R " R24, R7, R10, R11", \
	"SKIP P6", \
	"FFMA R17, R0, " TWO64 ", RZ", \
	"MUFU.RSQ R12, R17", \
	"FMUL.FTZ R18, R17, R12", \
	"FMUL.FTZ R20, R12, 0.5", \
	"FADD.FTZ R19, -R18, -RZ", \
	"FFMA R21, R20, R19, 0.5", \
	"FFMA R21, R18, R21, R18", \
	"FADD.FTZ R19, -R21, -RZ", \
	"FFMA R19, R21, R19, R17", \
	"FFMA" R " R19, R20, R19, R21", \
	"FMUL.FTZ R40, R19, 2.3283064365386962891e-10", \
	FSQRT_SPECIALS, \
	NULL, \
}
static const char *const fsqrt_rz[] = FSQRT_DIR(".RZ"), *const fsqrt_rm[] = FSQRT_DIR(".RM"),
		       *const fsqrt_rp[] = FSQRT_DIR(".RP");

static int
sel_sqrt(Sel *s, const IrIns *x)
{
	Seq q;
	static const char *const approx[] = {
		"FSETP.GEU.AND P0, PT, |R4|, " FLTMIN ", PT",
		"@!P0 FMUL R4, R4, 16777216",
		"MUFU.SQRT R24, R4",
		"@!P0 FMUL R24, R24, 0.000244140625",
		NULL,
	};

	if (ty(x) == PTX_T_F64 && !(x->p.flags & PTX_F_APPROX))
		return dfunc(s, x, dsqrt, 2, -1);
	if (ty(x) != PTX_T_F32)
		return sel_unsupported(s, "sqrt.approx.f64");
	if (x->p.flags & PTX_F_APPROX) {
		return approx32(s, x, "MUFU.SQRT %D, %U", approx);
	}
	seq_init(&q, s);
	q.share = (u8)shared_slow(s, x);
	seq_bind(&q, 0, sel_r32(s, S1, 0));
	if (ftz(x))
		seq_emit(&q, "FADD.FTZ R0, R0, -RZ");
	seq_lines(&q, x->p.rnd == PTX_RND_RZ ? fsqrt_rz : x->p.rnd == PTX_RND_RM ? fsqrt_rm :
		      x->p.rnd == PTX_RND_RP ? fsqrt_rp : fsqrt_rn);
	put32(s, x, &q, 24, ftz(x));
	return 0;
}

/* ---- MUFU approximations ---- */

/* rsqrt.approx.f64 (subnormals kept; the CUDA headers' rsqrt(double)):
 * ptxas's fast path -- MUFU.RSQ64H, then one step
 * y + y*e*(0.5 + 0.375*e), e = 1 - a*y*y -- for a positive, normal a.
 * The rest is ours (ptxas calls its own drsqrt slow path): a positive
 * subnormal is scaled by 2^108 and its result by 2^54; a negative a
 * (-inf too, not -0) or a NaN gives NaN (MUFU sees only the high word:
 * a NaN whose payload is all in the low word looks like +inf to it and
 * gave +0); +-0 and +inf keep MUFU's answer (+-inf, +0).  a in R2:R3;
 * the result in R60:R61. */
static const char *const drsqrt[] = {
	"MOV R4:p, 0x0",
	"MOV R8:p, 0x0",
	"MOV R9:p, 0x3fd80000",
	"MUFU.RSQ64H R5:p, R3",
	"IADD3 R0:p, R3, -0x100000, RZ",
	"ISETP.GE.U32.AND P6, PT, R0, 0x7fe00000, PT",
	"DMUL R6:2, R4:2, R4:2",
	"DFMA R6:2, R2:2, -R6:2, 1",
	"DFMA R8:2, R6:2, R8:2, 0.5",
	"DMUL R6:2, R4:2, R6:2",
	"DFMA R60:2, R8:2, R6:2, R4:2",
	"SKIP P6",
	"DMUL R10:2, R2:2, 3.2451855365842672678e+32",
	"MOV R12:p, 0x0",
	"MUFU.RSQ64H R13:p, R11",
	"MOV R14:p, 0x0",
	"MOV R15:p, 0x3fd80000",
	"DMUL R16:2, R12:2, R12:2",
	"DFMA R16:2, R10:2, -R16:2, 1",
	"DFMA R14:2, R16:2, R14:2, 0.5",
	"DMUL R16:2, R12:2, R16:2",
	"DFMA R18:2, R14:2, R16:2, R12:2",
	"DMUL R20:2, R18:2, 18014398509481984",
	"MOV R40, R4",
	"MOV R41, R5",
	"ISETP.LT.U32.AND P0, PT, R3, 0x100000, PT",
	"DSETP.NE.AND P0, PT, R2:2, RZ, P0",
	"@P0 MOV R40, R20",
	"@P0 MOV R41, R21",
	"DSETP.LTU.AND P1, PT, R2:2, RZ, PT",
	"@P1 MOV R40, 0x0",
	"@P1 MOV R41, 0xfff80000",
	"@P6 MOV R60, R40",
	"@P6 MOV R61, R41",
	"JOIN",
	NULL,
};

static int
sel_rsqrt(Sel *s, const IrIns *x)
{
	static const char *const approx[] = {
		"FSETP.GEU.AND P0, PT, |R4|, " FLTMIN ", PT",
		"@!P0 FMUL R4, R4, 16777216",
		"MUFU.RSQ R24, R4",
		"@!P0 FMUL R24, R24, 4096",
		NULL,
	};

	if (ty(x) == PTX_T_F64) {
		MRef d = sel_reg(s, D0->reg);
		if (!ftz(x))
			return dfunc(s, x, drsqrt, -1, -1);
		mi(s->mf, "MUFU.RSQ64H %D, %U", mpart(d.v, 1, 1), sel_r32(s, S1, 1));
		mi(s->mf, "MOV %D, 0x0", mpart(d.v, 0, 1));
		return 0;
	}
	if (ty(x) != PTX_T_F32)
		return sel_unsupported(s, "rsqrt on this type");
	return approx32(s, x, "MUFU.RSQ %D, %U", approx);
}

/* ex2 and tanh on f16, bf16 and their x2 forms, as ptxas: one
 * MUFU.EX2/TANH.F16/.BF16 per half (the high half read as a.H1), the
 * halves packed with PRMT 0x5410.  The bf16 forms are sm_90's. */
static int
mufu_half(Sel *s, const IrIns *x, const char *fn)
{
	PtxType t = ty(x);
	int bf = t == PTX_T_BF16 || t == PTX_T_BF16X2;
	const char *h = bf ? ".BF16" : ".F16";
	MRef a = sel_r32(s, S1, 0), lo, hi;

	if (strcmp(fn, "TANH") && strcmp(fn, "EX2"))
		return sel_unsupported(s, "this approximation on f16/bf16");
	if (bf && s->sm < 90)
		return sel_unsupported(s, "ex2/tanh on bf16 (sm_90 and later)");
	if (a.v < 0)
		return -1;
	if (t == PTX_T_F16 || t == PTX_T_BF16) {
		mi(s->mf, "MUFU.%s%s %D, %U", fn, h, d32(s, x), a);
		return 0;
	}
	lo = sel_tmp(s, 1);
	hi = sel_tmp(s, 1);
	mi(s->mf, "MUFU.%s%s %D, %U", fn, h, lo, a);
	mi(s->mf, "MUFU.%s%s %D, %U.H1", fn, h, hi, a);
	mi(s->mf, "PRMT %D, %U, 0x5410, %U", d32(s, x), lo, hi);
	return 0;
}

static int
mufu(Sel *s, const IrIns *x, const char *fn, const char *const *noftz)
{
	Seq q;

	if (sel_is_half(ty(x)))
		return mufu_half(s, x, fn);
	if (ty(x) != PTX_T_F32)
		return sel_unsupported(s, "this approximation on a type other than f32");
	if (ftz(x) || !noftz) {
		mi(s->mf, "MUFU.%s %D, %U", fn, d32(s, x), sel_r32(s, S1, 0));
		return 0;
	}
	seq_init(&q, s);
	seq_bind(&q, 4, sel_r32(s, S1, 0));
	seq_lines(&q, noftz);
	put32(s, x, &q, 24, 0);
	return 0;
}

static int
sel_ex2(Sel *s, const IrIns *x)
{
	static const char *const l[] = {
		"FSETP.GEU.AND P0, PT, R4, -126, PT",
		"@!P0 FMUL R4, R4, 0.5",
		"MUFU.EX2 R24, R4",
		"@!P0 FMUL R24, R24, R24",
		NULL,
	};
	return mufu(s, x, "EX2", l);
}

static int
sel_lg2(Sel *s, const IrIns *x)
{
	static const char *const l[] = {
		"FSETP.GEU.AND P0, PT, |R4|, " FLTMIN ", PT",
		"@!P0 FMUL R4, R4, 16777216",
		"MUFU.LG2 R24, R4",
		"@!P0 FADD R24, R24, -24",
		NULL,
	};
	return mufu(s, x, "LG2", l);
}

/* sin/cos: the argument in turns (FMUL.RZ by 1/2pi), ftz or not. */
static int
sincos(Sel *s, const IrIns *x, const char *fn)
{
	MRef t = sel_tmp(s, 1);

	if (ty(x) != PTX_T_F32)
		return sel_unsupported(s, "sin/cos on a type other than f32");
	mi(s->mf, "FMUL.RZ %D, %U, 0.15915493667125701904", t, sel_r32(s, S1, 0));
	mi(s->mf, "MUFU.%s %D, %U", fn, d32(s, x), t);
	return 0;
}

static int sel_sin(Sel *s, const IrIns *x) { return sincos(s, x, "SIN"); }
static int sel_cos(Sel *s, const IrIns *x) { return sincos(s, x, "COS"); }
static int sel_tanh(Sel *s, const IrIns *x) { return mufu(s, x, "TANH", NULL); }

const SelRule sel_rules_math[] = {
	{PTX_OP_rcp, sel_rcp}, {PTX_OP_sqrt, sel_sqrt}, {PTX_OP_rsqrt, sel_rsqrt},
	{PTX_OP_ex2, sel_ex2}, {PTX_OP_lg2, sel_lg2}, {PTX_OP_sin, sel_sin},
	{PTX_OP_cos, sel_cos}, {PTX_OP_tanh, sel_tanh},
	{0, NULL},
};
