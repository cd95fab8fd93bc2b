/* emu_memops.c -- loads, stores, atomics and reductions of the SASS
 * emulator (global, shared, local, generic), the cp.async copy LDGSTS,
 * and the warp collectives (SHFL, VOTE, VOTEU, REDUX, MATCH). */
#include <string.h>

#include "emu/emu_int.h"
#include "ptx/arith.h"

/* Address of a memory operand for one lane.  wide: the base register is
 * a 64-bit pair (global and generic accesses); else the address is 32-bit. */
static u64
addr_of(Emu *E, Warp *w, int l, const Operand *o, int wide)
{
	u64 a = 0;

	if (o->rk == OPK_R || o->rk == OPK_UR) {
		Operand r = {0};
		r.kind = o->rk;
		r.reg = o->reg;
		a = wide && !o->u32 ? e_opr64(E, w, l, &r) : e_opr(E, w, l, &r);
	}
	a *= o->scale ? o->scale : 1;
	if (o->ur != URZ)
		a += w->ur[o->ur];
	return wide ? a + o->imm : (u32)(a + o->imm);   /* a 32-bit address wraps */
}

static int
space_of(const char *op)
{
	if (!strcmp(op, "LDS") || !strcmp(op, "STS") || !strcmp(op, "ATOMS"))
		return MS_SHARED;
	if (!strcmp(op, "LDL") || !strcmp(op, "STL"))
		return MS_LOCAL;
	if (!strcmp(op, "LD") || !strcmp(op, "ST") || !strcmp(op, "ATOM") || !strcmp(op, "RED"))
		return MS_GENERIC;
	return MS_GLOBAL;
}

static const Operand *
memop(Emu *E, const EInsn *I)
{
	int i;

	for (i = 0; i < I->in.nops; i++)
		if (I->in.o[i].kind == OPK_MEM)
			return &I->in.o[i];
	eunsup(E, I, "no address operand");
}

/* I->a = size, b = sign-extend, c = space, d = wide address */
static void
h_ld(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Operand *m = memop(E, I), *d = &I->in.o[0];
	int l, k, n = I->a;

	if (d->kind != OPK_R)
		eunsup(E, I, NULL);
	LANES(l, gm) {
		u64 a = addr_of(E, w, l, m, I->d);
		u8 *p = emu_mem(E, w, l, I->c, a, n, 0);
		u32 v[4] = {0};
		memcpy(v, p, n);
		if (n == 1 && I->b) v[0] = (u32)(int8_t)v[0];
		if (n == 2 && I->b) v[0] = (u32)(int16_t)v[0];
		for (k = 0; k < (n + 3) / 4; k++)
			if (d->reg != RZ)
				e_setr(w, l, d->reg + k, v[k]);
	}
}

static void
h_st(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Operand *m = memop(E, I), *s = &I->in.o[I->in.nops - 1];
	int l, k, n = I->a;

	if (s->kind != OPK_R)
		eunsup(E, I, NULL);
	LANES(l, gm) {
		u64 a = addr_of(E, w, l, m, I->d);
		u32 v[4];
		for (k = 0; k < 4; k++)
			v[k] = s->reg == RZ || s->reg + k >= RZ ? 0 : w->r[s->reg + k][l];
		memcpy(emu_mem(E, w, l, I->c, a, n, 1), v, n);
	}
}

/* LDGSTS[.E][.BYPASS][.128][.ZFILL] [shared], [global] [, p]: copy at once
 * (the later LDGDEPBAR/DEPBAR wait is then a no-op).  p false: zero-fill.
 * .ZFILL: the global address's low bits z (below the size) ask for n - z
 * bytes from the address rounded down, then z zeros (cp.async's src-size). */
