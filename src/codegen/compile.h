/* compile.h -- the compiler driver: a checked PTX module to a cubin,
 * with no ptxas.  Pipeline per entry (docs/COMPILER.md):
 *   ir_build -> passes (ir/) -> isel (MIR over vregs) -> ra -> encode
 *   (ISA tables) -> ctrl_assign (control bits) -> hazard_check -> cubin. */
#ifndef OA_COMPILE_H
#define OA_COMPILE_H

#include <stdio.h>

#include "cubin/cubin.h"
#include "ptx/ptx.h"

enum { OPT_SAFE, OPT_MINED, OPT_SCHED, OPT_OPT };

typedef struct {
	int sm;            /* 80 or 90 */
	int opt;           /* OPT_* */
	FILE *dump;        /* per-pass dumps (IR, MIR) when set */
} CompileOpts;

typedef struct {
	const char *name;
	int regs;
	u32 shared, local, barriers;
	size_t ninstr;     /* instructions before padding, BRA-to-self included */
} KernelStats;

typedef struct {
	Cubin cubin;
	VEC(KernelStats) k;
} CompileResult;

/* Compile every .entry of m.  Returns 0, or -1 after a diagnostic
 * (unsupported construct: file:line:col and the construct). */
int compile_module(const PtxModule *m, const CompileOpts *o, CompileResult *r);
void compile_free(CompileResult *r);
/* "safe", "mined", "sched", "opt" -> OPT_*, -1 if unknown. */
int compile_opt_lookup(const char *name);
const char *compile_opt_name(int opt);

#endif
