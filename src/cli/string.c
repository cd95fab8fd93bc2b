/* string.c -- memcpy, memmove, memset, memcmp, memchr, strlen, strcmp,
 * strchr and strstr for the program when it is linked with musl (see the
 * Makefile).
 *
 * musl's x86-64 versions copy with `rep movsq` and compare a byte at a time:
 * compact, but slow for the short strings and records a compile moves
 * (most are under 64 bytes).  These use SSE2 (every x86-64 has it; no CPU
 * probe) 16 bytes at a time, with overlapping first/last chunks for the
 * lengths in between.  Loads that may pass the end of a string are 16-byte
 * aligned, so they never cross into another page.
 *
 * Only in the musl build (glibc's own are already vectorised and chosen
 * for the host), and never under the sanitizers.  tests/unit/test_string.c
 * includes this file under other names (OA_STRING_TEST) to compare them
 * with the C library's. */
#if (!defined(__GLIBC__) || defined(OA_STRING_TEST)) && defined(__x86_64__) && defined(__GNUC__) && \
	!defined(__SANITIZE_ADDRESS__)
#pragma GCC optimize("no-tree-loop-distribute-patterns")	/* no loop back into memcpy */
#include <emmintrin.h>
#include <stddef.h>
#include <stdint.h>

typedef unsigned char uchar;

static inline __m128i
load(const void *p)
{
	return _mm_loadu_si128((const __m128i *)p);
}

static inline void
store(void *p, __m128i v)
{
	_mm_storeu_si128((__m128i *)p, v);
}

/* Copy n < 16 bytes with at most two overlapping loads and stores. */
static inline void
copy_small(uchar *d, const uchar *s, size_t n)
{
	if (n >= 8) {
		uint64_t a, b;
		__builtin_memcpy(&a, s, 8);
		__builtin_memcpy(&b, s + n - 8, 8);
		__builtin_memcpy(d, &a, 8);
		__builtin_memcpy(d + n - 8, &b, 8);
	} else if (n >= 4) {
		uint32_t a, b;
		__builtin_memcpy(&a, s, 4);
		__builtin_memcpy(&b, s + n - 4, 4);
		__builtin_memcpy(d, &a, 4);
		__builtin_memcpy(d + n - 4, &b, 4);
	} else if (n) {
		uchar a = s[0], b = s[n / 2], c = s[n - 1];
		d[0] = a;
		d[n / 2] = b;
		d[n - 1] = c;
	}
}

/* memmove and memcpy (not one calling the other: the compiler would turn
 * memcpy's call of memmove, restrict pointers and all, into a call of
 * memcpy itself). */
static inline void *
move(void *dst, const void *src, size_t n)
{
	uchar *d = dst;
	const uchar *s = src;

	if (n < 16) {
		copy_small(d, s, n);	/* every load comes before the stores */
		return dst;
	}
	if (n <= 32) {
		__m128i a = load(s), b = load(s + n - 16);
		store(d, a);
		store(d + n - 16, b);
		return dst;
	}
	if (d - s >= (ptrdiff_t)n || s - d >= 0) {	/* forward is safe */
		__m128i last = load(s + n - 16);
		uchar *end = d + n - 16;
		while (d < end) {
			store(d, load(s));
			d += 16, s += 16;
		}
		store(end, last);
	} else {	/* d overlaps the tail of s: backwards */
		__m128i first = load(s);
		size_t i = n;
		while (i > 16) {
			i -= 16;
			store(d + i, load(s + i));
		}
		store(d, first);
	}
	return dst;
}

void *
memmove(void *dst, const void *src, size_t n)
{
	return move(dst, src, n);
}

void *
memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	return move(dst, src, n);
}

void *
memset(void *dst, int c, size_t n)
{
	uchar *d = dst;
	__m128i v = _mm_set1_epi8((char)c);

	if (n < 16) {
		uint64_t x = 0x0101010101010101ull * (uchar)c;
		if (n >= 8) {
			__builtin_memcpy(d, &x, 8);
			__builtin_memcpy(d + n - 8, &x, 8);
		} else if (n >= 4) {
			__builtin_memcpy(d, &x, 4);
			__builtin_memcpy(d + n - 4, &x, 4);
		} else if (n) {
			d[0] = d[n / 2] = d[n - 1] = (uchar)c;
		}
		return dst;
	}
	{
		uchar *end = d + n - 16;
		while (d < end) {
			store(d, v);
			d += 16;
		}
		store(end, v);
	}
	return dst;
}

