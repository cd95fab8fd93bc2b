/* isa_impl.h -- the per-architecture instruction-form tables.
 *
 * A form is one shape of instruction text, learned from the oracle
 * (tools/isa-learn; see docs/findings-encoding.md):
 *   - mask/match: the bits that select it (opcode, operand kinds);
 *   - dflt: bits the printer ignores, as ptxas sets them (for encoding);
 *   - tmpl: the text, literal characters with holes; a hole is the byte
 *     HOLE followed by (field index + 1) within the form;
 *   - fields: where each hole's value lives in the word and how it prints.
 * Forms are tried in table order (most specific first) within the bucket
 * of their opcode bits (lo & 0xfff).  The tables are generated into
 * src/sm90/forms.c and src/sm80/forms.c by tools/isa-gentab from
 * specs/sm_XX/forms.txt; do not edit them by hand.  The generator also
 * precomputes the decoder's index (see isa/index.c) and the strings'
 * lengths, so nothing is built at run time. */
#ifndef OA_ISA_IMPL_H
#define OA_ISA_IMPL_H

#include <string.h>

#include "isa/isa.h"

#define HOLE '\x01'

enum {
	FK_R, FK_UR, FK_P, FK_UP, FK_B, FK_SB,  /* registers: RZ=255, URZ=63, PT=UPT=7 */
	FK_HEX,                                  /* integer printed in hex */
	FK_F32, FK_F64H, FK_F16,                 /* float immediates (F64H: top 32 bits) */
	FK_DEC,                                  /* unsigned decimal */
	FK_ENUM                                  /* value -> string table */
};
enum { FF_SIGNED = 1, FF_PCREL = 2, FF_OPTPLUS = 4 };
/* enums[]: a string id, 0xffff for a value the oracle rejects; bit 15 marks
 * a value whose text another value also prints and the parser must not
 * choose (decode only). */
enum { ENUM_ID = 0x7fff, ENUM_DECODE_ONLY = 0x8000, ENUM_INVALID = 0xffff };

/* A run of consecutive word bits holding consecutive value bits. */
typedef struct {
	u8 wbit, len, vshift;
} IsaRun;

typedef struct {
	u8 kind, flags;
	u8 nbits;      /* width of the value */
	u8 scale;      /* HEX: value << scale */
	u32 bitpos;    /* arch->bitpos[bitpos + k] = word bit of value bit k, 255 = none */
	u32 table;     /* ENUM: arch->enums[table + v], see ENUM_* */
	u32 sorted;    /* ENUM: its parser index at arch->esort + sorted, 0 = none */
	u64 orval;     /* value bits that no word bit holds */
	u8 nruns;      /* the same bits as at most 4 runs (0: use bitpos; else
			* orval is 0, and one run is under 64 bits) */
	IsaRun run[4];
	/* ENUM, for the parser: the first byte of every string it may choose
	 * but the empty one (0: no one byte), and the value + 1 whose string
	 * is empty (0: none) */
	u8 lead;
	u16 empty;
} IsaField;

/* Decoder index (isa/index.c): a decision tree per opcode bucket.  Node
 * op (0..4095) is bucket op's root; an inner node tests word bit `bit`
 * and continues at a (bit 0) or a + 1 (bit 1); a leaf (bit ISA_LEAF)
 * holds cand[a .. a + b). */
enum { ISA_LEAF = 0xff };
typedef struct {
	u32 a;
	u16 b;
	u8 bit;
} IsaNode;

/* A leaf's candidate form, its mask/match inline; chk[chk .. chk + nchk):
 * its enumeration fields that have values the oracle rejects (the only
 * fields that can veto a form whose bits match); op[op0 .. op0 + nop):
 * its field extraction program; cnst: some field has constant value bits. */
typedef struct {
	Word mask, match;
	u32 form;
	u32 chk, nchk;
	u32 op0;
	u16 nop;
	u8 cnst;
} IsaCand;

