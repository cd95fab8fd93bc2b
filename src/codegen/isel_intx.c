/* isel_intx.c -- the integer bit operations (popc clz brev bfind bfe
 * bfi bmsk prmt lop3 shf), mul24/mad24, sad, dp4a/dp2a, testp, copysign
 * and the carry chain (add.cc/addc, sub.cc/subc, mad.cc/madc), mostly as
 * ptxas emits them (CUDA 13.0, sm_80/sm_90). */
#include <stdio.h>
#include <string.h>

#include "codegen/isel.h"

#define D0 (&x->p.opds[0])
#define S1 (&x->p.opds[1])
#define S2 (&x->p.opds[2])
#define S3 (&x->p.opds[3])
#define S4 (&x->p.opds[4])

static PtxType
ty(const IrIns *x)
{
	return (PtxType)x->p.types[0];
}

/* ---- bit operations ---- */

static int
tsize(const IrIns *x)
{
	return ptx_type_size(ty(x));
}

/* Part k of the destination (the whole register when it is 32-bit). */
static MRef
dpart(Sel *s, const IrIns *x, int k)
{
	MRef d = sel_reg(s, D0->reg);
	return s->mf->vr.v[d.v].w > 1 ? mpart(d.v, k, 1) : d;
}

static int
sel_popc(Sel *s, const IrIns *x)
{
	if (tsize(x) == 4) {
		mi(s->mf, "POPC %D, %U", dpart(s, x, 0), sel_r32(s, S1, 0));
	} else {
		MRef a = sel_tmp(s, 1), b = sel_tmp(s, 1);
		mi(s->mf, "POPC %D, %U", a, sel_r32(s, S1, 0));
		mi(s->mf, "POPC %D, %U", b, sel_r32(s, S1, 1));
		mi(s->mf, "IADD3 %D, %U, %U, RZ", dpart(s, x, 0), a, b);
	}
	return 0;
}

/* cnot d, a: d = a == 0 (8/16-bit: the low bits masked first, their
 * registers' upper bits being undefined; 64-bit: both words). */
static int
sel_cnot(Sel *s, const IrIns *x)
{
	MRef p = sel_ptmp(s), a = sel_r32(s, S1, 0);
	int n = tsize(x);

	if (a.v < 0)
		return -1;
	if (n < 4) {
		MRef t = sel_tmp(s, 1);
		mi(s->mf, "LOP3.LUT %D, %U, %h, RZ, 0xc0, !PT", t, a, n == 1 ? 0xffu : 0xffffu);
		a = t;
	}
	mi(s->mf, "ISETP.EQ.U32.AND %D, PT, %U, RZ, PT", p, a);
	if (n == 8)
		mi(s->mf, "ISETP.EQ.U32.AND.EX %D, PT, %U, RZ, PT, %U", p, sel_r32(s, S1, 1), p);
	mi(s->mf, "SEL %D, RZ, 0x1, !%U", dpart(s, x, 0), p);
	if (n == 8)
		sel_mov32(s, dpart(s, x, 1), mopd_txt("RZ"));
	return 0;
}

static int
sel_clz(Sel *s, const IrIns *x)
{
	MRef f = sel_tmp(s, 1);

	if (tsize(x) == 4) {
		mi(s->mf, "FLO.U32 %D, %U", f, sel_r32(s, S1, 0));
		mi(s->mf, "IADD3 %D, -%U, 0x1f, RZ", dpart(s, x, 0), f);
	} else {
		Seq q;
		seq_init(&q, s);
		seq_bind(&q, 2, sel_r32(s, S1, 0));
		seq_bind(&q, 3, sel_r32(s, S1, 1));
		seq_emit(&q, "ISETP.NE.U32.AND P0, PT, R3, RZ, PT");
		seq_emit(&q, "SEL R4, R2, R3, !P0");
		seq_emit(&q, "FLO.U32 R4, R4");
		seq_emit(&q, "IADD3 R5, -R4, 0x1f, RZ");
		seq_emit(&q, "IADD3 R6, -R4, 0x3f, RZ");
		seq_emit(&q, "SEL R6, R5, R6, P0");
		f = seq_get(&q, 6);
		seq_end(&q);
		sel_mov32(s, dpart(s, x, 0), mopd_reg(f));
	}
	return 0;
}

static int
sel_brev(Sel *s, const IrIns *x)
{
	if (tsize(x) == 4) {
		mi(s->mf, "BREV %D, %U", dpart(s, x, 0), sel_r32(s, S1, 0));
	} else {
		MRef lo = sel_tmp(s, 1);
		mi(s->mf, "BREV %D, %U", lo, sel_r32(s, S1, 1));
		mi(s->mf, "BREV %D, %U", dpart(s, x, 1), sel_r32(s, S1, 0));
		sel_mov32(s, dpart(s, x, 0), mopd_reg(lo));
	}
	return 0;
}

/* bfind: FLO (its "not found" is 0xffffffff, PTX's too). */
static int
sel_bfind(Sel *s, const IrIns *x)
{
	int sh = !!(x->p.flags & PTX_F_SHIFTAMT), sg = ptx_type_is_signed(ty(x));
	Seq q;
	MRef r;

	if (tsize(x) == 4) {
		/* signed: FLO.U32 of a ^ (a >> 31) (ptxas uses the signed FLO,
		   which our emulator models differently) */
		MRef a = sel_r32(s, S1, 0);
		if (sg) {
			MRef t = sel_tmp(s, 1), u = sel_tmp(s, 1);
			mi(s->mf, "SHF.R.S32.HI %D, RZ, 0x1f, %U", t, a);
			mi(s->mf, "LOP3.LUT %D, %U, %U, RZ, 0x3c, !PT", u, a, t);
			a = u;
		}
		mi(s->mf, "FLO.U32%s %D, %U", sh ? ".SH" : "", dpart(s, x, 0), a);
		return 0;
	}
	seq_init(&q, s);
	seq_bind(&q, 2, sel_r32(s, S1, 0));
	seq_bind(&q, 3, sel_r32(s, S1, 1));
	if (sg) {  /* a negative value: the highest 0 bit */
		seq_emit(&q, "SHF.R.S32.HI R4, RZ, 0x1f, R3");
		seq_emit(&q, "LOP3.LUT R2, R2, R4, RZ, 0x3c, !PT");
		seq_emit(&q, "LOP3.LUT R3, R3, R4, RZ, 0x3c, !PT");
	}
	seq_emit(&q, "FLO.U32 R5, R3");
	seq_emit(&q, "FLO.U32 R6, R2");
	seq_emit(&q, "ISETP.NE.U32.AND P0, PT, R5, -0x1, PT");
	seq_emit(&q, "@P0 IADD3 R6, R5, 0x20, RZ");
	if (sh) {
		seq_emit(&q, "ISETP.NE.U32.AND P1, PT, R6, -0x1, PT");
		seq_emit(&q, "@P1 IADD3 R6, -R6, 0x3f, RZ");
	}
	r = seq_get(&q, 6);
	seq_end(&q);
	sel_mov32(s, dpart(s, x, 0), mopd_reg(r));
	return 0;
}

