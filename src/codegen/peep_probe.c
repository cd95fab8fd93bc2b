/* peep_probe.c -- asking the ISA tables about machine-IR instructions:
 * does a text encode, does it print back as itself, and an instruction
 * rendered with placeholder registers and one operand replaced (for
 * peep_fold.c, peep_combine.c, peep_uniform.c and isel's sel_can_encode). */
#include <ctype.h>
#include <string.h>

#include "codegen/peep.h"
#include "isa/isa_impl.h"

/* Does text encode (into *w)?  No message asked for: nothing reads it,
 * and most probes fail (a message is copied per failure). */
static int
encode(const Arch *a, const char *text, Word *w)
{
	return isa_parse(a, text, 0, NULL, w, NULL, 0, NULL) == 0;
}

/* The answers already given, per thread: the passes probe the same texts
 * again and again (each round of peep_fold, each reader of a value), and
 * a text that fails to encode is the dearest to ask (every form of its
 * mnemonic is tried) and is not in isa_parse's memo.  An answer depends on
 * the arch and the text alone (address 0, no symbols), so a text seen
 * before gets the same answer without the tables. */
enum { PSLOTS = 4096, PENTRIES = 2048, PTEXT = 110 };
typedef struct {
	const Arch *a;
	Word w;           /* the encoding, when it encodes */
	u32 hash;
	u8 len;
	u8 enc;           /* it encodes */
	u8 exact;         /* 0 not known, 1 prints back differently, 2 as itself */
	u8 shape;         /* not a parse: the answer (enc) of peep_may_encode
			     (1), peep_may_print_hex (2) or peep_may_start
			     (3) */
	char text[PTEXT];
} Probe;
/* Indexed as peep.h's peep_memo_* say (a median compile makes ~20
 * entries: few[] then); entries are taken in order, so a compile touches
 * the pages it fills, not a page per text; when they run out, all go (a
 * lost answer costs a parse).  In the heap (thread_calloc). */
typedef struct {
	u32 n;
	u16 few[PEEP_FEW];
	Probe e[PENTRIES];
	u16 slot[PSLOTS];
} ProbeTable;
static _Thread_local void *ptable;

static int may_parse(const Arch *a, const char *text);
static int prints_x(const Arch *a, const char *name);
static int may_start(const Arch *a, const char *key);

/* The first slot of a text of hash h, before the modulo. */
static u32
pstart(u32 h)
{
	return h ^ h >> 15;
}

static u32
pstart_of(const void *tab, size_t j)
{
	return pstart(((const ProbeTable *)tab)->e[j].hash);
}

/* The cache entry for text (a hit or a fresh one), or NULL when text is
 * too long to keep; shape: 1 peep_may_encode's question, 2
 * peep_may_print_hex's (text: the mnemonic), 3 peep_may_start's (text:
 * its key), 0 isa_parse's. */
static Probe *
probe(const Arch *a, const char *text, int shape)
{
	ProbeTable *t = thread_calloc(&ptable, sizeof *t);
	size_t n = strlen(text), i, ns;
	u16 *slot = peep_memo_slots(t->few, t->slot, PSLOTS, t->n, &ns);
	u32 h;
	Probe *p;

	if (n >= PTEXT)
		return NULL;
	h = (u32)(isa_text_hash(text, n) >> 32);
	for (i = pstart(h) % ns; slot[i]; i = (i + 1) % ns) {
		p = &t->e[slot[i] - 1];
		if (p->hash == h && p->a == a && p->len == n && p->shape == shape && !memcmp(p->text, text, n))
			return p;
	}
	if (t->n == PENTRIES) {
		memset(t->few, 0, sizeof t->few);
		t->n = 0;
	}
	peep_memo_add(t->few, t->slot, PSLOTS, t->n, pstart(h), t, pstart_of);
	t->n++;
	p = &t->e[t->n - 1];
	p->enc = shape == 3 ? may_start(a, text) : shape == 2 ? prints_x(a, text) : shape ? may_parse(a, text)
									    : encode(a, text, &p->w);
	p->shape = (u8)shape;
	p->exact = 0;
	p->a = a;
	p->hash = h;
	p->len = (u8)n;
	memcpy(p->text, text, n);
	return p;
}

int
peep_encodes(const Arch *a, const char *text)
{
	Word w;
	Probe *p;

	if (!a)
		return 0;
	if ((p = probe(a, text, 0)))
		return p->enc;
	return encode(a, text, &w);
}

/* Does w print back as text? */
static int
prints_as(const Arch *a, Word w, const char *text)
{
	Buf b = {0};
	int ok = isa_print(a, w, 0, NULL, &b) == 0 && b.s && !strcmp(b.s, text);
	buf_free(&b);
	return ok;
}

