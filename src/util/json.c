/* json.c -- a small, strict JSON parser into an arena (see json.h).
 * Recursive descent over the text with a depth limit; every error is
 * reported once with diag_at() and unwinds by returning NULL. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"

typedef struct {
	Arena *a;
	const Src *src;
	const char *s;
	size_t n, i;
	int depth;
} P;

static Json *value(P *p);

static Json *
fail(P *p, size_t pos, const char *msg)
{
	diag_at(p->src, pos, "%s", msg);
	return NULL;
}

static void
skipws(P *p)
{
	while (p->i < p->n && strchr(" \t\r\n", p->s[p->i]) && p->s[p->i])
		p->i++;
}

static Json *
node(P *p, JsonKind k, size_t pos)
{
	Json *j = arena_alloc(p->a, sizeof *j);

	j->kind = k;
	j->pos = pos;
	return j;
}

static int
hex4(P *p, size_t at, unsigned *u)
{
	size_t k;

	*u = 0;
	if (at + 4 > p->n)
		return 0;
	for (k = 0; k < 4; k++) {
		char c = p->s[at + k];
		int d = c >= '0' && c <= '9' ? c - '0'
		      : c >= 'a' && c <= 'f' ? c - 'a' + 10
		      : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0)
			return 0;
		*u = *u << 4 | (unsigned)d;
	}
	return 1;
}

static void
put_utf8(Buf *b, unsigned c)
{
	if (c < 0x80) {
		buf_putc(b, (char)c);
	} else if (c < 0x800) {
		buf_putc(b, (char)(0xC0 | c >> 6));
		buf_putc(b, (char)(0x80 | (c & 0x3F)));
	} else if (c < 0x10000) {
		buf_putc(b, (char)(0xE0 | c >> 12));
		buf_putc(b, (char)(0x80 | (c >> 6 & 0x3F)));
		buf_putc(b, (char)(0x80 | (c & 0x3F)));
	} else {
		buf_putc(b, (char)(0xF0 | c >> 18));
		buf_putc(b, (char)(0x80 | (c >> 12 & 0x3F)));
		buf_putc(b, (char)(0x80 | (c >> 6 & 0x3F)));
		buf_putc(b, (char)(0x80 | (c & 0x3F)));
	}
}

/* A \u escape at p->i (pointing at the backslash), with surrogate pairs. */
static int
uescape(P *p, Buf *b)
{
	size_t at = p->i;
	unsigned u, lo;

	if (!hex4(p, at + 2, &u))
		return fail(p, at, "bad \\u escape: want four hex digits"), 0;
	p->i += 6;
	if (u >= 0xDC00 && u <= 0xDFFF)
		return fail(p, at, "lone low surrogate in \\u escape"), 0;
	if (u >= 0xD800 && u <= 0xDBFF) {
		if (p->i + 1 >= p->n || p->s[p->i] != '\\' || p->s[p->i + 1] != 'u' ||
		    !hex4(p, p->i + 2, &lo) || lo < 0xDC00 || lo > 0xDFFF)
			return fail(p, at, "high surrogate not followed by a low one"), 0;
		p->i += 6;
		u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
	}
	put_utf8(b, u);
	return 1;
}

/* Length of the well-formed UTF-8 sequence at s[0..n), or 0 (overlong
 * forms, surrogates and code points above U+10FFFF are not well formed). */
static size_t
utf8_len(const unsigned char *s, size_t n)
{
	size_t len, k;
	unsigned c;

	if (s[0] >= 0xC2 && s[0] <= 0xDF)
		len = 2, c = s[0] & 0x1F;
	else if (s[0] >= 0xE0 && s[0] <= 0xEF)
		len = 3, c = s[0] & 0x0F;
	else if (s[0] >= 0xF0 && s[0] <= 0xF4)
		len = 4, c = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (k = 1; k < len; k++) {
		if ((s[k] & 0xC0) != 0x80)
			return 0;
		c = c << 6 | (s[k] & 0x3F);
	}
	if ((len == 3 && (c < 0x800 || (c >= 0xD800 && c <= 0xDFFF))) ||
	    (len == 4 && (c < 0x10000 || c > 0x10FFFF)))
		return 0;
	return len;
}

