/* verify.c -- IR invariants, checked between passes: registers in range,
 * branch targets and CFG edges consistent.  A failure is a compiler bug:
 * it aborts naming the pass that ran last. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"

static void
bad(const char *after, int b, const char *what)
{
	fprintf(stderr, "openassembler: internal error: IR invalid after %s: block %d: %s\n", after, b, what);
	abort();
}

/* The operand's own registers (not its elements): NULL when fine. */
static inline const char *
opd_bad(const IrFunc *f, const PtxOperand *o)
{
	if ((o->kind == PTX_OPD_REG || o->kind == PTX_OPD_ADDR) && (o->reg >= f->nregs || o->reg2 >= f->nregs))
		return "register out of range";
	if (o->kind == PTX_OPD_REG && o->reg < 0)
		return "register operand without a register";
	return NULL;
}

static void
check_opd(const IrFunc *f, const PtxOperand *o, const char *after, int b)
{
	const char *why = opd_bad(f, o);
	int i;

	if (why)
		bad(after, b, why);
	for (i = 0; i < o->nelems; i++)
		check_opd(f, &o->elems[i], after, b);
}

int
ir_verify_all(void)
{
	static int full = -1;

	if (full < 0)
		full = env_has("OA_VERIFY");
	return full;
}

void
ir_verify(const IrFunc *f, const char *after)
{
	size_t b, i;
	int k, j, all = ir_verify_all();

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
			if (x->p.opds == x->built && !all)
				continue;
			for (j = 0; j < x->p.nopds; j++) {
				const PtxOperand *o = &x->p.opds[j];
				if (o->nelems || opd_bad(f, o))   /* the common case without a call */
					check_opd(f, o, after, (int)b);
			}
		}
	}
}

/* FNV-1a over everything a pass may change: the CFG, every instruction
 * field and operand (vector elements too), the register types. */
#define MIX(h, x) ((h) = fnv1a64((h), &(x), sizeof(x)))

static u64
hash_opd(u64 h, const PtxOperand *o)
{
	int i;

	MIX(h, o->kind); MIX(h, o->neg); MIX(h, o->is_f64); MIX(h, o->symkind);
	MIX(h, o->comp); MIX(h, o->sreg); MIX(h, o->mask); MIX(h, o->has_off);
	MIX(h, o->reg); MIX(h, o->reg2); MIX(h, o->imm); MIX(h, o->fbits);
	MIX(h, o->var); MIX(h, o->index); MIX(h, o->nelems); MIX(h, o->pos); MIX(h, o->label);
	if (o->sym)
		h = fnv1a64(h, o->sym, strlen(o->sym) + 1);
	for (i = 0; i < o->nelems; i++)
		h = hash_opd(h, &o->elems[i]);
	return h;
}

static u64
hash_ins(u64 h, const IrIns *x)
{
	const PtxInstr *p = &x->p;
	int i;

	MIX(h, x->target); MIX(h, x->dead);
	MIX(h, p->op); MIX(h, p->guard); MIX(h, p->guard_neg); MIX(h, p->ntypes);
	MIX(h, p->types); MIX(h, p->rnd); MIX(h, p->cmp); MIX(h, p->aop); MIX(h, p->mode);
	MIX(h, p->sem); MIX(h, p->scope); MIX(h, p->cache); MIX(h, p->vec); MIX(h, p->nspaces);
	MIX(h, p->space); MIX(h, p->flags); MIX(h, p->nmods); MIX(h, p->mods); MIX(h, p->nopds);
	MIX(h, p->pos); MIX(h, p->loc_file); MIX(h, p->loc_line);
	if (p->nmods)
		h = fnv1a64(h, p->mods, p->nmods * sizeof *p->mods);
	for (i = 0; i < p->nopds; i++)
		h = hash_opd(h, &p->opds[i]);
	return h;
}

u64
ir_ptx_hash(const PtxFunc *fn)
{
	u64 h = FNV64_BASIS;
	int i, k;

	for (i = 0; i < fn->ninstrs; i++)
		for (k = 0; k < fn->instrs[i].nopds; k++)
			h = hash_opd(h, &fn->instrs[i].opds[k]);
	return h;
}

u64
ir_hash(const IrFunc *f)
{
	u64 h = FNV64_BASIS;
	size_t b, i;

	MIX(h, f->nregs);
	h = fnv1a64(h, f->rtype, (size_t)f->nregs);
	MIX(h, f->b.n);
	for (b = 0; b < f->b.n; b++) {
		const IrBlock *B = &f->b.v[b];
		MIX(h, B->succ); MIX(h, B->loop_depth); MIX(h, B->pred.n); MIX(h, B->ins.n);
		h = fnv1a64(h, B->pred.v, B->pred.n * sizeof *B->pred.v);
		for (i = 0; i < B->ins.n; i++)
			h = hash_ins(h, &B->ins.v[i]);
	}
	return h;
}
