/* test_util.c -- arenas, buffers, vectors. */
#include <string.h>

#include "test.h"
#include "util/util.h"

TEST(util_arena)
{
	Arena a = {0};
	char *s = arena_strdup(&a, "hello");
	int i;

	CHECK_STR(s, "hello");
	for (i = 0; i < 1000; i++) {
		unsigned char *p = arena_alloc(&a, 1000);

		CHECK(((uintptr_t)p & 15) == 0);
		CHECK(p[999] == 0);
	}
	arena_free(&a);
	CHECK(a.head == NULL);
}

/* A large request that does not fit gets a chunk of its own and the head
 * chunk stays current. */
TEST(util_arena_large)
{
	Arena a = {0};
	unsigned char *x = arena_alloc(&a, 100), *big, *y;
	size_t i;
	int zero = 1;

	memset(x, 1, 100);
	big = arena_alloc(&a, 64 * 1024);
	for (i = 0; i < 64 * 1024; i++)
		zero &= big[i] == 0;
	CHECK(zero);
	memset(big, 2, 64 * 1024);
	y = arena_alloc(&a, 100);
	CHECK(y == x + 112);	/* after x, in the same chunk */
	CHECK(y[0] == 0 && y[99] == 0);
	big = arena_alloc(&a, 30 * 1024);
	CHECK(((uintptr_t)big & 15) == 0 && big[0] == 0);
	CHECK(x[0] == 1 && x[99] == 1);
	arena_free(&a);
	CHECK(a.head == NULL);
}

TEST(util_buf_vec)
{
	Buf b = {0};
	VEC(int) v = {0};
	int i;

	buf_printf(&b, "%d-%s", 42, "x");
	buf_putc(&b, '!');
	CHECK_STR(b.s, "42-x!");
	CHECK(b.n == 5);
	buf_free(&b);
	for (i = 0; i < 100; i++)
		vec_push(&v, i * i);
	CHECK(v.n == 100 && v.v[99] == 99 * 99);
	vec_free(&v);
}

/* buf_printf's own formatter (buf.c) against snprintf, on the formats it
 * takes and on some it hands to vsnprintf. */
#define SAME(...) do { \
	char want[256]; \
	b.n = 0; \
	buf_printf(&b, __VA_ARGS__); \
	snprintf(want, sizeof want, __VA_ARGS__); \
	CHECK_STR(b.s, want); \
} while (0)

TEST(util_buf_printf)
{
	Buf b = {0};
	static const long long v[] = {0, 1, -1, 9, 10, -10, 255, 4096, 65535, -32768, 2147483647,
				      -2147483647 - 1, 4294967295ll, 0x7fffffffffffffffll, -0x7fffffffffffffffll - 1};
	size_t i;

	for (i = 0; i < sizeof v / sizeof v[0]; i++) {
		SAME("%d|%i|%u|%x|%X", (int)v[i], (int)v[i], (unsigned)v[i], (unsigned)v[i], (unsigned)v[i]);
		SAME("%lld|%llu|%llx|%016llx|%-20lld|%20llu", v[i], (unsigned long long)v[i],
		     (unsigned long long)v[i], (unsigned long long)v[i], v[i], (unsigned long long)v[i]);
		SAME("%ld %lu %lx %zu %zd %zx", (long)v[i], (unsigned long)v[i], (unsigned long)v[i],
		     (size_t)v[i], (ptrdiff_t)v[i], (size_t)v[i]);
		SAME("%hd %hu %hx %hhd %hhu %02hhx", (short)v[i], (unsigned short)v[i], (unsigned short)v[i],
		     (signed char)v[i], (unsigned char)v[i], (unsigned char)v[i]);
		SAME("[%05d] [%-5d] [%5d] [%08x] [%-8x] [%3u]", (int)v[i], (int)v[i], (int)v[i], (unsigned)v[i],
		     (unsigned)v[i], (unsigned)v[i]);
		/* formats that go to vsnprintf */
		SAME("%+d %.3d %#x % d %*d %.2f %p", (int)v[i], (int)v[i], (unsigned)v[i], (int)v[i], 6, (int)v[i],
		     (double)v[i] / 3, (void *)&b);
	}
	SAME("%s|%10s|%-10s|%c|%3c|%-3c|%%|100%%", "abc", "abc", "abc", 'x', 'y', 'z');
	SAME("%s%s", "", "tail");
	SAME("no conversions");
	SAME("%.2s|%-*s|%5.1s|", "abc", 4, "ab", "xyz");
	SAME("%s=%d, then %+d", "head", 7, 8);   /* vsnprintf after a part made */
	b.n = 0;
	buf_printf(&b, "%s", "");
	CHECK(b.s && b.n == 0);
	buf_free(&b);
}

/* str_printf against snprintf: the text, its cut and the length returned. */
TEST(util_str_printf)
{
	char got[16], want[16];
	size_t n;

	for (n = 0; n <= sizeof got; n++) {
		memset(got, '#', sizeof got), memset(want, '#', sizeof want);
		CHECK(str_printf(got, n, "%s R%d, 0x%x", "IADD3", 12, 255u) ==
		      snprintf(want, n, "%s R%d, 0x%x", "IADD3", 12, 255u));
		CHECK(!memcmp(got, want, sizeof got));
		CHECK(str_printf(got, n, "%.1f", 2.5) == snprintf(want, n, "%.1f", 2.5));
		CHECK(!memcmp(got, want, sizeof got));
	}
}
