/* cfg.h -- control-flow-graph helpers shared by the IR passes (cfg.c):
 * edge removal, reachability, unreachable-block pruning, dominators and
 * natural loops. */
#ifndef OA_IR_CFG_H
#define OA_IR_CFG_H

#include "ir/ir.h"

/* Remove the edge b -> s (both b's successor slot and s's predecessor). */
void ir_edge_remove(IrFunc *f, int b, int s);
/* Add the edge b -> s in successor slot k (0 fall-through, 1 taken). */
void ir_edge_add(IrFunc *f, int b, int k, int s);
/* reach[b] = 1 for blocks reachable from the entry (array of f->b.n). */
void ir_reachable(const IrFunc *f, u8 *reach);
/* Kill the instructions of unreachable blocks and cut their out-edges
 * (an empty unreachable block falls through to the next one, so isel
 * emits nothing for it).  Returns the number of instructions removed. */
int ir_prune_unreachable(IrFunc *f);
/* Remove unconditional branches to a later block that only empty
 * fall-through blocks separate from the branch.  Returns how many. */
int ir_drop_jumps(IrFunc *f);
/* Remove empty fall-through blocks (not the entry), renumbering the
 * others.  Returns how many went. */
int ir_compact(IrFunc *f);
/* Immediate dominators (idom[entry] = entry, -1 for unreachable blocks)
 * and a reverse post-order of the reachable blocks (*rpo, *nrpo); both
 * arrays are malloc'ed (free them). */
int *ir_dominators(const IrFunc *f, int **rpo, int *nrpo);
/* Does a dominate b (given idom)? */
int ir_dominates(const int *idom, int a, int b);

#endif
