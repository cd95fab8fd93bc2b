/* print.c -- decode a word with the arch's form table and print it. */
#include <string.h>

#include "isa/isa_impl.h"

static int
bit(Word w, int b)
{
	return (int)((b < 64 ? w.lo >> b : w.hi >> (b - 64)) & 1);
}

u64
isa_field_get_any(const Arch *a, const IsaField *f, Word w)
{
	u64 v = f->orval;
	int k;

	if (f->nruns) {
		for (k = 0; k < f->nruns; k++) {
			const IsaRun *r = &f->run[k];
			u64 src = r->wbit < 64 ? w.lo >> r->wbit : w.hi >> (r->wbit - 64);

			v |= (src & ((2ull << (r->len - 1)) - 1)) << r->vshift;
		}
		return v;
	}
	for (k = 0; k < f->nbits; k++) {
		int b = a->bitpos[f->bitpos + k];

		if (b != 255 && bit(w, b))
			v |= 1ull << k;
	}
	return v;
}

static i64
sext(u64 v, int n)
{
	return n < 64 && (v >> (n - 1) & 1) ? (i64)(v | ~0ull << n) : (i64)v;
}

/* The text is built in a local array and appended to the Buf in one go
 * (a Buf call per token was most of the printing time); numbers by hand. */
typedef struct {
	char t[240];
	size_t n;
	Buf *out;
} Out;

static __attribute__((noinline)) void
flush(Out *o)
{
	buf_putn(o->out, o->t, o->n);
	o->n = 0;
}

static inline void
put(Out *o, const char *s, size_t n)
{
	if (!n)
		return;	/* most enumeration holes print nothing */
	if (o->n + n > sizeof o->t) {
		flush(o);
		if (n > sizeof o->t) {
			buf_putn(o->out, s, n);
			return;
		}
	}
	memcpy(o->t + o->n, s, n);
	o->n += n;
}

i64
isa_hex_value(const IsaField *f, u64 v, u64 addr)
{
	i64 x = f->flags & FF_SIGNED ? sext(v, f->nbits) : (i64)v;

	x = (i64)((u64)x << f->scale);
	return f->flags & FF_PCREL ? x + (i64)addr + 16 : x;
}

/* The text of field f holding v (of the instruction at addr) into t
 * (ISA_FLOAT_TEXT bytes at least) for all kinds but enumerations: its
 * length, or -1 (the parser's print-back shortcut asks too: see
 * isa_impl.h). */
int
isa_value_text(const IsaField *f, u64 v, u64 addr, char *t)
{
	static const char reg[][3] = { "R", "UR", "P", "UP", "B", "SB" };
	static const u64 zero[] = { 255, 63, 7, 7, ~0ull, ~0ull };
	char d[24], *p = d + sizeof d;
	size_t n = 0;
	i64 x;

	switch (f->kind) {
	case FK_R: case FK_UR: case FK_P: case FK_UP: case FK_B: case FK_SB:
		t[n++] = reg[f->kind][0];
		if (reg[f->kind][1])
			t[n++] = reg[f->kind][1];
		if (v == zero[f->kind]) {
			t[n++] = f->kind <= FK_UR ? 'Z' : 'T';
			return (int)n;
		}
		break;
	case FK_HEX:
		x = isa_hex_value(f, v, addr);
		if ((f->flags & FF_OPTPLUS) && x == 0)
			return 0;
		if (f->flags & FF_OPTPLUS)
			t[n++] = '+';
		if (x < 0)
			t[n++] = '-';
		v = x < 0 ? -(u64)x : (u64)x;
		do
			*--p = "0123456789abcdef"[v & 15];
		while (v >>= 4);
		*--p = 'x';
		*--p = '0';
		memcpy(t + n, p, (size_t)(d + sizeof d - p));
		return (int)(n + (size_t)(d + sizeof d - p));
	case FK_F32:
		return (int)isa_float_text(v, 32, t);
	case FK_F64H:
		return (int)isa_float_text(v << 32, 64, t);
	case FK_F16:
		return (int)isa_float_text(v, 16, t);
	case FK_DEC:
		break;
	default:
		return -1;
	}
	do	/* a register's number, a decimal */
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	memcpy(t + n, p, (size_t)(d + sizeof d - p));
	return (int)(n + (size_t)(d + sizeof d - p));
}

