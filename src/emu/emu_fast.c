/* emu_fast.c -- the emulator's fast handlers for registers and
 * arithmetic: the common integer, f32 and f64 forms executed a whole warp
 * at a time.
 *
 * emu_fast_prep() (emu_fast_prep.c) runs once per launch, after the
 * constant banks are set: for each instruction whose form it knows it
 * resolves the source operands (a register row, a uniform register, or a
 * constant: immediates and c[bank][imm] fold to their value) into I->fs
 * and sets I->fx.  The handlers compute all 32 lanes into a local row
 * (plain loops the compiler vectorizes; inactive lanes compute garbage
 * that is never written) and merge the active lanes into the destination.
 * The semantics are exactly those of the general handlers (emu_exec.c,
 * emu_float.c, emu_memops.c), which remain the reference for every other
 * form; tests/unit/test_emu_ops.c (emu_ops_fast) runs both on the same
 * inputs. */
#include <fenv.h>
#include <math.h>
#include <string.h>

#include "emu/emu_fast.h"
#include "ptx/arith.h"

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif

/* ---- integer ---- */


void
FX(fx_mov)(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	u32 t[32];

	(void)E;
	put(w, I->fd, row(w, &FS[0], t), gm);
}

/* S2R d, SR: I->a = 0..2 TID.X/Y/Z, 3..5 CTAID.X/Y/Z, 6 LANEID,
 * 7 CgaCtaId, 8..12 EQMASK, LTMASK, LEMASK, GTMASK, GEMASK */
void
FX(fx_s2r)(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	u32 d[32], nx = E->ntid[0], ny = E->ntid[1], x, y, z;
	int l;

	if (I->a < 3) {
		/* the thread index of lane 0, then step through x, y, z */
		x = w->tid0 % nx;
		y = w->tid0 / nx % ny;
		z = w->tid0 / (nx * ny);
		if (x + 32 <= nx) {   /* the warp within one row */
			for (l = 0; l < 32; l++)
				d[l] = I->a == 0 ? x + (u32)l : I->a == 1 ? y : z;
			put(w, I->fd, d, gm);
			return;
		}
		for (l = 0; l < 32; l++) {
			d[l] = I->a == 0 ? x : I->a == 1 ? y : z;
			if (++x == nx) {
				x = 0;
				if (++y == ny)
					y = 0, z++;
			}
		}
	} else if (I->a >= 8)
		for (l = 0; l < 32; l++) {
			u32 eq = 1u << l, lt = eq - 1;
			d[l] = I->a == 8 ? eq : I->a == 9 ? lt : I->a == 10 ? lt | eq : I->a == 11 ? ~(lt | eq) : ~lt;
		}
	else
		for (l = 0; l < 32; l++)
			d[l] = I->a == 6 ? (u32)l : I->a == 7 ? w->rank : w->ctaid[I->a - 3];
	put(w, I->fd, d, gm);
}

/* LDC[.64] d, c[bank][imm]: the value, folded (fs[0], fs[1]) */
void
FX(fx_ldck)(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	u32 t[32];

	(void)E;
	put(w, I->fd, row(w, &FS[0], t), gm);
	if (I->a == 8 && I->fd < RZ)
		put(w, I->fd + 1, row(w, &FS[1], t), gm);
}

/* S2UR URd, SR_CTAID.X/Y/Z (I->a = 0..2) or SR_CgaCtaId (3) */
void
FX(fx_s2ur)(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	(void)E;
	if (gm && I->fd < URZ)
		w->ur[I->fd] = I->a == 3 ? w->rank : w->ctaid[I->a];
}

/* ULDC[.64] URd, c[bank][imm] (folded) */
void
FX(fx_uldc)(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	(void)E;
	if (!gm || I->fd >= URZ)
		return;
	w->ur[I->fd] = FS[0].v;
	if (I->a == 8 && I->fd + 1 < URZ)
		w->ur[I->fd + 1] = FS[1].v;
}

/* IADD3[.X] d, [p0, [p1,]] a, b, c [, cin0 [, cin1]]: I->a = carry-outs,
 * I->b = carry-ins (fs[3], fs[4]); p0/p1 in fp[0..1]. */
