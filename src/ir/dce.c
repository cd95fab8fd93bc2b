/* dce.c -- dead code elimination: remove side-effect-free instructions
 * whose results nobody reads, until nothing changes. */
#include <stdlib.h>

#include "ir/ir.h"
#include "ir/walk.h"

/* Operations with no effect besides their destination registers. */
static int
pure(const PtxInstr *in)
{
	switch (in->op) {
	case PTX_OP_add: case PTX_OP_sub: case PTX_OP_mul: case PTX_OP_mad: case PTX_OP_mul24:
	case PTX_OP_mad24: case PTX_OP_div: case PTX_OP_rem: case PTX_OP_abs: case PTX_OP_neg:
	case PTX_OP_min: case PTX_OP_max: case PTX_OP_and: case PTX_OP_or: case PTX_OP_xor:
	case PTX_OP_not: case PTX_OP_cnot: case PTX_OP_shl: case PTX_OP_shr: case PTX_OP_shf:
	case PTX_OP_lop3: case PTX_OP_prmt: case PTX_OP_bfe: case PTX_OP_bfi: case PTX_OP_bfind:
	case PTX_OP_brev: case PTX_OP_clz: case PTX_OP_popc: case PTX_OP_fns: case PTX_OP_bmsk:
	case PTX_OP_mov: case PTX_OP_cvt: case PTX_OP_cvta: case PTX_OP_setp: case PTX_OP_set:
	case PTX_OP_selp: case PTX_OP_slct: case PTX_OP_fma: case PTX_OP_rcp: case PTX_OP_sqrt:
	case PTX_OP_rsqrt: case PTX_OP_sin: case PTX_OP_cos: case PTX_OP_lg2: case PTX_OP_ex2:
	case PTX_OP_tanh: case PTX_OP_copysign: case PTX_OP_testp: case PTX_OP_sad:
	case PTX_OP_dp4a: case PTX_OP_dp2a: case PTX_OP_szext: case PTX_OP_cvt_pack:
	case PTX_OP_isspacep: case PTX_OP_mapa:
		return 1;
	case PTX_OP_ld: case PTX_OP_ldu:
		return !(in->flags & PTX_F_VOLATILE) && in->sem <= PTX_SEM_WEAK;
	}
	return 0;
}

typedef struct {
	const int *uses;
	int live;
} Mark;

static void
mark(void *ctx, int r)
{
	Mark *m = ctx;
	if (m->uses[r])
		m->live = 1;
}

int
ir_dce(IrFunc *f)
{
	int total = 0, changed = 1;
	int *uses = xcalloc((size_t)f->nregs, sizeof *uses);

	while (changed) {
		size_t b, i;
		changed = 0;
		for (i = 0; i < (size_t)f->nregs; i++)
			uses[i] = 0;
		ir_count(f, NULL, uses);
		for (b = 0; b < f->b.n; b++)
			for (i = 0; i < f->b.v[b].ins.n; i++) {
				IrIns *x = &f->b.v[b].ins.v[i];
				Mark m = { uses, 0 };
				if (x->dead || !pure(&x->p))
					continue;
				ir_each_def(&x->p, mark, &m);
				if (!m.live) {
					x->dead = 1;
					changed = 1;
					total++;
				}
			}
	}
	free(uses);
	return total;
}
