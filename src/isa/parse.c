/* parse.c -- parse one instruction in the printer's syntax and encode it.
 *
 * The text is matched against the template of each form whose base
 * mnemonic is the same, in table order; holes take their value from the
 * text (backtracking over enumeration strings).  The first form whose
 * word prints back to the same text wins, so the encoder can never emit
 * a word the decoder reads differently. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "isa/isa_impl.h"

typedef struct {
	const Arch *a;
	const IsaForm *fm;
	u64 addr;
	const IsaSyms *syms;
	u64 val[ISA_MAX_FIELDS];
	/* some hole's text (not an enumeration's) is not what isa_print
	 * writes for its value ("R07", "0x00f"): printed_back cannot show
	 * the text without printing it */
	int odd;
} Ctx;

static int
set_bit(Word *w, int b, int v)
{
	u64 *p = b < 64 ? &w->lo : &w->hi;
	u64 m = 1ull << (b & 63);

	*p = v ? *p | m : *p & ~m;
	return 0;
}

int
isa_field_set_any(const Arch *a, const IsaField *f, Word *w, u64 v)
{
	u64 held = 0;
	int k;

	if (f->nbits < 64 && v >> f->nbits)
		return -1;
	if (f->nruns) {	/* every value bit has a word bit: the runs at once */
		for (k = 0; k < f->nruns; k++) {
			const IsaRun *r = &f->run[k];
			u64 m = (2ull << (r->len - 1)) - 1, *p = r->wbit < 64 ? &w->lo : &w->hi;
			int sh = r->wbit & 63;

			*p = (*p & ~(m << sh)) | (v >> r->vshift & m) << sh;
		}
		return 0;	/* no constant bits (tools/isa-gentab) */
	}
	for (k = 0; k < f->nbits; k++) {
		int b = a->bitpos[f->bitpos + k];

		if (b == 255)
			continue;
		held |= 1ull << k;
		set_bit(w, b, (int)(v >> k & 1));
	}
	return (v & ~held) == f->orval ? 0 : -1;
}

static int
is_ident(char c)
{
	return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || c == '_';
}

/* The digits at s in base 10 or 16 (at least one), as strtoull reads
 * them (saturating at 2^64 - 1), without its locale and errno work. */
static const char *
read_num(const char *s, int base, u64 *v)
{
	u64 x = 0;
	int over = 0;

	for (;; s++) {
		u32 d = (u32)(uchar)*s - '0';

		if (d > 9) {
			d = ((u32)(uchar)*s | 0x20) - 'a';
			if (base != 16 || d > 5)
				break;
			d += 10;
		}
		if (__builtin_mul_overflow(x, (u64)base, &x) || __builtin_add_overflow(x, (u64)d, &x))
			over = 1;
	}
	*v = over ? ~0ull : x;
	return s;
}

/* A register of kind at s into *v; *odd set when isa_print spells v
 * otherwise (a leading zero; the zero register's number, not Z or T). */
static const char *
parse_reg(const char *s, int kind, u64 *v, int *odd)
{
	static const char pre[][3] = { "R", "UR", "P", "UP", "B", "SB" };
	static const u64 zero[] = { 255, 63, 7, 7, ~0ull, ~0ull };
	const char *p = pre[kind], *d;

	if (s[0] != p[0] || (p[1] && s[1] != p[1]))
		return NULL;
	s += p[1] ? 2 : 1;
	if ((kind <= FK_UR && *s == 'Z') || ((kind == FK_P || kind == FK_UP) && *s == 'T')) {
		*v = zero[kind];
		s++;
	} else if (isdigit((uchar)*s)) {
		s = read_num(d = s, 10, v);
		*odd |= (*d == '0' && s - d > 1) || *v == zero[kind];
	} else {
		return NULL;
	}
	return is_ident(*s) ? NULL : s;
}

static const char *
parse_hex(const char *s, i64 *x)
{
	int neg = *s == '-';
	const char *e;
	u64 u;

	s += neg;
	if (s[0] != '0' || s[1] != 'x' || !isxdigit((uchar)s[2]))
		return NULL;
	e = read_num(s + 2, 16, &u);
	*x = neg ? -(i64)u : (i64)u;
	return e;
}

/* Float immediates: the special names, a constant this thread printed, then
 * strtod. */
