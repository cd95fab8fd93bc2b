/* emu_float.c -- the floating-point datapath of the SASS emulator: f32
 * (FADD FMUL FFMA FMNMX FSETP FSEL), f64 (DADD DMUL DFMA DSETP), packed
 * f16x2/bf16x2 (HADD2 HMUL2 HFMA2), MUFU and the conversions, on top of
 * the exact arithmetic of ptx/arith.h.  MUFU's model is f32_mufu there:
 * the exact function rounded to nearest, input and result flushed to zero
 * like the hardware unit; SIN and COS take their argument in turns. */
#include <math.h>
#include <string.h>

#include "emu/emu_int.h"
#include "ptx/arith.h"

/* f32 operand with |x| and -x. */
static u32
fv(Emu *E, Warp *w, int l, const Operand *o)
{
	u32 v = e_opr(E, w, l, o);

	if (o->abs) v &= 0x7fffffffu;
	if (o->neg) v ^= 0x80000000u;
	return v;
}

static u64
dv(Emu *E, Warp *w, int l, const Operand *o)
{
	u64 v = e_opr64(E, w, l, o);

	if (o->kind == OPK_IMM)   /* an integer-looking f64 immediate: its high word */
		v <<= 32;
	if (o->abs) v &= ~(1ull << 63);
	if (o->neg) v ^= 1ull << 63;
	return v;
}

/* I->a = rounding, b = ftz, c = sat */
static void
h_fadd(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Operand *o = I->in.o;
	int l;

	LANES(l, gm) e_wr(w, l, &o[0], f32_add(fv(E, w, l, &o[1]), fv(E, w, l, &o[2]), I->a, I->b, I->c));
}

/* FMUL[.D2/.D4/.D8/.M2/.M4/.M8]: I->d the scale's exponent (emu_fmul_scale) */
static void
h_fmul(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Operand *o = I->in.o;
	int l;

	LANES(l, gm) {
		u32 a = fv(E, w, l, &o[1]), b = fv(E, w, l, &o[2]);
		e_wr(w, l, &o[0], I->d ? f32_mul_scaled(a, b, I->d, I->a, I->b, I->c) : f32_mul(a, b, I->a, I->b, I->c));
	}
}

/* FMUL's result scale: .D8 .D4 .D2 -> -3 -2 -1, .M2 .M4 .M8 -> 1 2 3, else 0 */
int
emu_fmul_scale(const Insn *in)
{
	static const char *const sc[] = {"D8", "D4", "D2", "", "M2", "M4", "M8"};
	int k;

	for (k = 0; k < 7; k++)
		if (k != 3 && insn_has(in, sc[k]))
			return k - 3;
	return 0;
}

static void
h_ffma(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Operand *o = I->in.o;
	int l;

	LANES(l, gm) e_wr(w, l, &o[0], f32_fma(fv(E, w, l, &o[1]), fv(E, w, l, &o[2]), fv(E, w, l, &o[3]),
					  I->a, I->b, I->c));
}

/* FMNMX d, a, b, p: p ? min : max */
static void
h_fmnmx(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Operand *o = I->in.o;
	int l, nan = insn_has(&I->in, "NAN");

	LANES(l, gm) {
		u32 a = fv(E, w, l, &o[1]), b = fv(E, w, l, &o[2]);
		u32 r = e_oprp(w, l, &o[3]) ? f32_min(a, b, I->b, nan) : f32_max(a, b, I->b, nan);
		/* .XORSIGN |a|, |b|: the sign of a ^ b on a result that is no NaN */
		if (insn_has(&I->in, "XORSIGN") && (r & 0x7fffffffu) <= 0x7f800000u) {
			Operand ra = o[1], rb = o[2];
			ra.abs = rb.abs = 0;
			r |= (e_opr(E, w, l, &ra) ^ e_opr(E, w, l, &rb)) & 0x80000000u;
		}
		e_wr(w, l, &o[0], r);
	}
}

static void dsetp_mnmx(Emu *E, Warp *w, const EInsn *I, u32 gm, int max);

