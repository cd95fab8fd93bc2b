/* emu_fast.c -- the emulator's fast handlers: the common integer, f32
 * and load/store forms executed a whole warp at a time.
 *
 * emu_fast_prep() runs once per launch, after the constant banks are
 * set: for each instruction whose form it knows it resolves the source
 * operands (a register row, a uniform register, or a constant: immediates
 * and c[bank][imm] fold to their value) into I->fs and sets I->fx.  The
 * handlers compute all 32 lanes into a local row (plain loops the
 * compiler vectorizes; inactive lanes compute garbage that is never
 * written) and merge the active lanes into the destination.  The
 * semantics are exactly those of the general handlers (emu_exec.c,
 * emu_float.c, emu_memops.c), which remain the reference for every other
 * form; tests/unit/test_emu_ops.c runs both on the same inputs. */
#include <math.h>
#include <string.h>

#include "emu/emu_int.h"
#include "ptx/arith.h"

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif

/* Hot handlers get an AVX2 clone where the compiler and host support it
 * (chosen once at load time; the code is the same C). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__linux__)
#define HOT __attribute__((target_clones("avx2", "default")))
#else
#define HOT
#endif

enum { FS_K, FS_R, FS_UR };   /* constant, vector register row, uniform register */

/* ---- operand rows ---- */

/* The 32 lanes of a source (raw bits; t is scratch for broadcasts). */
static inline const u32 *
row(Warp *w, const FSrc *s, u32 *t)
{
	u32 v;
	int l;

	if (s->k == FS_R)
		return w->r[s->reg];
	v = s->k == FS_UR ? w->ur[s->reg] : s->v;
	for (l = 0; l < 32; l++)
		t[l] = v;
	return t;
}

/* An integer source with ~ then - applied (e_iv); t is scratch. */
static inline const u32 *
irow(Warp *w, const FSrc *s, u32 *t)
{
	const u32 *a = row(w, s, t);
	u32 x = s->not ? ~0u : 0, n = s->neg;
	int l;

	if (!x && !n)
		return a;
	for (l = 0; l < 32; l++)
		t[l] = n ? -(a[l] ^ x) : a[l] ^ x;
	return t;
}

/* An f32 source with |.| then - applied (fv); t is scratch. */
static inline const u32 *
frow(Warp *w, const FSrc *s, u32 *t)
{
	const u32 *a = row(w, s, t);
	u32 m = s->abs ? 0x7fffffffu : ~0u, x = s->neg ? 0x80000000u : 0;
	int l;

	if (!s->abs && !s->neg)
		return a;
	for (l = 0; l < 32; l++)
		t[l] = (a[l] & m) ^ x;
	return t;
}

/* A predicate source (P or UP, with !) as 0/1 per lane. */
static inline void
prow(Warp *w, const FSrc *s, u8 *out)
{
	int l;

	if (s->k == FS_UR) {
		u8 v = (u8)((w->up >> s->reg & 1) ^ s->not);
		for (l = 0; l < 32; l++)
			out[l] = v;
		return;
	}
	for (l = 0; l < 32; l++)
		out[l] = (u8)((w->p[l] >> s->reg & 1) ^ s->not);
}

/* Merge the active lanes of v into register d (RZ: nothing). */
static inline void
put(Warp *w, int d, const u32 *v, u32 gm)
{
	u32 *r;
	int l;

	if (d >= RZ)
		return;
	r = w->r[d];
	if (gm == ~0u) {
		memcpy(r, v, 32 * sizeof *r);
		return;
	}
	for (l = 0; l < 32; l++)
		r[l] = gm >> l & 1 ? v[l] : r[l];
}

/* Merge predicate bits (P d; PT: nothing). */
static inline void
putp(Warp *w, int d, const u8 *v, u32 gm)
{
	int l;

	if (d >= 7)
		return;
	for (l = 0; l < 32; l++)
		if (gm >> l & 1)
			w->p[l] = (u8)((w->p[l] & ~(1u << d)) | (v[l] & 1u) << d);
}

/* ---- integer ---- */

#define FS I->fs

static void
f_mov(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	u32 t[32];

	(void)E;
	put(w, I->fd, row(w, &FS[0], t), gm);
}

/* S2R d, SR: I->a = 0..2 TID.X/Y/Z, 3..5 CTAID.X/Y/Z, 6 LANEID */
static void
f_s2r(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	u32 d[32], nx = E->ntid[0], ny = E->ntid[1], x, y, z;
	int l;

	if (I->a < 3) {
		/* the thread index of lane 0, then step through x, y, z */
		x = w->tid0 % nx;
		y = w->tid0 / nx % ny;
		z = w->tid0 / (nx * ny);
		for (l = 0; l < 32; l++) {
			d[l] = I->a == 0 ? x : I->a == 1 ? y : z;
			if (++x == nx) {
				x = 0;
				if (++y == ny)
					y = 0, z++;
			}
		}
	} else
		for (l = 0; l < 32; l++)
			d[l] = I->a == 6 ? (u32)l : w->ctaid[I->a - 3];
	put(w, I->fd, d, gm);
}