int
peep_encodes_exact(const Arch *a, const char *text, Word *w)
{
	Probe *p;

	if (!a)
		return 0;
	if ((p = probe(a, text, 0))) {
		if (!p->enc)
			return 0;
		*w = p->w;
		if (!p->exact)
			p->exact = prints_as(a, p->w, text) ? 2 : 1;
		return p->exact == 2;
	}
	if (!encode(a, text, w))
		return 0;
	return prints_as(a, *w, text);
}

/* Can a form of mnemonic name print a lowercase 'x' (as "0x.." of a hex
 * field; or in its template or an enumeration string)?  Registers,
 * decimals and floats never do.  1 also when name is not found.  The
 * forms of a mnemonic share a few enumerations (FFMA: 96 enum fields, 3
 * tables): each table is read once. */
static int
prints_x(const Arch *a, const char *name)
{
	u32 lo, end, seen[16][2];   /* tables read: start, bits */
	u32 i, v, j, ns = 0;

	if (!isa_base_find(a, name, strlen(name), &lo, &end))
		return 1;
	for (; lo < end; lo++) {
		const IsaForm *fm = &a->forms[a->by_base[lo].form];
		if (strchr(fm->tmpl, 'x'))
			return 1;
		for (i = 0; i < fm->nfield; i++) {
			const IsaField *f = &a->fields[fm->field0 + i];
			if (f->kind == FK_HEX || (f->kind == FK_ENUM && f->nbits > 5))
				return 1;   /* (a long enumeration: not worth reading) */
			if (f->kind != FK_ENUM)
				continue;
			for (j = 0; j < ns && (seen[j][0] != f->table || seen[j][1] < f->nbits); j++)
				;
			if (j < ns)
				continue;
			if (ns < 16)
				seen[ns][0] = f->table, seen[ns++][1] = f->nbits;
			for (v = 0; v < 1u << f->nbits; v++)
				if (a->enums[f->table + v] != ENUM_INVALID &&
				    strchr(a->strs[a->enums[f->table + v] & ENUM_ID], 'x'))
					return 1;
		}
	}
	return 0;
}

int
peep_may_print_hex(const Arch *a, const char *text)
{
	char name[64];
	size_t n;
	Probe *p;

	for (n = 0; n + 1 < sizeof name && (isalnum((uchar)text[n]) || text[n] == '_'); n++)
		name[n] = text[n];
	name[n] = 0;
	p = probe(a, name, 2);
	return p ? p->enc : prints_x(a, name);
}

/* The classes (isa/parse.c opclass) an operand spelled by a literal may
 * start with: '-' (4), '0' (5), '1'..'9' (6), '+' (12: "+INF "). */
enum { LIT_CLS = 1 << 4 | 1 << 5 | 1 << 6 | 1 << 12 };

/* isa_parse's first test of a form, isa_quick_ok, without the bytes the
 * form needs: the count of commas and the class of each operand's first
 * byte, an operand PEEP_LIT standing for any literal.  0 when no form of
 * the text's mnemonic passes it: isa_parse then fails, for every literal
 * in that place (the parser tries only those forms, each first through
 * isa_quick_ok, which asks more). */
static int
may_parse(const Arch *a, const char *text)
{
	const char *body = text, *s;
	char pad[512 + 8];	/* isa_quick reads 8 zero bytes past the text */
	size_t n;
	u32 lo, end;
	IsaQuick q;
	u32 k;

	if (*body == ' ' || *body == '\t')
		return 1;   /* the parser skips it: let isa_parse say */
	if (*body == '@') {
		body += strcspn(body, " ");  /* the guard: "@P0 ", "@!P0 " */
		if (!*body++)
			return 1;
	}
	n = strlen(body);
	if (!n || body[n - 1] == ' ' || body[n - 1] == '\t' || n >= sizeof pad - 8)
		return 1;   /* the parser trims it, or refuses it: let isa_parse say */
	memcpy(pad, body, n);
	memset(pad + n, 0, 8);
	isa_quick(pad, &q);
	for (n = 0; isalnum((uchar)body[n]) || body[n] == '_'; n++)
		;
	for (s = body, k = 0; (s = strchr(s, ',')); s++, k++)
		if (k < 16 && s[1] == ' ' && s[2] == PEEP_LIT[0])
			q.cls[k] = LIT_CLS;
	if (!isa_base_find(a, body, n, &lo, &end))
		return 1;   /* not found here: let isa_parse say */
	for (; lo < end; lo++) {
		const IsaTry *t = &a->by_base[lo];
		if (q.commas < t->cmin || q.commas > t->cmax)
			continue;
		for (k = 0; k < q.commas && k < 7; k++)
			if (q.commas - 1 - k < 16 && !(t->opc[k] & q.cls[q.commas - 1 - k]))
				break;
		if (k == q.commas || k == 7)
			return 1;
	}
	return 0;
}

