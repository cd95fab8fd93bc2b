/* isel_math.c -- float division, reciprocal, square root and the MUFU
 * transcendentals (ex2 lg2 sin cos tanh rsqrt), f32 and f64. */
#include <stdio.h>
#include <string.h>

#include "codegen/isel.h"

#define D0 (&x->p.opds[0])
#define S1 (&x->p.opds[1])
#define S2 (&x->p.opds[2])

static PtxType
ty(const IrIns *x)
{
	return (PtxType)x->p.types[0];
}

int
sel_div_float(Sel *s, const IrIns *x)
{
	(void)ty(x);
	return sel_unsupported(s, "float division");
}

const SelRule sel_rules_math[] = {
	{0, NULL},
};
