/* peep.h -- machine-IR peephole passes (peep.c). */
#ifndef OA_PEEP_H
#define OA_PEEP_H

#include "codegen/mir.h"
#include "isa/isa.h"

/* Copy forwarding within blocks; returns the number of copies removed. */
int peep_copies(MFunc *f);
/* Pairs of 32-bit constant-bank loads into one 64-bit vreg -> LDC.64. */
int peep_ldc64(MFunc *f);

/* After register allocation: the prologue's stack pointer load
 * ("MOV/LDC R1, c[0x0][0x28]") goes when nothing else names R1 (no local
 * memory, spills or calls that use the stack), as ptxas omits it.
 * Returns 1 when it went (peep.c). */
int peep_stack(MFunc *f);

/* Operands (peep_uniform.c): constants folded into their readers
 * (peep_fold), then readers of parameters, launch dimensions and %ctaid
 * on sm_90 take them as uniform registers (ULDC / S2UR) where the ISA has
 * the form; returns the readers rewritten. */
int peep_uniform(MFunc *f, const Arch *a, int sm);

/* Immediates and constant-bank values (single unguarded MOV / LDC
 * definitions) into every reader slot that encodes them (peep_fold.c);
 * loads left without readers go.  Returns the operands folded.  memo
 * (peep_fold_memo: in f's arena, for f alone): the readers that folded
 * nothing, not asked again while they and their constants stay the same,
 * and the pass's tables, kept from one peep_fold to the next. */
typedef struct FoldMemo FoldMemo;
FoldMemo *peep_fold_memo(MFunc *f);
int peep_fold(MFunc *f, const Arch *a, int sm, FoldMemo *memo);
/* 1 when another peep_fold would change nothing: the last one settled
 * and no register in named (the passes since changed only instructions
 * naming none but these) holds or guards a constant, but for constant-bank
 * values no reader can take; after a swap, the swapped readers and pairs
 * are asked on copies (f's arena and memo's parts are written, nothing
 * else; peep_fold.c). */
int peep_fold_settled(MFunc *f, const Arch *a, FoldMemo *memo, const u8 *named);

/* "IADD3 t, a, b, RZ; IADD3 d, t, c, RZ" -> "IADD3 d, a, b, c" and
 * "SHF.L.U32 t, a, k, RZ; IADD3 d, t, b, RZ" -> "LEA d, a, b, k" for a t
 * written and read once in a block (peep_combine.c); returns the
 * instructions saved.  named[v] (zero, a byte per vreg) is set for every
 * register an instruction it changed or removed named before. */
int peep_combine(MFunc *f, const Arch *a, u8 *named);

/* Probing the ISA tables.  peep_encodes: the text encodes.
 * peep_encodes_exact: it encodes and prints back as the same text (so an
 * immediate's spelling is the slot's own kind: hex, f32, f16, f64). */
int peep_encodes(const Arch *a, const char *text);
/* 0 when no text like this one encodes, PEEP_LIT standing for any
 * literal (hex, float; "\003, \003" for a pair of halves) where an
 * operand starts: the parser's quick test fails for every form. */
#define PEEP_LIT "\003"
int peep_may_encode(const Arch *a, const char *text);
/* 0 when no form of text's mnemonic can print a hex literal (so no text
 * with one prints back as itself: peep_encodes_exact says no). */
int peep_may_print_hex(const Arch *a, const char *text);
/* 0 when no text like m's text (guarded or not, its operands
 * spelled any way, the same commas) with an operand starting with byte
 * ch at text + at (right after a ", ") encodes: no form of the mnemonic
 * lets that operand start with ch (isa_parse's quick test).  So a
 * c[..] there (ch 'c') encodes nowhere. */
int peep_may_start(const Arch *a, const char *text, int at, int ch);
/* 0 when peep_may_start says 0 for every operand after a comma. */
int peep_may_start_any(const Arch *a, const char *text, int ch);
int peep_encodes_exact(const Arch *a, const char *text, Word *w);
/* m rendered with placeholder registers (R8+4k for ref k, P0-P5, UR..),
 * text [from, to) of m->text replaced by lit (from < 0: nothing). */
void peep_trial(const MFunc *f, const MIns *m, int from, int to, const char *lit, Buf *out);
/* Text helpers (what snprintf would write, without its cost): s at t;
 * v in hex ("%x"); "c[0x<bank>][0x<offset>]" of val = bank << 24 |
 * offset.  Each returns the end of what it wrote (NUL-terminated). */
char *peep_cat(char *t, const char *s);
char *peep_hex(char *t, u32 v);
char *peep_cbank(char *t, u32 val);
/* sscanf(s, pre ...) decided without it where the text is spelled as
 * the selector spells it (single spaces, "%x" as 1..8 lowercase digits):
 * peep_scan_pre: the literal text pre (a ' ' there matches white space);
 * peep_scan_x: pre then "%x" into *x.  1: matched, *end after it; 0:
 * sscanf would not match either; -1: only sscanf can tell. */
int peep_scan_pre(const char *s, const char *pre, const char **end);
int peep_scan_x(const char *s, const char *pre, u32 *x, const char **end);
/* Byte offset of hole k's \001 in m->text, or -1. */
int peep_hole(const MIns *m, int k);
/* Replace text [from, to) of m, which holds hole k, by lit; ref k goes. */
void peep_inline(MFunc *f, MIns *m, int k, int from, int to, const char *lit);

#endif
