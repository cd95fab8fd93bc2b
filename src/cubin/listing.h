/* listing.h -- internals shared by the listing printer and assembler. */
#ifndef OA_LISTING_H
#define OA_LISTING_H

#include "cubin/cubin.h"
#include "isa/isa.h"

const char *shtype_name(u32 t);
int shtype_lookup(const char *name, u32 *t);
int eiattr_fmt(int id, int compat);
void put_quoted(Buf *b, const char *s);
void symref(const Cubin *c, Buf *b, u64 i);
/* The REGCOUNT attribute of symbol sym in .nv.info, or -1. */
int regcount_of(const Cubin *c, u32 sym);
int list_info(const Cubin *c, const char *path, const CSection *s, Buf *b);
void list_code(const Cubin *c, const Arch *a, size_t sec, const ListOpts *o, Buf *b);
/* Byte offsets of EXIT instructions (any guard) in a code section. */
size_t exit_offsets(const u8 *code, u64 n, u32 *out, size_t max);
/* Registers per thread the code needs (regs.c); -1 if it does not decode. */
int code_regcount(const Arch *a, const u8 *code, u64 n);

#endif
