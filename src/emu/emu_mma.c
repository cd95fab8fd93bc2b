/* emu_mma.c -- the warp-wide matrix instructions of the SASS emulator:
 * HMMA (f16, bf16, tf32 inputs; f32 or f16 accumulators), IMMA (s8/u8),
 * DMMA (f64), LDSM (ldmatrix) and MOVM (movmatrix).
 *
 * Register fragments are PTX's mma.sync fragments (the SASS operands are
 * the same registers in the same order): lane l = 4g + t holds rows g and
 * g+8 of A and C, column g of B.  Arithmetic is the PTX interpreter's
 * model (interp_warp.c): exact products, the sum of a row of products
 * plus the accumulator in double, rounded once.
 *
 * HGMMA (sm_90a wgmma) follows interp_wgmma.c: warp w of a warpgroup owns
 * rows 16w..16w+15 of A and D, so each warp computes its part when it
 * issues; A and B come from shared memory through K-major matrix
 * descriptors in UR pairs (gdesc[URa]: A in URa:URa+1, B in URa+2:URa+3);
 * the copy completes at issue, so WARPGROUP.ARRIVE/DEPBAR are no-ops. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "emu/emu_int.h"
#include "ptx/arith.h"
#include "run/mma_desc.h"

enum { M_H, M_BH, M_TF, M_D, M_S8, M_U8 };

typedef struct {
	int m, n, k, at, bt, f16acc, sat;
} Shape;

static void
a_pos(const Shape *s, int l, int i, int *r, int *c)
{
	int g = l >> 2, t = l & 3;

	switch (s->at) {
	case M_H: case M_BH:
		if (s->k == 16)
			*r = g + 8 * ((i >> 1) & 1), *c = t * 2 + (i & 1) + 8 * (i >> 2);
		else
			*r = g + 8 * (i >> 1), *c = t * 2 + (i & 1);
		return;
	case M_TF: case M_D:
		if (s->m == 8)
			*r = g, *c = t;
		else
			*r = g + 8 * (i & 1), *c = t + 4 * (i >> 1);
		return;
	default:
		if (s->k == 32)
			*r = g + 8 * ((i >> 2) & 1), *c = t * 4 + (i & 3) + 16 * (i >> 3);
		else
			*r = g + 8 * (i >> 2), *c = t * 4 + (i & 3);
		return;
	}
}

static void
b_pos(const Shape *s, int l, int i, int *r, int *c)
{
	int g = l >> 2, t = l & 3;

	*c = g;
	switch (s->at) {
	case M_H: case M_BH: *r = t * 2 + (i & 1) + 8 * (i >> 1); return;
	case M_TF: case M_D: *r = t + 4 * i; return;
	default: *r = t * 4 + (i & 3) + 16 * (i >> 2); return;
	}
}

static void
c_pos(int l, int i, int *r, int *c)
{
	*r = (l >> 2) + 8 * (i >> 1);
	*c = (l & 3) * 2 + (i & 1);
}

static int
per_reg(int t)
{
	return t == M_H || t == M_BH ? 2 : t == M_S8 || t == M_U8 ? 4 : 1;
}

/* Element j of a register (or of a register pair for f64). */
static double
elem(int t, u64 reg, int j)
{
	switch (t) {
	case M_H: return widen((reg >> (16 * j)) & 0xffff, FF_F16);
	case M_BH: return widen((reg >> (16 * j)) & 0xffff, FF_BF16);
	case M_TF: return widen((u32)reg & 0xffffe000u, FF_F32);
	case M_D: return f64_of(reg);
	case M_S8: return (double)(int8_t)(reg >> (8 * j));
	default: return (double)(u8)(reg >> (8 * j));
	}
}

static u64
reg_at(Warp *w, int l, int r, int wide)
{
	u64 v = r >= RZ ? 0 : w->r[r][l];

	if (wide)
		v |= (u64)(r + 1 >= RZ ? 0 : w->r[r + 1][l]) << 32;
	return v;
}

