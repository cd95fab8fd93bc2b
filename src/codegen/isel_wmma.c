/* isel_wmma.c -- wmma.load / wmma.mma / wmma.store for m16n16k16
 * (f16, bf16 inputs; f16 or f32 accumulators) and m16n16k8 (tf32).
 *
 * PTX leaves the fragment layout to the implementation.  Ours is the
 * layout of HMMA.16816 / HMMA.1688 (two n8 tiles per 16x16 tile), as
 * ptxas does it: with g = lane / 4 and t = lane % 4,
 *   16-bit A (m x k): reg i = the 8x8 block (8*(i&1), 8*(i>>1)), element
 *     pair [g][2t..2t+1]; B: the block in (n, k) view; C/D: as A in (m, n);
 *     f16 A/B fragments have 8 registers: 4..7 repeat 0..3;
 *   tf32 A: {(g,t), (g+8,t), (g,t+4), (g+8,t+4)}; B: {(t,g), (t+4,g),
 *     (t,g+8), (t+4,g+8)} in (k, n);
 *   f32 C/D: reg 4j+i = (g + 8*(i>>1), 8j + 2t + (i&1)).
 * Each lane loads its own words with computed addresses; a 16-bit block
 * stored transposed relative to the view (A col, B row, C/D col) is
 * fixed with MOVM.16.MT88.  wmma.mma issues one HMMA per n8 tile. */
#include <stdio.h>
#include <string.h>

#include "codegen/isel.h"

enum { MA, MB, MC };  /* which matrix */

/* One 32-bit word of a fragment: matrix (row, col) of its first element
 * relative to the lane's position, and whether it is transposed (MOVM). */
typedef struct {
	int reg, r, c, movm;
} Unit;

/* Lane position roles. */
enum { LG, LT, L2T };

typedef struct {
	int lr, lc;   /* memory row/col roles of the lane */
	int n;
	Unit u[8];
} Plan;

