/* isel_atom.c -- atomics and reductions: atom and red on global, shared
 * and generic memory (ATOMG/REDG (RED on sm_80), ATOMS, ATOM), with
 * scopes (.cta -> .STRONG.SM, .gpu and, on sm_90, .cluster -> .STRONG.GPU,
 * .sys), .L2::cache_hint on sm_90 (the policy, R2UR'd, is the access's
 * memory descriptor desc[URp], as ld/st) and memory-order semantics
 * (release: MEMBAR.ALL + ERRBAR (+ CGAERRBAR on sm_90) before; acquire:
 * CCTL.IVALL after), as ptxas 13.0 emits them (docs/compiler-mem.md).
 * CAS takes its compare and new values in one aligned register tuple.
 * Float adds and 64-bit and/or/xor/min/max on shared memory are CAS
 * loops (as ptxas); generic float adds test the window (ATOM.E's
 * predicate, QSPC) and fall back to the loop or to local memory. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "codegen/isel.h"

/* The SASS operation suffix of an atom/red of type t, or NULL. */
static const char *
atom_op(int aop, PtxType t, int shared)
{
	int sz = ptx_type_size(t), sg = ptx_type_is_signed(t), fl = ptx_type_is_float(t);

	if (t == PTX_T_F16X2 || t == PTX_T_BF16X2)
		return aop == PTX_AOP_ADD && !shared ? (t == PTX_T_F16X2 ? "ADD.F16x2.RN" : "ADD.BF16x2.RN") : NULL;
	if (fl) {
		if (aop != PTX_AOP_ADD || shared)
			return NULL;
		return t == PTX_T_F32 ? "ADD.F32.FTZ.RN" : t == PTX_T_F64 ? "ADD.F64.RN" : NULL;
	}
	if (sz != 4 && sz != 8)
		return NULL;
	switch (aop) {
	case PTX_AOP_ADD:
		return sz == 8 ? (sg ? NULL : "ADD.64") : sg ? "ADD.S32" : "ADD";
	case PTX_AOP_MIN:
		/* .s64 on global memory: a CAS loop (the emulator models no
		 * .S64 atomics); 64-bit on shared memory: a CAS loop too */
		if (sz == 8 && (shared || sg))
			return NULL;
		return sz == 8 ? "MIN.64" : sg ? "MIN.S32" : "MIN";
	case PTX_AOP_MAX:
		if (sz == 8 && (shared || sg))
			return NULL;
		return sz == 8 ? "MAX.64" : sg ? "MAX.S32" : "MAX";
	case PTX_AOP_INC: return sz == 4 ? "INC" : NULL;
	case PTX_AOP_DEC: return sz == 4 ? "DEC" : NULL;
	case PTX_AOP_AND: return sz == 8 ? (shared ? NULL : "AND.64") : "AND";
	case PTX_AOP_OR: return sz == 8 ? (shared ? NULL : "OR.64") : "OR";
	case PTX_AOP_XOR: return sz == 8 ? (shared ? NULL : "XOR.64") : "XOR";
	case PTX_AOP_EXCH: return sz == 8 ? "EXCH.64" : "EXCH";
	case PTX_AOP_CAS: return sz == 8 ? "CAS.64" : "CAS";
	}
	return NULL;
}

static const char *
strong(int scope)
{
	return scope == PTX_SCOPE_CTA ? ".STRONG.SM" : scope == PTX_SCOPE_SYS ? ".STRONG.SYS" : ".STRONG.GPU";
}

static void
fence_before(Sel *s, int scope)
{
	const char *sc = scope == PTX_SCOPE_CTA ? "CTA" : scope == PTX_SCOPE_SYS ? "SYS" : "GPU";
	mi(s->mf, "MEMBAR.ALL.%s", sc);
	if (scope == PTX_SCOPE_CTA)
		return;
	mi(s->mf, "ERRBAR");
	if (s->sm >= 90)
		mi(s->mf, "CGAERRBAR");
}

/* A source value of w 32-bit registers (immediates materialised). */
static MRef
src_val(Sel *s, const PtxOperand *o, int w)
{
	return w == 2 ? sel_r64(s, o) : sel_r32(s, o, 0);
}

/* The address text with a placeholder base, to test encodability. */
static int
encodable(Sel *s, const char *fmt1, const char *op, const char *sfx, const char *addr)
{
	char t[160];
	str_printf(t, sizeof t, fmt1, op, sfx, addr);
	return sel_can_encode(s, t);
}

typedef struct {
	int sp, w, cas, red, aop;
	const char *op, *st;
	MRef base, d, b;
	MRef pol;   /* .L2::cache_hint: the policy in a uniform pair, the memory descriptor; else -1 */
	i64 off;
} Atom;

static int
emit_shared(Sel *s, Atom *a)
{
	char o[32], ad[48];
	const char *fmt = a->cas ? "ATOMS.%s%s R2, %s, R4, R5" : "ATOMS.%s%s R2, %s, R4";

	sel_offtxt(o, sizeof o, a->off);
	str_printf(ad, sizeof ad, "[R6%s]", o);
	if (a->off && !encodable(s, fmt, a->op, "", ad)) {
		/* some sm_80 forms take no immediate offset: into the base */
		MRef r = sel_tmp(s, 1);
		mi(s->mf, "IADD3 %D, %U, %x, RZ", r, a->base, (i32)a->off);
		a->base = r;
		a->off = 0;
		o[0] = 0;
	}
	if (!encodable(s, fmt, a->op, "", "[R6]"))
		return sel_unsupported(s, "this shared-memory atomic (the ISA tables cannot encode it)");
	if (a->cas)
		mi(s->mf, "ATOMS.%s %D, [%U%s], %U, %U", a->op, a->d, a->base, o, mpart(a->b.v, 0, a->w),
		   mpart(a->b.v, a->w, a->w));
	else
		mi(s->mf, "ATOMS.%s %D, [%U%s], %U", a->op, a->d, a->base, o, a->b);
	return 0;
}