static int
shape_of(Emu *E, const EInsn *I, Shape *s)
{
	const Insn *in = &I->in;
	const char *sh = in->nmods ? in->mods[0] : "";

	memset(s, 0, sizeof *s);
	if (!strcmp(in->op, "DMMA")) {
		if (strcmp(sh, "884") && strcmp(sh, "8x8x4"))
			return -1;
		s->m = 8, s->n = 8, s->k = 4, s->at = s->bt = M_D;
		return 0;
	}
	if (!strcmp(in->op, "IMMA")) {
		if (!strcmp(sh, "16832")) s->m = 16, s->n = 8, s->k = 32;
		else if (!strcmp(sh, "16816")) s->m = 16, s->n = 8, s->k = 16;
		else return -1;
		if (in->nmods < 3)
			return -1;
		s->at = !strcmp(in->mods[1], "U8") ? M_U8 : !strcmp(in->mods[1], "S8") ? M_S8 : -1;
		s->bt = !strcmp(in->mods[2], "U8") ? M_U8 : !strcmp(in->mods[2], "S8") ? M_S8 : -1;
		if (s->at < 0 || s->bt < 0)
			return -1;
		s->sat = insn_has(in, "SAT");
		return 0;
	}
	if (!strcmp(sh, "16816")) s->m = 16, s->n = 8, s->k = 16;
	else if (!strcmp(sh, "1688")) s->m = 16, s->n = 8, s->k = 8;
	else if (!strcmp(sh, "1684")) s->m = 16, s->n = 8, s->k = 4;
	else return -1;
	s->at = insn_has(in, "TF32") ? M_TF : insn_has(in, "BF16") ? M_BH : M_H;
	if (s->at == M_TF && s->k == 16)
		return -1;
	if (s->at != M_TF && s->k == 4)
		return -1;
	s->bt = s->at;
	s->f16acc = !insn_has(in, "F32");
	(void)E;
	return 0;
}

/* HMMA/IMMA/DMMA.shape... d, a, b, c (the whole warp) */
static void
h_mma(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Operand *o = I->in.o;
	Shape s;
	double A[16][32], B[32][8], C[16][8];
	int l, i, r, c, k, na, nb, nc, epa, isint, isd;

	if (shape_of(E, I, &s) < 0 || I->in.nops < 4)
		eunsup(E, I, NULL);
	if (gm != w->live || w->live != 0xffffffffu)
		eerr(E, "%s at 0x%x needs the whole warp (active lanes 0x%08x)", I->in.op, I->pc, gm);
	isint = s.at == M_S8 || s.at == M_U8;
	isd = s.at == M_D;
	epa = per_reg(s.at);
	na = s.m * s.k / 32, nb = s.k * s.n / 32, nc = s.m * s.n / 32;
	for (l = 0; l < 32; l++) {
		for (i = 0; i < na; i++) {
			a_pos(&s, l, i, &r, &c);
			A[r][c] = elem(s.at, reg_at(w, l, o[1].reg == RZ ? RZ : o[1].reg + (isd ? 0 : i / epa), isd),
				       i % epa);
		}
		for (i = 0; i < nb; i++) {
			b_pos(&s, l, i, &r, &c);
			B[r][c] = elem(s.bt, reg_at(w, l, o[2].reg == RZ ? RZ : o[2].reg + (isd ? 0 : i / epa), isd),
				       i % epa);
		}
		for (i = 0; i < nc; i++) {
			int cr = o[3].reg;
			c_pos(l, i, &r, &c);
			if (cr == RZ)
				C[r][c] = 0;
			else if (s.f16acc && !isint && !isd)
				C[r][c] = widen((reg_at(w, l, cr + i / 2, 0) >> (16 * (i & 1))) & 0xffff, FF_F16);
			else if (isd)
				C[r][c] = f64_of(reg_at(w, l, cr + 2 * i, 1));
			else if (isint)
				C[r][c] = (double)(i32)reg_at(w, l, cr + i, 0);
			else
				C[r][c] = f32_of((u32)reg_at(w, l, cr + i, 0));
		}
	}
	for (l = 0; l < 32; l++) {
		u32 packed = 0;
		for (i = 0; i < nc; i++) {
			double sum;
			int d = o[0].reg;
			c_pos(l, i, &r, &c);
			if (isint) {
				i64 acc = (i64)C[r][c];
				for (k = 0; k < s.k; k++)
					acc += (i64)A[r][k] * (i64)B[k][c];
				if (s.sat)      /* .SAT: the exact sum clamped to s32 */
					acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
				e_setr(w, l, d == RZ ? RZ : d + i, (u32)acc);
				continue;
			}
			if (isd) {
				u64 acc = bits_f64(C[r][c]);
				for (k = 0; k < s.k; k++)
					acc = f64_fma(bits_f64(A[r][k]), bits_f64(B[k][c]), acc, RND_RN);
				if (d != RZ) {
					e_setr(w, l, d + 2 * i, (u32)acc);
					e_setr(w, l, d + 2 * i + 1, (u32)(acc >> 32));
				}
				continue;
			}
			sum = C[r][c];
			for (k = 0; k < s.k; k++)
				sum += A[r][k] * B[k][c];
			if (s.f16acc) {
				packed |= (u32)round_to(sum, FF_F16, RND_RN, 0) << (16 * (i & 1));
				if (i & 1)
					e_setr(w, l, d == RZ ? RZ : d + i / 2, packed), packed = 0;
			} else
				e_setr(w, l, d == RZ ? RZ : d + i, (u32)round_to(sum, FF_F32, RND_RN, 0));
		}
	}
}

