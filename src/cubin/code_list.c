/* code_list.c -- print a code section as SASS lines
 *         (slash-star)0040(star-slash)   IMAD R4, R5, R20, RZ ;   (slash-star) [B------:R-:W-:Y:S05] (star-slash)
 * with labels at branch targets (found by a first printing pass through
 * the IsaSyms hook): a function symbol's name where one starts there (so
 * calls read CALL.REL.NOINC `($k$helper)), else ".L_x_N". */
#include <stdlib.h>
#include <string.h>

#include "cubin/elfio.h"
#include "cubin/listing.h"

typedef struct {
	u64 *addr;     /* sorted label addresses */
	size_t n, cap;
	int collect;
	u64 size;
	char name[32];
	const Cubin *c;
	size_t sec;
	u64 *fn;       /* function symbols of the section: (value << 24 | index), sorted */
	size_t nfn;
	size_t hits;   /* collecting: the label callback named an address in the section */
} Labels;

static int
cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* Index of the first element of a sorted array >= key. */
static size_t
lower(const u64 *v, size_t n, u64 key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int
plain(const char *s)
{
	if (!*s || *s == '.' || (*s >= '0' && *s <= '9'))
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      *s == '_' || *s == '$' || *s == '@'))
			return 0;
	return 1;
}

/* The plainly named function symbol starting at addr in this section. */
static const char *
func_at(const Labels *l, u64 addr)
{
	size_t i;

	for (i = lower(l->fn, l->nfn, addr << 24); i < l->nfn && l->fn[i] >> 24 == addr; i++)
		if (plain(l->c->sym.v[l->fn[i] & 0xffffff].name))
			return l->c->sym.v[l->fn[i] & 0xffffff].name;
	return NULL;
}

static void
collect_funcs(Labels *l)
{
	size_t i;

	for (i = 1; i < l->c->sym.n && i < (1u << 24); i++) {
		const CSymbol *y = &l->c->sym.v[i];

		if (y->shndx == l->sec && (y->info & 15) == STT_FUNC && y->value < (1ull << 40)) {
			if (l->nfn % 64 == 0)
				l->fn = xrealloc(l->fn, (l->nfn + 64) * sizeof *l->fn);
			l->fn[l->nfn++] = y->value << 24 | i;
		}
	}
	if (l->nfn)
		qsort(l->fn, l->nfn, sizeof *l->fn, cmp_u64);
}

static const char *
label_of(void *ctx, u64 addr)
{
	Labels *l = ctx;
	size_t i;

	if (addr >= l->size)
		return NULL;
	if (l->collect) { /* duplicates are removed after sorting */
		if (l->n == l->cap) {
			l->cap = l->cap ? 2 * l->cap : 16;
			l->addr = xrealloc(l->addr, l->cap * sizeof *l->addr);
		}
		l->addr[l->n++] = addr;
		l->hits++;
		return "x";
	}
	if (func_at(l, addr))
		return func_at(l, addr);
	i = lower(l->addr, l->n, addr);
	if (i < l->n && l->addr[i] == addr) {
		char *p = l->name + sizeof l->name;

		*--p = 0;
		do
			*--p = (char)('0' + i % 10);
		while (i /= 10);
		return memcpy(p - 5, ".L_x_", 5);
	}
	return NULL;
}

static int
addr_of(void *ctx, const char *name, u64 *addr)
{
	Labels *l = ctx;
	char *e;
	unsigned long k;
	size_t i;

	if (strncmp(name, ".L_x_", 5)) {
		for (i = 0; i < l->nfn; i++)
			if (!strcmp(l->c->sym.v[l->fn[i] & 0xffffff].name, name)) {
				*addr = l->fn[i] >> 24;
				return 0;
			}
		return -1;
	}
	if (strncmp(name, ".L_x_", 5))
		return -1;
	k = strtoul(name + 5, &e, 10);
	if (*e || e == name + 5 || k >= l->n)
		return -1;
	*addr = l->addr[k];
	return 0;
}

/* Would `as` give back exactly w from this text (isa_print's of w) and its
 * control comment?  If not (an ISA table gap), the caller lists the raw
 * word instead.  The compiler's words were parsed from their texts: the
 * print memo then knows the parse's word (ls->parsed, or since the first
 * pass: the parse of an earlier equal word, such as the NOP padding). */