static int
emit_wide(Sel *s, Atom *a)
{
	char o[32];
	const char *g = sel_gdesc(s), *pfx = a->sp == PTX_S_GLOBAL ? "ATOMG.E" : "ATOM.E";

	sel_offtxt(o, sizeof o, a->off);
	if (a->pol.v >= 0) {   /* ptxas: the policy pair is the descriptor */
		if (a->red && a->sp == PTX_S_GLOBAL)
			mi(s->mf, "REDG.E.%s%s desc[%U][%U.64%s], %U", a->op, a->st, a->pol, a->base, o, a->b);
		else
			mi(s->mf, "%s.%s%s PT, %D, desc[%U][%U.64%s], %U", pfx, a->op, a->st, a->d, a->pol, a->base, o,
			   a->b);
		return 0;
	}
	if (a->red && a->sp == PTX_S_GLOBAL)
		mi(s->mf, "%s.%s%s %s[%U.64%s], %U", s->sm >= 90 ? "REDG.E" : "RED.E", a->op, a->st, g, a->base, o, a->b);
	else if (a->cas)
		mi(s->mf, "%s.%s%s PT, %D, [%U%s], %U, %U", pfx, a->op, a->st, a->d, a->base, o, mpart(a->b.v, 0, a->w),
		   mpart(a->b.v, a->w, a->w));
	else
		mi(s->mf, "%s.%s%s PT, %D, %s[%U.64%s], %U", pfx, a->op, a->st, a->d, g, a->base, o, a->b);
	return 0;
}

/* ---- a CAS loop for shared-memory float adds (ATOMS has none) ----
 *
 *       BRA H                 (only falls through: seq_link makes H a block)
 *   H:  LDS old, [a]
 *       new = old + b         (FADD.FTZ / DADD / HADD2 / HADD2.BF16_V2)
 *       ATOMS.CAST.SPIN(.64) flag, [a], old, new   (old:new one tuple)
 *       ISETP.EQ.U32.AND P, PT, flag, 0x1, PT
 *       @!P BRA H
 *
 * as ptxas.  The marks are resolved by seq_link (isel_seq.c) after
 * instruction selection; a PTX guard becomes a forward skip around the
 * loop (seq_link's join), the result move carries it. */
enum { LOOP_MARK = -3000000 };
static int nloops;

static const char *
fadd_op(PtxType t)
{
	if (t == PTX_T_F32)
		return "FADD.FTZ %D, %U, %U";
	if (t == PTX_T_F64)
		return "DADD %D, %U, %U";
	if (t == PTX_T_F16X2)
		return "HADD2 %D, %U, %U";
	return t == PTX_T_BF16X2 ? "HADD2.BF16_V2 %D, %U, %U" : NULL;
}

/* new = op(old, b) inside a CAS loop: float adds, and 64-bit logic
 * and min/max (ATOMS has no .64 forms of these). */
static void
cas_new(Sel *s, int aop, PtxType t, MRef nw, MRef old, MRef b, int w)
{
	int k;
	MRef p;

	if (aop == PTX_AOP_ADD) {
		mi(s->mf, fadd_op(t), nw, old, b);
		return;
	}
	if (aop == PTX_AOP_AND || aop == PTX_AOP_OR || aop == PTX_AOP_XOR) {
		const char *lut = aop == PTX_AOP_AND ? "0xc0" : aop == PTX_AOP_OR ? "0xfc" : "0x3c";
		char fmt[64];
		str_printf(fmt, sizeof fmt, "LOP3.LUT %%D, %%U, %%U, RZ, %s, !PT", lut);
		for (k = 0; k < w; k++)
			mi(s->mf, fmt, mpart(nw.v, nw.sub + k, 1), mpart(old.v, old.sub + k, 1), mpart(b.v, b.sub + k, 1));
		return;
	}
	/* min/max: p = b < old (64-bit, the high words signed for .s64) */
	p = sel_ptmp(s);
	mi(s->mf, "ISETP.LT.U32.AND %D, PT, %U, %U, PT", p, mpart(b.v, b.sub, 1), mpart(old.v, old.sub, 1));
	mi(s->mf, ptx_type_is_signed(t) ? "ISETP.LT.AND.EX %D, PT, %U, %U, PT, %U" : "ISETP.LT.U32.AND.EX %D, PT, %U, %U, PT, %U",
	   p, mpart(b.v, b.sub + 1, 1), mpart(old.v, old.sub + 1, 1), p);
	for (k = 0; k < 2; k++)
		mi(s->mf, aop == PTX_AOP_MIN ? "SEL %D, %U, %U, %U" : "SEL %D, %U, %U, !%U", mpart(nw.v, nw.sub + k, 1),
		   mpart(b.v, b.sub + k, 1), mpart(old.v, old.sub + k, 1), p);
}