static const char *
parse_float(const char *s, int bits, u64 *raw)
{
	static const struct {
		const char *name;
		u64 r16, r32, r64;
	} sp[] = {
		{ "INF", 0x7c00, 0x7f800000, 0x7ff0000000000000ull },
		{ "QNAN", 0x7e00, 0x7fc00000, 0x7ff8000000000000ull },
		{ "SNAN", 0x7c01, 0x7f800001, 0x7ff0000000000001ull },
	};
	u64 sign = bits == 16 ? 0x8000 : bits == 32 ? 0x80000000u : 0x8000000000000000ull;
	char *e;
	double d;
	size_t i;

	if (*s == '+' || *s == '-') {
		for (i = 0; i < NELEM(sp); i++) {
			size_t n = strlen(sp[i].name);

			if (!strncmp(s + 1, sp[i].name, n)) {
				*raw = bits == 16 ? sp[i].r16 : bits == 32 ? sp[i].r32 : sp[i].r64;
				if (*s == '-')
					*raw |= sign;
				s += 1 + n;
				return *s == ' ' ? s + 1 : s;
			}
		}
		if (*s == '+')
			return NULL;
	}
	if (!strncmp(s, "-0.0 ", 5) || !strcmp(s, "-0.0")) {
		*raw = sign;
		return s[4] ? s + 5 : s + 4;
	}
	if (!isdigit((uchar)s[*s == '-']))
		return NULL;
	for (i = 0; isalnum((uchar)s[i]) || s[i] == '.' || s[i] == '+' || s[i] == '-'; i++)
		;	/* the number strtod would read, and no more */
	if (isa_float_printed(s, i, bits, raw))
		return s + i;
	d = strtod(s, &e);
	if (bits == 32) {
		float f = (float)d;
		u32 r;

		memcpy(&r, &f, 4);
		*raw = r;
	} else if (bits == 64) {
		memcpy(raw, &d, 8);
	} else {
		/* double -> binary16, round to nearest even */
		u64 b, m;
		int ex;
		u32 h = d < 0 || (d == 0 && signbit(d)) ? 0x8000 : 0;
		double ad = fabs(d);

		if (ad == 0) {
			*raw = h;
			return e;
		}
		frexp(ad, &ex);
		if (ex > 16)
			return NULL;
		if (ex < -13) {	/* subnormal: units of 2^-24 */
			m = (u64)llrint(ldexp(ad, 24));
			*raw = h | (u32)m;
			return e;
		}
		m = (u64)llrint(ldexp(ad, 11 - ex)); /* 11 significant bits */
		if (m == 2048) {
			m = 1024;
			ex++;
		}
		b = (u64)(ex + 14);
		if (b >= 31)
			return NULL;
		*raw = h | (u32)(b << 10) | (u32)(m & 1023);
	}
	return e;
}

/* s starts with the n bytes of p (a libc strncmp call costs more than
 * these short strings). */
static int
has_prefix(const char *s, const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n && s[i] == p[i]; i++)
		;
	return i == n;
}

/* s[0..6] in bits 8..63, s[0] lowest, as in Arch.sinfo (parse_text
 * leaves 8 zero bytes after the text, so the 8 bytes read from any
 * position of it are its own). */
static inline u64
first7(const char *s)
{
	u64 u;

	memcpy(&u, s, 8);	/* little-endian: s[0] lowest */
	return u << 8;
}

/* Does the hole just before t (HOLE, fi + 1) repeat one earlier in the
 * form's template ("BAR.SYNC R4, R4": one field printed twice)?  Then
 * c->val[fi] already holds this match's value: the templates are matched
 * left to right, so the earlier hole was matched on the same path. */
static int
repeated(const Ctx *c, const char *t)
{
	const char *p;

	for (p = c->fm->tmpl; p < t - 2; p++)
		if (*p == HOLE && p[1] == t[-1])
			return 1;
	return 0;
}

/* The length + 1 of string si when s starts with it, else 0; s7 =
 * first7(s).  sinfo: the string's length and first 7 bytes, so most
 * strings fail unread. */
static inline u32
starts(const Arch *a, u32 si, u64 s7, const char *s)
{
	/* the bytes of first7 a string of length len compares */
	static const u64 lmask[8] = { 0, 0xff00, 0xffff00, 0xffffff00, 0xffffffff00, 0xffffffffff00,
				      0xffffffffffff00, 0xffffffffffffff00 };
	u64 inf = a->sinfo[si], m;
	u32 len = (u32)(inf & 0xff);

	m = lmask[len < 7 ? len : 7];
	if ((s7 & m) != (inf & m) || (len > 7 && !has_prefix(s + 7, a->strs[si] + 7, len - 7)))
		return 0;
	return len + 1;
}

/* The values of enumeration f whose string s starts with (not
 * decode-only), in value order, into ks; returns how many. */
u32
isa_enum_scan(const Arch *a, const IsaField *f, const char *s, u16 *ks)
{
	const u16 *id = a->enums + f->table;
	u64 k, n = 1ull << f->nbits, s7 = first7(s);
	u32 nk = 0;

	for (k = 0; k < n; k++)
		if (!(id[k] & ENUM_DECODE_ONLY) && starts(a, id[k], s7, s))
			ks[nk++] = (u16)k;
	return nk;
}

/* The first 7 bytes of a string as a big-endian number, from its sinfo
 * or from the text (whose 8 bytes from s are readable): numbers compare
 * as the strings' first 7 bytes do. */
static inline u64
key7(u64 inf)
{
	return __builtin_bswap64(inf & ~0xffull);
}

/* The bits of a key7 that a string of length n (< 7: the rest is zeros)
 * compares. */
static const u64 kmask[8] = { 0, 0xff000000000000, 0xffff0000000000, 0xffffff00000000,
			      0xffffffff000000, 0xffffffffff0000, 0xffffffffffff00, 0xffffffffffffff };

/* String si against the text s: < 0, or 0 when s starts with it, or > 0,
 * as the generator's sort orders them (unsigned bytes); s7 = key7 of s,
 * of which a string shorter than 7 bytes compares its length's worth. */
