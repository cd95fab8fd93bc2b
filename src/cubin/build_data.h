/* build_data.h -- module-scope .const and .global variables added to a
 * cubin built by cubin_build_module() (build_data.c). */
#ifndef OA_CUBIN_BUILD_DATA_H
#define OA_CUBIN_BUILD_DATA_H

#include "cubin/cubin.h"

/* MV_EXTERN: a function of the driver (vprintf...): only its address
 * slot in bank 4; its undefined FUNC symbol is cubin_build_module's. */
enum { MV_CONST = 1, MV_GLOBAL = 2, MV_EXTERN = 3 };

typedef struct {
	const char *name;
	int space;        /* MV_CONST, MV_GLOBAL, MV_EXTERN */
	int visible;      /* a GLOBAL symbol (.visible), else LOCAL */
	u64 size;
	u32 align;
	u64 off;          /* offset in bank 3 (const) or in its data section (global) */
	u64 slot;         /* global, extern: offset of its address in bank 4 */
	const u8 *init;   /* size bytes, or NULL (zeros) */
} ModVar;

/* Add the variables' sections, symbols, bank-4 relocations and program
 * headers.  Returns 0, or -1 for a variable of another space. */
int cubin_add_data(Cubin *c, const ModVar *v, size_t n, int sm);

#endif
