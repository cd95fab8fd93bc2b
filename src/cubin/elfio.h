/* elfio.h -- little-endian loads and stores for the cubin code. */
#ifndef OA_ELFIO_H
#define OA_ELFIO_H

#include "util/util.h"

/* One move each: gcc did not merge the byte stores of a wr64 (eight
 * shifts and byte moves, ~40 bytes of code at each use). */
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define ELF_LE16(v) __builtin_bswap16(v)
#define ELF_LE32(v) __builtin_bswap32(v)
#define ELF_LE64(v) __builtin_bswap64(v)
#else
#define ELF_LE16(v) (v)
#define ELF_LE32(v) (v)
#define ELF_LE64(v) (v)
#endif
static inline u16 rd16(const u8 *p) { u16 v; memcpy(&v, p, 2); return ELF_LE16(v); }
static inline u32 rd32(const u8 *p) { u32 v; memcpy(&v, p, 4); return ELF_LE32(v); }
static inline u64 rd64(const u8 *p) { u64 v; memcpy(&v, p, 8); return ELF_LE64(v); }
static inline void wr16(u8 *p, u16 v) { v = ELF_LE16(v); memcpy(p, &v, 2); }
static inline void wr32(u8 *p, u32 v) { v = ELF_LE32(v); memcpy(p, &v, 4); }
static inline void wr64(u8 *p, u64 v) { v = ELF_LE64(v); memcpy(p, &v, 8); }
static inline void put16(Buf *b, u16 v) { u8 t[2]; wr16(t, v); buf_putn(b, t, 2); }
static inline void put32(Buf *b, u32 v) { u8 t[4]; wr32(t, v); buf_putn(b, t, 4); }
static inline void put64(Buf *b, u64 v) { u8 t[8]; wr64(t, v); buf_putn(b, t, 8); }
static inline u64 align_up(u64 x, u64 a) { return a > 1 ? (x + a - 1) / a * a : x; }

#endif