/* 64-bit field helpers: R(m):R(m+1) = (1 << R(n)) - 1, the shift
 * clamped (n >= 64 gives all ones). */
static void
mask64(Seq *q, int m, int n)
{
	seq_emit(q, "MOV R50, 0x1");
	seq_emitf(q, "SHF.L.U32 R%d:p, R50, R%d, RZ", m, n);
	seq_emitf(q, "SHF.L.U64.HI R%d:p, R50, R%d, RZ", m + 1, n);
	seq_emitf(q, "IADD3 R%d, P6, R%d, -0x1, RZ", m, m);
	seq_emitf(q, "IADD3.X R%d, R%d, -0x1, RZ, P6, !PT", m + 1, m + 1);
}

/* R(d):R(d+1) = R(a):R(a+1) shifted by R(n) (funnel shifts: clamped). */
static void
shl64(Seq *q, int d, int a, int n)
{
	seq_emitf(q, "SHF.L.U64.HI R%d, R%d, R%d, R%d", d + 1, a, n, a + 1);
	seq_emitf(q, "SHF.L.U32 R%d, R%d, R%d, RZ", d, a, n);
}

static void
shr64(Seq *q, int d, int a, int n, int sg)
{
	seq_emitf(q, "SHF.R.%s64 R%d, R%d, R%d, R%d", sg ? "S" : "U", d, a, n, a + 1);
	seq_emitf(q, "SHF.R.%s32.HI R%d, RZ, R%d, R%d", sg ? "S" : "U", d + 1, n, a + 1);
}

static void
put64(Sel *s, const IrIns *x, Seq *q, int r)
{
	MRef lo = seq_get(q, r), hi = seq_get(q, r + 1);

	seq_end(q);
	sel_mov32(s, dpart(s, x, 0), mopd_reg(lo));
	sel_mov32(s, dpart(s, x, 1), mopd_reg(hi));
}

/* bfe.u64/s64: shift the field down, then mask (unsigned) or sign-extend
 * from bit len-1 by a shift pair (len >= 64: the shifted value). */
static int
bfe64(Sel *s, const IrIns *x, int sg)
{
	Seq q;

	seq_init(&q, s);
	seq_bind64(&q, 2, sel_r64(s, S1));
	seq_bind(&q, 4, sel_r32(s, S2, 0));
	seq_bind(&q, 5, sel_r32(s, S3, 0));
	seq_emitf(&q, "LOP3.LUT R4, R4, 0xff, RZ, 0xc0, !PT");
	seq_emitf(&q, "LOP3.LUT R5, R5, 0xff, RZ, 0xc0, !PT");
	shr64(&q, 6, 2, 4, sg);
	if (!sg) {
		mask64(&q, 8, 5);
		seq_emitf(&q, "LOP3.LUT R10, R6, R8, RZ, 0xc0, !PT");
		seq_emitf(&q, "LOP3.LUT R11, R7, R9, RZ, 0xc0, !PT");
	} else {
		seq_emitf(&q, "IADD3 R12, -R5, 0x40, RZ");
		shl64(&q, 14, 6, 12);
		shr64(&q, 10, 14, 12, 1);
		seq_emitf(&q, "ISETP.GE.U32.AND P0, PT, R5, 0x40, PT");
		seq_emitf(&q, "SEL R10, R6, R10, P0");
		seq_emitf(&q, "SEL R11, R7, R11, P0");
	}
	put64(s, x, &q, 10);
	return 0;
}

/* bfi.b64 d, f, b, pos, len: m = ((1 << len) - 1) << pos, d = (f << pos)
 * & m | b & ~m. */
static int
bfi64(Sel *s, const IrIns *x)
{
	Seq q;

	seq_init(&q, s);
	seq_bind64(&q, 2, sel_r64(s, S1));
	seq_bind64(&q, 4, sel_r64(s, S2));
	seq_bind(&q, 6, sel_r32(s, S3, 0));
	seq_bind(&q, 7, sel_r32(s, S4, 0));
	seq_emitf(&q, "LOP3.LUT R6, R6, 0xff, RZ, 0xc0, !PT");
	seq_emitf(&q, "LOP3.LUT R7, R7, 0xff, RZ, 0xc0, !PT");
	mask64(&q, 8, 7);
	shl64(&q, 10, 8, 6);
	shl64(&q, 12, 2, 6);
	seq_emitf(&q, "LOP3.LUT R14, R12, R10, R4, 0xe2, !PT");
	seq_emitf(&q, "LOP3.LUT R15, R13, R11, R5, 0xe2, !PT");
	put64(s, x, &q, 14);
	return 0;
}

/* bfe.u32/s32: pos and len are their low 8 bits; the field is shifted
 * down (a shift of 32 or more gives 0 or the sign) and cut to len bits
 * with a mask (unsigned) or a shift pair (signed). */
