/* paramaddr.c -- loads through the address of a kernel parameter.
 *
 * CUB (CCCL 3) passes a policy struct by value and reads its fields
 * through the parameter's address:
 *
 *     mov.b64      %rd255, kernel_param_9;
 *     ld.param.u8  %rs57, [%rd255];
 *     ld.param.u64 %rd686, [%rd255+16];
 *
 * When a register is written once, by `mov` of a kernel parameter's
 * address, and every read of it is the base of an `ld.param` address,
 * each load names the parameter directly (`[kernel_param_9+16]`: an LDC
 * from bank 0, as ptxas emits) and the `mov` dies in DCE.  Any other read
 * (arithmetic on the address, a store, cvta.param) leaves the code as it
 * is, and isel reports the address of a parameter as unsupported. */
#include <stdlib.h>

#include "ir/ir.h"
#include "ir/walk.h"

/* `mov d, param` of a kernel parameter: d, else -1. */
static int
param_mov(const IrFunc *f, const PtxInstr *in)
{
	const PtxOperand *s = &in->opds[1];

	if (in->op != PTX_OP_mov || in->nopds != 2 || in->guard >= 0 ||
	    in->opds[0].kind != PTX_OPD_REG || in->opds[0].reg2 >= 0)
		return -1;
	if ((s->kind != PTX_OPD_SYM && s->kind != PTX_OPD_ADDR) || s->reg >= 0 || s->nelems ||
	    s->symkind != PTX_SYM_VAR || !s->var || s->var->space != PTX_S_PARAM)
		return -1;
	return f->f->is_entry ? in->opds[0].reg : -1;
}

static int
is_ld_param(const PtxInstr *in)
{
	return (in->op == PTX_OP_ld) && in->nspaces && in->space[0] == PTX_S_PARAM;
}

int
ir_paramaddr(IrFunc *f)
{
	int *defs, *uses, *loads, n = 0;
	const PtxOperand **src;
	size_t b, i, nr = (size_t)f->nregs + 1;
	int any = 0, k;

	for (b = 0; b < f->b.n && !any; b++)
		for (i = 0; i < f->b.v[b].ins.n && !any; i++)
			any = !f->b.v[b].ins.v[i].dead && param_mov(f, &f->b.v[b].ins.v[i].p) >= 0;
	if (!any)
		return 0;
	defs = xcalloc(nr, sizeof *defs);
	uses = xcalloc(nr, sizeof *uses);
	loads = xcalloc(nr, sizeof *loads);
	src = xcalloc(nr, sizeof *src);
	ir_count(f, defs, uses);
	for (b = 0; b < f->b.n; b++)
		for (i = 0; i < f->b.v[b].ins.n; i++) {
			const IrIns *x = &f->b.v[b].ins.v[i];
			int d;
			if (x->dead)
				continue;
			if ((d = param_mov(f, &x->p)) >= 0 && defs[d] == 1)
				src[d] = &x->p.opds[1];
			if (!is_ld_param(&x->p))
				continue;
			for (k = 1; k < x->p.nopds; k++) {
				const PtxOperand *o = &x->p.opds[k];
				if (o->kind == PTX_OPD_ADDR && o->reg >= 0 && !o->nelems)
					loads[o->reg]++;
			}
		}
	for (b = 0; b < f->b.n; b++)
		for (i = 0; i < f->b.v[b].ins.n; i++) {
			IrIns *x = &f->b.v[b].ins.v[i];
			if (x->dead || !is_ld_param(&x->p))
				continue;
			for (k = 1; k < x->p.nopds; k++) {
				PtxOperand *o = &x->p.opds[k];
				const PtxOperand *s;
				if (o->kind != PTX_OPD_ADDR || o->reg < 0 || o->nelems)
					continue;
				s = src[o->reg];
				if (!s || loads[o->reg] != uses[o->reg])
					continue;
				o = &ir_opds_w(f, x)[k];
				o->reg = -1;
				o->var = s->var;
				o->sym = s->sym;
				o->symkind = s->symkind;
				o->imm += s->imm;
				o->has_off = 1;
				n++;
			}
		}
	free(defs);
	free(uses);
	free(loads);
	free(src);
	return n;
}
