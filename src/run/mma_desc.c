/* mma_desc.c -- see mma_desc.h. */
#include "run/mma_desc.h"

u64
mma_desc_addr(u64 desc, int r, int kb)
{
	u64 start = (desc & 0x3fff) << 4, lbo = ((desc >> 16) & 0x3fff) << 4;
	u64 sbo = ((desc >> 32) & 0x3fff) << 4, a;
	int mode = (int)(desc >> 62), w, n;

	if (mode == 0)
		return start + (u64)(r / 8) * sbo + (u64)(kb / 16) * lbo + (u64)(r % 8) * 16 + kb % 16;
	w = mode == 1 ? 128 : mode == 2 ? 64 : 32;
	n = mode == 1 ? 3 : mode == 2 ? 2 : 1;
	a = start + (u64)(r / 8) * sbo + (u64)(r % 8) * w + kb;
	return a ^ (((a >> 7) & ((1u << n) - 1)) << 4);
}
