/* ra.h -- register allocation for machine IR: liveness per 32-bit part of
 * every virtual register over the CFG, one live interval per vreg on the
 * linear block order, linear scan with aligned pairs/quads and copy hints.
 * R1 is the stack pointer and UR4/UR5 the global memory descriptor; they
 * are never allocated.  When a class runs out, the intervals that end
 * furthest away are spilled to local memory (R: STL/LDL [R1+slot]; P: SEL
 * to a register, STL, and LDL + ISETP back) and the allocation runs
 * again; the frame (local variables + spill slots) is reserved by
 * lowering R1 after its load in the prologue. */
#ifndef OA_RA_H
#define OA_RA_H

#include "codegen/mir.h"

typedef struct {
	int max_r;       /* registers available: R0..R(max_r-1) (<= 255) */
	int max_p;       /* predicates available (0 = 7: P0..P6); for tests */
	u32 frame_base;  /* local bytes already laid out ([R1+0] up) */
	int calls;       /* set by ra_run when the code has CALLs: R20/R21 reserved */
	int coalesce;    /* merge the two sides of copies first (coalesce.c) */
} RaOpts;

typedef struct {
	int regs;        /* highest R used + 1 (at least 2: R1) */
	int copies_removed;
	int coalesced;   /* copies whose two sides were merged (kept: no spill) */
	int webs;        /* vregs added by splitting independent values */
	int spilled;     /* vregs spilled */
	int spill_ins;   /* STL/LDL (and P2R-like) instructions added */
	u32 frame;       /* local bytes per thread: frame_base + spill slots */
	u32 call_stack;  /* bytes the deepest call chain uses below that frame */
} RaResult;

/* The register limit ptxas derives: .maxnreg, and 64K registers shared
 * by .maxntid threads times .minnctapersm CTAs (multiples of 8). */
int ra_reg_limit(u32 maxnreg, const u32 maxntid[3], u32 minctas);

/* Assign every vreg's phys and delete copies that became no-ops.
 * Returns 0, or -1 with a message in err (out of registers). */
int ra_run(MFunc *f, const RaOpts *o, RaResult *res, char *err, size_t errlen);

#endif
