/* peep_fold.c -- constants as operands.
 *
 * Selection loads every immediate and constant-bank value it cannot put
 * straight into an instruction into a register first:
 *
 *     MOV t, 0x3fb8aa3b; MOV u, 0x80000000; FFMA d, a, t, u
 *     MOV p.0, c[0x0][0x160]; MOV p.1, c[0x0][0x164]; IMAD.WIDE.U32 d, a, b, p
 *     MOV t, 0x1f79; HSET2.BF.EQ.AND d, a.H0_H0, t.H0_H0, PT
 *
 * This pass puts the value into each reader whose instruction has a form
 * with a literal in that slot:
 *
 *     FFMA d, a, 1.4426950216293334961, -0.0
 *     IMAD.WIDE.U32 d, a, b, c[0x0][0x160]
 *     HSET2.BF.EQ.AND d, a.H0_H0, 0.0001..., 0.0001..., PT
 *
 * and drops the load when no reader is left.  A constant is a register
 * part (32 bits of a vreg) whose only definition is "MOV x, <immediate>"
 * or a constant-bank read ("MOV x, c[0x0][..]" on sm_80, "LDC x, c[..]" /
 * "LDC.64" on sm_90; a guarded one reaches only readers under the same
 * guard later in its block); a reader of a whole pair takes a 64-bit
 * constant (c[] of 8 aligned bytes, RZ for zero, or an f64 whose low word
 * is 0).
 *
 * Which slots take which literal is asked of the ISA tables, never listed
 * here: the reader is rendered with placeholder registers and the
 * candidate text, encoded, printed back, and accepted only when the
 * printed text is the trial text itself.  The same bits are offered as
 * unsigned hex, signed hex, an f32, f16 or bf16 halves (for a .H0_H0 /
 * .H1_H1 half, and a packed pair in both orders) and an f64 high word;
 * a hex spelling prints back unchanged only in an integer slot, and a
 * float one must also leave the register's exact bits in the immediate
 * field (word bits 32..63): f16 and bf16 slots print the same digits
 * ("1.875") for different bits, so the text alone cannot tell.  A '-'
 * in front of the register is folded into the literal (two's complement
 * for an integer spelling, the sign bit for a float one); RZ and c[..]
 * replace the register alone and keep its modifiers.  Where the slot
 * takes no literal, a commutative operation or a comparison moves the
 * operand to a slot that does; an address register holding a constant
 * becomes an absolute address; sm_80's IMAD.WIDE trades its literal for
 * a parameter pair (peep_swap.c).  The probes are in peep_probe.c. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/peep_fold.h"
#include "isa/isa_impl.h"

/* ---- constants ---- */

/* The parts a ref covers: [*lo, *hi). */
static void
span(const MFunc *f, MRef r, int *lo, int *hi)
{
	*lo = r.sub;
	*hi = r.w ? r.sub + r.w : f->vr.v[r.v].w;
	if (*hi > 4)
		*hi = 4;
}

/* sscanf(text, pre "%x%7s", x, tail) == 1 (fmt: that format): pre, hex
 * digits, the end of the text. */
static int
hex_end(const char *text, const char *pre, const char *fmt, u32 *x)
{
	const char *e;
	char tail[8];
	int r = peep_scan_x(text, pre, x, &e);

	if (r > 0 && *e)
		r = isspace((uchar)*e) ? -1 : 0;
	return r >= 0 ? r : sscanf(text, fmt, x, tail) == 1;
}

/* The rest "]%7s" of a format after a "%x" that read up to e: sscanf
 * stops at anything but ']' (1: the count stands), %7s converts
 * something after it (0: one more), -1: only sscanf can tell. */
static int
bracket_end(const char *e)
{
	if (*e != ']' || !e[1])
		return 1;
	return isspace((uchar)e[1]) ? -1 : 0;
}

/* sscanf(text, fmt, bank, x, tail) == 2 for fmt pre "%x][0x%x]%7s"
 * (pre: "MOV \001\001, c[0x", or what is left of it after its prefix) */
static int
mov_cbank(const char *text, const char *pre, const char *fmt, u32 *bank, u32 *x)
{
	const char *e;
	char tail[8];
	int r = peep_scan_x(text, pre, bank, &e);

	if (r > 0)
		r = peep_scan_x(e, "][0x", x, &e);
	if (r > 0)
		r = bracket_end(e);
	return r >= 0 ? r : sscanf(text, fmt, bank, x, tail) == 2;
}

/* sscanf(p, "0x%x]%7s", x, tail) == 1 */
static int
hex_bracket(const char *p, u32 *x)
{
	const char *e;
	char tail[8];
	int r = peep_scan_x(p, "0x", x, &e);

	if (r > 0)
		r = bracket_end(e);
	return r >= 0 ? r : sscanf(p, "0x%x]%7s", x, tail) == 1;
}

/* The value a 32-bit MOV of s writes: an immediate or (sm_80) a c[..]
 * word; s is the text (whole) or what follows "MOV \001\001, " (!whole). */
static int
mov_value(const char *s, int whole, int sm, u8 *kind, u32 *val)
{
	static const char *const pre[2][3] = {
		{ "0x", "-0x", "c[0x" },
		{ "MOV \001\001, 0x", "MOV \001\001, -0x", "MOV \001\001, c[0x" },
	};
	static const char *const fmt[2][3] = {
		{ "0x%x%7s", "-0x%x%7s", "c[0x%x][0x%x]%7s" },
		{ "MOV \001\001, 0x%x%7s", "MOV \001\001, -0x%x%7s", "MOV \001\001, c[0x%x][0x%x]%7s" },
	};
	u32 x, bank;

	if (hex_end(s, pre[whole][0], fmt[whole][0], &x)) {
		*kind = K_IMM, *val = x;
		return 1;
	}
	if (hex_end(s, pre[whole][1], fmt[whole][1], &x)) {
		*kind = K_IMM, *val = (u32)-x;
		return 1;
	}
	if (sm < 90 && mov_cbank(s, pre[whole][2], fmt[whole][2], &bank, &x) && bank < 32 && x < 0x10000) {
		*kind = K_CBANK, *val = bank << 24 | x;
		return 1;
	}
	return 0;
}

/* The text part of const_def: does text (a definition of w parts,
 * guarded or not) load a constant?  Fills kind, value and wide. */
