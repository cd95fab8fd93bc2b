/* isa.h -- the SASS instruction model for sm_80 and sm_90: one table per
 * architecture drives the decoder, the text printer, the text parser and
 * the encoder, so they cannot disagree.
 *
 * An instruction is 128 bits, stored little-endian as two u64 (lo = bits
 * 0..63, hi = bits 64..127).  Bits 105..127 are the control field (see
 * Ctrl below); the rest is the operation.
 *
 * Text follows nvdisasm's syntax exactly, e.g.
 *     @!P0 IMAD.WIDE.U32 R2, R5, 0x4, R2
 * (no address, no trailing " ;").  Branch targets print as `(label) when
 * a label callback names the address, else as the absolute hex address,
 * which is what nvdisasm -b prints. */
#ifndef OA_ISA_H
#define OA_ISA_H

#include "util/util.h"

typedef struct {
	u64 lo, hi;
} Word;

/* Control field, bits 105..127 (ctrl = hi >> 41). */
typedef struct {
	u8 stall;  /* bits 105..108: cycles to wait before the next issue, 0..15 */
	u8 yield;  /* bit 109, raw value (1 = no yield; see docs/findings-encoding.md) */
	u8 wrsb;   /* bits 110..112: write scoreboard set by this instruction, 7 = none */
	u8 rdsb;   /* bits 113..115: read scoreboard, 7 = none */
	u8 wait;   /* bits 116..121: bit k waits on scoreboard k */
	u8 reuse;  /* bits 122..125: operand reuse flags (A, B, C, 4th slot) */
} Ctrl;

/* Inline: the hazard decoder takes it for every word it decodes or finds
   in its memo (a call and the Ctrl packed into a register cost more than
   the fields). */
static inline Ctrl
ctrl_get(Word w)
{
	u64 c = w.hi >> 41;
	Ctrl r;

	r.stall = c & 15;
	r.yield = (c >> 4) & 1;
	r.wrsb = (c >> 5) & 7;
	r.rdsb = (c >> 8) & 7;
	r.wait = (c >> 11) & 63;
	r.reuse = (c >> 17) & 63; /* 4 reuse bits + bits 126..127 */
	return r;
}
Word ctrl_set(Word w, Ctrl c);
/* "[B------:R-:W0:Y:S04]"-style comment text (see isa/ctrl.c) at t
 * (CTRL_TEXT bytes at most); returns its end. */
enum { CTRL_TEXT = 32 };
char *ctrl_text(Ctrl c, char *t);
/* Parses what ctrl_text writes; returns 0 on success, -1 if malformed. */
int ctrl_parse(const char *s, Ctrl *c, const char **end);

typedef struct Arch Arch;
/* "sm_90", "SM90", "sm90", "90" and the same for 80; NULL if unknown. */
const Arch *arch_lookup(const char *name);
const char *arch_name(const Arch *a);  /* "sm_90" */
int arch_sm(const Arch *a);            /* 90 */

/* Optional symbol hooks for branch targets and labels. */
typedef struct {
	/* Name for an absolute code address, or NULL to print the hex address. */
	const char *(*label_of)(void *ctx, u64 addr);
	/* Address of a label; 0 on success, -1 if unknown. */
	int (*addr_of)(void *ctx, const char *name, u64 *addr);
	void *ctx;
} IsaSyms;

/* Decode and print one instruction at code address addr (needed for
 * relative branches).  Appends the text to out.  Returns 0 when a table
 * row matched; otherwise appends an explicit unknown form
 * ("UNKNOWN 0x<lo>, 0x<hi>") and returns -1.  syms may be NULL. */
int isa_print(const Arch *a, Word w, u64 addr, const IsaSyms *syms, Buf *out);
/* isa_print, and with the same memo look-up what a listing line needs
 * besides the text. */
typedef struct {
	Word hid;     /* isa_hidden(a, w) */
	int parsed;   /* the memo knows isa_parse's word for the text without
		       * parsing (it came from a parse that no address or
		       * symbols could change): */
	Word x;       /* that word */
} IsaListed;
int isa_print_listed(const Arch *a, Word w, u64 addr, const IsaSyms *syms, Buf *out, IsaListed *l);
/* 1 and *x = isa_parse's word for isa_print's text of w, when the print
 * memo knows it without parsing (as IsaListed.x); else 0. */
int isa_print_parsed(const Arch *a, Word w, Word *x);

/* Bits of w (operation bits 0..104) that its text does not show and that
 * differ from what the parser assumes for them (ptxas's usual value), as an
 * XOR mask: zero for almost every word.  nvdisasm prints, for example, the
 * same "STG.E [R2.64], R0" on sm_80 whatever memory descriptor UR the word
 * names; a listing that must re-assemble exactly carries this mask next to
 * the text (see ctrl comment syntax in docs/findings-encoding.md). */
Word isa_hidden(const Arch *a, Word w);
/* " hidden=0x<lo>:0x<hi>" after the control bits in a listing, only when
 * h is not zero; isa_parse_hidden reads it back (h = 0 when absent). */
void isa_print_hidden(Word h, Buf *out);
int isa_parse_hidden(const char *s, Word *h, const char **end);

/* Parse one instruction in the printer's syntax (control bits excluded)
 * and encode it for address addr.  The control field of *w is left 0
 * except for reuse flags written as ".reuse".  Returns 0, or -1 with a
 * message in err (and *errpos, the byte offset in text it refers to). */
int isa_parse(const Arch *a, const char *text, u64 addr, const IsaSyms *syms,
	      Word *w, char *err, size_t errlen, size_t *errpos);

#endif
