/* lex.c -- the PTX tokenizer: names, directives/modifiers, numbers
 * (decimal, 0x, 0b, octal, 0f/0d float bits, decimal floats), strings
 * and punctuation; comments and whitespace are skipped. */
#include <stdlib.h>
#include <string.h>

#include "ptx/ptxint.h"

void
lex_error(Lex *l, size_t pos, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdiag_at(l->src, pos, fmt, ap);
	va_end(ap);
	longjmp(*l->fail, 1);
}

/* character classes (a table: the lexer asks per byte) */
enum { C_IDSTART = 1, C_IDCHAR = 2, C_PUNCT = 4, C_SPACE = 8 };
#define ID (C_IDSTART | C_IDCHAR)
static const u8 cclass[256] = {
	['a'] = ID, ['b'] = ID, ['c'] = ID, ['d'] = ID, ['e'] = ID, ['f'] = ID, ['g'] = ID,
	['h'] = ID, ['i'] = ID, ['j'] = ID, ['k'] = ID, ['l'] = ID, ['m'] = ID, ['n'] = ID,
	['o'] = ID, ['p'] = ID, ['q'] = ID, ['r'] = ID, ['s'] = ID, ['t'] = ID, ['u'] = ID,
	['v'] = ID, ['w'] = ID, ['x'] = ID, ['y'] = ID, ['z'] = ID, ['A'] = ID, ['B'] = ID,
	['C'] = ID, ['D'] = ID, ['E'] = ID, ['F'] = ID, ['G'] = ID, ['H'] = ID, ['I'] = ID,
	['J'] = ID, ['K'] = ID, ['L'] = ID, ['M'] = ID, ['N'] = ID, ['O'] = ID, ['P'] = ID,
	['Q'] = ID, ['R'] = ID, ['S'] = ID, ['T'] = ID, ['U'] = ID, ['V'] = ID, ['W'] = ID,
	['X'] = ID, ['Y'] = ID, ['Z'] = ID, ['_'] = ID, ['$'] = ID, ['0'] = C_IDCHAR,
	['1'] = C_IDCHAR, ['2'] = C_IDCHAR, ['3'] = C_IDCHAR, ['4'] = C_IDCHAR, ['5'] = C_IDCHAR,
	['6'] = C_IDCHAR, ['7'] = C_IDCHAR, ['8'] = C_IDCHAR, ['9'] = C_IDCHAR, ['%'] = C_IDSTART,
	[','] = C_PUNCT, [';'] = C_PUNCT, [':'] = C_PUNCT, ['{'] = C_PUNCT, ['}'] = C_PUNCT,
	['['] = C_PUNCT, [']'] = C_PUNCT, ['('] = C_PUNCT, [')'] = C_PUNCT, ['<'] = C_PUNCT,
	['>'] = C_PUNCT, ['+'] = C_PUNCT, ['-'] = C_PUNCT, ['!'] = C_PUNCT, ['@'] = C_PUNCT,
	['|'] = C_PUNCT, ['='] = C_PUNCT, ['*'] = C_PUNCT, ['/'] = C_PUNCT, ['~'] = C_PUNCT,
	['&'] = C_PUNCT, ['^'] = C_PUNCT, ['?'] = C_PUNCT, [' '] = C_SPACE, ['\t'] = C_SPACE,
	['\n'] = C_SPACE, ['\r'] = C_SPACE, ['\f'] = C_SPACE, ['\v'] = C_SPACE,
};
#undef ID

static int
is_idstart(int c)
{
	return cclass[(uchar)c] & C_IDSTART;
}