static int
cas_loop_shared(Sel *s, Atom *a, PtxType t)
{
	int g = s->mf->guard, gn = s->mf->guard_neg, head = LOOP_MARK - 2 * nloops, skip = head - 1, w = a->w;
	MRef tup = sel_tmp(s, 2 * w), flag = sel_tmp(s, w), p = sel_ptmp(s);
	MRef old = mpart(tup.v, 0, w), nw = mpart(tup.v, w, w);
	char o[32], fmt[96];

	nloops++;
	sel_offtxt(o, sizeof o, a->off);
	if (g >= 0) { /* skip the loop where the guard is false */
		s->mf->guard_neg = (u8)!gn;
		mi(s->mf, "BRA %L", skip);
	}
	s->mf->guard = -1;
	s->mf->guard_neg = 0;
	mi(s->mf, "BRA %L", head);
	str_printf(fmt, sizeof fmt, "LDS%s %%D, [%%U%s%s]", w == 2 ? ".64" : "", s->sm < 90 && o[0] ? "+URZ" : "", o);
	mi(s->mf, fmt, old, a->base);
	cas_new(s, a->aop, t, nw, old, a->b, w);
	str_printf(fmt, sizeof fmt, "ATOMS.CAST.SPIN%s %%D, [%%U%s], %%U, %%U", w == 2 ? ".64" : "", o);
	mi(s->mf, fmt, flag, a->base, old, nw);
	mi(s->mf, "ISETP.EQ.U32.AND %D, PT, %U, 0x1, PT", p, w == 2 ? mpart(flag.v, 0, 1) : flag);
	s->mf->guard = p.v;
	s->mf->guard_neg = 1;
	mi(s->mf, "BRA %L", head);
	s->mf->guard = -1;
	s->mf->guard_neg = 0;
	if (g >= 0)
		mi(s->mf, "BRA %L", skip);
	s->mf->guard = g;
	s->mf->guard_neg = (u8)gn;
	if (a->d.v != s->mf->rz && !a->red) {
		int k;
		for (k = 0; k < w; k++)
			sel_mov32(s, w == 2 ? mpart(a->d.v, a->d.sub + k, 1) : a->d, mopd_reg(mpart(tup.v, k, 1)));
	}
	return 0;
}

/* Global min/max.s64 (the emulator models no .S64 atomics) as a CAS
 * loop: old = LDG.64; H: new = min/max(old, b); got = ATOMG.E.CAS.64
 * [a], {old, new}; old = got; retry while got != the old compared. */
static int
cas_loop_global64(Sel *s, Atom *a, PtxType t)
{
	int g = s->mf->guard, gn = s->mf->guard_neg, head = LOOP_MARK - 2 * nloops, skip = head - 1, k;
	MRef tup = sel_tmp(s, 4), got = sel_tmp(s, 2), p = sel_ptmp(s);
	MRef old = mpart(tup.v, 0, 2), nw = mpart(tup.v, 2, 2);
	char o[32], fmt[128];

	nloops++;
	sel_offtxt(o, sizeof o, a->off);
	if (g >= 0) {
		s->mf->guard_neg = (u8)!gn;
		mi(s->mf, "BRA %L", skip);
	}
	s->mf->guard = -1;
	s->mf->guard_neg = 0;
	str_printf(fmt, sizeof fmt, "LDG.E.64%s %%D, %s[%%U.64%s]", a->st, sel_gdesc(s), o);
	mi(s->mf, fmt, old, a->base);
	mi(s->mf, "BRA %L", head);
	cas_new(s, a->aop, t, nw, old, a->b, 2);
	str_printf(fmt, sizeof fmt, "ATOMG.E.CAS.64%s PT, %%D, [%%U%s], %%U, %%U", a->st, o);
	mi(s->mf, fmt, got, mpart(a->base.v, a->base.sub, 1), old, nw);
	mi(s->mf, "ISETP.EQ.U32.AND %D, PT, %U, %U, PT", p, mpart(got.v, 0, 1), mpart(tup.v, 0, 1));
	mi(s->mf, "ISETP.EQ.U32.AND.EX %D, PT, %U, %U, PT, %U", p, mpart(got.v, 1, 1), mpart(tup.v, 1, 1), p);
	for (k = 0; k < 2; k++)
		mi(s->mf, "MOV %D, %U", mpart(tup.v, k, 1), mpart(got.v, k, 1));
	s->mf->guard = p.v;
	s->mf->guard_neg = 1;
	mi(s->mf, "BRA %L", head);
	s->mf->guard = -1;
	s->mf->guard_neg = 0;
	if (g >= 0)
		mi(s->mf, "BRA %L", skip);
	s->mf->guard = g;
	s->mf->guard_neg = (u8)gn;
	if (!a->red)
		for (k = 0; k < 2; k++)
			sel_mov32(s, mpart(a->d.v, a->d.sub + k, 1), mopd_reg(mpart(got.v, k, 1)));
	return 0;
}

/* 16-bit atomics (add.noftz.f16/.bf16, cas.b16) as ptxas: a 32-bit CAS
 * loop on the aligned word that holds the half; the other half is kept.
 *
 *       w = a & ~2; h = a & 2; sh = h * 8
 *       sel = h ? 0x7610 : 0x3254      (add: which half of new replaces old's)
 *             h ? 0x5410 : 0x3254      (cas: the low half of a value moves in)
 *       old = LD [w]
 *   H:  add: new = PRMT old, sel, HADD2(old, b.H0_H0)   (the sum in both halves)
 *       cas: cmpw = PRMT old, sel, cmp; new = PRMT old, sel, b
 *       got = CAS [w], {old | cmpw, new}
 *       add: retry while got != old
 *       cas: retry while the other halves of got and cmpw differ
 *       old = got
 *       d = got >> sh
 *
 * The word is read once and the CAS result carries it, so the loop never
 * reloads through a cache (global, shared and generic: LDG/ATOMG, LDS/
 * ATOMS, LD/ATOM).  bf16 adds are sm_90's (ptxas refuses them on sm_80). */
