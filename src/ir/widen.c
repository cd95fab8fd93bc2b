/* widen.c -- compares of small 16-bit values done in 32 bits.
 *
 * nvcc lowers `switch (x & 7)` to
 *
 *     cvt.u16.u32 s, x;  and.b16 h, s, 7;  setp.eq.s16 p, h, 3;  ...
 *     add.s16 s1, s, 1;  and.b16 h1, s1, 7;  setp.gt.s16 q, h1, 2; ...
 *
 * and selection pays a sign or zero extension (PRMT) before every 16-bit
 * compare.  A 16-bit register written once by `and.b16 h, s, m` with
 * m < 0x8000 holds a value in [0, m]: it is the same number as the 32-bit
 * `and.b32 t, s32, m`, where s32 is any 32-bit register whose low 16 bits
 * equal s (x for `cvt.u16.u32 s, x`; `add.s32 t1, s32_0, k` for
 * `add.s16 s1, s0, k`).  Such compares with an immediate become 32-bit
 * compares of t (the immediate sign- or zero-extended as the 16-bit type
 * says), the 32-bit twins are inserted right after the 16-bit
 * instructions they mirror, and the 16-bit chain dies in DCE when nothing
 * else reads it.  Every register involved is written once. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "ir/walk.h"

typedef struct {
	IrFunc *f;
	int *defs;
	int *low;      /* reg -> 32-bit register with the same low 16 bits, -1 unknown, -2 none */
	int *exact;    /* reg -> 32-bit register with the same value, -1 unknown, -2 none */
	int inserted;  /* instructions inserted so far */
} Widen;

static int
is16(const IrFunc *f, int r)
{
	PtxType t = (PtxType)f->rtype[r];
	return t == PTX_T_B16 || t == PTX_T_U16 || t == PTX_T_S16;
}

static int
is32(const IrFunc *f, int r)
{
	PtxType t = (PtxType)f->rtype[r];
	return t == PTX_T_B32 || t == PTX_T_U32 || t == PTX_T_S32;
}

/* The single live definition of r: its block and index. */
static IrIns *
find_def(IrFunc *f, int r, int *bb, size_t *ii)
{
	size_t b, i;

	for (b = 0; b < f->b.n; b++)
		for (i = 0; i < f->b.v[b].ins.n; i++) {
			IrIns *x = &f->b.v[b].ins.v[i];
			if (!x->dead && ir_opd_is_def(&x->p, 0) && x->p.opds[0].kind == PTX_OPD_REG &&
			    x->p.opds[0].reg == r && x->p.opds[0].reg2 < 0) {
				*bb = (int)b;
				*ii = i;
				return x;
			}
		}
	return NULL;
}

/* Insert `op.b32 d, a, imm` after instruction i of block b; returns d. */
static int
insert_after(Widen *w, int b, size_t i, int op, int a, i64 imm)
{
	IrBlock *B = &w->f->b.v[b];
	IrIns y = B->ins.v[i];
	PtxOperand *ops = arena_alloc(w->f->a, 3 * sizeof *ops);
	int d = ir_new_reg(w->f, PTX_T_B32), k;

	for (k = 0; k < 3; k++) {
		ops[k].reg = ops[k].reg2 = -1;
		ops[k].comp = -1;
		ops[k].pos = y.p.pos;
	}
	ops[0].kind = ops[1].kind = PTX_OPD_REG;
	ops[0].reg = d;
	ops[1].reg = a;
	ops[2].kind = PTX_OPD_IMM;
	ops[2].imm = imm;
	y.p.op = (u16)op;
	y.p.guard = -1;
	y.p.guard_neg = 0;
	y.p.ntypes = 1;
	y.p.types[0] = op == PTX_OP_add ? PTX_T_S32 : PTX_T_B32;
	y.p.rnd = y.p.cmp = y.p.aop = y.p.mode = y.p.sem = y.p.scope = y.p.cache = 0;
	y.p.vec = 1;
	y.p.nspaces = 0;
	y.p.flags = 0;
	y.p.nmods = 0;
	y.p.opds = ops;
	y.p.nopds = 3;
	y.target = -1;
	y.dead = 0;
	w->inserted++;
	vec_push(&B->ins, y);
	memmove(&B->ins.v[i + 2], &B->ins.v[i + 1], (B->ins.n - i - 2) * sizeof y);
	B->ins.v[i + 1] = y;
	return d;
}

static void
grow(Widen *w)
{
	int n = w->f->nregs + 1, i;
	w->low = xrealloc(w->low, (size_t)n * sizeof *w->low);
	w->exact = xrealloc(w->exact, (size_t)n * sizeof *w->exact);
	w->defs = xrealloc(w->defs, (size_t)n * sizeof *w->defs);
	for (i = n - 2; i < n; i++)
		w->low[i] = w->exact[i] = -2, w->defs[i] = 1;
}

static int
plain(const PtxOperand *o)
{
	return o->kind == PTX_OPD_REG && o->reg >= 0 && o->reg2 < 0 && !o->neg;
}