/* LDC[.64] d, c[bank][imm]: the value, folded (fs[0], fs[1]) */
static void
f_ldck(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	u32 t[32];

	(void)E;
	put(w, I->fd, row(w, &FS[0], t), gm);
	if (I->a == 8 && I->fd < RZ)
		put(w, I->fd + 1, row(w, &FS[1], t), gm);
}

/* S2UR URd, SR_CTAID.X/Y/Z (I->a = 0..2) */
static void
f_s2ur(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	(void)E;
	if (gm && I->fd < URZ)
		w->ur[I->fd] = w->ctaid[I->a];
}

/* ULDC[.64] URd, c[bank][imm] (folded) */
static void
f_uldc(Emu *E, Warp *w, const EInsn *I, u32 gm)
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
HOT static void
f_iadd3(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	u32 a[32], b[32], c[32], d[32];
	u8 p0[32], p1[32], c0[32], c1[32];
	u64 xa = FS[0].not ^ FS[0].neg ? 0xffffffffu : 0, xb = FS[1].not ^ FS[1].neg ? 0xffffffffu : 0,
	    xc = FS[2].not ^ FS[2].neg ? 0xffffffffu : 0, k = (u64)FS[0].neg + FS[1].neg + FS[2].neg;
	const u32 *ra = row(w, &FS[0], a), *rb = row(w, &FS[1], b), *rc = row(w, &FS[2], c);
	int l;

	(void)E;
	memset(c0, 0, 32);
	memset(c1, 0, 32);
	if (I->b > 0)
		prow(w, &FS[3], c0);
	if (I->b > 1)
		prow(w, &FS[4], c1);
	for (l = 0; l < 32; l++) {
		u64 s = ((u64)ra[l] ^ xa) + ((u64)rb[l] ^ xb) + ((u64)rc[l] ^ xc) + k + c0[l] + c1[l];
		d[l] = (u32)s;
		p0[l] = (u8)(s >> 32 & 1);
		p1[l] = (u8)(s >> 33 & 1);
	}
	put(w, I->fd, d, gm);
	if (I->a > 0)
		putp(w, I->fp[0], p0, gm);
	if (I->a > 1)
		putp(w, I->fp[1], p1, gm);
}

/* IMAD[.X][.U32] d, [p,] a, b, c [, cin] (low word) */
HOT static void
f_imad(Emu *E, Warp *w, const EInsn *I, u32 gm)
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
	for (l = 0; l < 32; l++) {
		u64 r = (u64)(a[l] * b[l]) + c[l] + ci[l];
		d[l] = (u32)r;
		co[l] = (u8)(r >> 32 & 1);
	}
	put(w, I->fd, d, gm);
	if (I->a)
		putp(w, I->fp[0], co, gm);
}