int
peep_may_encode(const Arch *a, const char *text)
{
	Probe *p = probe(a, text, 1);

	return p ? p->enc : may_parse(a, text);
}

/* may_start's question as a key: the mnemonic, a space, then the bytes
 * 1 + the text's comma count, 1 + the commas after the operand (ANY_OPD:
 * any operand after a comma), and the operand's first byte. */
enum { ANY_OPD = 0xff };
static int
may_start(const Arch *a, const char *key)
{
	size_t n = strcspn(key, " ");
	u32 commas = (u8)key[n + 1] - 1u, k = (u8)key[n + 2] - 1u, lo, end, j;
	IsaQuick q;

	if (!isa_base_find(a, key, n, &lo, &end))
		return 1;   /* not found here: let isa_parse say */
	isa_quick((const char[3 + 8]){ ',', ' ', key[n + 3] }, &q);	/* 8 zeros after */
	for (; lo < end; lo++) {
		const IsaTry *t = &a->by_base[lo];
		if (commas < t->cmin || commas > t->cmax)
			continue;
		if ((u8)key[n + 2] != ANY_OPD) {
			if (t->opc[k] & q.cls[0])
				return 1;
			continue;
		}
		for (j = 0; j < commas; j++)
			if (t->opc[j] & q.cls[0])
				return 1;
	}
	return 0;
}

/* The key of may_start's question into key[80]. */
static inline void
start_key(char *key, const char *text, u32 commas, int after, int ch)
{
	size_t n;

	for (n = 0; n + 5 < 80 && (isalnum((uchar)text[n]) || text[n] == '_'); n++)
		key[n] = text[n];
	key[n] = ' ';
	key[n + 1] = (char)(1 + commas);
	key[n + 2] = (char)(after == ANY_OPD ? ANY_OPD : 1 + after);
	key[n + 3] = (char)ch;
	key[n + 4] = 0;
}

int
peep_may_start(const Arch *a, const char *text, int at, int ch)
{
	char key[80];
	u32 commas = 0, after = 0;
	const char *p;
	Probe *pr;

	if (at < 2 || text[at - 2] != ',' || text[at - 1] != ' ' || ch <= ' ' || ch == ',')
		return 1;
	for (p = text; *p; p++)
		if (*p == ',')
			commas++, after += p > text + at;
	/* isa_quick_ok tests the operand after comma commas - 1 - after
	   against opc[after]: the last 7, the first 16 */
	if (after >= 7 || commas - 1 - after >= 16)
		return 1;
	start_key(key, text, commas, (int)after, ch);
	pr = probe(a, key, 3);
	return pr ? pr->enc : may_start(a, key);
}

int
peep_may_start_any(const Arch *a, const char *text, int ch)
{
	char key[80];
	u32 commas = 0;
	const char *p;
	Probe *pr;

	for (p = text; *p; p++)
		commas += *p == ',';
	if (commas > 7 || ch <= ' ' || ch == ',')
		return 1;   /* some operand past isa_quick_ok's last 7 */
	start_key(key, text, commas, ANY_OPD, ch);
	pr = probe(a, key, 3);
	return pr ? pr->enc : may_start(a, key);
}

char *
peep_cat(char *t, const char *s)
{
	size_t n = strlen(s);

	memcpy(t, s, n + 1);
	return t + n;
}

char *
peep_hex(char *t, u32 v)
{
	int n = 1, i;

	while (n < 8 && v >> 4 * n)
		n++;
	for (i = n; i-- > 0; v >>= 4)
		t[i] = "0123456789abcdef"[v & 15];
	t[n] = 0;
	return t + n;
}

char *
peep_cbank(char *t, u32 val)
{
	t = peep_hex(peep_cat(t, "c[0x"), val >> 24);
	t = peep_hex(peep_cat(t, "][0x"), val & 0xffffff);
	return peep_cat(t, "]");
}

