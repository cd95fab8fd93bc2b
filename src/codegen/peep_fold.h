/* peep_fold.h -- the constant-folding pass's shared state (peep_fold.c,
 * peep_swap.c); not for other passes. */
#ifndef OA_PEEP_FOLD_H
#define OA_PEEP_FOLD_H

#include <string.h>

#include "codegen/peep.h"

enum { K_NONE, K_IMM, K_CBANK, K_MANY };

typedef struct {
	u32 gen;          /* the scan that wrote it (Fold.gen; older: zero) */
	u32 val;          /* K_IMM: the bits; K_CBANK: bank << 24 | byte offset */
	int ndef;
	int uses;         /* readers left */
	int defb, defi;   /* where the definition is */
	int guard;        /* its guard, -1 for none (a guarded one folds only
			     into readers under the same guard, after it in
			     its block) */
	u8 kind;
	u8 wide;          /* the definition writes this part and the next (LDC.64) */
	u8 gneg;
} Part;

typedef struct {
	MFunc *f;
	const Arch *a;
	int sm;
	Part *p;          /* min(width, 4) per vreg, from off[v] */
	const u32 *off;
	u32 gen;          /* fold_scan's count: parts of older scans are zero */
	int cb, ci;       /* block and index of the reader being folded */
	Buf tb;           /* the trial texts, one after another (fold_trial) */
	int cbank_ok;     /* a c[..] operand folded: the arch takes them, so
			     fold_may_cbank's check would hardly ever say no */
	FoldMemo *memo;   /* the readers that folded nothing (peep_fold.c) */
	VEC(const char *) swapped;   /* the texts fold_swap_pairs gave readers */
} Fold;

/* Part sub of vreg v (zero when the current scan has not written it:
 * a scan renews only the parts it meets, not the whole array).  sub is
 * below v's width (mir_verify's rule for refs). */
static inline Part *
part(Fold *F, int v, int sub)
{
	Part *P = &F->p[F->off[v] + (size_t)sub];

	if (P->gen != F->gen) {
		memset(P, 0, sizeof *P);
		P->gen = F->gen;
	}
	return P;
}

/* peep_trial's text for m into F->tb, whose text it returns. */
static inline const char *
fold_trial(Fold *F, const MIns *m, int from, int to, const char *lit)
{
	F->tb.n = 0;
	peep_trial(F->f, m, from, to, lit, &F->tb);
	return F->tb.s;
}

/* May a c[..] operand at m->text + at encode?  0: no text like it does
 * (peep_may_start); asked until one folds (on sm_90, where the tables
 * have c[] operands only for LDC, every trial would fail). */
static inline int
fold_may_cbank(const Fold *F, const MIns *m, int at)
{
	return F->cbank_ok || peep_may_start(F->a, m->text, at, 'c');
}

/* Constant parts of every vreg, defs and readers counted (peep_fold.c). */
void fold_scan(Fold *F);
/* Operand spans of "OP a, b, c": starts s[], ends e[]; their count. */
int fold_operands(const char *text, int *s, int *e, int max);
/* Add d to the uses of the parts m reads (fold_scan's count), as m
 * changes. */
void fold_uses(Fold *F, const MIns *m, int d);
/* The constant MOV just inserted at (b, i), defining a new vreg: its part
 * (F->p grown for it), and the constants defined after it in block b
 * one place later. */
void fold_inserted(Fold *F, int b, int i);
/* sm_80 IMAD.WIDE and the like: a parameter pair as c[] once the reader's
 * literal moves to a register (peep_swap.c); returns readers rewritten
 * (their new texts to F->swapped).  F->p must be what fold_scan would make
 * of the function now, and stays so (fold_uses, fold_inserted: no rescan;
 * checked against a rescan over tools/same-output's inputs when written).
 * dry: nothing changes; 1 when a pair would swap. */
int fold_swap_pairs(Fold *F, int dry);

#endif
