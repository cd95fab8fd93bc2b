/* isel_cvt.c -- cvt between every pair of PTX scalar types, the packed
 * forms (f16x2/bf16x2 from two f32, fp8x2) and tf32.
 *
 * Register contents.  A PTX register narrower than 32 bits lives in the
 * low bits of a 32-bit register; the bits above its width are undefined,
 * so every source narrower than 32 bits is extended here explicitly from
 * its TYPE's width (cvt.s32.s8 reads 8 bits whatever the register), and a
 * destination is written correctly over its REGISTER's whole width
 * (cvt.s8.s32 into a .b16 register: sign-extended to 16 bits; into a .b64
 * register: to 64 bits, as PTX's relaxed typing says).  f16/bf16 values
 * are the low 16 bits.
 *
 * The SASS is what ptxas 13.0 emits for the same cvt (I2F/I2FP, F2I, F2F,
 * F2FP, FRND, PRMT, LOP3, I2I-free integer clamps), except where the
 * emulator that verifies us lacks an instruction (FRND.F16, F2IP): then an
 * equivalent sequence.  Anything else is diagnosed, never guessed. */
#include <stdio.h>
#include <string.h>

#include "codegen/isel.h"

#define D0 (&x->p.opds[0])
#define S1 (&x->p.opds[1])
#define S2 (&x->p.opds[2])

typedef struct {
	PtxType t;
	int bits;      /* type width */
	int sgn;       /* signed integer */
	int flt;       /* a float format */
} Ty;

static Ty
tyof(PtxType t)
{
	Ty r;
	r.t = t;
	r.bits = ptx_type_size(t) * 8;
	r.sgn = ptx_type_is_signed(t);
	r.flt = ptx_type_is_float(t);
	return r;
}

static const char *
iname(Ty t)
{
	static const char *u[] = { "U8", "U16", "U32", "U64" }, *sn[] = { "S8", "S16", "S32", "S64" };
	int k = t.bits == 8 ? 0 : t.bits == 16 ? 1 : t.bits == 32 ? 2 : 3;
	return t.sgn ? sn[k] : u[k];
}

static const char *
fname(PtxType t)
{
	switch (t) {
	case PTX_T_F16: return "F16";
	case PTX_T_BF16: return "BF16";
	case PTX_T_F64: return "F64";
	default: return "F32";
	}
}

/* Width in bits of the register an operand names (its type's width for
 * an immediate). */
static int
regbits(Sel *s, const PtxOperand *o, Ty t)
{
	if (o->kind != PTX_OPD_REG)
		return t.bits;
	return ptx_type_size((PtxType)s->ir->rtype[o->reg]) * 8;
}

static MRef
dpart(Sel *s, const IrIns *x, int k)
{
	MRef d = sel_reg(s, D0->reg);
	return s->mf->vr.v[d.v].w > 1 ? mpart(d.v, k, 1) : d;
}

static int
dwide(Sel *s, const IrIns *x)
{
	return s->mf->vr.v[sel_reg(s, D0->reg).v].w > 1;
}

static const char *
minmax_op(Sel *s)
{
	return s->sm >= 90 ? "VIMNMX" : "IMNMX";
}

/* v extended from bits (8 or 16) to 32 by sgn; v itself when bits >= 32. */
static MRef
ext32(Sel *s, MRef v, int bits, int sgn)
{
	MRef t;

	if (bits >= 32)
		return v;
	t = sel_tmp(s, 1);
	if (sgn)
		mi(s->mf, "PRMT %D, %U, %h, RZ", t, v, bits == 8 ? 0x8880u : 0x9910u);
	else
		mi(s->mf, "LOP3.LUT %D, %U, %h, RZ, 0xc0, !PT", t, v, bits == 8 ? 0xffu : 0xffffu);
	return t;
}

/* Write a 32-bit result lo (a value of `bits` bits, already extended to
 * 32 by sgn) to the destination, extending into the high register of a
 * 64-bit destination. */
static void
put32(Sel *s, const IrIns *x, MRef lo, int sgn)
{
	sel_mov32(s, dpart(s, x, 0), mopd_reg(lo));
	if (!dwide(s, x))
		return;
	if (sgn)
		mi(s->mf, "SHF.R.S32.HI %D, RZ, 0x1f, %U", dpart(s, x, 1), dpart(s, x, 0));
	else
		mi(s->mf, "MOV %D, 0x0", dpart(s, x, 1));
}

/* ---- integer <- integer ---- */

/* An ISETP immediate in nvdisasm's spelling (RZ for 0). */
static MOpd
cimm(u32 v)
{
	return v ? mopd_imm(v, 0) : mopd_txt("RZ");
}

/* p = (64-bit src) OP (64-bit constant c), OP a strict "GT"/"LT". */
static MRef
cmp64(Sel *s, MRef lo, MRef hi, const char *op, u64 c, int sgn)
{
	MRef p = sel_ptmp(s), q = sel_ptmp(s);
	mi(s->mf, "ISETP.%s.U32.AND %D, PT, %U, %O, PT", op, q, lo, cimm((u32)c));
	mi(s->mf, "ISETP.%s%s.AND.EX %D, PT, %U, %O, PT, %U", op, sgn ? "" : ".U32", p, hi, cimm((u32)(c >> 32)), q);
	return p;
}

/* Saturate a 64-bit source to [lo, hi] (lo only for signed sources);
 * returns the clamped pair in *rl, *rh. */
static void
sat64(Sel *s, MRef *rl, MRef *rh, Ty src, Ty d)
{
	i64 dmin = d.sgn ? (d.bits == 64 ? INT64_MIN : -((i64)1 << (d.bits - 1))) : 0;
	u64 dmax = d.sgn ? ((u64)1 << (d.bits - 1)) - 1 : (d.bits == 64 ? ~0ull : ((u64)1 << d.bits) - 1);
	MRef l = *rl, h = *rh, nl, nh, p;

	if (src.sgn && dmin > INT64_MIN) {
		p = cmp64(s, l, h, "LT", (u64)dmin, 1);
		nl = sel_tmp(s, 1), nh = sel_tmp(s, 1);
		mi(s->mf, "SEL %D, %U, %h, !%U", nl, l, (u32)(u64)dmin, p);
		mi(s->mf, "SEL %D, %U, %h, !%U", nh, h, (u32)((u64)dmin >> 32), p);
		l = nl, h = nh;
	}
	if (dmax < (src.sgn ? (u64)INT64_MAX : ~0ull)) {
		p = cmp64(s, l, h, "GT", dmax, src.sgn);
		nl = sel_tmp(s, 1), nh = sel_tmp(s, 1);
		mi(s->mf, "SEL %D, %U, %h, !%U", nl, l, (u32)dmax, p);
		mi(s->mf, "SEL %D, %U, %h, !%U", nh, h, (u32)(dmax >> 32), p);
		l = nl, h = nh;
	}
	*rl = l, *rh = h;
}

