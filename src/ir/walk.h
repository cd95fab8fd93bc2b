/* walk.h -- register visitors for IR passes (walk.c). */
#ifndef OA_IR_WALK_H
#define OA_IR_WALK_H

#include "ir/ir.h"

/* fn(ctx, reg) for every register read (guard, sources, address bases). */
void ir_each_use(const PtxInstr *in, void (*fn)(void *, int), void *ctx);
/* fn(ctx, reg) for every register written. */
void ir_each_def(const PtxInstr *in, void (*fn)(void *, int), void *ctx);
/* defs[r], uses[r] += counts over live instructions (arrays of f->nregs; either may be NULL). */
void ir_count(const IrFunc *f, int *defs, int *uses);

#endif