static int
reencodes(const Arch *a, Word w, const IsaListed *ls, u64 addr, const IsaSyms *syms, const char *text)
{
	Word x = ls->x, h = ls->hid;
	u64 ops = (1ull << 41) - 1, reuse = 0x3full << 58;	/* bits 0..104; 122..127 */
	char err[256];
	size_t pos;

	if (!ls->parsed && !isa_print_parsed(a, w, &x) && isa_parse(a, text, addr, syms, &x, err, sizeof err, &pos) < 0)
		return 0;
	/* the control field is w's but for the reuse bits, which the text gives */
	x.hi = (x.hi & (ops | reuse)) | (w.hi & ~(ops | reuse));
	return (x.lo ^ h.lo) == w.lo && (x.hi ^ h.hi) == w.hi;
}

static Word
word_at(const u8 *p)
{
	Word w = {rd64(p), rd64(p + 8)};

	return w;
}

/* Function symbols starting here: a label line (plain names) or a comment. */
static void
symbol_labels(const Labels *l, u64 addr, Buf *b)
{
	size_t i;

	for (i = lower(l->fn, l->nfn, addr << 24); i < l->nfn && l->fn[i] >> 24 == addr; i++) {
		const char *name = l->c->sym.v[l->fn[i] & 0xffffff].name;

		if (plain(name))
			buf_printf(b, "%s:\t// function\n", name);
		else
			buf_printf(b, "\t// function %s\n", name);
	}
}

/* The address column of a line at p: 8 spaces, slash-star, at least four
 * hex digits (as %04llx), star-slash, 3 spaces (31 bytes at most); returns
 * its end. */
static char *
put_addr(char *p, u64 addr)
{
	char t[16], *d = t + sizeof t;
	size_t n;

	do
		*--d = "0123456789abcdef"[addr & 15];
	while ((addr >>= 4) || d > t + sizeof t - 4);
	n = (size_t)(t + sizeof t - d);
	memcpy(p, "        /*", 10);
	memcpy(p + 10, d, n);
	memcpy(p + 10 + n, "*/   ", 5);
	return p + 15 + n;
}

/* One SASS line: the address column, the text (n bytes), " ;" (not after
 * an UNKNOWN's comment: known -2) and, for a known word, its control bits
 * and hidden bits in a comment.  Written in place: the Buf grows once. */
static void
put_line(Buf *b, u64 addr, const char *text, size_t n, int known, int ctrl, Word w, Word hid)
{
	char *p;

	buf_grow(b, 31 + n + 2 + 6 + CTRL_TEXT + 4);
	p = put_addr(b->s + b->n, addr);
	memcpy(p, text, n);
	p += n;
	if (known != -2)
		*p++ = ' ', *p++ = ';';
	if (known == 0 && ctrl) {
		memcpy(p, "   /* ", 6);
		p = ctrl_text(ctrl_get(w), p + 6);
		if (hid.lo || hid.hi) {
			b->n = (size_t)(p - b->s);
			isa_print_hidden(hid, b);
			buf_grow(b, 4);
			p = b->s + b->n;
		}
		memcpy(p, " */", 3);
		p += 3;
	}
	*p++ = '\n';
	*p = 0;
	b->n = (size_t)(p - b->s);
}

/* The first printing pass over a code section: it finds the labels (an
 * instruction's text names no label unless the callback saw an address in
 * the section, so the others keep their text, off and known1, for the
 * second pass).  Made once per section: REGCOUNT's "auto" test reads the
 * same texts (code_text_regcount). */
struct CodeText {
	Labels l;
	Buf first;     /* the texts, NUL-separated */
	size_t *off;   /* each word's text in first (and off[n]: first.n) */
	signed char *known1; /* isa_print's result, 2: names a label, print again */
	IsaListed *ls; /* each word's hidden bits and parsed word */
};

