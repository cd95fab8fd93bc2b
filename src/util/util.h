/* util.h -- arenas, growable arrays, string buffers, diagnostics, files.
 *
 * Memory: everything lives in an Arena freed in one go (per module or per
 * function).  Errors in user input go through diag_* and make the command
 * exit 1; broken invariants call die() which aborts. */
#ifndef OA_UTIL_H
#define OA_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>   /* vec_free, vec_push */
#include <string.h>   /* buf_putn */

typedef unsigned char uchar;
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t i32;
typedef int64_t i64;

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

/* Broken invariant: print context and abort(). Never for bad input. */
_Noreturn void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#define ASSERT(c) ((c) ? (void)0 : die("%s:%d: assertion failed: %s", __FILE__, __LINE__, #c))

/* FNV-1a (32 bits) of p[0..n): the hash of the name tables (ptx, cubin). */
static inline u32
fnv1a32(const void *p, size_t n)
{
	const unsigned char *b = (const unsigned char *)p;	/* (a cast: C++ includes this header: tests/kernels/hostsim) */
	u32 h = 2166136261u;

	while (n--)
		h = (h ^ *b++) * 16777619u;
	return h;
}

/* FNV-1a (64 bits) of p[0..n) continued from h (FNV64_BASIS to start):
 * the manifest's hashes and the IR checker's. */
#define FNV64_BASIS 0xcbf29ce484222325ull
#define FNV64_PRIME 0x100000001b3ull
static inline u64
fnv1a64(u64 h, const void *p, size_t n)
{
	const unsigned char *b = (const unsigned char *)p;

	while (n--)
		h = (h ^ *b++) * FNV64_PRIME;
	return h;
}

/* xmalloc family: die on exhaustion. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t sz);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* A zeroed block of n bytes private to the calling thread, made on the
 * first call with *slot NULL (slot: a _Thread_local pointer) and freed when
 * the thread ends.  For per-thread memo tables: in the heap they share its
 * pages, where a large _Thread_local array takes a page fault per page. */
void *thread_calloc(void **slot, size_t n);

/* Arena: bump allocator in chunks; arena_free releases everything. */
typedef struct ArenaChunk ArenaChunk;
typedef struct {
	ArenaChunk *head;
} Arena;
void *arena_alloc(Arena *a, size_t n);   /* zeroed, 16-byte aligned */
char *arena_strdup(Arena *a, const char *s);
char *arena_strndup(Arena *a, const char *s, size_t n);
void arena_free(Arena *a);

/* Growable array of any element type:  VEC(int) v = {0}; vec_push(&v, 3); */
#define VEC(T) struct { T *v; size_t n, cap; }
#define vec_push(a, x)                                                        \
	do {                                                                  \
		if ((a)->n == (a)->cap) {                                     \
			(a)->cap = (a)->cap ? 2 * (a)->cap : 8;               \
			(a)->v = xrealloc((a)->v, (a)->cap * sizeof *(a)->v); \
		}                                                             \
		(a)->v[(a)->n++] = (x);                                       \
	} while (0)
#define vec_free(a) (free((a)->v), (a)->v = NULL, (a)->n = (a)->cap = 0)

/* String buffer, always NUL-terminated. */
typedef struct {
	char *s;
	size_t n, cap;
} Buf;
void buf_grow(Buf *b, size_t extra);   /* room for extra more bytes and the NUL */
/* buf_putn, buf_putc and buf_puts are inline: the printers call them for
 * every token (a call each was ~3% of a compile's instructions), and a
 * literal's length and copy are then known where it is put. */
static inline void
buf_putn(Buf *b, const void *p, size_t n)
{
	if (b->n + n + 1 > b->cap)
		buf_grow(b, n);
	memcpy(b->s + b->n, p, n);
	b->n += n;
	b->s[b->n] = 0;
}

static inline void
buf_putc(Buf *b, char c)
{
	if (b->n + 2 > b->cap)
		buf_grow(b, 1);
	b->s[b->n++] = c;
	b->s[b->n] = 0;
}

static inline void
buf_puts(Buf *b, const char *s)
{
	buf_putn(b, s, strlen(s));
}
void buf_putd(Buf *b, i64 v);   /* decimal, as %lld */
void buf_putu(Buf *b, u64 v);   /* decimal, as %llu */
void buf_putx(Buf *b, u64 v);   /* lowercase hex without 0x, as %llx */
void buf_printf(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_vprintf(Buf *b, const char *fmt, va_list ap);
/* snprintf through buf_printf's formatter (musl's printf costs ~1,000
 * instructions a call and ~60 cold code lines): the compiler's texts. */
int str_printf(char *d, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int str_vprintf(char *d, size_t n, const char *fmt, va_list ap);
void buf_free(Buf *b);

/* Files. read_file returns a malloc'd, NUL-terminated copy (size in *n);
 * on failure it reports "PATH: error: ..." through diag and returns NULL. */
char *read_file(const char *path, size_t *n);
int write_file(const char *path, const void *p, size_t n);
/* write_file, making path's missing directories (mkdir -p) when there
 * are some: where they exist, no mkdir is asked. */
int write_file_mkdirs(const char *path, const void *p, size_t n);
void mkdirs(const char *dir);   /* mkdir -p */

/* Whether the environment has name (as getenv(name) != NULL) */
int env_has(const char *name);

/* Diagnostics for bad input.  A Src describes a text file for carets. */
typedef struct {
	const char *path;
	const char *text;
	size_t len;
} Src;
/* "path:line:col: error: msg" + the source line + a caret at pos. */
void diag_at(const Src *src, size_t pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void vdiag_at(const Src *src, size_t pos, const char *fmt, va_list ap);
/* "path: error: msg" for inputs without a position (binary files). */
void diag(const char *path, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Count of errors reported so far in this process. */
extern int diag_errors;

#endif
