/* ptx.h -- the PTX abstract syntax tree and the parse/check API.
 *
 * A PtxModule is what one .ptx file says, already resolved enough to be
 * executed (src/ptx/interp*) or lowered (the compiler) without looking at
 * the text again:
 *
 *   - module-scope variables (PtxVar: state space, element type, alignment,
 *     array dimensions, total size, initializer bytes plus relocations for
 *     symbol addresses in initializers);
 *   - functions (PtxFunc: .entry or .func, parameters and return
 *     parameters as PtxVar in the .param space, performance directives,
 *     function-scope variables, a register table, and a FLAT array of
 *     instructions: labels are resolved to instruction indices, nested
 *     { } scopes are flattened, registers are resolved to ids).
 *
 * Registers.  Every declared register of a function gets an id 0..nregs-1,
 * `%r<120>` declares 120 of them (%r0..%r119, consecutive ids), and
 * fn->regs[id] gives its type.  A register name in a nested { } block that
 * shadows an outer one gets its own id.  Predicates are registers of type
 * PTX_T_PRED.
 *
 * Instructions.  `@!%p1 add.s32 %r1, %r2, 1;` becomes a PtxInstr with
 * op = PTX_OP_add, guard = id of %p1, guard_neg = 1, the modifiers both
 * raw (mods[], in source order, each a PtxModId) and decoded into fields
 * (types[], rnd, flags, space[], ...), and operands[] in source order.
 * The opcode is the longest dotted prefix that names an entry of ops.def
 * (so `cp.async.cg.shared.global` is op cp_async with modifiers .cg
 * .shared .global, and `mbarrier.try_wait.parity.shared::cta.b64` is op
 * mbarrier_try_wait with .parity .shared::cta .b64).
 *
 * Operands.  kinds (see PtxOperand):
 *   REG    a register (id; neg=1 for `!%p` predicate inputs); for
 *          `setp ... %p1|%p2` the first is reg and the second reg2.
 *   SREG   special register (%tid.x: sreg = PTX_SR_tid, comp = 0..3 for
 *          x,y,z,w or -1 when it has no component).
 *   IMM    integer immediate (imm; written as decimal, 0x, 0b, octal,
 *          optional U suffix, unary minus), or FIMM a float immediate:
 *          0fXXXXXXXX (fbits = 32 bits, is_f64 = 0), 0dXXXXXXXXXXXXXXXX or
 *          a decimal like 1.5 (fbits = IEEE double bits, is_f64 = 1).
 *   SYM    a symbol: a variable (symkind VAR, var), a function (FUNC,
 *          func index), a label (LABEL: index = the instruction the
 *          label precedes, label = its entry in fn->labelnames; labels
 *          are scoped by { } like registers), or a call prototype or
 *          branch-target table (PROTO/BTARGETS: index into fn->protos or
 *          fn->btargets); imm holds `sym+4` offsets.
 *   ADDR   [base+offset]: base is a register (reg >= 0), a symbol (sym
 *          != NULL, resolved as SYM would be), or nothing ([1024] ->
 *          absolute, reg = -1, sym = NULL); offset in imm.  Further
 *          comma-separated parts, as in tensor and texture operands
 *          `[tmap, {%r1, %r2}]`, are in elems/nelems (elems[0] is that
 *          VEC).
 *   VEC    a brace list {a, b, c, d}: elems/nelems (elements are REG,
 *          IMM, FIMM or SINK); also the parenthesized lists of call.
 *   SINK   `_`.
 *
 * call: always operands[0] = VEC of return parameters (nelems 0 when the
 * call returns nothing), operands[1] = target (SYM FUNC, or REG for an
 * indirect call), operands[2] = VEC of arguments, and, for indirect calls,
 * operands[3] = SYM PROTO or SYM BTARGETS.  Elements of the VECs are SYM
 * VAR operands naming .param variables of the caller.
 *
 * Positions.  Every node has pos, a byte offset into mod->src.text; use
 * diag_at(&mod->src, pos, ...) to report an error with a caret.  PtxInstr
 * also has line (1-based) and loc_file/loc_line from the last `.loc`.
 *
 * Kept for printing only: .pragma strings (with the instruction index they
 * precede), .file names, .section bodies (DWARF) as raw text.
 *
 * Memory.  Everything hangs off mod->arena; ptx_free releases it. */