static int
def_text(const char *text, int w, int sm, int guarded, u8 *kind, u32 *val, u8 *wide)
{
	u32 x, bank;

	*wide = 0;
	/* "MOV \001\001, " as isel spells it: its prefix read once (with
	   white space after it, only sscanf can tell: the whole patterns) */
	if (text[0] == 'M' && peep_pre(text, "MOV \001\001, ") && !isspace((uchar)text[8]))
		return w == 1 && mov_value(text + 8, 0, sm, kind, val);
	if (!peep_pre(text, "MOV") && !peep_pre(text, "LDC"))
		return 0;   /* what every pattern below starts with */
	if (text[0] == 'M' && w == 1 && mov_value(text, 1, sm, kind, val))
		return 1;
	if ((w == 1 || w == 2) && !guarded) {
		/* LDC / LDC.64 of a fixed word (sm_90; sm_80: banks other than 0) */
		const char *t = w == 1 ? "LDC \001\001, c[0x" : "LDC.64 \001\001, c[0x", *e;
		size_t n = strlen(t);
		int used = 0, r;
		if (!peep_pre(text, t))
			return 0;
		/* sscanf(text + n, "%x][%n", &bank, &used) */
		if ((r = peep_scan_x(text + n, "", &bank, &e)) > 0)
			used = e[0] == ']' && e[1] == '[' ? (int)(e + 2 - (text + n)) : 0;
		else if (r < 0)
			r = sscanf(text + n, "%x][%n", &bank, &used) == 1;
		if (r <= 0 || !used || bank >= 32)
			return 0;
		if (!strcmp(text + n + used, "RZ]"))
			x = 0;
		else if (!hex_bracket(text + n + used, &x) || x >= 0x10000)
			return 0;
		x |= bank << 24;
		*kind = K_CBANK, *val = x, *wide = w == 2;
		return 1;
	}
	return 0;
}

/* Is m a constant definition?  Fills kind and value. */
static int
const_def(const Fold *F, const MIns *m, u8 *kind, u32 *val, u8 *wide)
{
	const MFunc *f = F->f;
	int w;

	if (m->nr != 1 || m->rf[0] != MF_DEF || f->vr.v[m->r[0].v].cls != RC_R ||
	    f->vr.v[m->r[0].v].fixed)
		return 0;
	w = m->r[0].w ? m->r[0].w : f->vr.v[m->r[0].v].w - m->r[0].sub;
	return def_text(m->text, w, F->sm, m->guard >= 0, kind, val, wide);
}

/* Part s of constant definition m (at b, i; its span from lo) as what
 * it defines. */
static void
const_part(Part *P, const MIns *m, int b, int i, u8 kind, u32 val, u8 wide, int s, int lo)
{
	P->kind = kind;
	P->val = kind == K_CBANK ? val + 4u * (u32)(s - lo) : val;
	P->wide = wide;
	P->defb = b, P->defi = i;
	P->guard = m->guard, P->gneg = m->guard_neg;
}

void
fold_scan(Fold *F)
{
	MFunc *f = F->f;
	size_t b, i;
	int k, s, lo, hi;

	F->gen++;
	for (b = 0; b < f->b.n; b++)
		for (i = 0; i < f->b.v[b].ins.n; i++) {
			const MIns *m = &f->b.v[b].ins.v[i];
			u8 kind, wide;
			u32 val;
			int isc = const_def(F, m, &kind, &val, &wide);
			for (k = 0; k < m->nr; k++) {
				/* only general registers hold constants: what
				   reads parts (const_ref, ref_view, drop_dead's
				   const_def, the pairs) asks of no other class */
				if (f->vr.v[m->r[k].v].cls != RC_R)
					continue;
				span(f, m->r[k], &lo, &hi);
				for (s = lo; s < hi; s++) {
					Part *P = part(F, m->r[k].v, s);
					if (m->rf[k] & MF_USE)
						P->uses++;
					if (!(m->rf[k] & MF_DEF))
						continue;
					if (++P->ndef == 1 && isc)
						const_part(P, m, (int)b, (int)i, kind, val, wide, s, lo);
					else
						P->kind = K_MANY;
				}
			}
		}
}

/* s into t[n] as snprintf(t, n, "%s", s) (cut to n - 1 characters). */
static void
copy_text(char *t, size_t n, const char *s)
{
	size_t len = strlen(s);

	if (len >= n)
		len = n - 1;
	memcpy(t, s, len);
	t[len] = 0;
}

/* Float text of raw bits (nvdisasm's), or 0 for a NaN (its payload does
 * not print).  The texts made are kept per thread (printing a float is
 * dear: ~6 K instructions, and the same constants are offered to reader
 * after reader, as f32, f16 and bf16 halves), in a memo indexed as
 * peep.h's peep_memo_* say; when its entries run out, all go.  In the heap
 * (thread_calloc). */
enum { FSLOTS = 2048, FENTRIES = 1024, FTEXT = 40 };
typedef struct {
	u64 raw;
	u8 bits;
	u8 ok;
	char t[FTEXT];
} FText;
typedef struct {
	u32 n;
	u16 few[PEEP_FEW];
	FText e[FENTRIES];
	u16 slot[FSLOTS];
} FTable;
static _Thread_local void *ftable;

/* The first slot of (raw, bits), before the modulo. */
static u32
fstart(u64 raw, int bits)
{
	return (u32)((raw ^ (u64)bits) * 0x9e3779b97f4a7c15ull >> 53);
}

static u32
fstart_of(const void *tab, size_t j)
{
	const FText *e = &((const FTable *)tab)->e[j];

	return fstart(e->raw, e->bits);
}

