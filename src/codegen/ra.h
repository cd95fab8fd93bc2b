/* ra.h -- register allocation for machine IR: liveness per 32-bit part of
 * every virtual register over the CFG, one live interval per vreg on the
 * linear block order, linear scan with aligned pairs/quads and copy hints.
 * R1 is the stack pointer and UR4/UR5 the global memory descriptor; they
 * are never allocated. */
#ifndef OA_RA_H
#define OA_RA_H

#include "codegen/mir.h"

typedef struct {
	int max_r;       /* registers available: R0..R(max_r-1) (<= 255) */
} RaOpts;

typedef struct {
	int regs;        /* highest R used + 1 (at least 2: R1) */
	int copies_removed;
} RaResult;

/* Assign every vreg's phys and delete copies that became no-ops.
 * Returns 0, or -1 with a message in err (out of registers). */
int ra_run(MFunc *f, const RaOpts *o, RaResult *res, char *err, size_t errlen);

#endif
