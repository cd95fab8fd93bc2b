/* test_peep.c -- the peephole passes' text helpers (peep_probe.c). */
#include <stdio.h>
#include <string.h>

#include "codegen/peep.h"
#include "isa/isa_impl.h"
#include "test.h"

/* peep_scan_x agrees with sscanf(s, pre "%x") wherever it answers. */
static void
scan_one(TestState *t_, const char *pre, const char *s)
{
	char fmt[64];
	const char *e = NULL;
	unsigned x = 0, y = 0;
	int r = peep_scan_x(s, pre, &x, &e), n;

	snprintf(fmt, sizeof fmt, "%s%%x%%n", pre);
	n = -1;
	if (r < 0)
		return;
	if (r == 0) {
		if (sscanf(s, fmt, &y, &n) >= 1)
			FAIL("'%s' with '%s': no match, sscanf reads 0x%x", s, pre, y);
		return;
	}
	if (sscanf(s, fmt, &y, &n) != 1 || y != x || n < 0 || s + n != e)
		FAIL("'%s' with '%s': 0x%x, sscanf 0x%x", s, pre, x, y);
}

TEST(peep_scan_x_as_sscanf)
{
	static const char *const pre[] = { "LDC \001\001, c[0x0][0x", "MOV \001\001, 0x", "0x", "", "][0x" };
	static const char *const num[] = {
		"0", "1f", "ffffffff", "123456789", "0x10", "0X1", "00x5", "-5", "+5", " 5", "\t5", "A", "aB",
		"g", "", "]", "0]", "7fffffff]", "10 ", "10,", "deadbeef0",
	};
	static const char *const lead[] = { "", " ", "  ", "\t", "x" };
	size_t i, j, k;
	char s[128];

	for (i = 0; i < sizeof pre / sizeof *pre; i++)
		for (j = 0; j < sizeof num / sizeof *num; j++) {
			snprintf(s, sizeof s, "%s%s", pre[i], num[j]);
			scan_one(t_, pre[i], s);
			/* the prefix spelled otherwise: spaces, a character changed, cut */
			for (k = 0; k < sizeof lead / sizeof *lead; k++) {
				const char *sp = strchr(pre[i], ' ');
				if (!sp)
					continue;
				snprintf(s, sizeof s, "%.*s%s%s%s", (int)(sp - pre[i]), pre[i], lead[k], sp + 1, num[j]);
				scan_one(t_, pre[i], s);
			}
			if (*pre[i]) {
				snprintf(s, sizeof s, "%.*s", (int)strlen(pre[i]) - 1, pre[i]);
				scan_one(t_, pre[i], s);
				snprintf(s, sizeof s, "%s%s", pre[i] + 1, num[j]);
				scan_one(t_, pre[i], s);
			}
		}
}

TEST(peep_text_helpers)
{
	char t[64];

	CHECK(peep_hex(t, 0) == t + 1 && !strcmp(t, "0"));
	peep_hex(t, 0xdeadbeef);
	CHECK_STR(t, "deadbeef");
	peep_cbank(t, 3u << 24 | 0x160);
	CHECK_STR(t, "c[0x3][0x160]");
	CHECK(peep_cat(t, "ab") == t + 2 && !strcmp(t, "ab"));
}

/* peep_may_start('c') says no only where a c[..] operand cannot encode:
 * each text with c[0x0][0x10] in place of one operand after a ", " -- a
 * no must come with a failing parse; and it does say no for sm_90's
 * IMAD and ISETP (only LDC reads c[] there), yes for sm_80's. */
