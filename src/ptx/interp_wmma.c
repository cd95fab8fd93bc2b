/* interp_wmma.c -- wmma.load / wmma.store / wmma.mma in the interpreter.
 *
 * The PTX ISA leaves the wmma fragment layout unspecified, so the
 * interpreter picks one: element e of lane l's fragment (registers in
 * order, the low half of a packed register first) is element
 * (l * E + e) mod (rows * cols) of the matrix in row-major order, E being
 * the elements per lane.  Fragments larger than the matrix (f16 A/B hold
 * every element twice) simply repeat it.  Loads and stores only touch the
 * lane's own fragment, so they run per thread; wmma.mma gathers the warp.
 * Arithmetic follows mma.sync (interp_warp.c). */
#include <string.h>

#include "ptx/interp_int.h"

typedef struct {
	int m, n, k;
} Shape;

static int
shape(Interp *I, const PtxInstr *in, Shape *s)
{
	if (ptx_has_mod(in, PTX_M_m16n16k16)) *s = (Shape){ 16, 16, 16 };
	else if (ptx_has_mod(in, PTX_M_m32n8k16)) *s = (Shape){ 32, 8, 16 };
	else if (ptx_has_mod(in, PTX_M_m8n32k16)) *s = (Shape){ 8, 32, 16 };
	else if (ptx_has_mod(in, PTX_M_m16n16k8)) *s = (Shape){ 16, 16, 8 };
	else if (ptx_has_mod(in, PTX_M_m8n8k4)) *s = (Shape){ 8, 8, 4 };
	else
		ierr(I, "%s: this shape is not supported", ptx_op_name(in->op));
	return 0;
}

/* Which matrix (0 a, 1 b, 2 c, 3 d) a load/store names. */
static int
which(const PtxInstr *in)
{
	if (ptx_has_mod(in, PTX_M_a)) return 0;
	if (ptx_has_mod(in, PTX_M_b)) return 1;
	if (ptx_has_mod(in, PTX_M_c)) return 2;
	return 3;
}

static void
dims(const Shape *s, int w, int *rows, int *cols)
{
	*rows = w == 0 ? s->m : w == 1 ? s->k : s->m;
	*cols = w == 0 ? s->k : w == 1 ? s->n : s->n;
}

static int
per_reg(int type)
{
	switch (type) {
	case PTX_T_F16: case PTX_T_BF16: return 2;
	case PTX_T_S8: case PTX_T_U8: return 4;
	default: return 1;
	}
}

/* Layout of the i-th layout modifier (.row/.col) in source order: 1 = col. */
static int
layout(const PtxInstr *in, int i)
{
	int k;

	for (k = 0; k < in->nmods; k++) {
		const char *t = ptx_mod_name(in->mods[k]);
		if (!strcmp(t, ".row") || !strcmp(t, ".col")) {
			if (i-- == 0)
				return t[1] == 'c';
		}
	}
	return 0;
}

static void
ldst(Interp *I, Thread *t, const PtxInstr *in, int store)
{
	Shape s;
	int w = which(in), type = in->types[0], rows, cols, col = layout(in, 0);
	int sp = in->nspaces ? in->space[0] : PTX_S_NONE, esz = ptx_type_size(type), pr = per_reg(type);
	const PtxOperand *frag = &in->opds[store ? 1 : 0];
	u64 base = opd_addr(I, t, in, &in->opds[store ? 0 : 1], &sp), stride;
	int E, e, total;

	shape(I, in, &s);
	dims(&s, w, &rows, &cols);
	stride = in->nopds > 2 ? opd_read(I, t, in, &in->opds[2], PTX_T_U32) : (u64)(col ? rows : cols);
	if (frag->kind != PTX_OPD_VEC)
		ierr(I, "%s: the fragment must be a {...} list", ptx_op_name(in->op));
	E = frag->nelems * pr;
	total = rows * cols;
	for (e = 0; e < E; e++) {
		int q = (t->lane * E + e) % total, r = q / cols, c = q % cols;
		u64 a = base + (col ? (u64)c * stride + r : (u64)r * stride + c) * esz;
		const PtxOperand *reg = &frag->elems[e / pr];
		int sh = (e % pr) * esz * 8;
		if (reg->kind != PTX_OPD_REG)
			continue;
		if (store) {
			u64 v = t->fr->regs[reg->reg] >> sh;
			mem_st(I, t, sp, a, esz, v);
		} else {
			u64 v = mem_ld(I, t, sp, a, esz), m = esz == 8 ? ~0ull : (1ull << (8 * esz)) - 1;
			t->fr->regs[reg->reg] = (t->fr->regs[reg->reg] & ~(m << sh)) | (v & m) << sh;
		}
	}
}