static void
h_ldgsts(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Operand *o = I->in.o;
	int l, n = I->a, zf = insn_has(&I->in, "ZFILL");

	if (I->in.nops < 2 || o[0].kind != OPK_MEM || o[1].kind != OPK_MEM)
		eunsup(E, I, NULL);
	LANES(l, gm) {
		u8 *dst = emu_mem(E, w, l, MS_SHARED, addr_of(E, w, l, &o[0], 0), n, 1);
		u64 ga = addr_of(E, w, l, &o[1], 1), z = zf ? ga & (u64)(n - 1) : 0;
		if (I->in.nops > 2 && e_isp(&o[2]) && !e_oprp(w, l, &o[2]))
			memset(dst, 0, n);
		else {
			memcpy(dst, emu_mem(E, w, l, MS_GLOBAL, ga - z, n, 0), n - z);
			memset(dst + n - z, 0, z);
		}
	}
}

/* ---- mbarrier ----
 * sm_80 keeps an mbarrier as lo = 0x40000000 - expected, hi = phase << 31
 * | (0x80000000 - pending): ptxas initialises it with STS.64, adds to the
 * pending count with ATOMS.ADD on the high word (cp.async arrivals), and
 * tests the phase with LDS + LOP3 on bit 31 of the high word.  An arrival
 * adds one to the high word; the carry into bit 31 is the phase flip, and
 * the count restarts from the low word.
 * sm_90's init value (SYNCS.EXCH.64) is lo = (0x100000 - pending) << 1,
 * hi = (0x100000 - expected) << 11; only SYNCS instructions read it, so
 * the phase bit is ours to place: bit 31 of the high word, as on sm_80. */

static u64
mbar_arrive80(u64 v)
{
	u32 lo = (u32)v, hi = (u32)(v >> 32), cnt = (hi & 0x7fffffffu) + 1, ph = hi & 0x80000000u;

	if (cnt & 0x80000000u) {
		ph ^= 0x80000000u;
		cnt = (lo + 0x40000000u) & 0x7fffffffu;
	}
	return lo | (u64)(ph | cnt) << 32;
}

static i64 *
mbar_tx(Emu *E, u32 addr)
{
	int i;

	for (i = 0; i < E->nmtx; i++)
		if (E->mtx[i].addr == addr)
			return &E->mtx[i].tx;
	if (E->nmtx == (int)NELEM(E->mtx))
		eerr(E, "more than %d mbarriers with transactions in one CTA", (int)NELEM(E->mtx));
	E->mtx[E->nmtx].addr = addr;
	E->mtx[E->nmtx].tx = 0;
	return &E->mtx[E->nmtx++].tx;
}

/* count arrivals and tx transaction bytes (expect: +, complete: -) on
 * the sm_90 mbarrier at shared address a; the phase completes when every
 * expected arrival came and the transaction count is back to zero.
 * Returns the old state. */
u64
emu_mbar_update90(Emu *E, Warp *w, int l, u32 a, u32 count, i64 tx)
{
	u8 *p = emu_mem(E, w, l, MS_SHARED, a, 8, 1);
	u64 v, nv;
	u32 lo, hi, pend;
	i64 *t = mbar_tx(E, a);

	memcpy(&v, p, 8);
	lo = (u32)v, hi = (u32)(v >> 32);
	/* bits 1..21: 0x100000 - pending, so all arrived reads back as
	   0x100000 (bit 21) while transaction bytes are outstanding */
	pend = MIN((lo >> 1 & 0x1fffff) + count, 0x100000u);
	*t += tx;
	if (pend == 0x100000 && *t == 0) {
		pend = hi >> 11 & 0xfffff;
		hi ^= 0x80000000u;
	}
	lo = (lo & ~(0x1fffffu << 1)) | pend << 1;
	nv = lo | (u64)hi << 32;
	memcpy(p, &nv, 8);
	return v;
}

/* ARRIVES.LDGSTSBAR.64 [a]: each lane arrives once its cp.async copies
 * are done (they are, at once: see h_ldgsts).  sm_80: an arrival on the
 * sm_80 state.  sm_90 (on the SYNCS state): .ARVCNT is an arrival,
 * .TRANSCNT completes one transaction (the tx-count one
 * SYNCS.ARRIVE.TRANS64.RED.A0T1 added: cp.async.mbarrier.arrive without
 * .noinc). */
