/* build.h -- describe one kernel and let cubin_build() write the whole
 * cubin (no template file): for the compiler and for tests. */
#ifndef OA_CUBIN_BUILD_H
#define OA_CUBIN_BUILD_H

#include "cubin/listing.h"

typedef struct {
	u32 size;  /* bytes */
	u32 align; /* 0: same as size */
} KParam;

typedef struct {
	const char *name;   /* entry name (symbol) */
	int sm;             /* 80 or 90 */
	const Word *code;   /* instructions through ptxas's final BRA-to-self;
			       NOP padding is added */
	size_t ncode;
	const KParam *params;
	size_t nparams;
	u32 regs;           /* registers per thread (REGCOUNT) */
	u32 frame;          /* local stack bytes per thread (FRAME_SIZE, MIN_STACK_SIZE) */
	u32 shared;         /* static shared bytes (sm_90 adds its 1 KiB reserve) */
	u32 shared_align;   /* alignment of .nv.shared.<k>; 0 = 16 */
	int uses_shared;    /* the kernel uses shared memory (even only dynamic) */
	int reserved_smem;  /* it reads %reserved_smem_*: EIATTR_RESERVED_SMEM_USED */
	u32 maxreg;         /* MAXREG_COUNT; 0 = 255 */
	u32 max_threads[3]; /* .maxntid / __launch_bounds__; 0 = none */
	u32 reqntid[3];     /* .reqntid; 0 = none */
	u8 barriers;        /* named barriers used (NUM_BARRIERS); 0 = none */
	const char *externs[4]; /* driver functions it calls (vprintf...), first call first:
				   an undefined FUNC symbol each (the module's, once), EXTERNS,
				   SYSCALL_OFFSETS (its CALL.ABS.NOINC words), CRS_STACK_SIZE 0
				   and callgraph edges */
	u8 nexterns;
	u8 reg_reconfig;    /* setmaxnreg used (REG_RECONFIG) */
	u8 arch_a;          /* sm_90a (.target sm_90a): ACCELERATOR_TARGET 1, "-arch sm_90a"; the module's first kernel's counts */
	const u8 *cb2;      /* constant bank 2 (.nv.constant2.<k>): the table of
			       function addresses (isel_call.c), or NULL */
	u32 ncb2;
} KernelDesc;

/* Returns 0, or -1 if the description is unusable (no EXIT, bad sm). */
int cubin_build(Cubin *c, const KernelDesc *k);
/* Several kernels of one module, in their PTX definition order (all for
 * the same sm; ptxas lays them out in reverse order, and so do we). */
int cubin_build_module(Cubin *c, const KernelDesc *ks, size_t n);

#endif
