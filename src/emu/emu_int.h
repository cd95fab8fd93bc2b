/* emu_int.h -- the SASS emulator's internals: predecoded instructions,
 * warps, the launch state, and the helpers the semantics files share. */
#ifndef OA_EMU_INT_H
#define OA_EMU_INT_H

#include <setjmp.h>
#include <string.h>

#include "emu/emu.h"
#include "run/devsys.h"
#include "isa/insn.h"
#include "ptx/interp.h"   /* the generic address windows (GW_*) */

typedef struct Emu Emu;
typedef struct EmuTiming EmuTiming;
typedef struct Warp Warp;
typedef struct EInsn EInsn;
typedef void (*Handler)(Emu *E, Warp *w, const EInsn *I, u32 mask);

/* A source operand resolved for the fast handlers (emu_fast.c): k = 0
 * a constant v, 1 the vector register row reg, 2 the uniform register
 * reg (for predicates: 1 P, 2 UP). */
typedef struct {
	u8 k, not, neg, abs;
	u16 reg;
	u32 v, vh;   /* a constant; vh: the high word of a 64-bit one */
} FSrc;

/* One predecoded instruction: the parsed text, its handler and a few
 * modifier facts computed once (meaning depends on the handler). */
struct EInsn {
	Insn in;
	Handler fn;
	u32 pc;
	int decoded;   /* 0: the word did not decode (text is UNKNOWN ...) */
	int uni;       /* uniform datapath: runs once, for the first active lane */
	int ctl;       /* changes lane PCs or states (control flow, barriers) */
	const char *why; /* why it cannot run (unsupported), or NULL */
	int a, b, c, d, e;
	/* fast form (emu_fast_prep; then fn == fx and a..e are its facts) */
	Handler fx;
	FSrc fs[5];
	u8 fd, fp[2];  /* destination register, predicates */
};

/* Lane states. */
enum { L_RUN, L_EXIT, L_BSYNC, L_BAR, L_WSYNC, L_OFF };

#define RZ 255
#define URZ 63

struct Warp {
	u32 r[256][32];  /* r[reg][lane], first: launch zeroes only r[0..nregs); r[RZ] stays 0 */
	u8 p[32];        /* bit k = Pk; bit 7 (PT) always set */
	u32 pc[32];
	u8 st[32];
	u32 warg[32];    /* what a blocked lane waits on: pc << 8 | B reg, barrier id, pc */
	u32 wmask[32];   /* WARPSYNC: the lanes it waits for */
	u32 wexcl;       /* lanes waiting at a WARPSYNC.EXCLUSIVE */
	u32 ur[64];
	u8 up;           /* uniform predicates, bit 7 = UPT */
	u32 b[16];       /* convergence barrier masks */
	u32 live;        /* lanes that exist and have not exited */
	u32 act;         /* lanes issuing the current instruction (before the guard) */
	u32 tid0;        /* linear thread index of lane 0 in its CTA */
	int id;          /* warp index in its CTA */
	u32 rank;        /* its CTA's rank in the cluster (SR_CgaCtaId) */
	u32 ctaid[3];
	u32 cgen[32];    /* cluster barrier generation a lane arrived in */
	u32 issues;      /* instructions issued (every 4096th: highest PC first) */
};

typedef struct {
	u64 base, size;
	u8 *data;
} Region;