static int
ftext(char *t, size_t n, u64 raw, int bits)
{
	FTable *c = thread_calloc(&ftable, sizeof *c);
	Buf b = {0};
	int ok;
	u32 h = fstart(raw, bits);
	size_t i, ns, len;
	u16 *slot = peep_memo_slots(c->few, c->slot, FSLOTS, c->n, &ns);
	FText *e;

	for (i = h % ns; slot[i]; i = (i + 1) % ns) {
		e = &c->e[slot[i] - 1];
		if (e->bits == bits && e->raw == raw) {
			if (e->ok)
				copy_text(t, n, e->t);
			return e->ok;
		}
	}
	isa_fmt_float(&b, raw, bits);
	ok = b.s && !strstr(b.s, "NAN");
	if (ok)
		copy_text(t, n, b.s);
	len = b.s ? strlen(b.s) : 0;
	if (len < FTEXT) {
		if (c->n == FENTRIES) {
			memset(c->few, 0, sizeof c->few);
			c->n = 0;
		}
		peep_memo_add(c->few, c->slot, FSLOTS, c->n, h, c, fstart_of);
		e = &c->e[c->n++];
		e->raw = raw;
		e->bits = (u8)bits;
		e->ok = (u8)ok;
		memcpy(e->t, b.s ? b.s : "", len + 1);
	}
	buf_free(&b);
	return ok;
}

/* How a candidate must encode. */
enum {
	C_ANY,     /* it encodes (a register-like literal: RZ, c[..]) */
	C_TEXT,    /* and prints back as itself (an integer immediate) */
	C_BITS,    /* and the 32-bit immediate field (word bits 32..63) holds
		      the expected bits (a float immediate: f32, f64's high
		      word, an f16 or bf16 pair -- the text alone cannot tell
		      which of f16 and bf16 the slot is) */
};

/* Try one candidate text for [from, to) of m (hole k); 1 = folded. */
static int
try_lit(Fold *F, MIns *m, int k, int from, int to, const char *lit, int how, u32 bits)
{
	const char *t = fold_trial(F, m, from, to, lit);
	Word w;
	int ok;

	if (how == C_ANY)
		ok = peep_encodes(F->a, t);
	else
		ok = peep_encodes_exact(F->a, t, &w) && (how == C_TEXT || (u32)(w.lo >> 32) == bits);
	if (ok)
		peep_inline(F->f, m, k, from, to, lit);
	return ok;
}

/* May a literal (lits: PEEP_LIT, or a pair of them) take [from, to) of
 * m at all?  A no spares every spelling's float text and probe. */
static int
lit_may(Fold *F, const MIns *m, int from, int to, const char *lits)
{
	return peep_may_encode(F->a, fold_trial(F, m, from, to, lits));
}

/* Text of one half (f16, or bf16: the top of an f32) into t. */
static int
htext(char *t, size_t n, u32 h, int bf)
{
	return bf ? ftext(t, n, (u64)h << 16, 32) : ftext(t, n, h, 16);
}

/* A pair of halves "x, y" for the 32-bit immediate bits (x is bits
 * 16..31 when swap, else 0..15), f16 or bf16. */
static int
try_halves(Fold *F, MIns *m, int k, int from, int to, u32 bits)
{
	char t[112], a[48], b[48];
	int bf, swap;

	for (bf = 0; bf < 2; bf++)
		for (swap = 0; swap < 2; swap++) {
			u32 x = swap ? bits >> 16 : bits & 0xffff, y = swap ? bits & 0xffff : bits >> 16;
			if (!htext(a, sizeof a, x, bf) || !htext(b, sizeof b, y, bf))
				return 0;
			strcpy(peep_cat(peep_cat(t, a), ", "), b);
			if (try_lit(F, m, k, from, to, t, C_BITS, bits))
				return 1;
			if (x == y)
				break;
		}
	return 0;
}

/* Immediate spellings of 32 bits v for [from, to) of m (neg: the text
 * starts with the register's '-'; half: 0 none, 1 .H0_H0, 2 .H1_H1 at
 * the end of the text). */
static int
try_imm32(Fold *F, MIns *m, int k, int from, int to, u32 v, int neg, int half)
{
	char t[112];
	u32 iv = neg ? (u32)-v : v, fv = neg ? v ^ 0x80000000u : v;

	if (half) {
		u32 h = half == 1 ? v & 0xffff : v >> 16;
		if (neg)
			h ^= 0x8000;
		return lit_may(F, m, from, to, PEEP_LIT ", " PEEP_LIT) && try_halves(F, m, k, from, to, h << 16 | h);
	}
	/* hex spellings, where the mnemonic prints hex at all (an f32
	   operation: no, and its parse of a hex literal is a dear one) */
	if (peep_may_print_hex(F->a, m->text)) {
		peep_hex(peep_cat(t, "0x"), iv);
		if (try_lit(F, m, k, from, to, t, C_TEXT, 0))
			return 1;
		if ((i32)iv < 0) {
			peep_hex(peep_cat(t, "-0x"), (u32)-(i64)(i32)iv);
			if (try_lit(F, m, k, from, to, t, C_TEXT, 0))
				return 1;
		}
	}
	if (lit_may(F, m, from, to, PEEP_LIT) && ftext(t, sizeof t, fv, 32) &&
	    try_lit(F, m, k, from, to, t, C_BITS, fv))
		return 1;
	/* the register's '-' may stay as the slot's negation of the literal */
	if (neg && lit_may(F, m, from + 1, to, PEEP_LIT) && ftext(t, sizeof t, v, 32) &&
	    try_lit(F, m, k, from + 1, to, t, C_BITS, v))
		return 1;
	return lit_may(F, m, from, to, PEEP_LIT ", " PEEP_LIT) &&
	       try_halves(F, m, k, from, to, neg ? v ^ 0x80008000u : v);
}

/* A guarded constant definition reaches reader m (at F->cb, F->ci) when
 * m has the same guard, in the same block, after it, and the guard
 * predicate is not written in between. */
static int
guard_holds(const Fold *F, const MIns *m, const Part *P)
{
	const MBlock *B;
	int j, k;

	if (F->cb != P->defb || F->ci <= P->defi || m->guard != P->guard || m->guard_neg != P->gneg)
		return 0;
	B = &F->f->b.v[F->cb];
	for (j = P->defi + 1; j < F->ci; j++)
		for (k = 0; k < B->ins.v[j].nr; k++)
			if ((B->ins.v[j].rf[k] & MF_DEF) && B->ins.v[j].r[k].v == P->guard)
				return 0;
	return 1;
}

/* A 32-bit address register holding a constant: "[r+0x10]" (or
 * "[r+URZ+0x10]") becomes the absolute "[0x410]" (RZ plus the offset)
 * where the form exists. */
