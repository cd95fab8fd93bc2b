/* sched.h -- list scheduling of encoded instructions within basic blocks
 * (the `sched` and `opt` levels), before the control bits are assigned. */
#ifndef OA_SCHED_H
#define OA_SCHED_H

#include "codegen/hazard.h"

/* Reorder code[0..n) inside each region between block leaders (leader[i]
 * != 0 starts a block) and instructions that nothing may cross (branches,
 * barriers, fences, stores, ...): dependences through registers,
 * predicates and memory are kept, the rest is ordered by the longest
 * latency path to the region's end.  h: the words as hz_decode has just
 * decoded them, reordered with them (hz_reorder).  perm: the identity on
 * entry (the caller's, which it keeps when it does not schedule); on return
 * perm[i] is the original index of the word now at i. */
void sched_blocks(Word *code, size_t n, const u8 *leader, u32 *perm, HIns *h);

#endif