void
FX(fx_iadd3)(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	u32 a[32], b[32], c[32], d[32];
	u8 p0[32], p1[32], c0[32], c1[32];
	u64 xa = FS[0].not ^ FS[0].neg ? 0xffffffffu : 0, xb = FS[1].not ^ FS[1].neg ? 0xffffffffu : 0,
	    xc = FS[2].not ^ FS[2].neg ? 0xffffffffu : 0, k = (u64)FS[0].neg + FS[1].neg + FS[2].neg;
	const u32 *ra = row(w, &FS[0], a), *rb = row(w, &FS[1], b), *rc = row(w, &FS[2], c);
	int l;

	(void)E;
	if (!I->a && !I->b) {   /* no carries: 32 bits */
		u32 x0 = (u32)xa, x1 = (u32)xb, x2 = (u32)xc, kk = (u32)k;
		for (l = 0; l < 32; l++)
			d[l] = (ra[l] ^ x0) + (rb[l] ^ x1) + (rc[l] ^ x2) + kk;
		put(w, I->fd, d, gm);
		return;
	}
	memset(c0, 0, 32);
	memset(c1, 0, 32);
	if (I->b > 0)
		prow(w, &FS[3], c0);
	if (I->b > 1)
		prow(w, &FS[4], c1);
	for (l = 0; l < 32; l++) {
		u64 s01 = ((u64)ra[l] ^ xa) + ((u64)rb[l] ^ xb) + FS[0].neg + FS[1].neg,
		    s = s01 + ((u64)rc[l] ^ xc) + FS[2].neg + c0[l] + c1[l];
		u32 cy = emu_iadd3_carries(s01, s, I->a);
		d[l] = (u32)s;
		p0[l] = (u8)(cy & 1);
		p1[l] = (u8)(cy >> 1);
	}
	put(w, I->fd, d, gm);
	if (I->a > 0)
		putp(w, I->fp[0], p0, gm);
	if (I->a > 1)
		putp(w, I->fp[1], p1, gm);
}

/* IMAD[.X][.U32] d, [p,] a, b, c [, cin] (low word) */
void
FX(fx_imad)(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	u32 ta[32], tb[32], tc[32], d[32];
	const u32 *a, *b, *c;
	u8 ci[32], co[32];
	int l;

	(void)E;
	a = irow(w, &FS[0], ta);
	b = irow(w, &FS[1], tb);
	c = irow(w, &FS[2], tc);
	memset(ci, 0, 32);
	if (I->b)
		prow(w, &FS[3], ci);
	if (!I->a && !I->b) {   /* the usual: no carries, 32 bits */
		for (l = 0; l < 32; l++)
			d[l] = a[l] * b[l] + c[l];
		put(w, I->fd, d, gm);
		return;
	}
	for (l = 0; l < 32; l++) {
		u64 r = (u64)(a[l] * b[l]) + c[l] + ci[l];
		d[l] = (u32)r;
		co[l] = (u8)(r >> 32 & 1);
	}
	put(w, I->fd, d, gm);
	if (I->a)
		putp(w, I->fp[0], co, gm);
}

/* IMAD.WIDE[.U32] d, a, b, c (c: a register pair or a 64-bit constant);
 * I->e = 1 + log2 b when b is a constant power of two (a shift) */