static inline __attribute__((always_inline)) int
str_cmp(const Arch *a, u32 si, u64 s7, const char *s)
{
	u64 inf = a->sinfo[si], k = key7(inf);
	u32 n = (u32)(inf & 0xff), i;
	const char *x = a->strs[si];

	s7 &= kmask[n < 7 ? n : 7];
	if (k != s7)
		return k < s7 ? -1 : 1;
	for (i = 7; i < n; i++)
		if (x[i] != s[i])
			return (uchar)x[i] - (uchar)s[i];
	return 0;
}

/* isa_enum_scan's answer, through the enumeration's generated index when
 * it has one (values sorted by string, each linked to the last earlier one
 * whose string is a prefix of its own): when no non-empty string starts
 * with s's first byte (a hole of carry predicates, "P0, ", before a
 * register), only the empty one can; else the last string <= s is found by
 * binary search; every string s starts with is a prefix of that one (it
 * lies between such a string and s), so they are its first link that s
 * starts with and that one's links. */
u32
isa_enum_at(const Arch *a, const IsaField *f, const char *s, u16 *ks)
{
	const u16 *id = a->enums + f->table, *srt = a->esort + f->sorted, *ord = srt + 9;
	const u16 *up = ord + srt[0];
	u32 lo = 0, hi = srt[0], j, nk = 0, i;
	uchar ch = (uchar)*s;
	u64 s7;
	u16 k;

	if (!f->sorted)
		return isa_enum_scan(a, f, s, ks);
	if (ch >= 128 || !(srt[1 + (ch >> 4)] >> (ch & 15) & 1)) {
		ks[0] = (u16)(f->empty - 1u);
		return f->empty ? 1 : 0;
	}
	s7 = key7(first7(s));
	while (lo < hi) {
		u32 mid = (lo + hi) / 2;

		if (str_cmp(a, id[ord[mid]], s7, s) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (j = lo; j; j = up[j - 1]) {	/* j: position + 1 */
		if (!nk && str_cmp(a, id[ord[j - 1]], s7, s))
			continue;
		/* s starts with this one, hence with all its links:
		 * insert in value order */
		for (k = ord[j - 1], i = nk++; i && ks[i - 1] > k; i--)
			ks[i] = ks[i - 1];
		ks[i] = k;
	}
	return nk;
}

/* The values the enumeration hole f (field fi) may take at s, in value
 * order, into ks (ISA_ENUM_AT): each one whose string s starts with that
 * the field can hold (the earlier one's value for a repeated hole).  When
 * s does not start with the byte all its non-empty strings start with,
 * only the empty string's value can be one (most holes: no modifier, no
 * "-", no ".reuse"); else a small table is scanned in place (as
 * isa_enum_scan would), a big one read through its index. */
static u32
enum_cands(const Ctx *c, const IsaField *f, int fi, int rep, const char *s, u16 *ks)
{
	const Arch *a = c->a;
	const u16 *id = a->enums + f->table;
	u32 i, nk = 0, n;
	u64 k, s7;

	if (f->lead && (uchar)*s != f->lead) {
		k = f->empty - 1u;
		if (!f->empty || (k | f->orval) != k || (rep && k != c->val[fi]))
			return 0;
		ks[0] = (u16)k;
		return 1;
	}
	if (!f->sorted) {
		for (k = 0, s7 = first7(s); k < (1ull << f->nbits); k++)
			if (!(id[k] & ENUM_DECODE_ONLY) && starts(a, id[k], s7, s) && (k | f->orval) == k &&
			    (!rep || k == c->val[fi]))
				ks[nk++] = (u16)k;
		return nk;
	}
	n = isa_enum_at(a, f, s, ks);
	for (i = 0; i < n; i++)
		if ((ks[i] | f->orval) == ks[i] && (!rep || ks[i] == c->val[fi]))
			ks[nk++] = ks[i];
	return nk;
}

/* Is s[0..e) what isa_value_text writes for the hexadecimal field f
 * holding v (of the instruction at addr)?  Its text (print.c's hex_value,
 * then an optional '+', a '-', "0x" and lower-case digits without a
 * leading zero) compared in place, not written and compared. */
static int
hex_spelled(const IsaField *f, u64 v, u64 addr, const char *s, const char *e)
{
	int n = f->nbits;
	i64 x = (f->flags & FF_SIGNED) && n < 64 && (v >> (n - 1) & 1) ? (i64)(v | ~0ull << n) : (i64)v;
	u64 u;
	long nd;

	x = (i64)((u64)x << f->scale);
	if (f->flags & FF_PCREL)
		x += (i64)addr + 16;
	if (f->flags & FF_OPTPLUS) {
		if (!x)
			return s == e;
		if (s == e || *s++ != '+')
			return 0;
	}
	if (x < 0 && (s == e || *s++ != '-'))
		return 0;
	u = x < 0 ? -(u64)x : (u64)x;
	nd = u ? (67 - __builtin_clzll(u)) / 4 : 1;
	if (e - s != nd + 2 || s[0] != '0' || s[1] != 'x')
		return 0;
	for (; nd--; u >>= 4)
		if (*--e != "0123456789abcdef"[u & 15])
			return 0;
	return 1;
}

/* Is s[0..e) what isa_value_text writes for field f holding v (of the
 * instruction at addr)? */
static int
text_spelled(const IsaField *f, u64 v, u64 addr, const char *s, const char *e)
{
	char t[ISA_FLOAT_TEXT];
	int n = isa_value_text(f, v, addr, t);

	return n >= 0 && e - s == n && !memcmp(t, s, (size_t)n);
}

/* The value of the hole f (not an enumeration) at s into c->val[fi] (the
 * same as before for a repeated hole), c->odd set when its text is not the
 * value's spelling; returns the end of its text, or NULL when s does not
 * show such a value. */
static inline __attribute__((always_inline)) const char *
match_value(Ctx *c, const IsaField *f, int fi, int rep, const char *s)
{
	const char *e;
	u64 v;
	i64 x;

	switch (f->kind) {
	case FK_R: case FK_UR: case FK_P: case FK_UP: case FK_B: case FK_SB:
		if (!(e = parse_reg(s, f->kind, &v, &c->odd)))
			return NULL;
		break;
	case FK_HEX:
		x = 0;
		e = s;
		if (f->flags & FF_OPTPLUS) {
			if (*s == '+' && !(e = parse_hex(s + 1, &x)))
				return NULL;
		} else if ((f->flags & FF_PCREL) && s[0] == '`' && s[1] == '(') {
			const char *close = strchr(s, ')');
			char name[256];
			u64 target;

			if (!close || close - s - 2 >= (long)sizeof name || !c->syms || !c->syms->addr_of)
				return NULL;
			memcpy(name, s + 2, (size_t)(close - s - 2));
			name[close - s - 2] = 0;
			if (c->syms->addr_of(c->syms->ctx, name, &target))
				return NULL;
			x = (i64)target;
			e = close + 1;
		} else if (!(e = parse_hex(s, &x))) {
			return NULL;
		}
		if (f->flags & FF_PCREL)
			x -= (i64)c->addr + 16;
		if (x & (((i64)1 << f->scale) - 1))
			return NULL;
		x >>= f->scale;
		if (f->flags & FF_SIGNED) {
			if (f->nbits < 64 && (x < -((i64)1 << (f->nbits - 1)) || x >= ((i64)1 << (f->nbits - 1))))
				return NULL;
			v = f->nbits < 64 ? (u64)x & ((1ull << f->nbits) - 1) : (u64)x;
		} else {
			if (x < 0)
				return NULL;
			v = (u64)x;
		}
		break;
	case FK_F32: case FK_F64H: case FK_F16:
		if (!(e = parse_float(s, f->kind == FK_F32 ? 32 : f->kind == FK_F16 ? 16 : 64, &v)))
			return NULL;
		if (f->kind == FK_F64H) {
			if (v & 0xffffffffu)
				return NULL;
			v >>= 32;
		}
		break;
	case FK_DEC:
		if (!isdigit((uchar)*s))
			return NULL;
		v = strtoull(s, (char **)&e, 10);
		break;
	default:
		return NULL;
	}
	if (rep && v != c->val[fi])
		return NULL;
	c->val[fi] = v;
	if (f->kind == FK_HEX)
		c->odd |= !hex_spelled(f, v, c->addr, s, e);
	else if (f->kind > FK_SB)
		c->odd |= !text_spelled(f, v, c->addr, s, e);
	return e;
}

/* Match template t against text s; returns the end of s on success.
 * Holes with one reading (registers, numbers) are read in the loop; an
 * enumeration hole tries its readings on the rest of the template in
 * value order: backtracking settles which. */
static const char *
match_tmpl(Ctx *c, const char *t, const char *s)
{
	for (;;) {
		const IsaField *f;
		int fi, rep;

		for (; (uchar)*t > HOLE; t++, s++)	/* the literal bytes */
			if (*t != *s) {
				/* a trailing space of the template may be trimmed away */
				if (*t == ' ' && !*s && !t[1])
					return s;
				return NULL;
			}
		if (!*t)
			return *s ? NULL : s;
		fi = (uchar)t[1] - 1;
		f = &c->a->fields[c->fm->field0 + fi];
		t += 2;
		rep = c->fm->twin && repeated(c, t);
		if (f->kind == FK_ENUM && f->lead && (uchar)*s != f->lead) {
			/* only the empty string (enum_cands' first case) */
			u64 k = f->empty - 1u;

			if (!f->empty || (k | f->orval) != k || (rep && k != c->val[fi]))
				return NULL;
			c->val[fi] = k;
			continue;
		}
		if (f->kind == FK_ENUM) {
			u16 ks[ISA_ENUM_AT];
			u32 nk = enum_cands(c, f, fi, rep, s, ks), i;
			const u16 *id = c->a->enums + f->table;
			const char *e;
			int odd;

			if (!nk)
				return NULL;
			/* each reading on the rest of the template, the last
			 * one here (most holes have one) */
			for (i = 0, odd = c->odd; i + 1 < nk; i++, c->odd = odd) {
				c->val[fi] = ks[i];
				if ((e = match_tmpl(c, t, s + (c->a->sinfo[id[ks[i]]] & 0xff))))
					return e;
			}
			c->val[fi] = ks[i];
			s += c->a->sinfo[id[ks[i]]] & 0xff;
			continue;
		}
		if (!(s = match_value(c, f, fi, rep, s)))
			return NULL;
	}
}

/* The class of an operand's first byte, as tools/isa-gentab's OPCLASS. */
static u32
opclass(uchar ch)
{
	switch (ch) {
	case 'R': return 1;
	case 'U': return 2;
	case 'P': return 3;
	case '-': return 4;
	case '0': return 5;
	case 'c': return 7;
	case '[': return 8;
	case '|': return 9;
	case '!': return 10;
	case '~': return 11;
	case '+': return 12;
	case 'S': return 13;
	case 'B': return 14;
	}
	return ch >= '1' && ch <= '9' ? 6 : 15;
}

/* A byte's class bit (tools/isa-gentab's byte_class), by table: three
 * instructions a byte. */
#define CB(c) (1ull << (((c) ^ (c) >> 1) & 63))
#define CB4(c) CB(c), CB(c + 1), CB(c + 2), CB(c + 3)
#define CB16(c) CB4(c), CB4(c + 4), CB4(c + 8), CB4(c + 12)
#define CB64(c) CB16(c), CB16(c + 16), CB16(c + 32), CB16(c + 48)
static const u64 class_bit[256] = { CB64(0), CB64(64), CB64(128), CB64(192) };

/* A text lacking a byte every text of a form has, with too few or too
 * many commas, with an operand that starts with a byte no text of the
 * form has there, or whose last operand does not start with the literal
 * bytes every text of the form has there ("[R22" of LDS's learned "[R22+0x10]")
 * cannot match the form.  The text is read 8 bytes at a time: the zeros
 * after it are no comma, and of class 0, which no form needs. */
void
isa_quick(const char *body, IsaQuick *q)
{
	const u64 ones = 0x0101010101010101ull, low7 = 0x7f7f7f7f7f7f7f7full;
	const char *s, *p, *last = NULL;
	u64 have = 0, x, c;
	u32 n = 0;

	for (s = body;; s += 8) {
		memcpy(&x, s, 8);
		c = x ^ ',' * ones;	/* 0x80 in each ',' byte, then each in turn: */
		for (c = ~(((c & low7) + low7) | c | low7); c; c &= c - 1, n++) {
			p = s + __builtin_ctzll(c) / 8;
			if (n < 16)
				q->cls[n] = (u16)(p[1] == ' ' ? 1u << opclass((uchar)p[2]) : 0xffff);
			last = p[1] == ' ' ? p + 2 : NULL;
		}
		have |= class_bit[x & 255] | class_bit[x >> 8 & 255] | class_bit[x >> 16 & 255] |
			class_bit[x >> 24 & 255] | class_bit[x >> 32 & 255] | class_bit[x >> 40 & 255] |
			class_bit[x >> 48 & 255] | class_bit[x >> 56];
		if ((x - ones) & ~x & ones << 7)
			break;	/* its end */
	}
	q->commas = n;
	q->last = 0;
	if (last)
		memcpy(&q->last, last, 4);	/* little-endian: last[0] lowest */
	q->have = have;
}

/* "@P0 ", "@!UPT " ...: the predicate bits; the kind (P or UP) is the
 * form's, which the print-back check in isa_parse holds to the text. */
static const char *
parse_guard(const char *s, Word *w)
{
	int neg = 0, p;

	w->lo |= 7 << 12;
	if (*s != '@')
		return s;
	s++;
	if (*s == '!') {
		neg = 1;
		s++;
	}
	if (s[0] == 'U')
		s++;
	if (s[0] != 'P')
		return NULL;
	if (s[1] == 'T')
		p = 7;
	else if (s[1] >= '0' && s[1] <= '6')
		p = s[1] - '0';
	else
		return NULL;
	if (s[2] != ' ')
		return NULL;
	w->lo = (w->lo & ~0xf000ull) | (u64)p << 12 | (u64)neg << 15;
	return s + 3;
}

static int
parse_unknown(const char *s, Word *w)
{
	char *e;

	if (*s != 'U' || strncmp(s, "UNKNOWN 0x", 10))
		return -1;
	w->lo = strtoull(s + 10, &e, 16);
	if (strncmp(e, ", 0x", 4))
		return -1;
	w->hi = strtoull(e + 4, &e, 16);
	while (*e == ' ')
		e++;
	return *e ? -1 : 0;
}

/* The message pre, then arg[0..argn), then post into err, cut to errlen
 * as snprintf would (a probe's failures are frequent: snprintf cost more
 * than the rest of a failed parse). */
static size_t
err_put(char *err, size_t errlen, size_t n, const char *s, size_t len)
{
	len = MIN(len, errlen - 1 - n);
	memcpy(err + n, s, len);
	return n + len;
}

static void
seterr(char *err, size_t errlen, size_t *errpos, size_t pos, const char *pre, const char *arg, size_t argn,
       const char *post)
{
	size_t n;

	if (errpos)
		*errpos = pos;
	if (!err || !errlen)
		return;
	n = err_put(err, errlen, 0, pre, strlen(pre));
	n = err_put(err, errlen, n, arg, argn);
	n = err_put(err, errlen, n, post, strlen(post));
	err[n] = 0;
}

/* Why parse_text failed (WHY_*), where (the byte offset in the text t
 * after its leading blanks), as a message: an unknown opcode names it. */
enum { WHY_LONG, WHY_GUARD, WHY_OPCODE, WHY_FORM };
static void
why_err(int why, const char *t, size_t pos, char *err, size_t errlen, size_t *errpos)
{
	static const char *const msg[][2] = {
		{ "instruction text too long", "" },
		{ "bad guard predicate", "" },
		{ "unknown opcode '", "'" },
		{ "no form of this instruction matches these operands", "" },
	};
	size_t n = 0;

	while (*t == ' ' || *t == '\t')
		t++;
	if (why == WHY_OPCODE)
		while (n < 63 && is_ident(t[pos + n]))
			n++;
	seterr(err, errlen, errpos, pos, msg[why][0], t + pos, n, msg[why][1]);
}

/* Is base b the name name[0..n) (k: the name's key, as IsaBase.key)?
 * Equal keys mean equal names when n < 7 (the key holds the end), else the
 * same first 7 bytes. */
static int
base_is(const Arch *a, const IsaBase *b, u64 k, const char *name, size_t n)
{
	const char *s;
	size_t i;

	if (b->key != k)
		return 0;
	for (s = a->strs[b->str], i = 7; i < n && s[i] == name[i]; i++)
		;
	return i >= n && !s[n];
}

/* The bases through their hash table (tools/isa-gentab's base_slots): from
 * the key's slot to the base or an empty slot.  164 bases (sm_90) in 512
 * slots: one or two probes, where a binary search took eight steps.
 * Inline in its two callers: an out-of-line copy would sit outside
 * src/cli/text-order.ld's list, away from the parser's code. */
static inline __attribute__((always_inline)) int
base_find(const Arch *a, u64 k, const char *name, size_t n, u32 *lo, u32 *end)
{
	u32 h, i;

	k = key7(k << 8);
	for (h = (u32)((k * 0x9e3779b97f4a7c15ull) >> 55); (i = a->base_slot[h]); h = (h + 1) % ISA_BASE_SLOTS)
		if (base_is(a, &a->bases[i - 1], k, name, n)) {
			*lo = a->bases[i - 1].lo;
			*end = *lo + a->bases[i - 1].n;
			return 1;
		}
	return 0;
}

int
isa_base_find(const Arch *a, const char *name, size_t n, u32 *lo, u32 *end)
{
	u64 k = 0;

	memcpy(&k, name, n < 7 ? n : 7);
	return base_find(a, k, name, n, lo, end);
}

/* Does isa_print spell x (the word of form c->fm for the text buf, its
 * operation from body on, the yield bit set) exactly as buf?  The form x
 * decodes as (isa_match's; c->fm when it is sole, unasked) when that
 * follows without printing: x decodes as a form whose template matched
 * the text with x's values, so it prints the form's template with each
 * value's spelling (trailing blanks trimmed, as buf is); the guard is
 * spelled as isa_print would, and every hole's text is its value's
 * spelling (an enumeration's string always is: the one the value prints;
 * match_value checks the others, c->odd; when x is c->fm's word, each
 * field reads as the value it was set to: a field's word bits are its
 * own, one per value bit, and not the yield bit -- tools/isa-gentab's
 * own_bits, true of every form).  That form is c->fm, or another whose
 * template the text matches too (LDS's learned forms with a literal
 * register, "[R0{1}]": a word of the general form "[{2}{5}{3}]" with R0
 * decodes as it).  NULL when that is not shown here (a twin form, a
 * pc-relative one with symbols, where a label may print, another
 * spelling): print. */
static const IsaForm *
printed_back(Ctx *c, Word x, const char *buf, const char *body)
{
	const IsaForm *fm = c->fm->sole ? c->fm : isa_match(c->a, x);
	u32 k;

	if (!fm || (fm->pcrel && c->syms) || fm->twin)
		return NULL;
	if (fm != c->fm) {
		c->fm = fm;
		c->odd = 0;
		if (!match_tmpl(c, fm->tmpl, body))
			return NULL;
		for (k = 0; k < fm->nfield; k++)
			if (isa_field_get(c->a, &c->a->fields[fm->field0 + k], x) != c->val[k])
				return NULL;
	}
	if (c->odd)
		return NULL;
	if (body != buf) {	/* "@!UP0 ": isa_print writes none for PT, U for a uniform guard */
		int neg = (int)(x.lo >> 15 & 1);

		if ((x.lo >> 12 & 7) == 7 && !neg)
			return NULL;
		if ((buf[1 + neg] == 'U') != fm->uguard)
			return NULL;
	}
	return fm;
}

int
isa_tmpl_matches(const Arch *a, const IsaForm *fm, const char *body, u64 addr)
{
	Ctx c;
	char buf[512 + 8];
	size_t n = strlen(body);

	if (n >= sizeof buf - 8)
		return 0;
	memcpy(buf, body, n);
	memset(buf + n, 0, 8);	/* first7 reads up to 7 bytes past any position */
	c.a = a;
	c.fm = fm;
	c.addr = addr;
	c.syms = NULL;
	c.odd = 0;
	return match_tmpl(&c, fm->tmpl, buf) != NULL;
}

/* parse_text's flags: STRICT, no alias (below); PLAIN, print back by
 * isa_print always, not by printed_back (isa_parse_plain, for tests). */
enum { STRICT = 1, PLAIN = 2 };
static int parse_text(const Arch *a, const char *text, size_t len, u64 addr, const IsaSyms *syms, Word *w,
		      int *why, size_t *whypos, int flags, int *pcrel);

/* A per-thread memo of the texts parsed last: the compiler parses most
 * instructions two or three times (does a rewrite encode, the encoding,
 * the listing read back), and the peepholes ask again about rewrites that
 * do not encode (a failure is kept as why it failed, WHY_* + 1, and where,
 * in w.lo; but for an "UNKNOWN 0x..." text, whose failure may leave *w
 * changed).  A word depends on the text alone, but for the
 * address and the symbols when a form the parse tried (past the quick
 * test, which reads the text alone) has a pc-relative
 * field (even one that did not match may have been rejected because of
 * them: such texts are memoized only without symbols, for one address;
 * a label is read only in a pc-relative hole, so a text that names one
 * needs no other rule).
 * Per thread, so no locks; in the heap (thread_calloc), not in the
 * thread's static block, so its pages are the heap's. */
enum { MEMOTEXT = 61 };	/* 96-byte entries: 96 KiB a thread, touched as used */
typedef struct {
	const Arch *a;
	u64 addr;
	Word w;
	u8 len, pcrel, why;
	char text[MEMOTEXT];
} Memo;
typedef struct {
	MemoIndex index;
	Memo e[MEMO_ENTRIES];
	u16 all[MEMO_SLOTS];
} MemoTable;
static _Thread_local void *memo;

u32
isa_memo_renew(MemoIndex *x, u16 *all, u32 h, void *e, size_t size, u32 (*hash_of)(const void *e, u32 j))
{
	u32 tag = h >> (32 - (16 - MEMO_IBITS)), j, i;
	u16 *slot = all;

	if (!x->big) {
		x->big = 1;
		for (j = 0; j < x->n; j++) {
			u32 hj = hash_of(e, j);

			i = ((hj ^ hj >> 12) & 0xffff) * MEMO_SLOTS >> 16;
			while (all[i])	/* the first empty slot: an entry of another key may have hj's tag */
				i = i + 1 == MEMO_SLOTS ? 0 : i + 1;
			all[i] = (u16)((hj >> (32 - (16 - MEMO_IBITS))) << MEMO_IBITS | (j + 1));
		}
		i = isa_memo_slot(all, MEMO_SLOTS, h, tag);
	} else {
		memset(all, 0, MEMO_SLOTS * sizeof *all);
		x->n = 0;
		i = isa_memo_slot(all, MEMO_SLOTS, h, tag);
	}
	slot[i] = (u16)(tag << MEMO_IBITS | ++x->n);
	memset((char *)e + (size_t)(x->n - 1) * size, 0, size);
	return x->n - 1;
}

/* The hash of entry j's text (isa_parse's key; any text, for an entry
 * that holds none). */
static u32
memo_hash_of(const void *e, u32 j)
{
	const Memo *m = (const Memo *)e + j;

	return (u32)(isa_text_hash(m->text, m->len) >> 32);
}

int
isa_parse(const Arch *a, const char *text, u64 addr, const IsaSyms *syms, Word *w, char *err,
	  size_t errlen, size_t *errpos)
{
	size_t n = strlen(text), i, pos;
	Memo *m;
	MemoTable *t;
	int pcrel = 0, why;

	if (n >= MEMOTEXT) {
		if (parse_text(a, text, n, addr, syms, w, &why, &pos, 0, NULL) == 0)
			return 0;
		why_err(why, text, pos, err, errlen, errpos);
		return -1;
	}
	t = thread_calloc(&memo, sizeof *t);
	m = &t->e[memo_find(&t->index, t->all, (u32)(isa_text_hash(text, n) >> 32), t->e, sizeof *m, memo_hash_of)];
	if (m->a == a && m->len == n && !memcmp(m->text, text, n) && (!m->pcrel || (m->addr == addr && !syms))) {
		if (!m->why) {
			*w = m->w;
			return 0;
		}
		why_err(m->why - 1, text, (size_t)m->w.lo, err, errlen, errpos);
		return -1;
	}
	m->a = NULL;
	if (parse_text(a, text, n, addr, syms, w, &why, &pos, 0, &pcrel) < 0) {
		why_err(why, text, pos, err, errlen, errpos);
		for (i = 0; text[i] == ' ' || text[i] == '\t'; i++)
			;
		if (!strncmp(text + i, "UNKNOWN 0x", 10))
			return -1;
		m->why = (u8)(why + 1);
		m->w.lo = pos;
	} else {
		m->why = 0;
		m->w = *w;
	}
	if ((m->pcrel = (u8)pcrel) && syms)
		return m->why ? -1 : 0;	/* labels may print in place of the address */
	m->a = a;
	m->addr = addr;
	m->len = (u8)n;
	memcpy(m->text, text, n);
	return m->why ? -1 : 0;
}

int
isa_parse_plain(const Arch *a, const char *text, u64 addr, const IsaSyms *syms, Word *w, char *err,
		size_t errlen, size_t *errpos)
{
	size_t pos;
	int why;

	if (parse_text(a, text, strlen(text), addr, syms, w, &why, &pos, PLAIN, NULL) == 0)
		return 0;
	why_err(why, text, pos, err, errlen, errpos);
	return -1;
}

/* Unless STRICT, a text that no form prints back exactly but one spells
 * with another alias (nvdisasm's "IMAD.MOV R15, R12, 0x0, R15" for
 * "IMAD R15, R12, 0x0, R15") encodes as that form's word, when the word's
 * own text parses back strictly (it is a word the tables know how to
 * spell; isa_print gives the canonical text). */
static int
parse_text(const Arch *a, const char *text, size_t len, u64 addr, const IsaSyms *syms, Word *w, int *why,
	   size_t *whypos, int flags, int *pcrel)
{
	Word alias = { 0, 0 };
	int have_alias = 0;
	char buf[512 + 8];
	const char *s, *body;
	size_t n;
	u32 lo = 0, hi = 0, i;
	Word guard = { 0, 0 };
	IsaQuick quick;
	u64 key;
	Ctx ctx, *c = &ctx;
	int found = 0;
	Buf back = { 0 };

	while (*text == ' ' || *text == '\t') {
		text++;
		len--;
	}
	n = len;
	while (n && (text[n - 1] == ' ' || text[n - 1] == '\t'))
		n--;
	if (n >= sizeof buf - 8) {
		*why = WHY_LONG;
		*whypos = 0;
		return -1;
	}
	memcpy(buf, text, n);
	memset(buf + n, 0, 8);	/* first7 reads up to 7 bytes past any position */
	len = n;
	if (!parse_unknown(buf, w))
		return 0;
	if (!(body = parse_guard(buf, &guard))) {
		*why = WHY_GUARD;
		*whypos = 0;
		return -1;
	}
	for (n = 0; is_ident(body[n]); n++)
		;
	isa_quick(body + n, &quick);	/* the forms need no byte of the base */
	/* the base's key: its first 7 bytes (8 are readable in buf) */
	memcpy(&key, body, 8);
	base_find(a, key & (n < 7 ? (1ull << 8 * n) - 1 : 0xffffffffffffffull), body, n, &lo, &hi);
	c->a = a;
	c->addr = addr;
	c->syms = syms;
	for (i = lo; i < hi; i++) {
		const IsaForm *fm, *shown;
		Word x;
		u32 k;
		int ok = 1;

		found = 1;
		if (!isa_quick_ok(&a->by_base[i], &quick))
			continue;	/* whatever the address and the symbols */
		c->fm = fm = &a->forms[a->by_base[i].form];
		c->odd = 0;
		if (pcrel)
			*pcrel |= fm->pcrel;
		/* body starts with the base, and so does every template of
		 * it (tools/isa-gentab) */
		if (!match_tmpl(c, fm->tmpl + n, body + n))
			continue;
		x.lo = fm->match.lo | fm->dflt.lo | (guard.lo & 0xf000);
		x.hi = fm->match.hi | fm->dflt.hi;
		for (k = 0; k < fm->nfield && ok; k++)
			ok = !isa_field_set(a, &a->fields[fm->field0 + k], &x, c->val[k]);
		if (!ok)
			continue;
		/* reuse flags print only with the yield bit set */
		x.hi |= 1ull << 45;
		if (!(flags & PLAIN) && (shown = printed_back(c, x, buf, body))) {
			if (!shown->pcrel)	/* the print memo holds no pc-relative word */
				isa_print_seed(a, shown, x, buf, len, pcrel && !*pcrel);
			x.hi &= ~(1ull << 45);
			*w = x;
			buf_free(&back);
			return 0;
		}
		back.n = 0;
		if (back.s)
			back.s[0] = 0;
		isa_print(a, x, addr, syms, &back);
		ok = back.s && !strcmp(back.s, buf);
		if (!ok && !(flags & STRICT) && !have_alias && back.s && strncmp(back.s, "UNKNOWN", 7)) {
			Word y;
			int why2;
			size_t pos2;

			x.hi &= ~(1ull << 45);
			if (!parse_text(a, back.s, strlen(back.s), addr, syms, &y, &why2, &pos2, STRICT | (flags & PLAIN),
					pcrel)) {
				alias = x;
				have_alias = 1;
			}
		}
		if (ok) {
			x.hi &= ~(1ull << 45);
			*w = x;
			buf_free(&back);
			return 0;
		}
	}
	buf_free(&back);
	if (have_alias) {
		*w = alias;
		return 0;
	}
	for (s = body; *s && *s != ' '; s++)
		;
	*why = found ? WHY_FORM : WHY_OPCODE;
	*whypos = (size_t)((found ? s : body) - buf);
	return -1;
}
