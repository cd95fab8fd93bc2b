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

enum { CHUNK = 16 * 1024 };

struct ArenaChunk {
	ArenaChunk *next;
	size_t used, cap;
	_Alignas(16) unsigned char mem[];
};

void *
arena_alloc(Arena *a, size_t n)
{
	ArenaChunk *c = a->head;
	void *p;

	n = (n + 15) & ~(size_t)15;
	if (!c || c->cap - c->used < n) {
		size_t cap = n > CHUNK ? n : CHUNK;

		c = xcalloc(1, sizeof *c + cap);	/* zero: no memset per block */
		c->cap = cap;
		c->next = a->head;
		a->head = c;
	}
	p = c->mem + c->used;
	c->used += n;
	return p;
}

void *
arena_reserve(Arena *a, size_t n)
{
	void *p = arena_alloc(a, n);

	a->head->used -= (n + 15) & ~(size_t)15;
	return p;
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
