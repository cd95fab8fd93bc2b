/* copyprop.c -- copy and constant propagation.
 *
 * `mov d, s` (and `cvta.to.global d, s` / `cvta.global d, s`: global and
 * generic addresses coincide) where d is written only there and s is a
 * register written at most once (so it holds one value everywhere d
 * does): every read of d becomes a read of s.  `mov d, imm` with d written
 * once: reads of d in plain arithmetic become the immediate.  The copies
 * die in the next DCE. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

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

/* The operand of a warp collective naming its member mask: a constant
 * there (nvcc writes `mov.u32 %r, -1` before `vote.sync ... %r`) lets isel
 * use the whole-group instruction instead of confining the result to a
 * mask held in a register (isel_warp.c); -1 for none. */
static int
mask_opd(const PtxInstr *in)
{
	switch (in->op) {
	case PTX_OP_vote: case PTX_OP_redux: case PTX_OP_match:
		return in->nopds - 1;
	}
	return -1;
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

/* The copies, taken in block order, act as if each one rewrote every
 * other instruction's reads of its d at once, as the pass used to do
 * (quadratic).  Each d is written once, so it is rewritten at one moment
 * only: `when[d]` (the copy's rank, -1 for none) and `src[when[d]]` (the
 * copy's source as it stood then; in rank order: the copies' pages only,
 * not one 72-byte slot per register).  A read follows d -> its source
 * -> ... while the moments increase: a register renamed to one whose copy
 * came earlier stays.  `lim` stops at a moment (a copy's own source, as it
 * stands when its turn comes). */
typedef struct {
	IrFunc *f;
	int *when;
	PtxOperand *src;
	int nregs;
	int *uses;   /* kept current: ir_count's after the rewrites */
} Prop;

/* A read of register a became one of b (-1: of an immediate). */
static void
moved(const Prop *p, int a, int b)
{
	if (a == b)
		return;
	p->uses[a]--;
	if (b >= 0)
		p->uses[b]++;
}

static int
moment(const Prop *p, int r, int last, int lim)
{
	if (r < 0 || r > p->nregs || p->when[r] <= last || p->when[r] >= lim)
		return -1;
	return p->when[r];
}

/* Rename register r through the chain; imm_ok lets it become an
 * immediate (*o replaced, keeping its position). */
static int
follow(const Prop *p, PtxOperand *o, int *r, int imm_ok, int lim)
{
	int last = -1, t, n = 0;

	while ((t = moment(p, *r, last, lim)) >= 0) {
		const PtxOperand *s = &p->src[t];
		if (s->kind != PTX_OPD_REG) {
			if (imm_ok && o) {
				u32 pos = o->pos;
				*o = *s;
				o->pos = pos;
				n++;
			}
			break;
		}
		*r = s->reg;
		last = t;
		n++;
	}
	return n;
}

/* follow for a register read in place (*r), the count moved */
static int
follow_reg(const Prop *p, int *r)
{
	int old = *r, n = follow(p, NULL, r, 0, INT_MAX);

	moved(p, old, *r);
	return n;
}

/* Each operand renamed in a copy, written back (ir_opds_w) only when
 * it changed: most reads are of no copy (so whether the operand may
 * become an immediate is asked only for a read of one). */
static int
rewrite(const Prop *p, IrIns *x)
{
	PtxInstr *in = &x->p;
	int i, k, c, n = 0;

	for (i = 0; i < in->nopds; i++) {
		const PtxOperand *q = &in->opds[i];
		if (ir_opd_is_def(in, i))
			continue;
		if (q->kind == PTX_OPD_REG && q->reg2 < 0 && !q->neg) {
			PtxOperand o;
			int r = q->reg, old = q->reg;
			if (moment(p, r, -1, INT_MAX) < 0)   /* a read of no copy */
				continue;
			o = *q;
			c = follow(p, &o, &r, takes_imm(in) || i == mask_opd(in), INT_MAX);
			if (o.kind == PTX_OPD_REG)
				o.reg = r;
			moved(p, old, o.kind == PTX_OPD_REG ? o.reg : -1);
			if (c)
				ir_opds_w(p->f, x)[i] = o;
			n += c;
		} else if (q->kind == PTX_OPD_ADDR) {
			int r = q->reg;
			if (!(c = follow_reg(p, &r)))
				continue;
			ir_opds_w(p->f, x)[i].reg = r;
			n += c;
		} else if (q->kind == PTX_OPD_VEC) {
			for (k = 0; k < q->nelems; k++) {
				int r = q->elems[k].reg;
				if (q->elems[k].kind != PTX_OPD_REG || !(c = follow_reg(p, &r)))
					continue;
				ir_opds_w(p->f, x)[i].elems[k].reg = r;
				n += c;
			}
		}
	}
	if (in->guard >= 0)
		n += follow_reg(p, &in->guard);
	return n;
}

int
ir_copyprop(IrFunc *f)
{
	int *defs = xcalloc((size_t)f->nregs + 1, 2 * sizeof *defs), total = 0, t = 0;
	Prop p;
	size_t b, i;

	p.f = f;
	p.nregs = f->nregs;
	p.uses = defs + f->nregs + 1;
	p.when = xmalloc(((size_t)f->nregs + 1) * sizeof *p.when);
	p.src = xmalloc(((size_t)f->nregs + 1) * sizeof *p.src);
	memset(p.when, 0xff, ((size_t)f->nregs + 1) * sizeof *p.when);   /* every one -1 */
	ir_count(f, defs, p.uses);
	for (b = 0; b < f->b.n; b++)
		for (i = 0; i < f->b.v[b].ins.n; i++) {
			IrIns *x = &f->b.v[b].ins.v[i];
			const PtxOperand *s;
			PtxOperand sv;
			int d;
			if (x->dead || !is_copy(f, &x->p, &d, &s) || defs[d] != 1)
				continue;
			sv = *s;
			if (sv.kind == PTX_OPD_REG) {
				follow(&p, NULL, &sv.reg, 0, t);
				if (!same_class(f, d, sv.reg) || defs[sv.reg] > 1 || sv.reg == d)
					continue;
			}
			p.src[t] = sv;
			p.when[d] = t++;
		}
	if (t)
		for (b = 0; b < f->b.n; b++)
			for (i = 0; i < f->b.v[b].ins.n; i++) {
				IrIns *y = &f->b.v[b].ins.v[i];
				if (!y->dead)
					total += rewrite(&p, y);
			}
	if (total)
		ir_count_current(f, defs, p.uses);   /* the definitions stay as they were */
	free(p.when);
	free(p.src);
	free(defs);
	return total;
}
