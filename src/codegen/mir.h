/* mir.h -- machine IR: SASS instructions over virtual registers.
 *
 * Instruction selection writes each SASS instruction as nvdisasm text with
 * holes for virtual registers, e.g.
 *
 *     mi(s, "IMAD.WIDE.U32 %D, %U, 0x4, %U", d64, i, base64);
 *
 * %D is a register the instruction writes, %U one it reads (arguments are
 * MRef values), %O an MOpd (a read register or literal text), %s inserts a
 * string, %x a signed 32-bit immediate in
 * nvdisasm's spelling for arithmetic (-0x1, 0xff), %h an unsigned one (the
 * spelling of logic operations, shifts, MOV and SEL: 0xffffffff), %L the target block of a branch (an
 * int).  A vreg has a class (R, P, UR, UP) and a width in 32-bit registers
 * (1, 2 or 4: R pairs and quads are allocated aligned); an MRef names a
 * vreg, optionally one 32-bit part of it (sub).  Fixed registers (RZ, PT,
 * URZ, UPT, R1 the stack pointer, UR4 the memory descriptor) are written
 * literally in the text.  After register allocation the text is rendered
 * with physical names and encoded by the ISA tables (isa_parse). */
#ifndef OA_MIR_H
#define OA_MIR_H

#include "util/util.h"

enum { RC_R, RC_P, RC_UR, RC_UP, RC_NCLASS };

typedef struct {
	int v;     /* vreg id; -1 = none */
	u8 sub;    /* first 32-bit part used (0 = all / the low part) */
	u8 w;      /* parts used: 0 = the whole vreg */
} MRef;

/* An operand that is a register or literal text (immediate, RZ, c[..]). */
typedef struct {
	MRef r;          /* register, when txt[0] == 0 */
	char txt[40];
} MOpd;

#define MI_MAXREF 12

enum {
	MF_DEF = 1,    /* ref is written */
	MF_USE = 2,    /* ref is read */
};

/* The ints before the bytes: 128 bytes, no padding (the blocks' arrays
 * of them are a compile's largest IR). */
typedef struct {
	char *text;       /* template; hole k is "\x01" followed by byte k+1 */
	MRef r[MI_MAXREF];
	int guard;        /* P vreg or -1 (PT) */
	int target;       /* branch target block, -1 */
	u8 rf[MI_MAXREF]; /* MF_* per ref */
	u8 nr;
	u8 guard_neg;
	u8 copy;          /* a plain register move (coalescing candidate) */
} MIns;

typedef struct {
	VEC(MIns) ins;
	int succ[2];
	int loop_depth;
	int func;         /* a linked callee's entry: its module function index + 1, else 0 */
} MBlock;

typedef struct {
	u8 cls, w;        /* class, width in registers */
	u8 tmp;           /* a temporary of one selection: a guarded def still kills */
	u8 fixed;         /* pre-assigned (RZ, PT): never allocated */
	int phys;         /* after allocation: first physical register */
} MVreg;

typedef struct {
	Arena *a;
	VEC(MVreg) vr;
	VEC(MBlock) b;
	int cur;          /* block being appended to */
	int rz, pt;       /* vregs standing for RZ and PT (mfunc_init) */
	int guard;        /* guard applied to instructions being emitted */
	u8 guard_neg;
	u8 frames;        /* has FRAME placeholders (isel_call.c) for ra.c's fix_frames */
} MFunc;

void mfunc_init(MFunc *f, Arena *a);
void mfunc_free(MFunc *f);
int mvreg(MFunc *f, int cls, int w);
static inline MRef mref(int v) { MRef r = { v, 0, 0 }; return r; }
static inline MRef mpart(int v, int sub, int w) { MRef r = { v, (u8)sub, (u8)w }; return r; }
/* Is t's opcode op ("FADD" for "FADD.FTZ R0, ..." and "FADD R0, ...")?
 * A byte loop: most calls differ in the first byte. */
static inline int
mir_op_is(const char *t, const char *op)
{
	while (*op)
		if (*t++ != *op++)
			return 0;
	return *t == ' ' || *t == '.' || *t == 0;
}
/* Append an instruction to the current block (see the format above). */
MIns *mi(MFunc *f, const char *fmt, ...);
/* Append an instruction whose text (n bytes) already has its holes,
 * "\x01" and byte k for r[k-1] (rf[k-1]: MF_DEF or MF_USE), and nothing
 * else to format: mi() without a format to parse (seq_emit's lines). */
MIns *mi_holes(MFunc *f, const char *text, size_t n, const MRef *r, const u8 *rf, int nr);
/* "0x" and v in lowercase hex at d (as "0x%llx", nvdisasm's spelling of
 * immediates; mi's %h); returns the end. */
char *mi_put_hex(char *d, u64 v);
/* Render one instruction with physical registers (after allocation);
 * addr_of_block gives branch target addresses.  It checks the
 * instruction as mir_verify does (aborting when it is broken): the
 * allocated code's check is made here, where the encoder renders each
 * instruction, not in a walk of its own (an encoder that stops
 * rendering must call mir_verify instead). */
void mi_render(const MFunc *f, const MIns *m, const u64 *block_addr, Buf *out);
/* Abort (naming the pass) when refs, holes, guards or targets are broken. */
void mir_verify(const MFunc *f, const char *after);
/* The whole function, virtual or physical, for --dump-mir. */
void mir_dump(const MFunc *f, Buf *out, int phys);
/* Per vreg: how many operands write it and how many read it (guards
 * count as reads).  mir_counts_free releases the arrays. */
typedef struct {
	int *defs, *uses;
} MCounts;
void mir_counts(const MFunc *f, MCounts *c);
/* Insert m into B before position at (at == B->ins.n appends). */
void mir_insert(MBlock *B, size_t at, MIns m);
void mir_counts_free(MCounts *c);

#endif