/* Saturate a 32-bit source (already extended by src.sgn) to d's range. */
static MRef
sat32(Sel *s, MRef v, Ty src, Ty d)
{
	i64 smin = src.sgn ? -((i64)1 << (src.bits - 1)) : 0;
	i64 smax = src.sgn ? ((i64)1 << (src.bits - 1)) - 1 : ((i64)1 << src.bits) - 1;
	i64 dmin = d.sgn ? (d.bits == 64 ? INT64_MIN : -((i64)1 << (d.bits - 1))) : 0;
	i64 dmax = d.bits == 64 ? INT64_MAX : d.sgn ? ((i64)1 << (d.bits - 1)) - 1 : ((i64)1 << d.bits) - 1;
	MRef t;

	if (dmin > smin) {    /* only for signed sources */
		t = sel_tmp(s, 1);
		mi(s->mf, "%s %D, %U, %x, !PT", minmax_op(s), t, v, (i32)dmin);
		v = t;
	}
	if (dmax < smax) {
		t = sel_tmp(s, 1);
		mi(s->mf, "%s%s %D, %U, %x, PT", minmax_op(s), src.sgn ? "" : ".U32", t, v, (i32)dmax);
		v = t;
	}
	return v;
}

static int
cvt_int(Sel *s, const IrIns *x, Ty d, Ty src)
{
	int R = regbits(s, D0, d), sat = !!(x->p.flags & PTX_F_SAT);
	int eb = d.bits, hs = d.sgn;   /* lo holds a value of eb bits, extended by hs */
	MRef lo = sel_r32(s, S1, 0), hi = mref(s->mf->rz);

	if (lo.v < 0)
		return -1;
	if (src.bits == 64) {
		hi = sel_r32(s, S1, 1);
		if (sat)
			sat64(s, &lo, &hi, src, d);
		if (d.bits == 64 && R == 64) {
			sel_mov32(s, dpart(s, x, 0), mopd_reg(lo));
			sel_mov32(s, dpart(s, x, 1), mopd_reg(hi));
			return 0;
		}
		eb = sat ? 32 : MIN(d.bits, 32);
	} else if (sat || src.bits < d.bits) {
		lo = ext32(s, lo, src.bits, src.sgn);
		if (sat)
			lo = sat32(s, lo, src, d);   /* now in d's range: exact in 32 bits */
		else
			hs = src.sgn;
		eb = 32;
		/* a signed source widened to a wider unsigned type inside an even
		 * wider register: zeros above the type (cvt.u16.s8 into a .b32) */
		if (!sat && src.sgn && !d.sgn && d.bits < R) {
			if (d.bits < 32)
				lo = ext32(s, lo, d.bits, 0);
			hs = 0;
		}
	}
	if (eb < MIN(R, 32))
		lo = ext32(s, lo, eb, d.sgn);
	put32(s, x, lo, hs);
	return 0;
}

/* ---- integer <- float ---- */

static const char *
f2i_rnd(int r)
{
	switch (r) {
	case PTX_RND_RZI: return ".TRUNC";
	case PTX_RND_RMI: return ".FLOOR";
	case PTX_RND_RPI: return ".CEIL";
	}
	return "";
}

/* A float operand as the register(s) SASS reads. */
static MRef
fsrc(Sel *s, const PtxOperand *o, PtxType t)
{
	return t == PTX_T_F64 ? sel_r64(s, o) : sel_r32(s, o, 0);
}

static MRef
flush_f32(Sel *s, MRef a)
{
	MRef t = sel_tmp(s, 1);
	mi(s->mf, "FMUL.FTZ %D, %U, 1", t, a);
	return t;
}

static int
cvt_f2i(Sel *s, const IrIns *x, Ty d, Ty src)
{
	int ftz = (x->p.flags & PTX_F_FTZ) && src.t == PTX_T_F32, R = regbits(s, D0, d);
	int rnd = x->p.rnd, wide = d.bits == 64;
	char op[64];
	MRef a = fsrc(s, S1, src.t), r;

	if (a.v < 0)
		return -1;
	if (rnd < PTX_RND_RNI || rnd > PTX_RND_RPI)
		return sel_unsupported(s, "float-to-integer cvt without .rni/.rzi/.rmi/.rpi");
	if (src.t == PTX_T_BF16 && d.bits == 8)
		return sel_unsupported(s, "cvt from bf16 to an 8-bit integer");
	/* denormals only matter when rounding away from zero */
	if (ftz && (rnd == PTX_RND_RZI || rnd == PTX_RND_RNI))
		ftz = !wide;
	if (ftz && wide)
		a = flush_f32(s, a), ftz = 0;
	str_printf(op, sizeof op, "F2I%s%s%s%s%s%s", ftz ? ".FTZ" : "",
		 d.bits == 32 && d.sgn ? "" : ".", d.bits == 32 && d.sgn ? "" : iname(d),
		 src.t == PTX_T_F32 ? "" : ".", src.t == PTX_T_F32 ? "" : fname(src.t), f2i_rnd(rnd));
	if (src.t != PTX_T_F64 && !wide)
		strcat(op, ".NTZ");
	if (wide) {
		if (R != 64)
			return sel_unsupported(s, "a 64-bit cvt result in a narrower register");
		mi(s->mf, "%s %D, %U", op, sel_reg(s, D0->reg), a);
		return 0;
	}
	r = sel_tmp(s, 1);
	mi(s->mf, "%s %D, %U", op, r, a);
	/* F2I's 8/16-bit results: ptxas re-extends S8 and masks U8 */
	if (d.bits == 8 && (d.sgn || R > 8))
		r = ext32(s, r, 8, d.sgn);
	else if (d.bits == 16 && d.sgn && R > 16)
		r = ext32(s, r, 16, 1);
	put32(s, x, r, d.sgn);
	return 0;
}

/* ---- float <- integer ---- */

static const char *
rnd_sfx(int r)
{
	switch (r) {
	case PTX_RND_RZ: return ".RZ";
	case PTX_RND_RM: return ".RM";
	case PTX_RND_RP: return ".RP";
	}
	return "";
}

static u32
one_bits(PtxType t)
{
	switch (t) {
	case PTX_T_F16: return 0x3c00;
	case PTX_T_BF16: return 0x3f80;
	case PTX_T_F64: return 0x3ff00000;   /* high word */
	default: return 0x3f800000;
	}
}

