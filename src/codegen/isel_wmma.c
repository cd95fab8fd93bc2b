/* isel_wmma.c -- wmma.load / wmma.mma / wmma.store: m16n16k16,
 * m32n8k16, m8n32k16 (f16, bf16 inputs with f16 or f32 accumulators;
 * s8, u8 with s32) and m16n16k8 (tf32), row or col, global, shared or
 * generic memory.
 *
 * PTX leaves the fragment layout to the implementation.  Ours is the
 * layout of HMMA.16816 / HMMA.1688 (one HMMA per 16x8 tile of D), as
 * ptxas does it: with g = lane / 4 and t = lane % 4,
 *   16-bit A (m x k): per 16-row tile, reg i = the 8x8 block
 *     (8*(i&1), 8*(i>>1)), element pair [g][2t..2t+1] (m8: blocks (0,0)
 *     and (0,8) only); B: per n8 tile, the blocks (k 0, k 8) seen as
 *     (n, k); C/D f16: per (16-row, n8) tile the blocks (0,0), (8,0);
 *     f16 A/B fragments have 8 registers: we leave the unused ones alone;
 *   tf32 A: {(g,t), (g+8,t), (g,t+4), (g+8,t+4)}; B per n8 tile j:
 *     {(t, 8j+g), (t+4, 8j+g)} in (k, n);
 *   8-bit A: per 16-row tile the words (g, 4t..4t+3), (g+8, 4t..4t+3)
 *     (m8: the first); B: per n8 tile the word (n g, k 4t..4t+3) (IMMA);
 *   f32/s32 C/D: per (16-row, n8) tile, {(g, 2t), (g, 2t+1), (g+8, 2t),
 *     (g+8, 2t+1)} (m8: the first two).
 * Each lane loads its own words with computed addresses; a 16-bit block
 * stored transposed relative to the view (A col, B row, C/D col) is
 * fixed with MOVM.16.MT88; a transposed 8-bit word is gathered from four
 * byte loads (PRMT).  m8n32k16 runs HMMA with rows 8..15 of A
 * repeating rows 0..7 and drops those rows of D. */
#include <stdio.h>
#include <string.h>

#include "codegen/isel.h"

enum { MA, MB, MC };  /* which matrix */

/* One 32-bit word of a fragment: matrix (row, col) of its first element
 * relative to the lane's position, and whether it is transposed (MOVM). */
typedef struct {
	int reg, r, c, movm;
	int bytes;    /* 8-bit, transposed: four bytes at memory rows r..r+3 */
} Unit;

/* Lane position roles. */
enum { LG, LT, L2T, L4T };

typedef struct {
	int lr, lc;   /* memory row/col roles of the lane */
	int n;
	Unit u[16];
} Plan;

typedef struct {
	int m, n, k;
	int mt, nt, half;   /* 16-row tiles, n8 tiles, m == 8 */
} Shape;

typedef struct {
	Sel *s;
	int sp, esz;
	MRef base, ld, p0, g, t, t2, t4;
	i64 off;
	int rows[16];
	MRef rp[16];
	int nrp;
} Acc;

static int
has(const IrIns *x, int m)
{
	return ptx_has_mod(&x->p, (PtxModId)m);
}

static int
which(const IrIns *x)
{
	return has(x, PTX_M_a) ? MA : has(x, PTX_M_b) ? MB : MC;
}

static int
is16(int type)
{
	return type == PTX_T_F16 || type == PTX_T_BF16;
}

static int
is8(int type)
{
	return type == PTX_T_S8 || type == PTX_T_U8;
}

static void
unit(Plan *p, int reg, int r, int c, int movm, int swap)
{
	Unit *u = &p->u[p->n++];
	u->reg = reg;
	u->r = swap ? c : r;
	u->c = swap ? r : c;
	u->movm = movm;
	u->bytes = 0;
}

static int
shape_of(const IrIns *x, Shape *sh)
{
	if (has(x, PTX_M_m16n16k16)) *sh = (Shape){ 16, 16, 16, 1, 2, 0 };
	else if (has(x, PTX_M_m32n8k16)) *sh = (Shape){ 32, 8, 16, 2, 1, 0 };
	else if (has(x, PTX_M_m8n32k16)) *sh = (Shape){ 8, 32, 16, 1, 4, 1 };
	else if (has(x, PTX_M_m16n16k8)) *sh = (Shape){ 16, 16, 8, 1, 2, 0 };
	else
		return -1;
	return 0;
}

