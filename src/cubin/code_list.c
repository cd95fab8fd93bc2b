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
		snprintf(l->name, sizeof l->name, ".L_x_%zu", i);
		return l->name;
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

/* Would `as` give back exactly w from this text and its control comment?
 * If not (an ISA table gap), the caller lists the raw word instead. */
static int
reencodes(const Arch *a, Word w, Word h, u64 addr, const IsaSyms *syms, const char *text)
{
	Word x = {0, 0};
	Ctrl c = ctrl_get(w);
	char err[256];
	size_t pos;

	if (isa_parse(a, text, addr, syms, &x, err, sizeof err, &pos) < 0)
		return 0;
	c.reuse = ctrl_get(x).reuse;
	x = ctrl_set(x, c);
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

/* The address column of a line: 8 spaces, slash-star, at least four hex
 * digits (as %04llx), star-slash, 3 spaces. */
static void
put_addr(Buf *b, u64 addr)
{
	char t[48], *p = t + sizeof t;

	*--p = ' ', *--p = ' ', *--p = ' ', *--p = '/', *--p = '*';
	do
		*--p = "0123456789abcdef"[addr & 15];
	while ((addr >>= 4) || p > t + sizeof t - 9);
	*--p = '*', *--p = '/';
	memset(p - 8, ' ', 8);
	p -= 8;
	buf_putn(b, p, (size_t)(t + sizeof t - p));
}

void
list_code(const Cubin *c, const Arch *a, size_t sec, const ListOpts *o, Buf *b)
{
	const CSection *s = &c->sec.v[sec];
	Labels l = {0};
	IsaSyms syms = {label_of, addr_of, &l};
	Buf t = {0}, first = {0};
	u64 addr;
	size_t k = 0, *off = NULL;
	signed char *known1 = NULL;

	l.size = s->size;
	l.c = c;
	l.sec = sec;
	collect_funcs(&l);
	if (a && !o->raw) {
		/* the first pass finds the labels; an instruction's text names no
		   label unless the callback saw an address in the section, so
		   the others keep their text (off, known1) for the second */
		size_t ni = s->size / 16, i = 0;
		off = xcalloc(ni + 1, sizeof *off);
		known1 = xcalloc(ni + 1, 1);
		l.collect = 1;
		for (addr = 0; addr < s->size; addr += 16, i++) {
			size_t hits = l.hits, at = first.n;
			int r = isa_print(a, word_at(s->data + addr), addr, &syms, &first);
			if (l.hits != hits) {
				first.n = at;
				r = 2;  /* print again */
			}
			buf_putc(&first, 0);
			off[i] = at;
			known1[i] = (signed char)r;
		}
		l.collect = 0;
		if (l.n) {
			size_t j = 0;

			qsort(l.addr, l.n, sizeof *l.addr, cmp_u64);
			for (i = 0; i < l.n; i++)
				if (!j || l.addr[j - 1] != l.addr[i])
					l.addr[j++] = l.addr[i];
			l.n = j;
		}
	}
	for (addr = 0; addr < s->size; addr += 16) {
		Word w = word_at(s->data + addr), hid = {0, 0};
		int known = -1;

		symbol_labels(&l, addr, b);
		if (k < l.n && l.addr[k] == addr)
			buf_printf(b, ".L_x_%zu:\n", k++);
		t.n = 0;
		if (t.s)
			t.s[0] = 0;
		if (a && !o->raw) {
			size_t i = addr / 16;
			if (known1[i] == 2)
				known = isa_print(a, w, addr, &syms, &t);
			else {
				buf_puts(&t, first.s + off[i]);
				known = known1[i];
			}
			if (known == 0)
				hid = isa_hidden(a, w);
			if (known == 0 && !reencodes(a, w, hid, addr, &syms, t.s)) {
				char *txt = xstrdup(t.s);

				t.n = 0;
				buf_printf(&t, "UNKNOWN 0x%016llx, 0x%016llx ;   // %s", (unsigned long long)w.lo,
					   (unsigned long long)w.hi, txt);
				free(txt);
				known = -2;
			}
		} else
			buf_printf(&t, "UNKNOWN 0x%016llx, 0x%016llx", (unsigned long long)w.lo,
				   (unsigned long long)w.hi);
		put_addr(b, addr);
		buf_puts(b, t.s);
		if (known != -2)
			buf_puts(b, " ;");
		if (known == 0 && !o->no_ctrl) {
			t.n = 0;
			ctrl_print(ctrl_get(w), &t);
			isa_print_hidden(hid, &t);
			buf_puts(b, "   /* ");
			buf_puts(b, t.s);
			buf_puts(b, " */");
		}
		buf_putc(b, '\n');
	}
	buf_free(&t);
	buf_free(&first);
	free(off);
	free(known1);
	free(l.addr);
	free(l.fn);
}
