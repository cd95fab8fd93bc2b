/* emu.h -- the functional SASS emulator: runs a kernel of a cubin (ptxas's
 * or ours, sm_80 or sm_90) on host memory against a launch specification,
 * the same one the PTX interpreter takes (run/spec.h).
 *
 * Model (docs/findings-emu.md): warps of 32 lanes, each lane with its own
 * PC; a warp issues the instruction at the lowest PC among its runnable
 * lanes to every runnable lane at that PC, so structured code reconverges
 * where ptxas put BSYNC.  BSSY/BSYNC, WARPSYNC and BAR block lanes until
 * their partners arrive.  Anything it cannot execute (a word the decoder
 * does not know, an opcode or form without semantics) stops the run with
 * the kernel, PC and text named -- never a silent guess. */
#ifndef OA_EMU_H
#define OA_EMU_H

#include "cubin/cubin.h"
#include "run/spec.h"

typedef struct {
	u64 max_steps;       /* warp-instructions per launch; 0 = default (2^32) */
	int quiet;           /* print nothing on failure (the caller reports) */
	const char *oracle;  /* nvdisasm (-b SMxx) decodes the words instead of the
				built-in decoder (NULL: none; a development aid
				that tests the semantics ahead of the tables) */
	int timing;          /* a register read before its producer's result is due
				(stall counts, scoreboards) sees the old value */
	FILE *trace;         /* if set: trace warp-instructions of one warp */
	long trace_cta, trace_warp;
	FILE *printf_to;     /* device printf and assert messages (NULL: discarded) */
} EmuOpts;

/* Outcomes of emu_run. */
enum { EMU_OK = 0, EMU_ERROR = -1, EMU_UNSUPPORTED = -2 };

/* Run `kernel` (NULL: the spec's, else the cubin's only kernel) of the
 * cubin c read from path.  Returns EMU_OK, EMU_ERROR after printing a
 * message (bad input, memory fault, deadlock), or EMU_UNSUPPORTED when
 * the kernel reaches something the emulator cannot execute yet; the
 * message is then also in emu_why (e.g. "UNKNOWN 0x.., 0x.." or
 * "HMMA.16816.F32 R4, R8, R12, R4"). */
int emu_run(const Cubin *c, const char *path, const char *kernel, Launch *l, const EmuOpts *o);

extern u64 emu_steps;        /* warp-instructions of the last run */
extern u64 emu_lane_steps;   /* thread-instructions of the last run */
extern double emu_seconds;   /* its execution time (after decoding; CPU time of the thread) */
extern char emu_why[256];    /* the last run's error or unsupported text */

#endif