static int
fold_address(Fold *F, MIns *m, int k, int at, u32 val)
{
	const char *p = m->text + at + 2;
	unsigned off = 0;
	int negoff = 0, end;
	i64 a;
	char t[40];

	if (peep_pre(p, "+URZ"))
		p += 4;   /* zero: the absolute form has no uniform base */
	if (peep_pre(p, "+0x") || peep_pre(p, "+-0x")) {
		negoff = p[1] == '-';
		if (sscanf(p + 3 + negoff, "%x", &off) != 1)
			return 0;
		p += strspn(p + 1, "-0x123456789abcdef") + 1;
	}
	if (*p != ']')
		return 0;
	end = (int)(p - m->text);
	a = (i64)val + (negoff ? -(i64)off : (i64)off);
	if (a < 0 || a > 0xffffff)
		return 0;
	if (!a)
		strcpy(t, "RZ");
	else
		peep_hex(peep_cat(t, "0x"), (u32)a);
	return try_lit(F, m, k, at, end, t, C_TEXT, 0);
}

/* Does ref k of m read a constant that may fold here?  Its first part
 * and span [*lo, *hi), or NULL.  Nothing here looks at m's text, so a
 * NULL holds for every arrangement of its operands. */
static Part *
const_ref(Fold *F, const MIns *m, int k, int *lo, int *hi)
{
	MFunc *f = F->f;
	MRef r = m->r[k];
	Part *P;

	if (!(m->rf[k] & MF_USE) || (m->rf[k] & MF_DEF) || f->vr.v[r.v].cls != RC_R)
		return NULL;
	span(f, r, lo, hi);
	if (*hi - *lo > 2 || *hi <= *lo)
		return NULL;
	P = part(F, r.v, *lo);
	if (P->kind != K_IMM && P->kind != K_CBANK)
		return NULL;
	if (*hi - *lo == 2 && (part(F, r.v, *lo + 1)->kind != P->kind || P->guard >= 0 ||
			       part(F, r.v, *lo + 1)->guard >= 0))
		return NULL;
	if (P->guard >= 0 && !guard_holds(F, m, P))
		return NULL;
	return P;
}

/* Fold ref k of m if it reads a constant; 1 = folded. */
static int
fold_ref(Fold *F, MIns *m, int k)
{
	MRef r = m->r[k];
	int lo, hi, at, from, to, neg = 0, half = 0;
	Part *P;
	char t[64];
	const char *after;

	if (!(P = const_ref(F, m, k, &lo, &hi)))
		return 0;
	at = peep_hole(m, k);
	if (at < 0)
		return 0;
	if (at > 0 && m->text[at - 1] == '[')
		return hi - lo == 1 && P->kind == K_IMM && fold_address(F, m, k, at, P->val);
	from = at, to = at + 2;
	after = m->text + to;
	/* a register-like literal replaces the register alone (RZ: also a
	   pair of zeros) */
	if (P->kind == K_IMM && P->val == 0 && (hi - lo == 1 || part(F, r.v, lo + 1)->val == 0) &&
	    try_lit(F, m, k, from, to, "RZ", C_ANY, 0))
		return 1;
	/* -0.0 of an f32 operation (F..., not FLO) where no immediate fits */
	if (hi - lo == 1 && P->kind == K_IMM && P->val == 0x80000000u && m->text[0] == 'F' &&
	    !peep_pre(m->text, "FLO") && (at == 0 || m->text[at - 1] != '-') && !peep_pre(after, ".H"))
		return try_imm32(F, m, k, from, to, P->val, 0, 0) || try_lit(F, m, k, from, to, "-RZ", C_ANY, 0);
	if (P->kind == K_CBANK) {
		if ((hi - lo == 2 && (part(F, r.v, lo + 1)->val != P->val + 4 || P->val % 8)) ||
		    !fold_may_cbank(F, m, at))
			return 0;
		peep_cbank(t, P->val);
		if (!try_lit(F, m, k, from, to, t, C_ANY, 0))
			return 0;
		return F->cbank_ok = 1;
	}
	/* an immediate takes the register's '-' and half selector with it */
	if (at > 0 && strchr("|~!", m->text[at - 1]))
		return 0;
	if (at > 0 && m->text[at - 1] == '-')
		neg = 1, from--;
	if (peep_pre(after, ".H0_H0"))
		half = 1, to += 6;
	else if (peep_pre(after, ".H1_H1"))
		half = 2, to += 6;
	else if (*after == '.')
		return 0;
	if (hi - lo == 1)
		return try_imm32(F, m, k, from, to, P->val, neg, half);
	/* a pair: an f64 whose low word is zero (F64H slots) */
	if (half || part(F, r.v, lo + 1)->kind != K_IMM || P->val != 0)
		return 0;
	{
		u64 d = (u64)part(F, r.v, lo + 1)->val << 32;
		if (neg)
			d ^= 1ull << 63;
		if (!ftext(t, sizeof t, d, 64))
			return 0;
		return try_lit(F, m, k, from, to, t, C_BITS, (u32)(d >> 32));
	}
}

/* Operations whose operands lo..hi (0 = the destination) commute, with
 * their operand count: the ISA tables know slots, not algebra. */
static const struct {
	const char *op;
	int ntok, lo, hi;
	int rev;          /* a comparison: swapped operands reverse it */
} commute[] = {
	{"IADD3 ", 4, 1, 3, 0}, {"IMAD", 4, 1, 2, 0}, {"FFMA", 4, 1, 2, 0}, {"FADD", 3, 1, 2, 0},
	{"FMUL", 3, 1, 2, 0}, {"FMNMX", 4, 1, 2, 0}, {"IMNMX", 4, 1, 2, 0}, {"VIMNMX", 4, 1, 2, 0},
	{"DADD", 3, 1, 2, 0}, {"DMUL", 3, 1, 2, 0}, {"DFMA", 4, 1, 2, 0},
	{"ISETP.", 5, 2, 3, 1}, {"FSETP.", 5, 2, 3, 1}, {"DSETP.", 5, 2, 3, 1},
};

/* The comparison "a OP b" as "b OP' a": the mnemonic's second part
 * (ISETP.LT.U32.AND -> ISETP.GT.U32.AND) into t; 0 when unknown. */