/* IMAD.WIDE[.U32] d, a, b, c (c: a register pair or a 64-bit constant) */
HOT static void
f_imad_wide(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	u32 ta[32], tb[32], lo[32], hi[32], t[32], t2[32];
	const u32 *a, *b, *cl, *ch;
	int l, s = !I->c, d = I->fd;

	(void)E;
	a = irow(w, &FS[0], ta);
	b = irow(w, &FS[1], tb);
	if (FS[2].k == FS_R) {
		cl = w->r[FS[2].reg];
		ch = FS[2].reg + 1 < RZ ? w->r[FS[2].reg + 1] : w->r[RZ];
	} else {
		for (l = 0; l < 32; l++)
			t[l] = FS[2].v, t2[l] = FS[3].v;
		cl = t, ch = t2;
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

/* VIADD d, a, b */
HOT static void
f_viadd(Emu *E, Warp *w, const EInsn *I, u32 gm)
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

/* IMNMX/VIMNMX[.U32] d, a, b, p (p: min); I->a = signed */
HOT static void
f_imnmx(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	u32 ta[32], tb[32], d[32];
	const u32 *a, *b;
	u8 p[32];
	int l;

	(void)E;
	a = irow(w, &FS[0], ta);
	b = irow(w, &FS[1], tb);
	prow(w, &FS[2], p);
	for (l = 0; l < 32; l++) {
		int lt = I->a ? (i32)a[l] < (i32)b[l] : a[l] < b[l];
		d[l] = p[l] ? (lt ? a[l] : b[l]) : (lt ? b[l] : a[l]);
	}
	put(w, I->fd, d, gm);
}

/* LOP3.LUT [p,] d, a, b, c, lut, q */
HOT static void
f_lop3(Emu *E, Warp *w, const EInsn *I, u32 gm)
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
HOT static void
f_shf(Emu *E, Warp *w, const EInsn *I, u32 gm)
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
HOT static void
f_lea(Emu *E, Warp *w, const EInsn *I, u32 gm)
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

/* ISETP.cmp[.U32].bop p, q, a, b, c (no .EX) */
HOT static void
f_isetp(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	u32 ta[32], tb[32];
	const u32 *a, *b;
	u8 c[32], p[32], q[32];
	int l, cmp = I->a, bo = I->b, sgn = !I->c;

	(void)E;
	a = irow(w, &FS[0], ta);
	b = irow(w, &FS[1], tb);
	prow(w, &FS[2], c);
	for (l = 0; l < 32; l++) {
		int lt = sgn ? (i32)a[l] < (i32)b[l] : a[l] < b[l], eq = a[l] == b[l], r;
		switch (cmp) {
		case CMP_EQ: r = eq; break;
		case CMP_NE: r = !eq; break;
		case CMP_LT: r = lt; break;
		case CMP_LE: r = lt || eq; break;
		case CMP_GT: r = !lt && !eq; break;
		default: r = !lt; break;   /* GE */
		}
		p[l] = (u8)(bo == 0 ? r & c[l] : bo == 1 ? r | c[l] : r ^ c[l]);
		r = !r;
		q[l] = (u8)(bo == 0 ? r & c[l] : bo == 1 ? r | c[l] : r ^ c[l]);
	}
	putp(w, I->fp[0], p, gm);
	putp(w, I->fp[1], q, gm);
}

/* SEL/FSEL d, a, b, p */
HOT static void
f_sel(Emu *E, Warp *w, const EInsn *I, u32 gm)
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

/* d = a*b + c, rounded once, for 32 lanes; with the FMA unit where the
 * host has one (the same result: fmaf is exact either way). */
static void
fma32(const u32 *a, const u32 *b, const u32 *c, u32 *d, int ftz)
{
	int l;

	for (l = 0; l < 32; l++)
		d[l] = fout(fmaf(fo(a[l]), fo(b[l]), fo(c[l])), ftz);
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("fma"))) static void
fma32_hw(const u32 *a, const u32 *b, const u32 *c, u32 *d, int ftz)
{
	int l;

	for (l = 0; l < 32; l++)
		d[l] = fout(__builtin_fmaf(fo(a[l]), fo(b[l]), fo(c[l])), ftz);
}
#define HAVE_FMA_HW 1
#endif

/* FADD/FMUL/FFMA: I->e = 0 add, 1 mul, 2 fma; I->b = ftz */
HOT static void
f_farith(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	u32 ta[32], tb[32], tc[32], d[32];
	const u32 *a, *b, *c = tc;
	int l, ftz = I->b;

	a = frow(w, &FS[0], ta);
	b = frow(w, &FS[1], tb);
	if (I->e == 2)
		c = frow(w, &FS[2], tc);
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
#ifdef HAVE_FMA_HW
		if (E->fma_hw) {
			fma32_hw(a, b, c, d, ftz);
			break;
		}
#endif
		fma32(a, b, c, d, ftz);
	}
	put(w, I->fd, d, gm);
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

static void
dfma32(const u32 (*x)[32], u32 *lo, u32 *hi)
{
	int l;

	for (l = 0; l < 32; l++)
		dput(fma(dof(x[0][l], x[1][l]), dof(x[2][l], x[3][l]), dof(x[4][l], x[5][l])), &lo[l], &hi[l]);
}

#ifdef HAVE_FMA_HW
__attribute__((target("fma"))) static void
dfma32_hw(const u32 (*x)[32], u32 *lo, u32 *hi)
{
	int l;

	for (l = 0; l < 32; l++)
		dput(__builtin_fma(dof(x[0][l], x[1][l]), dof(x[2][l], x[3][l]), dof(x[4][l], x[5][l])),
		     &lo[l], &hi[l]);
}
#endif

/* DADD/DMUL/DFMA d, a, b[, c]: I->e = 0 add, 1 mul, 2 fma */
HOT static void
f_darith(Emu *E, Warp *w, const EInsn *I, u32 gm)
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
#ifdef HAVE_FMA_HW
		if (E->fma_hw) {
			dfma32_hw((const u32 (*)[32])x, lo, hi);
			break;
		}
#endif
		dfma32((const u32 (*)[32])x, lo, hi);
	}
	put(w, d, lo, gm);
	if (d < RZ)
		put(w, d + 1, hi, gm);
}

/* ---- loads and stores (global and shared; 1 to 16 bytes) ----
 * I->a = size, I->b = sign-extend, I->c = space, I->d = 64-bit base;
 * fs[0] = the base register (a constant 0 when none), I->e = scale,
 * fs[1] = the +UR offset (constant 0 when none), fs[2].v = immediate. */