/* FSETP/DSETP.cmp[.FTZ].bop p, q, a, b, c */
static void
h_fsetp(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Operand *o = I->in.o;
	int l, d = I->in.op[0] == 'D', cmp = e_cmpcode(&I->in), bo = e_bopcode(&I->in);

	if (d && (insn_has(&I->in, "MIN") || insn_has(&I->in, "MAX"))) {
		dsetp_mnmx(E, w, I, gm, insn_has(&I->in, "MAX"));
		return;
	}
	if (cmp == -1 || I->in.nops < 5)
		eunsup(E, I, NULL);
	LANES(l, gm) {
		int r;
		if (cmp == -2 || cmp == -3)
			r = cmp == -3;
		else if (d)
			r = f64_cmp(cmp, dv(E, w, l, &o[2]), dv(E, w, l, &o[3]));
		else
			r = f32_cmp(cmp, fv(E, w, l, &o[2]), fv(E, w, l, &o[3]), I->b);
		int c = e_oprp(w, l, &o[4]);
		e_wrp(w, l, &o[0], e_bop(bo, r, c));
		e_wrp(w, l, &o[1], e_bop(bo, !r, c));
	}
}

/* DSETP.{MIN,MAX}.bop p, q, a, b, c: the selection predicates of
 * fmin/fmax: p = "a is the result", q = "both are NaN" */
static void
dsetp_mnmx(Emu *E, Warp *w, const EInsn *I, u32 gm, int max)
{
	const Operand *o = I->in.o;
	int l, bo = e_bopcode(&I->in);

	LANES(l, gm) {
		u64 a = dv(E, w, l, &o[2]), b = dv(E, w, l, &o[3]);
		int na = f64_isnan(a), nb = f64_isnan(b), c = e_oprp(w, l, &o[4]), p;
		double x = f64_of(a), y = f64_of(b);
		if (nb)
			p = 1;
		else if (na)
			p = 0;
		else if (x == y)
			p = max ? !(a >> 63) : (int)(a >> 63);
		else
			p = max ? x > y : x < y;
		e_wrp(w, l, &o[0], e_bop(bo, p, c));
		e_wrp(w, l, &o[1], e_bop(bo, na && nb, c));
	}
}

/* f64: DADD d, a, b;  DMUL;  DFMA d, a, b, c */
static void
h_dop(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Operand *o = I->in.o;
	int l, op = I->in.op[1];

	LANES(l, gm) {
		u64 a = dv(E, w, l, &o[1]), b = dv(E, w, l, &o[2]), r;
		if (op == 'A')
			r = f64_add(a, b, I->a);
		else if (op == 'M')
			r = f64_mul(a, b, I->a);
		else
			r = f64_fma(a, b, dv(E, w, l, &o[3]), I->a);
		e_wr64(w, l, &o[0], r);
	}
}

/* DMNMX d, a, b, p */
static void
h_dmnmx(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Operand *o = I->in.o;
	int l;

	LANES(l, gm) {
		u64 a = dv(E, w, l, &o[1]), b = dv(E, w, l, &o[2]);
		e_wr64(w, l, &o[0], e_oprp(w, l, &o[3]) ? f64_min(a, b, 0) : f64_max(a, b, 0));
	}
}

/* MUFU.op d, a */
static void
h_mufu(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Operand *o = I->in.o;
	const Insn *in = &I->in;
	int l;

	if ((insn_has(in, "F16") || insn_has(in, "BF16")) && !insn_has(in, "TANH") && !insn_has(in, "EX2"))
		eunsup(E, I, NULL);
	LANES(l, gm) {
		u32 a = fv(E, w, l, &o[1]), r;
		if (insn_has(in, "RCP64H") || insn_has(in, "RSQ64H"))   /* an immediate: an f64's high word */
			r = f64_mufu_hi(insn_has(in, "RCP64H") ? AP_RCP : AP_RSQRT,
			                o[1].kind == OPK_FIMM ? (u32)(o[1].imm >> 32) : a);
		else if (insn_has(in, "RCP"))
			r = f32_mufu(AP_RCP, a);
		else if (insn_has(in, "RSQ"))
			r = f32_mufu(AP_RSQRT, a);
		else if (insn_has(in, "SQRT"))
			r = f32_mufu(AP_SQRT, a);
		else if (insn_has(in, "EX2") && (insn_has(in, "F16") || insn_has(in, "BF16"))) {
			/* ex2.approx.f16 / .ftz.bf16: the half the selector names
			   (.H1: the high one, else the low one), the exact value
			   rounded to the type (the interpreter's model), .BF16
			   flushing subnormal results (PTX's .ftz, the only bf16
			   form); the high half of the result is zero (ptxas reads
			   only the low one) */
			int bf = insn_has(in, "BF16");
			r = h_approx(AP_EX2, o[1].sel == SEL_H1 ? (u16)(a >> 16) : (u16)a, bf ? FF_BF16 : FF_F16, bf);
		} else if (insn_has(in, "EX2"))
			r = f32_mufu(AP_EX2, a);
		else if (insn_has(in, "LG2"))
			r = f32_mufu(AP_LG2, a);
		else if (insn_has(in, "SIN") || insn_has(in, "COS"))
			r = f32_mufu(insn_has(in, "SIN") ? AP_SIN : AP_COS, a);
		else if (insn_has(in, "TANH") && (insn_has(in, "F16") || insn_has(in, "BF16"))) {
			/* the low half the selector names (.H1: the high one), the
			   high half of the result zero, as for EX2 */
			int ff = insn_has(in, "BF16") ? FF_BF16 : FF_F16;
			r = h_approx(AP_TANH, o[1].sel == SEL_H1 ? (u16)(a >> 16) : (u16)a, ff, 0);
		} else if (insn_has(in, "TANH"))
			r = f32_mufu(AP_TANH, a);
		else
			eunsup(E, I, NULL);
		e_wr(w, l, &o[0], r);
	}
}

