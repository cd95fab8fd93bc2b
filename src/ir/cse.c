/* cse.c -- common subexpression elimination: dominator-based value
 * numbering of pure instructions.
 *
 * Walks the dominator tree keeping a scoped table of the expressions
 * computed on the way down.  An expression is an unguarded pure
 * instruction whose single destination and whose register sources are
 * each written once in the function (so the same operands mean the same
 * values wherever they are read).  A second computation of an expression
 * that a dominating one already computed becomes `mov d2, d1`, which
 * copyprop forwards and DCE removes.  Pure here: arithmetic, logic,
 * compares, conversions, reads of special registers that do not change
 * during a kernel (%tid, %ctaid, %ntid, %cluster_ctarank, lane masks...),
 * symbol addresses, and loads from the kernel's parameters, constant
 * memory and `.nc` global memory (read-only while the kernel runs). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ir/cfg.h"
#include "ir/ir.h"
#include "ir/walk.h"

typedef struct {
	IrIns *x;
	u32 hash;
	int next;      /* previous entry of the same bucket */
} Ent;

typedef struct {
	IrFunc *f;
	int *defs;
	VEC(Ent) e;
	int *head;     /* bucket -> last entry, -1 */
	int *rep;      /* register -> the register it equals */
	u32 nb;        /* buckets (power of two) */
	int n;
} Cse;

static int
stable_sreg(int s)
{
	switch (s) {
	case PTX_SR_tid: case PTX_SR_ntid: case PTX_SR_ctaid: case PTX_SR_nctaid: case PTX_SR_laneid:
	case PTX_SR_nwarpid: case PTX_SR_gridid: case PTX_SR_lanemask_eq: case PTX_SR_lanemask_le:
	case PTX_SR_lanemask_lt: case PTX_SR_lanemask_ge: case PTX_SR_lanemask_gt:
	case PTX_SR_dynamic_smem_size: case PTX_SR_total_smem_size: case PTX_SR_cluster_ctaid:
	case PTX_SR_cluster_nctaid: case PTX_SR_cluster_ctarank: case PTX_SR_cluster_nctarank:
	case PTX_SR_clusterid: case PTX_SR_nclusterid: case PTX_SR_is_explicit_cluster:
		return 1;
	}
	return 0;
}

/* Does operand o (a source) read only stable values? */
static int
stable_opd(const Cse *c, const PtxOperand *o)
{
	int i;

	switch (o->kind) {
	case PTX_OPD_REG:
		return o->reg >= 0 && c->defs[o->reg] <= 1 && (o->reg2 < 0 || c->defs[o->reg2] <= 1);
	case PTX_OPD_SREG:
		return stable_sreg(o->sreg);
	case PTX_OPD_IMM: case PTX_OPD_FIMM:
		return 1;
	case PTX_OPD_SYM:
		return o->symkind == PTX_SYM_VAR;
	case PTX_OPD_ADDR:
		if (o->reg >= 0 && c->defs[o->reg] > 1)
			return 0;
		/* fallthrough */
	case PTX_OPD_VEC:
		for (i = 0; i < o->nelems; i++)
			if (!stable_opd(c, &o->elems[i]))
				return 0;
		return 1;
	}
	return 0;
}

