/* isel.h -- instruction selection: IR (PTX over virtual registers) to
 * machine IR (SASS over virtual registers) for sm_80 and sm_90.
 *
 * isel.c is the driver and the shared operand helpers; each family of PTX
 * operations lives in its own file (isel_int.c, isel_float.c, isel_mem.c,
 * isel_ctrl.c, ...) and exports a table of SelRule.  A rule returns 0, or
 * -1 after sel_unsupported() named the construct. */
#ifndef OA_ISEL_H
#define OA_ISEL_H

#include "codegen/mir.h"
#include "cubin/cubin.h"
#include "ir/ir.h"

typedef struct {
	MFunc *mf;
	const IrFunc *ir;
	const PtxModule *m;
	const PtxFunc *fn;
	int sm;               /* 80 or 90 */
	int *vof;             /* PTX register -> vreg (-1 until first use) */
	u32 param_base;       /* c[0x0] offset of the first kernel parameter */
	u32 *param_off;       /* per parameter, from param_base */
	u32 shared_size;      /* static shared bytes laid out so far */
	VEC(const PtxVar *) shared_vars;
	VEC(u32) shared_offs;
	u32 local_size;       /* local (stack) bytes per thread */
	VEC(const PtxVar *) local_vars;
	VEC(u32) local_offs;
	int uses_shared;
	int reserved_smem;    /* reads a %reserved_smem_* register */
	u32 barriers;         /* highest named barrier + 1 */
	const IrIns *cur;     /* instruction being selected (for messages) */
	struct CallCtx *call; /* .func parameters and call sites (isel_call.c) */
	struct SeqSub *subs;  /* shared slow-path subroutines (isel_seq.c) */
	int swin;             /* sm_90 shared window base vreg + 1, 0 = none yet (isel_mem.c) */
	const PtxInstr **only_def; /* sel_only_def per PTX register, built at its first call */
	u8 ext[4], next;      /* system externals called (sel_sys_index), in first-call order */
	const PtxFunc *mext[4]; /* the module's called ones (sel_externs), */
	int nmext;            /* their count + 1; 0 until first asked */
	u32 sys_area;         /* the largest argument area staged below R1 for one of them */
	struct ExtMemo *ext_memo; /* recent 8/16-bit operand extensions, reused (isel_cvt.c) */
	struct WgState *wg;   /* wgmma accumulators in flight (isel_wgmma.c), NULL = none yet */
	int maxnreg_cap;      /* setmaxnreg emitted: registers the whole kernel may use (isel_sm90.c); 0 = none */
	int *fslot;           /* sel_ftab: per module function its slot in bank 2, 0 = none */
	int nfslot;           /* the slots' count + 1; 0 until first asked */
	u8 indirect;          /* an indirect call through bank 2 (the kernel or a callee) */
	int asp;              /* alloca's stack-pointer vreg + 1, 0 = none yet (isel_stack.c) */
} Sel;

typedef int (*SelFn)(Sel *s, const IrIns *x);
typedef struct {
	int op;               /* PtxOp */
	SelFn fn;
} SelRule;

/* Families (terminated by {0, NULL}). */
extern const SelRule sel_rules_int[], sel_rules_float[], sel_rules_mem[], sel_rules_ctrl[];
extern const SelRule sel_rules_call[];   /* call, ld/st.param of .func (isel_call.c) */
extern const SelRule sel_rules_cvt[];       /* isel_cvt.c */
/* f16/bf16/f16x2/bf16x2 arithmetic (isel_half.c), reached from the
 * float and integer families' rules for those types. */
int sel_is_half(PtxType t);
int sel_half_arith(Sel *s, const IrIns *x);
int sel_half_setp(Sel *s, const IrIns *x);
int sel_half_minmax(Sel *s, const IrIns *x, int max);
int sel_half_negabs(Sel *s, const IrIns *x, int abs);
/* 8/16-bit integer setp, mul/mad, shr, min/max, abs, and mov pack/unpack
 * of 16-bit elements (isel_cvt.c), reached from isel_int.c/isel_mem.c. */
int sel_int_small(Sel *s, const IrIns *x);
int sel_mov_pack16(Sel *s, const IrIns *x);
extern const SelRule sel_rules_tensor[];    /* isel_tensor.c: mma.sync, ldmatrix */
extern const SelRule sel_rules_async[];     /* isel_async.c: cp.async and its groups */
extern const SelRule sel_rules_mbar[];      /* isel_mbar.c: mbarrier, cp.async.bulk */
extern const SelRule sel_rules_tma[];       /* isel_tma.c: cp.async.bulk.tensor and kin */
/* isel_mbar.c, for warp-wide (uniform-register) instructions: body once
 * per active lane with the lane's r[0..n) in the uniform u[0..n)
 * (docs/compiler-mbarrier.md, "Warp-wide instructions"); a fresh UR
 * vreg of w registers; a 64-bit address + off as a pair; base + off. */