/* 16-bit words: 8x8 blocks, the lane at (g, 2t) of the block in memory.
 * Views: A (m, k), B (n, k), C/D (m, n); memory is (row, col) of the
 * layout, so A/C col and B row are transposed (MOVM). */
static void
plan16(Plan *p, int w, int col, const Shape *sh)
{
	int tr = w == MB ? !col : col, i, j;

	p->lr = LG;
	p->lc = L2T;
	p->n = 0;
	if (w == MA) {
		for (i = 0; i < sh->mt; i++)
			for (j = 0; j < (sh->half ? 2 : 4); j++) {
				int r = 16 * i + (sh->half ? 0 : 8 * (j & 1)), c = sh->half ? 8 * j : 8 * (j >> 1);
				unit(p, p->n, r, c, tr, tr);
			}
	} else if (w == MB) {
		for (j = 0; j < sh->nt; j++) {
			unit(p, p->n, 8 * j, 0, tr, tr);
			unit(p, p->n, 8 * j, 8, tr, tr);
		}
	} else {
		for (i = 0; i < sh->mt; i++)
			for (j = 0; j < sh->nt; j++) {
				unit(p, p->n, 16 * i, 8 * j, tr, tr);
				if (!sh->half)
					unit(p, p->n, 16 * i + 8, 8 * j, tr, tr);
			}
	}
}

/* 8-bit A/B (IMMA.16816): words of four k-consecutive bytes, the lane at
 * (g, 4t) in the view (A (m, k), B (n, k)); A per 16-row tile the rows 0
 * and 8 (m8: 0), B per n8 tile one word.  A col / B row: the four bytes
 * are in four memory rows (gathered). */
static void
plan8(Plan *p, int w, int col, const Shape *sh)
{
	int tr = w == MB ? !col : col, i, j;

	p->lr = tr ? L4T : LG;
	p->lc = tr ? LG : L4T;
	p->n = 0;
	for (i = 0; i < (w == MA ? sh->mt : sh->nt); i++)
		for (j = 0; j < (w == MA && !sh->half ? 2 : 1); j++) {
			unit(p, p->n, w == MA ? 16 * i + 8 * j : 8 * i, 0, 0, tr);
			p->u[p->n - 1].bytes = tr;
		}
}

/* 32-bit elements (tf32 A/B, f32 C/D); col swaps row and column. */
static void
plan32(Plan *p, int w, int col, const Shape *sh)
{
	int i, j, e;

	p->n = 0;
	if (w == MA) {
		p->lr = col ? LT : LG;
		p->lc = col ? LG : LT;
		for (i = 0; i < 4; i++)
			unit(p, i, 8 * (i & 1), 4 * (i >> 1), 0, col);
	} else if (w == MB) {
		p->lr = col ? LG : LT;
		p->lc = col ? LT : LG;
		for (j = 0; j < sh->nt; j++)
			for (i = 0; i < 2; i++)
				unit(p, p->n, 4 * i, 8 * j, 0, col);
	} else {
		p->lr = col ? L2T : LG;
		p->lc = col ? LG : L2T;
		for (i = 0; i < sh->mt; i++)
			for (j = 0; j < sh->nt; j++)
				for (e = 0; e < (sh->half ? 2 : 4); e++)
					unit(p, p->n, 16 * i + 8 * (e >> 1), 8 * j + (e & 1), 0, col);
	}
}

static MRef
role(Acc *a, int r)
{
	return r == LG ? a->g : r == LT ? a->t : r == L2T ? a->t2 : a->t4;
}

/* g, t and the multiple of t the plan uses. */
static void
lane_regs(Acc *a, const Plan *p)
{
	Sel *s = a->s;
	MRef lane = sel_tmp(s, 1);
	int k = p->lr == L2T || p->lc == L2T ? 2 : p->lr == L4T || p->lc == L4T ? 4 : 0;

	a->g = sel_tmp(s, 1);
	a->t = sel_tmp(s, 1);
	mi(s->mf, "S2R %D, SR_LANEID", lane);
	mi(s->mf, "SHF.R.U32.HI %D, RZ, 0x2, %U", a->g, lane);
	mi(s->mf, "LOP3.LUT %D, %U, 0x3, RZ, 0xc0, !PT", a->t, lane);
	a->t2 = a->t4 = a->t;
	if (k) {
		MRef m = sel_tmp(s, 1);
		mi(s->mf, "IMAD.SHL.U32 %D, %U, %h, RZ", m, a->t, (unsigned)k);
		if (k == 2)
			a->t2 = m;
		else
			a->t4 = m;
	}
}