/* isspace in the C locale, without its table lookup */
static int
is_space(int c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

int
peep_scan_pre(const char *s, const char *pre, const char **end)
{
	for (; *pre; pre++, s++) {
		if (*s != *pre)
			return *pre == ' ' ? -1 : 0;
		/* a space directive skips any run of white space */
		if (*pre == ' ' && is_space(s[1]))
			return -1;
	}
	*end = s;
	return 1;
}

int
peep_scan_x(const char *s, const char *pre, u32 *x, const char **end)
{
	const char *d;
	u32 v = 0;
	int r = peep_scan_pre(s, pre, &s), n;

	if (r <= 0)
		return r;
	/* %x: white space, a sign, "0x" and capitals are for sscanf */
	for (d = s, n = 0; n <= 8; d++, n++) {
		u32 c = (u32)(uchar)*d - '0', l = ((u32)(uchar)*d | 0x20) - 'a';
		if (c <= 9)
			v = v << 4 | c;
		else if (l <= 5 && *d >= 'a')
			v = v << 4 | (l + 10);
		else
			break;
	}
	if (n > 8 || isxdigit((uchar)*d) || (n == 1 && *s == '0' && (*d | 0x20) == 'x') ||
	    (!n && (is_space(*s) || *s == '+' || *s == '-')))
		return -1;
	if (!n)
		return 0;
	*x = v;
	*end = d;
	return 1;
}

int
peep_hole(const MIns *m, int k)
{
	const char *p;

	/* holes are "\001" and a byte >= 1: a plain byte is never \001
	   (musl's strchr reads a word at a time) */
	for (p = m->text; (p = strchr(p, 1)); p += 2)
		if (p[1] == k + 1)
			return (int)(p - m->text);
	return -1;
}

/* The placeholder of ref j of m at t ("R8", "P1", "UR12", "UP3": j <
 * MI_MAXREF, so at most 4 bytes); returns its end. */
_Static_assert(8 + 4 * (MI_MAXREF - 1) <= 99, "placeholder numbers have two digits");
static char *
put_ref(char *t, const MFunc *f, const MIns *m, int j)
{
	int c = f->vr.v[m->r[j].v].cls, n = c == RC_R || c == RC_UR ? 8 + 4 * j : j % 6;

	if (m->r[j].v == f->rz || m->r[j].v == f->pt) {
		*t++ = m->r[j].v == f->rz ? 'R' : 'P';
		*t++ = m->r[j].v == f->rz ? 'Z' : 'T';
		return t;
	}
	if (c == RC_UR || (c != RC_R && c != RC_P))
		*t++ = 'U';
	*t++ = c == RC_R || c == RC_UR ? 'R' : 'P';
	if (n > 9)
		*t++ = (char)('0' + n / 10);
	*t++ = (char)('0' + n % 10);
	return t;
}

/* Written in place, a byte at a time (a trial is made per probe): the
 * text grows by at most 2 bytes per hole or "\002" and by the guard. */
void
peep_trial(const MFunc *f, const MIns *m, int from, int to, const char *text, Buf *out)
{
	const char *p = m->text, *cut = from >= 0 ? m->text + from : NULL;
	size_t tn = strlen(text);
	char *t;

	buf_grow(out, 3 * strlen(p) + tn + 5);
	t = out->s + out->n;
	if (m->guard >= 0) {
		const char *g = m->guard_neg ? "@!P0 " : "@P0 ";
		memcpy(t, g, strlen(g));
		t += strlen(g);
	}
	for (;;) {
		/* the plain bytes up to the next hole, "\002", cut or end */
		while ((uchar)*p > 2 && p != cut)
			*t++ = *p++;
		if (!*p)
			break;
		if (p == cut) {
			memcpy(t, text, tn);
			t += tn;
			p = m->text + to;
		} else if (*p == 2) {
			memcpy(t, "0x0", 3);
			t += 3;
			p++;
		} else {
			t = put_ref(t, f, m, p[1] - 1);
			p += 2;
		}
	}
	*t = 0;
	out->n = (size_t)(t - out->s);
}

/* Replace text [from, to) of m, which holds hole k, by lit; ref k goes. */
void
peep_inline(MFunc *f, MIns *m, int k, int from, int to, const char *lit)
{
	size_t n = strlen(lit);
	char *t = arena_alloc(f->a, strlen(m->text) + n + 1), *q = t;
	const char *p, *cut = m->text + from;
	int j;

	/* written in place: the text shrinks by [from, to) and grows by lit */
	for (p = m->text;;) {
		/* the bytes up to the next hole, from or the end */
		while ((uchar)*p > 1 && p != cut)
			*q++ = *p++;
		if (!*p)
			break;
		if (p == cut) {
			memcpy(q, lit, n);
			q += n;
			p = m->text + to;
			continue;
		}
		j = p[1] - 1;
		ASSERT(j != k);
		*q++ = 1;
		*q++ = (char)(j > k ? j : j + 1);
		p += 2;
	}
	*q = 0;
	m->text = t;
	for (j = k; j + 1 < m->nr; j++) {
		m->r[j] = m->r[j + 1];
		m->rf[j] = m->rf[j + 1];
	}
	m->nr--;
	m->copy = 0;
}

