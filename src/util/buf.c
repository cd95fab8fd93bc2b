/* buf.c -- growable NUL-terminated string buffer. */
#include <stdlib.h>
#include <string.h>

#include "util.h"

static void
reserve(Buf *b, size_t extra)
{
	if (b->n + extra + 1 <= b->cap)
		return;
	b->cap = MAX(2 * b->cap, b->n + extra + 1);
	if (b->cap < 64)
		b->cap = 64;
	b->s = xrealloc(b->s, b->cap);
}

void
buf_putn(Buf *b, const void *p, size_t n)
{
	reserve(b, n);
	memcpy(b->s + b->n, p, n);
	b->n += n;
	b->s[b->n] = 0;
}

void
buf_putc(Buf *b, char c)
{
	reserve(b, 1);
	b->s[b->n++] = c;
	b->s[b->n] = 0;
}

/* Decimal and lowercase hex (no prefix) without printf: the compiler
 * renders every register name and immediate through these. */
void
buf_putd(Buf *b, i64 v)
{
	char t[24], *p = t + sizeof t;
	u64 u = v < 0 ? -(u64)v : (u64)v;

	do
		*--p = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		*--p = '-';
	buf_putn(b, p, (size_t)(t + sizeof t - p));
}

void
buf_putx(Buf *b, u64 v)
{
	char t[16], *p = t + sizeof t;

	do
		*--p = "0123456789abcdef"[v & 15];
	while (v >>= 4);
	buf_putn(b, p, (size_t)(t + sizeof t - p));
}

void
buf_puts(Buf *b, const char *s)
{
	buf_putn(b, s, strlen(s));
}

void
buf_vprintf(Buf *b, const char *fmt, va_list ap)
{
	va_list ap2;
	int n;

	/* one pass when the text fits in the room left, a second one after
	   growing the buffer otherwise */
	va_copy(ap2, ap);
	n = b->cap > b->n ? vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap2) : vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		die("buf_vprintf: bad format %s", fmt);
	if ((size_t)n >= b->cap - b->n || b->cap <= b->n) {
		reserve(b, (size_t)n);
		vsnprintf(b->s + b->n, (size_t)n + 1, fmt, ap);
	}
	b->n += (size_t)n;
}

void
buf_printf(Buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(b, fmt, ap);
	va_end(ap);
}

void
buf_free(Buf *b)
{
	free(b->s);
	b->s = NULL;
	b->n = b->cap = 0;
}