static int
wide(Acc *a)
{
	return a->sp != PTX_S_SHARED;
}

/* p0 = base + (lr * ld + lc) * esz, in 64 bits for global/generic. */
static void
lane_ptr(Acc *a, const Plan *p)
{
	Sel *s = a->s;
	MRef lrs = role(a, p->lr), p1 = sel_tmp(s, wide(a) ? 2 : 1);

	a->p0 = sel_tmp(s, wide(a) ? 2 : 1);
	if (a->esz > 1) {
		lrs = sel_tmp(s, 1);
		mi(s->mf, "IMAD.SHL.U32 %D, %U, %h, RZ", lrs, role(a, p->lr), (unsigned)a->esz);
	}
	if (wide(a)) {
		mi(s->mf, "IMAD.WIDE.U32 %D, %U, %h, %U", p1, role(a, p->lc), (unsigned)a->esz, a->base);
		mi(s->mf, "IMAD.WIDE.U32 %D, %U, %U, %U", a->p0, lrs, a->ld, p1);
	} else {
		if (a->esz > 1)
			mi(s->mf, "IMAD %D, %U, %h, %U", p1, role(a, p->lc), (unsigned)a->esz, a->base);
		else
			mi(s->mf, "IADD3 %D, %U, %U, RZ", p1, role(a, p->lc), a->base);
		mi(s->mf, "IMAD %D, %U, %U, %U", a->p0, lrs, a->ld, p1);
	}
	a->nrp = 0;
}

/* The pointer of memory row r (relative): p0 + r * ld * esz. */
static MRef
row_ptr(Acc *a, int r)
{
	Sel *s = a->s;
	MRef q;
	int i;

	if (r == 0)
		return a->p0;
	for (i = 0; i < a->nrp; i++)
		if (a->rows[i] == r)
			return a->rp[i];
	q = sel_tmp(s, wide(a) ? 2 : 1);
	if (wide(a))
		mi(s->mf, "IMAD.WIDE.U32 %D, %U, %h, %U", q, a->ld, (unsigned)(r * a->esz), a->p0);
	else
		mi(s->mf, "IMAD %D, %U, %h, %U", q, a->ld, (unsigned)(r * a->esz), a->p0);
	ASSERT(a->nrp < 16);
	a->rows[a->nrp] = r;
	a->rp[a->nrp++] = q;
	return q;
}

/* One load/store of the word (sz "") or byte (".U8") at memory row r,
 * column c relative to the lane's position. */
static void
access_at(Acc *a, int r, int c, MRef v, int store, const char *sz)
{
	Sel *s = a->s;
	MRef q = row_ptr(a, r);
	char o[32];
	const char *urz = s->sm < 90 && a->sp == PTX_S_SHARED ? "+URZ" : "";

	sel_offtxt(o, sizeof o, a->off + (i64)c * a->esz);
	if (!o[0])
		urz = "";
	if (a->sp == PTX_S_SHARED) {
		if (store)
			mi(s->mf, "STS [%U%s%s], %U", q, urz, o, v);
		else
			mi(s->mf, "LDS%s %D, [%U%s%s]", sz, v, q, urz, o);
	} else {
		const char *d = sel_gdesc(s);
		if (store)
			mi(s->mf, "%s %s[%U.64%s], %U", a->sp == PTX_S_GLOBAL ? "STG.E" : "ST.E", d, q, o, v);
		else
			mi(s->mf, "%s%s %D, %s[%U.64%s]", a->sp == PTX_S_GLOBAL ? "LDG.E" : "LD.E", sz, v, d, q, o);
	}
}