/* LDSM.16.{M88,MT88}[.1|.2|.4] d, [addr]: lanes 8i..8i+7 give the row
 * addresses of matrix i; lane l = 4g + t gets row g, columns 2t, 2t+1 of
 * each matrix (MT88: the transposed matrix). */
static void
h_ldsm(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Insn *in = &I->in;
	int n = insn_has(in, "4") ? 4 : insn_has(in, "2") ? 2 : 1, tr = insn_has(in, "MT88");
	int l, i, j;
	u64 row[32];
	u32 out[32][4];

	if (!insn_has(in, "16") || (!tr && !insn_has(in, "M88")) || in->nops != 2 || in->o[1].kind != OPK_MEM)
		eunsup(E, I, NULL);
	if (gm != 0xffffffffu)
		eerr(E, "LDSM at 0x%x needs the whole warp (active lanes 0x%08x)", I->pc, gm);
	for (l = 0; l < 8 * n; l++) {
		const Operand *m = &in->o[1];
		u64 a = (m->rk == OPK_R ? (m->reg == RZ ? 0 : w->r[m->reg][l]) : m->rk == OPK_UR ? w->ur[m->reg] : 0);
		row[l] = a * m->scale + (m->ur != URZ ? w->ur[m->ur] : 0) + m->imm;
	}
	for (i = 0; i < n; i++)
		for (l = 0; l < 32; l++) {
			int g = l >> 2, t = l & 3;
			u16 h[2];
			for (j = 0; j < 2; j++) {
				int r = tr ? 2 * t + j : g, c = tr ? g : 2 * t + j;
				memcpy(&h[j], emu_mem(E, w, 8 * i + r, MS_SHARED, row[8 * i + r] + 2 * c, 2, 0), 2);
			}
			out[l][i] = h[0] | (u32)h[1] << 16;
		}
	for (l = 0; l < 32; l++)
		for (i = 0; i < n; i++)
			if (in->o[0].reg != RZ)
				e_setr(w, l, in->o[0].reg + i, out[l][i]);
}

/* STSM.16.{M88,MT88}[.2|.4] [a], Rq: LDSM's mirror, matrix i from register
 * Rq+i of every lane, row r stored at the address of lane 8i + r. */
