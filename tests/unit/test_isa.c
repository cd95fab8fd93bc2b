/* test_isa.c -- control bits, float immediates, the golden pairs. */
#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "isa/golden.h"
#include "isa/isa_impl.h"
#include "test.h"

/* measured floors (fractions of words that round-trip); raise them as the tables grow */
#define GOLDEN_FLOOR_SM90 1.0
#define GOLDEN_FLOOR_SM80 1.0

TEST(isa_ctrl_fields)
{
	/* EXIT as ptxas emits it: stall 5, yield bit 1, no scoreboards */
	Word w = { 0x000000000000794dull, 0x000fea0003800000ull };
	Ctrl c = ctrl_get(w);
	char t[CTRL_TEXT + 1];
	Ctrl back;
	const char *end;

	CHECK(c.stall == 5 && c.yield == 1 && c.wrsb == 7 && c.rdsb == 7 && c.wait == 0);
	*ctrl_text(c, t) = 0;
	CHECK_STR(t, "[B------:R-:W-:-:S05]");
	CHECK(ctrl_parse(t, &back, &end) == 0 && *end == 0);
	CHECK(memcmp(&back, &c, sizeof c) == 0);
	w = ctrl_set(w, back);
	CHECK_EQ_U64(w.hi, 0x000fea0003800000ull);
}

TEST(isa_ctrl_roundtrip_all)
{
	u32 v;

	/* every value of the 23-bit field prints and parses back */
	for (v = 0; v < (1u << 23); v += 7) {
		Word w = { 0, (u64)v << 41 }, x = { 0, 0 };
		char t[CTRL_TEXT + 1];
		Ctrl c;

		/* reuse flags shown by the text (yield bit 1) are not in the comment */
		if (w.hi >> 45 & 1)
			w.hi &= ~(0xfull << 58);
		*ctrl_text(ctrl_get(w), t) = 0;
		if (ctrl_parse(t, &c, NULL) || (x = ctrl_set(x, c)).hi != w.hi) {
			FAIL("ctrl 0x%x: %s", v, t);
			return;
		}
	}
}

TEST(isa_ctrl_bad)
{
	Ctrl c;

	CHECK(ctrl_parse("[B------:R-:W-:Y:S16]", &c, NULL) == -1);
	CHECK(ctrl_parse("[B-----:R-:W-:Y:S01]", &c, NULL) == -1);
	CHECK(ctrl_parse("[B------:R7:W-:Y:S01]", &c, NULL) == -1);
	CHECK(ctrl_parse("B------:R-:W-:Y:S01]", &c, NULL) == -1);
}

TEST(isa_float_format)
{
	static const struct { u64 raw; int bits; const char *text; } v[] = {
		{ 0x3f800000, 32, "1" }, { 0x80000000, 32, "-0.0 " }, { 0x7f800000, 32, "+INF " },
		{ 0xffc00000, 32, "-QNAN " }, { 0x7f800001, 32, "+SNAN " },
		{ 0x3dcccccd, 32, "0.10000000149011611938" },
		{ 0x4e6e6b28, 32, "1.00000000000000000000e+09" }, { 0x4e6e6b27, 32, "999999936" },
		{ 0x00000001, 32, "1.4012984643248170709e-45" },
		{ 0x3c00, 16, "1" }, { 0x0001, 16, "5.9604644775390625e-08" }, { 0x7bff, 16, "65504" },
		{ 0x41cdcd6500000000ull, 64, "1.00000000000000000000e+09" },
	};
	size_t i;

	for (i = 0; i < NELEM(v); i++) {
		Buf b = { 0 };

		isa_fmt_float(&b, v[i].raw, v[i].bits);
		CHECK_STR(b.s, v[i].text);
		buf_free(&b);
	}
}

/* isa_float_text (fmt_double's exact digits, and its
 * memo) against printf's "%.20g" / "%.20e": every f32 with a 10-bit
 * mantissa and f64 dyadic rationals. */
static int
float_printf_ok(u64 raw, int bits)
{
	char a[ISA_FLOAT_TEXT + 1], b[64];
	size_t n = isa_float_text(raw, bits, a);
	double x;

	a[n] = 0;
	if (bits == 32) {
		float f;
		u32 r = (u32)raw;

		memcpy(&f, &r, 4);
		x = f;
	} else {
		memcpy(&x, &raw, 8);
	}
	if (isnan(x) || isinf(x) || x == 0)
		return 1;	/* the special spellings: isa_float_format */
	snprintf(b, sizeof b, fabs(x) >= 1e9 ? "%.20e" : "%.20g", x);
	return !strcmp(a, b);
}

TEST(isa_float_text_printf)
{
	size_t bad = 0;
	u32 s, e, m;
	int k;

	for (s = 0; s < 2; s++)
		for (e = 0; e < 255; e++)
			for (m = 0; m < 1024; m++)
				bad += !float_printf_ok((u64)s << 31 | e << 23 | m << 13, 32);
	for (k = 0; k < 64; k++)
		for (m = 1; m < 4096; m += 7) {
			double d = ldexp((double)m, -k) * (m & 2 ? -1 : 1);
			u64 r;

			memcpy(&r, &d, 8);
			bad += !float_printf_ok(r, 64);
		}
	CHECK(bad == 0);
}

TEST(isa_arch_lookup)
{
	CHECK(arch_lookup("sm_90") && arch_sm(arch_lookup("SM90")) == 90);
	CHECK(arch_lookup("80") && !strcmp(arch_name(arch_lookup("sm80")), "sm_80"));
	CHECK(!arch_lookup("sm_75") && !arch_lookup("sm_9") && !arch_lookup("sm_900"));
}

TEST(isa_unknown_roundtrip)
{
	const Arch *a = arch_lookup("sm_90");
	Word w = { 0x0123456789abcdefull, 0xfedcba9876543210ull }, e;
	Buf b = { 0 };
	char err[100];

	/* a word no form knows prints as UNKNOWN and parses back exactly */
	w.lo = (w.lo & ~0xfffull) | 0xfff;
	CHECK(isa_print(a, w, 0, NULL, &b) == -1);
	CHECK(isa_parse(a, b.s, 0, NULL, &e, err, sizeof err, NULL) == 0);
	CHECK_EQ_U64(e.lo, w.lo);
	CHECK_EQ_U64(e.hi, w.hi);
	buf_free(&b);
}

