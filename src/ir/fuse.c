/* fuse.c -- multiply-add fusion for address arithmetic:
 *
 *     mul.wide.u32 t, x, y;  ...  add.s64 d, a, t   ->   mad.wide.u32 d, x, y, a
 *     mul.lo.s32 t, x, y;    ...  add.s32 d, t, a   ->   mad.lo.s32 d, x, y, a
 *
 * when t, x and y are each written at most once (so x*y is the same value
 * at the add); the multiply dies in DCE when nothing else reads t.  This
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

int
ir_fuse(IrFunc *f)
{
	int *defs = xcalloc((size_t)f->nregs + 1, sizeof *defs), n = 0;
	IrIns **mul = xcalloc((size_t)f->nregs + 1, sizeof *mul);
	size_t b, i;
	int k;

	ir_count(f, defs, NULL);
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
			PtxInstr *in = &x->p;
			PtxType t = (PtxType)in->types[0];
			if (x->dead || in->op != PTX_OP_add || ptx_type_is_float(t) || (in->flags & (PTX_F_SAT | PTX_F_CC)))
				continue;
			for (k = 1; k <= 2; k++) {
				const PtxOperand *o = &in->opds[k];
				IrIns *m;
				PtxOperand *ops;
				if (o->kind != PTX_OPD_REG || !(m = mul[o->reg]) || m == x)
					continue;
				if (ptx_type_size((PtxType)m->p.types[0]) * (m->p.mode == PTX_MODE_WIDE ? 2 : 1) !=
				    ptx_type_size(t))
					continue;
				ops = arena_alloc(f->a, 4 * sizeof *ops);
				ops[0] = in->opds[0];
				ops[1] = m->p.opds[1];
				ops[2] = m->p.opds[2];
				ops[3] = in->opds[3 - k];
				in->op = PTX_OP_mad;
				in->mode = m->p.mode;
				in->types[0] = m->p.types[0];
				in->opds = ops;
				in->nopds = 4;
				in->nmods = 0;  /* modtext no longer describes it */
				n++;
				break;
			}
		}
	free(defs);
	free(mul);
	return n;
}