static void
h_stsm(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Insn *in = &I->in;
	const Operand *m = &in->o[0];
	int n = insn_has(in, "4") ? 4 : insn_has(in, "2") ? 2 : 1, tr = insn_has(in, "MT88");
	int l, i, j;
	u64 row[32];

	if (!insn_has(in, "16") || (!tr && !insn_has(in, "M88")) || in->nops != 2 || m->kind != OPK_MEM ||
	    in->o[1].kind != OPK_R || in->o[1].reg + n > RZ)
		eunsup(E, I, NULL);
	if (gm != 0xffffffffu)
		eerr(E, "STSM at 0x%x needs the whole warp (active lanes 0x%08x)", I->pc, gm);
	for (l = 0; l < 8 * n; l++) {
		u64 a = (m->rk == OPK_R ? (m->reg == RZ ? 0 : w->r[m->reg][l]) : m->rk == OPK_UR ? w->ur[m->reg] : 0);
		row[l] = a * m->scale + (m->ur != URZ ? w->ur[m->ur] : 0) + m->imm;
	}
	for (i = 0; i < n; i++)
		for (l = 0; l < 32; l++) {
			int g = l >> 2, t = l & 3;
			u32 v = in->o[1].reg == RZ ? 0 : (u32)reg_at(w, l, in->o[1].reg + i, 0);
			for (j = 0; j < 2; j++) {
				int r = tr ? 2 * t + j : g, c = tr ? g : 2 * t + j;
				u16 h = (u16)(v >> (16 * j));
				memcpy(emu_mem(E, w, 8 * i + r, MS_SHARED, row[8 * i + r] + 2 * c, 2, 1), &h, 2);
			}
		}
}

/* MOVM.16.MT88 d, a: transpose an 8x8 matrix of 16-bit elements held as
 * mma fragments (lane 4g + t: row g, columns 2t, 2t+1). */
static void
h_movm(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Insn *in = &I->in;
	u32 src[32], out[32];
	int l, j;

	if (!insn_has(in, "MT88") || in->nops != 2)
		eunsup(E, I, NULL);
	if (gm != 0xffffffffu)
		eerr(E, "MOVM at 0x%x needs the whole warp (active lanes 0x%08x)", I->pc, gm);
	for (l = 0; l < 32; l++)
		src[l] = e_opr(E, w, l, &in->o[1]);
	for (l = 0; l < 32; l++) {
		int g = l >> 2, t = l & 3;
		out[l] = 0;
		for (j = 0; j < 2; j++) {
			int r = 2 * t + j, c = g;   /* source element (r, c) */
			u32 v = src[4 * r + c / 2] >> (16 * (c & 1)) & 0xffff;
			out[l] |= v << (16 * j);
		}
	}
	for (l = 0; l < 32; l++)
		e_wr(w, l, &in->o[0], out[l]);
}

/* IGMMA's element types, past arith.h's FF_ formats */
enum { GF_S8 = 100, GF_U8 };

/* The value of an element of format ff (an FF_ format, GF_S8 or GF_U8). */
static double
gval(int ff, u64 v)
{
	switch (ff) {
	case GF_S8: return (double)(int8_t)v;
	case GF_U8: return (double)(u8)v;
	case FF_TF32: return widen((u32)v & 0xffffe000u, FF_F32);
	}
	return widen(v, ff);
}

/* Element (r, k) of a matrix through its descriptor (src/run/mma_desc.c;
 * mn: MN-major, .tnspA/.tnspB). */
static double
gelem(Emu *E, Warp *w, u64 desc, int mn, int ff, int es, int r, int k)
{
	u64 v = 0;
	u64 a = mma_desc_addr(desc, mn, r, k, es) | (u64)w->rank << 24;

	memcpy(&v, emu_mem(E, w, 0, MS_SHARED, a, es, 0), es);
	return gval(ff, v);
}

/* Element (r, c) of this warp's 16 rows of A from element i of lane l's
 * register fragment (mma.sync's A layout, as interp_wgmma.c's a_reg_pos):
 * es = element bytes. */
