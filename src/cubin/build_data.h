/* build_data.h -- module-scope .const and .global variables added to a
 * cubin built by cubin_build_module() (build_data.c). */
#ifndef OA_CUBIN_BUILD_DATA_H
#define OA_CUBIN_BUILD_DATA_H

#include "cubin/cubin.h"

/* MV_EXTERN: a function of the driver (vprintf...): only its address
 * slot in bank 4; its undefined FUNC symbol is cubin_build_module's. */
enum { MV_CONST = 1, MV_GLOBAL = 2, MV_EXTERN = 3 };

/* A relocation of a variable's initial bytes: at byte `at`, the generic
 * address of variable `var` (an index in the ModVar array) + addend, whole
 * (R_CUDA_G64, 4) or one byte of it (R_CUDA_8_<8k>, 0x54 + k); MR_VALUE:
 * no relocation, the 8 bytes are the addend (a function's address: its
 * slot in bank 2, isel_call.c). */
enum { MR_VALUE = 0, MR_G64 = 4, MR_8_0 = 0x54 };

typedef struct {
	u64 at;
	int var;
	u32 type;
	i64 addend;
} ModRel;

typedef struct {
	const void *key;  /* the caller's handle for it (its PtxVar) */
	const char *name;
	int space;        /* MV_CONST, MV_GLOBAL, MV_EXTERN */
	int visible;      /* a GLOBAL symbol (.visible), else LOCAL */
	u64 size;
	u32 align;
	u64 off;          /* offset in bank 3 (const) or in its data section (global) */
	u64 slot;         /* global, extern: offset of its address in bank 4 */
	const u8 *init;   /* size bytes, or NULL (zeros) */
	const ModRel *rel;  /* relocations of init */
	int nrel;
} ModVar;

/* Add the variables' sections, symbols, bank-4 relocations, the
 * relocations of their initial bytes and program headers.  Returns 0, or -1 for a variable of another space. */
int cubin_add_data(Cubin *c, const ModVar *v, size_t n, int sm);

#endif