static int
sel_bfe(Sel *s, const IrIns *x)
{
	int sg = ptx_type_is_signed(ty(x));
	Seq q;
	MRef r;

	if (tsize(x) != 4)
		return bfe64(s, x, sg);
	seq_init(&q, s);
	seq_bind(&q, 2, sel_r32(s, S1, 0));
	seq_bind(&q, 3, sel_r32(s, S2, 0));
	seq_bind(&q, 4, sel_r32(s, S3, 0));
	seq_emit(&q, "LOP3.LUT R3, R3, 0xff, RZ, 0xc0, !PT");
	seq_emit(&q, "LOP3.LUT R4, R4, 0xff, RZ, 0xc0, !PT");
	if (!sg) {
		seq_emit(&q, "SHF.R.U32.HI R5, RZ, R3, R2");
		seq_emit(&q, "BMSK R6, RZ, R4");
		seq_emit(&q, "LOP3.LUT R7, R5, R6, RZ, 0xc0, !PT");
	} else {
		seq_emit(&q, "SHF.R.S32.HI R5, RZ, R3, R2");
		seq_emit(&q, "IADD3 R6, -R4, 0x20, RZ");
		seq_emit(&q, "SHF.L.U32 R7, R5, R6, RZ");
		seq_emit(&q, "SHF.R.S32.HI R7, RZ, R6, R7");
		seq_emit(&q, "ISETP.GE.U32.AND P0, PT, R4, 0x20, PT");
		seq_emit(&q, "SEL R7, R5, R7, P0");
	}
	r = seq_get(&q, 7);
	seq_end(&q);
	sel_mov32(s, dpart(s, x, 0), mopd_reg(r));
	return 0;
}

/* bfi.b32 d, f, b, pos, len: BMSK makes the field mask (clipped at bit
 * 31), LOP3 0xe2 = (f << pos) & m | b & ~m. */
static int
sel_bfi(Sel *s, const IrIns *x)
{
	Seq q;
	MRef r;

	if (tsize(x) != 4)
		return bfi64(s, x);
	seq_init(&q, s);
	seq_bind(&q, 2, sel_r32(s, S1, 0));
	seq_bind(&q, 3, sel_r32(s, S2, 0));
	seq_bind(&q, 4, sel_r32(s, S3, 0));
	seq_bind(&q, 5, sel_r32(s, S4, 0));
	seq_emit(&q, "LOP3.LUT R4, R4, 0xff, RZ, 0xc0, !PT");
	seq_emit(&q, "LOP3.LUT R5, R5, 0xff, RZ, 0xc0, !PT");
	seq_emit(&q, "SHF.L.U32 R6, R2, R4, RZ");
	seq_emit(&q, "BMSK R7, R4, R5");
	seq_emit(&q, "LOP3.LUT R8, R6, R7, R3, 0xe2, !PT");
	r = seq_get(&q, 8);
	seq_end(&q);
	sel_mov32(s, dpart(s, x, 0), mopd_reg(r));
	return 0;
}

static int
sel_bmsk(Sel *s, const IrIns *x)
{
	mi(s->mf, "BMSK%s %D, %U, %O", x->p.flags & PTX_F_WRAP ? ".W" : "", dpart(s, x, 0), sel_r32(s, S1, 0),
	   sel_b32u(s, S2, 0));
	return 0;
}

/* szext.{wrap,clamp}.{u32,s32} d, a, n: SGXT[.W][.U32] d, a, n */
static int
sel_szext(Sel *s, const IrIns *x)
{
	mi(s->mf, "SGXT%s%s %D, %U, %O", x->p.flags & PTX_F_WRAP ? ".W" : "", ty(x) == PTX_T_U32 ? ".U32" : "",
	   dpart(s, x, 0), sel_r32(s, S1, 0), sel_b32u(s, S2, 0));
	return 0;
}

/* ---- SIMD video instructions: vadd/vsub/vavrg/vabsdiff/vmin/vmax/vset
 * 2 and 4 with the default selectors and mask.  A lowering lane by lane,
 * as ptxas (which writes one per lane too, shuffled): each lane extended
 * to 32 bits by PRMT (sign replicated for a signed operand), the operation
 * in 32 bits, then either clamped (.sat) and packed into its lane, or
 * summed onto c (.add, the one secondary operation ptxas takes).  The
 * unsigned vabsdiff4 without .sat is ptxas's one VABSDIFF4.U8[.ACC].  vavrg
 * rounds half away from zero, (x + y + (x + y >= 0)) >> 1 (ptxas: ISETP,
 * @P VIADD, SHF.R.S32.HI; here without a predicate). */
static MRef
video_lane(Sel *s, MRef v, int lanes, int i, int sg)
{
	static const unsigned sel[2][2][4] = {
		{ { 0x7770, 0x7771, 0x7772, 0x7773 }, { 0x8880, 0x9991, 0xaaa2, 0xbbb3 } },
		{ { 0x7710, 0x7732 }, { 0x9910, 0xbb32 } },
	};
	MRef t = sel_tmp(s, 1);
	mi(s->mf, "PRMT %D, %U, %h, RZ", t, v, sel[lanes == 2][sg][i]);
	return t;
}