#ifndef OA_PTX_H
#define OA_PTX_H

#include "util/util.h"

/* Opcodes, from ops.def: PTX_OP_add, PTX_OP_cp_async_bulk_tensor, ... */
typedef enum {
	PTX_OP_NONE,
#define OP(id, text) PTX_OP_##id,
#include "ptx/ops.def"
#undef OP
	PTX_NOPS
} PtxOp;

/* Known modifiers, from mods.def: PTX_M_u32, PTX_M_shared_cta, ... */
typedef enum {
	PTX_M_NONE,
#define MOD(id, text, cls, val) PTX_M_##id,
#include "ptx/mods.def"
#undef MOD
	PTX_NMODS
} PtxModId;

/* Data types.  PTX_T_NONE = 0 means absent. */
typedef enum {
	PTX_T_NONE,
	PTX_T_B8, PTX_T_B16, PTX_T_B32, PTX_T_B64, PTX_T_B128,
	PTX_T_U8, PTX_T_U16, PTX_T_U32, PTX_T_U64,
	PTX_T_S8, PTX_T_S16, PTX_T_S32, PTX_T_S64,
	PTX_T_F16, PTX_T_F16X2, PTX_T_BF16, PTX_T_BF16X2, PTX_T_TF32,
	PTX_T_F32, PTX_T_F64,
	PTX_T_E4M3, PTX_T_E5M2, PTX_T_E4M3X2, PTX_T_E5M2X2,
	PTX_T_S4, PTX_T_U4, PTX_T_B1, PTX_T_F32X2,
	PTX_T_PRED,
	PTX_T_TEXREF, PTX_T_SAMPLERREF, PTX_T_SURFREF,
	PTX_T_U16X2, PTX_T_S16X2,
	PTX_NTYPES
} PtxType;
/* Per type (tables.c): inline, every pass and isel ask them per operand. */
typedef struct {
	const char *name;
	u8 size, isfloat, issigned;
} PtxTypeInfo;
extern const PtxTypeInfo ptx_typetab[PTX_NTYPES];
/* bytes; pred 1; refs 8; 0 for NONE */
static inline int
ptx_type_size(PtxType t)
{
	return (unsigned)t < PTX_NTYPES ? ptx_typetab[t].size : 0;
}
const char *ptx_type_name(PtxType t); /* "u32" */
/* f16..f64, bf16, tf32, fp8 */
static inline int
ptx_type_is_float(PtxType t)
{
	return (unsigned)t < PTX_NTYPES && ptx_typetab[t].isfloat;
}
/* s8..s64 */
static inline int
ptx_type_is_signed(PtxType t)
{
	return (unsigned)t < PTX_NTYPES && ptx_typetab[t].issigned;
}

/* State spaces.  SHARED is .shared and .shared::cta; SHARED_CLUSTER is
 * .shared::cluster. */
typedef enum {
	PTX_S_NONE, PTX_S_REG, PTX_S_SREG, PTX_S_CONST, PTX_S_GLOBAL,
	PTX_S_LOCAL, PTX_S_PARAM, PTX_S_SHARED, PTX_S_SHARED_CLUSTER,
	PTX_S_TEX, PTX_S_GENERIC, PTX_NSPACES
} PtxSpace;
const char *ptx_space_name(PtxSpace s); /* "global" */