TEST(peep_may_start_cbank)
{
	static const char *const texts[] = {
		"IMAD R8, R12, R16, R20", "IMAD.WIDE R8, R12, R16, R20", "IMAD.WIDE.U32 R8, R12, 0x4, R20",
		"ISETP.GE.AND P0, PT, R12, R16, PT", "IADD3 R8, R12, R16, R20", "FFMA R8, R12, R16, R20",
		"SEL R8, R12, R16, P2", "SHF.L.U32 R8, R12, R16, RZ", "LOP3.LUT R8, R12, R16, RZ, 0xc0, !PT",
		"FSETP.GT.AND P0, PT, R12, R16, PT", "MOV R8, R12", "LDC R8, R12",
	};
	const Arch *archs[] = { &arch_sm90, &arch_sm80 };
	size_t i, j;
	int no90 = 0;

	for (j = 0; j < 2; j++)
		for (i = 0; i < sizeof texts / sizeof *texts; i++) {
			const char *p;
			int some = 0;
			for (p = texts[i]; (p = strstr(p, ", ")); p++) {
				int at = (int)(p + 2 - texts[i]), may = peep_may_start(archs[j], texts[i], at, 'c');
				char t[128];
				size_t len = strcspn(p + 2, ",");
				snprintf(t, sizeof t, "%.*sc[0x0][0x10]%s", at, texts[i], p + 2 + len);
				if (!may && peep_encodes(archs[j], t))
					FAIL("%s: '%s' encodes, peep_may_start says no", archs[j]->name, t);
				no90 += !may && j == 0;
				some |= may;
			}
			/* peep_may_start_any: the same answer for all operands at once */
			if (peep_may_start_any(archs[j], texts[i], 'c') != some)
				FAIL("%s: '%s': peep_may_start_any says %d", archs[j]->name, texts[i], !some);
		}
	CHECK(!peep_may_start(&arch_sm90, "IMAD R8, R12, R16, R20", 14, 'c'));
	CHECK(!peep_may_start(&arch_sm90, "ISETP.GE.AND P0, PT, R12, R16, PT", 26, 'c'));
	CHECK(peep_may_start(&arch_sm80, "IMAD R8, R12, R16, R20", 14, 'c'));
	CHECK(peep_encodes(&arch_sm80, "IMAD R8, R12, c[0x0][0x10], R20"));
	CHECK(!peep_may_start_any(&arch_sm90, "ISETP.GE.AND P0, PT, R12, R16, PT", 'c'));
	CHECK(peep_may_start_any(&arch_sm80, "ISETP.GE.AND P0, PT, R12, R16, PT", 'c'));
	CHECK(no90 > 10);
}

/* peep_fold_settled: after a peep_fold that settled, another is due only
 * when a changed instruction named a constant (or a guarded one's guard),
 * but for a constant-bank value that keeps its load and a reader and that
 * no reader can take as c[..].  sm_90: "LDC c, c[0x0][0x210]" is such a
 * constant for IADD3; "MOV k, 0x5" read by STS (no immediate there) an
 * immediate one. */
TEST(peep_fold_settled_names)
{
	MFunc f;
	Arena a = {0};
	MBlock b0 = {0};
	FoldMemo *memo;
	u8 *named;
	int x, c, d, k;

	mfunc_init(&f, &a);
	b0.succ[0] = b0.succ[1] = -1;
	vec_push(&f.b, b0);
	x = mvreg(&f, RC_R, 1), c = mvreg(&f, RC_R, 1), d = mvreg(&f, RC_R, 1), k = mvreg(&f, RC_R, 1);
	mi(&f, "S2R %D, SR_TID.X", mref(x));
	mi(&f, "LDC %D, c[0x0][0x210]", mref(c));
	mi(&f, "MOV %D, 0x5", mref(k));
	mi(&f, "IADD3 %D, %U, %U, RZ", mref(d), mref(x), mref(c));
	mi(&f, "STS [%U], %U", mref(x), mref(d));
	mi(&f, "STS [%U+0x4], %U", mref(x), mref(k));
	memo = peep_fold_memo(&f);
	CHECK(peep_fold(&f, &arch_sm90, 90, memo) == 0);
	CHECK(f.b.v[0].ins.n == 6);
	named = arena_alloc(&a, f.vr.n + 1);
	CHECK(peep_fold_settled(&f, &arch_sm90, memo, named));
	named[x] = named[d] = 1;
	CHECK(peep_fold_settled(&f, &arch_sm90, memo, named));
	/* c: its reader takes no c[..] on sm_90, but does on sm_80 */
	named[c] = 1;
	CHECK(peep_fold_settled(&f, &arch_sm90, memo, named));
	CHECK(!peep_fold_settled(&f, &arch_sm80, memo, named));
	/* c without a reader (the IADD3 gone): its load would go */
	f.b.v[0].ins.v[3].nr = 0;
	CHECK(!peep_fold_settled(&f, &arch_sm90, memo, named));
	named[c] = 0;
	named[k] = 1;
	CHECK(!peep_fold_settled(&f, &arch_sm90, memo, named));
	mfunc_free(&f);
	arena_free(&a);
}