static void
h_arrives(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Insn *in = &I->in;
	int l, arv = insn_has(in, "ARVCNT"), trans = insn_has(in, "TRANSCNT");

	if (in->nops != 1 || in->o[0].kind != OPK_MEM || in->nmods != 2 + (arv || trans) ||
	    !insn_has(in, "LDGSTSBAR"))
		eunsup(E, I, NULL);
	LANES(l, gm) {
		u32 a = (u32)addr_of(E, w, l, &in->o[0], 0);
		u8 *p = emu_mem(E, w, l, MS_SHARED, a, 8, 1);
		u64 v;
		if (arv || trans) {
			emu_mbar_update90(E, w, l, a, arv, -trans);
			continue;
		}
		memcpy(&v, p, 8);
		v = mbar_arrive80(v);
		memcpy(p, &v, 8);
	}
}

/* ---- atomics ---- */

enum { A_ADD, A_MIN, A_MAX, A_INC, A_DEC, A_AND, A_OR, A_XOR, A_EXCH, A_CAS, A_CAST };

static u64
atom_op(Emu *E, const EInsn *I, int op, int type, u64 old, u64 b)
{
	int bits = I->a * 8, sgn = type == 1;

	if (type == 2) {   /* F32 */
		if (op == A_ADD) return f32_add((u32)old, (u32)b, RND_RN, 1, 0);
		if (op == A_MIN) return f32_min((u32)old, (u32)b, 0, 0);
		if (op == A_MAX) return f32_max((u32)old, (u32)b, 0, 0);
		eunsup(E, I, NULL);
	}
	if (type == 3) {   /* F64 */
		if (op == A_ADD) return f64_add(old, b, RND_RN);
		eunsup(E, I, NULL);
	}
	if (type == 4) {   /* F16x2 / BF16x2 (a word of F16x4/x8, BF16x4/x8) */
		int ff = insn_has(&I->in, "BF16x2") || insn_has(&I->in, "BF16x4") || insn_has(&I->in, "BF16x8") ? FF_BF16
														 : FF_F16;
		u16 lo = (u16)old, hi = (u16)(old >> 16), bl = (u16)b, bh = (u16)(b >> 16);
		if (op == A_ADD)
			return h_add(ff, lo, bl, RND_RN, 0, 0) | (u32)h_add(ff, hi, bh, RND_RN, 0, 0) << 16;
		if (op == A_MIN)
			return h_min(ff, lo, bl, 0, 0) | (u32)h_min(ff, hi, bh, 0, 0) << 16;
		if (op == A_MAX)
			return h_max(ff, lo, bl, 0, 0) | (u32)h_max(ff, hi, bh, 0, 0) << 16;
		eunsup(E, I, NULL);
	}
	switch (op) {
	case A_ADD: return old + b;
	case A_MIN: return i_min(old, b, bits, sgn);
	case A_MAX: return i_max(old, b, bits, sgn);
	case A_INC: return zext(old, bits) >= zext(b, bits) ? 0 : old + 1;
	case A_DEC: return zext(old, bits) == 0 || zext(old, bits) > zext(b, bits) ? b : old - 1;
	case A_AND: return old & b;
	case A_OR: return old | b;
	case A_XOR: return old ^ b;
	case A_EXCH: return b;
	}
	eunsup(E, I, NULL);
}

/* ATOM/ATOMG/ATOMS[.E].op[.type]... [p,] d, [addr], b [, c];
 * RED/REDG[.E].op[.type]... [addr], b.
 * I->a = size, b = op, c = space, d = wide, e = type (0 u, 1 s, 2 f32,
 * 3 f64, 4 f16x2). */
