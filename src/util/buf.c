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
	buf_putn(b, &c, 1);
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