/* Float and integer type names in modifiers. */
static int
ftype(const char *m)
{
	if (!strcmp(m, "F16")) return FF_F16;
	if (!strcmp(m, "BF16")) return FF_BF16;
	if (!strcmp(m, "F32")) return FF_F32;
	if (!strcmp(m, "F64")) return FF_F64;
	return -1;
}

static int
itype(const char *m, int *sgn)
{
	static const struct { const char *s; int bits, sgn; } t[] = {
		{"S8", 8, 1}, {"U8", 8, 0}, {"S16", 16, 1}, {"U16", 16, 0},
		{"S32", 32, 1}, {"U32", 32, 0}, {"S64", 64, 1}, {"U64", 64, 0},
	};
	size_t i;

	for (i = 0; i < NELEM(t); i++)
		if (!strcmp(m, t[i].s)) {
			*sgn = t[i].sgn;
			return t[i].bits;
		}
	return 0;
}

static u64
rdval(Emu *E, Warp *w, int l, const Operand *o, int bits)
{
	u64 v = bits == 64 ? e_opr64(E, w, l, o) : e_opr(E, w, l, o);

	if (o->sel == SEL_H1)
		v >>= 16;
	return v;
}

static void
wrval(Warp *w, int l, const Operand *o, u64 v, int bits)
{
	if (bits == 64)
		e_wr64(w, l, o, v);
	else
		e_wr(w, l, o, (u32)v);
}

static int
fbits(int ff)
{
	return ff == FF_F64 ? 64 : ff == FF_F32 ? 32 : 16;
}

/* F2F.dst.src d, a */
static void
h_f2f(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Insn *in = &I->in;
	int i, n = 0, t[2] = {FF_F32, FF_F32}, l;

	for (i = 0; i < in->nmods; i++)
		if (ftype(in->mods[i]) >= 0 && n < 2)
			t[n++] = ftype(in->mods[i]);
	if (n == 1)
		t[1] = t[0];
	LANES(l, gm) {
		u64 a = rdval(E, w, l, &in->o[1], fbits(t[1]));
		if (t[1] == FF_F32) {
			if (in->o[1].abs) a &= 0x7fffffff;
			if (in->o[1].neg) a ^= 0x80000000;
		} else if (t[1] == FF_F64) {
			if (in->o[1].abs) a &= ~(1ull << 63);
			if (in->o[1].neg) a ^= 1ull << 63;
		} else
			a &= 0xffff;
		wrval(w, l, &in->o[0], cvt_f2f(a, t[1], t[0], I->a, 0, I->b, I->c, 0), fbits(t[0]));
	}
}

/* FRND[.mode][.F64] d, a: round to an integral value */
static void
h_frnd(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Insn *in = &I->in;
	int l, ff = insn_has(in, "F64") ? FF_F64 : FF_F32;

	LANES(l, gm) {
		u64 a = ff == FF_F64 ? dv(E, w, l, &in->o[1]) : fv(E, w, l, &in->o[1]);
		wrval(w, l, &in->o[0], cvt_f2f(a, ff, ff, I->a, 1, I->b, 0, 0), fbits(ff));
	}
}

/* I2IP.{S8,U8,S16,U16}.{S32,U32}.SAT d, a, b, c (cvt.pack.sat): a and b
 * saturated to the narrow type, a above b; 8-bit: c's low half above both */
