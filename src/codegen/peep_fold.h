/* peep_fold.h -- the constant-folding pass's shared state (peep_fold.c,
 * peep_swap.c); not for other passes. */
#ifndef OA_PEEP_FOLD_H
#define OA_PEEP_FOLD_H

#include "codegen/peep.h"

enum { K_NONE, K_IMM, K_CBANK, K_MANY };

typedef struct {
	u8 kind;
	u32 val;          /* K_IMM: the bits; K_CBANK: bank << 24 | byte offset */
	u8 wide;          /* the definition writes this part and the next (LDC.64) */
	int ndef;
	int uses;         /* readers left */
	int defb, defi;   /* where the definition is */
	int guard;        /* its guard, -1 for none (a guarded one folds only
			     into readers under the same guard, after it in
			     its block) */
	u8 gneg;
} Part;

typedef struct {
	MFunc *f;
	const Arch *a;
	int sm;
	Part *p;          /* 4 per vreg */
	int cb, ci;       /* block and index of the reader being folded */
} Fold;

static inline Part *
part(Fold *F, int v, int sub)
{
	return &F->p[4 * (size_t)v + (size_t)sub];
}

/* Constant parts of every vreg, defs and readers counted (peep_fold.c). */
void fold_scan(Fold *F);
/* Operand spans of "OP a, b, c": starts s[], ends e[]; their count. */
int fold_operands(const char *text, int *s, int *e, int max);
/* sm_80 IMAD.WIDE and the like: a parameter pair as c[] once the reader's
 * literal moves to a register (peep_swap.c); returns readers rewritten.
 * fresh: F->p is what fold_scan would make of the function now. */
int fold_swap_pairs(Fold *F, int fresh);

#endif