static inline void
addrs(Warp *w, const EInsn *I, u64 *restrict a)
{
	u32 t0[32], t1[32];
	const u32 *lo = row(w, &FS[0], t0), *hi = NULL;
	u64 add = (u64)(FS[1].k == FS_UR ? w->ur[FS[1].reg] : 0) + FS[2].v;
	int l;

	if (I->d && FS[0].k == FS_R)
		hi = FS[0].reg + 1 < RZ ? w->r[FS[0].reg + 1] : w->r[RZ];
	else if (I->d && FS[0].k == FS_UR)
		hi = row(w, &FS[3], t1);
	if (hi && I->e == 1)   /* the usual [Rn.64+imm] */
		for (l = 0; l < 32; l++)
			a[l] = ((u64)lo[l] | (u64)hi[l] << 32) + add;
	else
		for (l = 0; l < 32; l++)
			a[l] = ((u64)lo[l] | (hi ? (u64)hi[l] << 32 : 0)) * (u64)I->e + add;
}

/* The global region holding [a, a+n), or NULL. */
static inline const Region *
gfind(Emu *E, u64 a, u32 n)
{
	int i;

	for (i = 0; i < E->ngl; i++)
		if (a >= E->gl[i].base && a - E->gl[i].base + n <= E->gl[i].size)
			return &E->gl[i];
	return NULL;
}

/* Host pointers of the active lanes' accesses: global through a region
 * found once and reused while the lanes stay in it, shared (rank 0) at
 * once; anything else (another rank, misaligned, out of bounds: errors)
 * through emu_mem. */
static inline void
ptrs(Emu *E, Warp *w, const EInsn *I, const u64 *a, u8 **p, u32 gm, int wr)
{
	const Region *g = NULL;
	u32 n = (u32)I->a, x;

	for (x = gm; x; x &= x - 1) {
		int l = __builtin_ctz(x);
		u64 v = a[l];
		p[l] = NULL;
		if (!(v & (n - 1))) {
			if (I->c == MS_SHARED) {
				if (v + n <= E->shared_size)
					p[l] = E->shared + v;
			} else {
				if (!g || v < g->base || v - g->base + n > g->size)
					g = gfind(E, v, n);
				if (g)
					p[l] = g->data + (v - g->base);
			}
		}
		if (!p[l])
			p[l] = emu_mem(E, w, l, I->c, v, n, wr);
	}
}

/* The global region holding every lane's 32-bit access of a whole-warp
 * global instruction (aligned), or NULL (then lane by lane): one check
 * in signed 64-bit offsets, which vectorizes (addresses are far below
 * 2^63). */
static inline const Region *
wrange(Emu *E, const EInsn *I, const u64 *a)
{
	const Region *rg;
	i64 lim, bad = 0;
	int l;

	if (I->c != MS_GLOBAL || !(rg = gfind(E, a[0], 4)))
		return NULL;
	lim = (i64)rg->size - 4;
	for (l = 0; l < 32; l++) {
		i64 o = (i64)(a[l] - rg->base);
		bad |= (o < 0) | (o > lim) | (o & 3);
	}
	return bad ? NULL : rg;
}

HOT static void
f_ld(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Region *rg;
	u64 a[32];
	u8 *p[32];
	u32 n = (u32)I->a, k, g;
	int d = I->fd;

	addrs(w, I, a);
	if (n == 4 && gm == ~0u && d < RZ && (rg = wrange(E, I, a))) {
		u32 *r = w->r[d];
		const u8 *data = rg->data;
		u64 base = rg->base;
		int l;
		for (l = 0; l < 32; l++)
			memcpy(&r[l], data + (a[l] - base), 4);
		return;
	}
	ptrs(E, w, I, a, p, gm, 0);
	if (n == 4) {
		u32 *r = w->r[d];
		if (d < RZ)
			for (g = gm; g; g &= g - 1) {
				int l = __builtin_ctz(g);
				memcpy(&r[l], p[l], 4);
			}
		return;
	}
	for (g = gm; g; g &= g - 1) {
		int l = __builtin_ctz(g);
		u32 v[4] = {0};
		switch (n) {
		case 1: v[0] = I->b ? (u32)(int8_t)p[l][0] : p[l][0]; break;
		case 2: memcpy(v, p[l], 2); if (I->b) v[0] = (u32)(int16_t)v[0]; break;
		case 8: memcpy(v, p[l], 8); break;
		default: memcpy(v, p[l], 16);
		}
		for (k = 0; k < (n + 3) / 4; k++)
			if (d + (int)k < RZ)
				w->r[d + k][l] = v[k];
	}
}