static void
h_i2ip(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Insn *in = &I->in;
	int i, k = 0, bits[2] = {0, 32}, sgn[2] = {1, 1}, l;

	for (i = 0; i < in->nmods && k < 2; i++)
		if ((bits[k] = itype(in->mods[i], &sgn[k])))
			k++;
	if (k < 1 || bits[0] > 16 || bits[1] != 32 || !insn_has(in, "SAT") || in->nops < 3 + (bits[0] == 8))
		eunsup(E, I, NULL);
	LANES(l, gm) {
		u32 a = e_opr(E, w, l, &in->o[1]), b = e_opr(E, w, l, &in->o[2]);
		u32 r = (u32)cvt_i2i(a, 32, sgn[1], bits[0], sgn[0], 1) << bits[0] |
			(u32)cvt_i2i(b, 32, sgn[1], bits[0], sgn[0], 1);
		if (bits[0] == 8)
			r |= e_opr(E, w, l, &in->o[3]) << 16;
		e_wr(w, l, &in->o[0], r);
	}
}

/* I2F[.dst][.src] d, a;  I2FP.F32.S32 */
static void
h_i2f(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Insn *in = &I->in;
	int i, to = FF_F32, bits = 32, sgn = 1, l;

	for (i = 0; i < in->nmods; i++) {
		int s, b;
		if (ftype(in->mods[i]) >= 0)
			to = ftype(in->mods[i]);
		else if ((b = itype(in->mods[i], &s)))
			bits = b, sgn = s;
	}
	LANES(l, gm) {
		u64 a = rdval(E, w, l, &in->o[1], bits);
		if (bits < 64)
			a &= 0xffffffffu;
		if (in->o[1].sel >= SEL_B0 && in->o[1].sel <= SEL_B3)
			a >>= 8 * (in->o[1].sel - SEL_B0);
		if (in->o[1].neg)
			a = -a;
		wrval(w, l, &in->o[0], cvt_i2f(zext(a, bits), bits, sgn, to, I->a, 0), fbits(to));
	}
}

/* F2I[.FTZ][.dst][.F64][.mode][.NTZ] d, a */
static void
h_f2i(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Insn *in = &I->in;
	int i, from = FF_F32, bits = 32, sgn = 1, l;

	for (i = 0; i < in->nmods; i++) {
		int s, b;
		if (ftype(in->mods[i]) >= 0)
			from = ftype(in->mods[i]);
		else if ((b = itype(in->mods[i], &s)))
			bits = b, sgn = s;
	}
	LANES(l, gm) {
		u64 a = from == FF_F64 ? dv(E, w, l, &in->o[1]) : fv(E, w, l, &in->o[1]);
		if (from == FF_F16 || from == FF_BF16) {
			a = (in->o[1].sel == SEL_H1 ? a >> 16 : a) & 0xffff;
			if (in->o[1].abs || in->o[1].neg)   /* fv flipped the f32 sign bit */
				eunsup(E, I, "negated half operand");
		}
		if (from == FF_F32 && I->b)
			a = f32_flush((u32)a);
		wrval(w, l, &in->o[0], cvt_f2i(a, from, bits, sgn, I->a), bits == 64 ? 64 : 32);
	}
}

/* The fp8 forms (sm_89+):
 *   F2FP.SATFINITE.{E4M3,E5M2}.F32.PACK_AB_MERGE_C d, a, b, c
 *       d = {c[15:0] : cvt(a) << 8 | cvt(b)}
 *   F2FP.SATFINITE.{E4M3,E5M2}.F16.UNPACK_B_MERGE_C d, a, c
 *       d = {c[15:0] : cvt(a.H1) << 8 | cvt(a.H0)}
 *   F2FP.F16.{E4M3,E5M2}.UNPACK_B d, a
 *       d = {f16(a.B1) : f16(a.B0)}   (exact)
 * (.RELU on each: negative values give +0, as PTX's cvt .relu.)
 * .SATFINITE is PTX's: NaN stays NaN, out-of-range values and infinities
 * give +-MAX_NORM (cvt_pack_f32); the f16 halves are exact in f32, so
 * each value is rounded once.  MERGE_C moves c's low half up: ptxas builds
 * an fp8x4 as `F2FP... R9, z, w, RZ; F2FP... R9, x, y, R9` (session 8,
 * tests/compile/real4 fp8_round; the f16 form likewise); we pass RZ. */