/* cvt.sat from an integer: 1.0 for x > 0, else +0. */
static int
i2f_sat(Sel *s, const IrIns *x, Ty d, Ty src)
{
	MRef p = sel_ptmp(s), lo = sel_r32(s, S1, 0);

	if (lo.v < 0)
		return -1;
	if (src.bits == 64) {
		MRef hi = sel_r32(s, S1, 1);
		MRef q = sel_ptmp(s);
		mi(s->mf, "ISETP.%s.U32.AND %D, PT, %U, RZ, PT", src.sgn ? "GT" : "NE", q, lo);
		mi(s->mf, "ISETP.%s.AND.EX %D, PT, %U, RZ, PT, %U", src.sgn ? "GT" : "NE", p, hi, q);
	} else {
		lo = ext32(s, lo, src.bits, src.sgn);
		mi(s->mf, "ISETP.%s.AND %D, PT, %U, RZ, PT", src.sgn ? "GT" : "NE.U32", p, lo);
	}
	if (d.t == PTX_T_F64) {
		mi(s->mf, "MOV %D, 0x0", dpart(s, x, 0));
		mi(s->mf, "SEL %D, RZ, %h, !%U", dpart(s, x, 1), one_bits(d.t), p);
		return 0;
	}
	mi(s->mf, "SEL %D, RZ, %h, !%U", dpart(s, x, 0), one_bits(d.t), p);
	if (dwide(s, x))
		mi(s->mf, "MOV %D, 0x0", dpart(s, x, 1));
	return 0;
}

static int
cvt_i2f(Sel *s, const IrIns *x, Ty d, Ty src)
{
	int rnd = x->p.rnd;
	char op[64];
	MRef a;

	if (rnd < PTX_RND_RN || rnd > PTX_RND_RP)
		return sel_unsupported(s, "integer-to-float cvt without .rn/.rz/.rm/.rp");
	if (d.t == PTX_T_BF16 && s->sm < 90)
		return sel_unsupported(s, "cvt from an integer to bf16 (needs sm_90)");
	if (d.t == PTX_T_BF16 && src.bits == 8)
		return sel_unsupported(s, "cvt from an 8-bit integer to bf16");
	if (x->p.flags & PTX_F_SAT)
		return i2f_sat(s, x, d, src);
	a = src.bits == 64 ? sel_r64(s, S1) : sel_r32(s, S1, 0);
	if (a.v < 0)
		return -1;
	if (s->sm >= 90 && d.t == PTX_T_F32 && src.bits == 32 && (rnd == PTX_RND_RN || rnd == PTX_RND_RZ))
		str_printf(op, sizeof op, "I2FP.F32.%s%s", iname(src), rnd_sfx(rnd));
	else
		str_printf(op, sizeof op, "I2F%s%s%s%s%s", d.t == PTX_T_F32 ? "" : ".",
			 d.t == PTX_T_F32 ? "" : fname(d.t), src.bits == 32 && src.sgn ? "" : ".",
			 src.bits == 32 && src.sgn ? "" : iname(src), rnd_sfx(rnd));
	if (d.t == PTX_T_F64) {
		mi(s->mf, "%s %D, %U", op, sel_reg(s, D0->reg), a);
		return 0;
	}
	{
		MRef r = sel_tmp(s, 1);
		mi(s->mf, "%s %D, %U", op, r, a);
		put32(s, x, r, 0);
	}
	return 0;
}

/* ---- float <- float ---- */

/* f64 .sat: NaN and x <= 0 give +0, x >= 1 gives 1.0. */
static void
sat_f64(Sel *s, MRef a, MRef d)
{
	MRef p = sel_ptmp(s), q = sel_ptmp(s), l = sel_tmp(s, 1), h = sel_tmp(s, 1);

	mi(s->mf, "DSETP.GT.AND %D, PT, %U, RZ, PT", p, a);
	mi(s->mf, "DSETP.GT.AND %D, PT, %U, 1, PT", q, a);
	mi(s->mf, "SEL %D, %U, RZ, %U", l, mpart(a.v, a.sub, 1), p);
	mi(s->mf, "SEL %D, %U, RZ, %U", h, mpart(a.v, a.sub + 1, 1), p);
	mi(s->mf, "SEL %D, %U, RZ, !%U", mpart(d.v, 0, 1), l, q);
	mi(s->mf, "SEL %D, %U, %h, !%U", mpart(d.v, 1, 1), h, 0x3ff00000u, q);
}

static MRef
sat_f32(Sel *s, MRef a, int ftz)
{
	MRef t = sel_tmp(s, 1);
	mi(s->mf, "FADD%s.SAT %D, RZ, %U", ftz ? ".FTZ" : "", t, a);
	return t;
}

/* f16 .sat on a half in the low 16 bits; the result's high half is 0. */
static MRef
sat_f16(Sel *s, MRef a)
{
	MRef t = sel_tmp(s, 1), u = sel_tmp(s, 1);
	mi(s->mf, "HADD2.SAT %D, %U.H0_H0, -RZ.H0_H0", t, a);
	mi(s->mf, "LOP3.LUT %D, %U, 0xffff, RZ, 0xc0, !PT", u, t);
	return u;
}

static MRef
h2f32(Sel *s, MRef a, PtxType t)
{
	MRef r = sel_tmp(s, 1);
	if (t == PTX_T_BF16)
		mi(s->mf, "SHF.L.U32 %D, %U, 0x10, RZ", r, a);
	else
		mi(s->mf, "HADD2.F32 %D, -RZ, %U.H0_H0", r, a);
	return r;
}

/* f32 -> f16/bf16 with rounding rnd (RN RZ RM RP), optional relu. */
static MRef
f32_to_h(Sel *s, MRef a, PtxType t, int rnd, int relu, int satfinite)
{
	MRef r = sel_tmp(s, 1);
	const char *f = t == PTX_T_BF16 ? "BF16" : "F16", *sf = satfinite ? ".SATFINITE" : "";

	if (rnd == PTX_RND_RN || rnd == PTX_RND_RZ) {
		if (s->sm >= 90)
			mi(s->mf, "F2FP%s%s.%s.F32.PACK_AB%s %D, RZ, %U", sf, relu ? ".RELU" : "", f, rnd_sfx(rnd), r, a);
		else
			mi(s->mf, "F2FP%s%s%s.PACK_AB%s %D, RZ, %U", sf, relu ? ".RELU" : "",
			   t == PTX_T_BF16 ? ".BF16" : "", rnd_sfx(rnd), r, a);
	} else {
		mi(s->mf, "F2F.%s.F32%s %D, %U", f, rnd_sfx(rnd), r, a);
	}
	return r;
}

/* FRND on f32 or f64 (the emulator has no FRND.F16). */
static void
frnd(Sel *s, MRef d, MRef a, int f64, int rnd, int ftz)
{
	mi(s->mf, "FRND%s%s%s %D, %U", f64 ? ".F64" : "", ftz ? ".FTZ" : "", f2i_rnd(rnd), d, a);
}