static void
access(Acc *a, const Unit *u, MRef v, int store)
{
	Sel *s = a->s;
	MRef b[4], lo, hi;
	int i;

	if (!u->bytes) {
		access_at(a, u->r, u->c, v, store, "");
		return;
	}
	ASSERT(!store);
	for (i = 0; i < 4; i++) {
		b[i] = sel_tmp(s, 1);
		access_at(a, u->r + i, u->c, b[i], 0, ".U8");
	}
	lo = sel_tmp(s, 1);
	hi = sel_tmp(s, 1);
	mi(s->mf, "PRMT %D, %U, 0x40, %U", lo, b[0], b[1]);
	mi(s->mf, "PRMT %D, %U, 0x40, %U", hi, b[2], b[3]);
	mi(s->mf, "PRMT %D, %U, 0x5410, %U", v, lo, hi);
}

/* Words of a fragment in our layout (the units of its plan), and the
 * registers PTX gives it (f16 A/B always 8, f16 C 4, f32 C 8); 0 if the
 * type does not fit the matrix and shape. */
static int
frag_words(int w, int type, const Shape *sh)
{
	if (w == MC)
		return type == PTX_T_F16 ? sh->m * sh->n / 64 :
		       type == PTX_T_F32 || type == PTX_T_S32 ? sh->m * sh->n / 32 : 0;
	if (is8(type))
		return sh->k == 16 ? (w == MA ? sh->m : sh->n) * sh->k / 128 : 0;
	if (type == PTX_T_TF32 ? sh->k != 8 : !is16(type) || sh->k != 16)
		return 0;
	return (w == MA ? sh->m : sh->n) * sh->k / (is16(type) ? 64 : 32);
}

static int
frag_regs(int w, int type, const Shape *sh)
{
	int n = frag_words(w, type, sh);
	return n && w != MC && type == PTX_T_F16 ? 8 : n;
}

/* Shape, type and fragment checks shared by load and store; fills the
 * plan and the access context. */
static int
prepare(Sel *s, const IrIns *x, int store, Plan *p, Acc *a, const PtxOperand **frag)
{
	const PtxInstr *in = &x->p;
	int w = store ? MC : which(x), type = in->types[0], col = has(x, PTX_M_col), rows, cols, i;
	Shape sh;

	if (store && !has(x, PTX_M_d))
		return sel_unsupported(s, "wmma.store other than .d");
	if (shape_of(x, &sh) < 0)
		return sel_unsupported(s, "this wmma shape (m16n16k16, m32n8k16, m8n32k16, m16n16k8 are supported)");
	if (!frag_regs(w, type, &sh))
		return sel_unsupported(s, "this wmma fragment type for the shape (f16/bf16 at k16, tf32 at k8; f16/f32 C/D)");
	*frag = &in->opds[store ? 1 : 0];
	if ((*frag)->kind != PTX_OPD_VEC || (*frag)->nelems != frag_regs(w, type, &sh))
		return sel_unsupported(s, "a wmma fragment that is not a register list of the right length");
	memset(a, 0, sizeof *a);
	a->s = s;
	a->sp = in->nspaces ? in->space[0] : PTX_S_GENERIC;
	if (a->sp != PTX_S_GLOBAL && a->sp != PTX_S_SHARED && a->sp != PTX_S_GENERIC)
		return sel_unsupported(s, "wmma from this state space (global, shared, generic are supported)");
	a->esz = is8(type) ? 1 : is16(type) ? 2 : 4;
	if (sel_address(s, &in->opds[store ? 0 : 1], a->sp, &a->base, &a->off) < 0)
		return -1;
	if (a->off < -0x7f0000 || a->off > 0x7f0000)
		return sel_unsupported(s, "a wmma address offset this large");
	rows = w == MB ? sh.k : sh.m;
	cols = w == MA ? sh.k : sh.n;
	if (in->nopds > 2) {
		a->ld = sel_r32(s, &in->opds[2], 0);
		if (a->ld.v < 0)
			return -1;
	} else {
		char t[16];
		str_printf(t, sizeof t, "0x%x", col ? rows : cols);
		a->ld = sel_tmp(s, 1);
		sel_mov32(s, a->ld, mopd_txt(t));
	}
	if (is16(type))
		plan16(p, w, col, &sh);
	else if (is8(type))
		plan8(p, w, col, &sh);
	else
		plan32(p, w, col, &sh);
	ASSERT(p->n == frag_words(w, type, &sh));
	lane_regs(a, p);
	lane_ptr(a, p);
	/* every row pointer before the first load: the stride may be a
	 * register of the fragment being loaded */
	for (i = 0; i < p->n; i++) {
		int k;
		for (k = 0; k < (p->u[i].bytes ? 4 : 1); k++)
			row_ptr(a, p->u[i].r + k);
	}
	return 0;
}

