/* spec.h -- launch specifications: what to run, on which data, and how to
 * compare.  Shared by the PTX interpreter, the SASS emulator, the GPU
 * runner and the C references of the kernel suite.  The JSON form is
 * documented in docs/FRONTENDS.md ("Launch specification").
 *
 * Life cycle:  spec_load() -> launch_init() (allocate and fill buffers)
 *   -> run something that reads/writes the buffers (interpreter, emulator,
 *   GPU, or a C reference) -> launch_compare() against another Launch
 *   initialised from the same spec -> launch_write() to dump outputs. */
#ifndef OA_SPEC_H
#define OA_SPEC_H

#include "util/util.h"

typedef enum {
	T_S8, T_U8, T_S16, T_U16, T_S32, T_U32, T_S64, T_U64,
	T_F16, T_BF16, T_F32, T_F64, NTYPE
} ElemType;

size_t elem_size(ElemType t);
const char *elem_name(ElemType t);              /* "f32" */
int elem_lookup(const char *name, ElemType *t); /* accepts f32, b32 (=u32), ... */

typedef enum { INIT_FILL, INIT_VALUES, INIT_RANGE, INIT_RANDOM } InitKind;

typedef struct {
	InitKind kind;
	double fill;            /* INIT_FILL */
	double *values;         /* INIT_VALUES, nvalues of them, repeated cyclically */
	size_t nvalues;
	double start, step;     /* INIT_RANGE: start + i*step */
	u64 seed;               /* INIT_RANDOM: uniform in [lo, hi] (ints) or [lo, hi) (floats) */
	double lo, hi;
	/* Integer element types: the exact values as 64-bit two's complement
	 * (the doubles above round beyond 2^53).  INIT_RANGE stays in double. */
	u64 fill_bits;          /* INIT_FILL */
	u64 *value_bits;        /* INIT_VALUES, nvalues of them */
	u64 lo_bits, hi_bits;   /* INIT_RANDOM */
} Init;

typedef struct {
	int enabled;            /* compare this buffer */
	double abs_tol, rel_tol;/* |a-b| <= abs_tol + rel_tol*|b|; both 0 = bit-exact */
	u32 ulp;                /* or within ulp units in the last place (floats) */
	int nan_any;            /* a NaN matches any NaN (else: exact mode wants the
	                           same bits; tolerance modes never match a NaN) */
} Check;

/* One field of a struct argument: a scalar's bits or a buffer's address. */
typedef struct {
	u32 offset, size;       /* bytes within the struct */
	int buffer;             /* index of the buffer argument whose address this is, or -1 */
	u64 bits;               /* the scalar's raw bits (buffer < 0), or bytes added
	                           to the buffer's address ("plus") */
	ElemType type;          /* the scalar's type (u64 for a pointer) */
} SpecField;

/* A texture or surface argument (docs/FRONTENDS.md, "Textures and
 * surfaces"): its data is a buffer of size[0]*size[1]*size[2]*channels
 * elements of the argument's type (x fastest, channels interleaved); the
 * kernel receives a 64-bit object handle (launch_tex_handle). */
enum { TEX_CLAMP, TEX_WRAP, TEX_MIRROR, TEX_BORDER };
typedef struct {
	int surface;            /* 1: a surface (suld/sust), 0: a texture */
	int dims;               /* 1..3 */
	u32 size[3];            /* width, height, depth in elements (1 past dims) */
	int channels;           /* 1, 2 or 4 */
	int linear;             /* 1D linear memory: integer fetches only (tex1Dfetch) */
	int filter_linear;      /* linear filtering (else point) */
	int normalized;         /* normalized coordinates */
	int read_norm;          /* 8/16-bit integers read as normalized floats */
	u8 addr[3];             /* address mode per dimension, TEX_CLAMP.. */
} SpecTex;

typedef struct {
	const char *name;       /* parameter name in the spec */
	int is_buffer;          /* 1: pointer to a buffer; 0: scalar or struct by value */
	int is_struct;          /* 1: size bytes by value, from fields (gaps are zero);
	                           also a "pointer" argument (8 bytes, one field) */
	u32 size;               /* struct size in bytes */
	SpecField *fields;      /* struct fields, by increasing offset */
	size_t nfields;
	ElemType type;
	size_t count;           /* buffer elements */
	Init init;
	Check check;
	double scalar;          /* scalar value (exact for integers up to 2^53) */
	u64 scalar_bits;        /* scalar as raw bits of its type (what is passed) */
	const SpecTex *tex;     /* a texture or surface (also is_buffer: its data) */
	const struct Tmap *tmap;/* a tensor map (also is_struct: our 128-byte
	                           encoding, run/tmap.h), or NULL */
} SpecArg;