static void
h_atom(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Insn *in = &I->in;
	const Operand *o = in->o, *m = memop(E, I), *d = NULL;
	int l, i, n = I->a, red = in->op[0] == 'R', vec = (I->e == 2 || I->e == 4) && n > 4;

	if (I->b < 0 && insn_has(in, "ARRIVE") && !strcmp(in->op, "ATOMS") && n == 8) {
		/* mbarrier arrive (sm_80): returns the old state */
		LANES(l, gm) {
			u8 *p = emu_mem(E, w, l, MS_SHARED, addr_of(E, w, l, m, 0), 8, 1);
			u64 v, nv;
			memcpy(&v, p, 8);
			nv = mbar_arrive80(v);
			memcpy(p, &nv, 8);
			if (in->o[0].kind == OPK_R)
				e_wr64(w, l, &in->o[0], v);
		}
		return;
	}
	if (I->b < 0)
		eunsup(E, I, NULL);
	for (i = 0; &o[i] != m; i++)
		if (o[i].kind == OPK_R)
			d = &o[i];
	if (!red && !d)
		eunsup(E, I, NULL);
	i = (int)(m - o) + 1;
	if (i >= in->nops && !insn_has(in, "POPC"))
		eunsup(E, I, NULL);
	LANES(l, gm) {
		u64 a = addr_of(E, w, l, m, I->d), old = 0, b, c = 0, nv;
		u8 *p;
		if (e_isp(&o[0]) && !(o[0].kind == OPK_P && o[0].reg == 7)) {
			/* generic ATOM with a predicate: done only on global memory
			   (ptxas follows with a shared/local fallback when not).
			   With PT (no fallback) it is done in whatever space the
			   generic address falls, shared window included. */
			int glob = I->c != MS_GENERIC || ((a < GW_SHARED || a >= GW_SHARED + 0x10000000000ull) &&
							  (a < GW_LOCAL || a >= GW_LOCAL + 0x10000000000ull));
			e_wrp(w, l, &o[0], glob);
			if (!glob)
				continue;
		}
		if (vec) {      /* F32x2/x4, F16x4/x8, BF16x4/x8: word by word */
			int k;
			p = emu_mem(E, w, l, I->c, a, n, 1);
			for (k = 0; k < n / 4; k++) {
				Operand ob = o[i], od;
				u32 ow;
				ob.reg = (u16)(ob.reg + k);
				memcpy(&ow, p + 4 * k, 4);
				nv = atom_op(E, I, I->b, I->e, ow, ob.reg >= 255 ? 0 : e_opr(E, w, l, &ob));
				memcpy(p + 4 * k, &nv, 4);
				if (d) {
					od = *d;
					od.reg = (u16)(od.reg + k);
					e_wr(w, l, &od, ow);
				}
			}
			continue;
		}
		p = emu_mem(E, w, l, I->c, a, n, 1);
		b = i >= in->nops ? 1 : n == 8 ? e_opr64(E, w, l, &o[i]) : e_opr(E, w, l, &o[i]);
		if (I->b == A_CAS || I->b == A_CAST) {
			if (i + 1 >= in->nops)
				eunsup(E, I, NULL);
			c = n == 8 ? e_opr64(E, w, l, &o[i + 1]) : e_opr(E, w, l, &o[i + 1]);
		}
		memcpy(&old, p, n);
		if (I->b == A_CAS)
			nv = old == b ? c : old;
		else if (I->b == A_CAST)
			nv = old == b ? c : old;
		else
			nv = atom_op(E, I, I->b, I->e, old, b);
		memcpy(p, &nv, n);
		if (I->b == A_CAST)
			old = old == b;
		if (d) {
			if (n == 8)
				e_wr64(w, l, d, old);
			else
				e_wr(w, l, d, (u32)old);
		}
	}
}

