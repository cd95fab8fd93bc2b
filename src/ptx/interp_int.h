/* interp_int.h -- internals of the PTX interpreter (interp*.c). */
#ifndef OA_INTERP_INT_H
#define OA_INTERP_INT_H

#include <setjmp.h>

#include "ptx/arith.h"
#include "ptx/interp.h"
#include "run/devsys.h"

/* Where a variable lives: its space and offset (or absolute address for
 * .global); for .local and .param of functions the offset is relative to
 * the frame. */
typedef struct {
	const PtxVar *var;
	u8 space;
	u64 off;
} VarLoc;

typedef struct {
	const PtxFunc *fn;
	int index;
	u64 local_size;  /* frame .local bytes */
	u64 param_size;  /* frame .param bytes (params, rets, body .param vars) */
	u8 *rbits;       /* width of each register in bits: 1 pred, 8..64 */
} FnInfo;

typedef struct Frame {
	FnInfo *fi;
	u64 *regs;
	u8 *param;
	u64 local_base;  /* offset of this frame's .local area */
	int ret_pc;      /* caller pc to resume at */
	const PtxInstr *call;  /* the caller's call instruction */
} Frame;

enum { TS_RUN, TS_BAR, TS_WARP, TS_YIELD, TS_DONE };

typedef struct Cta Cta;

typedef struct Thread {
	u32 tid[3];
	int lin, lane, warp;
	int state;
	int pc;
	int bar;          /* barrier id waited on */
	u64 barval;       /* bar.red contribution, then result */
	Frame *fr;        /* frames[depth-1] */
	Frame *frames;
	int depth, fcap;
	u8 *local;
	u64 local_cap, local_sp;
	int carry;        /* .cc flag */
	int spinning;     /* yielded at a failed wait or nanosleep */
	int traced;       /* --trace this thread */
	Cta *cta;
} Thread;

typedef struct {
	int arrived;      /* threads arrived (sync + arrive) */
	int expected;     /* count of this generation, 0 = all threads */
	int waiting;      /* threads blocked in sync */
	int gen;
} Barrier;

struct Cta {
	u32 ctaid[3];
	int rank;         /* in its cluster */
	int cl;           /* its cluster's index in the running wave */
	u8 *shared;
	Thread *th;
	int nth, nwarps, ndone;
	Barrier bar[16];
	int async_pending;
};

typedef struct Interp {
	PtxModule *m;
	const PtxFunc *entry;
	Launch *l;
	const Spec *spec;
	InterpOpts opts;
	u32 grid[3], block[3], cluster[3];
	/* global memory: buffers and module .global variables */
	struct { u64 base, size; u8 *data; int arg; } *gl;
	int ngl, gl_last;
	u8 *constmem;
	u64 constsize;
	u8 *kparam;       /* kernel parameter block */
	u64 kparam_size;
	u64 shared_static, shared_size;  /* static, static (rounded) + dynamic */
	u64 resv;                        /* the reserve's start: shared_size rounded; SPEC_RESV bytes */
	u64 global_vars;  /* bytes of module .global variables */
	const PtxVar **shreach;  /* the static shared variables the kernel reaches */
	int nshreach;
	/* variable locations: open hash on the PtxVar pointer */
	VarLoc *vl;
	u32 vlcap;
	FnInfo *fi;       /* per module function */
	/* the wave being run: one cluster, or every cluster with --all-ctas;
	 * CTA rank r of wave cluster k is ctas[k * csize + r] */
	Cta *ctas;
	int nctas, csize, nclusters;
	struct { int arrived, gen; } *clb;  /* barrier.cluster per cluster */
	u32 (*org)[3];    /* --all-ctas: cluster origins */
	u64 steps, max_steps;
	u64 writes;       /* stores, atomics and mbarrier updates so far */
	DevHeap heap;     /* malloc/free (interp_sys.c); size 0 until the first malloc */
	u64 coop_ws;      /* a cooperative launch's workspace (%envreg1:%envreg2), else 0 */
	Thread *cur;      /* for error messages */
	const PtxInstr *curin;
	jmp_buf fail;
} Interp;

_Noreturn void ierr(Interp *I, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
VarLoc *var_loc(Interp *I, const PtxVar *v);
void local_grow(Interp *I, Thread *t, u64 sp);
void interp_trace(Interp *I, Thread *t, const PtxInstr *in);
/* A call to vprintf, __assertfail, malloc or free (interp_sys.c) with its
 * nv argument values: 1 (done, the result in *ret), 0 (another function). */
int interp_syscall(Interp *I, Thread *t, const PtxFunc *fn, const u64 *v, int nv, u64 *ret);
u64 interp_add_global(Interp *I, u8 *data, u64 size, int arg);   /* arg < 0: freed at the end */

/* memory (interp_mem.c) */
u8 *mem_ptr(Interp *I, Thread *t, int space, u64 addr, u64 size, int write);
u64 mem_ld(Interp *I, Thread *t, int space, u64 addr, int size);
void mem_st(Interp *I, Thread *t, int space, u64 addr, int size, u64 v);
u64 to_generic(Interp *I, Thread *t, int space, u64 addr);
u64 from_generic(Interp *I, Thread *t, int space, u64 addr);
int generic_space(Interp *I, u64 addr);

/* operands and execution (interp_exec.c) */
int tbits(int type);
u64 opd_read(Interp *I, Thread *t, const PtxInstr *in, const PtxOperand *o, int type);
void opd_write(Interp *I, Thread *t, const PtxOperand *o, int type, u64 v);
u64 opd_addr(Interp *I, Thread *t, const PtxInstr *in, const PtxOperand *o, int *space);
int is_collective(const PtxInstr *in);
void exec_one(Interp *I, Thread *t, const PtxInstr *in);
void do_call(Interp *I, Thread *t, const PtxInstr *in);
void do_ret(Interp *I, Thread *t);
u64 atomic_op(Interp *I, Thread *t, const PtxInstr *in, int space, u64 addr, int type, u64 b, u64 c);

/* barriers, mbarriers, async copies (interp_sync.c) */
void bar_arrive(Interp *I, Thread *t, const PtxInstr *in, int wait);
void exec_mbarrier(Interp *I, Thread *t, const PtxInstr *in);
void exec_async(Interp *I, Thread *t, const PtxInstr *in);
u64 mb_update(u64 v, i64 arrive, i64 drop, i64 tx);

/* warp collectives (interp_warp.c): run one instruction for the lanes in
 * ts[0..n) that wait at it. */
void exec_collective(Interp *I, Thread **ts, int n, const PtxInstr *in);
u32 collective_mask(Interp *I, Thread *t, const PtxInstr *in);

/* textures and surfaces (interp_tex.c) */
void exec_tex(Interp *I, Thread *t, const PtxInstr *in);
void exec_surf(Interp *I, Thread *t, const PtxInstr *in);
/* TMA tensor copies and tensor-map prefetches (interp_tma.c) */
void exec_tma(Interp *I, Thread *t, const PtxInstr *in);

/* wmma (interp_wmma.c) */
void exec_wmma_ldst(Interp *I, Thread *t, const PtxInstr *in);
void exec_wmma_mma(Interp *I, Thread **lanes, const PtxInstr *in);
void exec_wgmma(Interp *I, Thread **lanes, const PtxInstr *in);  /* interp_wgmma.c */

static inline const PtxInstr *
cur_instr(Thread *t)
{
	return &t->fr->fi->fn->instrs[t->pc];
}

#endif
