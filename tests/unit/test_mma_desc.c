/* test_mma_desc.c -- the wgmma shared-memory descriptor model
 * (src/run/mma_desc.c) against the PTX ISA's canonical layouts written out
 * as CuTe layouts (docs/compiler-wgmma.md), for every swizzle mode, both
 * majors and 8/16/32-bit elements; plus hand-computed addresses and a
 * check that dense MN-major tiles map their elements one to one. */
#include <string.h>

#include "test.h"
#include "run/mma_desc.h"

static u64
desc_of(u64 start, u64 lbo, u64 sbo, int mode)
{
	return (start >> 4) | (lbo >> 4) << 16 | (sbo >> 4) << 32 | (u64)mode << 62;
}

/* The PTX ISA's table, T = 16 / es elements, X = 1, 2, 4, 8 for no, 32B,
 * 64B, 128B swizzle; LBO and SBO in elements; Swizzle<log2 X, 4, 3> on the
 * byte address.
 *   MN-major, none:  ((T,1,m),(8,k)):((1,T,SBO),(T,LBO))
 *   MN-major, X:     ((T,X,m),(8,k)):((1,T,LBO),(XT,SBO))
 *   K-major, none:   ((8,m),(T,2k)):((T,SBO),(1,LBO))
 *   K-major, X:      ((8,m),(T,2k)):((XT,SBO),(1,T)) */
static u64
cute(u64 start, u64 lbo, u64 sbo, int x, int mn, int r, int k, int es)
{
	u64 T = 16 / es, L = lbo / es, S = sbo / es, e, a;
	int b = x == 8 ? 3 : x == 4 ? 2 : x == 2 ? 1 : 0;

	if (mn && x == 1)
		e = r % T + (r / T) * S + (k % 8) * T + (k / 8) * L;
	else if (mn)
		e = r % T + (r / T % x) * T + (r / (T * x)) * L + (k % 8) * x * T + (k / 8) * S;
	else if (x == 1)
		e = (r % 8) * T + (r / 8) * S + k % T + (k / T) * L;
	else
		e = (r % 8) * x * T + (r / 8) * S + k % T + (k / T) * T;
	a = start + e * es;
	return a ^ ((a >> 7 & ((1u << b) - 1)) << 4);
}

TEST(mma_desc_canonical_layouts)
{
	static const int xs[4] = {1, 8, 4, 2};   /* by descriptor mode */
	int mode, mn, es, r, k, bad = 0;

	for (mode = 0; mode < 4; mode++)
		for (mn = 0; mn < 2; mn++)
			for (es = 1; es <= 4; es *= 2)
				for (r = 0; r < 256; r++)
					for (k = 0; k < 32 / es; k++) {
						u64 lbo = mn ? 4096 : 2048, sbo = mn ? 1024 : 512;
						u64 d = desc_of(0x2000, lbo, sbo, mode);
						if (mma_desc_addr(d, mn, r, k, es) !=
						    cute(0x2000, lbo, sbo, xs[mode], mn, r, k, es) && !bad++)
							FAIL("mode %d mn %d es %d r %d k %d: 0x%llx != 0x%llx", mode, mn,
							     es, r, k, (unsigned long long)mma_desc_addr(d, mn, r, k, es),
							     (unsigned long long)cute(0x2000, lbo, sbo, xs[mode], mn, r, k, es));
					}
}

/* Hand-computed f16 addresses (start 0x400, LBO 0x100, SBO 0x80 unless
 * said): one per rule of each mode. */
TEST(mma_desc_mn_major_by_hand)
{
	u64 d0 = desc_of(0x400, 0x100, 0x80, 0);
	u64 d128 = desc_of(0x400, 0x2000, 0x400, 1), d64 = desc_of(0x400, 0x1000, 0x200, 2);
	u64 d32 = desc_of(0x400, 0x800, 0x100, 3);

	/* none: 8 M/N elements (16 bytes) in a row, the next 8 at SBO; K rows 16 bytes apart, every 8 at LBO */
	CHECK_EQ_U64(mma_desc_addr(d0, 1, 3, 0, 2), 0x406);
	CHECK_EQ_U64(mma_desc_addr(d0, 1, 9, 0, 2), 0x482);
	CHECK_EQ_U64(mma_desc_addr(d0, 1, 0, 5, 2), 0x450);
	CHECK_EQ_U64(mma_desc_addr(d0, 1, 0, 9, 2), 0x510);
	/* 128B: 64 elements in a 128-byte K row, the next 64 at LBO; K rows 128 apart, every 8 at SBO;
	 * row k's 16-byte chunks XORed with k % 8 */
	CHECK_EQ_U64(mma_desc_addr(d128, 1, 5, 0, 2), 0x40a);
	CHECK_EQ_U64(mma_desc_addr(d128, 1, 5, 1, 2), 0x400 + 0x80 + (0x0a ^ 0x10));
	CHECK_EQ_U64(mma_desc_addr(d128, 1, 8, 3, 2), 0x400 + 3 * 0x80 + (0x10 ^ 0x30));
	CHECK_EQ_U64(mma_desc_addr(d128, 1, 64, 0, 2), 0x2400);
	CHECK_EQ_U64(mma_desc_addr(d128, 1, 0, 8, 2), 0x800);
	/* 64B: 32 elements per K row, rows 64 bytes apart, chunk ^= (k/2) % 4 */
	CHECK_EQ_U64(mma_desc_addr(d64, 1, 0, 2, 2), 0x400 + 0x80 + 0x10);
	CHECK_EQ_U64(mma_desc_addr(d64, 1, 32, 0, 2), 0x1400);
	CHECK_EQ_U64(mma_desc_addr(d64, 1, 0, 8, 2), 0x600);
	/* 32B: 16 elements per K row, rows 32 bytes apart, chunk ^= (k/4) % 2 */
	CHECK_EQ_U64(mma_desc_addr(d32, 1, 1, 4, 2), 0x400 + 0x80 + 0x10 + 2);
	CHECK_EQ_U64(mma_desc_addr(d32, 1, 16, 0, 2), 0xc00);
	CHECK_EQ_U64(mma_desc_addr(d32, 1, 0, 8, 2), 0x500);
	/* K-major is unchanged: 128B, row 1 byte 0 -> chunk 0 ^ 1 */
	CHECK_EQ_U64(mma_desc_addr(d128, 0, 1, 0, 2), 0x490);
}

/* A dense MN-major f16 tile of 256 (M/N) x 16 (K) elements, for each
 * swizzle mode with its packed LBO/SBO: every element has its own 2 bytes
 * inside the 8 KB tile. */
TEST(mma_desc_mn_major_dense)
{
	static u8 seen[8192];
	static const u64 w[4] = {16, 128, 64, 32};   /* bytes of M/N per K row */
	int mode, r, k;

	for (mode = 0; mode < 4; mode++) {
		/* none: core matrices 8 K rows x 16 bytes, the second 8 K at LBO 128,
		 * the next 8 M/N at SBO 256; swizzled: atoms of 8 K rows x w bytes,
		 * the second 8 K at SBO 8w, the next w/2 M/N at LBO 16w */
		u64 d = mode ? desc_of(0, 16 * w[mode], 8 * w[mode], mode) : desc_of(0, 128, 256, 0);
		int dup = 0, out = 0;
		memset(seen, 0, sizeof seen);
		for (r = 0; r < 256; r++)
			for (k = 0; k < 16; k++) {
				u64 a = mma_desc_addr(d, 1, r, k, 2);
				if (a + 2 > sizeof seen || a % 2)
					out++;
				else if (seen[a]++)
					dup++;
			}
		CHECK(!out && !dup);
	}
}