static int
reverse_cmp(const char *text, char *t, size_t n)
{
	static const char *const pairs[][2] = {
		{"LT", "GT"}, {"LE", "GE"}, {"GT", "LT"}, {"GE", "LE"}, {"EQ", "EQ"}, {"NE", "NE"},
		{"LTU", "GTU"}, {"LEU", "GEU"}, {"GTU", "LTU"}, {"GEU", "LEU"}, {"EQU", "EQU"}, {"NEU", "NEU"},
		{"NUM", "NUM"}, {"NAN", "NAN"},
	};
	const char *a = strchr(text, '.'), *b;
	size_t i, len;

	if (!a)
		return 0;
	a++;
	b = a + strcspn(a, ". ");
	len = (size_t)(b - a);
	for (i = 0; i < sizeof pairs / sizeof *pairs; i++)
		if (strlen(pairs[i][0]) == len && !strncmp(a, pairs[i][0], len)) {
			/* the pairs are as long as each other: t fits */
			memcpy(t, text, (size_t)(a - text));
			strcpy(peep_cat(t + (a - text), pairs[i][1]), b);
			return 1;
		}
	return 0;
}

/* Operand spans of m->text ("OP a, b, c"): starts and ends; count. */
int
fold_operands(const char *text, int *s, int *e, int max)
{
	const char *p = strchr(text, ' '), *q;
	int n = 0;

	if (!p)
		return 0;
	for (p++; n < max; n++) {
		q = peep_comma(p);
		s[n] = (int)(p - text);
		e[n] = q ? (int)(q - text) : (int)strlen(text);
		if (!q)
			return n + 1;
		p = q + 2;
	}
	return -1;
}

/* Fold ref k of m, moving it to another commuting operand when its own
 * slot takes no literal. */
static int
fold_commuted(Fold *F, MIns *m, int k)
{
	int s[6], e[6], n, c, i, j, at;
	char *old, *t;
	size_t len;
	const Part *P;

	if (!(P = const_ref(F, m, k, &i, &j)))
		return 0;   /* no arrangement of the operands folds it */
	/* a c[..] where no operand after a comma may start with one:
	   fold_ref's fold_may_cbank says no for this operand (one of its
	   own, right after a ", ") in every arrangement, which keeps the
	   mnemonic's base and the commas (asked on sm_90, where only LDC
	   has c[..] operands; sm_80 folds most) */
	if (F->sm >= 90 && P->kind == K_CBANK && !F->cbank_ok && (at = peep_hole(m, k)) >= 2 &&
	    m->text[at - 2] == ',' && m->text[at - 1] == ' ' && !peep_may_start_any(F->a, m->text, 'c'))
		return 0;
	if (fold_ref(F, m, k))
		return 1;
	at = peep_hole(m, k);
	for (c = 0; c < (int)(sizeof commute / sizeof *commute); c++)
		if (m->text[0] == commute[c].op[0] && peep_pre(m->text, commute[c].op))
			break;
	if (c == (int)(sizeof commute / sizeof *commute) || at < 0 ||
	    (n = fold_operands(m->text, s, e, 6)) != commute[c].ntok)
		return 0;
	for (i = commute[c].lo; i <= commute[c].hi; i++)
		if (at >= s[i] && at < e[i])
			break;
	if (i > commute[c].hi)
		return 0;
	old = m->text;
	len = strlen(old);
	for (j = commute[c].lo; j <= commute[c].hi; j++) {
		int a = i < j ? i : j, b = i < j ? j : i;
		if (j == i)
			continue;
		/* old[..s[a]) old[s[b]..e[b]) old[e[a]..s[b]) old[s[a]..e[a]) old[e[b]..] */
		t = arena_alloc(F->f->a, len + 1);
		memcpy(t, old, (size_t)s[a]);
		memcpy(t + s[a], old + s[b], (size_t)(e[b] - s[b]));
		memcpy(t + s[a] + (e[b] - s[b]), old + e[a], (size_t)(s[b] - e[a]));
		memcpy(t + s[a] + (e[b] - s[b]) + (s[b] - e[a]), old + s[a], (size_t)(e[a] - s[a]));
		memcpy(t + e[b], old + e[b], len - (size_t)e[b] + 1);
		if (commute[c].rev) {
			char *r = arena_alloc(F->f->a, len + 2);
			if (!reverse_cmp(t, r, len + 2))
				return 0;
			t = r;
		}
		m->text = t;
		if (fold_ref(F, m, k))
			return 1;
		m->text = old;
	}
	return 0;
}

/* P as a scan leaves a part nothing names. */
static void
zero_part(Part *P)
{
	u32 gen = P->gen;

	memset(P, 0, sizeof *P);
	P->gen = gen;
}

/* Drop constant definitions whose parts nobody reads (F->p is what
 * fold_scan would make, and stays so: the parts of a dropped definition
 * go to zero and those defined later in its block move with their
 * definitions, unless a dropped part has another definition: then
 * *exact = 0).  Returns how many.  Only the
 * unread definitions' texts are read: a constant part of a read one
 * names its definition itself (F->p as fold_scan makes it). */
static int
drop_dead(Fold *F, int *exact)
{
	MFunc *f = F->f;
	size_t b, i, j;
	int n = 0;

	*exact = 1;
	for (b = 0; b < f->b.n; b++) {
		MBlock *B = &f->b.v[b];
		for (i = j = 0; i < B->ins.n; i++) {
			MIns *m = &B->ins.v[i];
			u8 kind, wide;
			u32 val;
			if (m->nr == 1 && m->rf[0] == MF_DEF) {   /* const_def's first test */
				int lo, hi, s, used = 0;
				span(f, m->r[0], &lo, &hi);
				for (s = lo; s < hi; s++)
					used |= part(F, m->r[0].v, s)->uses > 0;
				for (s = lo; s < hi && used; s++) {
					Part *P = part(F, m->r[0].v, s);
					if ((P->kind == K_IMM || P->kind == K_CBANK) && P->defb == (int)b && P->defi == (int)i)
						P->defi = (int)j;
				}
				if (!used && const_def(F, m, &kind, &val, &wide)) {
					for (s = lo; s < hi; s++) {
						Part *P = part(F, m->r[0].v, s);
						if (P->ndef > 1)
							*exact = 0;
						else
							zero_part(P);
					}
					n++;
					continue;
				}
			}
			if (j < i)
				B->ins.v[j] = *m;
			j++;
		}
		B->ins.n = j;
	}
	return n;
}

