/* peep.h -- machine-IR peephole passes (peep.c). */
#ifndef OA_PEEP_H
#define OA_PEEP_H

#include "codegen/mir.h"
#include "isa/isa.h"

/* Copy forwarding within blocks; returns the number of copies removed. */
int peep_copies(MFunc *f);
/* Pairs of 32-bit constant-bank loads into one 64-bit vreg -> LDC.64. */
int peep_ldc64(MFunc *f);

/* Readers of parameters, launch dimensions and %ctaid take them as
 * constant-bank (sm_80) or uniform-register (sm_90) operands where the ISA
 * has the form (peep_uniform.c); returns the readers rewritten. */
int peep_uniform(MFunc *f, const Arch *a, int sm);

#endif