static int
atom16_loop(Sel *s, Atom *a, PtxType t)
{
	int g = s->mf->guard, gn = s->mf->guard_neg, head = LOOP_MARK - 2 * nloops, skip = head - 1;
	int sp = a->sp, cas = a->cas, wide = sp != PTX_S_SHARED;
	MRef w = sel_tmp(s, wide ? 2 : 1), lo = sel_tmp(s, 1), h = sel_tmp(s, 1), sh = sel_tmp(s, 1);
	MRef k = sel_tmp(s, 1), sel = sel_tmp(s, 1), p = sel_ptmp(s), tup = sel_tmp(s, 2), got = sel_tmp(s, 1);
	MRef old = cas ? sel_tmp(s, 1) : mpart(tup.v, 0, 1), nw = mpart(tup.v, 1, 1), base = a->base;
	char fmt[128];

	nloops++;
	if (g >= 0) {
		s->mf->guard_neg = (u8)!gn;
		mi(s->mf, "BRA %L", skip);
	}
	s->mf->guard = -1;
	s->mf->guard_neg = 0;
	if (wide) { /* w = the 64-bit address with its offset, bit 1 cleared */
		MRef c = sel_ptmp(s);
		if (a->off) {
			MRef imm = sel_tmp(s, 2);
			mi(s->mf, "MOV %D, %h", mpart(imm.v, 0, 1), (unsigned)(u32)a->off);
			mi(s->mf, "MOV %D, %h", mpart(imm.v, 1, 1), (unsigned)(u32)((u64)a->off >> 32));
			mi(s->mf, "IADD3 %D, %D, %U, %U, RZ", lo, c, mpart(base.v, base.sub, 1), mpart(imm.v, 0, 1));
			mi(s->mf, "IADD3.X %D, %U, %U, RZ, %U, !PT", mpart(w.v, 1, 1), mpart(base.v, base.sub + 1, 1),
			   mpart(imm.v, 1, 1), c);
		} else {
			sel_mov32(s, lo, mopd_reg(mpart(base.v, base.sub, 1)));
			sel_mov32(s, mpart(w.v, 1, 1), mopd_reg(mpart(base.v, base.sub + 1, 1)));
		}
		mi(s->mf, "LOP3.LUT %D, %U, 0xfffffffd, RZ, 0xc0, !PT", mpart(w.v, 0, 1), lo);
	} else {
		if (a->off)
			mi(s->mf, "IADD3 %D, %U, %x, RZ", lo, base, (i32)a->off);
		else
			sel_mov32(s, lo, mopd_reg(base));
		mi(s->mf, "LOP3.LUT %D, %U, 0xfffffffd, RZ, 0xc0, !PT", w, lo);
	}
	mi(s->mf, "LOP3.LUT %D, %U, 0x2, RZ, 0xc0, !PT", h, lo);
	mi(s->mf, "ISETP.EQ.U32.AND %D, PT, %U, RZ, PT", p, h);
	mi(s->mf, "IMAD.SHL.U32 %D, %U, 0x8, RZ", sh, h);
	mi(s->mf, "MOV %D, 0x3254", k);
	mi(s->mf, cas ? "SEL %D, %U, 0x5410, %U" : "SEL %D, %U, 0x7610, %U", sel, k, p);
	if (sp == PTX_S_SHARED)
		mi(s->mf, "LDS %D, [%U]", old, w);
	else {
		str_printf(fmt, sizeof fmt, "%s%s %%D, %s[%%U.64]", sp == PTX_S_GLOBAL ? "LDG.E" : "LD.E", a->st, sel_gdesc(s));
		mi(s->mf, fmt, old, w);
	}
	mi(s->mf, "BRA %L", head);
	if (cas) {
		mi(s->mf, "PRMT %D, %U, %U, %U", mpart(tup.v, 0, 1), old, sel, mpart(a->b.v, 0, 1));
		mi(s->mf, "PRMT %D, %U, %U, %U", nw, old, sel, mpart(a->b.v, 1, 1));
	} else {
		MRef sum = sel_tmp(s, 1);
		mi(s->mf, t == PTX_T_BF16 ? "HADD2.BF16_V2 %D, %U, %U.H0_H0" : "HADD2 %D, %U, %U.H0_H0", sum, old, a->b);
		mi(s->mf, "PRMT %D, %U, %U, %U", nw, old, sel, sum);
	}
	if (sp == PTX_S_SHARED)
		mi(s->mf, "ATOMS.CAS %D, [%U], %U, %U", got, w, mpart(tup.v, 0, 1), nw);
	else {
		str_printf(fmt, sizeof fmt, "%s.CAS%s PT, %%D, [%%U], %%U, %%U", sp == PTX_S_GLOBAL ? "ATOMG.E" : "ATOM.E", a->st);
		mi(s->mf, fmt, got, w, mpart(tup.v, 0, 1), nw);
	}
	if (cas) { /* the other halves: the half of ours zeroed */
		MRef o1 = sel_tmp(s, 1), o2 = sel_tmp(s, 1);
		mi(s->mf, "PRMT %D, %U, %U, RZ", o1, got, sel);
		mi(s->mf, "PRMT %D, %U, %U, RZ", o2, mpart(tup.v, 0, 1), sel);
		mi(s->mf, "ISETP.NE.U32.AND %D, PT, %U, %U, PT", p, o1, o2);
	} else
		mi(s->mf, "ISETP.NE.U32.AND %D, PT, %U, %U, PT", p, got, old);
	mi(s->mf, "MOV %D, %U", old, got);
	s->mf->guard = p.v;
	mi(s->mf, "BRA %L", head);
	s->mf->guard = -1;
	if (g >= 0)
		mi(s->mf, "BRA %L", skip);
	s->mf->guard = g;
	s->mf->guard_neg = (u8)gn;
	if (!a->red && a->d.v != s->mf->rz)
		mi(s->mf, "SHF.R.U32.HI %D, RZ, %U, %U", a->d, sh, got);
	return 0;
}