/* Same-format cvt: integer rounding (.rni ...), .ftz, .sat, or a move. */
static int
cvt_same(Sel *s, const IrIns *x, Ty d)
{
	int rnd = x->p.rnd, irnd = rnd >= PTX_RND_RNI && rnd <= PTX_RND_RPI;
	int ftz = !!(x->p.flags & PTX_F_FTZ), sat = !!(x->p.flags & PTX_F_SAT);
	MRef a = fsrc(s, S1, d.t), t;

	if (a.v < 0)
		return -1;
	if (rnd && !irnd)
		return sel_unsupported(s, "a same-type float cvt with a non-integer rounding");
	if (d.t == PTX_T_F64) {
		MRef dd = sel_reg(s, D0->reg);
		if (irnd && sat) {
			t = sel_tmp(s, 2);
			frnd(s, t, a, 1, rnd, 0);
			sat_f64(s, t, dd);
		} else if (irnd) {
			frnd(s, dd, a, 1, rnd, 0);
		} else if (sat) {
			sat_f64(s, a, dd);
		} else {
			sel_mov32(s, mpart(dd.v, 0, 1), mopd_reg(mpart(a.v, a.sub, 1)));
			sel_mov32(s, mpart(dd.v, 1, 1), mopd_reg(mpart(a.v, a.sub + 1, 1)));
		}
		return 0;
	}
	if (d.t == PTX_T_F32) {
		t = a;
		if (irnd) {
			t = sel_tmp(s, 1);
			frnd(s, t, a, 0, rnd, ftz);
		}
		if (sat)
			t = sat_f32(s, t, ftz && !irnd);
		else if (ftz && !irnd) {
			MRef u = sel_tmp(s, 1);
			mi(s->mf, "FADD.FTZ %D, %U, -RZ", u, t);
			t = u;
		}
		put32(s, x, t, 0);
		return 0;
	}
	/* f16 / bf16: through f32, exact both ways for integral values */
	t = a;
	if (irnd) {
		MRef f = h2f32(s, a, d.t), g = sel_tmp(s, 1);
		frnd(s, g, f, 0, rnd, 0);
		t = f32_to_h(s, g, d.t, PTX_RND_RN, 0, 0);
	}
	if (sat) {
		if (d.t == PTX_T_BF16)
			return sel_unsupported(s, "cvt.sat to bf16");
		t = sat_f16(s, t);
	} else if (!irnd && regbits(s, D0, d) > 16) {
		t = ext32(s, t, 16, 0);
	}
	put32(s, x, t, 0);
	return 0;
}

static int
cvt_widen(Sel *s, const IrIns *x, Ty d, Ty src)
{
	int ftz = (x->p.flags & PTX_F_FTZ) && src.t == PTX_T_F32, sat = !!(x->p.flags & PTX_F_SAT);
	MRef a = fsrc(s, S1, src.t), t;

	if (a.v < 0)
		return -1;
	if (x->p.rnd)
		return sel_unsupported(s, "a rounding modifier on a widening float cvt");
	if (src.t == PTX_T_BF16 && sat)
		return sel_unsupported(s, "cvt.sat from bf16");
	if (d.t == PTX_T_F32) {      /* from f16/bf16: exact */
		t = h2f32(s, a, src.t);
		if (sat)
			t = sat_f32(s, t, 0);
		put32(s, x, t, 0);
		return 0;
	}
	/* to f64 */
	if (sat) {   /* clamp in f32 (exact), then widen */
		t = src.t == PTX_T_F32 ? a : h2f32(s, a, src.t);
		a = sat_f32(s, t, ftz);
		src.t = PTX_T_F32;
		ftz = 0;
	}
	if (ftz)
		a = flush_f32(s, a);
	mi(s->mf, "F2F.F64.%s %D, %U", fname(src.t), sel_reg(s, D0->reg), a);
	return 0;
}

static int
cvt_narrow(Sel *s, const IrIns *x, Ty d, Ty src)
{
	int rnd = x->p.rnd, relu = !!(x->p.flags & PTX_F_RELU), sat = !!(x->p.flags & PTX_F_SAT);
	int ftz = (x->p.flags & PTX_F_FTZ) && src.t == PTX_T_F32, sf = !!(x->p.flags & PTX_F_SATFINITE);
	MRef a = fsrc(s, S1, src.t), t;

	if (a.v < 0)
		return -1;
	if (rnd < PTX_RND_RN || rnd > PTX_RND_RP)
		return sel_unsupported(s, "a narrowing float cvt without .rn/.rz/.rm/.rp");
	if (sf && (src.t != PTX_T_F32 || sat || ftz || (rnd != PTX_RND_RN && rnd != PTX_RND_RZ)))
		return sel_unsupported(s, "cvt .satfinite to a scalar other than .rn/.rz from f32");
	if (relu && (src.t != PTX_T_F32 || (rnd != PTX_RND_RN && rnd != PTX_RND_RZ)))
		return sel_unsupported(s, "cvt .relu other than .rn/.rz from f32");
	if (sat && d.t == PTX_T_BF16)
		return sel_unsupported(s, "cvt.sat to bf16");
	if (src.t == PTX_T_F32) {
		/* clamping commutes with monotonic rounding: saturate first */
		if (sat)
			a = sat_f32(s, a, ftz), ftz = 0;
		/* f32 denormals round to +-0 in f16 unless rounding away */
		if (ftz && d.t == PTX_T_F16 && (rnd == PTX_RND_RN || rnd == PTX_RND_RZ))
			ftz = 0;
		if (ftz && d.t == PTX_T_BF16 && s->sm >= 90) {
			t = sel_tmp(s, 1);
			mi(s->mf, "F2F.FTZ.BF16.F32%s %D, %U", rnd_sfx(rnd), t, a);
		} else {
			if (ftz)
				a = flush_f32(s, a);
			t = f32_to_h(s, a, d.t, rnd, relu, sf);
		}
		put32(s, x, t, 0);
		return 0;
	}
	if (src.t == PTX_T_F64) {
		t = sel_tmp(s, 1);
		mi(s->mf, "F2F.%s.F64%s %D, %U", fname(d.t), rnd_sfx(rnd), t, a);
		if (d.t == PTX_T_F32 && (x->p.flags & PTX_F_FTZ)) {
			MRef u = sel_tmp(s, 1);
			mi(s->mf, "FADD.FTZ %D, %U, -RZ", u, t);
			t = u;
		}
		if (sat)
			t = d.t == PTX_T_F32 ? sat_f32(s, t, 0) : sat_f16(s, t);
		put32(s, x, t, 0);
		return 0;
	}
	/* f16 <-> bf16 */
	t = sel_tmp(s, 1);
	mi(s->mf, "F2F.%s.%s%s %D, %U", fname(d.t), fname(src.t), rnd_sfx(rnd), t, a);
	if (sat)
		t = sat_f16(s, t);
	put32(s, x, t, 0);
	return 0;
}

/* ---- packed and tf32 ---- */