/* ---- readers that cannot fold ----
 *
 * Whether ref k of m folds depends on m's text, its refs and guard, and
 * the parts the ref covers (const_ref's reads), nothing else: not on the
 * other readers, nor on where m is (but for a guarded constant, see
 * guard_holds).  So a reader whose every ref failed once fails again while
 * those stay the same: the later rounds of peep_fold (which mostly confirm
 * that nothing more folds) and the second peep_fold after peep_combine
 * skip it.  Texts are never written in place (a rewrite makes a new one),
 * so the text pointer stands for the text.
 *
 * An entry is the text pointer and a 64-bit hash of the rest (refs,
 * their flags, the guard, the views): 16 bytes, so the table of a median
 * function is a KiB in pages the arena has touched anyway (whole refs and
 * views were ~400 bytes an entry, their slots scattered over 7 pages).
 * Two different keys with one hash for the same text would make a reader
 * that may fold be skipped: a fold missed, never a wrong one (the reader
 * keeps its register, the constant its load). */
typedef struct {
	u32 val[2];
	int guard[2];
	u8 kind[2], gneg[2], lo, hi;
} RefView;

struct FoldMemo {
	/* its memory is the function's arena (zero; nothing freed early for
	   later callocs to clear again) */
	Arena *a;
	/* the parts (Fold.p) too, and their generation: the second
	   peep_fold's scan makes the first's parts stale, no clearing */
	Part *p;
	size_t np;        /* p's room */
	u32 *off;         /* vreg v's parts start at p[off[v]] */
	size_t nv, cv;    /* vregs with parts; off's room */
	u32 gen;
	size_t cap;       /* a power of two */
	size_t n;
	u8 settled;       /* the last peep_fold left nothing for another
			     (fold_round's fixed point) but, after a swap,
			     maybe the swapped readers (swapped) and pairs */
	int sm;
	const char **swapped;   /* the texts fold_swap_pairs gave readers */
	size_t nswapped;
	struct Settled {
		const char *text;   /* NULL: an empty slot */
		u64 key;            /* memo_key of the rest */
	} *e;
};

/* What const_ref reads of ref k of m; 1 when it may name a constant. */
static int
ref_view(Fold *F, const MIns *m, int k, RefView *v)
{
	MRef r = m->r[k];
	int s, lo, hi;

	memset(v, 0, sizeof *v);
	if (!(m->rf[k] & MF_USE) || (m->rf[k] & MF_DEF) || F->f->vr.v[r.v].cls != RC_R)
		return 0;
	span(F->f, r, &lo, &hi);
	if (hi - lo > 2 || hi <= lo)
		return 0;
	if (part(F, r.v, lo)->kind != K_IMM && part(F, r.v, lo)->kind != K_CBANK)
		return 0;   /* const_ref says no whatever the rest is: the zero view */
	v->lo = (u8)lo, v->hi = (u8)hi;
	for (s = lo; s < hi; s++) {
		const Part *P = part(F, r.v, s);
		v->kind[s - lo] = P->kind, v->val[s - lo] = P->val;
		v->guard[s - lo] = P->guard, v->gneg[s - lo] = P->gneg;
	}
	return v->kind[0] == K_IMM || v->kind[0] == K_CBANK;
}

/* One more 64-bit word into hash h. */
static inline u64
mix(u64 h, u64 x)
{
	h = (h ^ x) * 0x9e3779b97f4a7c15ull;
	return h ^ h >> 29;
}

/* The hash of what, besides its text, decides whether m folds: its refs,
 * their flags, its guard and the views v of its refs. */
static u64
memo_key(const MIns *m, const RefView *v)
{
	u64 h = mix((u64)m->nr << 40 | (u64)m->guard_neg << 32, (u32)m->guard);
	int k, s;

	for (k = 0; k < m->nr; k++) {
		h = mix(h, (u64)(u32)m->r[k].v << 32 | (u64)m->r[k].sub << 16 | (u64)m->r[k].w << 8 | m->rf[k]);
		if (v[k].kind[0] == K_NONE)
			continue;   /* ref_view's zero view: nothing more to tell */
		h = mix(h, (u64)v[k].lo << 40 | (u64)v[k].hi << 32 | (u64)v[k].kind[0] << 24 |
			       (u64)v[k].kind[1] << 16 | (u64)v[k].gneg[0] << 8 | v[k].gneg[1]);
		for (s = 0; s < 2; s++)
			h = mix(h, (u64)v[k].val[s] << 32 | (u32)v[k].guard[s]);
	}
	return h;
}

/* m's slot in the memo (its own entry, another's, or an empty one). */
static struct Settled *
memo_slot(FoldMemo *M, const char *text)
{
	size_t i = (size_t)(((uintptr_t)text >> 3) * 0x9e3779b97f4a7c15ull >> 20) & (M->cap - 1);

	while (M->e[i].text && M->e[i].text != text)
		i = (i + 1) & (M->cap - 1);
	return &M->e[i];
}

/* Did m, with these views of its refs, fail before? */
static int
memo_failed(FoldMemo *M, const MIns *m, const RefView *v)
{
	const struct Settled *e = memo_slot(M, m->text);

	return e->text == m->text && e->key == memo_key(m, v);
}

/* Twice the slots, the entries moved over. */
static void
memo_grow(FoldMemo *M)
{
	struct Settled *old = M->e;
	size_t i, cap = M->cap;

	M->cap *= 2;
	M->e = arena_alloc(M->a, M->cap * sizeof *M->e);
	for (i = 0; i < cap; i++)
		if (old[i].text)
			*memo_slot(M, old[i].text) = old[i];
}

/* m, with views v, folds nothing (unless a guarded constant: its answer
 * depends on where m is). */
static void
memo_fail(FoldMemo *M, const MIns *m, const RefView *v)
{
	struct Settled *e;
	int k;

	for (k = 0; k < m->nr; k++)
		if ((v[k].kind[0] == K_IMM || v[k].kind[0] == K_CBANK) &&
		    (v[k].guard[0] >= 0 || (v[k].hi - v[k].lo == 2 && v[k].guard[1] >= 0)))
			return;
	if (4 * (M->n + 1) > 3 * M->cap)
		memo_grow(M);
	e = memo_slot(M, m->text);
	M->n += !e->text;
	e->text = m->text;
	e->key = memo_key(m, v);
}

