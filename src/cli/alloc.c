/* alloc.c -- the openassembler program's malloc: size classes on huge pages.
 *
 * A compile is a short process that allocates a few hundred KiB in many
 * small blocks.  On the machines we measure, every first touch of a 4 KiB
 * page costs about 1.2 us (a page fault); glibc's heap took ~130 of them per
 * compile of a mid-size kernel, about a sixth of the whole compile.  Here the
 * heap is a region the kernel may back with transparent huge pages
 * (MADV_HUGEPAGE: one fault per 2 MiB), carved by a bump pointer into
 * blocks of 68 size classes (four per doubling, 16 B to 4 MiB) with a free
 * list per class; larger blocks are their own mappings.  Memory freed to a
 * class is reused by that class and never returned: fine for a process
 * that lives for one command.  Fresh memory is zero, so calloc clears only
 * reused blocks.
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

enum {
	HDR = 16,		/* the header before each block: class and offset */
	NCLASS = 68,
	HUGE_PAGE = 2 << 20,
	REGION = 64 << 20,	/* reserved at a time */
};

typedef struct {
	uint32_t cls;		/* size class, or NCLASS for a mapping of its own */
	uint32_t off;		/* from the start of the block to the header */
	uint64_t size;		/* a mapping's length (cls == NCLASS) */
} Hdr;

typedef struct Free { struct Free *next; } Free;

static Free *free_list[NCLASS];
static char *bump, *bump_end;
static volatile int lock;

/* The bytes a class holds (the header included): 16, 32, 48, 64, then four
 * steps per doubling up to 4 MiB. */
static size_t
class_size(unsigned c)
{
	if (c < 4)
		return 16u * (c + 1);
	return (size_t)(5 + (c & 3)) << (c / 4 + 3);
}

static unsigned
class_of(size_t n)
{
	unsigned c;
	size_t k;

	if (n <= 64)
		return n ? (unsigned)((n - 1) / 16) : 0;
	k = 63 - (unsigned)__builtin_clzll(n - 1);	/* 2^k < n <= 2^(k+1), k >= 6 */
	c = 4 * (unsigned)(k - 5) + (unsigned)((n - 1) >> (k - 2) & 3);
	return c;
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

/* n bytes (a class size) of fresh, zero memory from the current region. */
static char *
carve(size_t n)
{
	char *p;

	if ((size_t)(bump_end - bump) < n) {
		char *r = map(REGION + HUGE_PAGE);
		uintptr_t a;

		if (!r)
			return NULL;
		/* the whole mapping (the part before a is never touched):
		   marking only [a, a + REGION) split it in three (~1 us more
		   for the madvise and the exit's unmapping) */
		madvise(r, REGION + HUGE_PAGE, MADV_HUGEPAGE);
		a = ((uintptr_t)r + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
		bump = (char *)a;
		bump_end = bump + REGION;
	}
	p = bump;
	bump += n;
	return p;
}

/* A block of at least n bytes aligned to al (a power of two >= 16);
 * *fresh says whether it is zero. */
static void *
block(size_t n, size_t al, int *fresh)
{
	size_t need = n + HDR + (al > HDR ? al - HDR : 0);
	char *b, *u;
	Hdr *h;
	unsigned c;

	if (need < n)
		return NULL;
	if (need > class_size(NCLASS - 1)) {
		size_t len = (need + 4095) & ~(size_t)4095;

		if (len < need || !(b = map(len)))
			return NULL;
		c = NCLASS;
		*fresh = 1;
	} else {
		c = class_of(need);
		acquire();
		if (free_list[c]) {
			b = (char *)free_list[c];
			free_list[c] = free_list[c]->next;
			*fresh = 0;
		} else {
			b = carve(class_size(c));
			*fresh = 1;
		}
		release();
		if (!b)
			return NULL;
		need = class_size(c);
	}
	u = (char *)(((uintptr_t)b + HDR + al - 1) & ~(uintptr_t)(al - 1));
	h = (Hdr *)(u - HDR);
	h->cls = c;
	h->off = (uint32_t)((char *)h - b);
	h->size = need;
	return u;
}

static Hdr *
hdr(void *p)
{
	return (Hdr *)((char *)p - HDR);
}

void *
malloc(size_t n)
{
	int fresh;
	void *p = block(n, 16, &fresh);

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
	if (h->cls == NCLASS) {
		munmap(b, h->size);
		return;
	}
	acquire();
	((Free *)b)->next = free_list[h->cls];
	free_list[h->cls] = (Free *)b;
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
	int fresh;
	void *p;

	if (__builtin_mul_overflow(k, n, &t)) {
		errno = ENOMEM;
		return NULL;
	}
	if (!(p = block(t, 16, &fresh))) {
		errno = ENOMEM;
		return NULL;
	}
	if (!fresh)
		memset(p, 0, t);
	return p;
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
	if (!(q = malloc(n)))
		return NULL;
	memcpy(q, p, have < n ? have : n);
	free(p);
	return q;
}

int
posix_memalign(void **out, size_t al, size_t n)
{
	int fresh;
	void *p;

	if (al < sizeof(void *) || (al & (al - 1)))
		return EINVAL;
	if (!(p = block(n, al < 16 ? 16 : al, &fresh)))
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
#endif
