/* mma_desc.c -- see mma_desc.h. */
#include "run/mma_desc.h"

u64
mma_desc_addr(u64 desc, int mn, int r, int k, int es)
{
	u64 start = (desc & 0x3fff) << 4, lbo = ((desc >> 16) & 0x3fff) << 4;
	u64 sbo = ((desc >> 32) & 0x3fff) << 4, a;
	int mode = (int)(desc >> 62), n = mode == 0 ? 0 : 4 - mode;   /* swizzle: 2^n 16-byte chunks */
	int w = 16 << n, kb = k * es, rb = r * es;                      /* w: bytes of a swizzle row */

	if (!mn && !n)   /* core matrices of 8 rows x 16 bytes of K */
		a = (u64)(r / 8) * sbo + (u64)(kb / 16) * lbo + (u64)(r % 8) * 16 + kb % 16;
	else if (!mn)    /* 8 rows of w bytes of K (one K slice) */
		a = (u64)(r / 8) * sbo + (u64)(r % 8) * w + kb;
	else if (!n)     /* core matrices of 8 K rows x 16 bytes of M/N */
		a = (u64)(rb / 16) * sbo + (u64)(k / 8) * lbo + (u64)(k % 8) * 16 + rb % 16;
	else             /* atoms of 8 K rows x w bytes of M/N */
		a = (u64)(rb / w) * lbo + (u64)(k / 8) * sbo + (u64)(k % 8) * w + rb % w;
	a += start;
	return a ^ (((a >> 7) & ((1u << n) - 1)) << 4);
}