TEST(isa_parse_errors)
{
	const Arch *a = arch_lookup("sm_90");
	Word e;
	char err[100];
	size_t pos = 99;

	char small[12], want[12], big[700];

	CHECK(isa_parse(a, "NOSUCHOP R1, R2", 0, NULL, &e, err, sizeof err, &pos) == -1);
	CHECK_STR(err, "unknown opcode 'NOSUCHOP'");
	CHECK(pos == 0);
	CHECK(isa_parse(a, "@P1 NOSUCHOP", 0, NULL, &e, err, sizeof err, &pos) == -1 && pos == 4);
	CHECK(isa_parse(a, "@Q1 EXIT", 0, NULL, &e, err, sizeof err, &pos) == -1);
	CHECK_STR(err, "bad guard predicate");
	CHECK(isa_parse(a, "IMAD R1, R2, R3, R4, R5", 0, NULL, &e, err, sizeof err, &pos) == -1);
	CHECK_STR(err, "no form of this instruction matches these operands");
	CHECK(pos == 4);
	/* cut as snprintf cuts */
	CHECK(isa_parse(a, "NOSUCHOP R1", 0, NULL, &e, small, sizeof small, &pos) == -1);
	memcpy(want, "unknown opcode 'NOSUCHOP'", sizeof want - 1);	/* what snprintf leaves */
	want[sizeof want - 1] = 0;
	CHECK_STR(small, want);
	memset(big, 'A', sizeof big - 1);
	big[sizeof big - 1] = 0;
	CHECK(isa_parse(a, big, 0, NULL, &e, err, sizeof err, &pos) == -1);
	CHECK_STR(err, "instruction text too long");
	CHECK(isa_parse(a, big + 300, 0, NULL, &e, err, sizeof err, &pos) == -1);
	CHECK(strlen(err) == strlen("unknown opcode ''") + 63 && !strncmp(err, "unknown opcode 'AAA", 19));
}

/* A spelling nvdisasm does not use for a word but that a form's template
 * gives ("IMAD R15, R12, 0x0, R15": nvdisasm says IMAD.MOV) encodes as that
 * word; the printer gives the oracle's spelling. */
TEST(isa_parse_alias)
{
	static const char *const arches[] = { "sm_90", "sm_80" };
	size_t i;

	for (i = 0; i < NELEM(arches); i++) {
		const Arch *a = arch_lookup(arches[i]);
		Word w, v;
		Buf b = { 0 };
		char err[100];

		CHECK(isa_parse(a, "IMAD R15, R12, 0x0, R15", 0, NULL, &w, err, sizeof err, NULL) == 0);
		CHECK(isa_print(a, w, 0, NULL, &b) == 0);
		CHECK_STR(b.s, "IMAD.MOV R15, R12, 0x0, R15");
		/* the canonical text encodes too (bits it does not show may differ) */
		CHECK(isa_parse(a, b.s, 0, NULL, &v, err, sizeof err, NULL) == 0);
		buf_free(&b);
		CHECK(isa_print(a, v, 0, NULL, &b) == 0);
		CHECK_STR(b.s, "IMAD.MOV R15, R12, 0x0, R15");
		buf_free(&b);
	}
}

/* BAR with the barrier id and the thread count in one register (ptxas
 * packs them: BAR.SYNC R4, R4) decodes for any register, from one form
 * whose template shows the field twice: the words of tests/emu/barreg's
 * cubins and registers no probe used; the text encodes back; two
 * different registers are not that form (the printed-back text differs). */
TEST(isa_bar_register_pair)
{
	static const struct { const char *arch; u64 lo, hi; const char *text; } t[] = {
		{ "sm_90", 0x000000040000731dull, 0x0003e40000010000ull, "BAR.SYNC.DEFER_BLOCKING R4, R4" },
		{ "sm_90", 0x000000040000731dull, 0x0001e40000014000ull, "BAR.RED.POPC.DEFER_BLOCKING R4, R4, P0" },
		{ "sm_90", 0x000000fe0000731dull, 0x000fe20000010000ull, "BAR.SYNC.DEFER_BLOCKING R254, R254" },
		{ "sm_90", 0x0000002a0000731dull, 0x000fe20000014800ull, "BAR.RED.OR.DEFER_BLOCKING R42, R42, P0" },
		{ "sm_80", 0x0000000a0000731dull, 0x000fe20000010000ull, "BAR.SYNC.DEFER_BLOCKING R10, R10" },
		{ "sm_80", 0x000000c80000731dull, 0x000fe20000010000ull, "BAR.SYNC.DEFER_BLOCKING R200, R200" },
	};
	size_t i;

	for (i = 0; i < NELEM(t); i++) {
		const Arch *a = arch_lookup(t[i].arch);
		Word w = { t[i].lo, t[i].hi }, e;
		Buf b = { 0 };
		char err[200];

		CHECK(isa_print(a, w, 0, NULL, &b) == 0);
		CHECK_STR(b.s, t[i].text);
		buf_free(&b);
		CHECK(isa_parse(a, t[i].text, 0, NULL, &e, err, sizeof err, NULL) == 0);
		CHECK_EQ_U64(e.lo, w.lo);
		/* the operation bits; the control bits come from the listing */
		CHECK_EQ_U64(e.hi & 0x1ffffffffffull, w.hi & 0x1ffffffffffull);
	}
	{
		const Arch *a = arch_lookup("sm_90");
		Word e;
		char err[200];

		CHECK(isa_parse(a, "BAR.SYNC.DEFER_BLOCKING R4, R5", 0, NULL, &e, err, sizeof err, NULL) == -1);
	}
}

/* The golden pairs: every word ptxas emitted for the probe corpus must
 * decode to the oracle's text and encode back from it.  The floors are
 * the measured state of the tables (docs/STATUS.md); they only go up. */
static void
golden(TestState *t_, const char *path, double floor)
{
	GoldenStats st;
	FILE *f = fopen(path, "r");

	if (!f)
		SKIP("golden file missing");
	fclose(f);
	CHECK(golden_check(path, NULL, NULL, &st) == 0);
	CHECK(st.words > 0);
	if (st.decoded < floor * st.words || st.encoded_hidden < floor * st.words)
		FAIL("%s: decode %zu/%zu, encode %zu/%zu, floor %.4f", path, st.decoded, st.words,
		     st.encoded_hidden, st.words, floor);
	printf("  %s: %zu words, decode %.2f%%, encode %.2f%% (from the oracle's text alone %.2f%%)\n",
	       path, st.words, 100.0 * st.decoded / st.words, 100.0 * st.encoded_hidden / st.words,
	       100.0 * st.encoded / st.words);
}

TEST(isa_golden_sm90)
{
	golden(t_, "tests/golden/sm_90.txt", GOLDEN_FLOOR_SM90);
}

TEST(isa_golden_sm80)
{
	golden(t_, "tests/golden/sm_80.txt", GOLDEN_FLOOR_SM80);
}

/* the words of the committed test cubins (tools/suite-golden) */
TEST(isa_golden_suite_sm90)
{
	golden(t_, "tests/golden/suite-sm_90.txt", GOLDEN_FLOOR_SM90);
}

TEST(isa_golden_suite_sm80)
{
	golden(t_, "tests/golden/suite-sm_80.txt", GOLDEN_FLOOR_SM80);
}

/* The decision-tree index (isa/index.c) picks the same form as scanning
 * the bucket, for words near every form: its own bits with the free bits
 * random, and with one fixed bit flipped. */