void
FX(fx_imad_wide)(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	u32 ta[32], tb[32], lo[32], hi[32], t[32], t2[32];
	const u32 *a, *b, *cl, *ch;
	int l, k, s = !I->c, d = I->fd;

	(void)E;
	a = irow(w, &FS[0], ta);
	if (FS[2].k == FS_R) {
		cl = w->r[FS[2].reg];
		ch = FS[2].reg + 1 < RZ ? w->r[FS[2].reg + 1] : w->r[RZ];
	} else {
		for (l = 0; l < 32; l++)
			t[l] = FS[2].v, t2[l] = FS[2].vh;
		cl = t, ch = t2;
	}
	b = irow(w, &FS[1], tb);
	k = I->e - 1;
	if (k < 0 && FS[1].k == FS_R) {
		/* a register b the same power of two in every lane (ptxas's
		   sm_80 code keeps the element size in one) */
		u32 x = 0, b0 = b[0];
		for (l = 0; l < 32; l++)
			x |= b[l] ^ b0;
		if (!x && b0 && !(b0 & (b0 - 1)) && (!s || b0 <= 1u << 30))
			k = __builtin_ctz(b0);
	}
	if (k >= 0 && !FS[2].neg) {
		/* a << k as 64 bits plus c, in 32-bit halves (they vectorize
		   8 lanes a step) */
		int sh = k ? 32 - k : 31;
		u32 hm = k || s ? ~0u : 0;
		for (l = 0; l < 32; l++) {
			u32 x = a[l], pl = x << k, ph = (s ? (u32)((i32)x >> sh) : x >> sh) & hm, rl = pl + cl[l];
			lo[l] = rl;
			hi[l] = ph + ch[l] + (rl < pl);
		}
		put(w, d, lo, gm);
		if (d < RZ)
			put(w, d + 1, hi, gm);
		return;
	}
	for (l = 0; l < 32; l++) {
		u64 p = s ? (u64)((i64)(i32)a[l] * (i32)b[l]) : (u64)a[l] * b[l];
		u64 c = cl[l] | (u64)ch[l] << 32;
		if (FS[2].neg)
			c = -c;
		p += c;
		lo[l] = (u32)p;
		hi[l] = (u32)(p >> 32);
	}
	put(w, d, lo, gm);
	if (d < RZ)
		put(w, d + 1, hi, gm);
}

/* IMAD.HI[.U32][.X] d, [p,] a, b, c [, cin] and IMAD.WIDE with a carry
 * (I->d = WIDE): a*b + c (c: a register pair or a 64-bit constant, fs[2])
 * + cin (fs[3] when I->b), the carry out of 64 bits into p (I->a) */
void
FX(fx_imad_hi)(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	u32 ta[32], tb[32], lo[32], hi[32], t[32], t2[32];
	const u32 *a, *b, *cl, *ch;
	u8 ci[32], co[32];
	int l, s = !I->c, d = I->fd;

	(void)E;
	a = irow(w, &FS[0], ta);
	b = irow(w, &FS[1], tb);
	if (FS[2].k == FS_R) {
		cl = w->r[FS[2].reg];
		ch = FS[2].reg + 1 < RZ ? w->r[FS[2].reg + 1] : w->r[RZ];
	} else {
		for (l = 0; l < 32; l++)
			t[l] = FS[2].v, t2[l] = FS[2].vh;
		cl = t, ch = t2;
	}
	memset(ci, 0, 32);
	if (I->b)
		prow(w, &FS[3], ci);
	for (l = 0; l < 32; l++) {
		u64 p = s ? (u64)((i64)(i32)a[l] * (i32)b[l]) : (u64)a[l] * b[l];
		u64 c = cl[l] | (u64)ch[l] << 32, r;
		if (FS[2].neg)
			c = -c;
		r = p + c;
		co[l] = r < p;
		r += ci[l];
		co[l] |= ci[l] && r == 0;
		lo[l] = (u32)r;
		hi[l] = (u32)(r >> 32);
	}
	if (I->d) {
		put(w, d, lo, gm);
		if (d < RZ)
			put(w, d + 1, hi, gm);
	} else
		put(w, d, hi, gm);
	if (I->a)
		putp(w, I->fp[0], co, gm);
}

/* VIADD d, a, b */
void
FX(fx_viadd)(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	u32 ta[32], tb[32], d[32];
	const u32 *a, *b;
	int l;

	(void)E;
	a = irow(w, &FS[0], ta);
	b = irow(w, &FS[1], tb);
	for (l = 0; l < 32; l++)
		d[l] = a[l] + b[l];
	put(w, I->fd, d, gm);
}

/* IMNMX/VIMNMX[.U32] d, a, b, p (p: min); I->a = signed;
 * VIADDMNMX d, a, b, c, p (I->c): the same of a+b and c (fs[3]) */