static int
f2fp_fp8(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Insn *in = &I->in;
	int l, ff = insn_has(in, "E4M3") ? FF_E4M3 : insn_has(in, "E5M2") ? FF_E5M2 : -1, relu = insn_has(in, "RELU");

	if (ff < 0)
		return 0;
	LANES(l, gm) {
		u32 a = e_opr(E, w, l, &in->o[1]), r;
		if (insn_has(in, "UNPACK_B") && !insn_has(in, "SATFINITE")) {
			r = (u32)cvt_f2f(a >> 8 & 0xff, ff, FF_F16, RND_RN, 0, 0, 0, relu) << 16 |
			    (u32)cvt_f2f(a & 0xff, ff, FF_F16, RND_RN, 0, 0, 0, relu);
		} else if (insn_has(in, "UNPACK_B_MERGE_C") && insn_has(in, "F16")) {
			r = cvt_pack_f32((u32)cvt_f2f(a >> 16, FF_F16, FF_F32, RND_RN, 0, 0, 0, 0),
					 (u32)cvt_f2f(a & 0xffff, FF_F16, FF_F32, RND_RN, 0, 0, 0, 0), ff, RND_RN, relu, 0, 1);
			r |= e_opr(E, w, l, &in->o[2]) << 16;
		} else if (insn_has(in, "PACK_AB_MERGE_C") && insn_has(in, "F32")) {
			r = cvt_pack_f32(fv(E, w, l, &in->o[1]), fv(E, w, l, &in->o[2]), ff, RND_RN, relu, 0, 1);
			r |= e_opr(E, w, l, &in->o[3]) << 16;
		} else
			eunsup(E, I, NULL);
		e_wr(w, l, &in->o[0], r);
	}
	return 1;
}

/* F2FP[.SATFINITE][.BF16|.F16][.F32].PACK_AB d, a, b: d = {hi: cvt(a),
 * lo: cvt(b)} (.SATFINITE as PTX's, cvt_pack_f32) */
static void
h_f2fp(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Insn *in = &I->in;
	int l, to = insn_has(in, "BF16") ? FF_BF16 : FF_F16, sf = insn_has(in, "SATFINITE");

	if (f2fp_fp8(E, w, I, gm))
		return;
	if (!insn_has(in, "PACK_AB"))
		eunsup(E, I, NULL);
	LANES(l, gm)
		e_wr(w, l, &in->o[0], cvt_pack_f32(fv(E, w, l, &in->o[1]), fv(E, w, l, &in->o[2]), to, I->a,
						   insn_has(in, "RELU"), I->c, sf));
}

/* ---- packed halves ---- */

/* The two halves (lo, hi) of an f16x2 source starting at operand *i;
 * consumes two float immediates, or one register with a selector. */
static void
h2src(Emu *E, Warp *w, int l, const Insn *in, int *i, int ff, u16 h[2])
{
	const Operand *o = &in->o[*i];

	if (o->kind == OPK_FIMM) {
		/* the halves were rounded at predecode (emu_prep_float) into bank */
		h[0] = in->o[*i + 1].bank, h[1] = o->bank;
		*i += 2;
		return;
	}
	u32 v = e_opr(E, w, l, o);
	(*i)++;
	h[0] = (u16)v, h[1] = (u16)(v >> 16);
	if (o->sel == SEL_H0_H0 || o->sel == SEL_H0)
		h[1] = h[0];
	else if (o->sel == SEL_H1_H1 || o->sel == SEL_H1)
		h[0] = h[1];
	else if (o->sel == SEL_F32) {
		u16 r = (u16)round_to(f32_of(v), ff, RND_RN, 0);
		h[0] = h[1] = r;
	}
	for (int k = 0; k < 2; k++) {
		if (o->abs) h[k] &= 0x7fff;
		if (o->neg) h[k] ^= 0x8000;
	}
}