static void
index_vs_scan(TestState *t_, const Arch *a)
{
	u64 s = 0x9e3779b97f4a7c15ull;
	u32 i, k, bad = 0, hits = 0;

	for (i = 0; i < a->nforms; i++) {
		const IsaForm *fm = &a->forms[i];

		for (k = 0; k < 160; k++) {
			Word w;
			u64 r1, r2;

			s ^= s << 13, s ^= s >> 7, s ^= s << 17, r1 = s;
			s ^= s << 13, s ^= s >> 7, s ^= s << 17, r2 = s;
			w.lo = (fm->match.lo & fm->mask.lo) | (r1 & ~fm->mask.lo);
			w.hi = (fm->match.hi & fm->mask.hi) | (r2 & ~fm->mask.hi);
			if (k >= 32) {	/* flip one bit */
				u32 b = 12 + (u32)(r1 >> 57) % 116;

				if (b < 64)
					w.lo ^= 1ull << b;
				else
					w.hi ^= 1ull << (b - 64);
			}
			hits += isa_match(a, w) != NULL;
			if (isa_match(a, w) != isa_match_scan(a, w) && bad++ < 3)
				FAIL("%s: form %u: 0x%016llx 0x%016llx", arch_name(a), i,
				     (unsigned long long)w.lo, (unsigned long long)w.hi);
		}
	}
	CHECK(bad == 0);
	CHECK(hits > a->nforms * 16);
}

/* isa_decode's extraction programs give every field's isa_field_get value. */
static void
decode_vs_fields(TestState *t_, const Arch *a)
{
	u64 s = 0x2545f4914f6cdd1dull;
	u32 i, k, n, bad = 0;

	for (i = 0; i < a->nforms; i++) {
		const IsaForm *fm = &a->forms[i];

		for (n = 0; n < 8; n++) {
			u64 vals[256];
			Word w;

			s ^= s << 13, s ^= s >> 7, s ^= s << 17;
			w.lo = (fm->match.lo & fm->mask.lo) | (s & ~fm->mask.lo);
			s ^= s << 13, s ^= s >> 7, s ^= s << 17;
			w.hi = (fm->match.hi & fm->mask.hi) | (s & ~fm->mask.hi);
			if (isa_decode(a, w, vals) != isa_match(a, w)) {
				bad++;
				continue;
			}
			if (isa_match(a, w) != fm)
				continue;
			for (k = 0; k < fm->nfield; k++)
				if (vals[k] != isa_field_get(a, &a->fields[fm->field0 + k], w) && bad++ < 3)
					FAIL("%s: form %u field %u", arch_name(a), i, k);
		}
	}
	CHECK(bad == 0);
}

TEST(isa_index_vs_scan)
{
	index_vs_scan(t_, arch_lookup("sm_90"));
	index_vs_scan(t_, arch_lookup("sm_80"));
}

TEST(isa_decode_fields)
{
	decode_vs_fields(t_, arch_lookup("sm_90"));
	decode_vs_fields(t_, arch_lookup("sm_80"));
}

/* words ptxas never emitted: golden words with random operand/modifier bits
 * flipped, with the oracle's text (tools/isa-fuzz --seed 1); the tables
 * learned from them too, so this guards the reach past the corpus.  A fresh
 * seed measures it (docs/findings-encoding.md, Session 2). */
/* words of the PTX corpus (tests/ptx/corpus, ptxas -O3) that the probe
 * corpus lacks: LDSM with a [R+UR] address, TLD.LZ (tools/isa-corpus) */
TEST(isa_golden_corpus_sm90)
{
	golden(t_, "tests/golden/corpus-sm_90.txt", 1.0);
}

/* texture and surface words (TEX, TLD, SULD, SUST: every write mask,
 * geometry, size and mode; tools/isa-tex), learned with isa-learn --golden */
TEST(isa_golden_tex_sm90)
{
	golden(t_, "tests/golden/tex-sm_90.txt", 1.0);
}

TEST(isa_golden_tex_sm80)
{
	golden(t_, "tests/golden/tex-sm_80.txt", 1.0);
}

/* TMA words (UTMALDG/UTMASTG/UTMAREDG/UTMAPF 1D..5D, multicast, cache
 * hints, every reduction, UTMACCTL, UTMACMDFLUSH; tools/isa-tma), learned
 * with isa-learn --golden */
TEST(isa_golden_tma_sm90)
{
	golden(t_, "tests/golden/tma-sm_90.txt", 1.0);
}

/* words of ptxas's cubins of tests/compile the tables missed (UIADD3.64,
 * F2F/F2FP, HADD2, I2F forms...; tools/isa-gaps), learned with isa-learn
 * --golden (sm_80 together with the texture words) */
TEST(isa_golden_gaps_sm90)
{
	golden(t_, "tests/golden/gaps-sm_90.txt", 1.0);
}

TEST(isa_golden_gaps_sm80)
{
	golden(t_, "tests/golden/gaps-sm_80.txt", 1.0);
}

TEST(isa_golden_fuzz_sm90)
{
	golden(t_, "tests/golden/fuzz-sm_90.txt", 0.99);
}

TEST(isa_golden_fuzz_sm80)
{
	golden(t_, "tests/golden/fuzz-sm_80.txt", 0.99);
}

/* The generated index and string table (tools/isa-gentab) agree with the
 * forms: string lengths and first bytes, the bits each form's text shows,
 * the pc-relative flag,
 * tree and candidate bounds, every candidate's extraction program and
 * reject checks inside its own form. */
static void
tables_ok(TestState *t_, const Arch *a)
{
	u32 i, k, bad = 0;

	for (i = 0; i < a->nforms; i++) {
		const IsaForm *fm = &a->forms[i];
		u32 ids[1 + 4096], nid = 0;

		if (fm->nfield > ISA_MAX_FIELDS && bad++ < 3)
			FAIL("%s: form %u: %u fields", arch_name(a), i, fm->nfield);
		ids[nid++] = fm->base;
		for (k = 0; k < fm->nfield; k++) {
			const IsaField *f = &a->fields[fm->field0 + k];
			u64 v;

			if (f->kind == FK_ENUM && f->nbits <= 12)
				for (v = 0; v < (1ull << f->nbits); v++)
					if (a->enums[f->table + v] != ENUM_INVALID)
						ids[nid++] = a->enums[f->table + v] & ENUM_ID;
		}
		{	/* the bits the text shows: mask and fields' bits */
			Word sh = fm->mask;

			for (k = 0; k < fm->nfield; k++) {
				const IsaField *f = &a->fields[fm->field0 + k];
				int j;

				for (j = 0; j < f->nbits; j++) {
					int b = a->bitpos[f->bitpos + j];

					if (b < 64)
						sh.lo |= 1ull << b;
					else if (b != 255)
						sh.hi |= 1ull << (b - 64);
				}
			}
			if ((sh.lo != a->shown[i].lo || sh.hi != a->shown[i].hi) && bad++ < 3)
				FAIL("%s: form %u: shown bits", arch_name(a), i);
		}
		{	/* the pc-relative flag */
			int pc = 0;

			for (k = 0; k < fm->nfield; k++)
				pc |= (a->fields[fm->field0 + k].flags & FF_PCREL) != 0;
			if (pc != fm->pcrel && bad++ < 3)
				FAIL("%s: form %u: pcrel flag", arch_name(a), i);
		}
		for (k = 0; k < nid; k++) {
			const char *s = a->strs[ids[k]];
			u64 inf = a->sinfo[ids[k]], want = strlen(s);
			int j;

			for (j = 0; j < 7 && s[j]; j++)
				want |= (u64)(uchar)s[j] << (8 * j + 8);
			if (inf != want && bad++ < 3)
				FAIL("%s: sinfo of '%s'", arch_name(a), s);
		}
	}
	for (i = 0; i < a->nnode; i++) {
		const IsaNode *n = &a->node[i];

		if (n->bit == ISA_LEAF ? n->a + n->b > a->ncand : n->bit < 12 || n->bit > 127 || n->a + 1 >= a->nnode)
			if (bad++ < 3)
				FAIL("%s: node %u out of bounds", arch_name(a), i);
	}
	for (i = 0; i < a->ncand; i++) {
		const IsaCand *c = &a->cand[i];
		const IsaForm *fm = &a->forms[c->form];

		if (c->form >= a->nforms || c->mask.lo != fm->mask.lo || c->mask.hi != fm->mask.hi ||
		    c->match.lo != fm->match.lo || c->match.hi != fm->match.hi)
			bad++;
		for (k = 0; k < c->nop; k++)
			bad += a->op[c->op0 + k].fi >= fm->nfield;
		for (k = 0; k < c->nchk; k++)
			bad += a->chk[c->chk + k] < fm->field0 || a->chk[c->chk + k] >= fm->field0 + fm->nfield;
	}
	CHECK(bad == 0);
}