static int
pure_op(const IrFunc *f, const PtxInstr *in)
{
	int sp = in->nspaces ? in->space[0] : PTX_S_NONE;

	switch (in->op) {
	case PTX_OP_add: case PTX_OP_sub: case PTX_OP_mul: case PTX_OP_mad: case PTX_OP_mul24:
	case PTX_OP_mad24: case PTX_OP_div: case PTX_OP_rem: case PTX_OP_abs: case PTX_OP_neg:
	case PTX_OP_min: case PTX_OP_max: case PTX_OP_and: case PTX_OP_or: case PTX_OP_xor:
	case PTX_OP_not: case PTX_OP_cnot: case PTX_OP_shl: case PTX_OP_shr: case PTX_OP_shf:
	case PTX_OP_lop3: case PTX_OP_prmt: case PTX_OP_bfe: case PTX_OP_bfi: case PTX_OP_bfind:
	case PTX_OP_brev: case PTX_OP_clz: case PTX_OP_popc: case PTX_OP_bmsk:
	case PTX_OP_cvt: case PTX_OP_cvta: case PTX_OP_setp: case PTX_OP_set:
	case PTX_OP_selp: case PTX_OP_slct: case PTX_OP_fma: case PTX_OP_rcp: case PTX_OP_sqrt:
	case PTX_OP_rsqrt: case PTX_OP_sin: case PTX_OP_cos: case PTX_OP_lg2: case PTX_OP_ex2:
	case PTX_OP_tanh: case PTX_OP_copysign: case PTX_OP_testp: case PTX_OP_sad:
	case PTX_OP_dp4a: case PTX_OP_dp2a: case PTX_OP_szext: case PTX_OP_cvt_pack:
	case PTX_OP_mapa:
		return !(in->flags & PTX_F_CC);
	case PTX_OP_mov:
		/* not copies or constants: copyprop and constfold own those */
		return in->nopds == 2 && (in->opds[1].kind == PTX_OPD_SREG || in->opds[1].kind == PTX_OPD_SYM);
	case PTX_OP_ld:
		if ((in->flags & PTX_F_VOLATILE) || in->sem > PTX_SEM_WEAK || in->vec != 1 || in->nspaces != 1)
			return 0;
		return (sp == PTX_S_PARAM && f->f->is_entry) || sp == PTX_S_CONST ||
		       (sp == PTX_S_GLOBAL && (in->flags & PTX_F_NC));
	}
	return 0;
}

static int
candidate(const Cse *c, const IrIns *x)
{
	const PtxInstr *in = &x->p;
	const PtxOperand *d = &in->opds[0];
	int k;

	if (x->dead || in->guard >= 0 || in->nopds < 2 || !pure_op(c->f, in) || !ir_opd_is_def(in, 0))
		return 0;
	if (d->kind != PTX_OPD_REG || d->reg < 0 || d->reg2 >= 0 || c->defs[d->reg] != 1)
		return 0;
	if (c->f->rtype[d->reg] != PTX_T_PRED && ptx_type_size((PtxType)c->f->rtype[d->reg]) < 2)
		return 0;
	for (k = 1; k < in->nopds; k++)
		if (!stable_opd(c, &in->opds[k]) || (in->opds[k].kind == PTX_OPD_REG && in->opds[k].reg == d->reg))
			return 0;
	return 1;
}

static u32
mix(u32 h, u64 v)
{
	h ^= (u32)v + 0x9e3779b9u + (h << 6) + (h >> 2);
	return h ^ ((u32)(v >> 32) + 0x85ebca6bu + (h << 6) + (h >> 2));
}

static u32
hash_opd(u32 h, const PtxOperand *o)
{
	int i;

	/* one mix of the fields folded together: a collision costs only a
	 * same_ins, and equal operands hash equal whatever the function */
	h = mix(h, ((u64)o->kind << 32 | (u64)o->neg << 16 | (u64)(u8)o->comp << 8 | o->sreg) ^
		       ((u64)(u32)o->reg << 32 | (u32)o->reg2) * 0x9e3779b97f4a7c15ull ^
		       ((u64)o->imm ^ o->fbits ^ (u64)(uintptr_t)o->var) * 0xc2b2ae3d27d4eb4full);
	for (i = 0; i < o->nelems; i++)
		h = hash_opd(h, &o->elems[i]);
	return h;
}

static u32
hash_ins(const PtxInstr *in)
{
	u32 h = in->op;
	int k;

	h = mix(h, (u64)in->types[0] | (u64)in->types[1] << 8 | (u64)in->rnd << 16 | (u64)in->cmp << 24 |
		       (u64)in->mode << 32 | (u64)in->aop << 40 | (u64)in->ntypes << 48);
	h = mix(h, in->flags);
	for (k = 1; k < in->nopds; k++)
		h = hash_opd(h, &in->opds[k]);
	return h;
}

