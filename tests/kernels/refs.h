/* refs.h -- the registry of the kernel suite's C references.
 * Linked into the unit-test binary (tests/unit/test_kernels.c includes
 * tests/kernels/refs.c); other unit tests include this header:
 *
 *   const KernelRef *k = kernel_ref_lookup("ew_saxpy_f32");
 *   // tests/kernels/<k->name>/spec.json, kernel.sm_90.ptx, ...
 *   k->ref(&want);   // want: a Launch initialised from that spec
 */
#ifndef OA_KERNELS_REFS_H
#define OA_KERNELS_REFS_H

#include "run/spec.h"

typedef struct {
	const char *name;               /* directory and entry name */
	void (*ref)(Launch *l);         /* writes the expected outputs */
} KernelRef;

extern const KernelRef kernel_refs[];
extern const size_t nkernel_refs;
const KernelRef *kernel_ref_lookup(const char *name);  /* NULL if absent */

#endif