static void
print_field(const Arch *a, const IsaField *f, Word w, u64 addr, const IsaSyms *syms, Out *o)
{
	u64 v = isa_field_get(a, f, w);
	const char *l;
	u32 id;

	switch (f->kind) {
	case FK_HEX:
		if ((f->flags & FF_PCREL) && syms && syms->label_of &&
		    (l = syms->label_of(syms->ctx, (u64)isa_hex_value(f, v, addr)))) {
			flush(o);
			buf_printf(o->out, "`(%s)", l);
			return;
		}
		break;
	case FK_ENUM:
		id = a->enums[f->table + v] & ENUM_ID;
		put(o, a->strs[id], (size_t)(a->sinfo[id] & 0xff));
		return;
	}
	if (f->kind > FK_ENUM)
		die("print_field: bad kind %d", f->kind);
	if (o->n + ISA_FLOAT_TEXT > sizeof o->t)
		flush(o);
	o->n += (size_t)isa_value_text(f, v, addr, o->t + o->n);
}

/* isa_hidden of w, whose form is fm (isa_match's).  parsed: w's operation
 * and reuse bits are a word isa_parse made with fm and printed back
 * (isa_print_seed's exact entries), so every enumeration value is one the
 * parser chose, never a decode-only one: the field loop finds nothing. */
static Word
hidden_of(const Arch *a, const IsaForm *fm, Word w, int parsed)
{
	Word shown, d = { 0, 0 };
	u32 i;
	int k;

	/* the guard; the form's mask and fields (generated); the control
	 * field, which the ctrl comment shows, but for the reuse flags
	 * (122..125), which only the text shows, as the form's fields, and
	 * only with the yield bit set */
	shown = a->shown[fm - a->forms];
	shown.lo |= 0xf000;
	shown.hi |= ~((1ull << 41) - 1) & ~(0xfull << 58);
	if (!(w.hi >> 45 & 1))
		shown.hi &= ~(0xfull << 58);
	d.lo = (w.lo ^ fm->dflt.lo) & ~shown.lo;
	d.hi = (w.hi ^ fm->dflt.hi) & ~shown.hi;
	/* an enumeration value whose string another value also prints, and
	 * that the parser does not choose: the bits between the two are
	 * not shown either */
	for (i = 0; i < fm->nfield && !parsed; i++) {
		const IsaField *f = &a->fields[fm->field0 + i];
		u64 v, c, x;

		if (f->kind != FK_ENUM || !(a->enums[f->table + (v = isa_field_get(a, f, w))] & ENUM_DECODE_ONLY))
			continue;
		for (c = 0; c < (1ull << f->nbits); c++)
			if (a->enums[f->table + c] == (a->enums[f->table + v] & ENUM_ID) && (c | f->orval) == c)
				break;
		if (c == (1ull << f->nbits))
			continue;
		for (x = v ^ c, k = 0; k < f->nbits; k++) {
			int b = a->bitpos[f->bitpos + k];

			if (!(x >> k & 1) || b == 255)
				continue;
			if (b < 64)
				d.lo |= 1ull << b;
			else
				d.hi |= 1ull << (b - 64);
		}
	}
	return d;
}

Word
isa_hidden(const Arch *a, Word w)
{
	const IsaForm *fm = isa_match(a, w);
	Word none = { 0, 0 };

	return fm ? hidden_of(a, fm, w, 0) : none;	/* UNKNOWN shows every bit */
}

/* "@!P0 " etc. into t (at most 7 bytes); returns the length. */
static size_t
guard_text(Word w, int up, char *t)
{
	int p = (int)(w.lo >> 12 & 7), neg = (int)(w.lo >> 15 & 1);
	size_t n = 0;

	if (p == 7 && !neg)
		return 0;
	t[n++] = '@';
	if (neg)
		t[n++] = '!';
	if (up)
		t[n++] = 'U';
	t[n++] = 'P';
	t[n++] = p == 7 ? 'T' : (char)('0' + p);
	t[n++] = ' ';
	return n;
}