typedef struct {
	Sel *s;
	int sp, esz;
	MRef base, ld, p0, g, t, t2;
	i64 off;
	int rows[8];
	MRef rp[8];
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

static void
unit(Plan *p, int reg, int r, int c, int movm, int swap)
{
	Unit *u = &p->u[p->n++];
	u->reg = reg;
	u->r = swap ? c : r;
	u->c = swap ? r : c;
	u->movm = movm;
}

/* 16-bit words: 8x8 blocks, the lane at (g, 2t) of the block in memory.
 * Views: A (m, k), B (n, k), C/D (m, n); memory is (row, col) of the
 * layout, so A/C col and B row are transposed (MOVM). */
static void
plan16(Plan *p, int w, int col)
{
	static const int br[4] = { 0, 8, 0, 8 }, bc[4] = { 0, 0, 8, 8 };
	int tr = w == MB ? !col : col, i;

	p->lr = LG;
	p->lc = L2T;
	p->n = 0;
	for (i = 0; i < 4; i++) {
		/* B: reg i is the (k, n) block (br, bc), viewed as (n, k) */
		int vr = w == MB ? bc[i] : br[i], vc = w == MB ? br[i] : bc[i];
		unit(p, i, vr, vc, tr, tr);
	}
}

/* 32-bit elements (tf32 A/B, f32 C/D); col swaps row and column. */
static void
plan32(Plan *p, int w, int col)
{
	int i, j;

	p->n = 0;
	if (w == MA) {
		p->lr = col ? LT : LG;
		p->lc = col ? LG : LT;
		for (i = 0; i < 4; i++)
			unit(p, i, 8 * (i & 1), 4 * (i >> 1), 0, col);
	} else if (w == MB) {
		p->lr = col ? LG : LT;
		p->lc = col ? LT : LG;
		for (i = 0; i < 4; i++)
			unit(p, i, 4 * (i & 1), 8 * (i >> 1), 0, col);
	} else {
		p->lr = col ? L2T : LG;
		p->lc = col ? LG : L2T;
		for (j = 0; j < 2; j++)
			for (i = 0; i < 4; i++)
				unit(p, 4 * j + i, 8 * (i >> 1), 8 * j + (i & 1), 0, col);
	}
}

static MRef
role(Acc *a, int r)
{
	return r == LG ? a->g : r == LT ? a->t : a->t2;
}

static void
lane_regs(Acc *a)
{
	Sel *s = a->s;
	MRef lane = sel_tmp(s, 1);

	a->g = sel_tmp(s, 1);
	a->t = sel_tmp(s, 1);
	a->t2 = sel_tmp(s, 1);
	mi(s->mf, "S2R %D, SR_LANEID", lane);
	mi(s->mf, "SHF.R.U32.HI %D, RZ, 0x2, %U", a->g, lane);
	mi(s->mf, "LOP3.LUT %D, %U, 0x3, RZ, 0xc0, !PT", a->t, lane);
	mi(s->mf, "IMAD.SHL.U32 %D, %U, 0x2, RZ", a->t2, a->t);
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
	MRef lrs = sel_tmp(s, 1), p1 = sel_tmp(s, wide(a) ? 2 : 1);

	a->p0 = sel_tmp(s, wide(a) ? 2 : 1);
	mi(s->mf, "IMAD.SHL.U32 %D, %U, %h, RZ", lrs, role(a, p->lr), (unsigned)a->esz);
	if (wide(a)) {
		mi(s->mf, "IMAD.WIDE.U32 %D, %U, %h, %U", p1, role(a, p->lc), (unsigned)a->esz, a->base);
		mi(s->mf, "IMAD.WIDE.U32 %D, %U, %U, %U", a->p0, lrs, a->ld, p1);
	} else {
		mi(s->mf, "IMAD %D, %U, %h, %U", p1, role(a, p->lc), (unsigned)a->esz, a->base);
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
	ASSERT(a->nrp < 8);
	a->rows[a->nrp] = r;
	a->rp[a->nrp++] = q;
	return q;
}

static void
offtxt(char *b, size_t n, i64 off)
{
	if (!off)
		b[0] = 0;
	else
		snprintf(b, n, off < 0 ? "-0x%llx" : "+0x%llx", (unsigned long long)(off < 0 ? -off : off));
}

static void
access(Acc *a, const Unit *u, MRef v, int store)
{
	Sel *s = a->s;
	MRef q = row_ptr(a, u->r);
	char o[32];
	const char *urz = s->sm < 90 && a->sp == PTX_S_SHARED ? "+URZ" : "";

	offtxt(o, sizeof o, a->off + (i64)u->c * a->esz);
	if (!o[0])
		urz = "";
	if (a->sp == PTX_S_SHARED) {
		if (store)
			mi(s->mf, "STS [%U%s%s], %U", q, urz, o, v);
		else
			mi(s->mf, "LDS %D, [%U%s%s]", v, q, urz, o);
	} else {
		const char *d = sel_gdesc(s);
		if (store)
			mi(s->mf, "%s %s[%U.64%s], %U", a->sp == PTX_S_GLOBAL ? "STG.E" : "ST.E", d, q, o, v);
		else
			mi(s->mf, "%s %D, %s[%U.64%s]", a->sp == PTX_S_GLOBAL ? "LDG.E" : "LD.E", v, d, q, o);
	}
}

/* Fragment registers of a matrix: 16-bit f16 A/B hold 8 (4 used), bf16
 * A/B 4, f16 C 4, tf32 A/B 4, f32 C 8.  0 if the type does not fit. */
static int
frag_regs(int w, int type)
{
	if (w != MC)
		return type == PTX_T_F16 ? 8 : type == PTX_T_BF16 || type == PTX_T_TF32 ? 4 : 0;
	return type == PTX_T_F16 ? 4 : type == PTX_T_F32 ? 8 : 0;
}

/* Shape, type and fragment checks shared by load and store; fills the
 * plan and the access context. */
static int
prepare(Sel *s, const IrIns *x, int store, Plan *p, Acc *a, const PtxOperand **frag)
{
	const PtxInstr *in = &x->p;
	int w = store ? MC : which(x), type = in->types[0], col = has(x, PTX_M_col), k8, rows, cols;

	if (store && !has(x, PTX_M_d))
		return sel_unsupported(s, "wmma.store other than .d");
	k8 = has(x, PTX_M_m16n16k8);
	if (!k8 && !has(x, PTX_M_m16n16k16))
		return sel_unsupported(s, "this wmma shape (m16n16k16 and m16n16k8 are supported)");
	if (!frag_regs(w, type) || (w != MC && (type == PTX_T_TF32) != k8))
		return sel_unsupported(s, "this wmma fragment type for the shape (f16/bf16 at k16, tf32 at k8; f16/f32 C/D)");
	*frag = &in->opds[store ? 1 : 0];
	if ((*frag)->kind != PTX_OPD_VEC || (*frag)->nelems != frag_regs(w, type))
		return sel_unsupported(s, "a wmma fragment that is not a register list of the right length");
	memset(a, 0, sizeof *a);
	a->s = s;
	a->sp = in->nspaces ? in->space[0] : PTX_S_GENERIC;
	if (a->sp != PTX_S_GLOBAL && a->sp != PTX_S_SHARED && a->sp != PTX_S_GENERIC)
		return sel_unsupported(s, "wmma from this state space (global, shared, generic are supported)");
	a->esz = is16(type) ? 2 : 4;
	if (sel_address(s, &in->opds[store ? 0 : 1], a->sp, &a->base, &a->off) < 0)
		return -1;
	if (a->off < -0x7f0000 || a->off > 0x7f0000)
		return sel_unsupported(s, "a wmma address offset this large");
	rows = w == MB ? (k8 ? 8 : 16) : 16;
	cols = w == MA ? (k8 ? 8 : 16) : 16;
	if (in->nopds > 2) {
		a->ld = sel_r32(s, &in->opds[2], 0);
		if (a->ld.v < 0)
			return -1;
	} else {
		a->ld = sel_tmp(s, 1);
		sel_mov32(s, a->ld, mopd_txt(col ? (rows == 8 ? "0x8" : "0x10") : (cols == 8 ? "0x8" : "0x10")));
	}
	if (is16(type))
		plan16(p, w, col);
	else
		plan32(p, w, col);
	lane_regs(a);
	lane_ptr(a, p);
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
	/* f16 A/B: registers 4..7 repeat 0..3 */
	for (i = p.n; i < frag->nelems && p.n == 4; i++)
		sel_mov32(s, elem(s, frag, i), mopd_reg(elem(s, frag, i - 4)));
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

/* Copy n fragment elements from first into a fresh aligned group. */
static int
group_in(Sel *s, const PtxOperand *o, int first, int n, MRef *g)
{
	int i;

	*g = sel_tmp(s, n);
	for (i = 0; i < n; i++) {
		MRef r = sel_r32(s, &o->elems[first + i], 0);
		if (r.v < 0)
			return -1;
		sel_mov32(s, n == 1 ? *g : mpart(g->v, i, 1), mopd_reg(r));
	}
	return 0;
}

static int
group_out(Sel *s, const PtxOperand *o, int first, int n, MRef g)
{
	int i;

	for (i = 0; i < n; i++)
		sel_mov32(s, elem(s, o, first + i), mopd_reg(n == 1 ? g : mpart(g.v, i, 1)));
	return 0;
}

/* wmma.mma: types .dtype.ctype (f16 A/B) or .dtype.atype.btype.ctype. */
static int
sel_wmma_mma(Sel *s, const IrIns *x)
{
	const PtxInstr *in = &x->p;
	int dt, at, ct, k8 = has(x, PTX_M_m16n16k8), nc, nb, j;
	const char *op;
	MRef A, B, C, D;

	if (in->ntypes == 2) {
		dt = in->types[0];
		ct = in->types[1];
		at = PTX_T_F16;
	} else if (in->ntypes == 4 && in->types[1] == in->types[2]) {
		dt = in->types[0];
		at = in->types[1];
		ct = in->types[3];
	} else
		return sel_unsupported(s, "wmma.mma with these types");
	if (dt != ct || (in->flags & PTX_F_SATFINITE))
		return sel_unsupported(s, "wmma.mma with a D type other than C's, or .satfinite");
	if (k8 ? at != PTX_T_TF32 : (!has(x, PTX_M_m16n16k16) || !is16(at)))
		return sel_unsupported(s, "this wmma.mma shape/type (m16n16k16 f16/bf16, m16n16k8 tf32)");
	if (at == PTX_T_TF32 || at == PTX_T_BF16) {
		if (dt != PTX_T_F32)
			return sel_unsupported(s, "wmma.mma tf32/bf16 with other than f32 accumulators");
		op = at == PTX_T_TF32 ? "HMMA.1688.F32.TF32" : "HMMA.16816.F32.BF16";
	} else if (dt == PTX_T_F32)
		op = "HMMA.16816.F32";
	else if (dt == PTX_T_F16)
		op = "HMMA.16816.F16";
	else
		return sel_unsupported(s, "wmma.mma with this accumulator type");
	nc = dt == PTX_T_F32 ? 4 : 2;
	nb = 2;
	for (j = 0; j < 4; j++)
		if (in->opds[j].kind != PTX_OPD_VEC || check_regs(s, &in->opds[j]) < 0)
			return j == 0 || in->opds[j].kind != PTX_OPD_VEC ?
				sel_unsupported(s, "wmma.mma fragments must be register lists") : -1;
	if (in->opds[0].nelems != 2 * nc || in->opds[3].nelems != 2 * nc ||
	    in->opds[1].nelems != frag_regs(MA, at) || in->opds[2].nelems != frag_regs(MB, at))
		return sel_unsupported(s, "wmma.mma fragments of the wrong length");
	if (group_in(s, &in->opds[1], 0, 4, &A) < 0)
		return -1;
	/* both tiles read all of C before either writes D (D may alias C) */
	{
		MRef Ds[2];
		for (j = 0; j < 2; j++) {
			if (group_in(s, &in->opds[2], nb * j, nb, &B) < 0 ||
			    group_in(s, &in->opds[3], nc * j, nc, &C) < 0)
				return -1;
			D = sel_tmp(s, nc);
			mi(s->mf, "%s %D, %U, %U, %U", op, D, A, B, C);
			Ds[j] = D;
		}
		for (j = 0; j < 2; j++)
			group_out(s, &in->opds[0], nc * j, nc, Ds[j]);
	}
	return 0;
}

const SelRule sel_rules_wmma[] = {
	{PTX_OP_wmma_load, sel_wmma_load}, {PTX_OP_wmma_store, sel_wmma_store},
	{PTX_OP_wmma_mma, sel_wmma_mma},
	{0, NULL},
};
