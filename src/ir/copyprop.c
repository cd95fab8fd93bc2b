/* copyprop.c -- copy and constant propagation.
 *
 * `mov d, s` (and `cvta.to.global d, s` / `cvta.global d, s`: global and
 * generic addresses coincide) where d is written only there and s is a
 * register written at most once (so it holds one value everywhere d
 * does): every read of d becomes a read of s.  `mov d, imm` with d written
 * once: reads of d in plain arithmetic become the immediate.  The copies
 * die in the next DCE. */
#include <stdlib.h>

#include "ir/ir.h"
#include "ir/walk.h"

static int
same_class(const IrFunc *f, int a, int b)
{
	PtxType ta = (PtxType)f->rtype[a], tb = (PtxType)f->rtype[b];
	if ((ta == PTX_T_PRED) != (tb == PTX_T_PRED))
		return 0;
	return ptx_type_size(ta) == ptx_type_size(tb);
}

/* Operations whose register sources may be immediates in isel. */
static int
takes_imm(const PtxInstr *in)
{
	switch (in->op) {
	case PTX_OP_add: case PTX_OP_sub: case PTX_OP_mul: case PTX_OP_mad: case PTX_OP_and:
	case PTX_OP_or: case PTX_OP_xor: case PTX_OP_shl: case PTX_OP_shr: case PTX_OP_min:
	case PTX_OP_max: case PTX_OP_selp:
		return !ptx_type_is_float((PtxType)in->types[0]);
	case PTX_OP_setp:
		return !ptx_type_is_float((PtxType)in->types[0]);
	}
	return 0;
}

static int
is_copy(const IrFunc *f, const PtxInstr *in, int *d, const PtxOperand **s)
{
	int sp = in->nspaces ? in->space[0] : PTX_S_NONE;
	if (in->guard >= 0 || in->nopds != 2 || in->opds[0].kind != PTX_OPD_REG || in->opds[0].reg2 >= 0)
		return 0;
	if (in->op == PTX_OP_cvta && sp != PTX_S_GLOBAL)
		return 0;
	if (in->op != PTX_OP_mov && in->op != PTX_OP_cvta)
		return 0;
	*d = in->opds[0].reg;
	*s = &in->opds[1];
	if ((*s)->kind == PTX_OPD_REG)
		return !(*s)->neg && (*s)->reg2 < 0 && same_class(f, *d, (*s)->reg);
	return in->op == PTX_OP_mov && (*s)->kind == PTX_OPD_IMM && f->rtype[*d] != PTX_T_PRED;
}

static int
rewrite(PtxInstr *in, int d, const PtxOperand *s, int imm_ok)
{
	int i, k, n = 0;

	for (i = 0; i < in->nopds; i++) {
		PtxOperand *o = &in->opds[i];
		if (ir_opd_is_def(in, i))
			continue;
		if (o->kind == PTX_OPD_REG && o->reg == d && o->reg2 < 0 && !o->neg) {
			if (s->kind == PTX_OPD_REG) {
				o->reg = s->reg;
				n++;
			} else if (imm_ok) {
				u32 pos = o->pos;
				*o = *s;
				o->pos = pos;
				n++;
			}
		} else if (s->kind == PTX_OPD_REG && o->kind == PTX_OPD_ADDR && o->reg == d) {
			o->reg = s->reg;
			n++;
		} else if (s->kind == PTX_OPD_REG && o->kind == PTX_OPD_VEC) {
			for (k = 0; k < o->nelems; k++)
				if (o->elems[k].kind == PTX_OPD_REG && o->elems[k].reg == d)
					o->elems[k].reg = s->reg, n++;
		}
	}
	if (s->kind == PTX_OPD_REG && in->guard == d)
		in->guard = s->reg, n++;
	return n;
}

int
ir_copyprop(IrFunc *f)
{
	int *defs = xcalloc((size_t)f->nregs + 1, sizeof *defs), total = 0;
	size_t b, i, c, j;

	ir_count(f, defs, NULL);
	for (b = 0; b < f->b.n; b++)
		for (i = 0; i < f->b.v[b].ins.n; i++) {
			IrIns *x = &f->b.v[b].ins.v[i];
			const PtxOperand *s;
			PtxOperand sv;
			int d;
			if (x->dead || !is_copy(f, &x->p, &d, &s) || defs[d] != 1)
				continue;
			if (s->kind == PTX_OPD_REG && (defs[s->reg] > 1 || s->reg == d))
				continue;
			sv = *s;
			for (c = 0; c < f->b.n; c++)
				for (j = 0; j < f->b.v[c].ins.n; j++) {
					IrIns *y = &f->b.v[c].ins.v[j];
					if (y != x && !y->dead)
						total += rewrite(&y->p, d, &sv, takes_imm(&y->p));
				}
		}
	free(defs);
	return total;
}