/* cvt.rn{.relu}{.satfinite}.f16x2.f32 d, a, b: a to the upper half. */
static int
cvt_pack(Sel *s, const IrIns *x, Ty d)
{
	int rnd = x->p.rnd, relu = !!(x->p.flags & PTX_F_RELU), sf = !!(x->p.flags & PTX_F_SATFINITE);
	const char *f = d.t == PTX_T_BF16X2 ? "BF16" : "F16";
	MRef a, b;

	if ((PtxType)x->p.types[1] != PTX_T_F32 || x->p.nopds != 3)
		return sel_unsupported(s, "this packed cvt");
	if (rnd != PTX_RND_RN && rnd != PTX_RND_RZ)
		return sel_unsupported(s, "a packed cvt rounding other than .rn/.rz");
	a = sel_r32(s, S1, 0);
	b = sel_r32(s, S2, 0);
	if (a.v < 0 || b.v < 0)
		return -1;
	if (s->sm >= 90)
		mi(s->mf, "F2FP%s%s.%s.F32.PACK_AB%s %D, %U, %U", sf ? ".SATFINITE" : "", relu ? ".RELU" : "", f,
		   rnd_sfx(rnd), dpart(s, x, 0), a, b);
	else
		mi(s->mf, "F2FP%s%s%s.PACK_AB%s %D, %U, %U", sf ? ".SATFINITE" : "", relu ? ".RELU" : "",
		   d.t == PTX_T_BF16X2 ? ".BF16" : "", rnd_sfx(rnd), dpart(s, x, 0), a, b);
	return 0;
}

/* cvt.rna{.satfinite}.tf32.f32: round half away on the 13 dropped bits
 * (inf and NaN kept), as ptxas does it with integer operations. */
static int
cvt_tf32(Sel *s, const IrIns *x)
{
	MRef a = sel_r32(s, S1, 0), p = sel_ptmp(s), t = sel_tmp(s, 1), u = sel_tmp(s, 1), r = sel_tmp(s, 1);

	if (a.v < 0)
		return -1;
	if ((PtxType)x->p.types[1] != PTX_T_F32 || x->p.rnd != PTX_RND_RNA || (x->p.flags & PTX_F_RELU))
		return sel_unsupported(s, "cvt to tf32 other than .rna from f32");
	mi(s->mf, "FSETP.GEU.AND %D, PT, |%U|, +INF , PT", p, a);
	mi(s->mf, "IADD3 %D, %U, 0x1000, RZ", t, a);
	mi(s->mf, "SEL %D, %U, %U, %U", u, a, t, p);
	mi(s->mf, "LOP3.LUT %D, %U, 0xffffe000, RZ, 0xc0, !PT", r, u);
	if (x->p.flags & PTX_F_SATFINITE) {   /* inf -> max finite, NaN stays NaN */
		MRef q = sel_ptmp(s), v = sel_tmp(s, 1), w = sel_tmp(s, 1);
		mi(s->mf, "FSETP.GEU.AND %D, PT, |%U|, +INF , PT", q, r);
		mi(s->mf, "IADD3 %D, %U, -0x2000, RZ", v, r);
		mi(s->mf, "SEL %D, %U, %U, %U", w, v, r, q);
		r = w;
	}
	put32(s, x, r, 0);
	return 0;
}

/* fp8x2 <- f32 x2 / f16x2, f16x2 <- fp8x2 (sm_90). */
static int
cvt_fp8(Sel *s, const IrIns *x, PtxType dt, PtxType st)
{
	int relu = !!(x->p.flags & PTX_F_RELU);
	MRef a;

	if (s->sm < 89)
		return sel_unsupported(s, "fp8 cvt (needs sm_89+)");
	if (dt == PTX_T_F16X2) {
		a = sel_r32(s, S1, 0);
		mi(s->mf, "F2FP%s.F16.%s.UNPACK_B %D, %U", relu ? ".RELU" : "", st == PTX_T_E4M3X2 ? "E4M3" : "E5M2",
		   dpart(s, x, 0), a);
		return 0;
	}
	if (!(x->p.flags & PTX_F_SATFINITE) || x->p.rnd != PTX_RND_RN)
		return sel_unsupported(s, "fp8 cvt without .rn.satfinite");
	{
		const char *f = dt == PTX_T_E4M3X2 ? "E4M3" : "E5M2";
		MRef r = sel_tmp(s, 1);
		if (st == PTX_T_F32 && x->p.nopds == 3) {
			MRef b = sel_r32(s, S2, 0);
			a = sel_r32(s, S1, 0);
			mi(s->mf, "F2FP.SATFINITE%s.%s.F32.PACK_AB_MERGE_C %D, %U, %U, RZ", relu ? ".RELU" : "", f, r, a, b);
		} else if (st == PTX_T_F16X2) {
			a = sel_r32(s, S1, 0);
			mi(s->mf, "F2FP.SATFINITE%s.%s.F16.UNPACK_B_MERGE_C %D, %U, RZ", relu ? ".RELU" : "", f, r, a);
		} else {
			return sel_unsupported(s, "this fp8 cvt");
		}
		put32(s, x, r, 0);
	}
	return 0;
}

static int
sel_cvt(Sel *s, const IrIns *x)
{
	PtxType dt = (PtxType)x->p.types[0], st = x->p.ntypes > 1 ? (PtxType)x->p.types[1] : dt;
	Ty d = tyof(dt), src = tyof(st);

	if (D0->kind != PTX_OPD_REG || x->p.ntypes != 2)
		return sel_unsupported(s, "cvt without a register destination and two types");
	if (dt == PTX_T_E4M3X2 || dt == PTX_T_E5M2X2 || st == PTX_T_E4M3X2 || st == PTX_T_E5M2X2)
		return cvt_fp8(s, x, dt, st);
	if (dt == PTX_T_F16X2 || dt == PTX_T_BF16X2)
		return cvt_pack(s, x, d);
	if (dt == PTX_T_TF32)
		return cvt_tf32(s, x);
	if (src.bits > 64 || d.bits > 64 || !src.bits || !d.bits || dt == PTX_T_PRED || st == PTX_T_PRED ||
	    (src.flt && st != PTX_T_F16 && st != PTX_T_BF16 && st != PTX_T_F32 && st != PTX_T_F64) ||
	    (d.flt && dt != PTX_T_F16 && dt != PTX_T_BF16 && dt != PTX_T_F32 && dt != PTX_T_F64))
		return sel_unsupported(s, "cvt between these types");
	if (!d.flt && !src.flt) {
		if (x->p.rnd || (x->p.flags & PTX_F_FTZ))
			return sel_unsupported(s, "an integer cvt with a rounding or .ftz modifier");
		return cvt_int(s, x, d, src);
	}
	/* sm_80 converts bf16 only from/to f32 (ptxas rejects the rest) */
	if (s->sm < 90 && (st == PTX_T_BF16 || dt == PTX_T_BF16) && !(d.flt && src.flt &&
	    (st == PTX_T_F32 || dt == PTX_T_F32 || st == dt)) && !(!src.flt && dt == PTX_T_BF16))
		return sel_unsupported(s, "this bf16 cvt (needs sm_90)");
	if (!d.flt)
		return cvt_f2i(s, x, d, src);
	if (!src.flt)
		return cvt_i2f(s, x, d, src);
	if (dt == st)
		return cvt_same(s, x, d);
	if (d.bits > src.bits)
		return cvt_widen(s, x, d, src);
	return cvt_narrow(s, x, d, src);
}