struct Emu {
	const Cubin *c;
	const char *path, *kname;
	int sm;
	EInsn *code;
	u32 ncode;
	/* constant banks 0..17 */
	u8 *cb[18];
	u32 cbsize[18];
	/* global memory: the launch's buffers and the cubin's globals */
	Region *gl;
	int ngl, gl_last;
	/* launch shape */
	u32 ntid[3], nctaid[3], ctaid[3];   /* ctaid: the cluster's first CTA */
	u32 cdim[3], csize;                 /* cluster shape, CTAs per cluster */
	int coop;                           /* a cooperative launch: cdim/csize are the
	                                       whole grid, run at once, each CTA its own
	                                       cluster of 1 to the code */
	u32 nthreads, nwarps;               /* per CTA; E->w holds csize * nwarps */
	u32 nregs;                          /* REGCOUNT: registers zeroed at launch */
	u64 shared_size, local_size;
	u32 smem_reserve;   /* c[0x0][0x114]: the driver's reserve (SPEC_RESV) */
	u32 smemsz;         /* SR_SMEMSZ: the reserve + static (16-aligned) + dynamic */
	u8 *shared;         /* csize * shared_size: rank r at r * shared_size */
	u8 *local;          /* csize * nwarps * 32 * local_size */
	Warp *w;
	/* CTA barriers: threads arrived per CTA rank and barrier id */
	u32 bar_arrived[16][16], bar_expect[16][16];
	/* BAR.RED: true predicates counted, the op (1 POPC, 2 AND, 3 OR), and
	   the last completed reduction per CTA (read by B2R.RESULT) */
	u32 bar_true[16][16];
	u8 bar_op[16][16];
	u32 red_val[16];
	u8 red_bool[16];
	/* the cluster barrier (UCGABAR_ARV/WAIT) */
	u32 cl_arrived, cl_gen;
	/* mbarrier transaction counts (sm_90), by shared address */
	struct { u32 addr; i64 tx; } mtx[16];
	int nmtx;
	u64 steps, max_steps, lane_steps;
	const EmuOpts *o;
	jmp_buf fail;
	int unsupported;
	Launch *l;
	int fma_hw;         /* the host has FMA instructions (emu_fast.c) */
	EmuTiming *timing;  /* emu --timing (emu_timing.c), else NULL */
	DevHeap heap;       /* malloc/free (emu_sys.c); size 0 until the first malloc */
	u8 *heap_data;
};

/* Timing mode (emu_timing.c): set up from the kernel's code words, forget
 * a warp slot's writes in flight, issue one instruction. */
EmuTiming *emu_timing_new(Emu *E, const u8 *code);
void emu_timing_free(EmuTiming *T);
void emu_timing_reset(EmuTiming *T, int wi);
void emu_timing_issue(Emu *E, Warp *w, int wi, const EInsn *I, u32 gm);
/* The write log of the instruction being timed (NULL otherwise): the
 * register write helpers call emu_tlog_write(file 0 R, 1 UR, 2 P, 3 UP,
 * reg, lane, the value replaced) before they write. */
typedef struct TLog TLog;
extern TLog *emu_tlog;
void emu_tlog_write(int file, int reg, int lane, u32 old);