TEST(isa_tables_generated)
{
	tables_ok(t_, arch_lookup("sm_90"));
	tables_ok(t_, arch_lookup("sm_80"));
}

/* The base index (tools/isa-gentab): sorted by name, its runs cover
 * by_base in order and hold their name's forms; isa_base_find finds every
 * name, and not a name one byte off ("VIMNMX4" next to "VIMNMX3": an
 * earlier memo of the lookup gave this one VIMNMX3's forms). */
static void
bases_ok(TestState *t_, const Arch *a)
{
	u32 i, k, lo, end, at = 0, bad = 0;
	char name[64];

	for (i = 0; i < a->nbases; i++) {
		const IsaBase *b = &a->bases[i];
		const char *s = a->strs[b->str];
		size_t n = strlen(s);
		u64 key = 0;

		for (k = 0; k < 7 && s[k]; k++)
			key |= (u64)(uchar)s[k] << (48 - 8 * k);
		bad += b->key != key || b->lo != at || !b->n || (i && strcmp(a->strs[a->bases[i - 1].str], s) >= 0);
		for (k = b->lo; k < b->lo + b->n && k < a->nforms; k++)
			bad += a->forms[a->by_base[k].form].base != b->str;
		at = b->lo + b->n;
		memcpy(name, s, n + 1);
		bad += !isa_base_find(a, name, n, &lo, &end) || lo != b->lo || end != b->lo + b->n;
		name[n - 1]++;
		for (k = 0; k < a->nbases && strcmp(a->strs[a->bases[k].str], name); k++)
			;
		bad += k == a->nbases && isa_base_find(a, name, n, &lo, &end);
	}
	CHECK(at == a->nforms && bad == 0);
	CHECK(!isa_base_find(a, "VIMNMX4", 7, &lo, &end) && !isa_base_find(a, "IMADX", 5, &lo, &end) &&
	      !isa_base_find(a, "", 0, &lo, &end));
}

TEST(isa_base_find)
{
	bases_ok(t_, arch_lookup("sm_90"));
	bases_ok(t_, arch_lookup("sm_80"));
	{
		const Arch *a = arch_lookup("sm_90");
		char err[100];
		Word w;

		isa_parse(a, "VIMNMX3 R0, R1, R2, R3", 0, NULL, &w, err, sizeof err, NULL);
		CHECK(isa_parse(a, "VIMNMX4 R0, R1, R2, R3", 0, NULL, &w, err, sizeof err, NULL) < 0 &&
		      !strncmp(err, "unknown opcode", 14));
	}
}

/* Does the printed opcode end at template position t: a blank, a dot, the
 * end, or an enumeration hole whose every string starts with a dot or a
 * blank or is empty (then what follows ends it)? */
static int
op_ends(const Arch *a, const IsaForm *fm, const char *t)
{
	const IsaField *f;
	u64 v;
	int empty = 0;

	if (*t != HOLE)
		return !*t || *t == ' ' || *t == '.';
	f = &a->fields[fm->field0 + (uchar)t[1] - 1];
	if (f->kind != FK_ENUM)
		return 0;
	for (v = 0; v < (1ull << f->nbits); v++) {
		u16 e = a->enums[f->table + v];
		const char *s = e == ENUM_INVALID ? "." : a->strs[e & ENUM_ID];

		if (*s && *s != '.' && *s != ' ')
			return 0;
		empty |= !*s;
	}
	return !empty || op_ends(a, fm, t + 2);
}

/* Every form's text starts with its base mnemonic as the whole opcode
 * (what insn_parse calls in->op), which the hazard decoder takes from
 * the form instead of the text. */
TEST(isa_base_is_opcode)
{
	const Arch *as[] = { arch_lookup("sm_90"), arch_lookup("sm_80") };
	size_t k, bad = 0;
	u32 i;

	for (k = 0; k < NELEM(as); k++)
		for (i = 0; i < as[k]->nforms; i++) {
			const Arch *a = as[k];
			const IsaForm *fm = &a->forms[i];
			const char *b = a->strs[fm->base];
			size_t n = strlen(b);

			bad += !n || strncmp(fm->tmpl, b, n) || !op_ends(a, fm, fm->tmpl + n);
		}
	CHECK(bad == 0);
}

/* The texts of a golden file (text, split in place) that encode and name
 * no label: up to max of them in lines[], their words in words[]. */
static size_t
golden_texts(const Arch *a, char *text, char **lines, Word *words, size_t max)
{
	char *line, *next, err[100];
	size_t nw = 0;

	for (line = text; line && *line && nw < max; line = next) {
		unsigned long long ad, lo, hi;
		int off = 0;

		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		if (*line != '#' && sscanf(line, "%llx %llx %llx %n", &ad, &lo, &hi, &off) == 3 && off &&
		    !strchr(line + off, '`') && isa_parse(a, line + off, 0, NULL, &words[nw], err, sizeof err, NULL) == 0)
			lines[nw++] = line + off;
	}
	return nw;
}

/* isa_parse's per-thread memo never changes a result: a pc-relative text
 * at two addresses gives two words, a label resolves through the symbols
 * each time, and texts parsed again (in another order, with collisions
 * in the memo) give the same words as the first time. */
static int
addr_of(void *ctx, const char *name, u64 *addr)
{
	*addr = *(const u64 *)ctx;
	return strcmp(name, "L") ? -1 : 0;
}