/* ---- 8/16-bit integers (hooks from the integer family) ---- */

/* Is register operand o already its own extension from `bits` bits
 * (either way)?  Yes when its only definition is an unguarded `and` with
 * an immediate below 2^(bits-1): the 32-bit LOP3 leaves a value whose
 * upper bits, bit bits-1 included, are zero (switch_jump's
 * `and.b16 %rs2, %rs1, 7` before a chain of setp.eq.s16). */
static int
pre_extended(Sel *s, const PtxOperand *o, int bits)
{
	const PtxInstr *d;
	u64 m;

	if (o->kind != PTX_OPD_REG || !(d = sel_only_def(s, o->reg)) || d->guard >= 0 || d->op != PTX_OP_and ||
	    d->nopds != 3)
		return 0;
	if (!sel_imm(&d->opds[2], &m) && !sel_imm(&d->opds[1], &m))
		return 0;
	return m < (1ull << (bits - 1));
}

/* The last few extensions of 8/16-bit operands: a register extended the
 * same way again in the same block, with no write to it in between (the
 * instructions after the extension are scanned, at most EXT_SPAN of
 * them), reads the earlier result; 16-bit code extends the same operand
 * for many operations (ptxas keeps one extension too). */
enum { EXT_SLOTS = 8, EXT_SPAN = 64 };
struct ExtMemo {
	struct { int blk, v, sub; size_t pos; u8 bits, sgn; MRef t; } e[EXT_SLOTS];
	int n, next;
};

static int
ext_unchanged(const MFunc *f, size_t pos, int v)
{
	const MBlock *B = &f->b.v[f->cur];
	size_t i;
	int k;

	if (pos >= B->ins.n || B->ins.n - pos > EXT_SPAN)
		return 0;
	for (i = pos + 1; i < B->ins.n; i++)
		for (k = 0; k < B->ins.v[i].nr; k++)
			if ((B->ins.v[i].rf[k] & MF_DEF) && B->ins.v[i].r[k].v == v)
				return 0;
	return 1;
}

static MRef
ext32_memo(Sel *s, MRef r, Ty t)
{
	struct ExtMemo *m = s->ext_memo;
	MFunc *f = s->mf;
	MRef x;
	int i;

	if (r.v < 0)
		return r;
	if (!m) {
		m = s->ext_memo = arena_alloc(f->a, sizeof *m);
		memset(m, 0, sizeof *m);
	}
	for (i = 0; i < m->n; i++)
		if (m->e[i].blk == f->cur && m->e[i].v == r.v && m->e[i].sub == r.sub && m->e[i].bits == t.bits &&
		    m->e[i].sgn == t.sgn && ext_unchanged(f, m->e[i].pos, r.v))
			return m->e[i].t;
	x = ext32(s, r, t.bits, t.sgn);
	if (f->guard < 0) { /* an unguarded extension is defined for every later reader */
		i = m->n < EXT_SLOTS ? m->n++ : m->next++ % EXT_SLOTS;
		m->e[i].blk = f->cur;
		m->e[i].v = r.v;
		m->e[i].sub = r.sub;
		m->e[i].pos = f->b.v[f->cur].ins.n - 1;
		m->e[i].bits = (u8)t.bits;
		m->e[i].sgn = (u8)t.sgn;
		m->e[i].t = x;
	}
	return x;
}

/* Source operand k of x extended to 32 bits by the instruction's type. */
static MOpd
ext_src(Sel *s, const PtxOperand *o, Ty t)
{
	u64 v;

	if (o->kind == PTX_OPD_IMM && sel_imm(o, &v)) {
		u32 w = t.bits == 8 ? (u32)(t.sgn ? (u32)(i32)(int8_t)v : (u8)v)
				    : (u32)(t.sgn ? (u32)(i32)(int16_t)v : (u16)v);
		return cimm(w);
	}
	if (t.bits < 32 && pre_extended(s, o, t.bits))
		return mopd_reg(sel_r32(s, o, 0));
	return mopd_reg(t.bits < 32 ? ext32_memo(s, sel_r32(s, o, 0), t) : sel_r32(s, o, 0));
}

static const char *
icmp16(int c, int *uns)
{
	*uns = c == PTX_CMP_LO || c == PTX_CMP_LS || c == PTX_CMP_HI || c == PTX_CMP_HS;
	switch (c) {
	case PTX_CMP_EQ: return "EQ";
	case PTX_CMP_NE: return "NE";
	case PTX_CMP_LT: case PTX_CMP_LO: return "LT";
	case PTX_CMP_LE: case PTX_CMP_LS: return "LE";
	case PTX_CMP_GT: case PTX_CMP_HI: return "GT";
	case PTX_CMP_GE: case PTX_CMP_HS: return "GE";
	}
	return NULL;
}

static int
small_setp(Sel *s, const IrIns *x, Ty t)
{
	int uns, nc = 0;
	const char *c = icmp16(x->p.cmp, &uns);
	const char *bop = x->p.aop == PTX_AOP_OR ? "OR" : x->p.aop == PTX_AOP_XOR ? "XOR" : "AND";
	MRef comb = x->p.nopds > 3 ? sel_pred(s, &x->p.opds[3], &nc) : mref(s->mf->pt);
	MOpd a, b;

	if (!c || D0->reg2 >= 0 || comb.v < 0)
		return sel_unsupported(s, "this 8/16-bit setp");
	if (uns)
		t.sgn = 0;     /* .lo/.hs on a signed type compare unsigned */
	a = ext_src(s, S1, t);
	b = ext_src(s, S2, t);
	if (a.txt[0]) {    /* the immediate goes second: swap the comparison */
		static const char *const sw[][2] = {{"LT", "GT"}, {"GT", "LT"}, {"LE", "GE"}, {"GE", "LE"}};
		MOpd k = a;
		int i;
		if (b.txt[0])
			return sel_unsupported(s, "an 8/16-bit setp of two immediates");
		for (i = 0; i < 4; i++)
			if (!strcmp(c, sw[i][0])) {
				c = sw[i][1];
				break;
			}
		a = b;
		b = k;
	}
	mi(s->mf, "ISETP.%s%s.%s %D, PT, %U, %O, %s%U", c, t.sgn ? "" : ".U32", bop, sel_reg(s, D0->reg), a.r, b,
	   nc ? "!" : "", comb);
	return 0;
}

