/* mem.c -- die(), checked allocation, arenas, per-thread blocks. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

void
die(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("openassembler: internal error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		die("out of memory (%zu bytes)", n);
	return p;
}

void *
xcalloc(size_t n, size_t sz)
{
	void *p = calloc(n ? n : 1, sz ? sz : 1);

	if (!p)
		die("out of memory (%zu x %zu bytes)", n, sz);
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory (%zu bytes)", n);
	return p;
}

char *
xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

/* A chunk's bytes, its header and the allocator's 16-byte one included,
 * fill a 2 KiB size class exactly (src/cli/alloc.c).  Small: a compile's
 * arenas fill their chunks between other blocks, and a large chunk's
 * unused tail parted the pages around it (the next block starts on a page
 * of its own); with 2 KiB chunks an arena's data packs with the rest of
 * the heap (page faults over the suite's 150 compiles 9,531 -> 9,262; 20,
 * 12, 8, 6, 4, 3 and 1 KiB chunks measured). */
enum { CHUNK = 2 * 1024 - 16 - 32, BIG = CHUNK / 4 };

struct ArenaChunk {
	ArenaChunk *next;
	size_t used, cap;
	_Alignas(16) unsigned char mem[];
};

_Static_assert(sizeof(ArenaChunk) == 32, "CHUNK assumes a 32-byte chunk header");

static ArenaChunk *
new_chunk(size_t cap)
{
	ArenaChunk *c = xcalloc(1, sizeof *c + cap);	/* zero: no memset per block */

	c->cap = cap;
	return c;
}

/* n bytes (a multiple of 16) from the head chunk, or from a new one.  A
 * large request that does not fit gets a chunk of its own behind the head,
 * which stays current: the head's rest still serves the small requests
 * after it instead of being left untouched. */
static void *
take(Arena *a, size_t n)
{
	ArenaChunk *c = a->head;
	void *p;

	if (!c || c->cap - c->used < n) {
		if (c && n > BIG) {
			ArenaChunk *b = new_chunk(n);

			b->used = n;
			b->next = c->next;
			c->next = b;
			return b->mem;
		}
		c = new_chunk(n > CHUNK ? n : CHUNK);
		c->next = a->head;
		a->head = c;
	}
	p = c->mem + c->used;
	c->used += n;
	return p;
}

void *
arena_alloc(Arena *a, size_t n)
{
	return take(a, (n + 15) & ~(size_t)15);
}

char *
arena_strndup(Arena *a, const char *s, size_t n)
{
	char *p = arena_alloc(a, n + 1);

	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

char *
arena_strdup(Arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

void
arena_free(Arena *a)
{
	ArenaChunk *c, *next;

	for (c = a->head; c; c = next) {
		next = c->next;
		free(c);
	}
	a->head = NULL;
}

/* Per-thread blocks: each thread's list, freed by the key's destructor when
 * the thread ends (the main thread's live until exit). */
typedef struct ThreadBlock {
	struct ThreadBlock *next;
	_Alignas(16) unsigned char mem[];
} ThreadBlock;

static pthread_key_t thread_key;
static pthread_once_t thread_once = PTHREAD_ONCE_INIT;

static void
thread_blocks_free(void *p)
{
	ThreadBlock *b = p, *next;

	for (; b; b = next) {
		next = b->next;
		free(b);
	}
}

static void
thread_key_make(void)
{
	if (pthread_key_create(&thread_key, thread_blocks_free))
		die("pthread_key_create failed");
}

void *
thread_calloc(void **slot, size_t n)
{
	ThreadBlock *b;

	if (*slot)
		return *slot;
	pthread_once(&thread_once, thread_key_make);
	b = xcalloc(1, sizeof *b + n);
	b->next = pthread_getspecific(thread_key);
	if (pthread_setspecific(thread_key, b))
		die("pthread_setspecific failed");
	return *slot = b->mem;
}
