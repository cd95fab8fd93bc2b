/* mma_desc.h -- the sm_90 wgmma shared-memory matrix descriptor, shared by
 * the PTX interpreter (wgmma.mma_async) and the SASS emulator (HGMMA). */
#ifndef OA_MMA_DESC_H
#define OA_MMA_DESC_H

#include "util/util.h"

/* Shared address of element (r, k) of an operand through its descriptor
 * (bits 0-13 start >> 4, 16-29 LBO >> 4, 32-45 SBO >> 4, 62-63 swizzle):
 * r is the row in M (A) or N (B), k the column in K, es the element size
 * in bytes; mn: MN-major (transposed, imm-trans = 1, .tnspA/.tnspB), else
 * K-major.  The canonical layouts of the PTX ISA (docs/compiler-wgmma.md). */
u64 mma_desc_addr(u64 desc, int mn, int r, int k, int es);

#endif
