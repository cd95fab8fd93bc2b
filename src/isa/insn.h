/* insn.h -- a structured view of one SASS instruction, parsed once from
 * the printer's text (isa_print, nvdisasm syntax):
 *
 *     [@[!]Pn ]OPCODE[.MOD]* op, op, ...
 *
 * Operands become kinds with flags, so that consumers (the emulator, the
 * hazard checker) never look at text again.  Register numbers: R 0..254
 * with RZ = 255; UR 0..62 with URZ = 63; P/UP 0..6 with PT/UPT = 7. */
#ifndef OA_INSN_H
#define OA_INSN_H

#include "isa/isa.h"
#include "util/util.h"

enum {
	OPK_NONE, OPK_R, OPK_UR, OPK_P, OPK_UP, OPK_B, OPK_SB,
	OPK_IMM,  /* integer immediate (sign-extended), also branch targets */
	OPK_FIMM, /* float immediate: f (a double), imm = its f64 bits */
	OPK_CB,   /* c[bank][reg+off] */
	OPK_MEM,  /* [base+ur+off], desc[URd][...] */
	OPK_SR,   /* SR_TID.X ... (text keeps the name), also SRZ, PR */
	OPK_GEOM, /* texture geometry: 1D 2D 3D CUBE ARRAY_1D ARRAY_2D ARRAY_CUBE (text) */
};

/* Half/byte selectors on a register: R5.H1, R5.H0_H0, R5.B2 ... */
enum { SEL_NONE, SEL_H0, SEL_H1, SEL_H0_H0, SEL_H1_H1, SEL_B0, SEL_B1, SEL_B2, SEL_B3, SEL_F32, SEL_SIGN };

typedef struct {
	u8 kind;
	u8 neg, abs, not;   /* -x, |x|, !P or ~R */
	u8 sel;             /* SEL_* */
	u8 x64;             /* R2.64 (register pair as an address) */
	u16 reg;            /* R/UR/P/UP/B/SB number; CB: index register (R or UR, see rk) */
	u8 rk;              /* CB: OPK_R/OPK_UR when indexed by a register, else 0;
			       MEM: base kind OPK_R/OPK_UR or 0 when there is no base */
	u8 scale;           /* MEM: .X4 -> 4, .X16 -> 16 ... (1 = none) */
	u8 u32;             /* MEM: base register with .U32 */
	u16 bank;           /* CB: bank number */
	u16 ur;             /* MEM: the +URn offset register (63 when none) */
	u16 desc;           /* MEM: desc[URn] register (0xffff when none) */
	union {             /* one field: a FIMM's imm is f's bits */
		u64 imm;    /* IMM value; CB/MEM byte offset; FIMM: f's f64 bits */
		double f;   /* FIMM value */
	};
	const char *text;   /* SR name; the operand text otherwise */
} Operand;

#define INSN_MAXOPS 8
#define INSN_MAXMODS 12

typedef struct {
	const char *op;                    /* "IMAD", in the caller's arena */
	const char *mods[INSN_MAXMODS];    /* "WIDE", "U32" ... */
	int nmods;
	int guard;                         /* predicate number, -1 when none */
	u8 guard_not, guard_up;            /* @!P0; @UP0 */
	Operand o[INSN_MAXOPS];
	int nops;
	const char *text;                  /* the whole text */
} Insn;

/* Parse text into *in (strings live in a).  Returns 0, or -1 with a
 * message in err. */
int insn_parse(const char *text, Insn *in, Arena *a, char *err, size_t errlen);
/* insn_parse for a consumer that never reads a float immediate's value
 * (the hazard decoder): a plain decimal one is an OPK_FIMM with f and imm
 * 0 (strtod is costly on the 20 digits the printer writes); what is an
 * error is the same.  text (n bytes and a NUL, writable) is cut in place,
 * not copied: the Insn's strings point into it (a an '|' operand's only),
 * in->text is it (cut: an error message may show less of it), and the
 * modifiers past nmods are not cleared. */
int insn_parse_novalue(char *text, size_t n, Insn *in, Arena *a, char *err, size_t errlen);
/* The register selector suffix s starts with (".H0_H0", ".B2", ".SIGN"
 * ...): its SEL_ value and *len its length; -1 when none. */
int insn_sel_at(const char *s, size_t *len);
/* Has modifier m (exact match)? */
int insn_has(const Insn *in, const char *m);

#endif