/* new = op(old, b) in the local-memory fallback of a generic atomic. */
static void
local_new(Sel *s, const Atom *a, PtxType t, MRef nw, MRef old)
{
	int w = a->w, k;
	MRef b = a->b;

	if (t == PTX_T_F16X2 || t == PTX_T_BF16X2) {
		/* a*1+b (the same single rounding): the mined sm_80 latencies ask
		 * 43 cycles from HADD2 to a store, 5 from HFMA2 */
		mi(s->mf, t == PTX_T_F16X2 ? "HFMA2 %D, %U, 1, 1, %U" : "HFMA2.BF16_V2 %D, %U, 1, 1, %U", nw, old, b);
		return;
	}
	if (fadd_op(t) && a->aop == PTX_AOP_ADD) {
		mi(s->mf, fadd_op(t), nw, old, b);
		return;
	}
	if (a->aop == PTX_AOP_ADD) { /* 64-bit integer */
		MRef c = sel_ptmp(s);
		mi(s->mf, "IADD3 %D, %D, %U, %U, RZ", mpart(nw.v, nw.sub, 1), c, mpart(old.v, old.sub, 1), mpart(b.v, b.sub, 1));
		mi(s->mf, "IADD3.X %D, %U, %U, RZ, %U, !PT", mpart(nw.v, nw.sub + 1, 1), mpart(old.v, old.sub + 1, 1),
		   mpart(b.v, b.sub + 1, 1), c);
		return;
	}
	if (a->aop == PTX_AOP_EXCH) {
		for (k = 0; k < w; k++)
			sel_mov32(s, mpart(nw.v, nw.sub + k, 1), mopd_reg(mpart(b.v, b.sub + k, 1)));
		return;
	}
	if (a->aop == PTX_AOP_CAS) { /* b is the {cmp, new} tuple */
		MRef p = sel_ptmp(s);
		mi(s->mf, "ISETP.EQ.U32.AND %D, PT, %U, %U, PT", p, mpart(old.v, old.sub, 1), mpart(b.v, 0, 1));
		mi(s->mf, "ISETP.EQ.U32.AND.EX %D, PT, %U, %U, PT, %U", p, mpart(old.v, old.sub + 1, 1), mpart(b.v, 1, 1), p);
		for (k = 0; k < w; k++)
			mi(s->mf, "SEL %D, %U, %U, %U", mpart(nw.v, nw.sub + k, 1), mpart(b.v, w + k, 1),
			   mpart(old.v, old.sub + k, 1), p);
		return;
	}
	cas_new(s, a->aop, t, nw, old, b, w);
}

/* Generic float adds and 64-bit atomics, as ptxas: ATOM.E with a predicate that says
 * whether the address was global (and the add done); otherwise QSPC
 * tells shared (the CAS loop on the shared-window address) from local
 * (a plain load, add and store: local memory is the thread's own).
 *
 *       ATOM.E.ADD.F.. Pg, d, [a], b
 *       @Pg BRA J
 *       QSPC.E.S Ps, RZ, [a]
 *       @Ps BRA S
 *       LDL old, [a - local window]; STL [..], old + b; d = old
 *       @!Ps BRA J            (always taken)
 *       BRA S                 (closing mark)
 *   S:  CAS loop on the shared-window address
 *       BRA J                 (closing mark)
 *   J: */
static int
generic_fadd(Sel *s, Atom *a, PtxType t)
{
	int g = s->mf->guard, gn = s->mf->guard_neg, J = LOOP_MARK - 2 * nloops, S = J - 1, w = a->w, k;
	MRef pg = sel_ptmp(s), ps = sel_ptmp(s), base = a->base, lo, win, la, old, nw;
	char o[32], fmt[128];
	Atom sa;

	nloops++;
	sel_offtxt(o, sizeof o, a->off);
	if (g >= 0) {
		s->mf->guard_neg = (u8)!gn;
		mi(s->mf, "BRA %L", J);
	}
	s->mf->guard = -1;
	s->mf->guard_neg = 0;
	if (a->cas) {
		str_printf(fmt, sizeof fmt, "ATOM.E.%s%s %%D, %%D, [%%U%s], %%U, %%U", a->op, a->st, o);
		mi(s->mf, fmt, pg, a->d, mpart(base.v, base.sub, 1), mpart(a->b.v, 0, w), mpart(a->b.v, w, w));
	} else {
		str_printf(fmt, sizeof fmt, "ATOM.E.%s%s %%D, %%D, %s[%%U.64%s], %%U", a->op, a->st, sel_gdesc(s), o);
		mi(s->mf, fmt, pg, a->d, base, a->b);
	}
	s->mf->guard = pg.v;
	mi(s->mf, "BRA %L", J);
	s->mf->guard = -1;
	if (a->off) { /* the fallbacks take the address with its offset */
		MRef r = sel_tmp(s, 2), c = sel_ptmp(s), imm = sel_tmp(s, 2);
		mi(s->mf, "MOV %D, %h", mpart(imm.v, 0, 1), (unsigned)(u32)a->off);
		mi(s->mf, "MOV %D, %h", mpart(imm.v, 1, 1), (unsigned)(u32)((u64)a->off >> 32));
		mi(s->mf, "IADD3 %D, %D, %U, %U, RZ", mpart(r.v, 0, 1), c, mpart(base.v, base.sub, 1), mpart(imm.v, 0, 1));
		mi(s->mf, "IADD3.X %D, %U, %U, RZ, %U, !PT", mpart(r.v, 1, 1), mpart(base.v, base.sub + 1, 1),
		   mpart(imm.v, 1, 1), c);
		base = r;
	}
	lo = mpart(base.v, base.sub, 1);
	mi(s->mf, "QSPC.E.S %D, RZ, [%U]", ps, mpart(base.v, base.sub, 2));
	s->mf->guard = ps.v;
	mi(s->mf, "BRA %L", S);
	s->mf->guard = -1;
	/* local */
	win = sel_tmp(s, 1);
	la = sel_tmp(s, 1);
	old = sel_tmp(s, w);
	nw = sel_tmp(s, w);
	mi(s->mf, s->sm >= 90 ? "LDC %D, c[0x0][0x20]" : "MOV %D, c[0x0][0x20]", win);
	mi(s->mf, "IADD3 %D, %U, -%U, RZ", la, lo, win);
	mi(s->mf, w == 2 ? "LDL.64 %D, [%U]" : "LDL %D, [%U]", old, la);
	local_new(s, a, t, nw, old);
	mi(s->mf, w == 2 ? "STL.64 [%U], %U" : "STL [%U], %U", la, nw);
	if (a->d.v != s->mf->rz && !a->red)
		for (k = 0; k < w; k++)
			sel_mov32(s, w == 2 ? mpart(a->d.v, a->d.sub + k, 1) : a->d, mopd_reg(w == 2 ? mpart(old.v, k, 1) : old));
	s->mf->guard = ps.v;
	s->mf->guard_neg = 1;
	mi(s->mf, "BRA %L", J);
	s->mf->guard = -1;
	s->mf->guard_neg = 0;
	mi(s->mf, "BRA %L", S);
	/* shared: the window address (sm_90: the low word as is) */
	sa = *a;
	sa.off = 0;
	if (s->sm >= 90) {
		sa.base = lo;
	} else {
		MRef sw = sel_tmp(s, 1);
		sa.base = sel_tmp(s, 1);
		mi(s->mf, "MOV %D, c[0x0][0x18]", sw);
		mi(s->mf, "IADD3 %D, %U, -%U, RZ", sa.base, lo, sw);
	}
	sa.sp = PTX_S_SHARED;
	sa.op = atom_op(a->aop, t, 1);
	if (sa.red && !sa.op)
		sa.d = mref(s->mf->rz);
	if ((sa.op && !ptx_type_is_float(t) && t != PTX_T_F16X2 && t != PTX_T_BF16X2 ? emit_shared(s, &sa)
										      : cas_loop_shared(s, &sa, t)) < 0)
		return -1;
	s->mf->guard = -1;
	mi(s->mf, "BRA %L", J);
	s->mf->guard = g;
	s->mf->guard_neg = (u8)gn;
	return 0;
}

