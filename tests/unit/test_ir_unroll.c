/* test_ir_unroll.c -- full unrolling of counted loops (src/ir/unroll.c):
 * a small loop with a constant trip count becomes straight-line code
 * whose induction variable folds; loops whose trip count is unknown, too
 * large, or whose unrolled body would be bigger than the loop are kept.
 * Also DCE's overwritten-before-read definitions. */
#include "test_ir.h"

#define HEAD ".version 8.0\n.target sm_90\n.address_size 64\n" \
	     ".visible .entry k(.param .u64 k_out, .param .u32 k_n)\n{\n" \
	     "\t.reg .pred %p<4>;\n\t.reg .b32 %r<32>;\n\t.reg .b64 %rd<8>;\n" \
	     "\tld.param.u64 %rd1, [k_out];\n\tld.param.u32 %r1, [k_n];\n"

static const char *counted = HEAD
	"\tmov.u32 %r2, 0;\n"
	"\tmov.u32 %r3, %r1;\n"
	"L:\n"
	"\tmad.lo.s32 %r3, %r3, 3, %r2;\n"
	"\tadd.s32 %r2, %r2, 1;\n"
	"\tsetp.lt.s32 %p1, %r2, 3;\n"
	"\t@%p1 bra L;\n"
	"\tst.global.u32 [%rd1], %r3;\n"
	"\tret;\n}\n";

static const char *down = HEAD   /* counting down, compare on the left, .u64 */
	"\tmov.u64 %rd2, 10;\n"
	"\tmov.u32 %r3, %r1;\n"
	"L:\n"
	"\txor.b32 %r3, %r3, 5;\n"
	"\tsub.s64 %rd2, %rd2, 4;\n"
	"\tsetp.lt.s64 %p1, 0, %rd2;\n"
	"\t@%p1 bra L;\n"                 /* 10 -> 6 -> 2 -> -2: 3 trips */
	"\tst.global.u32 [%rd1], %r3;\n"
	"\tret;\n}\n";

static const char *unknown = HEAD
	"\tmov.u32 %r2, 0;\n"
	"L:\n"
	"\tadd.s32 %r2, %r2, 1;\n"
	"\tsetp.lt.s32 %p1, %r2, %r1;\n"
	"\t@%p1 bra L;\n"
	"\tst.global.u32 [%rd1], %r2;\n"
	"\tret;\n}\n";

static const char *big = HEAD     /* 40 trips: the copies would outgrow the loop */
	"\tmov.u32 %r2, 0;\n"
	"\tmov.u32 %r3, %r1;\n"
	"L:\n"
	"\tmad.lo.s32 %r3, %r3, 3, %r2;\n"
	"\tadd.s32 %r2, %r2, 1;\n"
	"\tsetp.ne.s32 %p1, %r2, 40;\n"
	"\t@%p1 bra L;\n"
	"\tst.global.u32 [%rd1], %r3;\n"
	"\tret;\n}\n";

static int
loops_after(const char *ptx, int *mads, int *xors)
{
	IrT t;
	int n;

	if (irt_build(&t, ptx) < 0) {
		irt_free(&t);
		return -1;
	}
	irt_run(&t, "unroll constfold copyprop dce");
	n = irt_count(&t, PTX_OP_bra);
	*mads = irt_count(&t, PTX_OP_mad);
	*xors = irt_count(&t, PTX_OP_xor);
	irt_free(&t);
	return n;
}

TEST(ir_unroll_counted)
{
	IrT t;
	const char *d;
	int m, x;

	CHECK(loops_after(counted, &m, &x) == 0);
	CHECK(m == 3);
	CHECK(loops_after(down, &m, &x) == 0);
	CHECK(x == 3);
	CHECK(loops_after(unknown, &m, &x) == 1);
	CHECK(loops_after(big, &m, &x) == 1);
	CHECK(m == 1);
	/* the induction variable folds into each copy */
	if (irt_build(&t, counted) < 0) {
		FAIL("does not build");
		irt_free(&t);
		return;
	}
	irt_run(&t, "unroll constfold copyprop dce");
	d = irt_dump(&t);
	if (!strstr(d, ", 3, 0;") || !strstr(d, ", 3, 1;") || !strstr(d, ", 3, 2;"))
		FAIL("%s", d);
	CHECK(irt_count(&t, PTX_OP_setp) == 0);
	CHECK(irt_count(&t, PTX_OP_add) == 0);
	irt_free(&t);
}

TEST(ir_dce_overwritten)
{
	static const char *p = HEAD
		"\tmov.u32 %r2, 1;\n"
		"\tmov.u32 %r2, 2;\n"       /* kills the first */
		"\tadd.s32 %r3, %r1, %r2;\n"
		"\tmov.u32 %r2, 3;\n"       /* read above: the second stays */
		"\t@%p1 mov.u32 %r2, 4;\n"  /* guarded: the third may survive it */
		"\tst.global.u32 [%rd1], %r3;\n"
		"\tst.global.u32 [%rd1+4], %r2;\n"
		"\tret;\n}\n";
	IrT t;

	if (irt_build(&t, p) < 0) {
		FAIL("does not build");
		irt_free(&t);
		return;
	}
	CHECK(irt_run(&t, "dce") == 1);
	CHECK(irt_count(&t, PTX_OP_mov) == 3);
	irt_free(&t);
}