/* QSPC.E.{S,G,L} p, d, [addr]: is the generic address in that space? */
static void
h_qspc(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Operand *m = memop(E, I);
	int l;

	LANES(l, gm) {
		u64 a = addr_of(E, w, l, m, 1);
		int sh = a >= GW_SHARED && a < GW_SHARED + 0x10000000000ull;
		int lo = a >= GW_LOCAL && a < GW_LOCAL + 0x10000000000ull;
		/* .S this CTA's shared memory (rank bits 24.. its own), .D any
		   CTA's of the cluster, .L local, .G the rest */
		int r = insn_has(&I->in, "S") ? sh && (a - GW_SHARED) >> 24 == (E->coop ? 0 : w->rank) : insn_has(&I->in, "D") ? sh
			: insn_has(&I->in, "L") ? lo : !sh && !lo;
		e_wrp(w, l, &I->in.o[0], r);
		if (I->in.o[1].kind == OPK_R)
			e_wr(w, l, &I->in.o[1], r);
	}
}

/* SYNCS.EXCH.64 d, [a], v;  SYNCS.ARRIVE.TRANS64[.RED][.OPTOUT].{A1T0,ART0,
 * A0T1,A0TR,A0TX} d, [a], x
 * (A1T0: one arrival; ART0: x arrivals; A0T1: expect one transaction;
 * A0TR: expect x bytes; A0TX: x bytes complete; none of them, without
 * .RED: one arrival and expect x bytes, ptxas's mbarrier.arrive.expect_tx
 * -- the printed form of the default, our reading; OPTOUT: the arrivals
 * also leave the expected count, mbarrier.arrive_drop);
 * SYNCS.PHASECHK.TRANS64[.TRYWAIT] p, [a], token_hi;
 * SYNCS.CCTL.IV [a] (mbarrier.inval): zeroes the object, as the interpreter does */
static void
h_syncs(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Insn *in = &I->in;
	const Operand *m = memop(E, I), *o = in->o;
	int l, exch = insn_has(in, "EXCH"), arrive = insn_has(in, "ARRIVE"), chk = insn_has(in, "PHASECHK");
	int a1 = insn_has(in, "A1T0"), tr = insn_has(in, "A0TR"), tx = insn_has(in, "A0TX"), t1 = insn_has(in, "A0T1");
	int art = insn_has(in, "ART0"), opt = insn_has(in, "OPTOUT");
	int a1tr = arrive && !a1 && !tr && !tx && !t1 && !art && !insn_has(in, "RED");

	if (insn_has(in, "CCTL")) {
		if (in->nops != 1 || &o[0] != m || !insn_has(in, "IV"))
			eunsup(E, I, NULL);
		LANES(l, gm) {
			u32 a = (u32)addr_of(E, w, l, m, 0);
			memset(emu_mem(E, w, l, MS_SHARED, a, 8, 1), 0, 8);
			*mbar_tx(E, a) = 0;
		}
		return;
	}
	if (in->nops != 3 || &o[1] != m || (!exch && !arrive && !chk) ||
	    (arrive && !a1 && !tr && !tx && !t1 && !a1tr && !art) || (opt && !a1 && !art) ||
	    ((a1 || t1) && (o[2].kind != OPK_R || o[2].reg != RZ)))
		eunsup(E, I, NULL);
	LANES(l, gm) {
		u32 a = (u32)addr_of(E, w, l, m, 0), cnt;
		u8 *p = emu_mem(E, w, l, MS_SHARED, a, 8, !chk);
		u64 v;
		memcpy(&v, p, 8);
		if (chk) {
			e_wrp(w, l, &o[0], (int)((v >> 32 ^ e_opr(E, w, l, &o[2])) >> 31) & 1);
			continue;
		}
		if (exch) {
			u64 nv = e_opr64(E, w, l, &o[2]);
			memcpy(p, &nv, 8);
			*mbar_tx(E, a) = 0;
			e_wr64(w, l, &o[0], v);
			continue;
		}
		cnt = art ? e_opr(E, w, l, &o[2]) : a1 || a1tr;
		if (opt) {   /* bits 11..30 of the high word: 0x100000 - expected */
			v += (u64)cnt << 43;
			memcpy(p, &v, 8);
		}
		v = emu_mbar_update90(E, w, l, a, cnt, a1 || art ? 0 : t1 ? 1 : tx ? -(i64)e_opr(E, w, l, &o[2]) :
										(i64)e_opr(E, w, l, &o[2]));
		e_wr64(w, l, &o[0], v);
	}
}

