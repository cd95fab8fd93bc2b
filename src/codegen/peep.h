/* peep.h -- machine-IR peephole passes (peep.c). */
#ifndef OA_PEEP_H
#define OA_PEEP_H

#include <string.h>

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
/* Does s start with pre?  strncmp(s, pre, strlen(pre)) == 0, inline
 * (musl's strncmp is a call and a byte loop with several tests). */
static inline int
peep_pre(const char *s, const char *pre)
{
	for (; *pre; s++, pre++)
		if (*s != *pre)
			return 0;
	return 1;
}
/* strstr(s, ", "), inline. */
static inline const char *
peep_comma(const char *s)
{
	for (; *s; s++)
		if (s[0] == ',' && s[1] == ' ')
			return s;
	return NULL;
}
/* Byte offset of hole k's \001 in m->text, or -1. */
int peep_hole(const MIns *m, int k);
/* Replace text [from, to) of m, which holds hole k, by lit; ref k goes. */
void peep_inline(MFunc *f, MIns *m, int k, int from, int to, const char *lit);

/* The index of a per-thread memo whose entries are taken in order
 * (peep_fold's float texts, peep_probe's texts): a slot holds an entry's
 * index + 1 (0: empty), colliding keys in the slots after it.  While there
 * are at most PEEP_FEW / 2 entries the index is few[], which shares the
 * table's first page (written when the table was made) with the first
 * entries; then all[] (nall slots).  `start` is a key's first slot before
 * the modulo. */
enum { PEEP_FEW = 128 };

/* The slots of the index over n entries, and their number. */
static inline u16 *
peep_memo_slots(u16 *few, u16 *all, size_t nall, size_t n, size_t *ns)
{
	*ns = n <= PEEP_FEW / 2 ? PEEP_FEW : nall;
	return n <= PEEP_FEW / 2 ? few : all;
}

/* The first free slot on start's path. */
static inline size_t
peep_memo_free(const u16 *slot, size_t ns, u32 start)
{
	size_t i;

	for (i = start % ns; slot[i]; i = (i + 1) % ns)
		;
	return i;
}

/* Index entry n (0-based, the next one taken) at start; entries 0..n-1
 * move to all[] when few[] is full (start_of(tab, j): entry j's start). */
static inline void
peep_memo_add(u16 *few, u16 *all, size_t nall, size_t n, u32 start, const void *tab,
	      u32 (*start_of)(const void *, size_t))
{
	size_t j, ns;
	u16 *slot;

	if (n == PEEP_FEW / 2) {
		memset(all, 0, nall * sizeof *all);
		for (j = 0; j < n; j++)
			all[peep_memo_free(all, nall, start_of(tab, j))] = (u16)(j + 1);
	}
	slot = peep_memo_slots(few, all, nall, n + 1, &ns);
	slot[peep_memo_free(slot, ns, start)] = (u16)(n + 1);
}

#endif
