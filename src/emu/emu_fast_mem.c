/* emu_fast_mem.c -- the fast path's loads and stores (LDG/STG/LDS/STS,
 * 1 to 16 bytes): one vectorized range and alignment check when every
 * active lane's access falls in this CTA's shared memory or in one global
 * buffer (wbase), then plain copies; anything unusual (another CTA's
 * shared window, a scaled global index, misaligned or out-of-bounds
 * addresses) goes lane by lane through emu_mem, which reports it. */
#include <math.h>
#include <stdint.h>
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
	else if (I->d)
		for (l = 0; l < 32; l++)
			a[l] = ((u64)lo[l] | (hi ? (u64)hi[l] << 32 : 0)) * (u64)I->e + add;
	else   /* a 32-bit address wraps */
		for (l = 0; l < 32; l++)
			a[l] = (u32)((u64)lo[l] * (u64)I->e + add);
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

/* The whole-warp case: [R(.Xn)+imm][+UR] in shared memory or
 * [R.64+imm][+UR] in one global buffer with every active lane's access inside
 * and aligned.  Returns the host base and off[l], each lane's 32-bit byte
 * offset from it (a lane outside gm gets an active lane's), or NULL: the
 * lane by lane path then handles (and reports) what is unusual.  The
 * checks are on the 32-bit low words: the high words of a global base
 * agree, and each low word lies in the range that keeps the access in
 * the buffer (one unsigned max), so they vectorize.  *pat: the offsets
 * are consecutive words from *start (P_SEQ, a coalesced 32-bit access:
 * one copy; for a partial mask, the active lanes' words are, and the run
 * of 32 lies in the buffer), or so in each half-warp (P_SEQ16), or one
 * offset a half-warp (P_BC16): what a 16-wide block's rows read, B[k][x]
 * and A[y][k] (full masks). */
enum { P_SEQ = 1, P_SEQ16, P_BC16 };

static inline u8 *
wbase(Emu *E, Warp *w, const EInsn *I, u32 gm, u32 *restrict off, int *pat, u32 *start)
{
	u32 t[32], n = (u32)I->a, mx = 0, al = 0, cx = 0, ch = 0, cb = 0, L, span, rl, o0, o16, sh;
	const u32 *lo;
	u64 add = (u64)(FS[1].k == FS_UR ? w->ur[FS[1].reg] : 0) + FS[2].v;
	i64 rel, lmin, lmax, size;
	u8 *data;
	int l, f;

	/* a scaled index ([R.X4]: sm_80's shared arrays) only for shared
	   memory (32-bit bases) */
	if (FS[0].k != FS_R || !gm || (I->e & (I->e - 1)) || (I->e != 1 && I->c != MS_SHARED))
		return NULL;
	sh = __builtin_ctz((u32)I->e);
	lo = w->r[FS[0].reg];
	f = __builtin_ctz(gm);
	if (gm != ~0u) {
		for (l = 0; l < 32; l++)
			t[l] = gm >> l & 1 ? lo[l] : lo[f];
		lo = t;
	}
	if (I->c == MS_SHARED) {
		if (I->d)
			return NULL;
		rel = (i64)add;
		data = E->shared;
		size = (i64)E->shared_size;
	} else {
		const u32 *hi = w->r[FS[0].reg + 1 < RZ ? FS[0].reg + 1 : RZ];
		const Region *rg;
		u32 h = hi[f], x = 0;
		if (!I->d)
			return NULL;
		for (l = 0; l < 32; l++)
			x |= (hi[l] ^ h) & (0u - (gm >> l & 1));
		if (x || !(rg = gfind(E, ((u64)h << 32 | lo[f]) + add, n)))
			return NULL;
		rel = (i64)(((u64)h << 32) + add - rg->base);
		data = rg->data;
		size = (i64)rg->size;
	}
	if (size >> 32)
		return NULL;
	/* the low words (indexes) that keep (v << sh) + rel in [0, size - n] */
	lmin = rel >= 0 ? 0 : (-rel + (1 << sh) - 1) >> sh;
	lmax = size - n - rel;
	if (lmax < 0)
		return NULL;
	lmax >>= sh;
	if (lmax > 0xffffffffll)
		lmax = 0xffffffffll;
	if (lmax < lmin)
		return NULL;
	L = (u32)lmin;
	span = (u32)(lmax - lmin);
	rl = (u32)rel;
	o0 = (lo[0] << sh) + rl;
	o16 = (lo[16] << sh) + rl;
	/* the start of the run of consecutive words the first active lane
	   would be in (with partial masks: the inactive lanes' words too,
	   when they lie in the buffer) */
	*start = (lo[f] << sh) + rl - 4 * (u32)f;
	for (l = 0; l < 32; l++) {
		u32 v = lo[l], o = (v << sh) + rl, h = l < 16 ? o0 : o16;
		mx = MAX(mx, v - L);
		off[l] = o;
		al |= o;
		cx |= (o ^ (*start + 4 * (u32)l)) & (0u - (gm >> l & 1));
		ch |= o ^ (h + 4 * (u32)(l & 15));
		cb |= o ^ h;
	}
	if (!cx && (i64)((lo[f] << sh) + rl) - 4 * f >= 0 && (i64)*start + 128 <= size)
		*pat = P_SEQ;
	else
		*pat = gm != ~0u ? 0 : !ch ? P_SEQ16 : !cb ? P_BC16 : 0;
	return mx > span || (al & (n - 1)) ? NULL : data;
}