CodeText *
code_text(const Cubin *c, const Arch *a, size_t sec)
{
	const CSection *s = &c->sec.v[sec];
	CodeText *t = xcalloc(1, sizeof *t);
	Labels *l = &t->l;
	IsaSyms syms = {label_of, addr_of, l};
	size_t ni = s->size / 16, i = 0;
	u64 addr;

	l->size = s->size;
	l->c = c;
	l->sec = sec;
	collect_funcs(l);
	t->off = xcalloc(ni + 1, sizeof *t->off);
	t->known1 = xcalloc(ni + 1, 1);
	t->ls = xmalloc((ni + 1) * sizeof *t->ls);
	l->collect = 1;
	for (addr = 0; addr + 16 <= s->size; addr += 16, i++) {
		size_t hits = l->hits, at = t->first.n;
		int r = isa_print_listed(a, word_at(s->data + addr), addr, &syms, &t->first, &t->ls[i]);
		if (l->hits != hits) {
			t->first.n = at;
			r = 2;  /* print again */
		}
		buf_putc(&t->first, 0);
		t->off[i] = at;
		t->known1[i] = (signed char)r;
	}
	t->off[i] = t->first.n;
	l->collect = 0;
	if (l->n) {
		size_t j = 0;

		qsort(l->addr, l->n, sizeof *l->addr, cmp_u64);
		for (i = 0; i < l->n; i++)
			if (!j || l->addr[j - 1] != l->addr[i])
				l->addr[j++] = l->addr[i];
		l->n = j;
	}
	return t;
}

void
code_text_free(CodeText *t)
{
	if (!t)
		return;
	buf_free(&t->first);
	free(t->off);
	free(t->known1);
	free(t->ls);
	free(t->l.addr);
	free(t->l.fn);
	free(t);
}

/* code_regcount of the section, from the first pass's texts: a text that
 * names no label is the one isa_print gives without symbols. */
int
code_text_regcount(const CodeText *t, const Arch *a, const u8 *code)
{
	Buf b = {0};
	u64 i;
	int max = -1, r = 0;

	for (i = 0; i + 16 <= t->l.size; i += 16) {
		const char *txt = t->first.s + t->off[i / 16];

		if ((r = t->known1[i / 16]) == 2) {
			b.n = 0;
			r = isa_print(a, word_at(code + i), i, NULL, &b);
			txt = b.s;
		}
		if (r < 0)
			break;
		max = MAX(max, sass_reg_max(txt));
	}
	buf_free(&b);
	return r < 0 || max < 0 ? -1 : max + 3;
}

/* The SASS lines of the section; t is its first pass (NULL when o->raw
 * or there is no ISA table: every word is listed raw). */
void
list_code_text(const Cubin *c, const Arch *a, size_t sec, CodeText *t, const ListOpts *o, Buf *b)
{
	const CSection *s = &c->sec.v[sec];
	Labels none = {0}, *l = t ? &t->l : &none;
	IsaSyms syms = {label_of, addr_of, l};
	Buf txt = {0};
	u64 addr;
	size_t k = 0;

	if (!t) {
		none.c = c;
		none.sec = sec;
		none.size = s->size;
		collect_funcs(&none);
	}
	for (addr = 0; addr < s->size; addr += 16) {
		Word w = word_at(s->data + addr);
		IsaListed ls = {{0, 0}, 0, {0, 0}};
		const char *line = NULL;	/* the text, when not in txt */
		size_t n = 0;
		int known = -1;

		symbol_labels(l, addr, b);
		if (k < l->n && l->addr[k] == addr)
			put_kv(b, ".L_x_", k++, 0), buf_putn(b, ":\n", 2);
		txt.n = 0;
		if (txt.s)
			txt.s[0] = 0;
		if (t) {
			size_t i = addr / 16;

			ls = t->ls[i];
			if (t->known1[i] == 2)
				known = isa_print(a, w, addr, &syms, &txt);
			else {
				line = t->first.s + t->off[i];
				n = t->off[i + 1] - t->off[i] - 1;
				known = t->known1[i];
			}
			if (known == 0 && !reencodes(a, w, &ls, addr, &syms, line ? line : txt.s)) {
				char *dup = xstrdup(line ? line : txt.s);

				txt.n = 0;
				buf_printf(&txt, "UNKNOWN 0x%016llx, 0x%016llx ;   // %s", (unsigned long long)w.lo,
					   (unsigned long long)w.hi, dup);
				free(dup);
				line = NULL;
				known = -2;
			}
		} else
			buf_printf(&txt, "UNKNOWN 0x%016llx, 0x%016llx", (unsigned long long)w.lo,
				   (unsigned long long)w.hi);
		if (!line)
			line = txt.s, n = txt.n;
		put_line(b, addr, line, n, known, !o->no_ctrl, w, ls.hid);
	}
	buf_free(&txt);
	free(none.fn);
}

void
list_code(const Cubin *c, const Arch *a, size_t sec, const ListOpts *o, Buf *b)
{
	CodeText *t = a && !o->raw ? code_text(c, a, sec) : NULL;

	list_code_text(c, a, sec, t, o, b);
	code_text_free(t);
}