static MRef
elem(Sel *s, const PtxOperand *frag, int i)
{
	return sel_reg(s, frag->elems[i].reg);
}

static int
check_regs(Sel *s, const PtxOperand *frag)
{
	int i;

	for (i = 0; i < frag->nelems; i++)
		if (frag->elems[i].kind != PTX_OPD_REG)
			return sel_unsupported(s, "a wmma fragment element that is not a register");
	return 0;
}

static int
sel_wmma_load(Sel *s, const IrIns *x)
{
	const PtxOperand *frag;
	Plan p;
	Acc a;
	int i;

	if (prepare(s, x, 0, &p, &a, &frag) < 0 || check_regs(s, frag) < 0)
		return -1;
	for (i = 0; i < p.n; i++) {
		MRef d = elem(s, frag, p.u[i].reg);
		if (p.u[i].movm) {
			MRef t = sel_tmp(s, 1);
			access(&a, &p.u[i], t, 0);
			mi(s->mf, "MOVM.16.MT88 %D, %U", d, t);
		} else
			access(&a, &p.u[i], d, 0);
	}
	/* f16 A/B registers past our words are left as they are: wmma.mma
	 * never reads them (element-wise code on them reads what it wrote) */
	return 0;
}

static int
sel_wmma_store(Sel *s, const IrIns *x)
{
	const PtxOperand *frag;
	Plan p;
	Acc a;
	int i;

	if (prepare(s, x, 1, &p, &a, &frag) < 0)
		return -1;
	for (i = 0; i < p.n; i++) {
		MRef v = sel_r32(s, &frag->elems[p.u[i].reg], 0);
		if (v.v < 0)
			return -1;
		if (p.u[i].movm) {
			MRef t = sel_tmp(s, 1);
			mi(s->mf, "MOVM.16.MT88 %D, %U", t, v);
			v = t;
		}
		access(&a, &p.u[i], v, 1);
	}
	return 0;
}

/* The HMMA mnemonic for wmma.mma's types, or NULL after a diagnostic. */
static const char *
mma_op(Sel *s, const IrIns *x, int *at, int *dt, int *ct0)
{
	const PtxInstr *in = &x->p;
	int ct;

	if (in->ntypes == 2) {
		*dt = in->types[0];
		ct = in->types[1];
		*at = PTX_T_F16;
	} else if (in->ntypes == 4 && in->types[1] == in->types[2]) {
		*dt = in->types[0];
		*at = in->types[1];
		ct = in->types[3];
	} else
		return sel_unsupported(s, "wmma.mma with these types"), NULL;
	*ct0 = ct;
	if (is8(*at)) {
		if (*dt != PTX_T_S32 || ct != PTX_T_S32)
			return sel_unsupported(s, "integer wmma.mma with other than s32 accumulators"), NULL;
		/* IMMA .SAT exists but the emulator cannot check it yet */
		if (in->flags & PTX_F_SATFINITE)
			return sel_unsupported(s, "integer wmma.mma .satfinite"), NULL;
		return *at == PTX_T_S8 ? "IMMA.16816.S8.S8" : "IMMA.16816.U8.U8";
	}
	if (in->flags & PTX_F_SATFINITE)
		return sel_unsupported(s, "wmma.mma .satfinite"), NULL;
	if (*dt != ct && !(*at == PTX_T_F16 && *dt == PTX_T_F32 && ct == PTX_T_F16))
		return sel_unsupported(s, "wmma.mma with f16 D and f32 C"), NULL;
	if (*at == PTX_T_TF32 || *at == PTX_T_BF16) {
		if (*dt != PTX_T_F32)
			return sel_unsupported(s, "wmma.mma tf32/bf16 with other than f32 accumulators"), NULL;
		return *at == PTX_T_TF32 ? "HMMA.1688.F32.TF32" : "HMMA.16816.F32.BF16";
	}
	if (*at == PTX_T_F16 && (*dt == PTX_T_F32 || *dt == PTX_T_F16))
		return *dt == PTX_T_F32 ? "HMMA.16816.F32" : "HMMA.16816.F16";
	return sel_unsupported(s, "wmma.mma with these types (f16, bf16, tf32 inputs are supported)"), NULL;
}