void
FX(fx_ld)(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	u64 a[32];
	u8 *p[32], *base;
	u32 n = (u32)I->a, k, g, off[32], v[4][32], st;
	int d = I->fd, l, pat;

	if ((base = wbase(E, w, I, gm, off, &pat, &st))) {
		if (n == 4 && pat) {
			if (pat == P_SEQ) {
				uintptr_t pa = (uintptr_t)(base + st);
				memcpy(v[0], base + st, 128);
				/* the next warps' words, likely next (a streaming
				   kernel; a prefetch never faults) */
				__builtin_prefetch((const void *)(pa + 512));
				__builtin_prefetch((const void *)(pa + 576));
			} else if (pat == P_SEQ16) {
				memcpy(v[0], base + off[0], 64);
				memcpy(v[0] + 16, base + off[16], 64);
			} else {
				u32 x, y;
				memcpy(&x, base + off[0], 4);
				memcpy(&y, base + off[16], 4);
				for (l = 0; l < 32; l++)
					v[0][l] = l < 16 ? x : y;
			}
			put(w, d, v[0], gm);
			return;
		}
		switch (n) {
		case 1:
			for (l = 0; l < 32; l++)
				v[0][l] = I->b ? (u32)(int8_t)base[off[l]] : base[off[l]];
			break;
		case 2:
			for (l = 0; l < 32; l++) {
				u16 h;
				memcpy(&h, base + off[l], 2);
				v[0][l] = I->b ? (u32)(int16_t)h : h;
			}
			break;
		case 4:   /* (AVX2's gather is slower here, on AMD Zen 4) */
			for (l = 0; l < 32; l++)
				memcpy(&v[0][l], base + off[l], 4);
			break;
		default:
			if (pat == P_BC16) {   /* one 8 or 16 bytes a half-warp (A[y][k..k+3]) */
				u32 x[2][4] = {{0}};
				int h;
				if (n == 16) {
					memcpy(x[0], base + off[0], 16);
					memcpy(x[1], base + off[16], 16);
				} else {
					memcpy(x[0], base + off[0], 8);
					memcpy(x[1], base + off[16], 8);
				}
				for (k = 0; k < 4; k++)
					for (h = 0; h < 2; h++)
						for (l = 0; l < 16; l++)
							v[k][16 * h + l] = x[h][k];
				break;
			}
			for (l = 0; l < 32; l++)
				for (k = 0; k < n / 4; k++)
					memcpy(&v[k][l], base + off[l] + 4 * k, 4);
		}
		for (k = 0; k < (n + 3) / 4 && d + (int)k < RZ; k++)
			put(w, d + (int)k, v[k], gm);
		return;
	}
	addrs(w, I, a);
	ptrs(E, w, I, a, p, gm, 0);
	for (g = gm; g; g &= g - 1) {
		u32 x[4] = {0};
		l = __builtin_ctz(g);
		switch (n) {
		case 1: x[0] = I->b ? (u32)(int8_t)p[l][0] : p[l][0]; break;
		case 2: memcpy(x, p[l], 2); if (I->b) x[0] = (u32)(int16_t)x[0]; break;
		case 4: memcpy(x, p[l], 4); break;
		case 8: memcpy(x, p[l], 8); break;
		default: memcpy(x, p[l], 16);
		}
		for (k = 0; k < (n + 3) / 4; k++)
			if (d + (int)k < RZ)
				w->r[d + k][l] = x[k];
	}
}

void
FX(fx_st)(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	u64 a[32];
	u8 *p[32], *base;
	u32 n = (u32)I->a, k, g, off[32], st;
	const u32 *v[4];
	int s = I->fd, l, pat;

	for (k = 0; k < 4; k++)
		v[k] = w->r[s + (int)k < RZ ? s + (int)k : RZ];
	if ((base = wbase(E, w, I, gm, off, &pat, &st))) {
		if (n == 4 && gm == ~0u && pat == P_SEQ) {
			memcpy(base + st, v[0], 128);
			return;
		}
		if (n == 4 && gm == ~0u) {
			for (l = 0; l < 32; l++)
				memcpy(base + off[l], &v[0][l], 4);
			return;
		}
		for (g = gm; g; g &= g - 1) {
			l = __builtin_ctz(g);
			switch (n) {
			case 1: base[off[l]] = (u8)v[0][l]; break;
			case 2: memcpy(base + off[l], &v[0][l], 2); break;
			default:
				for (k = 0; k < n / 4; k++)
					memcpy(base + off[l] + 4 * k, &v[k][l], 4);
			}
		}
		return;
	}
	addrs(w, I, a);
	ptrs(E, w, I, a, p, gm, 1);
	for (g = gm; g; g &= g - 1) {
		u32 x[4];
		l = __builtin_ctz(g);
		for (k = 0; k < 4; k++)
			x[k] = v[k][l];
		switch (n) {
		case 1: p[l][0] = (u8)x[0]; break;
		case 2: memcpy(p[l], x, 2); break;
		case 4: memcpy(p[l], x, 4); break;
		case 8: memcpy(p[l], x, 8); break;
		default: memcpy(p[l], x, 16);
		}
	}
}
