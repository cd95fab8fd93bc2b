/* asm.c -- assemble a cubin listing (what `disasm` prints, edited or
 * not) into a Cubin.  Three passes over the lines:
 *   1. section names, symbol names, and per code section the labels and
 *      instruction count (so references may point forward);
 *   2. the ELF header, section headers, symbols, program headers and the
 *      instructions (encoded through isa_parse, labels via IsaSyms);
 *   3. all other section contents; "auto" attributes are computed from
 *      the code assembled in pass 2.
 * Errors are "file:line:col: error: ..." with the line and a caret. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cubin/asmint.h"
#include "cubin/elfio.h"

int
asm_error(Asm *s, const char *at, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdiag_at(&s->src, (size_t)(at - s->src.text), fmt, ap);
	va_end(ap);
	s->errors++;
	return -1;
}

/* ---- tokens ---- */

static const char *
skipws(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t' || *p == '\r'))
		p++;
	return p;
}

/* Next token of the line into t; quoted strings are unescaped. Returns 0
 * at the end of the line, 1 for a token, -1 on a malformed string. */
int
asm_tok(Asm *s, const char **pp, const char *e, Tok *t)
{
	const char *p = skipws(*pp, e);

	t->at = p;
	t->n = 0;
	t->quoted = 0;
	if (p >= e || (p + 1 < e && p[0] == '/' && p[1] == '/'))
		return 0;
	if (*p == '"') {
		t->quoted = 1;
		for (p++; p < e && *p != '"'; p++) {
			int ch = (uchar)*p;

			if (*p == '\\') {
				if (p + 1 >= e)
					break;
				p++;
				if (*p == 'x' && p + 2 < e && isxdigit((uchar)p[1]) && isxdigit((uchar)p[2])) {
					char h[3] = {p[1], p[2], 0};

					ch = (int)strtol(h, NULL, 16);
					p += 2;
				} else if (*p == 'n') {
					ch = '\n';
				} else {
					ch = (uchar)*p;
				}
			}
			if (t->n + 1 < sizeof t->s)
				t->s[t->n++] = (char)ch;
		}
		if (p >= e)
			return asm_error(s, t->at, "unterminated string");
		p++;
	} else {
		while (p < e && *p != ' ' && *p != '\t' && *p != '\r') {
			if (t->n + 1 < sizeof t->s)
				t->s[t->n++] = *p;
			p++;
		}
	}
	t->s[t->n] = 0;
	*pp = p;
	return 1;
}

int
asm_num(Asm *s, const Tok *t, const char *str, i64 lo, u64 hi, u64 *v)
{
	char *end;
	int neg = *str == '-';

	errno = 0;
	if (!*str || !(isdigit((uchar)*str) || (neg && isdigit((uchar)str[1]))))
		return asm_error(s, t->at, "expected a number, found '%s'", t->s);
	if (neg) {
		long long x = strtoll(str, &end, 0);

		if (*end || errno || x < lo)
			return asm_error(s, t->at, "number '%s' is out of range", str);
		*v = (u64)x;
		return 0;
	}
	*v = strtoull(str, &end, 0);
	if (*end || errno || *v > hi)
		return asm_error(s, t->at, "number '%s' is out of range (max 0x%llx)", str, (unsigned long long)hi);
	return 0;
}

/* Split "key=value": returns value or NULL; t->s is cut at '='. */
char *
asm_kv(Tok *t)
{
	char *eq = t->quoted ? NULL : strchr(t->s, '=');

	if (!eq)
		return NULL;
	*eq = 0;
	return eq + 1;
}

static int
name_index(char **names, size_t n, const char *name, int hash_ok)
{
	size_t i;
	int found = -1;

	if (hash_ok && name[0] == '#' && isdigit((uchar)name[1])) {
		char *e;
		unsigned long v = strtoul(name + 1, &e, 10);

		return *e || v >= n ? -1 : (int)v;
	}
	for (i = 0; i < n; i++)
		if (!strcmp(names[i], name)) {
			if (found >= 0)
				return -2;
			found = i;
		}
	return found;
}

int
asm_secref(Asm *s, const Tok *t, const char *str, u32 *v)
{
	int i = name_index(s->secnames.v, s->secnames.n, str, 1);

	if (i == -2)
		return asm_error(s, t->at, "section name '%s' is ambiguous; use #index", str);
	if (i < 0 && !strcmp(str, "0"))
		i = 0;
	if (i < 0)
		return asm_error(s, t->at, "unknown section '%s'", str);
	*v = i;
	return 0;
}

