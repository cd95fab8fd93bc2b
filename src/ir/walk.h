/* walk.h -- register visitors for IR passes; counts in walk.c. */
#ifndef OA_IR_WALK_H
#define OA_IR_WALK_H

#include "ir/ir.h"

/* The visitors are inline: each pass gets its own copies, which the
 * compiler specializes for the pass's callbacks (no call per register). */
static inline void
ir_uses_opd(const PtxOperand *o, int def, void (*fn)(void *, int), void *ctx)
{
	int i;

	switch (o->kind) {
	case PTX_OPD_REG:
		if (!def) {
			if (o->reg >= 0)
				fn(ctx, o->reg);
			if (o->reg2 >= 0)
				fn(ctx, o->reg2);
		}
		break;
	case PTX_OPD_ADDR:
		if (o->reg >= 0)
			fn(ctx, o->reg);
		for (i = 0; i < o->nelems; i++)
			ir_uses_opd(&o->elems[i], 0, fn, ctx);
		break;
	case PTX_OPD_VEC:
		for (i = 0; i < o->nelems; i++)
			ir_uses_opd(&o->elems[i], def, fn, ctx);
		break;
	}
}

static inline void
ir_defs_opd(const PtxOperand *o, void (*fn)(void *, int), void *ctx)
{
	int i;

	if (o->kind == PTX_OPD_REG) {
		if (o->reg >= 0)
			fn(ctx, o->reg);
		if (o->reg2 >= 0)
			fn(ctx, o->reg2);
	} else if (o->kind == PTX_OPD_VEC) {
		for (i = 0; i < o->nelems; i++)
			ir_defs_opd(&o->elems[i], fn, ctx);
	}
}

/* Instructions whose operand 0 is both read and written. */
static inline int
ir_reads_dst(const PtxInstr *in)
{
	return in->op == PTX_OP_wgmma_mma_async;
}

/* fn(ctx, reg) for every register read (guard, sources, address bases). */
static inline void
ir_each_use(const PtxInstr *in, void (*fn)(void *, int), void *ctx)
{
	int i, d = ir_opd_is_def(in, 0) && !ir_reads_dst(in);

	if (in->guard >= 0)
		fn(ctx, in->guard);
	for (i = 0; i < in->nopds; i++)
		ir_uses_opd(&in->opds[i], i == 0 && d, fn, ctx);
}

/* fn(ctx, reg) for every register written. */
static inline void
ir_each_def(const PtxInstr *in, void (*fn)(void *, int), void *ctx)
{
	if (ir_opd_is_def(in, 0))
		ir_defs_opd(&in->opds[0], fn, ctx);
}

/* defs[r], uses[r] = counts over live instructions (zeroed arrays of at
 * least f->nregs; either may be NULL). */
void ir_count(const IrFunc *f, int *defs, int *uses);

/* Most passes start with ir_count, and most passes change nothing: the
 * counts of the last walk are kept, and run_passes (compile.c) offers
 * them to the next pass's first ir_count while no pass has reported a
 * change since (a pass that reports none leaves the IR as it was: under
 * OA_VERIFY compile.c proves it with ir_hash).  ir_count_forget drops
 * them (around run_passes). */
void ir_count_offer(const IrFunc *f);
void ir_count_forget(void);
/* A pass that changed the IR but kept its counts current (copyprop, fuse,
 * ifconv; constfold's last round) ends with ir_count_current(f, defs,
 * uses): they are given to the next pass, as after no change;
 * ir_count_changed, after a pass that changed the IR, forgets the counts
 * unless the pass gave them.  Under OA_VERIFY every reuse is checked
 * against a walk. */
void ir_count_current(const IrFunc *f, const int *defs, const int *uses);
void ir_count_changed(void);

#endif