/* Wake lanes at a BSYNC/WARPSYNC whose partners all arrived (emu.c). */
int emu_release(Warp *w);
_Noreturn void eerr(Emu *E, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
_Noreturn void eunsup(Emu *E, const EInsn *I, const char *why);

/* Code and system-function addresses (emu_sys.c): the kernel's code at
 * EMU_CODE_BASE, vprintf, malloc, free, __assertfail at EMU_SYS_BASE +
 * 16 * k (0 for another name). */
#define EMU_CODE_BASE 0x0000760000000000ull
#define EMU_SYS_BASE  0x0000770000000000ull
u64 emu_extern_addr(const char *name);
void h_lepc(Emu *E, Warp *w, const EInsn *I, u32 gm);
void emu_call_sys(Emu *E, Warp *w, const EInsn *I, u32 gm, u64 target);

/* Handlers by opcode name (emu_exec.c etc.); NULL if unknown. */
Handler emu_handler(const char *op);
Handler emu_tex_handler(const char *op);                   /* emu_tex.c */
Handler emu_tma_handler(const char *op);                   /* emu_tma.c */
/* sm_90 mbarrier at shared address a: count arrivals, add tx transaction
 * bytes (emu_memops.c); returns the old state */
u64 emu_mbar_update90(Emu *E, Warp *w, int l, u32 a, u32 count, i64 tx);
/* Predecode modifier facts into I->a.. (per handler). */
void emu_prep(Emu *E, EInsn *I);

/* Memory (emu_mem.c): global addresses are generic addresses of the
 * launch's buffers; shared and local addresses are byte offsets in this
 * CTA's shared memory and this lane's local memory; generic addresses use
 * the PTX interpreter's windows (ptx/interp.h). */
enum { MS_GLOBAL, MS_SHARED, MS_LOCAL, MS_GENERIC };
u8 *emu_mem(Emu *E, Warp *w, int lane, int space, u64 addr, u64 size, int write);
u64 emu_add_global(Emu *E, u8 *data, u64 size);

/* Operand access (emu_exec.c). */
u32 e_opr(Emu *E, Warp *w, int lane, const Operand *o);   /* raw 32 bits */
u64 e_opr64(Emu *E, Warp *w, int lane, const Operand *o); /* pairs, f64 immediates */
u32 e_iv(Emu *E, Warp *w, int lane, const Operand *o);    /* with ~ and - */
u32 e_cbank(Emu *E, Warp *w, int lane, const Operand *o, int size);
int e_oprp(Warp *w, int lane, const Operand *o);           /* predicate with ! */
int e_isp(const Operand *o);                               /* P or UP? */
void e_setr(Warp *w, int lane, int r, u32 v);
void e_wr(Warp *w, int lane, const Operand *o, u32 v);     /* R or UR */
void e_wr64(Warp *w, int lane, const Operand *o, u64 v);
void e_wrp(Warp *w, int lane, const Operand *o, int v);    /* P or UP */
u32 e_sreg(Emu *E, Warp *w, int lane, const char *name);
int e_ldsize(const Insn *in, int *sign);                   /* U8 .. 128 */
int e_cmpcode(const Insn *in);                             /* CMP_* or -1 */
int e_bopcode(const Insn *in);                             /* AND 0, OR 1, XOR 2 */
int e_bop(int op, int a, int b);
int emu_rnd(const Insn *in);                               /* RND_* */
Handler emu_float_handler(const char *op);                 /* emu_float.c */
void emu_prep_float(Emu *E, EInsn *I);
int emu_fmul_scale(const Insn *in);
Handler emu_mem_handler(const char *op);                   /* emu_memops.c */
void emu_prep_mem(Emu *E, EInsn *I);
Handler emu_mma_handler(const char *op);                   /* emu_mma.c */
const char *emu_check_mods(const EInsn *I);                /* emu_mods.c */
int emu_check_regs(const EInsn *I);
int emu_check_align(const EInsn *I, int *need);                /* emu_align.c */
int emu_is_nop(Handler h);
int emu_is_control(Handler h);                             /* changes PCs or lane states */
int emu_is_bra(Handler h);
void emu_fast_prep(Emu *E);                                /* emu_fast.c, after the banks */
/* Bit k of the 32 bytes b[0..31] as a lane mask (lane l = bit l): eight
 * lanes per multiply, which moves byte i's bit 0 to bit 56 + i. */
static inline u32
emu_bytebits(const u8 *b, int k)
{
	u32 m = 0;
	int i;

	for (i = 0; i < 4; i++) {
		u64 v;
		memcpy(&v, b + 8 * i, 8);
		v = (v >> k) & 0x0101010101010101ull;
		m |= (u32)((v * 0x0102040810204080ull) >> 56) << 8 * i;
	}
	return m;
}

/* IADD3's carry-outs (bit k = predicate k) from the exact sum s and the
 * sum s01 of its first two terms (negations' +1 included): one carry-out
 * is bit 32 of s; two are the carries of "(a + b) + c" done as two adds,
 * P0 that of a + b and P1 the rest, so that IADD3.X's two carry-ins add
 * up to the carry count (ptxas's three-term 64-bit adds: a carry of 2 is
 * P0 = P1 = 1, not the binary 10). */
static inline u32
emu_iadd3_carries(u64 s01, u64 s, int np)
{
	u32 n = (u32)(s >> 32), p0 = s01 >> 32 ? 1 : 0;

	if (np < 2)
		return n & 1;
	return p0 | (n > p0) << 1;
}

/* The lanes whose state (w->st, below 8: three bits a byte) is s. */
static inline u32
emu_st_lanes(const Warp *w, u32 s)
{
	u32 m = 0;
	int i;

	for (i = 0; i < 4; i++) {
		u64 v;
		memcpy(&v, w->st + 8 * i, 8);
		v ^= s * 0x0101010101010101ull;
		v = (v | v >> 1 | v >> 2) & 0x0101010101010101ull;
		m |= (u32)((v * 0x0102040810204080ull) >> 56) << 8 * i;
	}
	return ~m;
}

/* The lanes of mask whose guard passes. */
static inline u32
emu_guard(const Warp *w, const EInsn *I, u32 mask)
{
	u32 g;
	int r = I->in.guard;

	if (r < 0)
		return mask;
	if (I->in.guard_up)
		return (w->up >> r & 1) ^ I->in.guard_not ? mask : 0;
	g = emu_bytebits(w->p, r);
	return (I->in.guard_not ? ~g : g) & mask;
}

#define LANES(l, gm) for (l = 0; l < 32; l++) if ((gm) >> l & 1)

#endif