HOT static void
f_st(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Region *rg;
	u64 a[32];
	u8 *p[32];
	u32 n = (u32)I->a, k, g;
	int s = I->fd;

	addrs(w, I, a);
	if (n == 4 && gm == ~0u && (rg = wrange(E, I, a))) {
		const u32 *r = w->r[s < RZ ? s : RZ];
		u8 *data = rg->data;
		u64 base = rg->base;
		int l;
		for (l = 0; l < 32; l++)
			memcpy(data + (a[l] - base), &r[l], 4);
		return;
	}
	ptrs(E, w, I, a, p, gm, 1);
	for (g = gm; g; g &= g - 1) {
		int l = __builtin_ctz(g);
		u32 v[4];
		for (k = 0; k < 4; k++)
			v[k] = s + (int)k >= RZ ? 0 : w->r[s + k][l];
		switch (n) {
		case 1: p[l][0] = (u8)v[0]; break;
		case 2: memcpy(p[l], v, 2); break;
		case 4: memcpy(p[l], v, 4); break;
		case 8: memcpy(p[l], v, 8); break;
		default: memcpy(p[l], v, 16);
		}
	}
}

/* ---- preparation ---- */

/* c[bank][imm] without an index register (or indexed by RZ/URZ)? */
static int
noidx(const Operand *o)
{
	return !o->rk || (o->rk == OPK_R && o->reg == RZ) || (o->rk == OPK_UR && o->reg == URZ);
}

/* Resolve o into s; 0 if the fast handlers cannot take it.  A constant
 * bank operand folds to its value (banks do not change during a launch). */
static int
fsrc(Emu *E, const Operand *o, FSrc *s, int fimm)
{
	memset(s, 0, sizeof *s);
	s->not = o->not;
	s->neg = o->neg;
	s->abs = o->abs;
	switch (o->kind) {
	case OPK_R:
		if (o->sel || o->x64)
			return 0;
		s->k = FS_R;
		s->reg = o->reg;
		return 1;
	case OPK_UR:
		if (o->sel || o->x64)
			return 0;
		s->k = o->reg == URZ ? FS_K : FS_UR;
		s->reg = o->reg;
		return 1;
	case OPK_IMM:
		s->v = (u32)o->imm;
		return 1;
	case OPK_FIMM:
		if (!fimm)
			return 0;
		s->v = bits_f32((float)o->f);
		return 1;
	case OPK_CB:
		if (!noidx(o) || o->bank >= 18 || !E->cb[o->bank] || o->imm + 4 > E->cbsize[o->bank])
			return 0;
		memcpy(&s->v, E->cb[o->bank] + o->imm, 4);
		return 1;
	case OPK_P: case OPK_UP:
		s->k = o->kind == OPK_UP ? FS_UR : FS_R;
		s->reg = o->reg;
		return 1;
	}
	return 0;
}

static int
isreg(const Operand *o)
{
	return o->kind == OPK_R && !o->sel && !o->x64 && !o->not && !o->neg && !o->abs;
}

static int
isp(const Operand *o)
{
	return o->kind == OPK_P && !o->not;
}

