/* elfio.h -- little-endian loads and stores for the cubin code. */
#ifndef OA_ELFIO_H
#define OA_ELFIO_H

#include "util/util.h"

static inline u16 rd16(const u8 *p) { return (u16)(p[0] | p[1] << 8); }
static inline u32 rd32(const u8 *p) { return (u32)rd16(p) | (u32)rd16(p + 2) << 16; }
static inline u64 rd64(const u8 *p) { return (u64)rd32(p) | (u64)rd32(p + 4) << 32; }
static inline void wr16(u8 *p, u16 v) { p[0] = (u8)v; p[1] = (u8)(v >> 8); }
static inline void wr32(u8 *p, u32 v) { wr16(p, (u16)v); wr16(p + 2, (u16)(v >> 16)); }
static inline void wr64(u8 *p, u64 v) { wr32(p, (u32)v); wr32(p + 4, (u32)(v >> 32)); }
static inline void put16(Buf *b, u16 v) { u8 t[2]; wr16(t, v); buf_putn(b, t, 2); }
static inline void put32(Buf *b, u32 v) { u8 t[4]; wr32(t, v); buf_putn(b, t, 4); }
static inline void put64(Buf *b, u64 v) { u8 t[8]; wr64(t, v); buf_putn(b, t, 8); }
static inline u64 align_up(u64 x, u64 a) { return a > 1 ? (x + a - 1) / a * a : x; }

#endif