/* HADD2/HMUL2/HFMA2[.MMA][.F32][.BF16_V2][.FTZ][.SAT] d, a, b[, c] */
static void
h_h2(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Insn *in = &I->in;
	int l, ff = insn_has(in, "BF16_V2") || insn_has(in, "BF16") ? FF_BF16 : FF_F16;
	int op = in->op[1], f32 = insn_has(in, "F32"), k;

	if (I->d) {   /* a constant (HFMA2.MMA R, -RZ, RZ, imm, imm), folded at predecode */
		LANES(l, gm) e_wr(w, l, &in->o[0], (u32)I->e);
		return;
	}
	LANES(l, gm) {
		u16 a[2], b[2], c[2] = {0x8000, 0x8000}, r[2];
		int i = 1;
		h2src(E, w, l, in, &i, ff, a);
		h2src(E, w, l, in, &i, ff, b);
		if (op == 'F')
			h2src(E, w, l, in, &i, ff, c);
		if (f32) {   /* .F32: one f32 result from the low halves */
			double x = widen(a[0], ff), y = widen(b[0], ff);
			double v = op == 'A' ? x + y : op == 'M' ? x * y : x * y + widen(c[0], ff);
			e_wr(w, l, &in->o[0], (u32)round_to(v, FF_F32, RND_RN, I->b));
			continue;
		}
		for (k = 0; k < 2; k++) {
			if (op == 'A')
				r[k] = h_add(ff, a[k], b[k], I->a, I->b, I->c);
			else if (op == 'M')
				r[k] = h_mul(ff, a[k], b[k], I->a, I->b, I->c);
			else
				r[k] = h_fma(ff, a[k], b[k], c[k], I->a, I->b, I->c, insn_has(in, "RELU"));
		}
		e_wr(w, l, &in->o[0], r[0] | (u32)r[1] << 16);
	}
}

/* HMNMX2 d, a, b, p (p: min);  HSET2[.BF].cmp.bop d, a, b, c */
static void
h_hmnmx2(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Insn *in = &I->in;
	int l, k, ff = insn_has(in, "BF16_V2") ? FF_BF16 : FF_F16, nan = insn_has(in, "NAN");
	int xs = insn_has(in, "XORSIGN");

	LANES(l, gm) {
		u16 a[2], b[2], r[2], sa[2] = {0, 0}, sb[2] = {0, 0};
		int i = 1, mn;
		if (xs) {   /* .XORSIGN |a|, |b|: the signs before the abs */
			Insn raw = *in;
			raw.o[1].abs = raw.o[2].abs = 0;
			h2src(E, w, l, &raw, &i, ff, sa);
			h2src(E, w, l, &raw, &i, ff, sb);
			i = 1;
		}
		h2src(E, w, l, in, &i, ff, a);
		h2src(E, w, l, in, &i, ff, b);
		if (i >= in->nops)
			eunsup(E, I, NULL);
		mn = e_oprp(w, l, &in->o[i]);
		for (k = 0; k < 2; k++) {
			r[k] = mn ? h_min(ff, a[k], b[k], I->b, nan) : h_max(ff, a[k], b[k], I->b, nan);
			if (xs && (r[k] & 0x7fff) <= (ff == FF_BF16 ? 0x7f80 : 0x7c00))   /* no NaN */
				r[k] |= (sa[k] ^ sb[k]) & 0x8000;
		}
		e_wr(w, l, &in->o[0], r[0] | (u32)r[1] << 16);
	}
}

static void
h_hset2(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Insn *in = &I->in;
	int l, k, ff = insn_has(in, "BF16_V2") ? FF_BF16 : FF_F16, cmp = e_cmpcode(in), bo = e_bopcode(in);
	int bf = insn_has(in, "BF");

	if (cmp < 0)
		eunsup(E, I, NULL);
	LANES(l, gm) {
		u16 a[2], b[2];
		u32 r = 0;
		int i = 1, c;
		h2src(E, w, l, in, &i, ff, a);
		h2src(E, w, l, in, &i, ff, b);
		if (i >= in->nops)
			eunsup(E, I, NULL);
		c = e_oprp(w, l, &in->o[i]);
		for (k = 0; k < 2; k++)
			if (e_bop(bo, fx_cmp(cmp, widen(a[k], ff), widen(b[k], ff)), c))
				r |= (u32)(bf ? (ff == FF_BF16 ? 0x3f80 : 0x3c00) : 0xffff) << 16 * k;
		e_wr(w, l, &in->o[0], r);
	}
}