void
FX(fx_imnmx)(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	u32 ta[32], tb[32], tc[32], d[32];
	const u32 *a, *b;
	u8 p[32];
	int l;

	(void)E;
	a = irow(w, &FS[0], ta);
	b = irow(w, &FS[1], tb);
	prow(w, &FS[2], p);
	if (I->c) {
		const u32 *c = irow(w, &FS[3], tc);
		for (l = 0; l < 32; l++)
			d[l] = a[l] + b[l];
		memcpy(ta, d, sizeof ta);
		a = ta, b = c;
	}
	for (l = 0; l < 32; l++) {
		int lt = I->a ? (i32)a[l] < (i32)b[l] : a[l] < b[l];
		d[l] = p[l] ? (lt ? a[l] : b[l]) : (lt ? b[l] : a[l]);
	}
	put(w, I->fd, d, gm);
}

/* LOP3.LUT [p,] d, a, b, c, lut, q */
void
FX(fx_lop3)(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	u32 ta[32], tb[32], tc[32], d[32];
	const u32 *a, *b, *c;
	u8 p[32];
	u32 lut = I->b;
	int l, i;

	(void)E;
	a = irow(w, &FS[0], ta);
	b = irow(w, &FS[1], tb);
	c = irow(w, &FS[2], tc);
	memset(d, 0, sizeof d);
	for (i = 0; i < 8; i++) {
		u32 xa = i & 4 ? 0 : ~0u, xb = i & 2 ? 0 : ~0u, xc = i & 1 ? 0 : ~0u;
		if (!(lut >> i & 1))
			continue;
		for (l = 0; l < 32; l++)
			d[l] |= (a[l] ^ xa) & (b[l] ^ xb) & (c[l] ^ xc);
	}
	put(w, I->fd, d, gm);
	if (I->a) {
		for (l = 0; l < 32; l++)
			p[l] = d[l] != 0;
		putp(w, I->fp[0], p, gm);
	}
}

/* SHF.{L,R}.{U32,S32,U64,S64}[.HI][.W] d, lo, n, hi */
void
FX(fx_shf)(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	u32 t0[32], t1[32], t2[32], d[32];
	const u32 *lo = row(w, &FS[0], t0), *n = row(w, &FS[1], t1), *hi = row(w, &FS[2], t2);
	int l, left = I->a, h = I->b, wrap = I->c, sgn = I->d, w64 = I->e;
	u32 lim = w64 ? 64 : 32, wm = w64 ? 63 : 31;

	(void)E;
	for (l = 0; l < 32; l++) {
		u64 v = (u64)hi[l] << 32 | lo[l], r;
		u32 k = wrap ? n[l] & wm : MIN(n[l], lim);
		if (left)
			r = k >= 64 ? 0 : v << k;
		else if (sgn)
			r = k >= 64 ? (u64)((i64)v >> 63) : (u64)((i64)v >> k);
		else
			r = k >= 64 ? 0 : v >> k;
		d[l] = h ? (u32)(r >> 32) : (u32)r;
	}
	put(w, I->fd, d, gm);
}

/* LEA[.HI[.SX32]][.X] d, [p,] a, b, [c,] s [, cin]: I->a = carry-out,
 * I->b = carry-in (fs[4]), I->c = HI, I->d = SX32; fs[2] = c, fs[3] = s */