typedef struct {
	const char *path;       /* for messages */
	const char *kernel;     /* entry name, or NULL: the module's only entry */
	u32 grid[3], block[3], cluster[3];
	u32 shared;             /* dynamic shared memory bytes */
	int cooperative;        /* "cooperative": true: every CTA runs at once and
	                           %envreg1:%envreg2 (high:low) hold the address of
	                           a zeroed SPEC_COOP_BYTES workspace, as the
	                           driver's cooperative launch (cg grid sync) */
	SpecArg *args;          /* in parameter order, then the "buffers" */
	size_t nargs;           /* kernel parameters: args[0..nargs) */
	size_t nall;            /* and buffers only pointed to by struct fields:
	                           args[nargs..nall) */
	Arena arena;
} Spec;

/* Parse a spec file; reports errors as "path:line:col: error: ..." and
 * returns -1 on malformed input. */
int spec_load(const char *path, Spec *s);
int spec_parse(const char *path, const char *text, size_t len, Spec *s);
void spec_free(Spec *s);

/* Buffers of one launch, initialised from a spec. */
typedef struct {
	const Spec *spec;
	void **data;            /* data[i]: buffer of args[i] (NULL for scalars), i < nall */
	size_t *bytes;          /* bytes[i]: its size in bytes */
} Launch;

void launch_init(Launch *l, const Spec *s);
void launch_free(Launch *l);
/* Typed access by parameter name (die() if absent or of another kind):
 * for C references. */
void *launch_buf(Launch *l, const char *name);
double launch_scalar(const Launch *l, const char *name);
/* Raw bits of the scalar field at byte offset off of struct argument name
 * (die() if there is none). */
u64 launch_field(const Launch *l, const char *name, u32 off);
/* The bytes the kernel receives for argument i, in out (room for
 * launch_param_size(): at most SPEC_MAX_STRUCT): a buffer's address
 * addr[i], a scalar's bits, a struct's fields (a pointer field gets
 * addr[] of its buffer).  addr[] is indexed like the arguments (entries
 * of non-buffers unused).  Returns the size written. */
enum { SPEC_MAX_STRUCT = 4096, SPEC_COOP_BYTES = 64 };
/* The machine the PTX interpreter and the SASS emulator both model for the
 * special registers a GPU fills in (docs/findings-emu.md, "Special
 * registers"): %nsmid is SPEC_NSMID and %smid the CTA's linear id
 * (x + nx * (y + ny * z)) mod SPEC_NSMID; %warpid the warp's index in its
 * CTA; %nwarpid SPEC_NWARPID; %gridid SPEC_GRIDID; %envregN and %pmN 0;
 * %total_smem_size the CTA's static shared memory rounded up to 16 plus
 * the dynamic.  Timers (%clock*, %globaltimer*) differ by nature: both
 * count steps, increasing, in different units.  The driver's reserved
 * shared memory is SPEC_RESV bytes (where it lies differs: the emulator
 * has the arch's place, the interpreter after the dynamic bytes), and
 * %reserved_smem_offset_1 (cooperative groups' multi-warp scratch) is
 * SPEC_RESV1 bytes into it; _begin and _0 its start, _end and _cap its
 * end (not measured on a GPU). */
enum { SPEC_NSMID = 132, SPEC_NWARPID = 64, SPEC_GRIDID = 1, SPEC_RESV = 0x400, SPEC_RESV1 = 0x100 };
u32 launch_param(const Launch *l, size_t i, const u64 *addr, u8 *out);
u32 launch_param_size(const SpecArg *a);
/* The object handle a texture/surface argument i receives, and back: the
 * argument index of a handle (its low 32 bits, what SASS passes), or -1
 * when no texture/surface argument has it. */
u64 launch_tex_handle(size_t i);
int launch_tex_arg(const Launch *l, u64 handle, int surface);
/* Compare every checked buffer of got against want.  Prints the first
 * mismatches as "buffer[index]: got X, want Y" to f and returns the number
 * of mismatching elements (0 = match). */
size_t launch_compare(const Launch *got, const Launch *want, FILE *f);
/* Write every buffer as text, one "name[i] = value" per line. */
int launch_write(const Launch *l, const char *path);

/* Additions (suite helper): element access and the small float formats,
 * for C references and for anything that fills or reads buffers. */
/* IEEE binary16 and bfloat16 from a double, rounded to nearest even
 * (directly from the double: no double rounding through float). */
u16 f16_from_double(double x);
u16 bf16_from_double(double x);
double f16_to_double(u16 h);
double bf16_to_double(u16 h);
/* Element i of a buffer of type t, as a double (integers exact up to
 * 2^53; u64/s64 beyond that are rounded). */
double elem_get(ElemType t, const void *base, size_t i);
/* Store v as element i: floats round to nearest even; integers round to
 * nearest and wrap modulo 2^bits. */
void elem_set(ElemType t, void *base, size_t i, double v);
/* Raw bits of element i, zero-extended. */
u64 elem_bits(ElemType t, const void *base, size_t i);
/* The seeded generator of "random" inits: splitmix64 (docs/FRONTENDS.md). */
u64 splitmix64(u64 *state);
/* Index of an argument by name, or -1. */
int spec_arg_index(const Spec *s, const char *name);

#endif