typedef enum {
	PTX_RND_NONE, PTX_RND_RN, PTX_RND_RZ, PTX_RND_RM, PTX_RND_RP,
	PTX_RND_RNI, PTX_RND_RZI, PTX_RND_RMI, PTX_RND_RPI, PTX_RND_RNA,
	PTX_RND_RS
} PtxRound;

typedef enum {
	PTX_CMP_NONE, PTX_CMP_EQ, PTX_CMP_NE, PTX_CMP_LT, PTX_CMP_LE,
	PTX_CMP_GT, PTX_CMP_GE, PTX_CMP_LO, PTX_CMP_LS, PTX_CMP_HI,
	PTX_CMP_HS, PTX_CMP_EQU, PTX_CMP_NEU, PTX_CMP_LTU, PTX_CMP_LEU,
	PTX_CMP_GTU, PTX_CMP_GEU, PTX_CMP_NUM, PTX_CMP_NAN
} PtxCmp;

/* Combining operation: atom/red/redux/bar.red/multimem op, the boolean op
 * of setp/set (.and .or .xor), setmaxnreg .inc/.dec. */
typedef enum {
	PTX_AOP_NONE, PTX_AOP_ADD, PTX_AOP_MIN, PTX_AOP_MAX, PTX_AOP_INC,
	PTX_AOP_DEC, PTX_AOP_AND, PTX_AOP_OR, PTX_AOP_XOR, PTX_AOP_CAS,
	PTX_AOP_EXCH, PTX_AOP_POPC
} PtxAop;

/* The opcode's sub-operation. */
typedef enum {
	PTX_MODE_NONE,
	PTX_MODE_UP, PTX_MODE_DOWN, PTX_MODE_BFLY, PTX_MODE_IDX,   /* shfl */
	PTX_MODE_ALL, PTX_MODE_ANY, PTX_MODE_UNI, PTX_MODE_BALLOT, /* vote, match */
	PTX_MODE_LO, PTX_MODE_HI, PTX_MODE_WIDE,                   /* mul, mad */
	PTX_MODE_F4E, PTX_MODE_B4E, PTX_MODE_RC8, PTX_MODE_ECL,    /* prmt */
	PTX_MODE_ECR, PTX_MODE_RC16,
	PTX_MODE_L, PTX_MODE_R,                                    /* shf */
	PTX_MODE_FINITE, PTX_MODE_INFINITE, PTX_MODE_NUMBER,       /* testp */
	PTX_MODE_NOTANUMBER, PTX_MODE_NORMAL, PTX_MODE_SUBNORMAL
} PtxMode;

typedef enum {
	PTX_SEM_NONE, PTX_SEM_WEAK, PTX_SEM_RELAXED, PTX_SEM_ACQUIRE,
	PTX_SEM_RELEASE, PTX_SEM_ACQ_REL, PTX_SEM_SC, PTX_SEM_VOLATILE,
	PTX_SEM_MMIO
} PtxSem;

typedef enum {
	PTX_SCOPE_NONE, PTX_SCOPE_CTA, PTX_SCOPE_CLUSTER, PTX_SCOPE_GPU,
	PTX_SCOPE_SYS
} PtxScope;

/* Cache operators of ld/st/cp.async/prefetch. */
typedef enum {
	PTX_CACHE_NONE, PTX_CACHE_CA, PTX_CACHE_CG, PTX_CACHE_CS,
	PTX_CACHE_LU, PTX_CACHE_CV, PTX_CACHE_WB, PTX_CACHE_WT
} PtxCache;

