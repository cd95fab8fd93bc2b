/* reconv.h -- the reconvergence pass over machine IR (reconv.c): brackets
 * each region that a divergent conditional branch opens with
 * BSSY Bk, <after the BSYNC> ... BSYNC Bk at the branch's immediate
 * post-dominator, as ptxas does, so that the warp runs converged again
 * after the region (warp-synchronous instructions need it on hardware).
 * Also the MIR CFG helpers other passes use after editing blocks. */
#ifndef OA_RECONV_H
#define OA_RECONV_H

#include "codegen/mir.h"

typedef struct {
	int regions;     /* BSSY/BSYNC pairs inserted */
	int bregs;       /* B registers used (highest + 1) */
	int skipped;     /* divergent branches left without a region */
} ReconvStats;

/* Run after isel, before register allocation.  Returns 0. */
int reconv_run(MFunc *f, ReconvStats *st);

/* Does m end the control flow of its block (unguarded BRA, EXIT, RET, ...)? */
int mir_ends_flow(const MIns *m);
/* Is m a branch (BRA) whose target is a block of the CFG? */
int mir_is_bra(const MIns *m);
/* Recompute every block's succ[] from its branches and fall-through. */
void mir_cfg_recompute(MFunc *f);
/* Insert an empty block at index k; branch targets (when >= k) shift by
 * one. */
void mir_insert_block(MFunc *f, int k);

#endif