/* A 32-bit register whose low 16 bits are r's, or -2. */
static int
low_of(Widen *w, int r)
{
	IrIns *x;
	int b, s, d;
	size_t i;
	PtxType t;

	if (w->low[r] != -1)
		return w->low[r];
	w->low[r] = -2;
	if (w->defs[r] != 1 || !is16(w->f, r) || !(x = find_def(w->f, r, &b, &i)) || x->p.guard >= 0)
		return -2;
	t = (PtxType)x->p.types[0];
	if (x->p.op == PTX_OP_cvt && x->p.ntypes == 2 && ptx_type_size(t) == 2 && !ptx_type_is_float(t) &&
	    plain(&x->p.opds[1]) && is32(w->f, x->p.opds[1].reg) && w->defs[x->p.opds[1].reg] == 1 &&
	    !ptx_type_is_float((PtxType)x->p.types[1]) && !(x->p.flags & PTX_F_SAT))
		return w->low[r] = x->p.opds[1].reg;
	if (x->p.op == PTX_OP_add && x->p.nopds == 3 && plain(&x->p.opds[1]) && x->p.opds[2].kind == PTX_OPD_IMM &&
	    !(x->p.flags & (PTX_F_SAT | PTX_F_CC)) && ptx_type_size(t) == 2) {
		s = low_of(w, x->p.opds[1].reg);
		if (s < 0)
			return -2;
		x = find_def(w->f, r, &b, &i);   /* the vector may have moved */
		d = insert_after(w, b, i, PTX_OP_add, s, x->p.opds[2].imm);
		grow(w);
		return w->low[r] = d;
	}
	return -2;
}

/* A 32-bit register holding r's value (0 <= r < 0x8000), or -2. */
static int
exact_of(Widen *w, int r)
{
	IrIns *x;
	int b, s, d;
	size_t i;
	u64 m;

	if (w->exact[r] != -1)
		return w->exact[r];
	w->exact[r] = -2;
	if (w->defs[r] != 1 || !is16(w->f, r) || !(x = find_def(w->f, r, &b, &i)) || x->p.guard >= 0 ||
	    x->p.op != PTX_OP_and || x->p.nopds != 3 || !plain(&x->p.opds[1]) || x->p.opds[2].kind != PTX_OPD_IMM)
		return -2;
	m = (u64)x->p.opds[2].imm & 0xffff;
	if (m >= 0x8000)
		return -2;
	s = low_of(w, x->p.opds[1].reg);
	if (s < 0)
		return -2;
	x = find_def(w->f, r, &b, &i);
	d = insert_after(w, b, i, PTX_OP_and, s, (i64)m);
	grow(w);
	return w->exact[r] = d;
}

/* An unguarded 16-bit integer setp (what widen_setp starts from). */
static int
setp16(const IrIns *x)
{
	PtxType t = (PtxType)x->p.types[0];

	return !x->dead && x->p.op == PTX_OP_setp && x->p.guard < 0 && x->p.nopds == 3 && !x->p.aop &&
	       x->p.opds[0].reg2 < 0 && ptx_type_size(t) == 2 && !ptx_type_is_float(t);
}

static int
any_setp16(const IrFunc *f)
{
	size_t b, i;

	for (b = 0; b < f->b.n; b++)
		for (i = 0; i < f->b.v[b].ins.n; i++)
			if (setp16(&f->b.v[b].ins.v[i]))
				return 1;
	return 0;
}

/* setp.cmp.{s,u,b}16 p, h, k (or k, h) with h small: -> 32 bits.  When
 * the 32-bit twin had to be inserted first, the caller rescans (indices
 * moved) and the compare converts on the next visit. */
static int
widen_setp(Widen *w, int b, size_t i)
{
	IrIns *x = &w->f->b.v[b].ins.v[i];
	PtxType t = (PtxType)x->p.types[0];
	int hk, t32, before = w->inserted;
	i64 imm;

	if (!setp16(x))
		return 0;
	for (hk = 1; hk <= 2; hk++)
		if (plain(&x->p.opds[hk]) && x->p.opds[3 - hk].kind == PTX_OPD_IMM)
			break;
	if (hk > 2)
		return 0;
	t32 = exact_of(w, x->p.opds[hk].reg);
	if (t32 < 0 || w->inserted != before)
		return 0;
	imm = x->p.opds[3 - hk].imm;
	imm = t == PTX_T_S16 ? (i64)(int16_t)imm : (i64)(u16)imm;
	ir_opds_w(w->f, x)[hk].reg = t32;
	x->p.opds[3 - hk].imm = imm;
	x->p.types[0] = t == PTX_T_S16 ? PTX_T_S32 : t == PTX_T_U16 ? PTX_T_U32 : PTX_T_B32;
	x->p.nmods = 0;
	return 1;
}

int
ir_widen(IrFunc *f)
{
	Widen w;
	size_t b, i;
	int n = 0, again = 1;

	if (!any_setp16(f))   /* most functions: no arrays, no counts */
		return 0;
	memset(&w, 0, sizeof w);
	w.f = f;
	w.defs = xcalloc((size_t)f->nregs + 1, sizeof *w.defs);
	w.low = xmalloc(((size_t)f->nregs + 1) * sizeof *w.low);
	w.exact = xmalloc(((size_t)f->nregs + 1) * sizeof *w.exact);
	ir_count(f, w.defs, NULL);
	memset(w.low, 0xff, ((size_t)f->nregs + 1) * sizeof *w.low);   /* every one -1 */
	memset(w.exact, 0xff, ((size_t)f->nregs + 1) * sizeof *w.exact);
	/* an insertion shifts instructions: rescan */
	while (again) {
		again = 0;
		for (b = 0; b < f->b.n && !again; b++)
			for (i = 0; i < f->b.v[b].ins.n; i++) {
				int before = w.inserted;
				n += widen_setp(&w, (int)b, i);
				if (w.inserted != before) {
					again = 1;
					break;
				}
			}
	}
	free(w.defs);
	free(w.low);
	free(w.exact);
	return n;
}
