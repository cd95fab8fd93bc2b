/* isel_math.c -- float division, reciprocal, square root and the MUFU
 * transcendentals (ex2 lg2 sin cos tanh rsqrt), f32 and f64.
 *
 * The sequences are ptxas's (CUDA 13.0).  Where ptxas branches to a slow
 * path subroutine (div.rn.f32 when FCHK flags the operands, sqrt.rn.f32
 * outside the normal range) we run the slow path's arithmetic as
 * straight-line predicated code and select its result, so the code is
 * correct for every input (zeros, denormals, infinities, NaNs, overflow
 * and underflow) without branches inside a PTX instruction. */
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
		snprintf(l, sizeof l, "FADD.FTZ R60, R%d, -RZ", r);
		seq_emit(q, l);
		r = 60;
	}
	v = seq_get(q, r);
	seq_end(q);
	sel_mov32(s, d32(s, x), mopd_reg(v));
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

	seq_init(&q, s);
	seq_bind(&q, 0, a);
	seq_bind(&q, 3, b);
	if (x->p.flags & PTX_F_APPROX)
		l = ftz(x) ? approx_ftz : approx;
	else if (x->p.flags & PTX_F_FULL)
		l = ftz(x) ? approx_ftz : full;
	if (l && ftz(x) && (x->p.flags & PTX_F_FULL))
		return seq_end(&q), sel_unsupported(s, "div.full.ftz.f32");
	if (l)
		seq_lines(&q, l);
	else if (x->p.rnd == PTX_RND_RN || x->p.rnd == PTX_RND_NONE)
		fdiv_rn(&q, ftz(x));
	else
		return seq_end(&q), sel_unsupported(s, "div.rz/rm/rp.f32");
	put32(s, x, &q, 24, !l && ftz(x));
	return 0;
}

int
sel_div_float(Sel *s, const IrIns *x)
{
	if (ty(x) == PTX_T_F32)
		return div_f32(s, x, sel_r32(s, S1, 0), sel_r32(s, S2, 0));
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
		if (!(x->p.flags & PTX_F_APPROX) || !ftz(x))
			return sel_unsupported(s, "rcp.rn.f64 / rcp.approx.f64 without .ftz");
		mi(s->mf, "MUFU.RCP64H %D, %U", mpart(d.v, 1, 1), sel_r32(s, S1, 1));
		mi(s->mf, "MOV %D, 0x0", mpart(d.v, 0, 1));
		return 0;
	}
	if (ty(x) != PTX_T_F32)
		return sel_unsupported(s, "rcp on this type");
	if (x->p.flags & PTX_F_APPROX) {
		if (ftz(x)) {
			mi(s->mf, "MUFU.RCP %D, %U", d32(s, x), sel_r32(s, S1, 0));
			return 0;
		}
		seq_init(&q, s);
		seq_bind(&q, 4, sel_r32(s, S1, 0));
		seq_lines(&q, approx);
		put32(s, x, &q, 24, 0);
		return 0;
	}
	if (x->p.rnd != PTX_RND_RN)
		return sel_unsupported(s, "rcp.rz/rm/rp.f32");
	/* rcp.rn = div.rn 1 / x */
	seq_init(&q, s);
	seq_bind(&q, 3, sel_r32(s, S1, 0));
	seq_emit(&q, "MOV R0, 0x3f800000");
	fdiv_rn(&q, ftz(x));
	put32(s, x, &q, 24, ftz(x));
	return 0;
}

/* ---- square root ---- */

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
	/* the slow path's scaled computation */
	"FFMA R17, R0, " TWO64 ", RZ",
	"MUFU.RSQ R12, R17",
	"FMUL.FTZ R18, R17, R12",
	"FMUL.FTZ R20, R12, 0.5",
	"FADD.FTZ R19, -R18, -RZ",
	"FFMA R19, R18, R19, R17",
	"FFMA R19, R19, R20, R18",
	"FMUL.FTZ R40, R19, 2.3283064365386962891e-10",
	/* specials, the later tests first */
	"FSETP.NEU.FTZ.AND P0, PT, |R0|, +INF , PT",
	"@!P0 MOV R40, R0",
	"FSETP.GTU.FTZ.AND P0, PT, |R0|, +INF , PT",
	"FADD.FTZ R41, R0, 1",
	"@P0 MOV R40, R41",
	"FSETP.GEU.FTZ.AND P0, PT, R0, RZ, PT",
	"@!P0 MOV R40, 0x7fffffff",
	"LOP3.LUT P0, RZ, R0, 0x7fffffff, RZ, 0xc0, !PT",
	"@!P0 MOV R40, R0",
	"@P6 MOV R24, R40",
	NULL,
};

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

	if (ty(x) != PTX_T_F32)
		return sel_unsupported(s, "sqrt on f64");
	if (x->p.flags & PTX_F_APPROX) {
		if (ftz(x)) {
			mi(s->mf, "MUFU.SQRT %D, %U", d32(s, x), sel_r32(s, S1, 0));
			return 0;
		}
		seq_init(&q, s);
		seq_bind(&q, 4, sel_r32(s, S1, 0));
		seq_lines(&q, approx);
		put32(s, x, &q, 24, 0);
		return 0;
	}
	if (x->p.rnd != PTX_RND_RN)
		return sel_unsupported(s, "sqrt.rz/rm/rp.f32");
	seq_init(&q, s);
	seq_bind(&q, 0, sel_r32(s, S1, 0));
	if (ftz(x))
		seq_emit(&q, "FADD.FTZ R0, R0, -RZ");
	seq_lines(&q, fsqrt_rn);
	put32(s, x, &q, 24, ftz(x));
	return 0;
}

/* ---- MUFU approximations ---- */

static int
sel_rsqrt(Sel *s, const IrIns *x)
{
	Seq q;
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
			return sel_unsupported(s, "rsqrt.approx.f64 without .ftz");
		mi(s->mf, "MUFU.RSQ64H %D, %U", mpart(d.v, 1, 1), sel_r32(s, S1, 1));
		mi(s->mf, "MOV %D, 0x0", mpart(d.v, 0, 1));
		return 0;
	}
	if (ty(x) != PTX_T_F32)
		return sel_unsupported(s, "rsqrt on this type");
	if (ftz(x)) {
		mi(s->mf, "MUFU.RSQ %D, %U", d32(s, x), sel_r32(s, S1, 0));
		return 0;
	}
	seq_init(&q, s);
	seq_bind(&q, 4, sel_r32(s, S1, 0));
	seq_lines(&q, approx);
	put32(s, x, &q, 24, 0);
	return 0;
}

static int
mufu(Sel *s, const IrIns *x, const char *fn, const char *const *noftz)
{
	Seq q;

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