void
exec_wmma_ldst(Interp *I, Thread *t, const PtxInstr *in)
{
	ldst(I, t, in, in->op == PTX_OP_wmma_store);
}

static double
val(int type, u64 reg, int j)
{
	switch (type) {
	case PTX_T_F16: return widen((reg >> (16 * j)) & 0xffff, FF_F16);
	case PTX_T_BF16: return widen((reg >> (16 * j)) & 0xffff, FF_BF16);
	case PTX_T_TF32: return widen((u32)reg & 0xffffe000u, FF_F32);
	case PTX_T_F32: return widen((u32)reg, FF_F32);
	case PTX_T_F64: return f64_of(reg);
	case PTX_T_S8: return (double)(int8_t)(reg >> (8 * j));
	case PTX_T_U8: return (double)(u8)(reg >> (8 * j));
	case PTX_T_S32: return (double)(i32)reg;
	}
	return 0;
}

/* Gather the matrix of operand k (rows x cols) from all 32 lanes. */
static void
gather(Thread **L, const PtxInstr *in, int k, int type, int rows, int cols, double *M)
{
	const PtxOperand *frag = &in->opds[k];
	int pr = per_reg(type), E = frag->nelems * pr, l, e;

	for (l = 0; l < 32; l++)
		for (e = 0; e < E; e++) {
			int q = (l * E + e) % (rows * cols);
			const PtxOperand *reg = &frag->elems[e / pr];
			u64 v = reg->kind == PTX_OPD_REG ? L[l]->fr->regs[reg->reg] : 0;
			M[q] = val(type, v, e % pr);
		}
}

void
exec_wmma_mma(Interp *I, Thread **L, const PtxInstr *in)
{
	Shape s;
	int at, dt, ct, l, e, i, j, k, E, pr;
	double A[512], B[512], C[256];
	const PtxOperand *d = &in->opds[0];

	shape(I, in, &s);
	if (in->ntypes == 2) {
		dt = in->types[0];
		ct = in->types[1];
		at = PTX_T_F16;
	} else if (in->ntypes == 4) {
		dt = in->types[0];
		at = in->types[1];
		ct = in->types[3];
	} else
		ierr(I, "wmma.mma: unexpected types");
	for (i = 0; i < 4; i++)
		if (in->opds[i].kind != PTX_OPD_VEC)
			ierr(I, "wmma.mma: fragments must be {...} lists");
	gather(L, in, 1, at, s.m, s.k, A);
	gather(L, in, 2, at, s.k, s.n, B);
	gather(L, in, 3, ct, s.m, s.n, C);
	pr = per_reg(dt);
	E = d->nelems * pr;
	for (l = 0; l < 32; l++)
		for (e = 0; e < E; e++) {
			int q = (l * E + e) % (s.m * s.n), sh = (e % pr) * 16;
			const PtxOperand *reg = &d->elems[e / pr];
			u64 r, *dst;
			i = q / s.n;
			j = q % s.n;
			if (reg->kind != PTX_OPD_REG)
				continue;
			dst = &L[l]->fr->regs[reg->reg];
			if (dt == PTX_T_S32) {
				i64 acc = (i64)C[q];
				for (k = 0; k < s.k; k++)
					acc += (i64)A[i * s.k + k] * (i64)B[k * s.n + j];
				if (in->flags & PTX_F_SATFINITE)
					acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
				*dst = (u32)acc;
			} else if (dt == PTX_T_F64) {
				r = bits_f64(C[q]);
				for (k = 0; k < s.k; k++)
					r = f64_fma(bits_f64(A[i * s.k + k]), bits_f64(B[k * s.n + j]), r, RND_RN);
				*dst = r;
			} else {
				double sum = C[q];
				for (k = 0; k < s.k; k++)
					sum += A[i * s.k + k] * B[k * s.n + j];
				if (dt == PTX_T_F16) {
					r = round_to(sum, FF_F16, RND_RN, 0);
					*dst = (*dst & ~(0xffffull << sh)) | r << sh;
				} else
					*dst = bits_f32((float)sum);
			}
		}
}