TEST(isa_parse_memo)
{
	const Arch *a = arch_lookup("sm_90");
	Word w1, w2, w3;
	char err[100];
	u64 target = 0x200;
	IsaSyms syms = { NULL, addr_of, &target };
	Buf b = { 0 };
	size_t n, i, nw = 0, bad = 0;
	char *text = read_file("tests/golden/suite-sm_90.txt", &n);
	static char *lines[4000];
	static Word first[4000];

	CHECK(isa_parse(a, "BRA 0x100", 0x40, NULL, &w1, err, sizeof err, NULL) == 0);
	CHECK(isa_parse(a, "BRA 0x100", 0x80, NULL, &w2, err, sizeof err, NULL) == 0);
	CHECK(isa_parse(a, "BRA 0x100", 0x40, NULL, &w3, err, sizeof err, NULL) == 0);
	CHECK(w1.lo != w2.lo || w1.hi != w2.hi);
	CHECK(w1.lo == w3.lo && w1.hi == w3.hi);
	CHECK(isa_print(a, w2, 0x80, NULL, &b) == 0);
	CHECK_STR(b.s, "BRA 0x100");
	buf_free(&b);
	/* a label fails without symbols, and that answer is not the one with them */
	CHECK(isa_parse(a, "BRA `(L)", 0x40, NULL, &w2, err, sizeof err, NULL) < 0);
	CHECK(isa_parse(a, "BRA `(L)", 0x40, &syms, &w2, err, sizeof err, NULL) == 0);
	target = 0x100;
	CHECK(isa_parse(a, "BRA `(L)", 0x40, &syms, &w3, err, sizeof err, NULL) == 0);
	CHECK(w3.lo == w1.lo && w3.hi == w1.hi && (w2.lo != w1.lo || w2.hi != w1.hi));
	if (!text) {
		FAIL("tests/golden/suite-sm_90.txt unreadable");
		return;
	}
	nw = golden_texts(a, text, lines, first, NELEM(lines));
	CHECK(nw > 1000);
	for (i = nw; i-- > 0;)
		if (isa_parse(a, lines[i], 0, NULL, &w1, err, sizeof err, NULL) || w1.lo != first[i].lo || w1.hi != first[i].hi)
			bad++;
	CHECK(bad == 0);
	free(text);
}

/* isa_parse (its memo, the print-back check without printing, failures
 * kept) answers as isa_parse_plain (no memo, isa_print's check every
 * time): the same word or the same message and position, for the suite's
 * texts and for spellings isa_print would not give (a leading zero, upper
 * case hex, a PT or uniform guard, a negative zero) that fail or encode
 * by an alias; each twice, so the second answer is the memo's. */
static void
parse_same(TestState *t_, const Arch *a, const char *text, size_t *n, size_t *bad)
{
	Word w1 = { 1, 2 }, w2 = { 1, 2 };
	char e1[100] = "", e2[100] = "";
	size_t p1 = 7, p2 = 7;
	int r1, r2, k;

	for (k = 0; k < 2; k++) {
		r1 = isa_parse(a, text, 0x100, NULL, &w1, e1, sizeof e1, &p1);
		r2 = isa_parse_plain(a, text, 0x100, NULL, &w2, e2, sizeof e2, &p2);
		(*n)++;
		if (r1 != r2 || (!r1 && (w1.lo != w2.lo || w1.hi != w2.hi)) || (r1 && (strcmp(e1, e2) || p1 != p2))) {
			if (++*bad <= 5)
				FAIL("%s: isa_parse %d %s, isa_parse_plain %d %s", text, r1, e1, r2, e2);
		}
	}
	if (!r1) {	/* what the parse told isa_print's memo is its own text */
		Buf b1 = { 0 }, b2 = { 0 };

		w1.hi |= 1ull << 45;
		isa_print(a, w1, 0x100, NULL, &b1);
		isa_print_plain(a, w1, 0x100, NULL, &b2);
		if (!b1.s || !b2.s || strcmp(b1.s, b2.s)) {
			if (++*bad <= 5)
				FAIL("%s: printed %s, %s without the memo", text, b1.s, b2.s);
		}
		buf_free(&b1);
		buf_free(&b2);
	}
}

static void
parse_shortcut_ok(TestState *t_, const char *path)
{
	size_t n, count = 0, bad = 0;
	char *text = read_file(path, &n), *line, *next, m[600], *p;
	const Arch *a = NULL;

	if (!text) {
		FAIL("%s unreadable", path);
		return;
	}
	for (line = text; line && *line; line = next) {
		unsigned long long ad, lo, hi;
		int off = 0;
		const char *t;

		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		if (*line == '#') {
			if (!a && (p = strstr(line, "SM")))
				a = arch_lookup((char[]){ p[0], p[1], p[2], p[3], 0 });
			continue;
		}
		if (!a || sscanf(line, "%llx %llx %llx %n", &ad, &lo, &hi, &off) != 3 || !off ||
		    strlen(line + off) > 500 || strchr(line + off, '`'))
			continue;
		t = line + off;
		parse_same(t_, a, t, &count, &bad);
		if ((p = strstr(t, "0x"))) {	/* upper case hex digits; a leading zero */
			strcpy(m, t);
			for (p = m + (p - t) + 2; isxdigit((uchar)*p); p++)
				*p = (char)toupper((uchar)*p);
			parse_same(t_, a, m, &count, &bad);
			strcpy(m, t);
			p = m + (strstr(t, "0x") - t) + 2;
			memmove(p + 1, p, strlen(p) + 1);
			*p = '0';
			parse_same(t_, a, m, &count, &bad);
		}
		if ((p = strstr(t, " R")) && isdigit((uchar)p[2])) {	/* R05 */
			strcpy(m, t);
			p = m + (p - t) + 2;
			memmove(p + 1, p, strlen(p) + 1);
			*p = '0';
			parse_same(t_, a, m, &count, &bad);
		}
		if ((p = strstr(t, ", 0x0"))) {	/* -0x0 */
			strcpy(m, t);
			p = m + (p - t) + 2;
			memmove(p + 1, p, strlen(p) + 1);
			*p = '-';
			parse_same(t_, a, m, &count, &bad);
		}
		if (*t != '@') {
			snprintf(m, sizeof m, "@PT %s", t);
			parse_same(t_, a, m, &count, &bad);
			snprintf(m, sizeof m, "@!UP1 %s", t);
			parse_same(t_, a, m, &count, &bad);
			snprintf(m, sizeof m, "@P2 %s", t);
			parse_same(t_, a, m, &count, &bad);
		}
	}
	CHECK(count > 10000);
	CHECK(bad == 0);
	free(text);
}

TEST(isa_parse_shortcut)
{
	parse_shortcut_ok(t_, "tests/golden/suite-sm_90.txt");
	parse_shortcut_ok(t_, "tests/golden/suite-sm_80.txt");
	parse_shortcut_ok(t_, "tests/golden/fuzz-sm_90.txt");
}

/* Four threads parse and print the same suite texts at once (the tables
 * are static, the parse memo per thread): every thread gets the words a
 * single thread gets. */