static int
prep_int(Emu *E, EInsn *I)
{
	const Insn *in = &I->in;
	const Operand *o = in->o;
	const char *op = in->op;
	int i, np, ok = 1;

	if (!strcmp(op, "MOV") && in->nops >= 2 && isreg(&o[0]) && (in->nops == 2 || o[2].kind == OPK_IMM)) {
		I->fd = (u8)o[0].reg;
		I->fx = f_mov;
		return fsrc(E, &o[1], &FS[0], 1) && o[1].kind != OPK_P && o[1].kind != OPK_UP;
	}
	if (!strcmp(op, "HFMA2") && I->d == 1) {
		/* ptxas's constant load HFMA2.MMA d, -RZ, RZ, hi, lo, folded by
		   emu_prep_float into I->e */
		FS[0].v = (u32)I->e;
		I->fd = (u8)o[0].reg;
		I->fx = f_mov;
		return isreg(&o[0]);
	}
	if (!strcmp(op, "S2R")) {
		static const char *sr[] = {"SR_TID.X", "SR_TID.Y", "SR_TID.Z", "SR_CTAID.X", "SR_CTAID.Y",
					   "SR_CTAID.Z", "SR_LANEID"};
		if (in->nops != 2 || !isreg(&o[0]) || o[1].kind != OPK_SR)
			return 0;
		for (i = 0; i < (int)NELEM(sr); i++)
			if (!strcmp(o[1].text, sr[i])) {
				I->a = i;
				I->fd = (u8)o[0].reg;
				I->fx = f_s2r;
				return 1;
			}
		return 0;
	}
	if (!strcmp(op, "S2UR")) {
		if (in->nops != 2 || o[0].kind != OPK_UR || o[1].kind != OPK_SR ||
		    strncmp(o[1].text, "SR_CTAID.", 9) || !o[1].text[9] || o[1].text[10] ||
		    o[1].text[9] < 'X' || o[1].text[9] > 'Z')
			return 0;
		I->a = o[1].text[9] - 'X';
		I->fd = (u8)o[0].reg;
		I->fx = f_s2ur;
		return 1;
	}
	if (!strcmp(op, "LDC")) {
		/* I->a = size, I->b = sign (emu_prep_mem) */
		const Operand *c = &o[1];
		u32 v[2] = {0};
		if (in->nops != 2 || c->kind != OPK_CB || !noidx(c) || c->bank >= 18 ||
		    !E->cb[c->bank] || (I->a != 4 && I->a != 8) || c->imm + I->a > E->cbsize[c->bank])
			return 0;
		memcpy(v, E->cb[c->bank] + c->imm, I->a);
		FS[0].v = v[0];
		FS[1].v = v[1];
		I->fd = (u8)o[0].reg;
		I->fx = f_ldck;
		return isreg(&o[0]);
	}
	if (!strcmp(op, "ULDC")) {
		const Operand *c = &o[1];
		if (in->nops != 2 || o[0].kind != OPK_UR || c->kind != OPK_CB || !noidx(c) || c->bank >= 18 ||
		    !E->cb[c->bank] || (I->a != 4 && I->a != 8) || c->imm + I->a > E->cbsize[c->bank])
			return 0;
		memcpy(&FS[0].v, E->cb[c->bank] + c->imm, 4);
		if (I->a == 8)
			memcpy(&FS[1].v, E->cb[c->bank] + c->imm + 4, 4);
		I->fd = (u8)o[0].reg;
		I->fx = f_uldc;
		return 1;
	}
	if (!strcmp(op, "IADD3")) {
		for (np = 0, i = 1; i < in->nops && e_isp(&o[i]); i++)
			np++;
		if (np > 2 || in->nops < 4 + np || in->nops > 6 + np || !isreg(&o[0]))
			return 0;
		I->a = np;
		I->b = in->nops - 4 - np;
		for (i = 0; i < np; i++)
			ok &= isp(&o[1 + i]), I->fp[i] = (u8)o[1 + i].reg;
		for (i = 0; i < 3; i++)
			ok &= fsrc(E, &o[1 + np + i], &FS[i], 0) && !e_isp(&o[1 + np + i]);
		for (i = 0; i < I->b; i++)
			ok &= e_isp(&o[4 + np + i]) && fsrc(E, &o[4 + np + i], &FS[3 + i], 0);
		I->fd = (u8)o[0].reg;
		I->fx = f_iadd3;
		return ok;
	}
	if (!strcmp(op, "IMAD")) {
		int wide = insn_has(in, "WIDE"), x = insn_has(in, "X");
		np = e_isp(&o[1]);
		if (insn_has(in, "HI") || in->nops < 4 + np || !isreg(&o[0]) || (wide && (np || x)))
			return 0;
		for (i = 0; i < 3; i++)
			ok &= fsrc(E, &o[1 + np + i], &FS[i], 0) && !e_isp(&o[1 + np + i]);
		I->fd = (u8)o[0].reg;
		if (wide) {
			const Operand *C = &o[3];
			I->c = insn_has(in, "U32");
			if (C->not || C->sel || C->x64 || (C->kind != OPK_R && C->kind != OPK_IMM && C->kind != OPK_CB))
				return 0;
			if (C->kind == OPK_IMM) {
				FS[2].v = (u32)C->imm;
				FS[3].v = (u32)(C->imm >> 32);
			} else if (C->kind == OPK_CB) {
				if (C->rk || C->bank >= 18 || !E->cb[C->bank] || C->imm + 8 > E->cbsize[C->bank])
					return 0;
				memcpy(&FS[3].v, E->cb[C->bank] + C->imm + 4, 4);
			}
			I->fx = f_imad_wide;
			return ok && in->nops == 4;
		}
		I->a = np;
		I->b = x && in->nops > 4 + np;
		if (np)
			ok &= isp(&o[1]), I->fp[0] = (u8)o[1].reg;
		if (I->b)
			ok &= e_isp(&o[4 + np]) && fsrc(E, &o[4 + np], &FS[3], 0);
		I->fx = f_imad;
		return ok && in->nops <= 5 + np;
	}
	if (!strcmp(op, "VIADD")) {
		if (in->nops != 3 || !isreg(&o[0]))
			return 0;
		ok &= fsrc(E, &o[1], &FS[0], 0) && fsrc(E, &o[2], &FS[1], 0) && !e_isp(&o[1]) && !e_isp(&o[2]);
		I->fd = (u8)o[0].reg;
		I->fx = f_viadd;
		return ok;
	}
	if (!strcmp(op, "IMNMX") || !strcmp(op, "VIMNMX")) {
		if (in->nops != 4 || !isreg(&o[0]) || !e_isp(&o[3]))
			return 0;
		ok &= fsrc(E, &o[1], &FS[0], 0) && fsrc(E, &o[2], &FS[1], 0) && !e_isp(&o[1]) && !e_isp(&o[2]);
		ok &= fsrc(E, &o[3], &FS[2], 0);
		I->a = !insn_has(in, "U32");
		I->fd = (u8)o[0].reg;
		I->fx = f_imnmx;
		return ok;
	}
	if (!strcmp(op, "LOP3")) {
		np = e_isp(&o[0]);
		if (!insn_has(in, "LUT") || in->nops < 5 + np || o[np + 4].kind != OPK_IMM || !isreg(&o[np]))
			return 0;
		if (np)
			ok &= isp(&o[0]), I->fp[0] = (u8)o[0].reg;
		for (i = 0; i < 3; i++)
			ok &= fsrc(E, &o[np + 1 + i], &FS[i], 0) && !e_isp(&o[np + 1 + i]);
		I->a = np;
		I->b = (int)(o[np + 4].imm & 0xff);
		I->fd = (u8)o[np].reg;
		I->fx = f_lop3;
		return ok;
	}
	if (!strcmp(op, "SHF")) {
		if (in->nops != 4 || !isreg(&o[0]))
			return 0;
		for (i = 0; i < 3; i++)
			ok &= fsrc(E, &o[1 + i], &FS[i], 0) && !e_isp(&o[1 + i]);
		I->fd = (u8)o[0].reg;
		I->fx = f_shf;   /* I->a..e as emu_prep set them */
		return ok;
	}
	if (!strcmp(op, "LEA")) {
		int hi = insn_has(in, "HI"), sx = insn_has(in, "SX32"), na, ns;
		np = e_isp(&o[1]);
		na = 1 + np;
		ns = na + 2 + (hi && !sx);
		if (ns >= in->nops || in->nops > ns + 2 || !isreg(&o[0]))
			return 0;
		if (np)
			ok &= isp(&o[1]), I->fp[0] = (u8)o[1].reg;
		ok &= fsrc(E, &o[na], &FS[0], 0) && fsrc(E, &o[na + 1], &FS[1], 0);
		if (hi && !sx)
			ok &= fsrc(E, &o[na + 2], &FS[2], 0);
		ok &= fsrc(E, &o[ns], &FS[3], 0);
		I->b = ns + 1 < in->nops;
		if (I->b)
			ok &= e_isp(&o[ns + 1]) && fsrc(E, &o[ns + 1], &FS[4], 0);
		I->a = np;
		I->c = hi;
		I->d = sx;
		I->fd = (u8)o[0].reg;
		I->fx = f_lea;
		return ok;
	}
	if (!strcmp(op, "ISETP")) {
		if (I->d || I->a < 0 || I->a > CMP_GE || in->nops != 5 || !isp(&o[0]) || !isp(&o[1]))
			return 0;
		I->fp[0] = (u8)o[0].reg;
		I->fp[1] = (u8)o[1].reg;
		ok &= fsrc(E, &o[2], &FS[0], 0) && fsrc(E, &o[3], &FS[1], 0) && !e_isp(&o[2]) && !e_isp(&o[3]);
		ok &= e_isp(&o[4]) && fsrc(E, &o[4], &FS[2], 0);
		I->fx = f_isetp;
		return ok;
	}
	if (!strcmp(op, "SEL") || !strcmp(op, "FSEL")) {
		if (in->nops != 4 || !isreg(&o[0]) || !e_isp(&o[3]))
			return 0;
		I->a = op[0] == 'F';
		ok &= fsrc(E, &o[1], &FS[0], I->a) && fsrc(E, &o[2], &FS[1], I->a) && fsrc(E, &o[3], &FS[2], 0);
		ok &= !e_isp(&o[1]) && !e_isp(&o[2]);
		if (I->a)
			ok &= !o[1].not && !o[2].not;
		I->fd = (u8)o[0].reg;
		I->fx = f_sel;
		return ok;
	}
	return -1;
}