/* Boolean modifiers (PtxInstr.flags). */
enum {
	PTX_F_FTZ = 1u << 0, PTX_F_SAT = 1u << 1, PTX_F_APPROX = 1u << 2,
	PTX_F_FULL = 1u << 3, PTX_F_CC = 1u << 4, PTX_F_UNI = 1u << 5,
	PTX_F_SYNC = 1u << 6, PTX_F_ALIGNED = 1u << 7, PTX_F_NC = 1u << 8,
	PTX_F_VOLATILE = 1u << 9, PTX_F_TO = 1u << 10, PTX_F_SHIFTAMT = 1u << 11,
	PTX_F_CLAMP = 1u << 12, PTX_F_WRAP = 1u << 13, PTX_F_RELU = 1u << 14,
	PTX_F_NAN = 1u << 15, PTX_F_ABS = 1u << 16, PTX_F_XORSIGN = 1u << 17,
	PTX_F_SATFINITE = 1u << 18, PTX_F_TRANS = 1u << 19, PTX_F_ROW = 1u << 20,
	PTX_F_COL = 1u << 21, PTX_F_NOINC = 1u << 22, PTX_F_SHIFTAMT2 = 1u << 23,
	PTX_F_ARRIVE = 1u << 24, PTX_F_RED = 1u << 25, PTX_F_OOB = 1u << 26,
	PTX_F_CACHE_HINT = 1u << 27, PTX_F_EXPECT_TX = 1u << 28,
	PTX_F_MULTICAST = 1u << 29, PTX_F_PARITY = 1u << 30, PTX_F_BRANCH = 1u << 31
};

typedef enum {
	PTX_OPD_NONE, PTX_OPD_REG, PTX_OPD_SREG, PTX_OPD_IMM, PTX_OPD_FIMM,
	PTX_OPD_SYM, PTX_OPD_ADDR, PTX_OPD_VEC, PTX_OPD_SINK
} PtxOpdKind;

typedef enum {
	PTX_SYM_NONE, PTX_SYM_VAR, PTX_SYM_FUNC, PTX_SYM_LABEL, PTX_SYM_PROTO,
	PTX_SYM_BTARGETS
} PtxSymKind;

/* Special registers, from sregs.def: PTX_SR_tid, PTX_SR_laneid, ... */
typedef enum {
	PTX_SR_NONE,
#define SREG(id, text, ncomp) PTX_SR_##id,
#include "ptx/sregs.def"
#undef SREG
	PTX_NSREGS
} PtxSreg;
const char *ptx_sreg_name(PtxSreg s); /* "%tid" */

typedef struct PtxVar PtxVar;
typedef struct PtxFunc PtxFunc;
typedef struct PtxOperand PtxOperand;

struct PtxOperand {
	u8 kind;      /* PtxOpdKind */
	u8 neg;       /* `!%p` */
	u8 is_f64;    /* FIMM: fbits is a double (else a float in the low 32) */
	u8 symkind;   /* PtxSymKind for SYM and ADDR with a symbol base */
	signed char comp;     /* SREG component: 0..3 = x,y,z,w; -1 none */
	u8 sreg;      /* PtxSreg */
	u8 mask;      /* reserved, 0 */
	u8 has_off;   /* ADDR/SYM: an offset was written, even +0 (ptxas -G
			 codes [%SP+0] differently from [%SP]) */
	int reg;      /* REG/ADDR base register id, -1 if none */
	int reg2;     /* second register of `%p|%q`, -1 if none */
	i64 imm;      /* IMM value; ADDR and SYM offset */
	u64 fbits;    /* FIMM bits */
	const char *sym;  /* SYM/ADDR symbol name as written */
	PtxVar *var;      /* symkind VAR: the variable */
	PtxOperand *elems; /* VEC elements; ADDR parts after the base */
	int index;        /* symkind FUNC: function index; LABEL: instr index;
			     PROTO/BTARGETS: index in fn->protos/btargets */
	int nelems;
	u32 pos;
	int label;        /* symkind LABEL: index in fn->labelnames (labels
			     in different { } scopes may share a name) */
};

#define PTX_MAXTYPES 4
#define PTX_MAXOPDS 16