/* HSETP2.cmp.bop p, q, a, b, c: p from the low halves, q from the high */
static void
h_hsetp2(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Insn *in = &I->in;
	int l, ff = insn_has(in, "BF16_V2") ? FF_BF16 : FF_F16, cmp = e_cmpcode(in), bo = e_bopcode(in);

	if (cmp < 0 || insn_has(in, "H_AND"))
		eunsup(E, I, NULL);
	LANES(l, gm) {
		u16 a[2], b[2];
		int i = 2, c;
		h2src(E, w, l, in, &i, ff, a);
		h2src(E, w, l, in, &i, ff, b);
		if (i >= in->nops)
			eunsup(E, I, NULL);
		c = e_oprp(w, l, &in->o[i]);
		e_wrp(w, l, &in->o[0], e_bop(bo, fx_cmp(cmp, widen(a[0], ff), widen(b[0], ff)), c));
		e_wrp(w, l, &in->o[1], e_bop(bo, fx_cmp(cmp, widen(a[1], ff), widen(b[1], ff)), c));
	}
}

/* FCHK p, a, b: is a/b outside the fast path's exact range?  Always
 * answering yes sends every division down ptxas's exact slow path, which
 * is correct for all inputs. */
static void
h_fchk(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	int l;

	(void)E;
	LANES(l, gm) e_wrp(w, l, &I->in.o[0], 1);
}

static const struct { const char *op; Handler fn; } tab[] = {
	{"FADD", h_fadd}, {"FMUL", h_fmul}, {"FFMA", h_ffma}, {"FMNMX", h_fmnmx},
	{"FSETP", h_fsetp}, {"DSETP", h_fsetp}, {"DADD", h_dop}, {"DMUL", h_dop}, {"DFMA", h_dop},
	{"DMNMX", h_dmnmx}, {"MUFU", h_mufu}, {"F2F", h_f2f}, {"FRND", h_frnd}, {"I2F", h_i2f},
	{"I2FP", h_i2f}, {"I2IP", h_i2ip}, {"F2I", h_f2i}, {"F2IP", NULL}, {"F2FP", h_f2fp}, {"HADD2", h_h2},
	{"HMUL2", h_h2}, {"HFMA2", h_h2}, {"FCHK", h_fchk}, {"HMNMX2", h_hmnmx2}, {"HSET2", h_hset2},
	{"HSETP2", h_hsetp2},
};

Handler
emu_float_handler(const char *op)
{
	size_t i;

	for (i = 0; i < NELEM(tab); i++)
		if (!strcmp(tab[i].op, op))
			return tab[i].fn;
	return NULL;
}

void
emu_prep_float(Emu *E, EInsn *I)
{
	size_t i;

	if (I->fn == h_h2 || I->fn == h_hmnmx2 || I->fn == h_hset2 || I->fn == h_hsetp2) {
		/* f16x2 immediates: round each half once, here */
		int ff = insn_has(&I->in, "BF16_V2") || insn_has(&I->in, "BF16") ? FF_BF16 : FF_F16, k;
		for (k = 0; k < I->in.nops; k++)
			if (I->in.o[k].kind == OPK_FIMM)
				I->in.o[k].bank = (u16)round_to(I->in.o[k].f, ff, RND_RN, 0);
	}
	for (i = 0; i < NELEM(tab); i++)
		if (tab[i].fn && I->fn == tab[i].fn) {
			const Insn *in = &I->in;
			I->a = emu_rnd(in);
			I->b = insn_has(in, "FTZ");
			I->c = insn_has(in, "SAT");
			if (I->fn == h_fmul)
				I->d = emu_fmul_scale(in);
			/* ptxas loads constants with HFMA2.MMA d, -RZ, RZ, hi, lo:
			   compute the value once */
			if (I->fn == h_h2 && in->op[1] == 'F' && in->nops == 5 && !insn_has(in, "F32") &&
			    in->o[1].kind == OPK_R && in->o[1].reg == RZ && !in->o[1].sel &&
			    in->o[2].kind == OPK_R && in->o[2].reg == RZ && !in->o[2].sel &&
			    in->o[3].kind == OPK_FIMM && in->o[4].kind == OPK_FIMM && !in->o[1].abs && !in->o[2].abs) {
				int ff = insn_has(in, "BF16_V2") ? FF_BF16 : FF_F16, k;
				u16 c[2] = {in->o[4].bank, in->o[3].bank}, r[2];
				for (k = 0; k < 2; k++)
					r[k] = h_fma(ff, in->o[1].neg ? 0x8000 : 0, in->o[2].neg ? 0x8000 : 0, c[k],
						     I->a, I->b, I->c, insn_has(in, "RELU"));
				I->d = 1;
				I->e = r[0] | (u32)r[1] << 16;
			}
			return;
		}
	emu_prep_mem(E, I);
}