/* A 64-bit f64 source (dv): a register pair or a constant. */
static int
dsrc(Emu *E, const Operand *o, FSrc *s)
{
	u64 v;

	memset(s, 0, sizeof *s);
	s->neg = o->neg;
	s->abs = o->abs;
	switch (o->kind) {
	case OPK_R:
		if (o->sel || o->x64 || o->not)
			return 0;
		s->k = FS_R;
		s->reg = o->reg;
		return 1;
	case OPK_IMM:   /* an integer-looking f64 immediate: its high word */
		v = o->imm << 32;
		break;
	case OPK_FIMM:
		v = o->imm;
		break;
	case OPK_CB:
		if (!noidx(o) || o->bank >= 18 || !E->cb[o->bank] || o->imm + 8 > E->cbsize[o->bank])
			return 0;
		memcpy(&v, E->cb[o->bank] + o->imm, 8);
		break;
	default:
		return 0;
	}
	s->v = (u32)v;
	s->vh = (u32)(v >> 32);
	return 1;
}

static int
prep_float(Emu *E, EInsn *I)
{
	const Insn *in = &I->in;
	const Operand *o = in->o;
	const char *op = in->op;
	int n, i, ok = 1;

	if (!strcmp(op, "DADD") || !strcmp(op, "DMUL") || !strcmp(op, "DFMA")) {
		I->e = op[1] == 'A' ? 0 : op[1] == 'M' ? 1 : 2;
		n = I->e == 2 ? 3 : 2;
		/* I->a = rounding (emu_prep_float) */
		if (I->a != RND_RN || in->nops != n + 1 || !isreg(&o[0]))
			return 0;
		for (i = 0; i < n; i++)
			ok &= dsrc(E, &o[1 + i], &FS[i]);
		I->fd = (u8)o[0].reg;
		I->fx = f_darith;
		return ok;
	}
	if (!strcmp(op, "FADD"))
		I->e = 0, n = 2;
	else if (!strcmp(op, "FMUL"))
		I->e = 1, n = 2;
	else if (!strcmp(op, "FFMA"))
		I->e = 2, n = 3;
	else
		return -1;
	/* I->a = rounding, b = ftz, c = sat (emu_prep_float) */
	if (I->a != RND_RN || I->c || in->nops != n + 1 || !isreg(&o[0]))
		return 0;
	for (i = 0; i < n; i++)
		ok &= fsrc(E, &o[1 + i], &FS[i], 1) && !e_isp(&o[1 + i]) && !o[1 + i].not;
	I->fd = (u8)o[0].reg;
	I->fx = f_farith;
	return ok;
}

