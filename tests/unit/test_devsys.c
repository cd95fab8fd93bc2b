/* test_devsys.c -- device printf formatting, the device heap and the
 * printed-text comparison --verify uses (src/run/devsys.c). */
#include <string.h>

#include "run/devsys.h"
#include "test.h"

/* A flat memory: address a is mem[a - 0x1000]. */
static u8 mem[512];

static u64
rd(void *ctx, u64 addr, int size)
{
	u64 v = 0;

	(void)ctx;
	if (addr >= 0x1000 && addr - 0x1000 + (u64)size <= sizeof mem)
		memcpy(&v, mem + (addr - 0x1000), (size_t)size);
	return v;
}

static void
put(u64 addr, const void *p, size_t n)
{
	memcpy(mem + (addr - 0x1000), p, n);
}

TEST(devsys_vprintf_conversions)
{
	static const char fmt[] = "%d %i %u %x %X %o %c|%s|%p %f %e %g %ld %lld %llx %5d|%-3d|%05.1f%%\n";
	static const char str[] = "hi";
	/* the argument buffer as nvcc lays it out: each argument at its own size's alignment */
	u32 i32s[7] = {(u32)-7, 42, 4000000000u, 255, 255, 8, 'A'};
	u64 sp = 0x1000 + 400, pp = 0xabc, big = 0x123456789abull, ld = (u64)-3;
	double f = 1.5, e = 0.001, g = 0.25, pct = 3.14159;
	u32 w5 = 7, wl = 9;
	u64 args = 0x1000 + 128, off = 0;
	char err[64] = "";
	Buf out = {0};
	int n, k;

	memset(mem, 0, sizeof mem);
	put(0x1000, fmt, sizeof fmt);
	put(0x1000 + 400, str, sizeof str);
	for (k = 0; k < 7; k++, off += 4)
		put(args + off, &i32s[k], 4);
	off = (off + 7) & ~7ull;   /* %s: 8 bytes, aligned */
	put(args + off, &sp, 8), off += 8;
	put(args + off, &pp, 8), off += 8;
	put(args + off, &f, 8), off += 8;
	put(args + off, &e, 8), off += 8;
	put(args + off, &g, 8), off += 8;
	put(args + off, &ld, 8), off += 8;
	put(args + off, &big, 8), off += 8;
	put(args + off, &big, 8), off += 8;
	put(args + off, &w5, 4), off += 4;
	put(args + off, &wl, 4), off += 4;
	put(args + off, &pct, 8);
	n = dev_vprintf(&out, 0x1000, args, rd, NULL, err, sizeof err);
	CHECK(n == 18);
	CHECK_STR(out.s, "-7 42 4000000000 ff FF 10 A|hi|0xabc 1.500000 1.000000e-03 0.25 -3 1250999896491 "
			 "123456789ab     7|9  |003.1%\n");
	buf_free(&out);
	/* an unknown conversion is an error, not a guess */
	put(0x1000, "%q\n", 4);
	CHECK(dev_vprintf(&out, 0x1000, args, rd, NULL, err, sizeof err) == -1);
	CHECK(strstr(err, "%q") != NULL);
	buf_free(&out);
}

TEST(devsys_assert_message)
{
	u32 cta[3] = {1, 0, 0}, tid[3] = {5, 0, 0};
	Buf out = {0};

	memset(mem, 0, sizeof mem);
	put(0x1000, "x >= 0", 7);
	put(0x1000 + 16, "a.cu", 5);
	put(0x1000 + 32, "void k(int *)", 14);
	dev_assert_msg(&out, 0x1000, 0x1010, 7, 0x1020, cta, tid, rd, NULL);
	CHECK_STR(out.s, "a.cu:7: void k(int *): block: [1,0,0], thread: [5,0,0] Assertion `x >= 0` failed.\n");
	buf_free(&out);
}

TEST(devsys_heap)
{
	DevHeap h = {0};
	u64 a, b, c;

	h.base = 0x10000;
	h.size = 256;
	a = dev_malloc(&h, 16);
	b = dev_malloc(&h, 1);
	CHECK(a == 0x10000 && b == 0x10010);          /* 16-byte units */
	CHECK(dev_malloc(&h, 0) == 0);
	CHECK(dev_malloc(&h, 1000) == 0);              /* full: NULL, as malloc */
	c = dev_malloc(&h, 224);
	CHECK(c == 0x10020);
	CHECK(dev_malloc(&h, 1) == 0);
	CHECK(dev_free(&h, b) == 0);
	CHECK(dev_free(&h, b) == -1);                  /* twice */
	CHECK(dev_free(&h, a + 4) == -1);              /* not a block */
	CHECK(dev_free(&h, 0) == 0);                   /* free(NULL) */
	CHECK(dev_free(&h, c) == 0 && dev_free(&h, a) == 0);
	dev_heap_free(&h);
}

TEST(devsys_printed_compare)
{
	char a[] = "t=1\nt=2\nx\n", b[] = "x\nt=2\nt=1\n", c[] = "t=1\nt=3\nx\n", d[] = "t=1\nx\n";
	char e[] = "t=1\nt=2\nx\n", f[] = "t=1\nt=2\nx\n", g[] = "t=1\nt=2\nx\n";

	CHECK(dev_printed_compare(a, b, NULL) == 0);   /* the same lines in another order */
	CHECK(dev_printed_compare(e, c, NULL) == 1);   /* one line differs */
	CHECK(dev_printed_compare(f, d, NULL) == 1);   /* one line missing */
	CHECK(dev_printed_compare(NULL, NULL, NULL) == 0);
	CHECK(dev_printed_compare(g, NULL, NULL) == 1);
}