/* A string at p->i (the opening quote); decoded into the arena. */
static const char *
string(P *p, size_t *len)
{
	size_t start = p->i;
	Buf b = {0};
	const char *esc = "\"\\/bfnrt", *rep = "\"\\/\b\f\n\r\t";
	const char *r;

	p->i++;
	for (;;) {
		unsigned char c;

		if (p->i >= p->n) {
			fail(p, start, "unterminated string");
			goto bad;
		}
		c = (unsigned char)p->s[p->i];
		if (c == '"')
			break;
		if (c < 0x20) {
			fail(p, p->i, "control character in string (escape it)");
			goto bad;
		}
		if (c >= 0x80) {
			size_t u = utf8_len((const unsigned char *)p->s + p->i, p->n - p->i);
			if (!u) {
				fail(p, p->i, "invalid UTF-8 in string");
				goto bad;
			}
			buf_putn(&b, p->s + p->i, u);
			p->i += u;
			continue;
		}
		if (c != '\\') {
			buf_putc(&b, (char)c);
			p->i++;
			continue;
		}
		if (p->i + 1 >= p->n) {
			fail(p, start, "unterminated string");
			goto bad;
		}
		if (p->s[p->i + 1] == 'u') {
			if (!uescape(p, &b))
				goto bad;
			continue;
		}
		if (!p->s[p->i + 1] || !(r = strchr(esc, p->s[p->i + 1]))) {
			fail(p, p->i, "bad escape in string");
			goto bad;
		}
		buf_putc(&b, rep[r - esc]);
		p->i += 2;
	}
	p->i++;
	*len = b.n;
	{
		char *s = arena_alloc(p->a, b.n + 1);
		if (b.n)
			memcpy(s, b.s, b.n);
		buf_free(&b);
		return s;
	}
bad:
	buf_free(&b);
	return NULL;
}

static int
isdig(P *p, size_t i)
{
	return i < p->n && p->s[i] >= '0' && p->s[i] <= '9';
}

static Json *
number(P *p)
{
	size_t start = p->i, i = p->i;
	Json *j;
	char *t;

	if (i < p->n && p->s[i] == '-')
		i++;
	if (!isdig(p, i))
		return fail(p, start, "bad number");
	if (p->s[i] == '0' && isdig(p, i + 1))
		return fail(p, start, "leading zero in number");
	while (isdig(p, i))
		i++;
	if (i < p->n && p->s[i] == '.') {
		if (!isdig(p, ++i))
			return fail(p, start, "bad number: digit expected after '.'");
		while (isdig(p, i))
			i++;
	}
	if (i < p->n && (p->s[i] == 'e' || p->s[i] == 'E')) {
		i++;
		if (i < p->n && (p->s[i] == '+' || p->s[i] == '-'))
			i++;
		if (!isdig(p, i))
			return fail(p, start, "bad number: digit expected in exponent");
		while (isdig(p, i))
			i++;
	}
	j = node(p, J_NUM, start);
	t = arena_strndup(p->a, p->s + start, i - start);
	j->text = t;
	j->len = i - start;
	j->num = strtod(t, NULL);
	if (!isfinite(j->num))
		return fail(p, start, "number out of range");
	p->i = i;
	return j;
}

static Json *
literal(P *p, const char *word, JsonKind k, int b)
{
	size_t len = strlen(word);
	Json *j;

	if (p->n - p->i < len || memcmp(p->s + p->i, word, len))
		return fail(p, p->i, "unexpected character: want a JSON value");
	j = node(p, k, p->i);
	j->b = b;
	p->i += len;
	return j;
}

static Json *
array(P *p)
{
	Json *j = node(p, J_ARR, p->i), *e;
	VEC(Json *) v = {0};

	p->i++;
	skipws(p);
	if (p->i < p->n && p->s[p->i] == ']') {
		p->i++;
		return j;
	}
	for (;;) {
		if (!(e = value(p)))
			goto bad;
		vec_push(&v, e);
		skipws(p);
		if (p->i < p->n && p->s[p->i] == ',') {
			p->i++;
			continue;
		}
		if (p->i < p->n && p->s[p->i] == ']')
			break;
		fail(p, p->i, "expected ',' or ']' in array");
		goto bad;
	}
	p->i++;
	j->n = v.n;
	j->elem = arena_alloc(p->a, v.n * sizeof *j->elem);
	memcpy(j->elem, v.v, v.n * sizeof *j->elem);
	vec_free(&v);
	return j;
bad:
	vec_free(&v);
	return NULL;
}

static Json *
object(P *p)
{
	Json *j = node(p, J_OBJ, p->i), *e;
	VEC(Json *) v = {0};
	VEC(const char *) k = {0};
	VEC(size_t) kp = {0};
	size_t i, len, at;
	const char *name;