static int
prep_mem(Emu *E, EInsn *I)
{
	const Insn *in = &I->in;
	const char *op = in->op;
	const Operand *m, *r;
	int ld;

	if (!strcmp(op, "LDG") || !strcmp(op, "LDS"))
		ld = 1;
	else if (!strcmp(op, "STG") || !strcmp(op, "STS"))
		ld = 0;
	else
		return -1;
	if (in->nops != 2 || (I->c != MS_GLOBAL && I->c != MS_SHARED))
		return 0;
	m = &in->o[ld];
	r = &in->o[!ld];
	/* desc[URn] (a cache policy) does not change the address (addr_of) */
	if (m->kind != OPK_MEM || !isreg(r) || (I->a & (I->a - 1)))
		return 0;
	/* the base: R (pair when 64-bit and not .U32), UR (pair likewise), none */
	I->d = I->d && !m->u32;
	if (m->rk == OPK_R) {
		FS[0].k = FS_R;
		FS[0].reg = m->reg;
	} else if (m->rk == OPK_UR) {
		FS[0].k = m->reg == URZ ? FS_K : FS_UR;
		FS[0].reg = m->reg;
		/* the high word of a UR pair */
		FS[3].k = m->reg == URZ || m->reg + 1 >= URZ ? FS_K : FS_UR;
		FS[3].reg = (u16)(m->reg + 1);
	} else if (m->rk)
		return 0;
	I->e = m->scale ? m->scale : 1;
	if (m->ur != URZ) {
		FS[1].k = FS_UR;
		FS[1].reg = m->ur;
	}
	FS[2].v = (u32)m->imm;
	if (m->imm >> 32)
		return 0;
	I->fd = (u8)r->reg;
	I->fx = ld ? f_ld : f_st;
	return 1;
}

/* Choose the fast handler of every instruction that has one. */
void
emu_fast_prep(Emu *E)
{
	u32 i;

#ifdef HAVE_FMA_HW
	E->fma_hw = __builtin_cpu_supports("fma");
#endif
	for (i = 0; i < E->ncode; i++) {
		EInsn *I = &E->code[i];
		EInsn save = *I;
		int r;
		if (!I->decoded || I->why || emu_is_control(I->fn) || (I->uni && strcmp(I->in.op, "ULDC") && strcmp(I->in.op, "S2UR")))
			continue;
		memset(I->fs, 0, sizeof I->fs);
		if ((r = prep_int(E, I)) < 0 && (r = prep_float(E, I)) < 0)
			r = prep_mem(E, I);
		if (r <= 0)
			*I = save;   /* the general handler, with its own facts */
		else
			I->fn = I->fx;   /* a..e now hold the fast handler's facts */
	}
}
