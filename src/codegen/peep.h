/* peep.h -- machine-IR peephole passes (peep.c). */
#ifndef OA_PEEP_H
#define OA_PEEP_H

#include "codegen/mir.h"

/* Copy forwarding within blocks; returns the number of copies removed. */
int peep_copies(MFunc *f);
/* Pairs of 32-bit constant-bank loads into one 64-bit vreg -> LDC.64. */
int peep_ldc64(MFunc *f);

#endif
