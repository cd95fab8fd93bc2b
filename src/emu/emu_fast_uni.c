/* emu_fast_uni.c -- the fast path's uniform datapath: UMOV, UIADD3,
 * UIMAD, ULOP3, USHF, ULEA, UISETP, USEL, UPLOP3, UIMNMX, R2UR (and
 * their vector twins' operand facts, emu_fast_prep.c).  A uniform
 * instruction runs once per warp (gm is its first active lane, or 0):
 * scalar code on UR/UP and constants, with the same arithmetic as the
 * vector handlers in emu_fast.c and the general ones in emu_exec.c. */
#include "emu/emu_fast.h"

/* ---- scalar operands ---- */

/* A uniform source's raw bits (UR or a constant; URZ is a constant 0). */
static inline u32
uv(const Warp *w, const FSrc *s)
{
	return s->k == FS_UR ? w->ur[s->reg] : s->v;
}

/* With ~ then - applied (e_iv). */
static inline u32
uiv(const Warp *w, const FSrc *s)
{
	u32 v = uv(w, s);

	if (s->not)
		v = ~v;
	return s->neg ? -v : v;
}

/* A uniform predicate source (UP, with !) as 0/1. */
static inline int
upv(const Warp *w, const FSrc *s)
{
	return (w->up >> s->reg & 1) ^ s->not;
}

static inline void
uset(Warp *w, int d, u32 v)
{
	if (d < URZ)
		w->ur[d] = v;
}

static inline void
usetp(Warp *w, int d, int v)
{
	if (d < 7)
		w->up = (u8)((w->up & ~(1u << d)) | (v & 1u) << d);
}

/* ---- handlers ---- */

void
fx_umov(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	(void)E;
	if (gm)
		uset(w, I->fd, uv(w, &FS[0]));
}

/* UIADD3[.X] d, [p0, [p1,]] a, b, c [, cin0 [, cin1]] (fx_iadd3's facts) */
void
fx_uiadd3(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	u64 s = 0, s01 = 0;
	u32 c;
	int i;

	(void)E;
	if (!gm)
		return;
	for (i = 0; i < 3; i++) {
		u32 v = uv(w, &FS[i]);
		if (FS[i].not)
			v = ~v;
		s += FS[i].neg ? (u64)(u32)~v + 1 : v;
		if (i == 1)
			s01 = s;
	}
	for (i = 0; i < I->b; i++)
		s += upv(w, &FS[3 + i]);
	uset(w, I->fd, (u32)s);
	c = emu_iadd3_carries(s01, s, I->a);
	for (i = 0; i < I->a; i++)
		usetp(w, I->fp[i], (int)(c >> i) & 1);
}

/* UIMAD[.X] d, [p,] a, b, c [, cin] (low word) */
void
fx_uimad(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	u64 r;

	(void)E;
	if (!gm)
		return;
	r = (u64)(uiv(w, &FS[0]) * uiv(w, &FS[1])) + uiv(w, &FS[2]) + (I->b ? upv(w, &FS[3]) : 0);
	uset(w, I->fd, (u32)r);
	if (I->a)
		usetp(w, I->fp[0], (int)(r >> 32) & 1);
}

/* ULOP3.LUT [p,] d, a, b, c, lut, q */
void
fx_ulop3(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	u32 v;

	(void)E;
	if (!gm)
		return;
	v = i_lop3(uiv(w, &FS[0]), uiv(w, &FS[1]), uiv(w, &FS[2]), (u32)I->b);
	uset(w, I->fd, v);
	if (I->a)
		usetp(w, I->fp[0], v != 0);
}

/* USHF.{L,R}.{U32,S32,U64,S64}[.HI][.W] d, lo, n, hi */
void
fx_ushf(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	u64 v, r;
	u32 k;

	(void)E;
	if (!gm)
		return;
	v = (u64)uv(w, &FS[2]) << 32 | uv(w, &FS[0]);
	k = uv(w, &FS[1]);
	k = I->c ? k & (I->e ? 63 : 31) : MIN(k, I->e ? 64u : 32u);
	if (I->a)
		r = k >= 64 ? 0 : v << k;
	else if (I->d)
		r = k >= 64 ? (u64)((i64)v >> 63) : (u64)((i64)v >> k);
	else
		r = k >= 64 ? 0 : v >> k;
	uset(w, I->fd, I->b ? (u32)(r >> 32) : (u32)r);
}