typedef struct {
	const Arch *a;
	char **text;
	const Word *want;
	size_t n, bad;
} ThreadJob;

static void *
parse_all(void *p)
{
	ThreadJob *j = p;
	size_t i, r;
	char err[100];

	for (r = 0; r < 3; r++)
		for (i = 0; i < j->n; i++) {
			size_t k = (i * 7 + r * 13) % j->n;
			Word w;
			Buf b = { 0 };

			if (isa_parse(j->a, j->text[k], 0, NULL, &w, err, sizeof err, NULL) || w.lo != j->want[k].lo ||
			    w.hi != j->want[k].hi || isa_print(j->a, w, 0, NULL, &b) < 0)
				j->bad++;
			buf_free(&b);
		}
	return NULL;
}

TEST(isa_threads)
{
	const Arch *a = arch_lookup("sm_80");
	size_t n, nw = 0, i;
	char *text = read_file("tests/golden/suite-sm_80.txt", &n);
	static char *lines[3000];
	static Word want[3000];
	ThreadJob job[4];
	pthread_t th[4];

	if (!text) {
		FAIL("tests/golden/suite-sm_80.txt unreadable");
		return;
	}
	nw = golden_texts(a, text, lines, want, NELEM(lines));
	CHECK(nw > 1000);
	for (i = 0; i < 4; i++) {
		job[i] = (ThreadJob){ a, lines, want, nw, 0 };
		CHECK(pthread_create(&th[i], NULL, parse_all, &job[i]) == 0);
	}
	for (i = 0; i < 4; i++) {
		pthread_join(th[i], NULL);
		CHECK(job[i].bad == 0);
	}
	free(text);
}

/* isa_enum_at (the generated index of big enumerations) gives the values
 * isa_enum_scan gives, in the same order, for every string of every
 * indexed table as it stands in a text: alone, before an operand, before
 * another modifier, cut short by one byte. */
static void
enum_index_ok(TestState *t_, const Arch *a)
{
	u32 i, j, v, sfx, nt = 0, bad = 0;
	static const char *const after[] = { "", " R0, R1", ".X R2", "\x01" };
	static u8 seen[1 << 18];

	memset(seen, 0, sizeof seen);
	for (j = 0; j < a->nforms; j++)
	for (i = a->forms[j].field0; i < a->forms[j].field0 + a->forms[j].nfield; i++) {
		const IsaField *f = &a->fields[i];

		if (f->kind != FK_ENUM || !f->sorted || f->sorted >= sizeof seen || seen[f->sorted])
			continue;
		seen[f->sorted] = 1;
		nt++;
		for (v = 0; v < (1u << f->nbits); v++) {
			u16 id = a->enums[f->table + v] & ENUM_ID, k1[ISA_ENUM_AT], k2[ISA_ENUM_AT];
			char s[600];
			size_t n;
			u32 n1, n2;

			if (a->enums[f->table + v] == ENUM_INVALID)
				continue;
			for (sfx = 0; sfx < NELEM(after); sfx++) {
				n = (size_t)snprintf(s, sizeof s - 8, "%s%s", a->strs[id], after[sfx]);
				if (after[sfx][0] == 1 && n > 1)
					n -= 2;	/* the string cut short */
				memset(s + n, 0, 8);
				n1 = isa_enum_at(a, f, s, k1);
				n2 = isa_enum_scan(a, f, s, k2);
				if ((n1 != n2 || memcmp(k1, k2, n1 * sizeof *k1)) && bad++ < 3)
					FAIL("%s: field %u: '%s': %u values, the scan %u", arch_name(a), i, s, n1, n2);
			}
		}
	}
	CHECK(nt > 50);
	CHECK(bad == 0);
}

TEST(isa_enum_index)
{
	enum_index_ok(t_, arch_lookup("sm_90"));
	enum_index_ok(t_, arch_lookup("sm_80"));
}

/* The parser's shortcut for an enumeration hole (enum_cands in
 * isa/parse.c): every string it may choose but the empty one starts with
 * the field's lead byte (when it has one), and its empty value is the one
 * value it may choose whose string is empty (or there is none). */
static void
enum_lead_ok(TestState *t_, const Arch *a)
{
	u32 i, j, v, nlead = 0, nempty = 0, bad = 0;

	for (j = 0; j < a->nforms; j++)
	for (i = a->forms[j].field0; i < a->forms[j].field0 + a->forms[j].nfield; i++) {
		const IsaField *f = &a->fields[i];
		u32 empty = 0;

		if (f->kind != FK_ENUM)
			continue;
		nlead += f->lead != 0;
		for (v = 0; v < (1u << f->nbits); v++) {
			u16 id = a->enums[f->table + v];

			if (id & ENUM_DECODE_ONLY)
				continue;
			if (!a->strs[id][0])
				empty = v + 1;
			else if (f->lead && (uchar)a->strs[id][0] != f->lead && bad++ < 3)
				FAIL("%s: field %u: '%s' does not start with %#x", arch_name(a), i, a->strs[id], f->lead);
		}
		nempty += empty != 0;
		if (empty != f->empty && bad++ < 3)
			FAIL("%s: field %u: empty value %u + 1, the table says %u", arch_name(a), i, empty - 1, f->empty);
	}
	CHECK(nlead > 1000);
	CHECK(nempty > 1000);
	CHECK(bad == 0);
}

TEST(isa_enum_lead)
{
	enum_lead_ok(t_, arch_lookup("sm_90"));
	enum_lead_ok(t_, arch_lookup("sm_80"));
}

/* printed_back (isa/parse.c) reads a field of the word it just set only
 * when the word decodes as another form: each field's word bits are its
 * own, one per value bit, and none is the yield bit (109), so a field set
 * without error reads back as its value (tools/isa-gentab's own_bits).
 * Fails when a form's field takes a bit of another field of it. */
static void
own_bits_ok(TestState *t_, const Arch *a)
{
	u32 i, k, j, bad = 0;

	for (i = 0; i < a->nforms; i++) {
		const IsaForm *fm = &a->forms[i];
		u64 seen[2] = { 0, 0 };

		for (k = 0; k < fm->nfield; k++) {
			const IsaField *f = &a->fields[fm->field0 + k];

			for (j = 0; j < f->nbits; j++) {
				u32 b = a->bitpos[f->bitpos + j];
				u64 m;

				if (b == 255)
					continue;
				m = 1ull << (b & 63);
				bad += b == 109 || (seen[b >> 6] & m) != 0;
				seen[b >> 6] |= m;
			}
		}
	}
	CHECK(a->nforms > 1000);
	CHECK(bad == 0);
}

TEST(isa_own_bits)
{
	own_bits_ok(t_, arch_lookup("sm_90"));
	own_bits_ok(t_, arch_lookup("sm_80"));
}

/* A random value r for field f that the parser may give it: its constant
 * bits (orval) and no other bit without a word bit; not a decode-only
 * enumeration value. */
