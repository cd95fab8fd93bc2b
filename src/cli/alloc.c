/* alloc.c -- the openassembler program's malloc: size classes, a bump pointer.
 *
 * A compile is a short process that allocates a few hundred KiB in many
 * small blocks, and every 4 KiB page it touches first costs a page fault
 * that clears it: 1.2-1.9 us on the machines we measure, more when the
 * memory is not in any cache (right after ptxas ran).  glibc's heap took
 * ~130 pages per compile of a mid-size kernel.  Here the heap is a region
 * carved by a bump pointer into blocks of 128 size classes (eight per
 * doubling, 16 B to 4 MiB) with a free list per class; larger blocks are
 * their own mappings.  A freed block goes to its class's list, for
 * requests of that class or of the eight below it (a page touched again
 * costs nothing), and is never returned: fine for a process that lives for
 * one command.  The
 * last block carved goes back to the bump pointer when freed, and grows
 * where it is when reallocated, so a buffer that doubles leaves no copies
 * behind.  Memory never handed out is zero, so calloc clears only reused
 * blocks (and only the part used before).
 *
 * Huge pages: a 2 MiB page costs one fault but clears 2 MiB -- 90 us on one
 * machine we measure, 350 us on another right after ptxas -- while a median
 * compile touches ~50-90 small pages at 1.4-1.9 us each.  So the heap's
 * first MiB is small pages, and the rest of the region is marked
 * MADV_HUGEPAGE for the compiles of large modules (docs/compile-speed.md,
 * "Session 11"); when the PTX is large, `compile` says so (heap_large) and
 * the rest of the heap is huge pages from then on.  A calloc of 64 KiB or
 * more is a table touched here and there (the memos): it goes to the first
 * region's first MiB, below the small pages, which nothing else uses (no
 * mmap call of its own: ~1.4 us each), or to a mapping of its own when that
 * is full; either way its untouched pages cost nothing, and it does not
 * count towards the small pages' MiB.
 *
 * Only the command-line program links this file (the unit tests and the
 * GPU runner keep the C library's malloc), and not under the sanitizers,
 * which bring their own.  OA_MALLOC=libc at start-up is not offered: the
 * allocator replaces malloc at link time. */
#if !defined(__SANITIZE_ADDRESS__)
#define _DEFAULT_SOURCE
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli.h"

enum {
	HDR = 16,		/* the header before each block: class and offset */
	NCLASS = 128,
	REGION = 64 << 20,	/* reserved at a time */
	HUGE_PAGE = 2 << 20,
	SMALL = 1 << 20,	/* the heap's first bytes, in small pages */
	SPARSE = 64 << 10,	/* a calloc this large is a table: its own mapping */
	REUSE = 9,		/* a request takes a freed block of its class or the next 8 */
	LARGEST = 4 << 20,	/* class_size(NCLASS - 1): a larger block is a mapping of its own */
	TABLE = NCLASS + 1,	/* the cls of a table in the table window (never reused) */
};

typedef struct {
	uint32_t cls;		/* size class, NCLASS for a mapping of its own, TABLE */
	uint32_t off;		/* from the start of the block to the header */
	uint64_t size;		/* a mapping's length (cls == NCLASS) */
} Hdr;

typedef struct Free { struct Free *next; } Free;

/* The lists' heads: the first NCLASS pointers of the first region, on the
 * heap page its first blocks touch anyway; in .bss, 1 KiB with the
 * variables every process touches, they pushed those onto a third page. */
static Free **free_list;
static uint64_t nonempty[2];	/* bit c: free_list[c] holds a block */
static char *bump, *bump_end;	/* the current region's unused part */
static char *dirty;		/* the region's memory below it was handed out */
static char *huge_from;		/* where the region's huge pages start */
static char *table_at, *table_end;	/* the first region's table window, unused part */
static int large;		/* heap_large was called */
static volatile int lock;

/* The bytes a class holds (the header included): 16 to 128, then eight
 * steps per doubling up to 4 MiB.  Eight, not four: a block is at most
 * 12.5 % larger than asked, not 25 %, and the heap's blocks lie closer
 * (a buffer of 2^k bytes plus the header took 2^k * 1.25; page faults over
 * the suite's 150 compiles -1.4 %). */
static size_t
class_size(unsigned c)
{
	if (c < 8)
		return 16u * (c + 1);
	return (size_t)(9 + (c & 7)) << (c / 8 + 3);
}

static unsigned
class_of(size_t n)
{
	unsigned k;

	if (n <= 128)
		return n ? (unsigned)((n - 1) / 16) : 0;
	k = 63 - (unsigned)__builtin_clzll(n - 1);	/* 2^k < n <= 2^(k+1), k >= 7 */
	return 8 * (k - 6) + (unsigned)((n - 1) >> (k - 3) & 7);
}

static void
acquire(void)
{
	while (__atomic_exchange_n(&lock, 1, __ATOMIC_ACQUIRE))
		;
}