void
FX(fx_lea)(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	u32 ta[32], b[32], t2[32], t3[32], d[32];
	const u32 *a, *c = NULL, *sh;
	u8 ci[32], co[32];
	int l, hi = I->c, sx = I->d;

	(void)E;
	a = irow(w, &FS[0], ta);
	{
		const u32 *rb = row(w, &FS[1], b);
		u32 x = FS[1].not ? ~0u : 0;
		for (l = 0; l < 32; l++)
			b[l] = rb[l] ^ x;
	}
	if (!hi && !I->a && !I->b && FS[3].k == FS_K) {   /* the usual: (a << s) + b */
		u32 k = FS[3].v & 31, x = FS[1].neg ? ~0u : 0, y = FS[1].neg;
		for (l = 0; l < 32; l++)
			d[l] = (a[l] << k) + ((b[l] ^ x) + y);
		put(w, I->fd, d, gm);
		return;
	}
	if (hi && !sx)
		c = row(w, &FS[2], t2);
	sh = row(w, &FS[3], t3);
	memset(ci, 0, 32);
	if (I->b)
		prow(w, &FS[4], ci);
	for (l = 0; l < 32; l++) {
		u32 s = sh[l] & 31;
		u64 v, r;
		if (hi) {
			u32 cc = sx ? (u32)((i32)a[l] >> 31) : c[l];
			v = ((u64)cc << 32 | a[l]) >> (32 - s);
			v = s ? (u32)v : cc;
		} else
			v = (u32)((u64)a[l] << s);
		if (FS[1].neg)
			r = (u64)(u32)v + (u64)(u32)~b[l] + 1 + ci[l];
		else
			r = (u64)(u32)v + b[l] + ci[l];
		d[l] = (u32)r;
		co[l] = (u8)(r >> 32 & 1);
	}
	put(w, I->fd, d, gm);
	if (I->a)
		putp(w, I->fp[0], co, gm);
}

/* ISETP.cmp[.U32].bop[.EX] p, q, a, b, c [, plo]: I->a = CMP_EQ..GE,
 * I->b = the bop, I->c = U32, I->d = EX (plo in fs[3]) */
void
FX(fx_isetp)(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	u32 ta[32], tb[32];
	const u32 *a, *b;
	u8 c[32], p[32], q[32], lo[32], lt[32], eq[32], r[32];
	int l, cmp = I->a, bo = I->b;
	u32 sg = I->c ? 0 : 0x80000000u;

	(void)E;
	a = irow(w, &FS[0], ta);
	b = irow(w, &FS[1], tb);
	prow(w, &FS[2], c);
	for (l = 0; l < 32; l++) {
		lt[l] = (a[l] ^ sg) < (b[l] ^ sg);
		eq[l] = a[l] == b[l];
	}
	if (I->d) {
		prow(w, &FS[3], lo);
		for (l = 0; l < 32; l++)
			r[l] = (u8)icmp_ex(cmp, lt[l], eq[l], lo[l]);
	} else {
		/* one loop each, so each vectorizes */
		switch (cmp) {
		case CMP_EQ:
			memcpy(r, eq, 32);
			break;
		case CMP_NE:
			for (l = 0; l < 32; l++)
				r[l] = !eq[l];
			break;
		case CMP_LT:
			memcpy(r, lt, 32);
			break;
		case CMP_LE:
			for (l = 0; l < 32; l++)
				r[l] = lt[l] | eq[l];
			break;
		case CMP_GT:
			for (l = 0; l < 32; l++)
				r[l] = !(lt[l] | eq[l]);
			break;
		default:
			for (l = 0; l < 32; l++)
				r[l] = !lt[l];
		}
	}
	switch (bo) {
	case 0:
		for (l = 0; l < 32; l++)
			p[l] = r[l] & c[l], q[l] = (r[l] ^ 1) & c[l];
		break;
	case 1:
		for (l = 0; l < 32; l++)
			p[l] = r[l] | c[l], q[l] = (r[l] ^ 1) | c[l];
		break;
	default:
		for (l = 0; l < 32; l++)
			p[l] = r[l] ^ c[l], q[l] = r[l] ^ 1 ^ c[l];
	}
	putp(w, I->fp[0], p, gm);
	putp(w, I->fp[1], q, gm);
}

/* SHFL.IDX/UP/DOWN/BFLY p, d, a, b, c (I->b = 0..3): lane l reads a from
 * lane j, p says whether j was in l's segment (else j = l) */
