/* mma_desc.h -- the sm_90 wgmma shared-memory matrix descriptor, shared by
 * the PTX interpreter (wgmma.mma_async) and the SASS emulator (HGMMA). */
#ifndef OA_MMA_DESC_H
#define OA_MMA_DESC_H

#include "util/util.h"

/* Shared address of byte kb of row r of a K-major matrix (descriptor:
 * bits 0-13 start >> 4, 16-29 LBO >> 4, 32-45 SBO >> 4, 62-63 swizzle). */
u64 mma_desc_addr(u64 desc, int r, int kb);

#endif