static u64
parser_value(const Arch *a, const IsaField *f, u64 r)
{
	u64 held = 0, m = f->nbits < 64 ? (1ull << f->nbits) - 1 : ~0ull, v, t;
	u32 j;

	for (j = 0; j < f->nbits; j++)
		held |= (u64)(f->nruns || a->bitpos[f->bitpos + j] != 255) << j;
	for (t = 0; t <= m; t++) {
		v = ((r + t) & m & held) | f->orval;
		if (f->kind != FK_ENUM || !(a->enums[f->table + v] & ENUM_DECODE_ONLY))
			return v;
	}
	return v;
}

/* printed_back (isa/parse.c) takes a sole form's word to decode as that
 * form without asking isa_match: words as the parser makes them (the
 * form's match and defaults, a random guard, the yield bit, each field a
 * value the parser may choose) decode as the form.  Fails when
 * tools/isa-gentab's sole ignores the earlier forms of the bucket (sole =
 * 1 for every form). */
static void
sole_ok(TestState *t_, const Arch *a)
{
	u64 s = 0x9e3779b97f4a7c15ull;
	u32 i, k, j, nsole = 0, bad = 0;

	for (i = 0; i < a->nforms; i++) {
		const IsaForm *fm = &a->forms[i];

		for (k = 0; k < 64 && fm->sole; k++) {
			Word w = { fm->match.lo | fm->dflt.lo, fm->match.hi | fm->dflt.hi | 1ull << 45 };

			s ^= s << 13, s ^= s >> 7, s ^= s << 17;
			w.lo = (w.lo & ~0xf000ull) | (s & 0xf000);
			for (j = 0; j < fm->nfield; j++) {
				const IsaField *f = &a->fields[fm->field0 + j];

				s ^= s << 13, s ^= s >> 7, s ^= s << 17;
				bad += isa_field_set(a, f, &w, parser_value(a, f, s)) != 0;
			}
			if (isa_match(a, w) != fm && bad++ < 3)
				FAIL("%s: form %u decodes as another", arch_name(a), i);
		}
		nsole += fm->sole;
	}
	CHECK(nsole > 500);
	CHECK(bad == 0);
}

TEST(isa_sole)
{
	sole_ok(t_, arch_lookup("sm_90"));
	sole_ok(t_, arch_lookup("sm_80"));
}

/* isa_print's per-thread memo keys a word by its operation bits and its
 * shown reuse flags: no form shows or tests another control bit, a word's
 * text stays the same whatever its other control bits, a pc-relative
 * text follows its address, and reuse flags show only with the yield bit. */
static void
print_memo_ok(TestState *t_, const Arch *a, const char *golden, int sm90)
{
	size_t n, nw = 0, bad = 0, i;
	char *text = read_file(golden, &n), *line, *next;
	Buf b1 = { 0 }, b2 = { 0 };

	for (i = 0; i < a->nforms; i++)
		bad += (a->shown[i].hi & ~((1ull << 41) - 1) & ~(0xfull << 58)) != 0;
	CHECK(bad == 0);
	if (!text) {
		FAIL("%s unreadable", golden);
		return;
	}
	for (line = text; line && *line; line = next) {
		unsigned long long ad, lo, hi;
		Word w, x;

		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		if (*line == '#' || sscanf(line, "%llx %llx %llx", &ad, &lo, &hi) != 3)
			continue;
		w = (Word){ lo, hi };
		x = (Word){ lo, hi ^ 0x1ull << 41 ^ 0x5ull << 47 ^ 0x21ull << 52 ^ 0x3ull << 62 };
		b1.n = b2.n = 0;
		isa_print(a, w, ad, NULL, &b1);
		isa_print(a, x, ad, NULL, &b2);
		bad += strcmp(b1.s, b2.s) != 0;
		nw++;
	}
	CHECK(nw > 1000);
	CHECK(bad == 0);
	free(text);
	if (!sm90) {
		buf_free(&b1);
		buf_free(&b2);
		return;
	}
	b1.n = b2.n = 0;
	/* FADD R10, R0.reuse, R0 with the yield bit clear shows no .reuse */
	isa_print(a, (Word){ 0xa7221, 0x040fe20000000000ull }, 0, NULL, &b1);
	isa_print(a, (Word){ 0xa7221, 0x040fc20000000000ull }, 0, NULL, &b2);
	CHECK(strstr(b1.s, ".reuse") && !strstr(b2.s, ".reuse"));
	b1.n = b2.n = 0;
	{
		Word w;

		CHECK(isa_parse(a, "BRA 0x100", 0x40, NULL, &w, NULL, 0, NULL) == 0);
		isa_print(a, w, 0x40, NULL, &b1);
		isa_print(a, w, 0x80, NULL, &b2);
		CHECK_STR(b1.s, "BRA 0x100");
		CHECK_STR(b2.s, "BRA 0x140");
	}
	buf_free(&b1);
	buf_free(&b2);
}

TEST(isa_print_memo)
{
	print_memo_ok(t_, arch_lookup("sm_90"), "tests/golden/suite-sm_90.txt", 1);
	print_memo_ok(t_, arch_lookup("sm_80"), "tests/golden/suite-sm_80.txt", 0);
}

/* isa_print_listed gives what isa_print, isa_hidden and isa_parse give:
 * for each word of a golden corpus, as it is and with its control bits
 * changed (yield bit flipped, reuse flags set), the same text, the same
 * hidden bits and, when it knows the parsed word without parsing, the
 * word isa_parse gives (operation and reuse bits) -- after isa_parse of
 * the text has entered it in the memo, as the compiler's parse does. */
static void
print_listed_ok(TestState *t_, const Arch *a, const char *golden)
{
	size_t n, nw = 0, nparsed = 0, nhid = 0, bad = 0;
	char *text = read_file(golden, &n), *line, *next;
	Buf b1 = { 0 }, b2 = { 0 };
	u64 opsreuse = ((1ull << 41) - 1) | 0xfull << 58;

	if (!text) {
		FAIL("%s unreadable", golden);
		return;
	}
	for (line = text; line && *line; line = next) {
		unsigned long long ad, lo, hi;
		int v;

		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		if (*line == '#' || sscanf(line, "%llx %llx %llx", &ad, &lo, &hi) != 3)
			continue;
		for (v = 0; v < 3; v++) {
			Word w = { lo, v == 0 ? hi : v == 1 ? hi ^ 1ull << 45 : (hi ^ 1ull << 45) | 0x5ull << 58 };
			Word h = isa_hidden(a, w), x = { 0, 0 };
			IsaListed ls;
			int r1, r2, p;

			b1.n = b2.n = 0;
			r1 = isa_print(a, w, ad, NULL, &b1);
			p = r1 == 0 && isa_parse(a, b1.s, ad, NULL, &x, NULL, 0, NULL) == 0;
			r2 = isa_print_listed(a, w, ad, NULL, &b2, &ls);
			bad += r1 != r2 || strcmp(b1.s, b2.s) || ls.hid.lo != h.lo || ls.hid.hi != h.hi;
			bad += ls.parsed && (!p || ls.x.lo != x.lo || (ls.x.hi & opsreuse) != (x.hi & opsreuse));
			nparsed += ls.parsed;
			nhid += h.lo || h.hi;
			nw++;
		}
	}
	CHECK(nw > 1000 && nparsed > nw / 4 && nhid > 0);
	CHECK(bad == 0);
	free(text);
	buf_free(&b1);
	buf_free(&b2);
}

