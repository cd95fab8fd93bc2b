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

/* buf_printf is most of the printing time: registers and hex by hand. */
static void
put_dec(Buf *out, u64 v)
{
	char t[24], *p = t + sizeof t;

	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	buf_putn(out, p, (size_t)(t + sizeof t - p));
}

static void
put_hex(Buf *out, u64 v)
{
	char t[24], *p = t + sizeof t;

	do
		*--p = "0123456789abcdef"[v & 15];
	while (v >>= 4);
	*--p = 'x';
	*--p = '0';
	buf_putn(out, p, (size_t)(t + sizeof t - p));
}

static void
print_field(const Arch *a, const IsaField *f, Word w, u64 addr, const IsaSyms *syms, Buf *out)
{
	static const char *const reg[] = { "R", "UR", "P", "UP", "B", "SB" };
	static const u64 zero[] = { 255, 63, 7, 7, ~0ull, ~0ull };
	u64 v = isa_field_get(a, f, w);
	i64 x;

	switch (f->kind) {
	case FK_R: case FK_UR: case FK_P: case FK_UP: case FK_B: case FK_SB:
		buf_puts(out, reg[f->kind]);
		if (v == zero[f->kind])
			buf_putc(out, f->kind <= FK_UR ? 'Z' : 'T');
		else
			put_dec(out, v);
		return;
	case FK_HEX:
		x = f->flags & FF_SIGNED ? sext(v, f->nbits) : (i64)v;
		x = (i64)((u64)x << f->scale);
		if (f->flags & FF_PCREL) {
			const char *l;

			x += (i64)addr + 16;
			if (syms && syms->label_of && (l = syms->label_of(syms->ctx, (u64)x))) {
				buf_printf(out, "`(%s)", l);
				return;
			}
		}
		if ((f->flags & FF_OPTPLUS) && x == 0)
			return;
		if (f->flags & FF_OPTPLUS)
			buf_putc(out, '+');
		if (x < 0)
			buf_putc(out, '-');
		put_hex(out, x < 0 ? -(u64)x : (u64)x);
		return;
	case FK_F32:
		isa_fmt_float(out, v, 32);
		return;
	case FK_F64H:
		isa_fmt_float(out, v << 32, 64);
		return;
	case FK_F16:
		isa_fmt_float(out, v, 16);
		return;
	case FK_DEC:
		put_dec(out, v);
		return;
	case FK_ENUM:
		buf_puts(out, a->strs[a->enums[f->table + v] & ENUM_ID]);
		return;
	}
	die("print_field: bad kind %d", f->kind);
}

Word
isa_hidden(const Arch *a, Word w)
{
	const IsaForm *fm = isa_match(a, w);
	Word shown = { 0xf000, 0 }, d = { 0, 0 };
	u32 i;
	int k;

	if (!fm)
		return d;	/* UNKNOWN shows every bit */
	/* control field: the ctrl comment shows it, but for the reuse flags
	 * (122..125), which only the text shows, as the form's fields, and
	 * only with the yield bit set */
	shown.lo |= fm->mask.lo;
	shown.hi |= fm->mask.hi | (~((1ull << 41) - 1) & ~(0xfull << 58));
	for (i = 0; i < fm->nfield; i++) {
		const IsaField *f = &a->fields[fm->field0 + i];

		for (k = 0; k < f->nbits; k++) {
			int b = a->bitpos[f->bitpos + k];

			if (b < 64)
				shown.lo |= 1ull << b;
			else if (b != 255)
				shown.hi |= 1ull << (b - 64);
		}
	}
	if (!(w.hi >> 45 & 1))
		shown.hi &= ~(0xfull << 58);
	d.lo = (w.lo ^ fm->dflt.lo) & ~shown.lo;
	d.hi = (w.hi ^ fm->dflt.hi) & ~shown.hi;
	/* an enumeration value whose string another value also prints, and
	 * that the parser does not choose: the bits between the two are
	 * not shown either */
	for (i = 0; i < fm->nfield; i++) {
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

void
isa_print_guard(Word w, int up, Buf *out)
{
	int p = (int)(w.lo >> 12 & 7), neg = (int)(w.lo >> 15 & 1);

	if (p == 7 && !neg)
		return;
	buf_puts(out, neg ? "@!" : "@");
	if (up)
		buf_putc(out, 'U');
	if (p == 7)
		buf_puts(out, "PT ");
	else {
		buf_putc(out, 'P');
		buf_putc(out, (char)('0' + p));
		buf_putc(out, ' ');
	}
}

int
isa_print(const Arch *a, Word w, u64 addr, const IsaSyms *syms, Buf *out)
{
	const IsaForm *fm;
	const char *t;
	size_t start = out->n;

	/* nvdisasm shows reuse flags only when the yield bit is set */
	if (!(w.hi >> 45 & 1))
		w.hi &= ~(0xfull << 58);
	fm = isa_match(a, w);
	if (!fm) {
		buf_printf(out, "UNKNOWN 0x%016llx, 0x%016llx", (unsigned long long)w.lo,
			   (unsigned long long)w.hi);
		return -1;
	}
	isa_print_guard(w, fm->uguard, out);
	for (t = fm->tmpl; *t;) {
		if (*t == HOLE) {
			print_field(a, &a->fields[fm->field0 + (uchar)t[1] - 1], w, addr, syms, out);
			t += 2;
		} else {
			size_t n = strcspn(t, (char[]){ HOLE, 0 });

			buf_putn(out, t, n);
			t += n;
		}
	}
	while (out->n > start && out->s[out->n - 1] == ' ')
		out->s[--out->n] = 0;
	return 0;
}