typedef struct {
	u16 op;          /* PtxOp */
	u8 guard_neg;
	u8 ntypes;
	u8 types[PTX_MAXTYPES]; /* PtxType in order: cvt.f32.s32 -> {F32, S32} */
	u8 rnd;          /* PtxRound */
	u8 cmp;          /* PtxCmp */
	u8 aop;          /* PtxAop */
	u8 mode;         /* PtxMode */
	u8 sem;          /* PtxSem */
	u8 scope;        /* PtxScope */
	u8 cache;        /* PtxCache */
	u8 vec;          /* 1, 2, 4 or 8 (.v2/.v4/.v8); 1 when absent */
	u8 nspaces;
	u8 space[2];     /* PtxSpace in order: cvta.to.global -> {GLOBAL};
			    cp.async.ca.shared.global -> {SHARED, GLOBAL} */
	u8 nmods;
	int guard;       /* predicate register id, -1 for none */
	u32 flags;       /* PTX_F_* */
	int nopds;
	u32 pos;         /* offset of the opcode (or the guard) in the source */
	int loc_file;    /* the last .loc before it in the function: file */
	int loc_line;    /* number (mod->files[]) and line; 0 when none */
	u16 *mods;       /* PtxModId of every modifier, in source order
			    (ptx_mod_name: its text, ".u32") */
	PtxOperand *opds;
} PtxInstr;

/* Initializer relocation: at byte offset `at` of the variable's init,
 * store the address of `sym` (+addend); generic() and mask() forms. */
typedef struct {
	u64 at;
	const char *sym;
	i64 addend;
	u8 generic; /* generic(sym) */
	u8 size;    /* bytes of the slot */
	u64 mask;   /* byte-mask form 0xFF00(sym) (or mask(0xFF00, sym)): the
		       mask, one byte wide; 0 for a whole address */
	int shift;  /* the slot holds (address & mask) >> shift */
} PtxReloc;

enum { PTX_LINK_NONE, PTX_LINK_VISIBLE, PTX_LINK_EXTERN, PTX_LINK_WEAK, PTX_LINK_COMMON };

struct PtxVar {
	const char *name;
	u8 space;     /* PtxSpace */
	u8 type;      /* PtxType of one element */
	u8 linkage;   /* PTX_LINK_* */
	u8 vec;       /* .v2/.v4 element vectors: 1, 2, 4 */
	u8 ptr;       /* .ptr attribute on kernel params */
	u8 ptr_space; /* its .const/.global/.local/.shared space, 0 if none */
	u32 align;    /* bytes (explicit .align or the element size) */
	int ndims;
	u64 dims[4];  /* 0 for `[]` (size from the initializer / extern) */
	u64 size;     /* total bytes */
	u8 *init;     /* size bytes when initialized, else NULL */
	PtxReloc *relocs;
	int nrelocs;
	u32 pos;
};

typedef struct {
	u8 type;      /* PtxType */
	u8 range;     /* declared as a range name<count> */
	const char *name; /* "%r" for a range %r<120>, the full name otherwise */
	int first;    /* id of its first register */
	int count;    /* 1 for a plain name */
} PtxRegDecl;

typedef struct {
	u8 type;      /* PtxType */
	int decl;     /* index in fn->regdecls */
} PtxReg;

/* `.callprototype` used by indirect calls. */
typedef struct {
	const char *name;
	PtxVar *rets, *params;
	int nrets, nparams;
	u8 noreturn;
	u32 pos;
} PtxProto;

/* `.branchtargets` table for brx.idx: label instruction indices. */
typedef struct {
	const char *name;
	int *targets;
	int ntargets;
	u32 pos;
} PtxBtargets;

typedef struct {
	const char *text; /* the .pragma string, unquoted */
	int at;           /* in a body: index of the instruction it precedes */
	u32 pos;
} PtxPragma;

