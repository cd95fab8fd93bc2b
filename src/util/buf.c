/* buf.c -- growable NUL-terminated string buffer. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

void
buf_grow(Buf *b, size_t extra)
{
	if (b->n + extra + 1 <= b->cap)
		return;
	b->cap = MAX(2 * b->cap, b->n + extra + 1);
	if (b->cap < 64)
		b->cap = 64;
	b->s = xrealloc(b->s, b->cap);
}

/* Decimal and lowercase hex (no prefix) without printf: the compiler
 * renders every register name and immediate through these. */
void
buf_putu(Buf *b, u64 v)
{
	char t[24], *p = t + sizeof t;

	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	buf_putn(b, p, (size_t)(t + sizeof t - p));
}

void
buf_putd(Buf *b, i64 v)
{
	if (v < 0)
		buf_putc(b, '-');
	buf_putu(b, v < 0 ? -(u64)v : (u64)v);
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

/* A conversion the fast formatter takes: flags '-' and '0', a width, the
 * length modifiers hh h l ll z, and d i u x X c s %.  Anything else
 * (precision, '*', '#', '+', ' ', floats, %p, %n ...) goes to vsnprintf. */
typedef struct {
	int left, zero, len; /* len: 'H' hh, 'h', 'l', 'L' ll, 'z', 0 */
	unsigned width;
	char conv;
} Spec;

static int
conv_ok(char c)
{
	switch (c) {
	case 'd': case 'i': case 'u': case 'x': case 'X': case 'c': case 's': case '%':
		return 1;
	}
	return 0;
}

/* Parses the conversion after a '%'; returns its end, or NULL. */
static const char *
spec(const char *f, Spec *sp)
{
	sp->left = sp->zero = sp->len = 0;
	sp->width = 0;
	for (;; f++)
		if (*f == '-')
			sp->left = 1;
		else if (*f == '0')
			sp->zero = 1;
		else
			break;
	while (*f >= '0' && *f <= '9' && sp->width < 4096)
		sp->width = sp->width * 10 + (unsigned)(*f++ - '0');
	if (*f == 'h')
		sp->len = *++f == 'h' ? (f++, 'H') : 'h';
	else if (*f == 'l')
		sp->len = *++f == 'l' ? (f++, 'L') : 'l';
	else if (*f == 'z')
		sp->len = 'z', f++;
	if (!conv_ok(*f) || ((sp->len || sp->zero) && (*f == 'c' || *f == 's' || *f == '%')) ||
	    (*f == '%' && (sp->left || sp->width)))
		return NULL;
	sp->conv = *f;
	return f + 1;
}

/* The next '%' of f, or its end (strchr costs more on these short runs). */
static const char *
next_pct(const char *f)
{
	while (*f && *f != '%')
		f++;
	return f;
}

/* n bytes of p padded to the spec's width (zeros after a sign for numbers). */
static void
put_padded(Buf *b, const Spec *sp, const char *p, size_t n, int num)
{
	size_t pad = sp->width > n ? sp->width - n : 0;

	if (!pad) {   /* the common case: no width */
		buf_putn(b, p, n);
		return;
	}
	buf_grow(b, n + pad);
	if (!sp->left && sp->zero && num) {
		if (n && *p == '-')
			b->s[b->n++] = '-', p++, n--;
		memset(b->s + b->n, '0', pad);
		b->n += pad;
	} else if (!sp->left) {
		memset(b->s + b->n, ' ', pad);
		b->n += pad;
	}
	memcpy(b->s + b->n, p, n);
	b->n += n;
	if (sp->left) {
		memset(b->s + b->n, ' ', pad);
		b->n += pad;
	}
	b->s[b->n] = 0;
}

static void
put_num(Buf *b, const Spec *sp, va_list *ap)
{
	char t[24], *p = t + sizeof t;
	const char *dig = sp->conv == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
	int sgn = sp->conv == 'd' || sp->conv == 'i', neg = 0;
	u64 u;

	if (sp->len == 'L')
		u = va_arg(*ap, unsigned long long);
	else if (sp->len == 'l')
		u = sgn ? (u64)(i64)va_arg(*ap, long) : va_arg(*ap, unsigned long);
	else if (sp->len == 'z')
		u = sgn ? (u64)(i64)va_arg(*ap, ptrdiff_t) : va_arg(*ap, size_t);
	else {
		unsigned v = va_arg(*ap, unsigned);

		v = sp->len == 'H' ? (unsigned char)v : sp->len == 'h' ? (unsigned short)v : v;
		u = !sgn ? v : sp->len == 'H' ? (u64)(i64)(signed char)v : sp->len == 'h' ?
			(u64)(i64)(short)v : (u64)(i64)(int)v;
	}
	if (sgn && (i64)u < 0)
		neg = 1, u = -u;
	if (sp->conv == 'x' || sp->conv == 'X')
		do
			*--p = dig[u & 15];
		while (u >>= 4);
	else
		do
			*--p = (char)('0' + u % 10);
		while (u /= 10);
	if (neg)
		*--p = '-';
	put_padded(b, sp, p, (size_t)(t + sizeof t - p), 1);
}

/* printf's text without vsnprintf (the listing and the compiler print
 * thousands of small numbers); 0 at the first conversion spec does not
 * take (b then holds part of the text). */
static int
format(Buf *b, const char *f, va_list *ap)
{
	Spec sp;
	const char *pc, *s;
	char ch;

	while (*(pc = next_pct(f))) {
		buf_putn(b, f, (size_t)(pc - f));
		if (!(f = spec(pc + 1, &sp)))
			return 0;
		switch (sp.conv) {
		case '%':
			buf_putc(b, '%');
			break;
		case 'c':
			ch = (char)va_arg(*ap, int);
			put_padded(b, &sp, &ch, 1, 0);
			break;
		case 's':
			s = va_arg(*ap, const char *);
			s = s ? s : "(null)";
			put_padded(b, &sp, s, strlen(s), 0);
			break;
		default:
			put_num(b, &sp, ap);
		}
	}
	buf_putn(b, f, (size_t)(pc - f));
	return 1;
}

void
buf_vprintf(Buf *b, const char *fmt, va_list ap)
{
	size_t n0 = b->n;
	va_list ap2;
	int n;

	va_copy(ap2, ap);
	n = format(b, fmt, &ap2);
	va_end(ap2);
	if (n)
		return;
	b->n = n0;   /* a conversion format does not take: all of it by vsnprintf */
	/* one pass when the text fits in the room left, a second one after
	   growing the buffer otherwise */
	va_copy(ap2, ap);
	n = b->cap > b->n ? vsnprintf(b->s + b->n, b->cap - b->n, fmt, ap2) : vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		die("buf_vprintf: bad format %s", fmt);
	if ((size_t)n >= b->cap - b->n || b->cap <= b->n) {
		buf_grow(b, (size_t)n);
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

int
str_vprintf(char *d, size_t n, const char *fmt, va_list ap)
{
	Buf t = {0};
	size_t k, len;

	buf_vprintf(&t, fmt, ap);
	len = t.n;
	if (n) {
		k = MIN(len, n - 1);   /* as snprintf: cut, NUL-ended */
		memcpy(d, t.s, k);
		d[k] = 0;
	}
	buf_free(&t);
	return (int)len;
}

int
str_printf(char *d, size_t n, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = str_vprintf(d, n, fmt, ap);
	va_end(ap);
	return r;
}

void
buf_free(Buf *b)
{
	free(b->s);
	b->s = NULL;
	b->n = b->cap = 0;
}