void
FX(fx_shfl)(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	u32 t0[32], t1[32], t2[32], src[32], d[32];
	const u32 *a = row(w, &FS[0], t0), *b = row(w, &FS[1], t1), *c = row(w, &FS[2], t2);
	u8 p[32];
	int l, mode = I->b;

	(void)E;
	memcpy(src, a, sizeof src);
	for (l = 0; l < 32; l++) {
		u32 bb = b[l] & 31, cv = c[l] & 31, seg = c[l] >> 8 & 31;
		u32 maxl = ((u32)l & seg) | (cv & ~seg), minl = (u32)l & seg;
		int j, ok;
		switch (mode) {
		case 0: j = (int)(minl | (bb & ~seg)); ok = (u32)j <= maxl; break;
		case 1: j = l - (int)bb; ok = j >= (int)maxl; break;
		case 2: j = l + (int)bb; ok = (u32)j <= maxl; break;
		default: j = l ^ (int)bb; ok = (u32)j <= maxl; break;
		}
		d[l] = src[(ok ? j : l) & 31];
		p[l] = (u8)ok;
	}
	put(w, I->fd, d, gm);
	putp(w, I->fp[0], p, gm);
}

/* PLOP3.LUT p, q, a, b, c, lut, lut2: I->b, I->c = the tables */
void
FX(fx_plop3)(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	u8 a[32], b[32], c[32], p[32], q[32];
	int l;

	(void)E;
	prow(w, &FS[0], a);
	prow(w, &FS[1], b);
	prow(w, &FS[2], c);
	for (l = 0; l < 32; l++) {
		int k = a[l] << 2 | b[l] << 1 | c[l];
		p[l] = (u8)(I->b >> k & 1);
		q[l] = (u8)(I->c >> k & 1);
	}
	putp(w, I->fp[0], p, gm);
	putp(w, I->fp[1], q, gm);
}

/* CS2R[.32] d, SRZ: I->a registers of zeros */
void
FX(fx_cs2r)(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	static const u32 z[32];

	(void)E;
	put(w, I->fd, z, gm);
	if (I->a == 2 && I->fd + 1 < RZ)
		put(w, I->fd + 1, z, gm);
}

/* PRMT d, a, sel, b (I->a = the mode) */
void
FX(fx_prmt)(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	u32 t0[32], t1[32], t2[32], d[32];
	const u32 *a = row(w, &FS[0], t0), *s = row(w, &FS[1], t1), *b = row(w, &FS[2], t2);
	int l;

	(void)E;
	for (l = 0; l < 32; l++)
		d[l] = i_prmt(a[l], b[l], s[l], I->a);
	put(w, I->fd, d, gm);
}

/* IABS d, a */
void
FX(fx_iabs)(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	u32 ta[32], d[32];
	const u32 *a;
	int l;

	(void)E;
	a = irow(w, &FS[0], ta);
	for (l = 0; l < 32; l++)
		d[l] = (i32)a[l] < 0 ? -a[l] : a[l];
	put(w, I->fd, d, gm);
}

/* SEL/FSEL d, a, b, p */
void
FX(fx_sel)(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	u32 ta[32], tb[32], d[32];
	const u32 *a, *b;
	u8 p[32];
	int l;

	(void)E;
	if (I->a) {
		a = frow(w, &FS[0], ta);
		b = frow(w, &FS[1], tb);
	} else {
		a = irow(w, &FS[0], ta);
		b = irow(w, &FS[1], tb);
	}
	prow(w, &FS[2], p);
	for (l = 0; l < 32; l++)
		d[l] = p[l] ? a[l] : b[l];
	put(w, I->fd, d, gm);
}

/* ---- f32, round to nearest, no .SAT ---- */

static inline u32
fl(u32 a, int ftz)
{
	return ftz && !(a & 0x7f800000u) ? a & 0x80000000u : a;
}

static inline u32
fout(float r, int ftz)
{
	u32 b;

	memcpy(&b, &r, 4);
	if ((b & 0x7fffffffu) > 0x7f800000u)
		b = F32_NAN;
	return fl(b, ftz);
}

static inline float
fo(u32 b)
{
	float f;

	memcpy(&f, &b, 4);
	return f;
}

/* FADD/FMUL/FFMA in a directed rounding mode (f32_op): the host's mode set once
 * for the 32 lanes, the operands through volatile variables so that no
 * operation moves across the switch. */