static int
is_idchar(int c)
{
	return cclass[(uchar)c] & C_IDCHAR;
}

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Skip whitespace and comments; returns nonzero if anything was skipped. */
static int
skip_space(Lex *l)
{
	const char *s = l->s;
	size_t p = l->p, n = l->n, p0 = l->p;

	for (;;) {
		while (p < n && (cclass[(uchar)s[p]] & C_SPACE))
			p++;
		if (p + 1 < n && s[p] == '/' && s[p + 1] == '/') {
			const char *e = memchr(s + p, '\n', n - p);
			size_t q = e ? (size_t)(e - s) : n;
			const char *z = memchr(s + p, 0, q - p);
			if (z)
				lex_error(l, (size_t)(z - s), "NUL byte in a comment");
			p = q;
			continue;
		}
		if (p + 1 < n && s[p] == '/' && s[p + 1] == '*') {
			size_t q = p + 2;
			while (q + 1 < n && !(s[q] == '*' && s[q + 1] == '/')) {
				if (!s[q])
					lex_error(l, q, "NUL byte in a comment");
				q++;
			}
			if (q + 1 >= n)
				lex_error(l, p, "unterminated comment");
			p = q + 2;
			continue;
		}
		break;
	}
	l->p = p;
	return p != p0;
}

void
lex_skip_line(Lex *l)
{
	const char *e = memchr(l->s + l->p, '\n', l->n - l->p);

	l->p = e ? (size_t)(e - l->s) : l->n;
}

/* The decimal s[p, e) (digits, '.', digits: no exponent) as a double
 * without strtod, when it has at most 15 digits: the digits as an integer
 * m < 2^53 and 10^k (k <= 15 fraction digits) are both exact doubles, so
 * m / 10^k is the correctly rounded quotient -- strtod's answer.  Returns
 * 0 when it cannot say.  Every PTX file has one such number (.version), and
 * musl's strtod keeps an 8 KiB array on the stack: a page fault of its own,
 * the deepest page a compile's stack touches. */
static int
short_decimal(const char *s, size_t p, size_t e, double *dv)
{
	static const double p10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7,
				     1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
	u64 m = 0;
	int nd = 0, k = -1;

	for (; p < e; p++) {
		if (s[p] == '.') {
			k = 0;
			continue;
		}
		if (s[p] < '0' || s[p] > '9' || ++nd > 15)
			return 0;
		m = m * 10 + (u64)(s[p] - '0');
		k += k >= 0;
	}
	*dv = (double)m / p10[k < 0 ? 0 : k];
	return 1;
}