	p->i++;
	skipws(p);
	if (p->i < p->n && p->s[p->i] == '}') {
		p->i++;
		return j;
	}
	for (;;) {
		skipws(p);
		at = p->i;
		if (p->i >= p->n || p->s[p->i] != '"') {
			fail(p, p->i, "expected a string key in object");
			goto bad;
		}
		if (!(name = string(p, &len)))
			goto bad;
		if (strlen(name) != len) {
			fail(p, at, "NUL character in object key");
			goto bad;
		}
		for (i = 0; i < k.n; i++)
			if (!strcmp(k.v[i], name)) {
				diag_at(p->src, at, "duplicate key \"%s\"", name);
				goto bad;
			}
		skipws(p);
		if (p->i >= p->n || p->s[p->i] != ':') {
			fail(p, p->i, "expected ':' after object key");
			goto bad;
		}
		p->i++;
		if (!(e = value(p)))
			goto bad;
		vec_push(&k, name);
		vec_push(&kp, at);
		vec_push(&v, e);
		skipws(p);
		if (p->i < p->n && p->s[p->i] == ',') {
			p->i++;
			continue;
		}
		if (p->i < p->n && p->s[p->i] == '}')
			break;
		fail(p, p->i, "expected ',' or '}' in object");
		goto bad;
	}
	p->i++;
	j->n = v.n;
	j->elem = arena_alloc(p->a, v.n * sizeof *j->elem);
	j->key = arena_alloc(p->a, v.n * sizeof *j->key);
	j->keypos = arena_alloc(p->a, v.n * sizeof *j->keypos);
	memcpy(j->elem, v.v, v.n * sizeof *j->elem);
	memcpy(j->key, k.v, v.n * sizeof *j->key);
	memcpy(j->keypos, kp.v, v.n * sizeof *j->keypos);
	vec_free(&v), vec_free(&k), vec_free(&kp);
	return j;
bad:
	vec_free(&v), vec_free(&k), vec_free(&kp);
	return NULL;
}

static Json *
value(P *p)
{
	Json *j;
	size_t at;

	skipws(p);
	if (p->i >= p->n)
		return fail(p, p->i, "unexpected end of input: want a JSON value");
	if (p->depth >= JSON_MAXDEPTH)
		return fail(p, p->i, "nested too deeply");
	at = p->i;
	switch (p->s[p->i]) {
	case '{':
		p->depth++;
		j = object(p);
		p->depth--;
		return j;
	case '[':
		p->depth++;
		j = array(p);
		p->depth--;
		return j;
	case '"':
		j = node(p, J_STR, at);
		if (!(j->text = string(p, &j->len)))
			return NULL;
		return j;
	case 't':
		return literal(p, "true", J_BOOL, 1);
	case 'f':
		return literal(p, "false", J_BOOL, 0);
	case 'n':
		return literal(p, "null", J_NULL, 0);
	default:
		if (p->s[p->i] == '-' || (p->s[p->i] >= '0' && p->s[p->i] <= '9'))
			return number(p);
		return fail(p, p->i, "unexpected character: want a JSON value");
	}
}

Json *
json_parse(Arena *a, const Src *src)
{
	P p = {a, src, src->text, src->len, 0, 0};
	Json *j = value(&p);

	if (!j)
		return NULL;
	skipws(&p);
	if (p.i < p.n)
		return fail(&p, p.i, "unexpected text after the JSON value");
	return j;
}

Json *
json_get(const Json *obj, const char *key)
{
	size_t i;

	if (!obj || obj->kind != J_OBJ)
		return NULL;
	for (i = 0; i < obj->n; i++)
		if (!strcmp(obj->key[i], key))
			return obj->elem[i];
	return NULL;
}

const char *
json_kind_name(JsonKind k)
{
	static const char *names[] = {"null", "boolean", "number", "string", "array", "object"};

	return k < NELEM(names) ? names[k] : "?";
}

static int
plain_int(const Json *j)
{
	return !strpbrk(j->text, ".eE");
}

int
json_i64(const Json *j, i64 *v)
{
	char *end;
	long long x;

	if (!j || j->kind != J_NUM)
		return 0;
	if (plain_int(j)) {
		errno = 0;
		x = strtoll(j->text, &end, 10);
		if (errno || *end)
			return 0;
		*v = x;
		return 1;
	}
	if (j->num != floor(j->num) || fabs(j->num) > 9007199254740992.0)
		return 0;
	*v = (i64)j->num;
	return 1;
}

int
json_u64(const Json *j, u64 *v)
{
	char *end;
	unsigned long long x;

	if (!j || j->kind != J_NUM)
		return 0;
	if (plain_int(j)) {
		if (j->text[0] == '-')
			return 0;
		errno = 0;
		x = strtoull(j->text, &end, 10);
		if (errno || *end)
			return 0;
		*v = x;
		return 1;
	}
	if (j->num != floor(j->num) || j->num < 0 || j->num > 9007199254740992.0)
		return 0;
	*v = (u64)j->num;
	return 1;
}