static int
small_mul(Sel *s, const IrIns *x, Ty t, int mad)
{
	MOpd a = ext_src(s, S1, t), b = ext_src(s, S2, t);
	MRef d = sel_reg(s, D0->reg), r;

	if (a.txt[0] || (x->p.flags & PTX_F_SAT))
		return sel_unsupported(s, "this 8/16-bit mul/mad");
	switch (x->p.mode) {
	case PTX_MODE_LO: case PTX_MODE_NONE:
		if (mad)
			mi(s->mf, "IMAD %D, %U, %O, %U", d, a.r, b, sel_r32(s, &x->p.opds[3], 0));
		else
			mi(s->mf, "IMAD %D, %U, %O, RZ", d, a.r, b);
		return 0;
	case PTX_MODE_WIDE:    /* a 32-bit result */
		if (mad)
			mi(s->mf, "IMAD %D, %U, %O, %U", d, a.r, b, sel_r32(s, &x->p.opds[3], 0));
		else
			mi(s->mf, "IMAD %D, %U, %O, RZ", d, a.r, b);
		return 0;
	case PTX_MODE_HI:      /* the high half of the 2n-bit product (+ c) */
		r = sel_tmp(s, 1);
		mi(s->mf, "IMAD %D, %U, %O, RZ", r, a.r, b);
		if (!mad) {
			mi(s->mf, "SHF.R.%s.HI %D, RZ, %h, %U", t.sgn ? "S32" : "U32", d, (u32)t.bits, r);
			return 0;
		}
		mi(s->mf, "SHF.R.%s.HI %D, RZ, %h, %U", t.sgn ? "S32" : "U32", r, (u32)t.bits, r);
		mi(s->mf, "IADD3 %D, %U, %U, RZ", d, r, sel_r32(s, &x->p.opds[3], 0));
		return 0;
	}
	return sel_unsupported(s, "this 8/16-bit mul/mad mode");
}

/* setp, mul/mad, shr, min/max, abs on 8/16-bit integer types: the
 * operands extended to 32 bits first (their registers' upper bits are
 * undefined); add/sub/shl/logic need no extension and stay in isel_int. */
int
sel_int_small(Sel *s, const IrIns *x)
{
	Ty t = tyof((PtxType)x->p.types[0]);
	MRef d;
	MOpd a, b;

	if (t.bits > 16 || t.flt)
		return sel_unsupported(s, "this small integer type");
	if (t.t == PTX_T_B16 || t.t == PTX_T_B8)
		t.sgn = 0;
	switch (x->p.op) {
	case PTX_OP_setp: return small_setp(s, x, t);
	case PTX_OP_mul: return small_mul(s, x, t, 0);
	case PTX_OP_mad: return small_mul(s, x, t, 1);
	}
	d = sel_reg(s, D0->reg);
	if (x->p.op == PTX_OP_shl) { /* the low bits need no extension; SHF clamps counts >= 32 to 0 */
		MRef r = sel_r32(s, S1, 0);
		if (r.v < 0)
			return -1;
		mi(s->mf, "SHF.L.U32 %D, %U, %O, RZ", d, r, sel_b32u(s, S2, 0));
		return 0;
	}
	a = ext_src(s, S1, t);
	if (a.txt[0] && (x->p.op == PTX_OP_min || x->p.op == PTX_OP_max)) { /* commutative */
		if (x->p.flags & PTX_F_RELU)
			return sel_unsupported(s, "min/max.relu on 8/16-bit integers");
		b = a;
		a = ext_src(s, S2, t);
		if (a.txt[0])
			return sel_unsupported(s, "an 8/16-bit min/max of two immediates");
		mi(s->mf, "%s%s %D, %U, %O, %s", minmax_op(s), t.sgn ? "" : ".U32", d, a.r, b,
		   x->p.op == PTX_OP_max ? "!PT" : "PT");
		return 0;
	}
	if (a.txt[0])
		return sel_unsupported(s, "an 8/16-bit operation on an immediate");
	switch (x->p.op) {
	case PTX_OP_shr:
		b = sel_b32u(s, S2, 0);
		mi(s->mf, "SHF.R.%s.HI %D, RZ, %O, %U", t.sgn ? "S32" : "U32", d, b, a.r);
		return 0;
	case PTX_OP_min: case PTX_OP_max:
		if (x->p.flags & PTX_F_RELU)
			return sel_unsupported(s, "min/max.relu on 8/16-bit integers");
		b = ext_src(s, S2, t);
		mi(s->mf, "%s%s %D, %U, %O, %s", minmax_op(s), t.sgn ? "" : ".U32", d, a.r, b,
		   x->p.op == PTX_OP_max ? "!PT" : "PT");
		return 0;
	case PTX_OP_abs:
		mi(s->mf, "IABS %D, %U", d, a.r);
		return 0;
	}
	return sel_unsupported(s, "this 8/16-bit integer operation");
}

/* mov.b32 {a, b}, r / mov.b32 r, {a, b} (and .b64 with four) over 16-bit
 * elements: PRMT packs, a shift unpacks the high half. */
int
sel_mov_pack16(Sel *s, const IrIns *x)
{
	const PtxOperand *v = D0->kind == PTX_OPD_VEC ? D0 : S1, *r = D0->kind == PTX_OPD_VEC ? S1 : D0;
	MRef reg;
	int i, w;

	if (r->kind != PTX_OPD_REG || v->kind != PTX_OPD_VEC)
		return sel_unsupported(s, "mov of this vector form");
	reg = sel_reg(s, r->reg);
	w = s->mf->vr.v[reg.v].w;
	if (ptx_type_size((PtxType)s->ir->rtype[r->reg]) != 2 * v->nelems || v->nelems > 2 * w)
		return sel_unsupported(s, "mov pack/unpack of 8-bit elements");
	for (i = 0; i < v->nelems; i++) {
		const PtxOperand *e = &v->elems[i];
		MRef part = w > 1 ? mpart(reg.v, i / 2, 1) : reg;
		if (D0->kind == PTX_OPD_VEC) {         /* unpack */
			if (e->kind == PTX_OPD_SINK)
				continue;
			if (e->kind != PTX_OPD_REG)
				return sel_unsupported(s, "this vector element");
			if (i % 2)
				mi(s->mf, "SHF.R.U32.HI %D, RZ, 0x10, %U", sel_reg(s, e->reg), part);
			else
				sel_mov32(s, sel_reg(s, e->reg), mopd_reg(part));
		} else if (i % 2) {                    /* pack a pair */
			MRef lo = sel_r32(s, &v->elems[i - 1], 0), hi = sel_r32(s, e, 0);
			if (lo.v < 0 || hi.v < 0)
				return -1;
			mi(s->mf, "PRMT %D, %U, 0x5410, %U", part, lo, hi);
		}
	}
	return 0;
}

/* ---- set: a comparison written as a value ---- */

static const char *
fcmp_name(int c)
{
	static const char *n[] = {
		[PTX_CMP_EQ] = "EQ", [PTX_CMP_NE] = "NE", [PTX_CMP_LT] = "LT", [PTX_CMP_LE] = "LE",
		[PTX_CMP_GT] = "GT", [PTX_CMP_GE] = "GE", [PTX_CMP_EQU] = "EQU", [PTX_CMP_NEU] = "NEU",
		[PTX_CMP_LTU] = "LTU", [PTX_CMP_LEU] = "LEU", [PTX_CMP_GTU] = "GTU", [PTX_CMP_GEU] = "GEU",
		[PTX_CMP_NUM] = "NUM", [PTX_CMP_NAN] = "NAN",
	};
	return c > 0 && c < (int)(sizeof n / sizeof *n) ? n[c] : NULL;
}