static void
release(void)
{
	__atomic_store_n(&lock, 0, __ATOMIC_RELEASE);
}

static void *
map(size_t n)
{
	void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* n bytes (a class size) from the current region; *was_dirty: where the
 * memory handed out before ended (below it, the block may not be zero). */
static inline __attribute__((always_inline)) char *
carve(size_t n, char **was_dirty)
{
	char *p;

	if (!bump_end || (size_t)(bump_end - bump) < n) {
		char *r = map(REGION + HUGE_PAGE), *a;

		if (!r)
			return NULL;
		a = (char *)(((uintptr_t)r + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
		/* the first region starts with SMALL bytes of small pages */
		bump = dirty = bump_end || large ? a : a + HUGE_PAGE - SMALL;
		huge_from = bump == a ? a : a + HUGE_PAGE;
		if (bump != a) {	/* the MiB below the small pages: the tables' */
			table_at = a;
			table_end = bump;
		}
		bump_end = a + REGION;
		madvise(huge_from, (size_t)(bump_end - huge_from), MADV_HUGEPAGE);
		if (!free_list) {
			free_list = (Free **)bump;
			bump = dirty = bump + NCLASS * sizeof *free_list;
		}
	}
	p = bump;
	bump += n;
	*was_dirty = dirty;
	if (bump > dirty)
		dirty = bump;
	return p;
}

/* len bytes (a page multiple) for a table from the table window, or NULL
 * when it has no room left (the table then gets a mapping of its own). */
static char *
table_take(size_t len)
{
	char *b = NULL, *w;

	acquire();
	if (!bump_end)
		carve(0, &w);	/* the first region, with its window */
	if ((size_t)(table_end - table_at) >= len) {
		b = table_at;
		table_at += len;
	}
	release();
	return b;
}

/* The first class in [c, c + REUSE) whose free list holds a block, or
 * NCLASS: one look at the bitmap (no walk over the lists' heads). */
static unsigned
reusable(unsigned c)
{
	unsigned __int128 m = ((unsigned __int128)nonempty[1] << 64 | nonempty[0]) >> c;
	unsigned bits = (unsigned)m & ((1u << REUSE) - 1);

	return bits ? c + (unsigned)__builtin_ctz(bits) : NCLASS;
}

/* A block of class *c or up to REUSE classes above (a freed one: pages
 * touched before), else a new one carved; *c and *sz become its class and
 * size, *was_dirty the end of what may not be zero.  NULL when the region
 * is spent. */
static inline __attribute__((always_inline)) char *
class_take(unsigned *c, size_t *sz, char **was_dirty)
{
	unsigned k;
	char *b;

	acquire();
	k = reusable(*c);
	if (k < NCLASS) {
		*c = k;
		*sz = class_size(k);
		b = (char *)free_list[k];
		if (!(free_list[k] = free_list[k]->next))
			nonempty[k / 64] &= ~(1ull << (k % 64));
		*was_dirty = b + *sz;
	} else {
		*sz = class_size(*c);
		b = carve(*sz, was_dirty);
	}
	release();
	return b;
}

/* A block of at least n bytes aligned to al (a power of two >= 16);
 * *unclear: how many of its first bytes may not be zero.  malloc and
 * calloc take block() below when they can. */
static void *
block_any(size_t n, size_t al, int sparse, size_t *unclear)
{
	char *was_dirty = NULL;
	size_t need = n + HDR + (al > HDR ? al - HDR : 0);
	char *b, *u;
	Hdr *h;
	unsigned c;

	if (need < n)
		return NULL;
	if (need > class_size(NCLASS - 1) || (sparse && need >= SPARSE)) {
		size_t len = (need + 4095) & ~(size_t)4095;

		if (len < need)
			return NULL;
		c = sparse && (b = table_take(len)) ? TABLE : NCLASS;
		if (c == NCLASS && !(b = map(len)))
			return NULL;
	} else {
		c = class_of(need);
		if (!(b = class_take(&c, &need, &was_dirty)))
			return NULL;
	}
	u = (char *)(((uintptr_t)b + HDR + al - 1) & ~(uintptr_t)(al - 1));
	h = (Hdr *)(u - HDR);
	h->cls = c;
	h->off = (uint32_t)((char *)h - b);
	h->size = need;
	*unclear = was_dirty > u ? (size_t)(was_dirty - u) : 0;
	return u;
}

/* block_any() for a request of need bytes (the header included) of at
 * most the largest class, aligned to 16: malloc's and calloc's common
 * case, inlined there.  Every block starts 16-aligned (the region does, and every class
 * size is a multiple of 16), so the header is at its start and the
 * memory right after it. */
static inline __attribute__((always_inline)) void *
block(size_t need, size_t *unclear)
{
	char *b, *was_dirty = NULL;
	unsigned c = class_of(need);
	size_t sz;
	Hdr *h;

	if (!(b = class_take(&c, &sz, &was_dirty)))
		return NULL;
	h = (Hdr *)b;
	h->cls = c;
	h->off = 0;
	h->size = sz;
	*unclear = was_dirty > b + HDR ? (size_t)(was_dirty - (b + HDR)) : 0;
	return b + HDR;
}

/* A large compile ahead (cli.h): the rest of the heap in huge pages. */
void
heap_large(void)
{
	acquire();
	large = 1;
	if (bump && bump < huge_from)
		bump = huge_from;	/* the small pages' rest is never handed out */
	release();
}

static Hdr *
hdr(void *p)
{
	return (Hdr *)((char *)p - HDR);
}

void *
malloc(size_t n)
{
	size_t unclear;
	void *p = n <= LARGEST - HDR ? block(n + HDR, &unclear) : block_any(n, 16, 0, &unclear);

	if (!p)
		errno = ENOMEM;
	return p;
}

void
free(void *p)
{
	Hdr *h;
	char *b;

	if (!p)
		return;
	h = hdr(p);
	b = (char *)h - h->off;
	if (h->cls >= NCLASS) {
		if (h->cls == NCLASS)
			munmap(b, h->size);
		return;		/* a table's window pages are not reused */
	}
	acquire();
	if (b + class_size(h->cls) == bump) {
		bump = b;	/* the last block carved: its pages serve the next */
	} else {
		((Free *)b)->next = free_list[h->cls];
		free_list[h->cls] = (Free *)b;
		nonempty[h->cls / 64] |= 1ull << (h->cls % 64);
	}
	release();
}

/* The bytes usable at p. */
size_t
malloc_usable_size(void *p)
{
	Hdr *h;

	if (!p)
		return 0;
	h = hdr(p);
	return (size_t)h->size - h->off - HDR;
}

void *
calloc(size_t k, size_t n)
{
	size_t t;
	size_t unclear;
	void *p;

	if (__builtin_mul_overflow(k, n, &t)) {
		errno = ENOMEM;
		return NULL;
	}
	if (!(p = t < SPARSE - HDR ? block(t + HDR, &unclear) : block_any(t, 16, 1, &unclear))) {
		errno = ENOMEM;
		return NULL;
	}
	memset(p, 0, unclear < t ? unclear : t);
	/* A fresh page read before it is written faults twice (the zero
	 * page, then a page of its own): a small table's lookups before its
	 * first insert do that.  A block of up to a page ends on the page its
	 * header is on or on the next, where the next block's header goes:
	 * writing its last byte now costs no page, and saves the second fault
	 * of a read first. */
	if (t <= 4096 && unclear < t)
		((volatile char *)p)[t - 1] = 0;
	return p;
}

/* Whether the block at p, the last one carved, could grow to n bytes where
 * it is (a buffer that doubles leaves no copies behind). */
static int
grow_in_place(void *p, size_t n)
{
	Hdr *h = hdr(p);
	char *b = (char *)h - h->off;
	size_t need = n + (size_t)((char *)p - b);
	unsigned c;
	int ok = 0;

	if (h->cls >= NCLASS || need < n || need > class_size(NCLASS - 1))
		return 0;
	c = class_of(need);
	acquire();
	if (b + class_size(h->cls) == bump && class_size(c) <= (size_t)(bump_end - b)) {
		bump = b + class_size(c);
		if (bump > dirty)
			dirty = bump;
		h->cls = c;
		h->size = class_size(c);
		ok = 1;
	}
	release();
	return ok;
}

void *
realloc(void *p, size_t n)
{
	size_t have;
	void *q;

	if (!p)
		return malloc(n);
	have = malloc_usable_size(p);
	if (n <= have && hdr(p)->cls != NCLASS)
		return p;
	if (grow_in_place(p, n))
		return p;
	if (!(q = malloc(n)))
		return NULL;
	memcpy(q, p, have < n ? have : n);
	free(p);
	return q;
}

int
posix_memalign(void **out, size_t al, size_t n)
{
	size_t unclear;
	void *p;

	if (al < sizeof(void *) || (al & (al - 1)))
		return EINVAL;
	if (!(p = block_any(n, al < 16 ? 16 : al, 0, &unclear)))
		return ENOMEM;
	*out = p;
	return 0;
}

void *
aligned_alloc(size_t al, size_t n)
{
	void *p = NULL;
	int e = posix_memalign(&p, al < sizeof(void *) ? sizeof(void *) : al, n);

	if (e)
		errno = e;
	return e ? NULL : p;
}

void *
memalign(size_t al, size_t n)
{
	return aligned_alloc(al, n);
}

void *
valloc(size_t n)
{
	return aligned_alloc(4096, n);
}

void *
pvalloc(size_t n)
{
	return aligned_alloc(4096, (n + 4095) & ~(size_t)4095);
}
#else
void
heap_large(void)
{
}
#endif