/* UBLKCP.S.G [URd], [URs], URn: the bulk copy engine, global to shared,
 * URn * 16 bytes, completing that many transaction bytes on the mbarrier
 * whose address is in URd+1.  Runs at once. */
static void
h_ublkcp(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Insn *in = &I->in;
	const Operand *o = in->o;
	int l = __builtin_ctz(gm | 0x80000000u);
	u64 src, n;
	u32 dst, bar;

	if (!gm)
		return;
	if (!insn_has(in, "S") || !insn_has(in, "G") || in->nops != 3 || o[0].kind != OPK_MEM ||
	    o[0].rk != OPK_UR || o[0].reg >= 62 || o[1].kind != OPK_MEM || o[1].rk != OPK_UR || o[1].reg >= 62 ||
	    o[0].imm || o[1].imm || o[0].ur != URZ || o[1].ur != URZ)
		eunsup(E, I, NULL);
	dst = w->ur[o[0].reg];
	bar = w->ur[o[0].reg + 1];
	src = w->ur[o[1].reg] | (u64)w->ur[o[1].reg + 1] << 32;
	n = (u64)e_opr(E, w, l, &o[2]) * 16;
	memcpy(emu_mem(E, w, l, MS_SHARED, dst, n, 1), emu_mem(E, w, l, MS_GLOBAL, src, n, 0), n);
	emu_mbar_update90(E, w, l, bar, 0, -(i64)n);
}

/* ---- warp collectives ---- */

/* SHFL.mode p, d, a, b, c */
static void
h_shfl(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Operand *o = I->in.o;
	u32 src[32];
	int l, mode = I->b;

	if (I->in.nops < 5)
		eunsup(E, I, NULL);
	for (l = 0; l < 32; l++)
		src[l] = e_opr(E, w, l, &o[2]);
	LANES(l, gm) {
		u32 b = e_opr(E, w, l, &o[3]) & 31, c = e_opr(E, w, l, &o[4]);
		u32 cv = c & 31, seg = c >> 8 & 31, maxl = ((u32)l & seg) | (cv & ~seg), minl = l & seg;
		int j, ok;
		switch (mode) {
		case 0: j = (int)(minl | (b & ~seg)); ok = (u32)j <= maxl; break;
		case 1: j = l - (int)b; ok = j >= (int)maxl; break;
		case 2: j = l + (int)b; ok = (u32)j <= maxl; break;
		default: j = l ^ (int)b; ok = (u32)j <= maxl; break;
		}
		if (!ok)
			j = l;
		e_wr(w, l, &o[1], src[j & 31]);
		e_wrp(w, l, &o[0], ok);
	}
}

/* VOTE.{ANY,ALL,EQ} [d,] p, q;  VOTEU.{ANY,ALL} [ud,] up, q */
static void
h_vote(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Insn *in = &I->in;
	const Operand *o = in->o;
	int l, i = 0, all = insn_has(in, "ALL"), eq = insn_has(in, "EQ");
	u32 ballot = 0;
	const Operand *q = &o[in->nops - 1];

	if (!gm)
		return;
	LANES(l, gm)
		if (e_oprp(w, l, q))
			ballot |= 1u << l;
	if (!e_isp(&o[0])) {
		LANES(l, gm) e_wr(w, l, &o[0], ballot);
		i = 1;
	}
	if (i < in->nops - 1)
		LANES(l, gm) {
			int r = all ? ballot == gm : eq ? (ballot == gm || ballot == 0) : ballot != 0;
			e_wrp(w, l, &o[i], r);
		}
	(void)E;
}