static int
same_opd(const PtxOperand *a, const PtxOperand *b)
{
	int i;

	if (a->kind != b->kind || a->neg != b->neg || a->is_f64 != b->is_f64 || a->symkind != b->symkind ||
	    a->comp != b->comp || a->sreg != b->sreg || a->reg != b->reg || a->reg2 != b->reg2 ||
	    a->imm != b->imm || a->fbits != b->fbits || a->var != b->var || a->nelems != b->nelems)
		return 0;
	if ((a->sym == NULL) != (b->sym == NULL) || (a->sym && strcmp(a->sym, b->sym)))
		return 0;
	for (i = 0; i < a->nelems; i++)
		if (!same_opd(&a->elems[i], &b->elems[i]))
			return 0;
	return 1;
}

static int
same_ins(const PtxInstr *a, const PtxInstr *b)
{
	int k;

	if (a->op != b->op || a->ntypes != b->ntypes || memcmp(a->types, b->types, sizeof a->types) ||
	    a->rnd != b->rnd || a->cmp != b->cmp || a->aop != b->aop || a->mode != b->mode || a->sem != b->sem ||
	    a->scope != b->scope || a->cache != b->cache || a->vec != b->vec || a->nspaces != b->nspaces ||
	    memcmp(a->space, b->space, sizeof a->space) || a->flags != b->flags || a->nopds != b->nopds ||
	    a->nmods != b->nmods)
		return 0;
	for (k = 0; k < a->nmods; k++)
		if (a->mods[k] != b->mods[k])
			return 0;
	for (k = 1; k < a->nopds; k++)
		if (!same_opd(&a->opds[k], &b->opds[k]))
			return 0;
	return 1;
}

/* y recomputes x's value: y becomes `mov d_y, d_x`. */
static void
to_copy(Cse *c, IrIns *y, const IrIns *x)
{
	PtxInstr *in = &y->p;
	PtxOperand *ops = arena_alloc(c->f->a, 2 * sizeof *ops);
	int t = c->f->rtype[in->opds[0].reg], sz = ptx_type_size((PtxType)t);

	ops[0] = in->opds[0];
	ops[1] = x->p.opds[0];
	ops[1].pos = in->opds[0].pos;
	in->op = PTX_OP_mov;
	in->ntypes = 1;
	in->types[0] = t == PTX_T_PRED ? PTX_T_PRED : sz == 8 ? PTX_T_B64 : sz == 4 ? PTX_T_B32 : PTX_T_B16;
	in->rnd = in->cmp = in->aop = in->mode = in->sem = in->scope = in->cache = 0;
	in->vec = 1;
	in->nspaces = 0;
	in->flags = 0;
	in->nmods = 0;
	in->opds = ops;
	in->nopds = 2;
	y->own = 0;
}

/* Read the representative of each register source (rep[d2] = d1 once
 * d2 is a copy of d1: both written once, so every read of d2 may read d1). */
static void
rename_opd(const Cse *c, PtxOperand *o, int src)
{
	int i;

	if (o->kind == PTX_OPD_REG && src) {
		if (o->reg >= 0)
			o->reg = c->rep[o->reg];
		if (o->reg2 >= 0)
			o->reg2 = c->rep[o->reg2];
	} else if (o->kind == PTX_OPD_ADDR && o->reg >= 0) {
		o->reg = c->rep[o->reg];
	}
	if (o->kind == PTX_OPD_ADDR || o->kind == PTX_OPD_VEC)
		for (i = 0; i < o->nelems; i++)
			rename_opd(c, &o->elems[i], o->kind == PTX_OPD_ADDR || src);
}

typedef struct {
	const int *rep;
	int any;
} Stale;

static void
stale(void *ctx, int r)
{
	Stale *s = ctx;

	s->any |= s->rep[r] != r;
}

/* The operands are written (ir_opds_w) only when a read they make has
 * another representative: most instructions keep them. */
static void
rename_ins(const Cse *c, IrIns *x)
{
	PtxInstr *in = &x->p;
	Stale s = { c->rep, 0 };
	int k;

	ir_each_use(in, stale, &s);
	if (in->guard >= 0)
		in->guard = c->rep[in->guard];
	if (!s.any)
		return;
	ir_opds_w(c->f, x);
	for (k = 0; k < in->nopds; k++)
		if (!ir_opd_is_def(in, k))
			rename_opd(c, &in->opds[k], 1);
}

