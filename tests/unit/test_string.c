/* test_string.c -- the musl build's string functions (src/cli/string.c),
 * compiled here under other names, against the C library's: every length
 * up to 80 at every alignment, strings that end at the last byte before an
 * unmapped page (a load past it would fault), random contents from a small
 * alphabet (so that searches and comparisons find matches and near
 * misses). */
#define _DEFAULT_SOURCE   /* MAP_ANONYMOUS */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "test.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__SANITIZE_ADDRESS__)
#define memcpy t_memcpy
#define memmove t_memmove
#define memset t_memset
#define memcmp t_memcmp
#define memchr t_memchr
#define strlen t_strlen
#define strcmp t_strcmp
#define strchr t_strchr
#define strstr t_strstr
#define OA_STRING_TEST
#include "../../src/cli/string.c"
#undef memcpy
#undef memmove
#undef memset
#undef memcmp
#undef memchr
#undef strlen
#undef strcmp
#undef strchr
#undef strstr

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static unsigned
rnd(unsigned n)
{
	rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
	return (unsigned)(rng % n);
}

/* len random bytes from "ab" (and now and then a byte >= 0x80) and a NUL */
static void
fill(char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		s[i] = rnd(16) ? "ab"[rnd(2)] : (char)0xe9;
	s[len] = 0;
}

static int
sign(int x)
{
	return (x > 0) - (x < 0);
}

/* Two pages, the second unmapped: strings placed to end at its start. */
static char *
guarded(void)
{
	char *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	mprotect(p + 4096, 4096, PROT_NONE);
	return p;
}

TEST(string_functions)
{
	char *pg = guarded(), *pg2 = guarded();
	char a[256], b[256], d1[256], d2[256];
	size_t len, off;
	int bad = 0, round;

	CHECK(pg && pg2);
	if (!pg || !pg2)
		return;
	for (round = 0; round < 4 && !bad; round++)
		for (len = 0; len <= 80 && bad < 10; len++)
			for (off = 0; off < 16 && bad < 10; off++) {
				/* s ends at the guard page; t in the other at offset 'off' */
				char *s = pg + 4096 - len - 1, *t = pg2 + 4096 - 80 - 1 + off % 8;
				size_t tl = 80 - off % 8;
				char nd[8];
				int c = "ab\351"[rnd(3)];
				fill(s, len);
				fill(t, tl);
				if (rnd(2))   /* often a prefix of s, to compare equal for a while */
					memcpy(t, s, len < tl ? len : tl);
				if (t_strlen(s) != strlen(s))
					bad++, test_fail(t_, __FILE__, __LINE__, "strlen, len %zu", len);
				if (sign(t_strcmp(s, t)) != sign(strcmp(s, t)) || sign(t_strcmp(t, s)) != sign(strcmp(t, s)))
					bad++, test_fail(t_, __FILE__, __LINE__, "strcmp \"%s\" \"%s\"", s, t);
				if (t_strchr(s, c) != strchr(s, c) || t_strchr(s, 0) != strchr(s, 0) ||
				    t_strchr(s, c | 0x100) != strchr(s, c | 0x100))
					bad++, test_fail(t_, __FILE__, __LINE__, "strchr \"%s\" %d", s, c);
				fill(nd, rnd(6));
				if (t_strstr(s, nd) != strstr(s, nd))
					bad++, test_fail(t_, __FILE__, __LINE__, "strstr \"%s\" \"%s\"", s, nd);
				if (len >= 3 && t_strstr(s, s + len - 3) != strstr(s, s + len - 3))
					bad++, test_fail(t_, __FILE__, __LINE__, "strstr \"%s\" its tail", s);
				if (t_memchr(s, c, len) != memchr(s, c, len))
					bad++, test_fail(t_, __FILE__, __LINE__, "memchr \"%s\" %d", s, c);
				if (sign(t_memcmp(s, t, len < tl ? len : tl)) != sign(memcmp(s, t, len < tl ? len : tl)))
					bad++, test_fail(t_, __FILE__, __LINE__, "memcmp \"%s\" \"%s\"", s, t);
				/* copies, sets and overlapping moves inside a buffer */
				fill(a, 200), memcpy(b, a, 256);
				t_memcpy(a + off, s, len), memcpy(b + off, s, len);
				t_memset(a + 100 + off, c, len), memset(b + 100 + off, c, len);
				if (memcmp(a, b, 256))
					bad++, test_fail(t_, __FILE__, __LINE__, "memcpy/memset, len %zu off %zu", len, off);
				memcpy(d1, a, 256), memcpy(d2, a, 256);
				t_memmove(d1 + off, d1 + 8, len), memmove(d2 + off, d2 + 8, len);
				t_memmove(d1 + 100, d1 + 100 + off, len), memmove(d2 + 100, d2 + 100 + off, len);
				if (memcmp(d1, d2, 256))
					bad++, test_fail(t_, __FILE__, __LINE__, "memmove, len %zu off %zu", len, off);
			}
	munmap(pg, 8192);
	munmap(pg2, 8192);
}
#else
TEST(string_functions)
{
	SKIP("x86-64 GCC without the sanitizers only (src/cli/string.c)");
}
#endif
