/* fuse.c -- multiply-add fusion for address arithmetic:
 *
 *     mul.wide.u32 t, x, y;  ...  add.s64 d, a, t   ->   mad.wide.u32 d, x, y, a
 *     mul.lo.s32 t, x, y;    ...  add.s32 d, t, a   ->   mad.lo.s32 d, x, y, a
 *
 * when t, x and y are each written at most once (so x*y is the same value
 * at the add), or, within a block, when none of them is written between
 * the multiply and the add; the multiply dies in DCE when nothing else
 * reads t.  This
 * is what lets isel emit one IMAD.WIDE per address, as ptxas does. */
#include <stdlib.h>

#include "ir/ir.h"
#include "ir/walk.h"

typedef struct {
	IrIns *mul;  /* the single definition of each register, if a mul */
} Def;

static int
fusible_mul(const PtxInstr *in)
{
	PtxType t = (PtxType)in->types[0];
	if (in->op != PTX_OP_mul || in->guard >= 0 || ptx_type_is_float(t))
		return 0;
	if (in->mode == PTX_MODE_WIDE)
		return ptx_type_size(t) == 4;
	return in->mode == PTX_MODE_LO && ptx_type_size(t) >= 4;
}

static int
single(const int *defs, const PtxOperand *o)
{
	return o->kind == PTX_OPD_IMM || (o->kind == PTX_OPD_REG && o->reg2 < 0 && !o->neg && defs[o->reg] <= 1);
}

static void
unuse(void *ctx, int r)
{
	((int *)ctx)[r]--;
}

static void
use(void *ctx, int r)
{
	((int *)ctx)[r]++;
}

/* Rewrite the add x (reading the result of mul m as operand k) into a mad;
 * the register reads it makes come off uses and its new ones go on (the
 * definitions stay as they were). */
static void
to_mad(IrFunc *f, IrIns *x, const IrIns *m, int k, int *uses)
{
	PtxInstr *in = &x->p;
	PtxOperand *ops = arena_alloc(f->a, 4 * sizeof *ops);

	ir_each_use(in, unuse, uses);
	ops[0] = in->opds[0];
	ops[1] = m->p.opds[1];
	ops[2] = m->p.opds[2];
	ops[3] = in->opds[3 - k];
	in->op = PTX_OP_mad;
	in->mode = m->p.mode;
	in->types[0] = m->p.types[0];
	in->opds = ops;
	in->nopds = 4;
	in->nmods = 0;  /* mods no longer describe it */
	x->own = 0;
	ir_each_use(in, use, uses);
}

static int
fusible_add(const PtxInstr *in)
{
	return in->op == PTX_OP_add && !ptx_type_is_float((PtxType)in->types[0]) &&
	       !(in->flags & (PTX_F_SAT | PTX_F_CC));
}

/* The operand k (1 or 2) of add x that mul m produced, if the widths fit. */
static int
fits(const IrIns *x, const IrIns *m, int k)
{
	const PtxOperand *o = &x->p.opds[k];
	PtxType t = (PtxType)x->p.types[0];
	return o->kind == PTX_OPD_REG && !o->neg && o->reg == m->p.opds[0].reg &&
	       ptx_type_size((PtxType)m->p.types[0]) * (m->p.mode == PTX_MODE_WIDE ? 2 : 1) == ptx_type_size(t);
}

typedef struct {
	IrIns **v;
	size_t n, cap;
} MulSet;

static void
forget(void *ctx, int r)
{
	MulSet *s = ctx;
	size_t i, j;
	for (i = j = 0; i < s->n; i++) {
		const PtxInstr *m = &s->v[i]->p;
		if (m->opds[0].reg == r || (m->opds[1].kind == PTX_OPD_REG && m->opds[1].reg == r) ||
		    (m->opds[2].kind == PTX_OPD_REG && m->opds[2].reg == r))
			continue;
		s->v[j++] = s->v[i];
	}
	s->n = j;
}

/* Within a block: a mul whose operands and result are not written again
 * before the add reads it fuses whatever the registers' definition counts. */
static int
fuse_local(IrFunc *f, IrBlock *B, int *uses)
{
	MulSet live = {0};
	size_t i, j;
	int n = 0, k;

	for (i = 0; i < B->ins.n; i++) {
		IrIns *x = &B->ins.v[i];
		if (x->dead)
			continue;
		if (fusible_add(&x->p) && x->p.guard < 0)
			for (j = live.n; j-- > 0;) {
				for (k = 1; k <= 2 && !fits(x, live.v[j], k); k++)
					;
				if (k <= 2) {
					to_mad(f, x, live.v[j], k, uses);
					n++;
					break;
				}
			}
		ir_each_def(&x->p, forget, &live);
		if (fusible_mul(&x->p) && x->p.opds[0].kind == PTX_OPD_REG && x->p.opds[0].reg2 < 0 &&
		    (x->p.opds[1].kind == PTX_OPD_REG || x->p.opds[1].kind == PTX_OPD_IMM) &&
		    (x->p.opds[2].kind == PTX_OPD_REG || x->p.opds[2].kind == PTX_OPD_IMM) &&
		    !x->p.opds[1].neg && !x->p.opds[2].neg &&
		    /* "mul r, r, 33" overwrites its own operand: nothing to fuse later */
		    !(x->p.opds[1].kind == PTX_OPD_REG && x->p.opds[1].reg == x->p.opds[0].reg) &&
		    !(x->p.opds[2].kind == PTX_OPD_REG && x->p.opds[2].reg == x->p.opds[0].reg)) {
			if (live.n == live.cap) {
				live.cap = live.cap ? 2 * live.cap : 8;
				live.v = xrealloc(live.v, live.cap * sizeof *live.v);
			}
			live.v[live.n++] = x;
		}
	}
	free(live.v);
	return n;
}

int
ir_fuse(IrFunc *f)
{
	int *defs = xcalloc((size_t)f->nregs + 1, 2 * sizeof *defs), *uses = defs + f->nregs + 1, n = 0;
	IrIns **mul = xcalloc((size_t)f->nregs + 1, sizeof *mul);
	size_t b, i;
	int k;

	ir_count(f, defs, uses);
	for (b = 0; b < f->b.n; b++)
		for (i = 0; i < f->b.v[b].ins.n; i++) {
			IrIns *x = &f->b.v[b].ins.v[i];
			if (!x->dead && fusible_mul(&x->p) && x->p.opds[0].kind == PTX_OPD_REG &&
			    defs[x->p.opds[0].reg] == 1 && single(defs, &x->p.opds[1]) && single(defs, &x->p.opds[2]))
				mul[x->p.opds[0].reg] = x;
		}
	for (b = 0; b < f->b.n; b++)
		for (i = 0; i < f->b.v[b].ins.n; i++) {
			IrIns *x = &f->b.v[b].ins.v[i];
			if (x->dead || !fusible_add(&x->p))
				continue;
			for (k = 1; k <= 2; k++) {
				const PtxOperand *o = &x->p.opds[k];
				IrIns *m;
				if (o->kind != PTX_OPD_REG || !(m = mul[o->reg]) || m == x || !fits(x, m, k))
					continue;
				to_mad(f, x, m, k, uses);
				n++;
				break;
			}
		}
	for (b = 0; b < f->b.n; b++)
		n += fuse_local(f, &f->b.v[b], uses);
	if (n)
		ir_count_current(f, defs, uses);   /* for ifconv */
	free(defs);
	free(mul);
	return n;
}