static int
sel_video(Sel *s, const IrIns *x)
{
	static const char *const cmps[] = {
		[PTX_CMP_EQ] = "EQ", [PTX_CMP_NE] = "NE", [PTX_CMP_LT] = "LT",
		[PTX_CMP_LE] = "LE", [PTX_CMP_GT] = "GT", [PTX_CMP_GE] = "GE",
	};
	int op = x->p.op, lanes, w, i, dsg, asg, bsg, k, set = op == PTX_OP_vset2 || op == PTX_OP_vset4;
	const char *mn = s->sm >= 90 ? "VIMNMX" : "IMNMX";
	MRef a, b, c, acc = mref(-1), d;

	for (k = 0; k < x->p.nopds; k++)
		if (x->p.opds[k].kind != PTX_OPD_REG && x->p.opds[k].kind != PTX_OPD_IMM)
			return sel_unsupported(s, "a video instruction with lane selectors or a mask");
	if (x->p.nopds != 4 || (set && (x->p.cmp >= NELEM(cmps) || !cmps[x->p.cmp])) ||
	    (x->p.aop && x->p.aop != PTX_AOP_ADD))
		return sel_unsupported(s, "this form of a video instruction (ptxas takes .add only)");
	lanes = op == PTX_OP_vadd4 || op == PTX_OP_vsub4 || op == PTX_OP_vavrg4 || op == PTX_OP_vabsdiff4 ||
		op == PTX_OP_vmin4 || op == PTX_OP_vmax4 || op == PTX_OP_vset4 ? 4 : 2;
	w = 32 / lanes;
	k = set ? 0 : 1;   /* vset has no destination type */
	dsg = !set && ptx_type_is_signed((PtxType)x->p.types[0]);
	asg = ptx_type_is_signed((PtxType)x->p.types[x->p.ntypes > k ? k : 0]);
	bsg = ptx_type_is_signed((PtxType)x->p.types[x->p.ntypes > k + 1 ? k + 1 : 0]);
	a = sel_r32(s, &x->p.opds[1], 0);
	b = sel_r32(s, &x->p.opds[2], 0);
	c = sel_r32(s, &x->p.opds[3], 0);
	if (a.v < 0 || b.v < 0 || c.v < 0)
		return -1;
	d = dpart(s, x, 0);
	if (op == PTX_OP_vabsdiff4 && !(x->p.flags & PTX_F_SAT) && !dsg && !asg && !bsg) {
		/* ptxas: one VABSDIFF4.U8[.ACC] for the unsigned form */
		mi(s->mf, "VABSDIFF4.U8%s %D, %U, %U, %U", x->p.aop ? ".ACC" : "", d, a, b, c);
		return 0;
	}
	for (i = 0; i < lanes; i++) {
		MRef xa = video_lane(s, a, lanes, i, asg), yb = video_lane(s, b, lanes, i, bsg), r = sel_tmp(s, 1);
		switch (op) {
		case PTX_OP_vadd2: case PTX_OP_vadd4:
			mi(s->mf, "IADD3 %D, %U, %U, RZ", r, xa, yb);
			break;
		case PTX_OP_vsub2: case PTX_OP_vsub4:
			mi(s->mf, "IADD3 %D, %U, -%U, RZ", r, xa, yb);
			break;
		case PTX_OP_vavrg2: case PTX_OP_vavrg4: {
			MRef t = sel_tmp(s, 1), u = sel_tmp(s, 1);   /* + 1 unless negative */
			mi(s->mf, "IADD3 %D, %U, %U, RZ", t, xa, yb);
			mi(s->mf, "SHF.R.S32.HI %D, RZ, 0x1f, %U", u, t);
			mi(s->mf, "IADD3 %D, %U, 0x1, %U", u, t, u);
			mi(s->mf, "SHF.R.S32.HI %D, RZ, 0x1, %U", r, u);
			break;
		}
		case PTX_OP_vabsdiff2: case PTX_OP_vabsdiff4:
			mi(s->mf, "IADD3 %D, %U, -%U, RZ", r, xa, yb);
			mi(s->mf, "IABS %D, %U", r, r);
			break;
		case PTX_OP_vmin2: case PTX_OP_vmin4: case PTX_OP_vmax2: case PTX_OP_vmax4:
			mi(s->mf, "%s %D, %U, %U, %s", mn, r, xa, yb, op == PTX_OP_vmin2 || op == PTX_OP_vmin4 ? "PT" : "!PT");
			break;
		default: {   /* vset: 1 where the compare holds */
			MRef p = sel_ptmp(s);
			mi(s->mf, "ISETP.%s.AND %D, PT, %U, %U, PT", cmps[x->p.cmp], p, xa, yb);
			mi(s->mf, "SEL %D, RZ, 0x1, !%U", r, p);
		}
		}
		if (x->p.aop) {   /* .add: the lanes summed onto c */
			MRef n = sel_tmp(s, 1);
			mi(s->mf, "IADD3 %D, %U, %U, RZ", n, i ? acc : c, r);
			acc = n;
			continue;
		}
		if ((x->p.flags & PTX_F_SAT) && !set) {
			MRef t = sel_tmp(s, 1);
			mi(s->mf, "%s %D, %U, %x, !PT", mn, t, r, dsg ? -(1 << (w - 1)) : 0);
			r = sel_tmp(s, 1);
			mi(s->mf, "%s %D, %U, %x, PT", mn, r, t, dsg ? (1 << (w - 1)) - 1 : (1 << w) - 1);
		}
		if (i == 0) {
			acc = sel_tmp(s, 1);
			mi(s->mf, "LOP3.LUT %D, %U, %h, RZ, 0xc0, !PT", acc, r, (1u << w) - 1);
		} else {
			MRef t = sel_tmp(s, 1), n = sel_tmp(s, 1);
			mi(s->mf, "SHF.L.U32 %D, %U, %h, RZ", t, r, (unsigned)(w * i));
			mi(s->mf, "LOP3.LUT %D, %U, %h, %U, 0xea, !PT", n, t, (u32)(((1ull << w) - 1) << (w * i)), acc);
			acc = n;
		}
	}
	sel_mov32(s, d, mopd_reg(acc));
	return 0;
}

static int
sel_prmt(Sel *s, const IrIns *x)
{
	static const char *const modes[] = {
		[PTX_MODE_F4E] = ".F4E", [PTX_MODE_B4E] = ".B4E", [PTX_MODE_RC8] = ".RC8",
		[PTX_MODE_ECL] = ".ECL", [PTX_MODE_ECR] = ".ECR", [PTX_MODE_RC16] = ".RC16",
	};
	const char *m = x->p.mode < sizeof modes / sizeof *modes && modes[x->p.mode] ? modes[x->p.mode] : "";

	if (x->p.mode && !m[0])
		return sel_unsupported(s, "this prmt mode");
	mi(s->mf, "PRMT%s %D, %U, %O, %U", m, dpart(s, x, 0), sel_r32(s, S1, 0), sel_b32u(s, S3, 0),
	   sel_r32(s, S2, 0));
	return 0;
}

static int
sel_lop3(Sel *s, const IrIns *x)
{
	u64 lut;

	if (!sel_imm(S4, &lut) || D0->reg2 >= 0)
		return sel_unsupported(s, "lop3 with a register LUT or a predicate output");
	mi(s->mf, "LOP3.LUT %D, %U, %O, %U, %h, !PT", dpart(s, x, 0), sel_r32(s, S1, 0), sel_b32u(s, S2, 0),
	   sel_r32(s, S3, 0), (u32)(lut & 0xff));
	return 0;
}