/* sm_90's vector atomics on global memory: atom/red{.global}.v2/.v4.f32.add
 * (ATOMG/REDG.E.ADD.F32x2/x4.FTZ.RN; a generic address, -G's form: ATOM.E
 * for both, as ptxas, RZ for red's result), .v2/.v4/.v8.{f16,bf16} and
 * .v2/.v4.{f16x2,bf16x2} add/min/max (.F16x2/x4/x8.RN, .BF16x..), as
 * ptxas: the elements packed into an aligned tuple of 1, 2 or 4 registers
 * (16-bit elements in pairs, PRMT 0x5410), the old values unpacked from
 * the result tuple.  Each element is an atomic of its own (PTX). */
static int
atom_vec(Sel *s, const IrIns *x, int red, Atom *a, PtxType t)
{
	const PtxOperand *bv = &x->p.opds[red ? 1 : 2], *dv = &x->p.opds[0];
	int vec = x->p.vec, h16 = t == PTX_T_F16 || t == PTX_T_BF16, f32 = t == PTX_T_F32;
	int words = h16 ? vec / 2 : vec, halves = h16 ? vec : 2 * vec, k;
	int bf = t == PTX_T_BF16 || t == PTX_T_BF16X2;
	const char *op = a->aop == PTX_AOP_ADD ? "ADD" : a->aop == PTX_AOP_MIN ? "MIN" : a->aop == PTX_AOP_MAX ? "MAX" : NULL;
	const char *mn = a->sp == PTX_S_GENERIC ? "ATOM" : red ? "REDG" : "ATOMG";
	char o[32], fmt[128], name[32];
	MRef B, D;

	if (s->sm < 90 || (a->sp != PTX_S_GLOBAL && a->sp != PTX_S_GENERIC) || !op || (f32 && a->aop != PTX_AOP_ADD) ||
	    (!f32 && !h16 && t != PTX_T_F16X2 && t != PTX_T_BF16X2) || words < 1 || words > 4 || words == 3 ||
	    bv->kind != PTX_OPD_VEC || bv->nelems != vec || (!red && dv->kind != PTX_OPD_VEC))
		return sel_unsupported(s, "this vector atom/red (sm_90 global f32 add, f16/bf16(x2) add/min/max)");
	if (f32)
		str_printf(name, sizeof name, "ADD.F32x%d.FTZ.RN", vec);
	else
		str_printf(name, sizeof name, "%s.%sF16x%d.RN", op, bf ? "B" : "", halves);
	str_printf(fmt, sizeof fmt, red && mn[0] == 'R' ? "%s.E.%s%s desc[UR4][R2.64], R4" : "%s.E.%s%s PT, R8, desc[UR4][R2.64], R4",
		 mn, name, a->st);
	if (!sel_can_encode(s, fmt))  /* the tables lack e.g. the .BF16x4 forms and ATOMG MIN/MAX .F16x2 */
		return sel_unsupported(s, "this vector atom/red (the ISA tables cannot encode it)");
	B = sel_tmp(s, words);
	for (k = 0; k < words; k++) {
		MRef part = words > 1 ? mpart(B.v, k, 1) : B;
		if (h16) {
			MRef lo = sel_r32(s, &bv->elems[2 * k], 0), hi = sel_r32(s, &bv->elems[2 * k + 1], 0);
			if (lo.v < 0 || hi.v < 0)
				return -1;
			mi(s->mf, "PRMT %D, %U, 0x5410, %U", part, lo, hi);
		} else {
			MRef e = sel_r32(s, &bv->elems[k], 0);
			if (e.v < 0)
				return -1;
			sel_mov32(s, part, mopd_reg(e));
		}
	}
	sel_offtxt(o, sizeof o, a->off);
	if (red && mn[0] == 'R') {
		str_printf(fmt, sizeof fmt, "REDG.E.%s%s %s[%%U.64%s], %%U", name, a->st, sel_gdesc(s), o);
		mi(s->mf, fmt, a->base, B);
		return 0;
	}
	D = red ? mref(s->mf->rz) : sel_tmp(s, words);
	str_printf(fmt, sizeof fmt, "%s.E.%s%s PT, %%D, %s[%%U.64%s], %%U", mn, name, a->st, sel_gdesc(s), o);
	mi(s->mf, fmt, D, a->base, B);
	if (red)
		return 0;
	for (k = 0; k < dv->nelems && k < vec; k++) {
		const PtxOperand *e = &dv->elems[k];
		int w = h16 ? k / 2 : k;
		MRef part = words > 1 ? mpart(D.v, w, 1) : D;
		if (e->kind == PTX_OPD_SINK)
			continue;
		if (e->kind != PTX_OPD_REG)
			return sel_unsupported(s, "this vector atom destination");
		if (h16 && k % 2)
			mi(s->mf, "SHF.R.U32.HI %D, RZ, 0x10, %U", sel_reg(s, e->reg), part);
		else
			sel_mov32(s, sel_reg(s, e->reg), mopd_reg(part));
	}
	return 0;
}

