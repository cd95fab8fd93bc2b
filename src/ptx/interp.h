/* interp.h -- the PTX reference interpreter: runs a kernel grid of a
 * parsed module on host memory, against a launch specification.
 *
 * Every thread of every CTA runs; threads of a CTA (of a cluster, when
 * the spec asks for clusters) run cooperatively: each thread runs until
 * it reaches a barrier, a warp-collective instruction or exits, then the
 * scheduler releases barriers and executes collectives for the lanes of a
 * warp that wait at the same instruction.  The memory model (generic
 * address windows) is described in docs/findings-interp.md. */
#ifndef OA_INTERP_H
#define OA_INTERP_H

#include "ptx/ptx.h"
#include "run/spec.h"

typedef struct {
	u64 max_steps;   /* per launch, thread-instructions; 0 = default */
	int max_depth;   /* call depth; 0 = default (512) */
	int quiet;       /* no progress/info messages */
	int all_ctas;    /* run every CTA of the grid at once (grid-wide
			    spin barriers); default: one cluster at a time */
	FILE *printf_to; /* device printf output (NULL: discarded) */
	FILE *trace;     /* if set: trace one thread's instructions here */
	long trace_cta, trace_tid;  /* linear CTA index and thread index */
} InterpOpts;

/* Run the entry `kernel` (NULL: spec's kernel, else the module's only
 * entry) over the launch's grid, reading and writing l's buffers.
 * Returns 0, or -1 after printing an error that names the kernel, the
 * PTX line, the thread (ctaid/tid) and, for memory faults, the address. */
int interp_run(PtxModule *m, const char *kernel, Launch *l, const InterpOpts *o);

/* Thread-instructions executed by the last interp_run (for speed reports). */
extern u64 interp_steps;

/* Generic address windows (the global buffers live below GW_SHARED). */
#define GW_GLOBAL  0x0000000100000000ull
#define GW_SHARED  0x0000700000000000ull  /* this CTA's shared memory */
#define GW_DSMEM   0x0000710000000000ull  /* + (rank << 24): CTA `rank` of the cluster */
#define GW_LOCAL   0x0000720000000000ull  /* this thread's local memory */
#define GW_CONST   0x0000730000000000ull
#define GW_PARAM   0x0000740000000000ull  /* the kernel's parameters */
#define GW_FUNC    0x0000750000000000ull  /* function "addresses" (+ index * 16) */

#endif