/* shf.l: d = hi32((b:a) << n); shf.r: d = lo32((b:a) >> n); n clamped
 * to 32 (.clamp) or taken mod 32 (.wrap). */
static int
sel_shf(Sel *s, const IrIns *x)
{
	const char *w = x->p.flags & PTX_F_WRAP ? ".W" : "";

	if (x->p.mode == PTX_MODE_L)
		mi(s->mf, "SHF.L%s.U32.HI %D, %U, %O, %U", w, dpart(s, x, 0), sel_r32(s, S1, 0), sel_b32u(s, S3, 0),
		   sel_r32(s, S2, 0));
	else
		mi(s->mf, "SHF.R%s.U32 %D, %U, %O, %U", w, dpart(s, x, 0), sel_r32(s, S1, 0), sel_b32u(s, S3, 0),
		   sel_r32(s, S2, 0));
	return 0;
}

/* mul24/mad24: the low 24 bits, sign- or zero-extended (SHF pairs), then
 * a 32x32 multiply; .hi takes bits 16..47 of the 48-bit product. */
static int
mul24(Sel *s, const IrIns *x, int mad)
{
	int sg = ptx_type_is_signed(ty(x));
	Seq q;
	MRef r;

	seq_init(&q, s);
	seq_bind(&q, 2, sel_r32(s, S1, 0));
	seq_bind(&q, 3, sel_r32(s, S2, 0));
	seq_bind(&q, 4, mad ? sel_r32(s, S3, 0) : mref(s->mf->rz));
	seq_emit(&q, "SHF.L.U32 R2, R2, 0x8, RZ");
	seq_emit(&q, "SHF.L.U32 R3, R3, 0x8, RZ");
	seq_emit(&q, sg ? "SHF.R.S32.HI R2, RZ, 0x8, R2" : "SHF.R.U32.HI R2, RZ, 0x8, R2");
	seq_emit(&q, sg ? "SHF.R.S32.HI R3, RZ, 0x8, R3" : "SHF.R.U32.HI R3, RZ, 0x8, R3");
	if (x->p.mode == PTX_MODE_HI) {
		seq_emit(&q, sg ? "IMAD.WIDE R6:2, R2, R3, RZ" : "IMAD.WIDE.U32 R6:2, R2, R3, RZ");
		seq_emit(&q, "SHF.R.U64 R8, R6, 0x10, R7");
		seq_emit(&q, "IADD3 R8, R8, R4, RZ");
	} else {
		seq_emit(&q, "IMAD R8, R2, R3, R4");
	}
	r = seq_get(&q, 8);
	seq_end(&q);
	sel_mov32(s, dpart(s, x, 0), mopd_reg(r));
	return 0;
}

static int sel_mul24(Sel *s, const IrIns *x) { return mul24(s, x, 0); }
static int sel_mad24(Sel *s, const IrIns *x) { return mul24(s, x, 1); }

/* sad.{u64,s64}: c + (a >= b ? a - b : b - a), ptxas's sequence. */
static int
sad64(Sel *s, const IrIns *x, int sg)
{
	MRef p = sel_ptmp(s), c1 = sel_ptmp(s), c2 = sel_ptmp(s), c3 = sel_ptmp(s);
	MRef alo = sel_r32(s, S1, 0), ahi = sel_r32(s, S1, 1), blo = sel_r32(s, S2, 0), bhi = sel_r32(s, S2, 1);
	MRef d[2][2], r[2], lo = sel_tmp(s, 1);
	int k, i;

	for (k = 0; k < 2; k++) {
		r[k] = sel_tmp(s, 1);
		for (i = 0; i < 2; i++)
			d[k][i] = sel_tmp(s, 1);
	}
	mi(s->mf, "ISETP.GE.U32.AND %D, PT, %U, %U, PT", p, alo, blo);
	mi(s->mf, sg ? "ISETP.GE.AND.EX %D, PT, %U, %U, PT, %U" : "ISETP.GE.U32.AND.EX %D, PT, %U, %U, PT, %U", p, ahi,
	   bhi, p);
	mi(s->mf, "IADD3 %D, %D, %U, -%U, RZ", d[0][0], c1, alo, blo);
	mi(s->mf, "IADD3.X %D, %U, ~%U, RZ, %U, !PT", d[0][1], ahi, bhi, c1);
	mi(s->mf, "IADD3 %D, %D, %U, -%U, RZ", d[1][0], c2, blo, alo);
	mi(s->mf, "IADD3.X %D, %U, ~%U, RZ, %U, !PT", d[1][1], bhi, ahi, c2);
	for (k = 0; k < 2; k++)
		mi(s->mf, "SEL %D, %U, %U, %U", r[k], d[0][k], d[1][k], p);
	mi(s->mf, "IADD3 %D, %D, %U, %U, RZ", lo, c3, r[0], sel_r32(s, S3, 0));
	mi(s->mf, "IADD3.X %D, %U, %U, RZ, %U, !PT", dpart(s, x, 1), r[1], sel_r32(s, S3, 1), c3);
	sel_mov32(s, dpart(s, x, 0), mopd_reg(lo));
	return 0;
}

/* sad: |a - b| + c as max - min + c (exact for every input); 16 and 64
 * bits as ptxas. */
static int
sel_sad(Sel *s, const IrIns *x)
{
	int sg = ptx_type_is_signed(ty(x));
	const char *mn = s->sm >= 90 ? "VIMNMX" : "IMNMX", *u = sg ? "" : ".U32";
	MRef a, b, hi, lo;

	if (tsize(x) == 8)
		return sad64(s, x, sg);
	if (tsize(x) == 2) {   /* ptxas: a and b extended (PRMT), one VABSDIFF[.U32] */
		a = sel_r32(s, S1, 0), b = sel_r32(s, S2, 0);
		if (a.v < 0 || b.v < 0)
			return -1;
		a = video_lane(s, a, 2, 0, sg), b = video_lane(s, b, 2, 0, sg);
		mi(s->mf, "VABSDIFF%s %D, %U, %U, %U", u, dpart(s, x, 0), a, b, sel_r32(s, S3, 0));
		return 0;
	}
	a = sel_r32(s, S1, 0), b = sel_r32(s, S2, 0), hi = sel_tmp(s, 1), lo = sel_tmp(s, 1);
	mi(s->mf, "%s%s %D, %U, %U, !PT", mn, u, hi, a, b);
	mi(s->mf, "%s%s %D, %U, %U, PT", mn, u, lo, a, b);
	mi(s->mf, "IADD3 %D, %U, -%U, %U", dpart(s, x, 0), hi, lo, sel_r32(s, S3, 0));
	return 0;
}