static void
visit_block(Cse *c, int b)
{
	IrBlock *B = &c->f->b.v[b];
	size_t i;

	for (i = 0; i < B->ins.n; i++) {
		IrIns *x = &B->ins.v[i];
		u32 h;
		int e;
		Ent ne;
		if (x->dead)
			continue;
		if (c->n)   /* else every register is its own representative */
			rename_ins(c, x);
		if (!candidate(c, x))
			continue;
		h = hash_ins(&x->p);
		for (e = c->head[h & (c->nb - 1)]; e >= 0; e = c->e.v[e].next)
			if (c->e.v[e].hash == h && same_ins(&c->e.v[e].x->p, &x->p))
				break;
		if (e >= 0 && c->f->rtype[c->e.v[e].x->p.opds[0].reg] == c->f->rtype[x->p.opds[0].reg]) {
			c->rep[x->p.opds[0].reg] = c->e.v[e].x->p.opds[0].reg;
			to_copy(c, x, c->e.v[e].x);
			c->n++;
			continue;
		}
		ne.x = x;
		ne.hash = h;
		ne.next = c->head[h & (c->nb - 1)];
		c->head[h & (c->nb - 1)] = (int)c->e.n;
		vec_push(&c->e, ne);
	}
}

int
ir_cse(IrFunc *f)
{
	Cse c;
	int nrpo, *rpo, *idom = ir_dominators(f, &rpo, &nrpo);
	int *kids, *kstart, *stack, *mark, sp = 0, i;
	size_t nb = f->b.n, b;

	memset(&c, 0, sizeof c);
	c.f = f;
	c.defs = xcalloc((size_t)f->nregs + 1, sizeof *c.defs);
	ir_count(f, c.defs, NULL);
	c.rep = xcalloc((size_t)f->nregs + 1, sizeof *c.rep);
	for (i = 0; i < f->nregs; i++)
		c.rep[i] = i;
	for (c.nb = 64; c.nb < 4 * (u32)nb * 8; c.nb *= 2)
		;
	c.head = xmalloc(c.nb * sizeof *c.head);
	memset(c.head, 0xff, c.nb * sizeof *c.head);   /* every bucket -1 */
	/* dominator-tree children, in CSR form */
	kstart = xcalloc(nb + 2, sizeof *kstart);
	kids = xcalloc(nb + 1, sizeof *kids);
	for (i = 0; i < nrpo; i++)
		if (idom[rpo[i]] != rpo[i])
			kstart[idom[rpo[i]] + 1]++;
	for (b = 0; b < nb; b++)
		kstart[b + 1] += kstart[b];
	{
		int *fill = xcalloc(nb + 1, sizeof *fill);
		for (i = 0; i < nrpo; i++)
			if (idom[rpo[i]] != rpo[i]) {
				int p = idom[rpo[i]];
				kids[kstart[p] + fill[p]++] = rpo[i];
			}
		free(fill);
	}
	/* preorder walk; mark[] = table size when the block was entered */
	stack = xcalloc(4 * nb + 8, sizeof *stack);
	mark = xcalloc(nb + 1, sizeof *mark);
	if (nrpo) {
		stack[sp++] = rpo[0];
		stack[sp++] = -1;
	}
	while (sp) {
		int k = stack[--sp], blk = stack[--sp];
		if (k < 0) {   /* enter */
			mark[blk] = (int)c.e.n;
			visit_block(&c, blk);
			k = kstart[blk];
		}
		if (k < kstart[blk + 1]) {
			stack[sp++] = blk;
			stack[sp++] = k + 1;
			stack[sp++] = kids[k];
			stack[sp++] = -1;
			continue;
		}
		/* leave: drop this block's entries */
		while ((int)c.e.n > mark[blk]) {
			Ent *e = &c.e.v[c.e.n - 1];
			c.head[e->hash & (c.nb - 1)] = e->next;
			c.e.n--;
		}
	}
	free(stack);
	free(mark);
	free(kids);
	free(kstart);
	free(idom);
	free(rpo);
	free(c.head);
	free(c.rep);
	free(c.defs);
	vec_free(&c.e);
	return c.n;
}