typedef void (*WfBody)(Sel *s, const MRef *u, void *ctx);
void sel_waterfall(Sel *s, const MRef *r, const MRef *u, int n, WfBody body, void *ctx, int per_lane);
MRef sel_ur_tmp(Sel *s, int w);
MRef sel_gaddr(Sel *s, MRef b, i64 off);
MRef sel_addr_reg(Sel *s, MRef base, i64 off);
/* st.async and red.async: the address (operand 0) and the mbarrier (operand
 * 2), each a shared register (+offset), and the pair [Ra.64] holding both. */
typedef struct { MRef ab, mb; i64 ao, mo; } AsyncAddrs;
int sel_async_addrs(Sel *s, const PtxInstr *in, const char *what, AsyncAddrs *aa);
MRef sel_async_pair(Sel *s, const AsyncAddrs *aa);
int sel_tmap_prefetch(Sel *s, const IrIns *x);   /* prefetch.tensormap (isel_tma.c) */
int sel_tmap_fence(Sel *s, const IrIns *x);      /* fence.proxy.tensormap::generic (isel_tma.c) */
extern const SelRule sel_rules_wmma[];      /* isel_wmma.c: wmma.load/mma/store */
extern const SelRule sel_rules_wgmma[];     /* isel_wgmma.c: sm_90a wgmma */
extern const SelRule sel_rules_stack[];     /* isel_stack.c: alloca, stacksave, stackrestore */
extern const SelRule sel_rules_sm90[];      /* isel_sm90.c: elect, griddepcontrol, setmaxnreg */
/* The register count at entry a kernel declares (.maxnreg, or .maxntid
 * with .minnctapersm), else 0 (isel_sm90.c). */
int sel_entry_regs(const PtxFunc *fn);
void sel_shared_inherit(Sel *cs, Sel *s);
/* Wait for the wgmma accumulators in flight and copy them out (before a
 * branch, return or call and at a block's end; isel_wgmma.c). */
void sel_wgmma_flush(Sel *s);
extern const SelRule sel_rules_atom[], sel_rules_warp[];   /* isel_atom.c, isel_warp.c */
extern const SelRule sel_rules_tex[];       /* isel_tex.c: tex, suld, sust */
/* Can the ISA tables encode this SASS text (physical registers)? */
int sel_can_encode(Sel *s, const char *text);
/* Address operand [reg+imm] / [var+imm] of a memory access in space
 * (isel_mem.c): base register (a pair for global/generic) and offset. */
int sel_address(Sel *s, const PtxOperand *a, int space, MRef *base, i64 *off);
/* Module .const/.global variables into the built cubin (isel_mem.c;
 * their layout is the one ld/mov/cvta of them use).  0, or -1 after a
 * diagnostic. */
int sel_module_data(const PtxModule *m, Cubin *c, int sm);

int isel_func(Sel *s);

/* System externals (isel_call.c): the index of f among vprintf, malloc,
 * free, __assertfail (-1: another function); the module's called ones in
 * declaration order (their c[0x4] slots, 8 bytes each, come first), the
 * count returned and out (may be NULL) filled. */
int sel_sys_index(const PtxFunc *f);
int sel_module_externs(const PtxModule *m, const PtxFunc **out);
int sel_externs(Sel *s);   /* the same, once per Sel, into s->mext */

/* Function addresses in data (isel_call.c): when some module variable's
 * initializer holds a function's address (C++ vtables), a function
 * pointer is, as ptxas makes it in such modules, a byte offset in the
 * kernel's constant bank 2 (.nv.constant2.<k>): 8 * (k + 1) for the k-th
 * address-taken function in module order.  The slot holds the function's
 * offset in the kernel's section (compile.c writes the table after the
 * code: sel_ftab_bytes), which an indirect call loads.  Without such data
 * a pointer is the offset itself.  sel_ftab: the slots' count (0: none),
 * s->fslot filled, once per Sel; sel_ftab_slots: the same for a module,
 * into slot[nfuncs]. */
int sel_ftab(Sel *s);
int sel_ftab_slots(const PtxModule *m, int *slot);
extern const char *const sel_sys_names[4];

/* Float cases of the shared PTX opcodes (add sub mul mad fma; setp;
 * min max), in isel_float.c. */
int sel_float_arith(Sel *s, const IrIns *x);
int sel_setp_float(Sel *s, const IrIns *x);
int sel_min_float(Sel *s, const IrIns *x, int max);

/* Diagnose an unsupported construct at the current instruction; returns -1. */
int sel_unsupported(Sel *s, const char *what);

/* Operand helpers. */
int sel_type_regs(PtxType t);                 /* 32-bit registers a value of t takes (pred: 0) */
MRef sel_reg(Sel *s, int ptxreg);             /* the vreg of a PTX register */
MRef sel_tmp(Sel *s, int w);                  /* a fresh R vreg of w registers */
MRef sel_ptmp(Sel *s);                        /* a fresh predicate */
/* Operand i of x as a 32-bit register (materialising immediates and
 * special registers); part selects the high half of 64-bit sources. */