/* One run of len word bits (len >= 1) into field fi's value:
 * vals[fi] = (first ? 0 : vals[fi]) | (half >> shift & (2^len - 1)) << vshift,
 * half = hi ? w.hi : w.lo. */
typedef struct {
	u8 hi, shift, len, vshift, fi, first;
} IsaOp;

/* The most fields a form has (15 in the tables; test isa_tables_generated checks):
 * isa/parse.c's matcher keeps one value per field on the stack, deep in
 * isel's calls, where 256 of them (2 KiB) reached another stack page. */
#define ISA_MAX_FIELDS 32

typedef struct {
	Word mask, match, dflt;
	const char *tmpl;
	u32 field0;    /* arch->fields[field0 .. field0 + nfield) */
	u16 nfield;
	u16 base;      /* string id of the first mnemonic token, e.g. "IMAD" */
	u8 uguard;     /* the guard is a uniform predicate: "@!UP0 UIADD3 ..." */
	u8 pcrel;      /* some field is pc-relative (FF_PCREL) */
	u8 twin;       /* a field shows twice in the template ("BAR.SYNC R4, R4") */
	u8 sole;       /* every word the parser makes of it decodes as it (isa-gentab's sole) */
	u16 hz;        /* its operand program for the hazard decoder at arch->hzop + hz,
			  0: none (src/codegen/hz_decode.c; in the padding) */
} IsaForm;

/* A form as the parser tries it (Arch.by_base, in the order tried): its
 * quick test (see parse_text) and its index.  Together, so that a parse
 * walks one array, not a form per step. */
typedef struct {
	/* the classes (isa_quick) of the bytes but space that every text
	 * of the form has */
	u64 need;
	/* per comma of the text counted from its end (the last 7): the
	 * classes (opclass in isa/parse.c) of the byte after its ", " the
	 * form allows; 0xffff: any */
	u16 opc[7];
	u8 cmin, cmax; /* its least and most commas (255: no bound) */
	u32 form;
	/* the bytes (up to 4, little-endian; 0: none) every text of the form
	 * has right after its last ", " */
	u32 last;
} IsaTry;

/* A base mnemonic ("IMAD"): its forms are by_base[lo .. lo + n).  key: its
 * first 7 bytes as a big-endian number (zeros after its end), so numbers
 * compare as the names' first 7 bytes do; the bases are sorted by name. */
typedef struct {
	u64 key;
	u32 lo;
	u16 n, str;
} IsaBase;
enum { ISA_BASE_SLOTS = 512 };

struct Arch {
	const char *name;
	int sm;
	const IsaForm *forms;
	u32 nforms;
	const IsaField *fields;
	const u8 *bitpos;
	const u16 *enums;
	const char *const *strs;
	const u32 *bucket_start; /* 4097 entries, indexes into bucket */
	const u32 *bucket;       /* form indices, most specific first */
	const IsaTry *by_base;   /* the forms sorted by base mnemonic, then priority */
	const IsaBase *bases;    /* the base mnemonics, sorted */
	u32 nbases;
	const u8 *base_slot;     /* ISA_BASE_SLOTS: the bases hashed (isa_base_find) */
	const u64 *sinfo;        /* per string: length | its first 7 bytes << 8 (s[0] lowest) */
	const IsaNode *node;     /* the decoder index (see IsaNode) */
	u32 nnode;
	const IsaCand *cand;
	u32 ncand;
	const u32 *chk;          /* field indices */
	const IsaOp *op;
	const Word *shown;       /* per form: the bits its text shows (mask, fields) */
	/* per enumeration of 16 values or more: m, then the set of the first
	 * bytes of its non-empty strings the parser may choose (8 words: byte
	 * b is bit b & 15 of word b >> 4; all are below 128), then the m values
	 * the parser may choose (not decode-only) sorted by (string, value),
	 * then for each the position + 1 of the last earlier one whose string
	 * is a prefix of its own, 0 if none (see isa_enum_at in isa/parse.c) */
	const u16 *esort;
	const u8 *hzop;          /* the hazard decoder's operand programs (IsaForm.hz) */
};

