/* hazard.h -- the static hazard checker: walks the control flow graph of
 * one kernel's code and reports every instruction that could read (or
 * overwrite) a register, predicate or uniform register before its
 * producer (or a pending reader) has finished, under the latency model of
 * latency.h.  Fixed-latency producers are covered by the stall counts
 * between issue slots, variable-latency ones by write scoreboards and the
 * wait masks of later instructions.  State flows along CFG edges (join =
 * worst case) and loops iterate to a fixed point. */
#ifndef OA_HAZARD_H
#define OA_HAZARD_H

#include "isa/isa.h"

/* Check the control bits of one kernel's code (n words at code address 0).
   Appends one line per hazard to report ("kernel+0x1a0: R4 read by FADD before IMAD at 0x180
   finished (stall sum 3 < latency 5)"), returns the number of hazards, -1 if a word does not decode. */
int hazard_check(const Arch *a, const Word *code, size_t n, const char *kernel, Buf *report);

#endif