FoldMemo *
peep_fold_memo(MFunc *f)
{
	FoldMemo *M = arena_alloc(f->a, sizeof *M);

	M->a = f->a;
	M->cap = 64;   /* grows: most readers name no constant */
	M->e = arena_alloc(M->a, M->cap * sizeof *M->e);
	return M;
}

/* M's parts, for f's vregs: min(width, 4) for each, in vreg order (most
 * are one register wide: a quarter of 4 per vreg's pages); those given
 * out keep what they hold (a swap updates them, fold_inserted).  Vregs
 * added since the last call (peep_swap's) take parts after the others';
 * room for 8 (a swap adds a vreg or two: its MOVs, one probe). */
static Part *
memo_parts(FoldMemo *M, const MFunc *f)
{
	size_t v, n = 0, had;   /* the end of the parts given out */
	Part *old = M->p;

	if (M->nv)
		n = M->off[M->nv - 1] + (f->vr.v[M->nv - 1].w < 4 ? f->vr.v[M->nv - 1].w : 4);
	had = n;
	if (M->cv < f->vr.n) {
		u32 *off = M->off;
		M->cv = f->vr.n + 8;
		M->off = arena_alloc(M->a, M->cv * sizeof *M->off);
		if (M->nv)
			memcpy(M->off, off, M->nv * sizeof *off);
	}
	for (v = M->nv; v < f->vr.n; v++) {
		M->off[v] = (u32)n;
		n += f->vr.v[v].w < 4 ? f->vr.v[v].w : 4;
	}
	M->nv = f->vr.n;
	if (M->np < n) {
		M->np = n + 8;
		M->p = arena_alloc(M->a, M->np * sizeof *M->p);
		/* zero already, but written now: the scan reads every part
		   before it writes it, and a fresh page read first faults
		   twice (the zero page, then a page of its own); the parts
		   given out kept (a swap updates them, no scan) */
		if (had)
			memcpy(M->p, old, had * sizeof *M->p);
		memset(M->p + had, 0, (n - had) * sizeof *M->p);
	}
	return M->p;
}

void
fold_uses(Fold *F, const MIns *m, int d)
{
	int k, s, lo, hi;

	for (k = 0; k < m->nr; k++)
		if ((m->rf[k] & MF_USE) && F->f->vr.v[m->r[k].v].cls == RC_R) {
			span(F->f, m->r[k], &lo, &hi);
			for (s = lo; s < hi; s++)
				part(F, m->r[k].v, s)->uses += d;
		}
}

void
fold_inserted(Fold *F, int b, int i)
{
	const MBlock *B = &F->f->b.v[b];
	const MIns *m = &B->ins.v[i];
	Part *P;
	u8 kind, wide;
	u32 val;
	size_t j;
	int k, s, lo, hi, isc;

	F->p = memo_parts(F->memo, F->f);
	F->off = F->memo->off;
	/* the constants defined after it in its block move with it */
	for (j = (size_t)i + 1; j < B->ins.n; j++)
		for (k = 0; k < B->ins.v[j].nr; k++) {
			MRef r = B->ins.v[j].r[k];
			if (!(B->ins.v[j].rf[k] & MF_DEF) || F->f->vr.v[r.v].cls != RC_R)
				continue;
			span(F->f, r, &lo, &hi);
			for (s = lo; s < hi; s++) {
				P = part(F, r.v, s);
				if ((P->kind == K_IMM || P->kind == K_CBANK) && P->defb == b && P->defi == (int)j - 1)
					P->defi = (int)j;
			}
		}
	isc = const_def(F, m, &kind, &val, &wide);
	ASSERT(isc);   /* insert_mov's "MOV t, 0x.." */
	P = part(F, m->r[0].v, 0);
	P->ndef = 1;
	const_part(P, m, b, i, kind, val, wide, 0, 0);
}

/* A round of folding over every reader; returns the operands folded.
 * F->p stays what fold_scan would make of the function: the readers'
 * uses go as they fold, and readers left as constant definitions
 * ("MOV d, t" with t folded) count as such at the end of the round (not
 * before: a round sees the constants of its start).  *again: the next
 * round may fold more -- there are new constants, or a reader that
 * folded still names one (its refs before the fold were tried against
 * its old text).  Else the next round would see the same parts and
 * texts, and every reader would fail again. */
static int
fold_round(Fold *F, int *again)
{
	MFunc *f = F->f;
	size_t b, i;
	int k, s, lo, hi, n = 0, nt = 0, cap = 0, *at = NULL;

	*again = 0;
	for (b = 0; b < f->b.n; b++)
		for (i = 0; i < f->b.v[b].ins.n; i++) {
			MIns *m = &f->b.v[b].ins.v[i];
			RefView v[MI_MAXREF];
			int folded = 0, some = 0;
			if (m->target >= 0)
				continue;
			for (k = 0; k < m->nr; k++)
				some |= ref_view(F, m, k, &v[k]);
			if (!some || memo_failed(F->memo, m, v))
				continue;   /* no ref names a constant, or it failed as it is */
			F->cb = (int)b, F->ci = (int)i;
			for (k = 0; k < m->nr; k++) {
				MRef r = m->r[k];
				if (!fold_commuted(F, m, k))
					continue;
				span(f, r, &lo, &hi);
				for (s = lo; s < hi; s++)
					part(F, r.v, s)->uses--;
				folded = 1;
				k--;
				n++;
			}
			if (!folded)
				memo_fail(F->memo, m, v);
			for (k = 0; folded && k < m->nr && !*again; k++)
				*again = const_ref(F, m, k, &lo, &hi) != NULL;
			if (folded && m->nr == 1) {
				if (nt == cap)
					at = xrealloc(at, (size_t)(cap = 2 * cap + 16) * sizeof *at);
				at[nt++] = (int)b, at[nt++] = (int)i;
			}
		}
	for (k = 0; k < nt; k += 2) {
		MIns *m = &f->b.v[at[k]].ins.v[at[k + 1]];
		u8 kind, wide;
		u32 val;
		if (!const_def(F, m, &kind, &val, &wide))
			continue;
		span(f, m->r[0], &lo, &hi);
		for (s = lo; s < hi; s++) {
			Part *P = part(F, m->r[0].v, s);
			if (P->ndef == 1) {
				const_part(P, m, at[k], at[k + 1], kind, val, wide, s, lo);
				*again = 1;
			}
		}
	}
	free(at);
	return n;
}