/* REDUX[.op][.S32] ud, r: no op is AND (nvdisasm prints the default
 * encoding without a modifier: redux.sync.and gives plain REDUX) */
static void
h_redux(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Insn *in = &I->in;
	int l, first = 1, sgn = insn_has(in, "S32");
	u32 acc = 0;

	if (!gm)
		return;
	LANES(l, gm) {
		u32 v = e_opr(E, w, l, &in->o[1]);
		if (first) { acc = v; first = 0; continue; }
		if (insn_has(in, "SUM")) acc += v;
		else if (insn_has(in, "OR")) acc |= v;
		else if (insn_has(in, "XOR")) acc ^= v;
		else if (insn_has(in, "MIN")) acc = (u32)i_min(acc, v, 32, sgn);
		else if (insn_has(in, "MAX")) acc = (u32)i_max(acc, v, 32, sgn);
		else acc &= v;
	}
	e_wr(w, __builtin_ctz(gm), &in->o[0], acc);
}

/* MATCH.ANY[.U64] d, a;  MATCH.ALL[.U64] p, d, a (nvdisasm's order:
 * the predicate first; d, p also accepted) */
static void
h_match(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Insn *in = &I->in;
	int l, k, wide = insn_has(in, "U64"), all = insn_has(in, "ALL");
	u64 v[32];
	const Operand *a = &in->o[in->nops - 1], *d = &in->o[0], *p = NULL;

	if (all && in->nops > 2) {
		p = e_isp(&in->o[0]) ? &in->o[0] : &in->o[1];
		d = e_isp(&in->o[0]) ? &in->o[1] : &in->o[0];
	}

	LANES(l, gm) v[l] = wide ? e_opr64(E, w, l, a) : e_opr(E, w, l, a);
	LANES(l, gm) {
		u32 m = 0;
		LANES(k, gm)
			if (v[k] == v[l])
				m |= 1u << k;
		if (all) {
			int same = m == gm;
			e_wr(w, l, d, same ? gm : 0);
			if (p)
				e_wrp(w, l, p, same);
		} else
			e_wr(w, l, d, m);
	}
}

/* STAS[.64|.128] [Ra.64], Rb (st.async, sm_90): each lane stores 4, 8 or
 * 16 bytes from Rb.. at the shared::cluster address Ra (rank in bits 24..)
 * and completes as many transaction bytes on the mbarrier at Ra+1 (in
 * the same CTA's shared memory).  Done at issue. */
static void
h_stas(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Insn *in = &I->in;
	int l, k, n = insn_has(in, "128") ? 16 : insn_has(in, "64") ? 8 : 4;
	const Operand *m = &in->o[0], *b = &in->o[1];

	if (in->nops != 2 || m->kind != OPK_MEM || m->rk != OPK_R || m->reg + 1 >= RZ || m->imm || m->ur != URZ ||
	    b->kind != OPK_R || (b->reg != RZ && b->reg + n / 4 > RZ))
		eunsup(E, I, NULL);
	LANES(l, gm) {
		u32 a = w->r[m->reg][l], bar = w->r[m->reg + 1][l], v[4];
		for (k = 0; k < n / 4; k++)
			v[k] = b->reg == RZ ? 0 : w->r[b->reg + k][l];
		memcpy(emu_mem(E, w, l, MS_SHARED, a, n, 1), v, n);
		emu_mbar_update90(E, w, l, bar, 0, -(i64)n);
	}
}

/* REDAS.op[.S32|.64] [Ra.64], Rb (red.async, sm_90): each lane's
 * atomic (ATOM's operations, emu_prep_mem) on the shared::cluster address
 * Ra, then complete_tx of its size on the mbarrier at Ra+1, as STAS. */