static int
sel_dp(Sel *s, const IrIns *x, int four)
{
	const char *ta = ptx_type_is_signed((PtxType)x->p.types[0]) ? "S" : "U";
	const char *tb = ptx_type_is_signed((PtxType)x->p.types[1]) ? "S" : "U";

	if (four)
		mi(s->mf, "IDP.4A.%s8.%s8 %D, %U, %U, %U", ta, tb, dpart(s, x, 0), sel_r32(s, S1, 0), sel_r32(s, S2, 0),
		   sel_r32(s, S3, 0));
	else
		mi(s->mf, "IDP.2A.%s.%s16.%s8 %D, %U, %U, %U", x->p.mode == PTX_MODE_HI ? "HI" : "LO", ta, tb,
		   dpart(s, x, 0), sel_r32(s, S1, 0), sel_r32(s, S2, 0), sel_r32(s, S3, 0));
	return 0;
}

static int sel_dp4a(Sel *s, const IrIns *x) { return sel_dp(s, x, 1); }
static int sel_dp2a(Sel *s, const IrIns *x) { return sel_dp(s, x, 0); }

/* copysign d, a, b: b with a's sign (LOP3 0xb8: (b & ~m) | (a & m)). */
static int
sel_copysign(Sel *s, const IrIns *x)
{
	int hi = ty(x) == PTX_T_F64;

	if (ty(x) != PTX_T_F32 && !hi)
		return sel_unsupported(s, "copysign on this type");
	if (hi) {
		MRef lo = sel_tmp(s, 1);
		sel_mov32(s, lo, mopd_reg(sel_r32(s, S2, 0)));
		mi(s->mf, "LOP3.LUT %D, %U, 0x80000000, %U, 0xb8, !PT", dpart(s, x, 1), sel_r32(s, S2, 1),
		   sel_r32(s, S1, 1));
		sel_mov32(s, dpart(s, x, 0), mopd_reg(lo));
	} else {
		mi(s->mf, "LOP3.LUT %D, %U, 0x80000000, %U, 0xb8, !PT", dpart(s, x, 0), sel_r32(s, S2, 0),
		   sel_r32(s, S1, 0));
	}
	return 0;
}

/* testp on the bits: |a| (sign cleared) against the exponent limits. */
static int
sel_testp(Sel *s, const IrIns *x)
{
	int f64 = ty(x) == PTX_T_F64;
	MRef p = sel_reg(s, D0->reg), m = sel_tmp(s, 1), lo = f64 ? sel_r32(s, S1, 0) : mref(s->mf->rz);
	const char *inf = f64 ? "0x7ff00000" : "0x7f800000", *min = f64 ? "0x100000" : "0x800000";
	const char *ex = f64 ? ".EX" : "";
	MRef t = sel_ptmp(s);

	if (ty(x) != PTX_T_F32 && !f64)
		return sel_unsupported(s, "testp on this type");
	mi(s->mf, "LOP3.LUT %D, %U, 0x7fffffff, RZ, 0xc0, !PT", m, sel_r32(s, S1, f64));
	/* compare (m:lo) with (k:0): for f32 only m */
	switch (x->p.mode) {
	case PTX_MODE_FINITE: case PTX_MODE_INFINITE: case PTX_MODE_NUMBER: case PTX_MODE_NOTANUMBER: {
		/* finite: |a| < inf; infinite: |a| == inf; number: |a| <= inf */
		const char *c = x->p.mode == PTX_MODE_FINITE ? "LT" : x->p.mode == PTX_MODE_INFINITE ? "EQ" :
		                x->p.mode == PTX_MODE_NUMBER ? "LE" : "GT";
		if (f64) {
			mi(s->mf, "ISETP.%s.U32.AND %D, PT, %U, RZ, PT", c, t, lo);
			mi(s->mf, "ISETP.%s.U32.AND%s %D, PT, %U, %s, PT, %U", c, ex, p, m, inf, t);
		} else {
			mi(s->mf, "ISETP.%s.U32.AND %D, PT, %U, %s, PT", c, p, m, inf);
		}
		return 0;
	}
	case PTX_MODE_NORMAL: case PTX_MODE_SUBNORMAL: {
		/* normal: min <= |a| < inf; subnormal: 0 < |a| < min */
		MRef u = sel_ptmp(s);
		int nm = x->p.mode == PTX_MODE_NORMAL;
		if (f64) {
			mi(s->mf, "ISETP.%s.U32.AND %D, PT, %U, RZ, PT", nm ? "GE" : "LT", t, lo);
			mi(s->mf, "ISETP.%s.U32.AND.EX %D, PT, %U, %s, PT, %U", nm ? "GE" : "LT", t, m, min, t);
			mi(s->mf, "ISETP.%s.U32.AND %D, PT, %U, RZ, PT", nm ? "LT" : "NE", u, lo);
			mi(s->mf, "ISETP.%s.U32.AND.EX %D, PT, %U, %s, PT, %U", nm ? "LT" : "NE", u, m, nm ? inf : "RZ", u);
		} else {
			mi(s->mf, "ISETP.%s.U32.AND %D, PT, %U, %s, PT", nm ? "GE" : "LT", t, m, min);
			mi(s->mf, "ISETP.%s.U32.AND %D, PT, %U, %s, PT", nm ? "LT" : "NE", u, m, nm ? inf : "RZ");
		}
		mi(s->mf, "PLOP3.LUT %D, PT, %U, %U, PT, 0x80, 0x0", p, t, u);
		return 0;
	}
	}
	return sel_unsupported(s, "this testp mode");
}