/* atom{.sem}{.scope}{.space}.op.type d, [a], b{, c}; red without d. */
static int
atom_common(Sel *s, const IrIns *x, int red)
{
	const PtxOperand *A = &x->p.opds[red ? 0 : 1], *B = &x->p.opds[red ? 1 : 2];
	PtxType t = x->p.ntypes ? (PtxType)x->p.types[0] : PTX_T_NONE;
	int sem = x->p.sem, sc = x->p.scope, pre = 0, post = 0;
	Atom a;

	memset(&a, 0, sizeof a);
	a.sp = x->p.nspaces ? x->p.space[0] : PTX_S_GENERIC;
	a.red = red;
	a.cas = x->p.aop == PTX_AOP_CAS;
	a.w = ptx_type_size(t) == 8 ? 2 : 1;
	if (a.sp != PTX_S_GLOBAL && a.sp != PTX_S_SHARED && a.sp != PTX_S_GENERIC)
		return sel_unsupported(s, "atom/red on this state space");
	/* .cluster: ptxas writes .gpu's code (.STRONG.GPU, the GPU fences) */
	if (sc == PTX_SCOPE_CLUSTER && s->sm < 90)
		return sel_unsupported(s, "atom/red with .cluster scope before sm_90");
	a.pol = mref(-1);
	if ((x->p.flags & PTX_F_CACHE_HINT) && s->sm < 90)
		return sel_unsupported(s, "atom/red with .L2::cache_hint for sm_80");
	a.aop = x->p.aop;
	switch (sem) {
	case PTX_SEM_NONE: case PTX_SEM_RELAXED: break;
	case PTX_SEM_ACQUIRE: post = 1; break;
	case PTX_SEM_RELEASE: pre = 1; break;
	case PTX_SEM_ACQ_REL: pre = post = 1; break;
	default: return sel_unsupported(s, "this memory-order semantics on atom/red");
	}
	a.st = a.sp == PTX_S_SHARED ? "" : strong(sc);
	if (x->p.vec > 1) {
		if (x->p.flags & PTX_F_CACHE_HINT)
			return sel_unsupported(s, "a vector atom/red with .L2::cache_hint");
		if (sel_address(s, A, a.sp, &a.base, &a.off) < 0)
			return -1;
		if (pre)
			fence_before(s, sc ? sc : PTX_SCOPE_GPU);
		if (atom_vec(s, x, red, &a, t) < 0)
			return -1;
		if (post && sc != PTX_SCOPE_CTA)
			mi(s->mf, "CCTL.IVALL");
		return 0;
	}
	a.op = atom_op(x->p.aop, t, a.sp == PTX_S_SHARED);
	if (((t == PTX_T_F16 || t == PTX_T_BF16) && x->p.aop == PTX_AOP_ADD) ||
	    (ptx_type_size(t) == 2 && !ptx_type_is_float(t) && a.cas))
		a.op = "16-LOOP";
	if (a.sp == PTX_S_SHARED && ((x->p.aop == PTX_AOP_ADD && fadd_op(t)) ||
				     (a.w == 2 && !ptx_type_is_float(t) &&
				      (x->p.aop == PTX_AOP_AND || x->p.aop == PTX_AOP_OR || x->p.aop == PTX_AOP_XOR ||
				       x->p.aop == PTX_AOP_MIN || x->p.aop == PTX_AOP_MAX))))
		a.op = "CAS-LOOP";
	if (t == PTX_T_S64 && (x->p.aop == PTX_AOP_MIN || x->p.aop == PTX_AOP_MAX)) {
		if (a.sp == PTX_S_GLOBAL)
			a.op = "S64-LOOP";
		else if (a.sp == PTX_S_GENERIC) /* ptxas: ATOM.E.MIN.S64 Pg, d, [a], b, then the fallbacks */
			a.op = x->p.aop == PTX_AOP_MIN ? "MIN.S64" : "MAX.S64";
	}
	if (!a.op)
		return sel_unsupported(s, "this atom/red operation and type on this state space");
	if ((a.cas && (red || x->p.nopds < 4)) || (!red && x->p.opds[0].kind != PTX_OPD_REG &&
						 x->p.opds[0].kind != PTX_OPD_SINK))
		return sel_unsupported(s, "this form of atom/red");
	if ((t == PTX_T_BF16X2 || t == PTX_T_BF16) && s->sm < 90)
		return sel_unsupported(s, "atom/red.add on bf16 and bf16x2 (sm_90 and later)");
	if (x->p.flags & PTX_F_CACHE_HINT) {
		/* the policy (last operand) becomes the memory descriptor, R2UR of
		   both words, as ptxas (and as ld/st, isel_mem.c) */
		MRef r;
		if (a.sp == PTX_S_SHARED || a.cas || strchr(a.op, '-') || !strcmp(a.op, "MIN.S64") ||
		    !strcmp(a.op, "MAX.S64") || (a.sp == PTX_S_GENERIC && ((fadd_op(t) && a.aop == PTX_AOP_ADD) || a.w == 2)))
			return sel_unsupported(s, "atom/red .L2::cache_hint with this operation, type or state space");
		if ((r = sel_r64(s, &x->p.opds[x->p.nopds - 1])).v < 0)
			return -1;
		a.pol = mref(mvreg(s->mf, RC_UR, 2));
		mi(s->mf, "R2UR %D, %U", mpart(a.pol.v, 0, 1), mpart(r.v, 0, 1));
		mi(s->mf, "R2UR %D, %U", mpart(a.pol.v, 1, 1), mpart(r.v, 1, 1));
	}
	if (sel_address(s, A, a.sp, &a.base, &a.off) < 0)
		return -1;
	if (a.cas) {
		MRef cmp = src_val(s, B, a.w), nw = src_val(s, &x->p.opds[3], a.w);
		int k;
		if (cmp.v < 0 || nw.v < 0)
			return -1;
		a.b = sel_tmp(s, 2 * a.w);
		for (k = 0; k < a.w; k++) {
			sel_mov32(s, mpart(a.b.v, k, 1), mopd_reg(a.w == 2 ? mpart(cmp.v, cmp.sub + k, 1) : cmp));
			sel_mov32(s, mpart(a.b.v, a.w + k, 1), mopd_reg(a.w == 2 ? mpart(nw.v, nw.sub + k, 1) : nw));
		}
	} else {
		a.b = src_val(s, B, a.w);
		if (a.b.v < 0)
			return -1;
	}
	if (red || x->p.opds[0].kind == PTX_OPD_SINK)
		a.d = a.w == 2 ? sel_tmp(s, 2) : mref(s->mf->rz);
	else {
		MRef d = sel_reg(s, x->p.opds[0].reg);
		a.d = a.w == 2 ? mpart(d.v, 0, 2) : (s->mf->vr.v[d.v].w > 1 ? mpart(d.v, 0, 1) : d);
	}
	if (pre)
		fence_before(s, sc ? sc : PTX_SCOPE_GPU);
	if (!strcmp(a.op, "16-LOOP")) {
		if (atom16_loop(s, &a, t) < 0)
			return -1;
	} else if (a.sp == PTX_S_GLOBAL && !strcmp(a.op, "S64-LOOP")) {
		if (cas_loop_global64(s, &a, t) < 0)
			return -1;
	} else if (a.sp == PTX_S_GENERIC && ((fadd_op(t) && a.aop == PTX_AOP_ADD) || a.w == 2)) {
		if (generic_fadd(s, &a, t) < 0)
			return -1;
	} else if (!strcmp(a.op, "CAS-LOOP")) {
		if (cas_loop_shared(s, &a, t) < 0)
			return -1;
	} else if ((a.sp == PTX_S_SHARED ? emit_shared(s, &a) : emit_wide(s, &a)) < 0)
		return -1;
	if (post && sc != PTX_SCOPE_CTA)
		mi(s->mf, "CCTL.IVALL");
	return 0;
}

