/* divconst.h -- division and remainder by a constant as SASS step plans.
 *
 * divconst_plan turns "x / d" or "x % d" (u32, s32, u64, s64; d an
 * immediate) into a short list of steps; every step is exactly one SASS
 * instruction that exists in the sm_80 and sm_90 tables (see DivOpKind and
 * divconst_sass).  divconst_eval runs the steps with the hardware's
 * semantics (the emulator's, src/emu/emu_exec.c), so a plan can be proven
 * against C's / and %: exhaustively over 32 bits, by the magic-number
 * inequality (divconst_prove32) and with z3 for 64 bits
 * (tools/prove-divconst).  Method and evidence: docs/findings-divconst.md.
 *
 * Operands are 32-bit registers numbered from 0.  A 32-bit plan reads x in
 * operand 0; a 64-bit plan reads x in operands 0 (low) and 1 (high).
 * Temporaries are numbered after x.  A pair (k, k+1) -- the destination of
 * a .WIDE step, the c operand of IMAD.HI/IMAD.WIDE, a 64-bit x or result --
 * always has k even and must map to an aligned register pair Rn, Rn+1 (n
 * even).  DV_RZ names RZ.  Predicates are numbered 0..DV_NPRED-1 (P0..);
 * DV_PT is PT.  The result is operand `result` (and result+1 for 64 bits);
 * it may be operand 0 itself (x / 1) when the plan has no steps. */
#ifndef OA_DIVCONST_H
#define OA_DIVCONST_H

#include "util/util.h"

enum { DV_RZ = 0xff, DV_PT = 7, DV_NREG = 32, DV_NPRED = 7, DV_MAXSTEPS = 24 };

/* One step = one SASS instruction.  d = dst, a/b = operands, imm = the
 * immediate, pd = predicate written (carry out; DV_PT = none), pa/pb =
 * predicates read (carry in; DV_PT = none).  Text in divconst_sass. */
typedef enum {
	DV_IMAD_HI_U32,     /* d = hi32(a*imm + pair(b))          IMAD.HI.U32 d, [pd,] a, imm, b */
	DV_IMAD_HI_S32,     /* d = hi32(s(a)*s(imm) + pair(b))    IMAD.HI d, a, imm, b */
	DV_IMAD_WIDE_U32,   /* pair d = a*imm + pair(b) [+ pa]    IMAD.WIDE.U32[.X] d, [pd,] a, imm, b[, pa] */
	DV_IMAD,            /* d = lo32(a*imm + b)                IMAD d, a, imm, b */
	DV_ADD,             /* d = a + b [+ pa + pb]              IADD3[.X] d, [pd,] a, b, RZ[, pa, pb] */
	DV_SUB,             /* d = a - b  (a + ~b + 1)            IADD3 d, [pd,] a, -b, RZ */
	DV_SUBX,            /* d = a + ~b + pa                    IADD3.X d, [pd,] a, ~b, RZ, pa, !PT */
	DV_SHR_U32,         /* d = a >> imm                       SHF.R.U32.HI d, RZ, imm, a */
	DV_SHR_S32,         /* d = a >>arith imm                  SHF.R.S32.HI d, RZ, imm, a */
	DV_SHR_U64,         /* d = lo32((b:a) >> imm)             SHF.R.U64 d, a, imm, b */
	DV_SHR_S64,         /* d = lo32((b:a) >>arith imm)        SHF.R.S64 d, a, imm, b */
	DV_LEA_HI,          /* d = b + (a >> (32-imm)) [+ pa]     LEA.HI[.X] d, [pd,] a, b, RZ, imm[, pa] */
	DV_LEA_HI_SX32,     /* d = b + (a >>arith (32-imm))       LEA.HI.SX32 d, a, b, imm */
	DV_ISETP_GE_U32,    /* pd = a >= imm (unsigned)           ISETP.GE.U32.AND pd, PT, a, imm, PT */
	DV_ISETP_EQ,        /* pd = a == imm                      ISETP.EQ.AND pd, PT, a, imm, PT */
	DV_SEL01,           /* d = pa ? 1 : 0                     SEL d, RZ, 0x1, !pa */
	DV_MOV,             /* d = a (a may be RZ)                MOV d, a */
	DV_MOVI,            /* d = imm                            MOV d, imm */
	DV_AND,             /* d = a & imm                        LOP3.LUT d, a, imm, RZ, 0xc0, !PT */
	DV_XOR_OR,          /* d = (a ^ imm) | b                  LOP3.LUT d, a, imm, b, 0xbe, !PT */
	DV_NKINDS
} DivOpKind;