static void
farith_dir(int op, const u32 *a, const u32 *b, const u32 *c, u32 *d, int rnd)
{
	int l;

	fesetround(rnd == RND_RZ ? FE_TOWARDZERO : rnd == RND_RM ? FE_DOWNWARD : FE_UPWARD);
	for (l = 0; l < 32; l++) {
		volatile float va = fo(a[l]), vb = fo(b[l]), vc = fo(c[l]), r;
		float t;
		r = op == 0 ? va + vb : op == 1 ? va * vb : fmaf(va, vb, vc);
		t = r;
		memcpy(&d[l], &t, 4);
	}
	fesetround(FE_TONEAREST);
}

/* FADD/FMUL/FFMA[.rnd][.FTZ][.SAT]: I->e = 0 add, 1 mul, 2 fma; I->a =
 * the rounding, I->b = ftz, I->c = sat */
void
FX(fx_farith)(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	u32 ta[32], tb[32], tc[32], d[32];
	const u32 *a, *b, *c = tc;
	int l, ftz = I->b;

	a = frow(w, &FS[0], ta);
	b = frow(w, &FS[1], tb);
	if (I->e == 2)
		c = frow(w, &FS[2], tc);
	if (I->a != RND_RN || I->c) {
		if (I->e != 2)
			memset(tc, 0, sizeof tc);
		/* f32_op exactly: flush the inputs, compute, then f32_finish */
		if (ftz)
			for (l = 0; l < 32; l++) {
				ta[l] = f32_flush(a[l]);
				tb[l] = f32_flush(b[l]);
				tc[l] = f32_flush(c[l]);
			}
		else {
			memmove(ta, a, sizeof ta);
			memmove(tb, b, sizeof tb);
			memmove(tc, c, sizeof tc);
		}
		if (I->a != RND_RN)
			farith_dir(I->e, ta, tb, tc, d, I->a);
		else
			for (l = 0; l < 32; l++) {
				float x = fo(ta[l]), y = fo(tb[l]), z = fo(tc[l]);
				float r = I->e == 0 ? x + y : I->e == 1 ? x * y : fmaf(x, y, z);
				memcpy(&d[l], &r, 4);
			}
		for (l = 0; l < 32; l++) {
			u32 v = (d[l] & 0x7fffffffu) > 0x7f800000u ? F32_NAN : d[l];
			if (ftz)
				v = f32_flush(v);
			d[l] = I->c ? f32_sat(v) : v;
		}
		put(w, I->fd, d, gm);
		return;
	}
	if (ftz) {
		for (l = 0; l < 32; l++) {
			ta[l] = fl(a[l], 1);
			tb[l] = fl(b[l], 1);
			tc[l] = I->e == 2 ? fl(c[l], 1) : 0;
		}
		a = ta, b = tb, c = tc;
	}
	switch (I->e) {
	case 0:
		for (l = 0; l < 32; l++)
			d[l] = fout(fo(a[l]) + fo(b[l]), ftz);
		break;
	case 1:
		for (l = 0; l < 32; l++)
			d[l] = fout(fo(a[l]) * fo(b[l]), ftz);
		break;
	default:
		/* fmaf is exact: the x86-64-v3 clone's FMA instructions and
		   the library agree */
		for (l = 0; l < 32; l++)
			d[l] = fout(fmaf(fo(a[l]), fo(b[l]), fo(c[l])), ftz);
	}
	put(w, I->fd, d, gm);
}

/* MUFU.RCP/RSQ/SQRT/EX2/LG2/TANH d, a (f32; I->e = AP_*): f32_mufu
 * lane by lane, the opcode decided once */
void
FX(fx_mufu)(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	u32 ta[32], d[32];
	const u32 *a = frow(w, &FS[0], ta);
	int l;

	(void)E;
	for (l = 0; l < 32; l++)
		d[l] = gm >> l & 1 ? f32_mufu(I->e, a[l]) : 0;
	put(w, I->fd, d, gm);
}