/* ULEA[.HI[.SX32]][.X] d, [p,] a, b, [c,] s [, cin] (fx_lea's facts) */
void
fx_ulea(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	u32 a, b, s, ci;
	u64 v, r;

	(void)E;
	if (!gm)
		return;
	a = uiv(w, &FS[0]);
	b = uv(w, &FS[1]) ^ (FS[1].not ? ~0u : 0);
	s = uv(w, &FS[3]) & 31;
	ci = I->b ? (u32)upv(w, &FS[4]) : 0;
	if (I->c) {
		u32 cc = I->d ? (u32)((i32)a >> 31) : uv(w, &FS[2]);
		v = ((u64)cc << 32 | a) >> (32 - s);
		v = s ? (u32)v : cc;
	} else
		v = (u32)((u64)a << s);
	if (FS[1].neg)
		r = (u64)(u32)v + (u64)(u32)~b + 1 + ci;
	else
		r = (u64)(u32)v + b + ci;
	uset(w, I->fd, (u32)r);
	if (I->a)
		usetp(w, I->fp[0], (int)(r >> 32) & 1);
}

/* UISETP.cmp[.U32].bop[.EX] p, q, a, b, c [, plo] */
void
fx_uisetp(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	u32 x, y;
	int r, c;

	(void)E;
	if (!gm)
		return;
	x = uiv(w, &FS[0]);
	y = uiv(w, &FS[1]);
	if (!I->c)
		x ^= 0x80000000u, y ^= 0x80000000u;
	c = upv(w, &FS[2]);
	r = I->d ? icmp_ex(I->a, x < y, x == y, upv(w, &FS[3])) : icmp(I->a, x < y, x == y);
	usetp(w, I->fp[0], bop(I->b, r, c));
	usetp(w, I->fp[1], bop(I->b, !r, c));
}

/* USEL d, a, b, p */
void
fx_usel(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const FSrc *s;
	u32 v;

	(void)E;
	if (!gm)
		return;
	s = upv(w, &FS[2]) ? &FS[0] : &FS[1];
	if (I->a) {   /* FSEL's |.| and - (fv) */
		v = uv(w, s);
		if (s->abs)
			v &= 0x7fffffffu;
		if (s->neg)
			v ^= 0x80000000u;
	} else
		v = uiv(w, s);
	uset(w, I->fd, v);
}

/* UPLOP3.LUT p, q, a, b, c, lut, lut2 */
void
fx_uplop3(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	int k;

	(void)E;
	if (!gm)
		return;
	k = upv(w, &FS[0]) << 2 | upv(w, &FS[1]) << 1 | upv(w, &FS[2]);
	usetp(w, I->fp[0], I->b >> k & 1);
	usetp(w, I->fp[1], I->c >> k & 1);
}

/* UIADD3's two-operand twin (VIADD's facts) */
void
fx_uviadd(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	(void)E;
	if (gm)
		uset(w, I->fd, uiv(w, &FS[0]) + uiv(w, &FS[1]));
}

/* UIMNMX[.U32] d, a, b, p (fx_imnmx's facts) */
void
fx_uimnmx(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	u32 a, b;
	int lt;

	(void)E;
	if (!gm)
		return;
	a = uiv(w, &FS[0]);
	b = uiv(w, &FS[1]);
	if (I->c) {
		a += b;
		b = uiv(w, &FS[3]);
	}
	lt = I->a ? (i32)a < (i32)b : a < b;
	uset(w, I->fd, upv(w, &FS[2]) ? (lt ? a : b) : (lt ? b : a));
}

/* R2UR URd, Ra: Ra of the first active lane */
void
fx_r2ur(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	(void)E;
	if (gm)
		uset(w, I->fd, FS[0].k == FS_R ? w->r[FS[0].reg][__builtin_ctz(gm)] : FS[0].v);
}