struct PtxFunc {
	const char *name;
	u8 is_entry;
	u8 linkage;       /* PTX_LINK_* */
	u8 noreturn;
	u8 has_body;      /* 0 for a declaration/prototype */
	u8 explicitcluster;
	int nparams, nrets;
	PtxVar *params, *rets;
	u32 maxnreg, minnctapersm, maxnctapersm;
	u32 maxntid[3], reqntid[3], reqnctapercluster[3]; /* 0 = absent */
	PtxPragma *pragmas;
	int npragmas;
	int nlocals;      /* function-scope .local/.shared/.param/... vars */
	PtxVar **locals;
	int nregs;
	PtxReg *regs;
	int nregdecls;
	PtxRegDecl *regdecls;
	int ninstrs;
	PtxInstr *instrs;
	int nlabels;      /* label names, for printing */
	const char **labelnames;
	int *labelat;     /* instruction index of each label */
	int nprotos;
	PtxProto *protos;
	int nbtargets;
	PtxBtargets *btargets;
	u32 pos;
};

/* A .section (DWARF debug data): kept as raw text for --dump. */
typedef struct {
	const char *name; /* ".debug_info" */
	const char *body; /* the text between the braces */
} PtxSection;

typedef struct {
	Arena arena;
	Src src;          /* path and text, for diag_at */
	int version_major, version_minor;
	char target[32];  /* "sm_90a" */
	int sm;           /* 90 */
	size_t target_pos; /* where the target name is in src */
	u8 arch_a;        /* sm_90a */
	u8 texmode_independent;
	u8 debug;         /* .target ..., debug */
	int address_size; /* 64 (default) or 32 */
	int nvars;
	PtxVar **vars;    /* module-scope variables in source order */
	int nfuncs;
	PtxFunc **funcs;  /* functions and entries in source order; a function
			     declared then defined appears once (the body) */
	int nfiles;
	const char **files; /* .file N "name": files[N], may be NULL */
	long ninstrs;     /* all instructions of the module */
	long nregs;       /* all registers declared */
	int nsections;
	PtxSection *sections;
} PtxModule;

/* Parse text (len bytes, need not be NUL-terminated) named path.  On the
 * first error, prints "path:line:col: error: ..." with a caret and
 * returns NULL.  Valid PTX the parser does not handle is an error
 * "unsupported: <construct>".  The module keeps pointers into text: keep
 * text alive until ptx_free. */
PtxModule *ptx_parse(const char *path, const char *text, size_t len);
/* Semantic checks: operand counts and kinds, types and sizes, state
 * spaces, target features (sm_90 instructions on sm_80, ...).  Returns 0,
 * or -1 after printing the first error. */
int ptx_check(PtxModule *m);
void ptx_free(PtxModule *m);
/* Write m as canonical PTX text (parses back to the same module). */
void ptx_print(const PtxModule *m, Buf *out);

const char *ptx_op_name(PtxOp op);     /* "cp.async.bulk.tensor" */
PtxOp ptx_op_lookup(const char *text, size_t n); /* exact; PTX_OP_NONE */
const char *ptx_mod_name(PtxModId m);  /* ".shared::cta" */
int ptx_has_mod(const PtxInstr *in, PtxModId m);
/* The dimensions a tensor copy names (.1d ... .5d), 0 for none. */
int ptx_tensor_dims(const PtxInstr *in);
/* The .L2::evict_* modifiers of createpolicy in source order: primary and
 * secondary (0 unchanged, 1 first, 2 last, 3 normal; 0 when absent);
 * returns how many there are. */
int ptx_evict_priorities(const PtxInstr *in, int *primary, int *secondary);
PtxFunc *ptx_find_func(const PtxModule *m, const char *name);
PtxVar *ptx_find_var(const PtxModule *m, const char *name);
/* Register name for messages: "%r57". Uses a static buffer. */
const char *ptx_reg_name(const PtxFunc *f, int id);

/* Interpreter support, implemented by src/ptx/interp*: nonzero when the
 * interpreter executes op.  Weak, so it may be absent (then NULL). */
int interp_supports(int opcode) __attribute__((weak));

#endif
