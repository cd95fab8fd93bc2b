/* unroll.c -- full unrolling of counted single-block loops (--opt-level opt).
 *
 * A loop here is a block B whose last instruction is `@p bra B`, entered
 * from one other block, where within B
 *     the induction variable i is written once, by `add/sub i, i, step`,
 *     p is written once, by `setp.cmp p, i, C` (or C, i), step and C
 *     immediates,
 * and i's value on entry is a constant (`mov i, init` in the block that
 * enters B or in its single-predecessor chain).  Running the compare on
 * the host gives the trip count N exactly (same arithmetic as the
 * interpreter); B then becomes `mov i, init` followed by N copies of its
 * body without the branch.  PTX registers are not SSA, so a verbatim copy
 * of the body is the loop's own semantics; constfold then turns i into
 * constants in each copy and DCE removes the compares.
 *
 * Only when it does not grow the code: SASS instruction count is the
 * metric (bench/compile), so N x (body - 2) must stay within the loop's
 * size plus UNROLL_SLACK (the induction step, compare and branch vanish;
 * address arithmetic on i folds).  Partial unrolling of loops with
 * unknown trip counts always grows the code and is not done. */
#include <stdlib.h>
#include <string.h>

#include "ir/cfg.h"
#include "ir/ir.h"
#include "ir/walk.h"
#include "ptx/arith.h"

enum { UNROLL_MAX_TRIP = 64, UNROLL_SLACK = 4 };

typedef struct {
	int b, pre;     /* the loop block and the block entering it */
	int iv, pred;
	int n;          /* iv width in bits */
	u64 init;
	int trip;
	int body;       /* live instructions without the branch */
} Loop;

/* Definitions of r in B (a vector element counts as 2: not a scalar
 * definition we can follow); *def the last scalar one. */
static int
count_defs_in(const IrBlock *B, int r, const IrIns **def)
{
	size_t i;
	int n = 0, e;

	for (i = 0; i < B->ins.n; i++) {
		const IrIns *x = &B->ins.v[i];
		const PtxOperand *o = &x->p.opds[0];
		if (x->dead || !ir_opd_is_def(&x->p, 0))
			continue;
		if (o->kind == PTX_OPD_REG && (o->reg == r || o->reg2 == r)) {
			n++;
			*def = x;
		} else if (o->kind == PTX_OPD_VEC) {
			for (e = 0; e < o->nelems; e++)
				if (o->elems[e].kind == PTX_OPD_REG && o->elems[e].reg == r)
					n += 2;
		}
	}
	return n;
}

static int
cmpop(int cmp)
{
	switch (cmp) {
	case PTX_CMP_EQ: return CMP_EQ;
	case PTX_CMP_NE: return CMP_NE;
	case PTX_CMP_LT: case PTX_CMP_LO: return CMP_LT;
	case PTX_CMP_LE: case PTX_CMP_LS: return CMP_LE;
	case PTX_CMP_GT: case PTX_CMP_HI: return CMP_GT;
	case PTX_CMP_GE: case PTX_CMP_HS: return CMP_GE;
	}
	return -1;
}

static int
int_type(PtxType t)
{
	return t != PTX_T_PRED && !ptx_type_is_float(t) && (ptx_type_size(t) == 4 || ptx_type_size(t) == 8);
}

/* The constant value of r at the end of block p (walking up single
 * predecessors), if its last definition there is `mov r, imm`. */
static int
entry_value(const IrFunc *f, int p, int loop, int r, u64 *v)
{
	int depth;

	for (depth = 0; depth < 8 && p >= 0; depth++) {
		const IrBlock *P = &f->b.v[p];
		size_t i;
		for (i = P->ins.n; i-- > 0;) {
			const IrIns *x = &P->ins.v[i];
			const PtxOperand *d = &x->p.opds[0];
			int writes = 0;
			if (x->dead || !ir_opd_is_def(&x->p, 0))
				continue;
			if (d->kind == PTX_OPD_REG)
				writes = d->reg == r || d->reg2 == r;
			else if (d->kind == PTX_OPD_VEC)
				writes = 1;   /* conservatively */
			if (!writes)
				continue;
			if (x->p.op != PTX_OP_mov || x->p.guard >= 0 || d->kind != PTX_OPD_REG || d->reg2 >= 0 ||
			    x->p.opds[1].kind != PTX_OPD_IMM)
				return 0;
			*v = (u64)x->p.opds[1].imm;
			return 1;
		}
		if (P->pred.n != 1 || P->pred.v[0] == loop)
			return 0;
		p = P->pred.v[0];
	}
	return 0;
}