extern const Arch arch_sm80, arch_sm90;

/* The form that decodes w, or NULL (isa/index.c: a decision tree per
 * opcode bucket); isa_match_scan is the plain scan of the bucket it
 * replaces, kept for tests; isa_index_stats: the trees' size. */
const IsaForm *isa_match(const Arch *a, Word w);
const IsaForm *isa_match_scan(const Arch *a, Word w);
void isa_index_stats(const Arch *a, u32 *nodes, u32 *cands);
/* The form of w and the values of all its fields (vals[nfield], at most
 * 255), or NULL: isa_match and isa_field_get for each field, in one pass. */
const IsaForm *isa_decode(const Arch *a, Word w, u64 *vals);
/* The forms of base mnemonic name[0..n): by_base[*lo .. *end); 0 when
 * there is no such mnemonic (isa/parse.c). */
int isa_base_find(const Arch *a, const char *name, size_t n, u32 *lo, u32 *end);
/* Value of field f in w: inline for a field in one run of word bits (nine
 * fields in ten), else isa_field_get_any. */
u64 isa_field_get_any(const Arch *a, const IsaField *f, Word w);
static inline u64
isa_field_get(const Arch *a, const IsaField *f, Word w)
{
	if (f->nruns == 1) {
		const IsaRun *r = &f->run[0];
		u64 src = r->wbit < 64 ? w.lo >> r->wbit : w.hi >> (r->wbit - 64);

		return f->orval | (src & ((2ull << (r->len - 1)) - 1)) << r->vshift;
	}
	return isa_field_get_any(a, f, w);
}
/* The value of hexadecimal field f holding v: a pc-relative one's target
 * from the instruction at addr (print.c). */
i64 isa_hex_value(const IsaField *f, u64 v, u64 addr);
/* The values of enumeration field f whose string the text s starts with
 * (not decode-only), in value order, into ks[ISA_ENUM_AT]; returns how
 * many.  isa_enum_at uses the generated index (esort) where there is one,
 * isa_enum_scan reads the whole table (both in isa/parse.c).  s must have
 * 7 readable bytes after its end. */
enum { ISA_ENUM_AT = 16 };
u32 isa_enum_at(const Arch *a, const IsaField *f, const char *s, u16 *ks);
u32 isa_enum_scan(const Arch *a, const IsaField *f, const char *s, u16 *ks);
/* Store v in field f of *w, whose bits of f must be zeros (as in a word
 * of the form's match, defaults, guard and yield bit: tools/isa-gentab's
 * own_bits); returns -1 if v does not fit.  Inline for a field in one run
 * of word bits, ORed in: the run is the value's nbits bits from bit 0,
 * nbits < 64, no constant bits (the generator refuses other one-run
 * fields); else isa_field_set_any (isa/parse.c). */
int isa_field_set_any(const Arch *a, const IsaField *f, Word *w, u64 v);
static inline int
isa_field_set(const Arch *a, const IsaField *f, Word *w, u64 v)
{
	if (f->nruns == 1) {
		u8 b = f->run[0].wbit;

		if (v >> f->nbits)
			return -1;
		*(b < 64 ? &w->lo : &w->hi) |= v << (b & 63);
		return 0;
	}
	return isa_field_set_any(a, f, w, v);
}

/* isa_parse without its memo and with isa_print's print-back check for
 * every form whose template matches (isa_parse checks most without
 * printing): the same answers, for tests (isa/parse.c). */
int isa_parse_plain(const Arch *a, const char *text, u64 addr, const IsaSyms *syms, Word *w, char *err,
		    size_t errlen, size_t *errpos);
