/* ctrlbits.h -- the control-bit assigner: fills stall counts, yield,
 * write/read scoreboards and wait masks of an encoded instruction
 * sequence so that the hazard checker (hazard.h) accepts it. */
#ifndef OA_CTRLBITS_H
#define OA_CTRLBITS_H

#include "codegen/hazard.h"

/* ctrlbits.h: fill the control fields (stall, yield, wrsb, rdsb, wait; reuse left 0) of n encoded
   words so that hazard_check passes.  mode 0 = safe (conservative, no table needed beyond
   var/fixed), mode 1 = mined (the latency tables: minimal stalls).  Branch targets are found by
   decoding.  Returns 0, -1 if a word does not decode.
   (Also -2 when a latency cannot be met by stalls alone: a fixed producer right before
   its consumer needs more than 15 cycles, e.g. HMMA on sm_80 -- the caller must put
   independent instructions or NOPs between them; the bits are still filled.) */
int ctrl_assign(const Arch *a, Word *code, size_t n, int mode);
/* mode 2 = mode 1 plus operand reuse flags (see docs/findings-ctrl.md:
   not yet validated on a GPU, so not the default). */
/* ctrl_assign of code[0..n) that hz_decode has decoded into ins (its
   control bits are overwritten). */
int ctrl_assign_decoded(const Arch *a, Word *code, size_t n, HIns *ins, int mode);
enum { CTRL_SAFE = 0, CTRL_MINED = 1, CTRL_REUSE = 2 };

#endif