/* The constant-bank parts asked about (st[v] 1) stay what they were:
 * each vreg still has its definition (st 2) and a reader (st 4), and no
 * reader takes a c[..] operand. */
static int
cbank_readers_stay(const MFunc *f, const Arch *a, u8 *st)
{
	size_t b, i, v;
	int k;

	for (b = 0; b < f->b.n; b++)
		for (i = 0; i < f->b.v[b].ins.n; i++) {
			const MIns *m = &f->b.v[b].ins.v[i];
			int asked = 0;
			for (k = 0; k < m->nr; k++)
				if (st[m->r[k].v]) {
					st[m->r[k].v] |= m->rf[k] & MF_DEF ? 2 : 0;
					st[m->r[k].v] |= m->rf[k] & MF_USE ? 4 : 0;
					asked |= m->rf[k] & MF_USE;
				}
			/* no arrangement of its operands (fold_commuted's keep the
			   mnemonic and the commas) takes a c[..] */
			if (asked && peep_may_start_any(a, m->text, 'c'))
				return 0;
		}
	for (v = 0; v < f->vr.n; v++)
		if (st[v] && st[v] != 7)
			return 0;
	return 1;
}

/* After a swap: would another peep_fold fold a constant into a swapped
 * reader (new texts, so not in the memo; the only readers whose texts or
 * constants the swap changed) or swap a pair left?  Asked on copies, and
 * not at all for a guarded constant (guard_holds reads its definition's
 * place, which the passes since may have moved). */
static int
swaps_settled(MFunc *f, const Arch *a, FoldMemo *M)
{
	Fold F;
	size_t b, i, q;
	int k, ok = 1;

	memset(&F, 0, sizeof F);
	F.f = f, F.a = a, F.sm = M->sm, F.memo = M, F.p = M->p, F.off = M->off, F.gen = M->gen;
	for (b = 0; b < f->b.n && ok; b++)
		for (i = 0; i < f->b.v[b].ins.n && ok; i++) {
			const MIns *m = &f->b.v[b].ins.v[i];
			for (q = 0; q < M->nswapped && M->swapped[q] != m->text; q++)
				;
			if (q == M->nswapped)
				continue;
			F.cb = (int)b, F.ci = (int)i;
			for (k = 0; k < m->nr && ok; k++) {
				MIns tmp = *m;
				int lo, hi, s;
				span(f, m->r[k], &lo, &hi);
				for (s = lo; s < hi && s < lo + 2; s++) {
					const Part *P = part(&F, m->r[k].v, s);
					ok &= (P->kind != K_IMM && P->kind != K_CBANK) || P->guard < 0;
				}
				ok = ok && !fold_commuted(&F, &tmp, k);
			}
		}
	ok = ok && !fold_swap_pairs(&F, 1);
	buf_free(&F.tb);
	return ok;
}

/* After a settled peep_fold, another (its fold_scan, rounds, drop_dead
 * and fold_swap_pairs) folds, drops and swaps nothing while the
 * instructions naming a constant part, or the guard of a guarded one, are
 * as they were: the other readers fail again as they did (memo_failed;
 * guard_holds: an instruction writing such a guard names it), the
 * constants keep their kind, value and readers (a changed instruction
 * names none, and only the register its removed definition wrote loses
 * a definition), and the pairs their readers.  A changed one may name an
 * unguarded constant-bank part that keeps its definition and a reader
 * where no reader takes a c[..] operand (sm_90's parameters): it stays
 * unfolded and loaded.  After a swap, the swapped readers and pairs are
 * asked (swaps_settled).  (The one difference: the probe vreg
 * fold_swap_pairs makes when there are pairs, named by no instruction, is
 * not made.) */
int
peep_fold_settled(MFunc *f, const Arch *a, FoldMemo *M, const u8 *named)
{
	size_t v;
	int s, ok = 1;
	u8 *st = NULL;

	if (!M->settled)
		return 0;
	for (v = 0; v < f->vr.n && v < M->nv && ok; v++)
		for (s = 0; s < f->vr.v[v].w && s < 4; s++) {
			const Part *P = &M->p[M->off[v] + (size_t)s];
			if (P->gen != M->gen || (P->kind != K_IMM && P->kind != K_CBANK) ||
			    !(named[v] || (P->guard >= 0 && named[P->guard])))
				continue;
			if (P->kind != K_CBANK || P->guard >= 0) {
				ok = 0;
				break;
			}
			if (!st)
				st = xcalloc(f->vr.n + 1, 1);
			st[v] = 1;
		}
	if (ok && st)
		ok = cbank_readers_stay(f, a, st);
	free(st);
	return ok && (!M->nswapped || swaps_settled(f, a, M));
}

int
peep_fold(MFunc *f, const Arch *a, int sm, FoldMemo *memo)
{
	Fold F;
	int n = 0, round, again, exact;

	memset(&F, 0, sizeof F);
	F.f = f, F.a = a, F.sm = sm, F.cb = F.ci = -1, F.memo = memo;
	F.p = memo_parts(memo, f);
	F.off = memo->off;
	F.gen = memo->gen;
	fold_scan(&F);
	/* a folded copy becomes a constant definition itself: a few rounds
	   (while one may fold more; a rescan may find new constants too) */
	memo->settled = 0;
	for (round = 0; round < 3; round++) {
		int changed = fold_round(&F, &again);
		n += changed;
		drop_dead(&F, &exact);
		if (!exact)
			fold_scan(&F);
		if (!changed || (!again && exact)) {
			memo->settled = 1;
			break;
		}
	}
	memo->nswapped = 0;
	if (fold_swap_pairs(&F, 0)) {
		drop_dead(&F, &exact);
		memo->sm = sm;
		memo->nswapped = F.swapped.n;
		memo->swapped = arena_alloc(memo->a, F.swapped.n * sizeof *memo->swapped);
		memcpy(memo->swapped, F.swapped.v, F.swapped.n * sizeof *memo->swapped);
	}
	vec_free(&F.swapped);
	memo->gen = F.gen;
	buf_free(&F.tb);
	return n;
}