MRef sel_r32(Sel *s, const PtxOperand *o, int part);
/* Operand as a 64-bit register pair. */
MRef sel_r64(Sel *s, const PtxOperand *o);
/* Operand usable as an ALU "B" source: an immediate stays literal. */
MOpd sel_b32(Sel *s, const PtxOperand *o, int part);
/* The same for logic/shift/select operations: nvdisasm spells their
 * immediates unsigned (0xfffffff0, not -0x10). */
MOpd sel_b32u(Sel *s, const PtxOperand *o, int part);
MOpd mopd_reg(MRef r);
MOpd mopd_txt(const char *t);
MOpd mopd_imm(u32 v, int uns);   /* "0x1f", or "-0x1" for a negative v unless uns */
/* Predicate operand (honours !%p): ref and negation. */
MRef sel_pred(Sel *s, const PtxOperand *o, int *neg);
void sel_pred_const(Sel *s, MRef d, int val);   /* d = PTX's 0 / -1 */
/* Move a 32-bit value into d. */
void sel_mov32(Sel *s, MRef d, MOpd src);
/* Immediate value of o if it is one (IMM or FIMM bits). */
int sel_imm(const PtxOperand *o, u64 *v);
void sel_widen_hi(Sel *s, const PtxOperand *d, int eb, int sg); /* isel_mem.c: a narrow load into a 64-bit register */
/* Copy elements idx[0..n) (NULL: 0..n-1, and o must be a list of n) of
 * the register list o into a fresh aligned group *g (MMA fragments). */
int sel_group_in(Sel *s, const PtxOperand *o, const int *idx, int n, MRef *g);
/* The single instruction of the function that writes PTX register r (not
 * as a vector element), or NULL. */
const PtxInstr *sel_only_def(Sel *s, int r);
/* An address offset in nvdisasm's spelling: "+0x10", "+-0x10" or "" (in t). */
char *sel_offtxt(char *t, size_t n, i64 off);
size_t sel_prologue_end(const MBlock *b0);
/* "desc[UR4]" on sm_90, "" on sm_80 (the descriptor lives in hidden bits). */
const char *sel_gdesc(Sel *s);

/* Fixed SASS sequences written with ptxas's register names over fresh
 * vregs (isel_seq.c): seq_init lifts the PTX guard, seq_bind binds inputs,
 * seq_emit/seq_lines emit, seq_get/seq_pair read results, seq_end
 * restores the guard for the final moves. */
enum { SEQ_NR = 80, SEQ_NP = 7 };
typedef struct {
	Sel *s;
	MRef R[SEQ_NR], P[SEQ_NP];
	u8 own[SEQ_NR], pown[SEQ_NP];  /* written by the sequence (a temporary) */
	int guard;
	u8 guard_neg;
	int join;                      /* seq_skip's join mark */
	u8 share;                      /* seq_lines: SKIP..JOIN as a shared subroutine */
	struct SeqSub *sub;            /* a subroutine body: unbound reads are its inputs */
} Seq;
void seq_init(Seq *q, Sel *s);
void seq_end(Seq *q);
void seq_bind(Seq *q, int r, MRef v);
void seq_bind64(Seq *q, int r, MRef pair);
void seq_emit(Seq *q, const char *line);
void seq_emitf(Seq *q, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void seq_lines(Seq *q, const char *const *lines);
MRef seq_get(Seq *q, int r);
MRef seq_pair(Seq *q, int r);
/* Out-of-line slow paths: seq_skip(q, "P6") skips to seq_join unless P6
 * ("!P6": unless not P6); seq_link (after isel, before reconvergence)
 * makes the join a block.  With q->share set, seq_lines emits a
 * "SKIP .. JOIN" part once per function as a subroutine (CALL.REL.NOINC
 * / RET.REL.NODEC, as ptxas) and a call at each use. */
void seq_skip(Seq *q, const char *pred);
void seq_join(Seq *q);
void seq_link(MFunc *f);
/* A mark for branch targets (mi(f, "BRA %L", mark)) and its place
 * (seq_label: a block starts there after seq_link; loops and joins). */
int seq_mark(void);
void seq_label(MFunc *f, int mark);
/* R(d):R(d+1) = high / low 64 bits of the unsigned product of pairs
 * R(a):R(a+1) and R(b):R(b+1) (temporaries R40..R47, P3, P4 and R54..R56; isel_seq.c). */
void seq_mulhi_u64(Seq *q, int d, int a, int b);
void seq_mullo_u64(Seq *q, int d, int a, int b);

/* Integer extras (isel_intx.c), division (isel_div.c), float math (isel_math.c). */
extern const SelRule sel_rules_intx[], sel_rules_math[], sel_rules_div[];
int sel_div_float(Sel *s, const IrIns *x);
/* Carry chains (isel_intx.c): kind 0 add, 1 sub, 2 mad; chained = reads CC.CF. */
int sel_carry(Sel *s, const IrIns *x, int kind, int chained);

#endif