TEST(isa_print_listed)
{
	print_listed_ok(t_, arch_lookup("sm_90"), "tests/golden/suite-sm_90.txt");
	print_listed_ok(t_, arch_lookup("sm_80"), "tests/golden/suite-sm_80.txt");
	print_listed_ok(t_, arch_lookup("sm_90"), "tests/golden/fuzz-sm_90.txt");
	print_listed_ok(t_, arch_lookup("sm_80"), "tests/golden/fuzz-sm_80.txt");
}

/* isa_quick of text (the 8 zero bytes it reads past the end added). */
static void
quick_of(const char *text, IsaQuick *q)
{
	size_t n = strlen(text);
	char *pad = xcalloc(n + 8, 1);

	memcpy(pad, text, n);
	isa_quick(pad, q);
	free(pad);
}

/* The parser's quick test of a form (IsaTry, generated) passes every text
 * the form prints: for each word of a golden corpus, its text (after the
 * guard) passes its form's quick test.  Each form is in by_base once. */
static void
quick_test_ok(TestState *t_, const Arch *a, const char *golden)
{
	size_t n, nw = 0, bad = 0;
	char *text = read_file(golden, &n), *line, *next;
	const IsaTry **try_of = xcalloc(a->nforms, sizeof *try_of);
	Buf b = { 0 };
	u32 i;

	for (i = 0; i < a->nforms; i++)
		if (a->by_base[i].form < a->nforms && !try_of[a->by_base[i].form])
			try_of[a->by_base[i].form] = &a->by_base[i];
		else
			bad++;

	if (!text)
		return;	/* the big corpora are unpacked by make check */
	for (line = text; line && *line; line = next) {
		unsigned long long ad, lo, hi;
		const IsaForm *fm;
		IsaQuick q;
		Word w;

		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		if (*line == '#' || sscanf(line, "%llx %llx %llx", &ad, &lo, &hi) != 3)
			continue;
		w = (Word){ lo, hi };
		b.n = 0;
		if (!(fm = isa_match(a, w)) || isa_print(a, w, ad, NULL, &b) < 0)
			continue;
		quick_of(b.s[0] == '@' ? strchr(b.s, ' ') + 1 : b.s, &q);
		if (!isa_quick_ok(try_of[fm - a->forms], &q) && bad++ < 3)
			FAIL("%s: '%s': its form's quick test fails", arch_name(a), b.s);
		nw++;
	}
	CHECK(nw > 10000);
	CHECK(bad == 0);
	buf_free(&b);
	free(text);
	free(try_of);
}

/* The golden corpora the quick-test checks read: the two decoder corpora
 * (isa_parse_quick_test only), then the suite's and the fuzzer's texts. */
static const char *const quick_corpora[][2] = {
	{ "sm_90", "tests/golden/sm_90.txt" },
	{ "sm_80", "tests/golden/sm_80.txt" },
	{ "sm_90", "tests/golden/suite-sm_90.txt" },
	{ "sm_80", "tests/golden/suite-sm_80.txt" },
	{ "sm_90", "tests/golden/fuzz-sm_90.txt" },
	{ "sm_80", "tests/golden/fuzz-sm_80.txt" },
};

TEST(isa_parse_quick_test)
{
	for (size_t i = 0; i < sizeof quick_corpora / sizeof *quick_corpora; i++)
		quick_test_ok(t_, arch_lookup(quick_corpora[i][0]), quick_corpora[i][1]);
}

/* The quick test rejects only texts whose template match fails: for the
 * text of text (after the guard), every form of its mnemonic whose quick
 * test rejects it does not match it; 1 when one does. */
static int
quick_rejects_ok(TestState *t_, const Arch *a, const char *text, u64 addr, u32 *nrej)
{
	const char *body = text[0] == '@' ? strchr(text, ' ') + 1 : text;
	u32 lo, end, i, n;
	IsaQuick q;

	for (n = 0; body[n] && body[n] != ' ' && body[n] != '.'; n++)
		;
	if (!isa_base_find(a, body, n, &lo, &end))
		return 0;
	quick_of(body, &q);
	for (i = lo; i < end; i++) {
		if (isa_quick_ok(&a->by_base[i], &q))
			continue;
		++*nrej;
		if (isa_tmpl_matches(a, &a->forms[a->by_base[i].form], body, addr)) {
			FAIL("%s: '%s': form %u matches, its quick test rejects", arch_name(a), text,
			     a->by_base[i].form);
			return 1;
		}
	}
	return 0;
}

/* ... for the texts of a golden corpus and of words near every form (its
 * own bits with the free bits random: every enumeration, those that print
 * an operand with its comma ("P0, ") among them, takes many values). */
static void
quick_rejects_forms_ok(TestState *t_, const Arch *a, const char *golden)
{
	size_t n;
	char *text = read_file(golden, &n), *line, *next;
	u64 s = 0x2545f4914f6cdd1dull;
	u32 i, k, nw = 0, nrej = 0, bad = 0;
	Buf b = { 0 };

	if (!text) {
		FAIL("%s unreadable", golden);
		return;
	}
	for (line = text; line && *line && bad < 3; line = next) {
		unsigned long long ad, lo, hi;

		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		if (*line == '#' || sscanf(line, "%llx %llx %llx", &ad, &lo, &hi) != 3)
			continue;
		b.n = 0;
		if (isa_print(a, (Word){ lo, hi }, ad, NULL, &b) == 0)
			bad += quick_rejects_ok(t_, a, b.s, ad, &nrej), nw++;
	}
	for (i = 0; i < a->nforms && bad < 3; i++) {
		const IsaForm *fm = &a->forms[i];

		for (k = 0; k < 8; k++) {
			Word w;

			s ^= s << 13, s ^= s >> 7, s ^= s << 17;
			w.lo = (fm->match.lo & fm->mask.lo) | (s & ~fm->mask.lo);
			s ^= s << 13, s ^= s >> 7, s ^= s << 17;
			w.hi = (fm->match.hi & fm->mask.hi) | (s & ~fm->mask.hi);
			b.n = 0;
			if (isa_print(a, w, 16 * k, NULL, &b) == 0)
				bad += quick_rejects_ok(t_, a, b.s, 16 * k, &nrej), nw++;
		}
	}
	CHECK(nw > 20000 && nrej > nw);
	CHECK(bad == 0);
	buf_free(&b);
	free(text);
}

TEST(isa_parse_quick_rejects)
{
	for (size_t i = 2; i < sizeof quick_corpora / sizeof *quick_corpora; i++)
		quick_rejects_forms_ok(t_, arch_lookup(quick_corpora[i][0]), quick_corpora[i][1]);
}
