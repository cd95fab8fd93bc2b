/* emu_fast_mem.c -- the fast path's loads and stores (LDG/STG/LDS/STS,
 * 1 to 16 bytes): addresses for the whole warp, then host pointers, with
 * one range check when every lane's 32-bit access falls in one global
 * buffer; anything unusual (another CTA's shared window, misaligned or
 * out-of-bounds addresses) goes through emu_mem, which reports it. */
#include <math.h>
#include <string.h>

#include "emu/emu_fast.h"
#include "ptx/arith.h"

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif

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

HOT void
fx_ld(Emu *E, Warp *w, const EInsn *I, u32 gm)
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

HOT void
fx_st(Emu *E, Warp *w, const EInsn *I, u32 gm)
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