static int sel_atom(Sel *s, const IrIns *x) { return atom_common(s, x, 0); }
static int sel_red(Sel *s, const IrIns *x) { return atom_common(s, x, 1); }

/* red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.op.type [a], b, [mbar]
 * (sm_90): ptxas's REDAS.op [Ra.64], Rb, the shared::cluster address in
 * Ra and the mbarrier's in Ra+1 (offsets added in), as STAS (isel_mbar.c);
 * the operation named as ATOM's (ADD.S32, MIN, MAX.S32, INC, ADD.64 ...). */
static int
sel_red_async(Sel *s, const IrIns *x)
{
	const PtxInstr *in = &x->p;
	PtxType t = in->ntypes ? (PtxType)in->types[0] : PTX_T_NONE;
	int sz = ptx_type_size(t), aop = in->aop, k;
	const char *op;
	AsyncAddrs aa;
	MRef pr, b;

	if (s->sm < 90)
		return sel_unsupported(s, "red.async (sm_90 and later)");
	if (in->nopds != 3 || in->vec > 1 || ptx_type_is_float(t) || (sz != 4 && !(sz == 8 && aop == PTX_AOP_ADD)) ||
	    (sz == 8 && ptx_type_is_signed(t)) || aop == PTX_AOP_CAS || aop == PTX_AOP_EXCH || !(op = atom_op(aop, t, 0)))
		return sel_unsupported(s, "this red.async operation and type");
	if (sel_async_addrs(s, in, "red.async", &aa) < 0)
		return -1;
	b = src_val(s, &in->opds[1], sz / 4);
	if (b.v < 0)
		return -1;
	if (sz == 8) {   /* an aligned pair of its own */
		MRef t2 = sel_tmp(s, 2);
		for (k = 0; k < 2; k++)
			sel_mov32(s, mpart(t2.v, k, 1), mopd_reg(mpart(b.v, b.sub + k, 1)));
		b = t2;
	}
	pr = sel_async_pair(s, &aa);
	mi(s->mf, "REDAS.%s [%U.64], %U", op, pr, b);
	return 0;
}

const SelRule sel_rules_atom[] = {
	{PTX_OP_atom, sel_atom}, {PTX_OP_red, sel_red}, {PTX_OP_red_async, sel_red_async},
	{0, NULL},
};