/* FMNMX[.FTZ][.NAN] d, a, b, p: p ? min : max (I->b = ftz, I->d = NAN) */
void
FX(fx_fmnmx)(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	u32 ta[32], tb[32], d[32];
	const u32 *a = frow(w, &FS[0], ta), *b = frow(w, &FS[1], tb);
	u8 p[32];
	int l;

	(void)E;
	prow(w, &FS[2], p);
	for (l = 0; l < 32; l++)
		d[l] = p[l] ? f32_min(a[l], b[l], I->b, I->d) : f32_max(a[l], b[l], I->b, I->d);
	put(w, I->fd, d, gm);
}

/* FSETP.cmp[.FTZ].bop p, q, a, b, c: I->d = CMP_* (-2 F, -3 T), I->e =
 * the bop, I->b = ftz */
void
FX(fx_fsetp)(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	u32 ta[32], tb[32];
	const u32 *a, *b;
	u8 c[32], p[32], q[32];
	int r[32];
	int l, bo = I->e;

	(void)E;
	a = frow(w, &FS[0], ta);
	b = frow(w, &FS[1], tb);
	prow(w, &FS[2], c);
	for (l = 0; l < 32; l++)
		r[l] = I->d < 0 ? I->d == -3 : f32_cmp(I->d, a[l], b[l], I->b) != 0;
	for (l = 0; l < 32; l++) {
		int n = !r[l];
		p[l] = (u8)(bo == 0 ? r[l] & c[l] : bo == 1 ? r[l] | c[l] : r[l] ^ c[l]);
		q[l] = (u8)(bo == 0 ? n & c[l] : bo == 1 ? n | c[l] : n ^ c[l]);
	}
	putp(w, I->fp[0], p, gm);
	putp(w, I->fp[1], q, gm);
}

/* ---- f64, round to nearest (no fesetround: the host rounds to nearest) ---- */

/* The low and high rows of a 64-bit source (a register pair or a
 * constant), with |.| and - on bit 63 (dv). */
static inline void
drow(Warp *w, const FSrc *s, u32 *lo, u32 *hi)
{
	u32 m = s->abs ? 0x7fffffffu : ~0u, x = s->neg ? 0x80000000u : 0;
	const u32 *a, *b;
	int l;

	if (s->k == FS_R) {
		a = w->r[s->reg];
		b = w->r[s->reg + 1 < RZ ? s->reg + 1 : RZ];
		for (l = 0; l < 32; l++)
			lo[l] = a[l], hi[l] = (b[l] & m) ^ x;
	} else
		for (l = 0; l < 32; l++)
			lo[l] = s->v, hi[l] = (s->vh & m) ^ x;
}

static inline double
dof(u32 lo, u32 hi)
{
	u64 b = lo | (u64)hi << 32;
	double d;

	memcpy(&d, &b, 8);
	return d;
}

static inline void
dput(double r, u32 *lo, u32 *hi)
{
	u64 b;

	memcpy(&b, &r, 8);
	if ((b & ~(1ull << 63)) > 0x7ff0000000000000ull)
		b = F64_NAN;
	*lo = (u32)b;
	*hi = (u32)(b >> 32);
}

/* DADD/DMUL/DFMA d, a, b[, c]: I->e = 0 add, 1 mul, 2 fma */
void
FX(fx_darith)(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	u32 x[6][32], lo[32], hi[32];
	int l, d = I->fd;

	drow(w, &FS[0], x[0], x[1]);
	drow(w, &FS[1], x[2], x[3]);
	switch (I->e) {
	case 0:
		for (l = 0; l < 32; l++)
			dput(dof(x[0][l], x[1][l]) + dof(x[2][l], x[3][l]), &lo[l], &hi[l]);
		break;
	case 1:
		for (l = 0; l < 32; l++)
			dput(dof(x[0][l], x[1][l]) * dof(x[2][l], x[3][l]), &lo[l], &hi[l]);
		break;
	default:
		drow(w, &FS[2], x[4], x[5]);
		for (l = 0; l < 32; l++)   /* fma is exact (as fmaf above) */
			dput(fma_ieee(dof(x[0][l], x[1][l]), dof(x[2][l], x[3][l]), dof(x[4][l], x[5][l])),
			     &lo[l], &hi[l]);
	}
	put(w, d, lo, gm);
	if (d < RZ)
		put(w, d + 1, hi, gm);
}
