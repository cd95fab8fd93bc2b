/* kinfo.h -- per-kernel facts from a cubin's .nv.info attributes. */
#ifndef OA_KINFO_H
#define OA_KINFO_H

#include "cubin/cubin.h"

typedef struct {
	const char *name;
	u32 sym;
	u32 regs, frame, min_stack; /* REGCOUNT, FRAME_SIZE, MIN_STACK_SIZE */
	u32 param_bytes, nparams;   /* CBANK_PARAM_SIZE, KPARAM_INFO count */
	u32 maxreg;                 /* MAXREG_COUNT */
	u32 max_threads;            /* from MAX_THREADS or REQNTID (product), 0 = none */
	u64 shared;                 /* .nv.shared.<k> size (sm_90 includes 1 KiB reserved) */
	u32 param_base;             /* PARAM_CBANK offset of the first parameter in c[0x0] */
	u32 nexits;                 /* EXIT_INSTR_OFFSETS entries */
	u32 barriers;               /* NUM_BARRIERS */
	u32 cluster[3];             /* CTA_PER_CLUSTER */
	u64 code_bytes;             /* size of .text.<k> */
} KernelInfo;

/* Parameter i of a kernel (KPARAM_INFO), or -1 if absent. */
int cubin_kparam(const Cubin *c, const KernelInfo *k, u32 ordinal, u32 *offset, u32 *size);
/* Append "// kernel ..." summary comment lines for every kernel. */
void cubin_summary(const Cubin *c, Buf *b);

/* Kernels (STO_CUDA_ENTRY functions) in symbol order, all of them, in a
 * new array (the caller frees it; NULL when there are none); *n the count. */
KernelInfo *cubin_kernels(const Cubin *c, size_t *n);

#endif