typedef struct {
	u8 kind, dst, a, b;
	u8 pd, pa, pb;
	u64 imm;
} DivStep;

/* How the quotient is computed (for the proofs and the documentation). */
typedef enum {
	DM_ZERO,     /* d == 0: quotient and remainder all ones (documented choice) */
	DM_ONE,      /* |d| == 1 */
	DM_POW2,     /* |d| a power of two: shifts */
	DM_CMP,      /* u: d >= 2^(bits-1); s: d == INT_MIN: a compare */
	DM_MUL,      /* q = hi(x*magic) >> shift, magic < 2^bits (after pre-shift) */
	DM_MULADD,   /* magic = 2^bits + magic (odd d): the add/halve form */
	DM_SMUL      /* signed: q = floor(x*magic / 2^(bits+shift)) + [q < 0] */
} DivMethod;

typedef struct {
	int nsteps;
	DivStep s[DV_MAXSTEPS];
	int result;          /* operand holding the result (low half for 64 bits) */
	int bits, is_signed, want_rem;
	u64 d;               /* the divisor, as given (two's complement in bits) */
	/* The method and its numbers, for divconst_prove32 and the docs. */
	int method;
	int preshift;        /* DM_MUL: x >> preshift first (even d) */
	int shift;           /* post-shift */
	u64 magic;           /* DM_MUL: < 2^bits; DM_MULADD: low bits of 2^bits + magic;
	                        DM_SMUL: the signed magic M as a bits-wide value */
	i64 smagic_adj;      /* DM_SMUL: +1 when x is added (d > 0, M < 0), -1 when
	                        subtracted (d < 0, M > 0), else 0 */
} DivPlan;

/* Plan x / d (want_rem = 0) or x % d (want_rem = 1) for bits = 32 or 64;
 * d is read as a bits-wide two's complement value.  Returns the number of
 * steps, or -1 when bits is not 32 or 64.  d = 0 gets a plan too: the
 * quotient and the remainder are all ones (2^bits - 1; -1 signed). */
int divconst_plan(DivPlan *p, u64 d, int bits, int is_signed, int want_rem);

/* Runs the steps on x (the low `bits` bits are used); returns the result
 * zero-extended from `bits` bits. */
u64 divconst_eval(const DivPlan *p, u64 x);
/* The same for n values at once (the exhaustive proofs use it). */
void divconst_eval_n(const DivPlan *p, const u64 *x, u64 *out, int n);
/* A 32-bit plan on the n consecutive values x0, x0+1, ... (the exhaustive
 * proofs use it). */
void divconst_eval32_n(const DivPlan *p, u32 x0, u32 *out, int n);

/* Step i as SASS text with placeholder registers: operand 0 of a 32-bit
 * plan is {x}, operands 0/1 of a 64-bit plan {x.lo}/{x.hi}, a temporary k
 * {tk}, predicate k {pk}; e.g. "IMAD.HI.U32 {t1}, {x}, 0x24924925, RZ".
 * Appends to out. */
void divconst_sass(const DivPlan *p, int i, Buf *out);
/* All steps, one per line, then "-> {result}". */
void divconst_print(const DivPlan *p, Buf *out);

/* For a 32-bit plan: proves its method's formula over every x in integer
 * arithmetic (the magic-number inequality, checked exactly with 128-bit
 * integers).  Returns 1 when proven, 0 when the inequality fails, -1 when
 * the method has no formula to prove (those are proven exhaustively). */
int divconst_prove32(const DivPlan *p);

#endif