/* ---- the carry chain: add.cc/addc, sub.cc/subc, mad.cc/madc ----
 *
 * CC.CF is the SASS carry-out of the latest producer, for a subtraction
 * too (a + ~b + 1: "no borrow"), as ptxas has it: add and sub chains may
 * mix (docs/compiler-math.md).  It lives in the predicate the producer
 * writes; the vreg of the latest producer is remembered per function
 * (straight-line carry chains, as PTX uses them). */
static struct {
	const MFunc *mf;
	const IrFunc *ir;
	int p;        /* the vreg */
} carry = { NULL, NULL, -1 };

/* The CC.CF vreg of this function (none before its first producer: then
 * CF reads as 0). */
static MRef
cf_cur(Sel *s)
{
	if (carry.mf != s->mf || carry.ir != s->ir || carry.p < 0 || carry.p >= (int)s->mf->vr.n ||
	    s->mf->vr.v[carry.p].cls != RC_P)
		return mref(-1);
	return mref(carry.p);
}

/* A fresh vreg for CC.CF; the producer writes its SASS carry-out there
 * directly.  Under a PTX guard it starts as the old value.  zero: a
 * consumer with no producer before it (CF reads as 0). */
static MRef
cf_new(Sel *s, int zero)
{
	MRef n = mref(mvreg(s->mf, RC_P, 1)), old = cf_cur(s);
	int g = s->mf->guard;
	u8 gn = s->mf->guard_neg;

	if (g >= 0 || zero) {
		s->mf->guard = -1;
		if (old.v >= 0)
			mi(s->mf, "PLOP3.LUT %D, PT, %U, PT, PT, 0x80, 0x0", n, old);
		else
			mi(s->mf, "PLOP3.LUT %D, PT, PT, PT, PT, 0x0, 0x0", n);
		s->mf->guard = g;
		s->mf->guard_neg = gn;
	}
	carry.mf = s->mf;
	carry.ir = s->ir;
	carry.p = n.v;
	return n;
}

/* The SASS carry-in of addc/subc/madc. */
static MRef
cf_in(Sel *s)
{
	MRef c = cf_cur(s);

	return c.v >= 0 ? c : cf_new(s, 1);
}

/* One 32-bit step: d = a + (sub ? ~b : b) + cin; carry out to *co when
 * co is not NULL.  cin < 0 means 0 for add and 1 for sub. */
static void
cstep(Sel *s, MRef d, MRef a, MOpd b, MRef cin, int sub, MRef *co)
{
	char f[96];
	const char *neg = sub ? (cin.v >= 0 ? "~" : "-") : "";

	if (cin.v >= 0) {
		str_printf(f, sizeof f, "IADD3.X %%D, %s%%U, %s%%O, RZ, %%U, !PT", co ? "%D, " : "", neg);
		if (co)
			mi(s->mf, f, d, *co, a, b, cin);
		else
			mi(s->mf, f, d, a, b, cin);
	} else {
		str_printf(f, sizeof f, "IADD3 %%D, %s%%U, %s%%O, RZ", co ? "%D, " : "", neg);
		if (co)
			mi(s->mf, f, d, *co, a, b);
		else
			mi(s->mf, f, d, a, b);
	}
}

/* kind: 0 add, 1 sub, 2 mad; chained: addc/subc/madc (reads CF). */
int
sel_carry(Sel *s, const IrIns *x, int kind, int chained)
{
	int cc = !!(x->p.flags & PTX_F_CC), n = tsize(x), sub = kind == 1;
	MRef d = sel_reg(s, D0->reg), cin = chained ? cf_in(s) : mref(-1), co, t;
	MRef a;
	MOpd b;

	if (n != 4 && (n != 8 || kind == 2))
		return sel_unsupported(s, "this carry-chain operation width");
	if (kind == 2) {  /* the product, then the add of c with the carry */
		const char *hs = ptx_type_is_signed(ty(x)) ? "IMAD.HI" : "IMAD.HI.U32";
		t = sel_tmp(s, 1);
		if (x->p.mode == PTX_MODE_HI)
			mi(s->mf, "%s %D, %U, %U, RZ", hs, t, sel_r32(s, S1, 0), sel_r32(s, S2, 0));
		else
			mi(s->mf, "IMAD %D, %U, %U, RZ", t, sel_r32(s, S1, 0), sel_r32(s, S2, 0));
		a = t;
		b = mopd_reg(sel_r32(s, S3, 0));
	} else {
		a = sel_r32(s, S1, 0);
		b = sel_b32(s, S2, 0);
		if (b.txt[0] && sub) {  /* an immediate: its complement as a register */
			t = sel_tmp(s, 1);
			sel_mov32(s, t, b);
			b = mopd_reg(t);
		}
	}
	if (n == 4) {
		co = cc ? cf_new(s, 0) : mref(-1);
		cstep(s, d.v >= 0 && s->mf->vr.v[d.v].w > 1 ? mpart(d.v, 0, 1) : d, a, b, cin, sub, cc ? &co : NULL);
	} else {
		MRef c1 = sel_ptmp(s), lo = sel_tmp(s, 1);
		MOpd bh = sel_b32(s, S2, 1);
		if (bh.txt[0]) {
			t = sel_tmp(s, 1);
			sel_mov32(s, t, bh);
			bh = mopd_reg(t);
		}
		if (b.txt[0]) {
			t = sel_tmp(s, 1);
			sel_mov32(s, t, b);
			b = mopd_reg(t);
		}
		cstep(s, lo, a, b, cin, sub, &c1);
		co = cc ? cf_new(s, 0) : mref(-1);
		/* the high word: always chained on c1 */
		cstep(s, mpart(d.v, 1, 1), sel_r32(s, S1, 1), bh, c1, sub, cc ? &co : NULL);
		sel_mov32(s, mpart(d.v, 0, 1), mopd_reg(lo));
	}
	return 0;
}

static int sel_addc(Sel *s, const IrIns *x) { return sel_carry(s, x, 0, 1); }
static int sel_subc(Sel *s, const IrIns *x) { return sel_carry(s, x, 1, 1); }
static int sel_madc(Sel *s, const IrIns *x) { return sel_carry(s, x, 2, 1); }

