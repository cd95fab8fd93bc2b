/* alloc_test.c -- the program's allocator (src/cli/alloc.c), linked the way
 * openassembler links it: calloc gives zeros whatever the memory held before
 * (blocks reused from a free list, the last block freed back to the bump
 * pointer, a block that straddles memory used before), realloc keeps the
 * contents (in place or moved), alignment holds, and a random mix of
 * operations never lets two live blocks overlap.  Prints PASS/FAIL lines
 * for tests/run. */
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failed;
static void *volatile sink;

/* memset, and a barrier: the bytes count even if a free follows */
static void
fill(void *p, int v, size_t n)
{
	memset(p, v, n);
	__asm__ volatile("" : : "r"(p) : "memory");
}

/* p, escaped: the compiler may not drop a malloc/memset/free it sees whole */
static void *
use(void *p)
{
	sink = p;
	return p;
}

static void
check(const char *name, int ok)
{
	printf("%s alloc_%s\n", ok ? "PASS" : "FAIL", name);
	failed |= !ok;
}

static int
all(const unsigned char *p, size_t n, unsigned char v)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != v)
			return 0;
	return 1;
}

static unsigned long long rng = 88172645463325252ull;

static size_t
rnd(size_t n)
{
	rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
	return (size_t)(rng % n);
}

/* 20,000 random mallocs, callocs, reallocs and frees of 1 B..64 KiB (and a
 * few of 5 MiB, their own mappings): every live block holds its own byte,
 * checked before it is freed or grown; a calloc'd block starts zero. */
static int
stress(void)
{
	enum { N = 512 };
	unsigned char *p[N] = {0};
	size_t n[N] = {0};
	int ok = 1;

	for (int step = 0; step < 20000 && ok; step++) {
		size_t i = rnd(N), m = rnd(8) ? 1 + rnd(rnd(4) ? 256 : 65536) : 1 + rnd(4);
		unsigned char v = (unsigned char)(i | 1);

		if (step % 2000 == 1999)
			m = 5u << 20;
		if (p[i] && !all(p[i], n[i], v))
			ok = 0;
		switch (rnd(4)) {
		case 0:
			free(p[i]);
			p[i] = malloc(m);
			break;
		case 1:
			free(p[i]);
			if ((p[i] = calloc(1, m)) && !all(p[i], m, 0))
				ok = 0;
			break;
		case 2:
			p[i] = realloc(p[i], m);
			if (p[i] && !all(p[i], m < n[i] ? m : n[i], v))
				ok = 0;
			break;
		default:
			free(p[i]);
			p[i] = NULL;
			m = 0;
		}
		if (m && !p[i])
			return 0;
		n[i] = m;
		if (p[i]) {
			if (malloc_usable_size(p[i]) < m || (uintptr_t)p[i] % 16)
				ok = 0;
			memset(p[i], v, m);
		}
	}
	for (size_t i = 0; i < N; i++) {
		if (p[i] && !all(p[i], n[i], (unsigned char)(i | 1)))
			ok = 0;
		free(p[i]);
	}
	return ok;
}

int
main(void)
{
#if defined(__SANITIZE_ADDRESS__)
	puts("SKIP alloc: the sanitizers bring their own allocator");
	return 0;
#else
	unsigned char *a, *b, *c, *d;
	void *q;
	uintptr_t at;
	int ok;

	/* the last block carved, freed, comes back dirty: calloc clears it */
	a = use(malloc(1000));
	fill(a, 0xab, 1000);
	free(a);
	b = use(calloc(1, 1000));
	check("calloc_after_free_top", b && all(b, 1000, 0));
	free(b);

	/* a bigger block over a freed small one: the part used before is cleared */
	a = use(malloc(300));
	fill(a, 0xcd, 300);
	free(a);
	b = use(calloc(1000, 100));
	check("calloc_over_used_memory", b && all(b, 100000, 0));
	free(b);

	/* a block from a class's free list */
	a = use(malloc(200));
	b = use(malloc(200));
	fill(a, 0xef, 200);
	free(a);
	c = use(calloc(1, 200));
	check("calloc_from_free_list", c && all(c, 200, 0));

	/* the last block grows in place, and keeps its bytes */
	d = use(malloc(100));
	at = (uintptr_t)d;
	fill(d, 0x5a, 100);
	a = use(realloc(d, 100000));
	ok = (uintptr_t)a == at && all(a, 100, 0x5a) && malloc_usable_size(a) >= 100000;
	fill(a, 0x5b, 100000);
	d = use(realloc(a, 3u << 20));
	check("realloc_in_place", ok && (uintptr_t)d == at && all(d, 100000, 0x5b)
	      && malloc_usable_size(d) >= 3u << 20);

	/* a block that is not the last one moves, and keeps its bytes */
	a = use(malloc(100));
	at = (uintptr_t)a;
	fill(a, 0x11, 100);
	c = use(malloc(12345));	/* a class nothing freed: carved after a */
	b = use(realloc(a, 5000));
	check("realloc_moves", b && (uintptr_t)b != at && all(b, 100, 0x11));
	free(b);
	free(c);
	free(d);

	ok = 1;
	for (size_t al = 16; al <= 8192; al *= 2) {
		if (posix_memalign(&q, al, 3 * al) || (uintptr_t)q % al)
			ok = 0;
		else
			fill(q, 0x77, 3 * al), free(q);
		a = use(aligned_alloc(al, 40));
		ok &= a && (uintptr_t)a % al == 0;
		free(a);
	}
	b = use(calloc(1, 9000));
	check("aligned", ok && b && all(b, 9000, 0));
	free(b);

	a = use(malloc(5u << 20));	/* larger than the largest class: a mapping of its own */
	fill(a, 0x42, 5u << 20);
	b = use(realloc(a, 6u << 20));
	check("large_blocks", b && all(b, 5u << 20, 0x42));
	free(b);

	/* a large calloc (a table: a mapping of its own), freed and made again */
	a = use(calloc(1, 200000));
	ok = a && all(a, 200000, 0);
	fill(a, 0x33, 200000);
	free(a);
	a = use(calloc(2, 100000));
	check("large_calloc", ok && a && all(a, 200000, 0));
	free(a);

	/* tables past the first region's 1 MiB table window: mappings of
	   their own then; each zero and apart from the others */
	{
		unsigned char *t[8];

		ok = 1;
		for (int i = 0; i < 8; i++)
			if ((t[i] = use(calloc(1, 200000))) && all(t[i], 200000, 0))
				fill(t[i], i + 1, 200000);
			else
				ok = 0;
		for (int i = 0; i < 8; i++) {
			ok &= t[i] && all(t[i], 200000, (unsigned char)(i + 1));
			free(t[i]);
		}
		check("tables_past_window", ok);
	}

	/* past the first 64 MiB region (its small pages, then its huge ones) */
	{
		unsigned char *blk[80];

		for (int i = 0; i < 80; i++)
			if ((blk[i] = use(malloc((1u << 20) - 64))))
				fill(blk[i], i + 1, (1u << 20) - 64);
		ok = 1;
		for (int i = 0; i < 80; i++) {
			ok &= blk[i] && all(blk[i], (1u << 20) - 64, (unsigned char)(i + 1));
			free(blk[i]);
		}
		check("regions", ok);
	}

	check("random_mix", stress());
	return failed;
#endif
}