void
isa_print_guard(Word w, int up, Buf *out)
{
	char t[8];

	buf_putn(out, t, guard_text(w, up, t));
}

/* A per-thread memo of the texts printed last: the compiler prints most
 * words three times (the parser's print-back check, the hazard decoder,
 * the listing).  Without a pc-relative field, a form's text depends on the
 * word's operation bits and shown reuse flags alone, not on the address,
 * the symbols or the other control bits (no form's mask or field has one:
 * the unit test isa_print_memo checks), so those are the key.  Per
 * thread, so no locks; in the heap (thread_calloc), not in the thread's
 * static block, so its pages are the heap's. */
enum { PMEMOTEXT = 64 };	/* 96-byte entries (few texts are longer): 96 KiB a thread, touched as used */
typedef struct {
	const Arch *a;
	Word w;
	u32 ctrl;	/* parsed: the control field isa_parse gave */
	u16 form;	/* the key's form (isa_match's) */
	u8 len;
	u8 parsed;	/* entered by a parse no address or symbol could change */
	char text[PMEMOTEXT];
} PMemo;
typedef struct {
	MemoIndex index;
	PMemo e[MEMO_ENTRIES];
	u16 all[MEMO_SLOTS];
} PMemoTable;
static _Thread_local void *pmemo;

static u32
pmemo_hash(Word key)
{
	return (u32)((key.lo ^ key.hi * 0x9e3779b97f4a7c15ull) * 0xff51afd7ed558ccdull >> 32);
}

static u32
pmemo_hash_of(const void *e, u32 j)
{
	return pmemo_hash(((const PMemo *)e)[j].w);
}

static PMemo *
pmemo_slot(Word key)
{
	PMemoTable *t = thread_calloc(&pmemo, sizeof *t);

	return &t->e[memo_find(&t->index, t->all, pmemo_hash(key), t->e, sizeof t->e[0], pmemo_hash_of)];
}

/* The key of w in the memo: its operation bits and, with the yield bit
 * set, the reuse flags (nvdisasm shows them only then). */
static Word
pmemo_key(Word w)
{
	Word key = { w.lo, w.hi & ((1ull << 41) - 1) };

	if (w.hi >> 45 & 1)
		key.hi |= w.hi & 0xfull << 58;
	return key;
}

/* Enter text[0..n) as the text of key (form fm) in its slot m; 0 when it
 * does not fit. */
static int
pmemo_put(PMemo *m, const Arch *a, Word key, const IsaForm *fm, const char *text, size_t n, int parsed)
{
	if (n > PMEMOTEXT || fm - a->forms > 0xffff)
		return 0;
	m->a = a;
	m->w = key;
	m->form = (u16)(fm - a->forms);
	m->len = (u8)n;
	m->parsed = (u8)parsed;
	memcpy(m->text, text, n);
	return 1;
}

/* w (yield bit set; its form fm) printed as text, which parses to w;
 * exact: that parse tried no pc-relative form, so it gives w at any
 * address, with any symbols (isa_print_listed). */
void
isa_print_seed(const Arch *a, const IsaForm *fm, Word w, const char *text, size_t n, int exact)
{
	Word key = pmemo_key(w);
	PMemo *m;

	if (n > PMEMOTEXT)
		return;
	m = pmemo_slot(key);
	if (pmemo_put(m, a, key, fm, text, n, exact))
		m->ctrl = (u32)(w.hi >> 41) & ~(1u << 4);	/* isa_parse clears the yield bit */
}

/* The word of a parsed entry m: its key and the control field the parse gave. */
static Word
parsed_word(const PMemo *m)
{
	Word x = { m->w.lo, (m->w.hi & ((1ull << 41) - 1)) | (u64)m->ctrl << 41 };

	return x;
}

/* w's memo entry when this thread printed w for a lately, else NULL. */
static PMemo *
pmemo_find(const Arch *a, Word w)
{
	Word key;
	PMemo *m;

	if (!(w.hi >> 45 & 1))
		w.hi &= ~(0xfull << 58);
	key = pmemo_key(w);
	m = pmemo_slot(key);
	return m->a == a && m->w.lo == key.lo && m->w.hi == key.hi ? m : NULL;
}