/* fns.b32 d, mask, base, offset: the |offset|-th set bit of mask from base
 * (inclusive), upward for offset > 0, downward for offset < 0 (the mask
 * reversed), base itself for 0; 0xffffffff if there is none.  Base is
 * taken mod 32 (PTX: > 31 is undefined; the interpreter's i_fns does the
 * same).  Branch-free: the bits below base cleared, then a binary search
 * for the n-th set bit by population counts of 16/8/4/2/1-bit halves
 * (ptxas's own sequence branches on the offset's sign and searches alike). */
static const char *const fns_seq[] = {
	"LOP3.LUT R3, R3, 0x1f, RZ, 0xc0, !PT",
	"ISETP.EQ.AND P1, PT, R4, RZ, PT",
	"ISETP.LT.AND P2, PT, R4, RZ, PT",
	"@P2 BREV R2, R2",
	"@P2 IADD3 R3, -R3, 0x1f, RZ",
	"@P2 IADD3 R4, -R4, RZ, RZ",
	"@P1 MOV R4, 0x1",
	"MOV R6, 0xffffffff",
	"@P1 MOV R6, 0x1",
	"SHF.L.U32 R6, R6, R3, RZ",
	"LOP3.LUT R5, R2, R6, RZ, 0xc0, !PT",
	"POPC R7, R5",
	"ISETP.GT.U32.AND P3, PT, R4, R7, PT",
	"MOV R8, RZ",
	"LOP3.LUT R9, R5, 0xffff, RZ, 0xc0, !PT",
	"POPC R9, R9",
	"ISETP.LT.U32.AND P0, PT, R9, R4, PT",
	"@P0 IADD3 R4, R4, -R9, RZ",
	"@P0 SHF.R.U32.HI R5, RZ, 0x10, R5",
	"@P0 IADD3 R8, R8, 0x10, RZ",
	"LOP3.LUT R9, R5, 0xff, RZ, 0xc0, !PT",
	"POPC R9, R9",
	"ISETP.LT.U32.AND P0, PT, R9, R4, PT",
	"@P0 IADD3 R4, R4, -R9, RZ",
	"@P0 SHF.R.U32.HI R5, RZ, 0x8, R5",
	"@P0 IADD3 R8, R8, 0x8, RZ",
	"LOP3.LUT R9, R5, 0xf, RZ, 0xc0, !PT",
	"POPC R9, R9",
	"ISETP.LT.U32.AND P0, PT, R9, R4, PT",
	"@P0 IADD3 R4, R4, -R9, RZ",
	"@P0 SHF.R.U32.HI R5, RZ, 0x4, R5",
	"@P0 IADD3 R8, R8, 0x4, RZ",
	"LOP3.LUT R9, R5, 0x3, RZ, 0xc0, !PT",
	"POPC R9, R9",
	"ISETP.LT.U32.AND P0, PT, R9, R4, PT",
	"@P0 IADD3 R4, R4, -R9, RZ",
	"@P0 SHF.R.U32.HI R5, RZ, 0x2, R5",
	"@P0 IADD3 R8, R8, 0x2, RZ",
	"LOP3.LUT R9, R5, 0x1, RZ, 0xc0, !PT",
	"ISETP.LT.U32.AND P0, PT, R9, R4, PT",
	"@P0 IADD3 R8, R8, 0x1, RZ",
	"@P2 IADD3 R8, -R8, 0x1f, RZ",
	"SEL R60, R8, 0xffffffff, !P3",
	NULL,
};

static int
sel_fns(Sel *s, const IrIns *x)
{
	Seq q;
	MRef r;
	int k;

	seq_init(&q, s);
	for (k = 0; k < 3; k++) {
		MOpd o = sel_b32u(s, &x->p.opds[1 + k], 0);
		MRef v;
		if (!o.txt[0] && o.r.v < 0)
			return -1;
		if (o.txt[0]) {   /* an immediate: into a register */
			v = sel_tmp(s, 1);
			sel_mov32(s, v, o);
		} else
			v = o.r;
		seq_bind(&q, 2 + k, v);
	}
	seq_lines(&q, fns_seq);
	r = seq_get(&q, 60);
	seq_end(&q);
	sel_mov32(s, dpart(s, x, 0), mopd_reg(r));
	return 0;
}

const SelRule sel_rules_intx[] = {
	{PTX_OP_popc, sel_popc}, {PTX_OP_cnot, sel_cnot},
	{PTX_OP_clz, sel_clz}, {PTX_OP_brev, sel_brev}, {PTX_OP_bfind, sel_bfind},
	{PTX_OP_bfe, sel_bfe}, {PTX_OP_bfi, sel_bfi}, {PTX_OP_bmsk, sel_bmsk},
	{PTX_OP_szext, sel_szext}, {PTX_OP_fns, sel_fns},
	{PTX_OP_vadd2, sel_video}, {PTX_OP_vadd4, sel_video}, {PTX_OP_vsub2, sel_video}, {PTX_OP_vsub4, sel_video},
	{PTX_OP_vavrg2, sel_video}, {PTX_OP_vavrg4, sel_video}, {PTX_OP_vabsdiff2, sel_video},
	{PTX_OP_vabsdiff4, sel_video}, {PTX_OP_vmin2, sel_video}, {PTX_OP_vmin4, sel_video},
	{PTX_OP_vmax2, sel_video}, {PTX_OP_vmax4, sel_video}, {PTX_OP_vset2, sel_video}, {PTX_OP_vset4, sel_video},
	{PTX_OP_prmt, sel_prmt}, {PTX_OP_lop3, sel_lop3}, {PTX_OP_shf, sel_shf},
	{PTX_OP_mul24, sel_mul24}, {PTX_OP_mad24, sel_mad24}, {PTX_OP_sad, sel_sad},
	{PTX_OP_dp4a, sel_dp4a}, {PTX_OP_dp2a, sel_dp2a}, {PTX_OP_copysign, sel_copysign},
	{PTX_OP_testp, sel_testp}, {PTX_OP_addc, sel_addc}, {PTX_OP_subc, sel_subc},
	{PTX_OP_madc, sel_madc},
	{0, NULL},
};