static void
lex_number(Lex *l, Tok *t)
{
	const char *s = l->s;
	size_t p = l->p, n = l->n;
	u64 v = 0;
	int d;

	if (s[p] == '0' && p + 1 < n && (s[p + 1] == 'f' || s[p + 1] == 'F' ||
					 s[p + 1] == 'd' || s[p + 1] == 'D')) {
		int nd = (s[p + 1] == 'f' || s[p + 1] == 'F') ? 8 : 16, i;

		for (i = 0; i < nd; i++) {
			if (p + 2 + i >= n || (d = hexval(s[p + 2 + i])) < 0)
				lex_error(l, p, "float constant needs %d hex digits", nd);
			v = v << 4 | (u64)d;
		}
		p += 2 + nd;
		if (p < n && is_idchar(s[p]))
			lex_error(l, p, "malformed float constant");
		t->kind = TK_FLOAT;
		t->is_f64 = nd == 16;
		t->ival = v;
		l->p = p;
		return;
	}
	if (s[p] == '0' && p + 1 < n && (s[p + 1] == 'x' || s[p + 1] == 'X')) {
		size_t q = p + 2;
		while (q < n && (d = hexval(s[q])) >= 0) {
			if (v >> 60)
				lex_error(l, p, "integer constant too large");
			v = v << 4 | (u64)d;
			q++;
		}
		if (q == p + 2)
			lex_error(l, p, "malformed hex constant");
		p = q;
	} else if (s[p] == '0' && p + 1 < n && (s[p + 1] == 'b' || s[p + 1] == 'B')) {
		size_t q = p + 2;
		while (q < n && (s[q] == '0' || s[q] == '1')) {
			if (v >> 63)
				lex_error(l, p, "integer constant too large");
			v = v << 1 | (u64)(s[q] - '0');
			q++;
		}
		if (q == p + 2)
			lex_error(l, p, "malformed binary constant");
		p = q;
	} else {
		size_t q = p;
		int isfloat = 0;

		while (q < n && s[q] >= '0' && s[q] <= '9')
			q++;
		if (q < n && s[q] == '.' && q + 1 < n && s[q + 1] >= '0' && s[q + 1] <= '9')
			isfloat = 1;
		if (q < n && (s[q] == 'e' || s[q] == 'E'))
			isfloat = 1;
		if (isfloat) {
			char buf[512];
			double dv;
			size_t e = q, m;

			if (s[e] == '.')
				for (e++; e < n && s[e] >= '0' && s[e] <= '9'; e++)
					;
			if (e < n && (s[e] == 'e' || s[e] == 'E')) {
				e++;
				if (e < n && (s[e] == '+' || s[e] == '-'))
					e++;
				if (e >= n || s[e] < '0' || s[e] > '9')
					lex_error(l, p, "malformed float constant");
				while (e < n && s[e] >= '0' && s[e] <= '9')
					e++;
			}
			m = e - p;
			if (m >= sizeof buf)
				lex_error(l, p, "unsupported: float constant longer than 500 characters");
			if (!short_decimal(s, p, e, &dv)) {
				memcpy(buf, s + p, m);
				buf[m] = 0;
				dv = strtod(buf, NULL);
			}
			memcpy(&v, &dv, 8);
			t->kind = TK_FLOAT;
			t->is_f64 = 1;
			t->ival = v;
			l->p = e;
			return;
		}
		if (s[p] == '0') {
			for (q = p + 1; q < n && s[q] >= '0' && s[q] <= '7'; q++) {
				if (v >> 61)
					lex_error(l, p, "integer constant too large");
				v = v << 3 | (u64)(s[q] - '0');
			}
		} else {
			for (q = p; q < n && s[q] >= '0' && s[q] <= '9'; q++) {
				if (v > UINT64_MAX / 10 ||
				    (v == UINT64_MAX / 10 && (u64)(s[q] - '0') > UINT64_MAX % 10))
					lex_error(l, p, "integer constant too large");
				v = v * 10 + (u64)(s[q] - '0');
			}
		}
		p = q;
	}
	if (p < n && s[p] == 'U')
		p++;
	if (p < n && is_idchar(s[p]))
		lex_error(l, p, "malformed number");
	t->kind = TK_INT;
	t->ival = v;
	l->p = p;
}

/* Any token: lex_next's slow path (comments, numbers, strings, the end
 * of the input, errors). */
static __attribute__((noinline)) void
lex_any(Lex *l, Tok *t)
{
	const char *s;
	size_t p, n;
	int c;

	t->space = skip_space(l);
	s = l->s;
	p = l->p;
	n = l->n;
	t->pos = p;
	t->is_f64 = 0;
	t->ival = 0;
	if (p >= n) {
		t->kind = TK_EOF;
		t->len = 0;
		return;
	}
	c = (uchar)s[p];
	if (is_idstart(c)) {
		size_t q = p + 1;
		while (q < n && is_idchar(s[q]))
			q++;
		t->kind = TK_IDENT;
		l->p = q;
	} else if (c == '.' && p + 1 < n && (is_idchar(s[p + 1]))) {
		size_t q = p + 1;
		while (q < n && (is_idchar(s[q]) ||
				 (s[q] == ':' && q + 2 < n && s[q + 1] == ':' && is_idchar(s[q + 2]))))
			q += s[q] == ':' ? 2 : 1;
		t->kind = TK_DOT;
		l->p = q;
	} else if (c >= '0' && c <= '9') {
		lex_number(l, t);
	} else if (c == '"') {
		size_t q = p + 1;
		while (q < n && s[q] != '"' && s[q] != '\n') {
			if (!s[q] || (s[q] == '\\' && q + 1 < n && !s[q + 1]))
				lex_error(l, q, "NUL byte in a string");
			q += (s[q] == '\\' && q + 1 < n) ? 2 : 1;
		}
		if (q >= n || s[q] != '"')
			lex_error(l, p, "unterminated string");
		t->kind = TK_STRING;
		l->p = q + 1;
	} else if (cclass[c] & C_PUNCT) {
		t->kind = TK_PUNCT;
		t->ch = (char)c;
		l->p = p + 1;
	} else if (c >= 32 && c < 127) {
		lex_error(l, p, "unexpected character '%c'", c);
	} else {
		lex_error(l, p, "unexpected byte 0x%02x", c);
	}
	t->len = (u32)(l->p - p);
}