/* isa_print, returning w's form (isa_match's; NULL: printed as UNKNOWN). */
const IsaForm *isa_print_form(const Arch *a, Word w, u64 addr, const IsaSyms *syms, Buf *out);
/* isa_print without its memo (isa/print.c), for tests. */
int isa_print_plain(const Arch *a, Word w, u64 addr, const IsaSyms *syms, Buf *out);

/* The parser's quick test of a form against a text (the text after any
 * guard; see IsaTry): isa_quick reads the text once (8 zero bytes must
 * follow it, as in parse_text's copy), isa_quick_ok says whether the form
 * of t may match it (isa/parse.c). */
typedef struct {
	u64 have;     /* its bytes' classes: bit (ch ^ ch >> 1) & 63 of each ch */
	u32 commas;
	u32 last;     /* its first 4 bytes after its last ", " (0 past its end) */
	u16 cls[16];  /* per comma (the first 16): 1 << the class of the byte after
		       * ", " (0xffff: no space) */
} IsaQuick;
void isa_quick(const char *body, IsaQuick *q);
static inline int
isa_quick_ok(const IsaTry *t, const IsaQuick *q)
{
	u32 k;

	if ((t->need & ~q->have) || q->commas < t->cmin || q->commas > t->cmax)
		return 0;
	if (t->last) {	/* its bytes (all below 128): 0x80 in each, then 0xff */
		u32 m = ((t->last & 0x7f7f7f7fu) + 0x7f7f7f7fu) & 0x80808080u;

		if ((q->last ^ t->last) & (m >> 7) * 0xff)
			return 0;
	}
	for (k = 0; k < q->commas && k < 7; k++)
		if (q->commas - 1 - k < 16 && !(t->opc[k] & q->cls[q->commas - 1 - k]))
			return 0;
	return 1;
}

/* Does fm's template match body (a text after its guard; no symbols)?
 * For tests: the quick test may reject only texts this rejects
 * (isa/parse.c). */
int isa_tmpl_matches(const Arch *a, const IsaForm *fm, const char *body, u64 addr);

/* A hash of text[0..n), 8 bytes at a time, for the memos' slots (isa_parse's
 * texts, peep_probe's answers): its top 32 bits are the best mixed. */
static inline u64
isa_text_hash(const char *text, size_t n)
{
	u64 h = 0, x;
	size_t i;

	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&x, text + i, 8);
		h = (h ^ x) * 0x9e3779b97f4a7c15ull;
		h ^= h >> 29;
	}
	x = 0;
	memcpy(&x, text + i, n - i);
	return (h ^ x ^ n) * 0xff51afd7ed558ccdull;
}

/* The index of a per-thread memo (isa_parse's texts, isa_print's words,
 * isa_float_text's constants).  Entries are taken in order, so a small
 * compile touches a few pages of them, not a page per entry (a page fault
 * costs more than a parse).  While there are at most MEMO_FEWMAX entries
 * the index is few[] (768 bytes), on the page the block's header is on
 * (written when the block is made) with the first entries; then all[]
 * (MEMO_SLOTS slots, after the entries: a page a small compile never
 * touches), filled again from each entry's key's hash (hash_of).  An index
 * of 1536 slots from the start took 3 KiB of that first page.
 * Open addressing: a slot holds an entry's index + 1 (11
 * bits) and 5 bits of its hash, a tag.  memo_find returns the entry for
 * hash h: the first on h's probe path whose tag is h's, which the caller
 * checks and, if its key is another, overwrites; or a new entry, cleared
 * (of the array e of entries of size bytes; a write, so a fresh page of
 * them faults once, not for the caller's read and again for its write).
 * When the entries run out (all[] two thirds full), all go.  An entry left
 * from before a reset still maps its own key to its own value. */