static void
h_redas(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Insn *in = &I->in;
	int l, n = I->a;
	const Operand *m = &in->o[0], *b = &in->o[1];

	if (in->nops != 2 || m->kind != OPK_MEM || m->rk != OPK_R || m->reg + 1 >= RZ || m->imm || m->ur != URZ ||
	    b->kind != OPK_R || I->b < 0 || I->b >= A_EXCH || I->e > 1 || (n != 4 && n != 8))
		eunsup(E, I, NULL);
	LANES(l, gm) {
		u32 a = w->r[m->reg][l], bar = w->r[m->reg + 1][l];
		u64 old = 0, v = n == 8 ? e_opr64(E, w, l, b) : e_opr(E, w, l, b), nv;
		u8 *p = emu_mem(E, w, l, MS_SHARED, a, n, 1);
		memcpy(&old, p, n);
		nv = atom_op(E, I, I->b, I->e, old, v);
		memcpy(p, &nv, n);
		emu_mbar_update90(E, w, l, bar, 0, -(i64)n);
	}
}

static const struct { const char *op; Handler fn; } tab[] = {
	{"LDG", h_ld}, {"LDS", h_ld}, {"LDL", h_ld}, {"LD", h_ld},
	{"STG", h_st}, {"STS", h_st}, {"STL", h_st}, {"ST", h_st},
	{"ATOM", h_atom}, {"ATOMG", h_atom}, {"ATOMS", h_atom}, {"RED", h_atom}, {"REDG", h_atom},
	{"LDGSTS", h_ldgsts}, {"QSPC", h_qspc}, {"SYNCS", h_syncs}, {"ARRIVES", h_arrives}, {"UBLKCP", h_ublkcp}, {"SHFL", h_shfl}, {"VOTE", h_vote}, {"VOTEU", h_vote},
	{"REDUX", h_redux}, {"MATCH", h_match}, {"STAS", h_stas}, {"REDAS", h_redas},
};

Handler
emu_mem_handler(const char *op)
{
	size_t i;

	for (i = 0; i < NELEM(tab); i++)
		if (!strcmp(tab[i].op, op))
			return tab[i].fn;
	return emu_mma_handler(op);
}

void
emu_prep_mem(Emu *E, EInsn *I)
{
	const Insn *in = &I->in;
	int sign;

	(void)E;
	I->a = e_ldsize(in, &sign);
	I->b = sign;
	I->c = space_of(in->op);
	I->d = I->c == MS_GLOBAL || I->c == MS_GENERIC;
	if (I->fn == h_atom || I->fn == h_redas) {
		static const char *ops[] = {"ADD", "MIN", "MAX", "INC", "DEC", "AND", "OR", "XOR", "EXCH", "CAS", "CAST"};
		size_t k;
		I->b = -1;
		for (k = 0; k < NELEM(ops); k++)
			if (insn_has(in, ops[k]))
				I->b = (int)k;
		if (insn_has(in, "POPC") && insn_has(in, "INC"))
			I->b = A_ADD;   /* warp-aggregated increment: each lane adds one */
		static const struct { const char *m; int e, size; } vec[] = {  /* sm_90's vector forms */
			{"F32x2", 2, 8}, {"F32x4", 2, 16}, {"F16x4", 4, 8}, {"F16x8", 4, 16},
			{"BF16x4", 4, 8}, {"BF16x8", 4, 16},
		};
		I->e = insn_has(in, "S32") || insn_has(in, "S64") ? 1 : insn_has(in, "F32") ? 2 :
		       insn_has(in, "F64") ? 3 : insn_has(in, "F16x2") || insn_has(in, "BF16x2") ? 4 : 0;
		if (I->e == 3 || insn_has(in, "S64") || insn_has(in, "U64"))
			I->a = 8;
		for (k = 0; k < NELEM(vec); k++)
			if (insn_has(in, vec[k].m)) {
				I->e = vec[k].e;
				I->a = vec[k].size;
			}
	} else if (I->fn == h_shfl) {
		I->b = insn_has(in, "IDX") ? 0 : insn_has(in, "UP") ? 1 : insn_has(in, "DOWN") ? 2 : 3;
	}
}