int
memcmp(const void *x, const void *y, size_t n)
{
	const uchar *a = x, *b = y;
	size_t i = 0;

	for (; i + 16 <= n; i += 16) {
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(load(a + i), load(b + i))) ^ 0xffffu;
		if (m) {
			i += (unsigned)__builtin_ctz(m);
			return a[i] - b[i];
		}
	}
	for (; i < n; i++)
		if (a[i] != b[i])
			return a[i] - b[i];
	return 0;
}

/* The 16-byte block at or before p, and the mask of p's bytes in it. */
static inline const uchar *
block_of(const void *p, unsigned *keep)
{
	uintptr_t a = (uintptr_t)p;

	*keep = 0xffffu << (a & 15) & 0xffffu;
	return (const uchar *)(a & ~(uintptr_t)15);
}

size_t
strlen(const char *s)
{
	unsigned keep, m;
	const uchar *p = block_of(s, &keep);
	__m128i z = _mm_setzero_si128();

	m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_load_si128((const __m128i *)p), z)) & keep;
	while (!m) {
		p += 16;
		m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_load_si128((const __m128i *)p), z));
	}
	return (size_t)(p + __builtin_ctz(m) - (const uchar *)s);
}

void *
memchr(const void *s, int c, size_t n)
{
	const uchar *p = s;
	__m128i v = _mm_set1_epi8((char)c);
	size_t i = 0;

	for (; i + 16 <= n; i += 16) {
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(load(p + i), v));
		if (m)
			return (void *)(p + i + __builtin_ctz(m));
	}
	for (; i < n; i++)
		if (p[i] == (uchar)c)
			return (void *)(p + i);
	return NULL;
}

int
strcmp(const char *x, const char *y)
{
	const uchar *a = (const uchar *)x, *b = (const uchar *)y;

	/* 16 at a time while neither load can reach another page */
	for (;;) {
		if (((uintptr_t)a & 4095) <= 4080 && ((uintptr_t)b & 4095) <= 4080) {
			__m128i va = load(a), vb = load(b);
			unsigned m = (unsigned)_mm_movemask_epi8(
				_mm_or_si128(_mm_xor_si128(_mm_cmpeq_epi8(va, vb), _mm_set1_epi8(-1)),
					     _mm_cmpeq_epi8(va, _mm_setzero_si128())));
			if (m) {
				unsigned i = (unsigned)__builtin_ctz(m);
				return a[i] - b[i];
			}
			a += 16, b += 16;
		} else {
			if (*a != *b || !*a)
				return *a - *b;
			a++, b++;
		}
	}
}

/* musl's goes through __strchrnul, a byte at a time up to a word
 * boundary and then a word at a time: ~55 instructions for the compiler's
 * short texts.  Aligned loads, as strlen. */
char *
strchr(const char *s, int c)
{
	unsigned keep, m;
	const uchar *p = block_of(s, &keep);
	__m128i z = _mm_setzero_si128(), v = _mm_set1_epi8((char)c), x;

	x = _mm_load_si128((const __m128i *)p);
	m = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(x, z), _mm_cmpeq_epi8(x, v))) & keep;
	while (!m) {
		p += 16;
		x = _mm_load_si128((const __m128i *)p);
		m = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(x, z), _mm_cmpeq_epi8(x, v)));
	}
	p += __builtin_ctz(m);
	return *p == (uchar)c ? (char *)p : NULL;
}

int strncmp(const char *a, const char *b, size_t n);   /* musl's */

/* Each place the needle's first byte occurs, then the rest compared:
 * quadratic at worst (musl's is linear), but the compiler asks it only
 * about instruction texts, and musl's set-up (a table of the needle's
 * bytes) cost more than the search. */
char *
strstr(const char *h, const char *n)
{
	size_t k;

	if (!n[0])
		return (char *)h;
	k = strlen(n + 1);
	for (h = strchr(h, n[0]); h; h = strchr(h + 1, n[0]))
		if (!strncmp(h + 1, n + 1, k))
			return (char *)h;
	return NULL;
}
#endif
