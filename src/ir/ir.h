/* ir.h -- the compiler's middle IR: PTX instructions over virtual
 * registers, grouped into basic blocks of a control-flow graph.
 *
 * An IrIns is a copy of a PtxInstr (operation, types, modifiers, operand
 * list) whose operands passes may rewrite (constant folding turns a
 * register into an immediate, copy propagation renames registers); a
 * branch names its target block.  Virtual registers are the PTX
 * registers of the function (same ids), plus temporaries that passes add
 * (ir_new_reg).  Passes live one per file (dce.c, copyprop.c, ...) and
 * ir_verify() runs between them.  Everything is allocated in the
 * function's arena. */
#ifndef OA_IR_H
#define OA_IR_H

#include "ptx/ptx.h"

typedef struct {
	PtxInstr p;    /* the operation; p.opds may be the PTX function's (or
			  another instruction's): read-only unless own */
	int target;    /* bra: target block; -1 otherwise */
	u8 dead;       /* removed by a pass (skipped by everyone after) */
	u8 own;        /* p.opds, elements too, is this instruction's own copy
			  (ir_opds_w); 0 again when a pass replaces p.opds */
	const PtxOperand *built;   /* the operands ir_build gave and checked:
			  while p.opds is still them, ir_verify skips them */
} IrIns;

typedef struct {
	VEC(IrIns) ins;
	int succ[2];   /* fall-through / taken; -1 when absent */
	VEC(int) pred;
	int loop_depth;
} IrBlock;

typedef struct {
	const PtxModule *m;
	const PtxFunc *f;
	Arena *a;
	VEC(IrBlock) b;
	int nregs;     /* virtual registers (PTX registers first) */
	u8 *rtype;     /* PtxType of each, nregs entries */
	size_t rcap;
} IrFunc;

/* Build the IR of a function with a body.  Returns 0, or -1 after a
 * diagnostic (an unsupported construct, e.g. brx.idx). */
int ir_build(IrFunc *f, const PtxModule *m, const PtxFunc *fn, Arena *a);
int ir_new_reg(IrFunc *f, PtxType t);
/* x's operands to write: the IR builds on the PTX function's operands
 * without copying them, and a pass writes an operand (or an element) only
 * through this, which makes x's own deep copy first. */
PtxOperand *ir_opds_w(IrFunc *f, IrIns *x);
void ir_free(IrFunc *f);   /* the vectors; the arena holds the rest */
/* brx.c: the instructions of fn with each brx.idx expanded into a
 * compare chain (fn->instrs itself when there is none); nextra new
 * predicate registers follow fn's.  NULL (and *bad) for a brx.idx
 * without a .branchtargets list. */
const PtxInstr *ir_expand_brx(const PtxFunc *fn, Arena *a, int *ninstrs, int *nextra,
			      const PtxInstr **bad);
/* Abort (with the pass name) when an invariant is broken.  The operands
 * of an instruction whose p.opds is still x->built are not checked again:
 * ir_build checked them, the passes only read them (under OA_VERIFY,
 * which checks everything, compile.c proves it with ir_ptx_hash), and
 * nregs only grows. */
void ir_verify(const IrFunc *f, const char *after);
/* OA_VERIFY=1 in the environment: every check after every pass, and the
 * passes prove what they keep instead of recomputing it. */
int ir_verify_all(void);
/* A fingerprint of everything a pass may change (verify.c): a pass that
 * reports no change must leave it equal. */
u64 ir_hash(const IrFunc *f);
/* A fingerprint of fn's operands, which the IR shares: the passes must
 * leave it equal (compile.c checks under OA_VERIFY). */
u64 ir_ptx_hash(const PtxFunc *fn);
/* Human-readable dump, one instruction per line (PTX syntax). */
void ir_dump(const IrFunc *f, Buf *out);

/* Passes; each returns the number of changes it made. */
int ir_dce(IrFunc *f);
int ir_copyprop(IrFunc *f);
int ir_fuse(IrFunc *f);
int ir_constfold(IrFunc *f);   /* constfold.c */
int ir_cse(IrFunc *f);         /* cse.c */
int ir_unroll(IrFunc *f);      /* unroll.c */
int ir_ifconv(IrFunc *f);      /* ifconv.c */
int ir_widen(IrFunc *f);       /* widen.c */
int ir_compact(IrFunc *f);     /* cfg.c: drop empty fall-through blocks */
int ir_paramaddr(IrFunc *f);   /* paramaddr.c: ld.param through a parameter's address */

/* Operand roles: is operand i of in a destination (written)?  Only
 * operand 0 can be, unless the operation is one of ir_no_def (stores,
 * control, fences...; build.c). */
extern const u8 ir_no_def[PTX_NOPS];
static inline int
ir_opd_is_def(const PtxInstr *in, int i)
{
	return i == 0 && in->nopds > 0 && (in->op >= PTX_NOPS || !ir_no_def[in->op]);
}

#endif
