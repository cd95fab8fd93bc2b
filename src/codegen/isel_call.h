/* isel_call.h -- non-inlined .func calls (isel_call.c).
 *
 * Our ABI (internal to one cubin; ptxas's own is register-based):
 *   - a function's parameter area holds its return parameters, then its
 *     parameters, each at its alignment; the area (A bytes, 16-aligned)
 *     lies right below the caller's stack pointer: the caller stores
 *     arguments with STL [R1-A+off] and loads results with LDL from there;
 *   - MOV R20, <return address>; CALL.REL.NOINC <callee>;
 *   - the callee lowers R1 by A + F (F: the frame of the whole cubin
 *     function: locals and spill slots, >= 16), keeps R20 and R1 + F (its
 *     area) in virtual registers, and returns with R1 raised back and
 *     RET.REL.NODEC through a register pair;
 *   - every register is caller-saved: the allocator spills whatever is
 *     live across a CALL (ra.c).
 * Callee bodies are selected into their own MFunc and appended after the
 * kernel's blocks (before the final branch-to-self), once per kernel. */
#ifndef OA_ISEL_CALL_H
#define OA_ISEL_CALL_H

#include "codegen/isel.h"

/* After isel_func of an entry: select every function it calls
 * (transitively), append them, point the CALLs at them.  Returns 0, or
 * -1 after a diagnostic. */
int call_link(Sel *s);

#endif