static void
hg_apos(int es, int l, int i, int *r, int *c)
{
	int g = l >> 2, t = l & 3;

	if (es == 2) {
		*r = g + 8 * ((i >> 1) & 1);
		*c = t * 2 + (i & 1) + 8 * (i >> 2);
	} else if (es == 4) {
		*r = g + 8 * (i & 1);
		*c = t + 4 * (i >> 1);
	} else {
		*r = g + 8 * ((i >> 2) & 1);
		*c = t * 4 + (i & 3) + 16 * (i >> 3);
	}
}

/* HGMMA.64xNxK.{F32,F16}[.BF16|.TF32] d, [Ra,] gdesc[URa][.negA][.negB][.tnspA][.tnspB], c[, UPs][, gsb0],
 * QGMMA.64xNx32.{F32,F16}.{E4M3,E5M2}.{E4M3,E5M2} (A's type, B's type)
 * and IGMMA.64xNx32.{S8,U8}.{S8,U8}[.SAT] (A's type, B's type; s32
 * accumulators: the exact sum wraps to 32 bits, or .SAT clamps it)
 * (Ra: A from registers, then gdesc's first pair is unused; c: the
 * accumulator registers, RZ for zero; UPs: scale-d, false = c ignored) */
static void
h_hgmma(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Insn *in = &I->in;
	const Operand *o = in->o;
	int m = 0, n = 0, k = 0, ff = FF_F16, fb, es = 2, f16acc, l, i, j, kk, wg = w->id % 4, ur, ra = -1;
	int no, scale_d = 1, sa = 1, sb = 1, ta, tb;   /* sa, sb: .negA, .negB; ta, tb: .tnspA, .tnspB */
	int isint = 0, sat = 0;
	double A[16][32], B[256][32];
	u64 adesc, bdesc;

	Operand ops[4];

	no = in->nops;
	if (no && o[no - 1].kind == OPK_SB)   /* gsb0: when the group completes, not what */
		no--;
	if (no >= 4 && o[no - 1].kind == OPK_UP) {
		scale_d = ((w->up >> o[no - 1].reg & 1) ^ o[no - 1].not) != 0;
		no--;
	}
	if (no == 3 && o[0].kind == OPK_R && o[0].reg == RZ && o[2].kind == OPK_R && o[2].reg == RZ)
		return;   /* ptxas's no-op HGMMA ... RZ, gdesc[URZ], RZ, !UPT, gsb0 (closes a commit group) */
	if (no == 4 && o[1].kind == OPK_R && !o[1].neg && !o[1].not && !o[1].sel) {
		ra = o[1].reg;   /* A from registers: d, gdesc, c as below */
		ops[0] = o[0], ops[1] = o[2], ops[2] = o[3];
		o = ops;
		no--;
	}
	if (!in->nmods || sscanf(in->mods[0], "%dx%dx%d", &m, &n, &k) != 3 || m != 64 || n < 8 || n > 256 ||
	    n % 8 || no != 3 || o[0].kind != OPK_R || o[1].kind != OPK_MEM || o[1].desc > 59 ||
	    o[2].kind != OPK_R || ra + 3 >= RZ)
		eunsup(E, I, NULL);
	if (insn_has(in, "BF16")) ff = FF_BF16;
	else if (insn_has(in, "TF32")) ff = FF_TF32, es = 4;
	fb = ff;
	if (!strcmp(in->op, "QGMMA")) {   /* mods: shape, D type, A type, B type */
		if (in->nmods != 4)
			eunsup(E, I, NULL);
		ff = !strcmp(in->mods[2], "E4M3") ? FF_E4M3 : FF_E5M2;
		fb = !strcmp(in->mods[3], "E4M3") ? FF_E4M3 : FF_E5M2;
		es = 1;
	} else if (!strcmp(in->op, "IGMMA")) {   /* mods: shape, A type, B type[, SAT] */
		if (in->nmods != 3 + insn_has(in, "SAT"))
			eunsup(E, I, NULL);
		ff = !strcmp(in->mods[1], "S8") ? GF_S8 : GF_U8;
		fb = !strcmp(in->mods[2], "S8") ? GF_S8 : GF_U8;
		es = 1, isint = 1, sat = insn_has(in, "SAT");
	}
	f16acc = !isint && !insn_has(in, "F32");
	if (k * es != 32 || k > 32)
		eunsup(E, I, "shape and type do not give 32-byte K slices");
	ta = strstr(o[1].text, ".tnspA") != NULL;
	tb = strstr(o[1].text, ".tnspB") != NULL;
	if ((ta && ra >= 0) || ((ta || tb) && es != 2))
		eunsup(E, I, "transposition of an operand that is not a 16-bit matrix in shared memory");
	if (strstr(o[1].text, ".negA"))
		sa = -1;
	if (strstr(o[1].text, ".negB"))
		sb = -1;
	if (gm != 0xffffffffu)
		eerr(E, "HGMMA at 0x%x needs the whole warp (active lanes 0x%08x)", I->pc, gm);
	ur = o[1].desc;
	adesc = w->ur[ur] | (u64)w->ur[ur + 1] << 32;
	bdesc = w->ur[ur + 2] | (u64)w->ur[ur + 3] << 32;
	if (ra >= 0)
		for (l = 0; l < 32; l++)
			for (i = 0; i < k / 2; i++) {
				int r, c;
				u64 v = reg_at(w, l, ra + i * es / 4, 0) >> (8 * (i * es % 4));
				hg_apos(es, l, i, &r, &c);
				v &= es == 4 ? 0xffffffffu : es == 2 ? 0xffffu : 0xffu;
				A[r][c] = gval(ff, v);
			}
	else
		for (i = 0; i < 16; i++)
			for (kk = 0; kk < k; kk++)
				A[i][kk] = gelem(E, w, adesc, ta, ff, es, 16 * wg + i, kk);
	for (j = 0; j < n; j++)
		for (kk = 0; kk < k; kk++)
			B[j][kk] = gelem(E, w, bdesc, tb, fb, es, j, kk);
	for (l = 0; l < 32; l++) {
		int g = l >> 2, t = l & 3;
		u32 out[128];
		for (j = 0; j < n / 2; j++) {
			int r = g + 8 * ((j >> 1) & 1), c = 8 * (j >> 2) + 2 * t + (j & 1);
			int reg = f16acc ? j / 2 : j;
			double acc = 0;
			if (o[2].reg != RZ && scale_d) {
				u32 old = (u32)reg_at(w, l, o[2].reg + reg, 0);
				acc = isint ? (double)(i32)old : f16acc ? widen(old >> (16 * (j & 1)) & 0xffff, FF_F16) : f32_of(old);
			}
			for (kk = 0; kk < k; kk++)
				acc += sa * A[r][kk] * (sb * B[c][kk]);
			if (isint) {   /* exact in double: |sum| < 2^31 + 32 * 255^2 */
				i64 v = (i64)acc;
				out[reg] = sat && v > INT32_MAX ? INT32_MAX : sat && v < INT32_MIN ? (u32)INT32_MIN : (u32)v;
			} else if (f16acc) {
				u32 h = (u32)round_to(acc, FF_F16, RND_RN, 0);
				out[reg] = (j & 1) ? (out[reg] & 0xffff) | h << 16 : h;
			} else
				out[reg] = (u32)round_to(acc, FF_F32, RND_RN, 0);
		}
		for (j = 0; j < (f16acc ? n / 4 : n / 2); j++)
			e_setr(w, l, o[0].reg + j, out[j]);
	}
}

Handler
emu_mma_handler(const char *op)
{
	if (!strcmp(op, "HGMMA") || !strcmp(op, "QGMMA") || !strcmp(op, "IGMMA"))
		return h_hgmma;
	if (!strcmp(op, "HMMA") || !strcmp(op, "IMMA") || !strcmp(op, "DMMA"))
		return h_mma;
	if (!strcmp(op, "LDSM"))
		return h_ldsm;
	if (!strcmp(op, "MOVM"))
		return h_movm;
	if (!strcmp(op, "STSM"))
		return h_stsm;
	return NULL;
}