/* Is block b a counted loop?  Fills l. */
static int
analyse(const IrFunc *f, int b, Loop *l)
{
	const IrBlock *B = &f->b.v[b];
	const IrIns *br = NULL, *cmp = NULL, *step = NULL, *x;
	const PtxOperand *a, *c;
	size_t i;
	int ivk, ct, t, body = 0;
	PtxType st;

	for (i = 0; i < B->ins.n; i++)
		if (!B->ins.v[i].dead) {
			br = &B->ins.v[i];
			body++;
		}
	if (!br || br->p.op != PTX_OP_bra || br->p.guard < 0 || br->target != b || B->succ[1] != b ||
	    B->succ[0] < 0 || B->pred.n != 2)
		return 0;
	l->b = b;
	l->pre = B->pred.v[0] == b ? B->pred.v[1] : B->pred.v[0];
	l->pred = br->p.guard;
	l->body = body - 1;
	if (l->pre == b || count_defs_in(B, l->pred, &cmp) != 1 || cmp->p.op != PTX_OP_setp ||
	    cmp->p.guard >= 0 || cmp->p.nopds != 3 || cmp->p.aop || cmp->p.opds[0].reg2 >= 0)
		return 0;
	st = (PtxType)cmp->p.types[0];
	if (!int_type(st) || cmpop(cmp->p.cmp) < 0)
		return 0;
	a = &cmp->p.opds[1];
	c = &cmp->p.opds[2];
	ivk = a->kind == PTX_OPD_REG ? 1 : 2;
	if (ivk == 2) {
		const PtxOperand *s = a;
		a = c;
		c = s;
	}
	if (a->kind != PTX_OPD_REG || a->neg || c->kind != PTX_OPD_IMM)
		return 0;
	l->iv = a->reg;
	if (count_defs_in(B, l->iv, &step) != 1 || (step->p.op != PTX_OP_add && step->p.op != PTX_OP_sub) ||
	    step->p.guard >= 0 || step->p.nopds != 3 || (step->p.flags & (PTX_F_CC | PTX_F_SAT)) ||
	    !int_type((PtxType)step->p.types[0]) || ptx_type_size((PtxType)step->p.types[0]) != ptx_type_size(st))
		return 0;
	if (step->p.opds[1].kind != PTX_OPD_REG || step->p.opds[1].reg != l->iv || step->p.opds[1].neg ||
	    step->p.opds[2].kind != PTX_OPD_IMM)
		return 0;
	l->n = ptx_type_size(st) * 8;
	if (ptx_type_size((PtxType)f->rtype[l->iv]) * 8 != l->n || !entry_value(f, l->pre, b, l->iv, &l->init))
		return 0;
	/* run it */
	ct = cmpop(cmp->p.cmp);
	{
		u64 v = zext(l->init, l->n), p = 0, s = (u64)step->p.opds[2].imm, k = (u64)c->imm;
		for (t = 1; t <= UNROLL_MAX_TRIP; t++) {
			for (i = 0; i < B->ins.n; i++) {
				x = &B->ins.v[i];
				if (x == step)
					v = zext(step->p.op == PTX_OP_add ? v + s : v - s, l->n);
				else if (x == cmp)
					p = ivk == 1 ? i_cmp(ct, v, k, ptx_type_is_signed(st), l->n) :
						       i_cmp(ct, k, v, ptx_type_is_signed(st), l->n);
			}
			if ((p != 0) == (br->p.guard_neg != 0))   /* not taken: leaves */
				break;
		}
	}
	if (t > UNROLL_MAX_TRIP)
		return 0;
	l->trip = t;
	return 1;
}

static void
unroll(IrFunc *f, const Loop *l)
{
	IrBlock *B = &f->b.v[l->b];
	VEC(IrIns) nv = {0};
	IrIns init;
	PtxOperand *ops;
	size_t i, last = B->ins.n;
	int t;

	while (last > 0 && B->ins.v[last - 1].dead)
		last--;
	last--;   /* the branch */
	memset(&init, 0, sizeof init);
	init.target = -1;
	init.p = B->ins.v[last].p;
	ops = arena_alloc(f->a, 2 * sizeof *ops);
	memset(ops, 0, 2 * sizeof *ops);
	ops[0].kind = PTX_OPD_REG;
	ops[0].reg = l->iv;
	ops[0].reg2 = -1;
	ops[0].comp = -1;
	ops[1].kind = PTX_OPD_IMM;
	ops[1].reg = ops[1].reg2 = -1;
	ops[1].comp = -1;
	ops[1].imm = l->n == 64 ? (i64)l->init : (i64)(i32)(u32)l->init;
	init.p.op = PTX_OP_mov;
	init.p.guard = -1;
	init.p.guard_neg = 0;
	init.p.ntypes = 1;
	init.p.types[0] = l->n == 64 ? PTX_T_B64 : PTX_T_B32;
	init.p.rnd = init.p.cmp = init.p.aop = init.p.mode = init.p.sem = init.p.scope = init.p.cache = 0;
	init.p.vec = 1;
	init.p.nspaces = 0;
	init.p.flags = 0;
	init.p.nmods = 0;
	init.p.opds = ops;
	init.p.nopds = 2;
	vec_push(&nv, init);
	for (t = 0; t < l->trip; t++)
		for (i = 0; i < last; i++) {
			IrIns y = B->ins.v[i];
			if (y.dead)
				continue;
			y.own = 0;   /* the copies share the operands (ir_opds_w) */
			vec_push(&nv, y);
		}
	vec_free(&B->ins);
	B->ins.v = nv.v;
	B->ins.n = nv.n;
	B->ins.cap = nv.cap;
	ir_edge_remove(f, l->b, l->b);
}

int
ir_unroll(IrFunc *f)
{
	size_t b;
	int n = 0;

	for (b = 0; b < f->b.n; b++) {
		Loop l;
		if (!analyse(f, (int)b, &l))
			continue;
		if (l.trip * (l.body - 2) > l.body + 1 + UNROLL_SLACK)
			continue;
		unroll(f, &l);
		n++;
	}
	return n;
}