enum { MEMO_SLOTS = 1536, MEMO_ENTRIES = 1024, MEMO_IBITS = 11, MEMO_FEW = 384, MEMO_FEWMAX = 256 };
typedef struct {
	u16 n;
	u16 big;	/* all[] is the index (from the first entry past MEMO_FEWMAX on) */
	u16 few[MEMO_FEW];
} MemoIndex;
_Static_assert(MEMO_ENTRIES < 1 << MEMO_IBITS && 2 * MEMO_SLOTS >= 3 * MEMO_ENTRIES &&
		       2 * MEMO_FEW >= 3 * MEMO_FEWMAX,
	       "a slot holds an entry's index + 1; the index at most two thirds full");

/* The slot for tag in slot[ns] on the probe path of h: its tag's, or the
 * first empty one. */
static inline u32
isa_memo_slot(const u16 *slot, u32 ns, u32 h, u32 tag)
{
	u32 i = ((h ^ h >> 12) & 0xffff) * ns >> 16, s;

	while ((s = slot[i]) && s >> MEMO_IBITS != tag)
		i = i + 1 == ns ? 0 : i + 1;
	return i;
}

/* A new entry for h (memo_find's) when few[] is full (then all[] takes
 * the entries, indexed again by their keys' hashes: hash_of) or all the
 * entries are taken (then all go; all[] stays the index: a compile that
 * filled it once will again, and each move costs a hash_of per entry). */
u32 isa_memo_renew(MemoIndex *x, u16 *all, u32 h, void *e, size_t size, u32 (*hash_of)(const void *e, u32 j));

static inline u32
memo_find(MemoIndex *x, u16 *all, u32 h, void *e, size_t size, u32 (*hash_of)(const void *e, u32 j))
{
	u32 tag = h >> (32 - (16 - MEMO_IBITS)), i;
	u16 *slot;

	if (!x->big)
		i = isa_memo_slot(slot = x->few, MEMO_FEW, h, tag);
	else
		i = isa_memo_slot(slot = all, MEMO_SLOTS, h, tag);
	if (slot[i])
		return (slot[i] & ((1u << MEMO_IBITS) - 1)) - 1u;
	if (x->n == (x->big ? MEMO_ENTRIES : MEMO_FEWMAX))
		return isa_memo_renew(x, all, h, e, size, hash_of);
	slot[i] = (u16)(tag << MEMO_IBITS | ++x->n);
	memset((char *)e + (size_t)(x->n - 1) * size, 0, size);
	return x->n - 1;
}

/* The text of a field holding v (of the instruction at addr), as
 * isa_print spells it without labels, into t (ISA_FLOAT_TEXT bytes at
 * least): its length, or -1 for an enumeration (isa/print.c). */
int isa_value_text(const IsaField *f, u64 v, u64 addr, char *t);
/* Enter text[0..n) as isa_print's text for w (a word of form fm, which
 * isa_match gives for w and has no pc-relative field, that prints exactly
 * that) in its memo: the parser's print-back shortcut shows the text
 * without printing it, and the hazard decoder and the listing print the
 * word again. */
void isa_print_seed(const Arch *a, const IsaForm *fm, Word w, const char *text, size_t n, int exact);
/* The form isa_print prints w by when its memo holds w's text (this thread
 * printed w's operation bits lately, or parsed them: isa_print_seed),
 * without a match; NULL when it does not. */
const IsaForm *isa_print_known(const Arch *a, Word w);

/* "@!P0 " guard prefix ("@!UP0 " when up), or nothing for PT. */
void isa_print_guard(Word w, int up, Buf *out);

/* nvdisasm's rendering of a float immediate (raw bits of an f16, f32 or f64);
 * isa_float_text writes it into t (ISA_FLOAT_TEXT bytes) and returns its
 * length (isa/float.c, memoized). */
enum { ISA_FLOAT_TEXT = 38 };
void isa_fmt_float(Buf *out, u64 raw, int bits);
size_t isa_float_text(u64 raw, int bits, char *t);
int isa_float_printed(const char *s, size_t n, int bits, u64 *raw);

#endif