/* set on f16/bf16 (x2) sources: HSET2, .BF for a half-float result
 * (1.0/0.0 per half), else 0xffff per half (a scalar's sign-extended to
 * the 32-bit mask). */
static int
set_half(Sel *s, const IrIns *x, Ty d, Ty src, const char *bop, MRef comb, int nc)
{
	int x2 = src.t == PTX_T_F16X2 || src.t == PTX_T_BF16X2, bf = src.t == PTX_T_BF16 || src.t == PTX_T_BF16X2;
	int fres = d.flt;
	const char *c = fcmp_name(x->p.cmp), *h = x2 ? "" : ".H0_H0";
	MRef a = sel_r32(s, S1, 0), b = sel_r32(s, S2, 0), r = fres || x2 ? dpart(s, x, 0) : sel_tmp(s, 1);

	if (!c || a.v < 0 || b.v < 0)
		return sel_unsupported(s, "this f16/bf16 set");
	if (bf && s->sm < 90)
		return sel_unsupported(s, "bf16 set (needs sm_90)");
	if (fres && (d.bits != src.bits || (bf != (d.t == PTX_T_BF16 || d.t == PTX_T_BF16X2))))
		return sel_unsupported(s, "set with a float result of another format");
	mi(s->mf, "HSET2%s%s.%s%s.%s %D, %U%s, %U%s, %s%U", bf ? ".BF16_V2" : "", fres ? ".BF" : "", c,
	   x->p.flags & PTX_F_FTZ ? ".FTZ" : "", bop, r, a, h, b, h, nc ? "!" : "", comb);
	if (!fres && !x2)
		put32(s, x, ext32(s, r, 16, 1), 1);
	return 0;
}

/* set.cmp[.bop][.ftz].dtype.stype d, a, b[, {!}c]: d = 0xffffffff or 1.0f
 * (integer / f32 dtype) when the comparison holds, else 0. */
static int
sel_set(Sel *s, const IrIns *x)
{
	Ty d = tyof((PtxType)x->p.types[0]), src = tyof(x->p.ntypes > 1 ? (PtxType)x->p.types[1] : d.t);
	const char *bop = x->p.aop == PTX_AOP_OR ? "OR" : x->p.aop == PTX_AOP_XOR ? "XOR" : "AND";
	int nc = 0, uns;
	MRef comb = x->p.nopds > 3 ? sel_pred(s, &x->p.opds[3], &nc) : mref(s->mf->pt), p;
	const char *c;

	if (comb.v < 0 || D0->kind != PTX_OPD_REG)
		return sel_unsupported(s, "this set");
	if (sel_is_half(src.t))
		return set_half(s, x, d, src, bop, comb, nc);
	if (d.bits != 32 || (d.flt && d.t != PTX_T_F32))
		return sel_unsupported(s, "set with a result type other than u32/s32/f32");
	p = sel_ptmp(s);
	if (src.flt) {
		const char *fc = fcmp_name(x->p.cmp);
		if (!fc || (src.t != PTX_T_F32 && src.t != PTX_T_F64))
			return sel_unsupported(s, "this float set");
		if (src.t == PTX_T_F64)
			mi(s->mf, "DSETP.%s.%s %D, PT, %U, %U, %s%U", fc, bop, p, sel_r64(s, S1), sel_r64(s, S2),
			   nc ? "!" : "", comb);
		else
			mi(s->mf, "FSETP.%s%s.%s %D, PT, %U, %U, %s%U", fc, x->p.flags & PTX_F_FTZ ? ".FTZ" : "", bop, p,
			   sel_r32(s, S1, 0), sel_r32(s, S2, 0), nc ? "!" : "", comb);
	} else {
		if (!(c = icmp16(x->p.cmp, &uns)))
			return sel_unsupported(s, "this integer set");
		if (src.t == PTX_T_B8 || src.t == PTX_T_B16 || src.t == PTX_T_B32 || src.t == PTX_T_B64 || uns)
			src.sgn = 0;
		if (src.bits == 64) {
			MRef q = sel_ptmp(s);
			mi(s->mf, "ISETP.%s.U32.AND %D, PT, %U, %U, PT", c, q, sel_r32(s, S1, 0), sel_r32(s, S2, 0));
			mi(s->mf, "ISETP.%s%s.%s.EX %D, PT, %U, %U, %s%U, %U", c, src.sgn ? "" : ".U32", bop, p,
			   sel_r32(s, S1, 1), sel_r32(s, S2, 1), nc ? "!" : "", comb, q);
		} else {
			MOpd a = ext_src(s, S1, src), b = ext_src(s, S2, src);
			if (a.txt[0])
				return sel_unsupported(s, "a set with an immediate first operand");
			mi(s->mf, "ISETP.%s%s.%s %D, PT, %U, %O, %s%U", c, src.sgn ? "" : ".U32", bop, p, a.r, b,
			   nc ? "!" : "", comb);
		}
	}
	mi(s->mf, "SEL %D, RZ, %h, !%U", dpart(s, x, 0), d.flt ? 0x3f800000u : 0xffffffffu, p);
	return 0;
}

/* cvt.pack.sat.{u16,s16}.s32 d, a, b: d = {sat(a) : sat(b)};
 * cvt.pack.sat.{u8,s8}.s32.b32 d, a, b, c: d = {c[15:0] : sat(a) : sat(b)}
 * (bytes).  The clamps are VIMNMX pairs, the packing PRMT. */
static int
sel_cvt_pack(Sel *s, const IrIns *x)
{
	Ty d = tyof((PtxType)x->p.types[0]), src = tyof(PTX_T_S32);
	MRef a, b, r;

	if (d.t == PTX_T_U4 || d.t == PTX_T_S4 || D0->kind != PTX_OPD_REG)   /* ptx_check took the rest */
		return sel_unsupported(s, "this cvt.pack (only .sat.{u8,s8,u16,s16}.s32)");
	a = sel_r32(s, S1, 0);
	b = sel_r32(s, S2, 0);
	if (a.v < 0 || b.v < 0)
		return -1;
	a = sat32(s, a, src, d);
	b = sat32(s, b, src, d);
	if (d.bits == 16) {
		mi(s->mf, "PRMT %D, %U, 0x5410, %U", dpart(s, x, 0), b, a);
		return 0;
	}
	r = sel_tmp(s, 1);
	mi(s->mf, "PRMT %D, %U, 0x40, %U", r, b, a);
	mi(s->mf, "PRMT %D, %U, 0x5410, %U", dpart(s, x, 0), r, sel_r32(s, &x->p.opds[3], 0));
	return 0;
}

const SelRule sel_rules_cvt[] = {
	{PTX_OP_cvt, sel_cvt}, {PTX_OP_set, sel_set}, {PTX_OP_cvt_pack, sel_cvt_pack},
	{0, NULL},
};