int
isa_print_parsed(const Arch *a, Word w, Word *x)
{
	PMemo *m = pmemo_find(a, w);

	if (!m || !m->parsed)
		return 0;
	*x = parsed_word(m);
	return 1;
}

const IsaForm *
isa_print_known(const Arch *a, Word w)
{
	PMemo *m = pmemo_find(a, w);

	return m ? &a->forms[m->form] : NULL;
}

/* isa_print's work: w's text onto out; w's form, or NULL (printed as
 * UNKNOWN).  Through the memo when mp is set: *mp is then the entry that
 * holds the text, or NULL (a pc-relative form, a long text). */
static const IsaForm *
print_word(const Arch *a, Word w, u64 addr, const IsaSyms *syms, Buf *out, PMemo **mp)
{
	const IsaForm *fm;
	const char *t;
	size_t start = out->n;
	Out o;
	Word key;
	PMemo *m = NULL;

	/* nvdisasm shows reuse flags only when the yield bit is set */
	if (!(w.hi >> 45 & 1))
		w.hi &= ~(0xfull << 58);
	/* the memo holds only words of forms without a pc-relative field,
	 * and the key decides the form: a hit needs no isa_match */
	key = pmemo_key(w);
	if (mp) {
		m = pmemo_slot(key);
		*mp = NULL;
	}
	if (m && m->a == a && m->w.lo == key.lo && m->w.hi == key.hi) {
		buf_putn(out, m->text, m->len);
		*mp = m;
		return &a->forms[m->form];
	}
	fm = isa_match(a, w);
	if (!fm) {
		buf_printf(out, "UNKNOWN 0x%016llx, 0x%016llx", (unsigned long long)w.lo,
			   (unsigned long long)w.hi);
		return NULL;
	}
	o.out = out;
	o.n = guard_text(w, fm->uguard, o.t);
	for (t = fm->tmpl; *t;) {
		if (*t == HOLE) {
			print_field(a, &a->fields[fm->field0 + (uchar)t[1] - 1], w, addr, syms, &o);
			t += 2;
		} else {
			size_t n = 0;

			while (t[n] && t[n] != HOLE)
				n++;
			put(&o, t, n);
			t += n;
		}
	}
	while (o.n && o.t[o.n - 1] == ' ')
		o.n--;
	if (o.n)
		flush(&o);
	while (out->n > start && out->s[out->n - 1] == ' ')
		out->s[--out->n] = 0;
	if (!out->s)
		buf_putn(out, "", 0);
	if (m && !fm->pcrel && pmemo_put(m, a, key, fm, out->s + start, out->n - start, 0))
		*mp = m;
	return fm;
}

const IsaForm *
isa_print_form(const Arch *a, Word w, u64 addr, const IsaSyms *syms, Buf *out)
{
	PMemo *m;

	return print_word(a, w, addr, syms, out, &m);
}

int
isa_print(const Arch *a, Word w, u64 addr, const IsaSyms *syms, Buf *out)
{
	return isa_print_form(a, w, addr, syms, out) ? 0 : -1;
}

int
isa_print_plain(const Arch *a, Word w, u64 addr, const IsaSyms *syms, Buf *out)
{
	return print_word(a, w, addr, syms, out, NULL) ? 0 : -1;
}

int
isa_print_listed(const Arch *a, Word w, u64 addr, const IsaSyms *syms, Buf *out, IsaListed *l)
{
	PMemo *m;
	const IsaForm *fm = print_word(a, w, addr, syms, out, &m);
	/* the form the print used is isa_hidden's (isa_match of w) unless
	 * the print cleared reuse flags (yield bit clear) */
	int same = (w.hi >> 45 & 1) || !(w.hi & 0xfull << 58);
	Word none = { 0, 0 };

	l->parsed = m && m->parsed;
	if (l->parsed)
		l->x = parsed_word(m);
	if (!same)
		l->hid = isa_hidden(a, w);
	else
		l->hid = fm ? hidden_of(a, fm, w, l->parsed) : none;
	return fm ? 0 : -1;
}