static int
mma_frags(Sel *s, const IrIns *x, int at, int dt, int ct, const Shape *sh)
{
	const PtxInstr *in = &x->p;
	int j;

	for (j = 0; j < 4; j++)
		if (in->opds[j].kind != PTX_OPD_VEC)
			return sel_unsupported(s, "wmma.mma fragments must be register lists");
	for (j = 0; j < 4; j++)
		if (check_regs(s, &in->opds[j]) < 0)
			return -1;
	if (!frag_regs(MA, at, sh) || in->opds[0].nelems != frag_regs(MC, dt, sh) ||
	    in->opds[3].nelems != frag_regs(MC, ct, sh) || in->opds[1].nelems != frag_regs(MA, at, sh) ||
	    in->opds[2].nelems != frag_regs(MB, at, sh))
		return sel_unsupported(s, "wmma.mma fragments of the wrong length for the shape and types");
	return 0;
}

/* An f16 C tile (registers q, q+1; m8: q) as the f32 group of
 * HMMA.F32: exact conversions. */
static MRef
widen_c(Sel *s, const PtxOperand *c, int q, int half)
{
	MRef g = sel_tmp(s, 4);
	int e;

	for (e = 0; e < 4; e++) {
		MRef r = elem(s, c, q + (half ? 0 : e >> 1));
		mi(s->mf, e & 1 ? "HADD2.F32 %D, -RZ, %U.H1_H1" : "HADD2.F32 %D, -RZ, %U.H0_H0", mpart(g.v, e, 1), r);
	}
	return g;
}

/* wmma.mma: one HMMA per (16-row, n8) tile of D; D is written after all
 * of them (it may name the registers of A, B or C). */
static int
sel_wmma_mma(Sel *s, const IrIns *x)
{
	const PtxInstr *in = &x->p;
	int at, dt, ct, i, j, e, per, nc, na, nb, nd = 0, q[16];
	const char *op = mma_op(s, x, &at, &dt, &ct);
	MRef A, B, C, D[8];
	Shape sh;

	if (!op)
		return -1;
	if (shape_of(x, &sh) < 0)
		return sel_unsupported(s, "this wmma.mma shape");
	if (mma_frags(s, x, at, dt, ct, &sh) < 0)
		return -1;
	nc = dt == PTX_T_F16 ? 2 : 4;
	per = sh.half ? nc / 2 : nc;
	na = is8(at) ? 2 : 4;
	nb = is8(at) ? 1 : 2;
	for (i = 0; i < sh.mt; i++) {
		int ia[4];
		for (e = 0; e < na; e++)
			ia[e] = sh.half ? e >> 1 : na * i + e;
		if (sel_group_in(s, &in->opds[1], ia, na, &A) < 0)
			return -1;
		for (j = 0; j < sh.nt; j++) {
			int ib[2] = { nb * j, nb * j + 1 }, ic[4], base = (i * sh.nt + j) * per;
			for (e = 0; e < nc; e++)
				ic[e] = base + e % per;
			if (sel_group_in(s, &in->opds[2], ib, nb, &B) < 0)
				return -1;
			if (ct != dt)
				C = widen_c(s, &in->opds[3], (i * sh.nt + j) * per / 2, sh.half);
			else if (sel_group_in(s, &in->opds[3], ic, nc, &C) < 0)
				return -1;
			D[nd] = sel_tmp(s, nc);
			if (is8(at))
				mi(s->mf, "%s %D, %U.ROW, %U.COL, %U", op, D[nd], A, B, C);
			else
				mi(s->mf, "%s %D, %U, %U, %U", op, D[nd], A, B, C);
			q[nd++] = base;
		}
	}
	for (i = 0; i < nd; i++)
		for (e = 0; e < per; e++)
			sel_mov32(s, elem(s, &in->opds[0], q[i] + e), mopd_reg(mpart(D[i].v, e, 1)));
	return 0;
}

const SelRule sel_rules_wmma[] = {
	{PTX_OP_wmma_load, sel_wmma_load}, {PTX_OP_wmma_store, sel_wmma_store},
	{PTX_OP_wmma_mma, sel_wmma_mma},
	{0, NULL},
};