/* After sm_80's swap (IMAD.WIDE.U32's literal into a register, its
 * parameter pair as c[..]) another peep_fold has nothing left: the
 * swapped reader takes the literal back nowhere and no pair is left. */
TEST(peep_fold_settled_swap)
{
	MFunc f;
	Arena a = {0};
	MBlock b0 = {0};
	FoldMemo *memo;
	u8 *named;
	int i, p, d;

	mfunc_init(&f, &a);
	b0.succ[0] = b0.succ[1] = -1;
	vec_push(&f.b, b0);
	i = mvreg(&f, RC_R, 1), p = mvreg(&f, RC_R, 2), d = mvreg(&f, RC_R, 2);
	mi(&f, "S2R %D, SR_TID.X", mref(i));
	mi(&f, "MOV %D, c[0x0][0x160]", mpart(p, 0, 1));
	mi(&f, "MOV %D, c[0x0][0x164]", mpart(p, 1, 1));
	mi(&f, "IMAD.WIDE.U32 %D, %U, 0x4, %U", mref(d), mref(i), mref(p));
	mi(&f, "STG.E [%U.64], %U", mref(d), mref(i));
	memo = peep_fold_memo(&f);
	peep_fold(&f, &arch_sm80, 80, memo);
	/* S2R, MOV t 0x4, IMAD.WIDE.U32 d, i, t, c[0x0][0x160], STG */
	CHECK(f.b.v[0].ins.n == 4 && strstr(f.b.v[0].ins.v[2].text, "c[0x0][0x160]"));
	named = arena_alloc(&a, f.vr.n + 1);
	CHECK(peep_fold_settled(&f, &arch_sm80, memo, named));
	mfunc_free(&f);
	arena_free(&a);
}

/* mi's text: literal runs, holes, %s (empty and longer than mi's buffer
 * grows by), %O text, the signed and unsigned immediates, %L and %%. */
TEST(mi_format)
{
	MFunc f;
	Arena a = {0};
	MBlock b0 = {0};
	MOpd o;
	MIns *m;
	char big[301], want[400];
	int x, y;

	mfunc_init(&f, &a);
	b0.succ[0] = b0.succ[1] = -1;
	vec_push(&f.b, b0);
	x = mvreg(&f, RC_R, 1), y = mvreg(&f, RC_R, 2);
	memset(big, 'z', 300);
	big[300] = 0;
	m = mi(&f, "LD%s%s %D, [%U.64%s]", "", ".E", mref(x), mpart(y, 0, 2), big);
	snprintf(want, sizeof want, "LD.E \001\001, [\001\002.64%s]", big);
	CHECK_STR(m->text, want);
	CHECK(m->nr == 2 && m->rf[0] == MF_DEF && m->rf[1] == MF_USE && m->r[1].w == 2);
	memset(&o, 0, sizeof o);
	strcpy(o.txt, "c[0x0][0x210]");
	m = mi(&f, "IADD3 %D, %O, %x, %x%%%h %h", mref(x), o, -1, (i32)0x80000000, 0u, 0xffffffffu);
	CHECK_STR(m->text, "IADD3 \001\001, c[0x0][0x210], -0x1, -0x80000000%0x0 0xffffffff");
	m = mi(&f, "BRA %L", 3);
	CHECK_STR(m->text, "BRA \002");
	CHECK(m->target == 3 && m->nr == 0);
	CHECK_STR(mi(&f, "")->text, "");
	mfunc_free(&f);
	arena_free(&a);
}
