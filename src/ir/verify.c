/* verify.c -- IR invariants, checked between passes: registers in range,
 * branch targets and CFG edges consistent.  A failure is a compiler bug:
 * it aborts naming the pass that ran last. */
#include <stdio.h>

#include <stdlib.h>

#include "ir/ir.h"

static void
bad(const char *after, int b, const char *what)
{
	fprintf(stderr, "openassembler: internal error: IR invalid after %s: block %d: %s\n", after, b, what);
	abort();
}

static void
check_opd(const IrFunc *f, const PtxOperand *o, const char *after, int b)
{
	int i;

	if ((o->kind == PTX_OPD_REG || o->kind == PTX_OPD_ADDR) && (o->reg >= f->nregs || o->reg2 >= f->nregs))
		bad(after, b, "register out of range");
	if (o->kind == PTX_OPD_REG && o->reg < 0)
		bad(after, b, "register operand without a register");
	for (i = 0; i < o->nelems; i++)
		check_opd(f, &o->elems[i], after, b);
}

void
ir_verify(const IrFunc *f, const char *after)
{
	size_t b, i;
	int k, j;

	for (b = 0; b < f->b.n; b++) {
		const IrBlock *B = &f->b.v[b];
		for (k = 0; k < 2; k++) {
			int s = B->succ[k], found = 0;
			if (s < -1 || s >= (int)f->b.n)
				bad(after, (int)b, "successor out of range");
			if (s < 0)
				continue;
			for (j = 0; j < (int)f->b.v[s].pred.n; j++)
				found |= f->b.v[s].pred.v[j] == (int)b;
			if (!found)
				bad(after, (int)b, "edge missing from the successor's predecessors");
		}
		for (i = 0; i < B->ins.n; i++) {
			const IrIns *x = &B->ins.v[i];
			if (x->dead)
				continue;
			if (x->p.guard >= f->nregs)
				bad(after, (int)b, "guard out of range");
			if (x->target >= 0 && (i + 1 != B->ins.n || B->succ[1] != x->target))
				if (!(B->succ[0] == x->target && i + 1 == B->ins.n))
					bad(after, (int)b, "branch target is not a successor");
			for (j = 0; j < x->p.nopds; j++)
				check_opd(f, &x->p.opds[j], after, (int)b);
		}
	}
}
