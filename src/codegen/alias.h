/* alias.h -- value-dependent mnemonic aliases of the disassembler (alias.c). */
#ifndef OA_ALIAS_H
#define OA_ALIAS_H

#include <stddef.h>

/* If text is an instruction nvdisasm prints under another spelling,
 * write that spelling to out and return 1; else 0. */
int codegen_alias(const char *text, char *out, size_t n);

#endif