/* A number at q (after the spaces from l->p): a plain decimal of up to 19
 * digits (no overflow), not 0-led unless "0" itself, here; the rest
 * (0x, 0f, octal, floats, a U suffix, errors) by lex_any.  Apart from
 * lex_next: its registers would cost every token a save. */
static __attribute__((noinline)) void
lex_decimal(Lex *l, Tok *t, size_t q)
{
	const char *s = l->s;
	size_t e = q, n = l->n;
	u64 v = 0;

	while (e < n && s[e] >= '0' && s[e] <= '9' && e - q < 19)
		v = v * 10 + (u64)(s[e++] - '0');
	if ((s[q] == '0' && e - q > 1) || (e < n && (s[e] == '.' || is_idchar(s[e])))) {
		lex_any(l, t);
		return;
	}
	t->kind = TK_INT;
	t->space = q != l->p;
	t->pos = q;
	t->is_f64 = 0;
	t->ival = v;
	t->len = (u32)(e - q);
	l->p = e;
}

/* Over s[0..n): stop is one past the text's last punctuation byte other
 * than ':' (nvcc's closing '}'), 0 if none.  No space, name or modifier
 * runs past that byte, so lex_next's loops, for tokens that start before
 * it, need no end test (the text need not be NUL-terminated). */
void
lex_init(Lex *l, const char *s, size_t n)
{
	l->s = s;
	l->n = n;
	l->p = 0;
	while (n > 0 && (!(cclass[(uchar)s[n - 1]] & C_PUNCT) || s[n - 1] == ':'))
		n--;
	l->stop = n;
}

/* The next token.  Most are names, directives/modifiers, punctuation and
 * plain decimals after plain spaces: lexed here, in a function that calls
 * nothing (no registers to save); the rest by lex_any, which starts over. */
void
lex_next(Lex *l, Tok *t)
{
	const char *s = l->s;
	size_t p = l->p, q = p;
	int c;

	if (p >= l->stop) {
		lex_any(l, t);
		return;
	}
	while (cclass[(uchar)s[q]] & C_SPACE)
		q++;
	if ((c = (uchar)s[q]) == '/') {
		lex_any(l, t);
		return;
	}
	if (cclass[c] & C_IDSTART) {
		size_t e = q + 1;
		while (is_idchar(s[e]))
			e++;
		t->kind = TK_IDENT;
		l->p = e;
	} else if (c == '.' && is_idchar(s[q + 1])) {
		size_t e = q + 1;
		while (is_idchar(s[e]) || (s[e] == ':' && s[e + 1] == ':' && is_idchar(s[e + 2])))
			e += s[e] == ':' ? 2 : 1;
		t->kind = TK_DOT;
		l->p = e;
	} else if (cclass[c] & C_PUNCT) {
		t->kind = TK_PUNCT;
		t->ch = (char)c;
		l->p = q + 1;
	} else if (c >= '0' && c <= '9') {
		lex_decimal(l, t, q);
		return;
	} else {
		lex_any(l, t);
		return;
	}
	t->space = q != p;
	t->pos = q;
	t->len = (u32)(l->p - q);
}
