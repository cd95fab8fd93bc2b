/* sched.h -- list scheduling of encoded instructions within basic blocks
 * (the `sched` and `opt` levels), before the control bits are assigned. */
#ifndef OA_SCHED_H
#define OA_SCHED_H

#include "isa/isa.h"

/* Reorder code[0..n) inside each region between block leaders (leader[i]
 * != 0 starts a block) and instructions that nothing may cross (branches,
 * barriers, fences, stores, ...): dependences through registers,
 * predicates and memory are kept, the rest is ordered by the longest
 * latency path to the region's end.  perm[i] receives the original index
 * of the word now at i.  Returns 0, -1 if a word does not decode. */
int sched_blocks(const Arch *a, Word *code, size_t n, const u8 *leader, u32 *perm);

#endif