int
asm_symref(Asm *s, const Tok *t, const char *str, u32 *v)
{
	int i = name_index(s->symnames.v, s->symnames.n, str, 1);

	if (i == -2)
		return asm_error(s, t->at, "symbol name '%s' is ambiguous; use #index", str);
	if (i < 0)
		return asm_error(s, t->at, "unknown symbol '%s'", str);
	*v = i;
	return 0;
}

/* A number, or else a symbol reference. */
int
asm_num_or_sym(Asm *s, const Tok *t, u64 max, u64 *v)
{
	u32 k = 0;

	if (!t->quoted && (isdigit((uchar)t->s[0]) || t->s[0] == '-'))
		return asm_num(s, t, t->s, -(i64)0x80000000, max, v);
	if (asm_symref(s, t, t->s, &k) < 0)
		return -1;
	*v = k;
	return 0;
}

/* ---- pass 1: names and labels ---- */

static void
pass1_line(Asm *s, const char *p, const char *e)
{
	Tok t;
	const char *q = p;

	if (asm_tok(s, &q, e, &t) <= 0)
		return;
	if (!t.quoted && !strcmp(t.s, ".section")) {
		if (asm_tok(s, &q, e, &t) <= 0) {
			asm_error(s, t.at, "expected a section name");
			return;
		}
		vec_push(&s->secnames, xstrdup(t.s));
		s->cur = s->secnames.n - 1;
		s->code = 0;
		while (asm_tok(s, &q, e, &t) > 0)
			if (!strcmp(t.s, "flags") || !strncmp(t.s, "flags=", 6)) {
				char *v = asm_kv(&t);
				s->code = v && (strtoull(v, NULL, 0) & SHF_EXECINSTR);
			}
		vec_push(&s->ninsn, 0);
		return;
	}
	if (!t.quoted && !strcmp(t.s, ".sym")) {
		if (asm_tok(s, &q, e, &t) <= 0) {
			asm_error(s, t.at, "expected a symbol name");
			return;
		}
		vec_push(&s->symnames, xstrdup(t.s));
		return;
	}
	if (!s->code || (t.n && t.s[0] == '.' && t.s[t.n - 1] != ':'))
		return;
	if (t.n && t.s[t.n - 1] == ':' && !t.quoted) {
		Label l;

		l.sec = s->cur;
		l.addr = 16 * (u64)s->ninsn.v[s->cur];
		t.s[t.n - 1] = 0;
		l.name = xstrdup(t.s);
		vec_push(&s->labels, l);
		return;
	}
	s->ninsn.v[s->cur]++;
}

/* Run fn over every line of the text, tracking the current section. */
static void
each_line(Asm *s, void (*fn)(Asm *, const char *, const char *))
{
	const char *p = s->src.text, *end = p + s->src.len;

	s->cur = 0;
	s->code = 0;
	s->cursec = 0;
	while (p < end) {
		const char *e = memchr(p, '\n', end - p);

		if (!e)
			e = end;
		fn(s, p, e);
		p = e + 1;
	}
}

static void
free_state(Asm *s)
{
	size_t i;

	for (i = 0; i < s->secnames.n; i++)
		free(s->secnames.v[i]);
	for (i = 0; i < s->symnames.n; i++)
		free(s->symnames.v[i]);
	for (i = 0; i < s->labels.n; i++)
		free(s->labels.v[i].name);
	for (i = 0; i < s->data.n; i++)
		buf_free(&s->data.v[i]);
	vec_free(&s->secnames);
	vec_free(&s->symnames);
	vec_free(&s->labels);
	vec_free(&s->ninsn);
	vec_free(&s->regs_auto);
	vec_free(&s->data);
}

int
cubin_asm(Cubin *c, const char *path, const char *text, size_t len)
{
	Asm s = {0};
	size_t i;
	Buf zero = {0};

	cubin_init(c);
	s.c = c;
	s.src.path = path;
	s.src.text = text;
	s.src.len = len;
	vec_push(&s.secnames, xstrdup(""));
	vec_push(&s.ninsn, 0);
	each_line(&s, pass1_line);
	for (i = 0; i < s.secnames.n; i++)
		vec_push(&s.data, zero);
	if (!s.errors)
		each_line(&s, asm_pass2_line);
	if (!s.errors)
		each_line(&s, asm_pass3_line);
	if (!s.errors)
		asm_finish(&s);
	free_state(&s);
	return s.errors ? -1 : 0;
}
