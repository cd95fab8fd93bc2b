/* emu_fast.h -- internals of the emulator's fast path (emu_fast*.c):
 * resolved operands as 32-lane rows, the merge of results into the active
 * lanes, and the fast handlers that emu_fast_prep.c chooses from. */
#ifndef OA_EMU_FAST_H
#define OA_EMU_FAST_H

#include <string.h>

#include "emu/emu_int.h"
#include "ptx/arith.h"

/* The fast handlers of emu_fast.c and emu_fast_mem.c are compiled twice:
 * as written, and again for x86-64-v3 hosts (AVX2, FMA, BMI2) by
 * emu_fast_v3.c, which includes both files with EMU_FAST_V3 defined, so
 * each handler FX(fx_name) is also fx_name_v3; emu_fast_prep gives an
 * instruction the _v3 twin when the host has those units.  The code is the
 * same C, and fmaf is exact either way.  (Not GCC's target_clones: its
 * ifunc resolvers need glibc, and the program is also linked with musl.) */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define EMU_HAVE_V3 1
#endif
#ifdef EMU_FAST_V3
#define FX(name) name##_v3
#else
#define FX(name) name
#endif
#define FAST_HANDLERS(X) \
	X(fx_mov) X(fx_s2r) X(fx_ldck) X(fx_s2ur) X(fx_uldc) X(fx_iadd3) X(fx_imad) \
	X(fx_imad_wide) X(fx_imad_hi) X(fx_viadd) X(fx_plop3) X(fx_shfl) X(fx_iabs) \
	X(fx_cs2r) X(fx_prmt) X(fx_imnmx) X(fx_lop3) X(fx_shf) X(fx_lea) X(fx_isetp) \
	X(fx_sel) X(fx_farith) X(fx_fsetp) X(fx_mufu) X(fx_fmnmx) X(fx_darith) \
	X(fx_ld) X(fx_st)

/* The host's FMA unit can be asked for (x86-64, GCC or clang): E->fma_hw
 * says whether it has one (the handlers themselves use fmaf/fma, which
 * the x86-64-v3 clones compile to FMA instructions). */
#if defined(__x86_64__) && defined(__GNUC__)
#define HAVE_FMA_HW 1
#endif

/* Set: emu_fast_prep chooses nothing, every instruction keeps its general
 * handler (tests/unit/test_fastpath.c compares the two). */
extern int emu_fast_off;
/* Set: the fast handlers as compiled for any x86-64, never their
 * x86-64-v3 twins (test_fastpath.c compares the two). */
extern int emu_fast_plain;

enum { FS_K, FS_R, FS_UR };   /* constant, vector register row, uniform register */
#define FS I->fs

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
	u8 x = s->not, r = (u8)s->reg;
	int l;

	if (s->k == FS_UR) {
		memset(out, (w->up >> r & 1) ^ x, 32);
		return;
	}
	for (l = 0; l < 32; l++)
		out[l] = (u8)(((w->p[l] >> r) & 1) ^ x);
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

/* Merge predicate bits v (0/1 per lane) into P d (PT: nothing); branch
 * free, so it vectorizes. */
static inline void
putp(Warp *w, int d, const u8 *v, u32 gm)
{
	u8 *p = w->p, bit;
	int l;

	if (d >= 7)
		return;
	bit = (u8)(1u << d);
	if (gm == ~0u) {
		for (l = 0; l < 32; l++)
			p[l] = (u8)((p[l] & ~bit) | (v[l] & 1) << d);
		return;
	}
	for (l = 0; l < 32; l++) {
		u8 m = (u8)(-(gm >> l & 1) & bit);
		p[l] = (u8)((p[l] & ~m) | ((v[l] & 1) << d & m));
	}
}

/* ---- scalar pieces shared by the vector and uniform handlers ---- */

/* a compare CMP_EQ..CMP_GE from a < b and a == b */
static inline int
icmp(int cmp, int lt, int eq)
{
	switch (cmp) {
	case CMP_EQ: return eq;
	case CMP_NE: return !eq;
	case CMP_LT: return lt;
	case CMP_LE: return lt || eq;
	case CMP_GT: return !lt && !eq;
	default: return !lt;   /* GE */
	}
}

/* the same for the high words of a 64-bit compare (ISETP.EX), plo the
 * result of the low words */
static inline int
icmp_ex(int cmp, int lt, int eq, int plo)
{
	switch (cmp) {
	case CMP_EQ: return eq && plo;
	case CMP_NE: return !eq || plo;
	case CMP_LT: case CMP_LE: return lt || (eq && plo);
	default: return (!lt && !eq) || (eq && plo);   /* GT, GE */
	}
}

/* AND 0, OR 1, XOR 2 */
static inline int
bop(int op, int r, int c)
{
	return op == 0 ? r & c : op == 1 ? r | c : r ^ c;
}

/* The fast handlers (emu_fast.c: registers and arithmetic; emu_fast_mem.c:
 * loads and stores); their facts in I->a.. and I->fs are emu_fast_prep.c's. */
#define FAST_DECL(n) void n(Emu *E, Warp *w, const EInsn *I, u32 gm); \
	void n##_v3(Emu *E, Warp *w, const EInsn *I, u32 gm);
FAST_HANDLERS(FAST_DECL)
#undef FAST_DECL
/* the uniform datapath (emu_fast_uni.c): once per warp when gm != 0 */
void fx_umov(Emu *E, Warp *w, const EInsn *I, u32 gm);
void fx_uiadd3(Emu *E, Warp *w, const EInsn *I, u32 gm);
void fx_uimad(Emu *E, Warp *w, const EInsn *I, u32 gm);
void fx_ulop3(Emu *E, Warp *w, const EInsn *I, u32 gm);
void fx_ushf(Emu *E, Warp *w, const EInsn *I, u32 gm);
void fx_ulea(Emu *E, Warp *w, const EInsn *I, u32 gm);
void fx_uisetp(Emu *E, Warp *w, const EInsn *I, u32 gm);
void fx_usel(Emu *E, Warp *w, const EInsn *I, u32 gm);
void fx_uplop3(Emu *E, Warp *w, const EInsn *I, u32 gm);
void fx_uviadd(Emu *E, Warp *w, const EInsn *I, u32 gm);
void fx_uimnmx(Emu *E, Warp *w, const EInsn *I, u32 gm);
void fx_r2ur(Emu *E, Warp *w, const EInsn *I, u32 gm);

#endif
