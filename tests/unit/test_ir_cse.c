/* test_ir_cse.c -- common subexpression elimination (src/ir/cse.c):
 * special-register reads, parameter loads and arithmetic computed again
 * under a dominating computation become copies (and die after copyprop
 * and DCE); values that may differ (registers written twice, global
 * loads, computations in sibling branches) are left alone. */
#include "test_ir.h"

static const char *prog =
	".version 8.0\n.target sm_90\n.address_size 64\n"
	".visible .entry k(.param .u64 k_out, .param .u32 k_n)\n{\n"
	"\t.reg .pred %p<4>;\n\t.reg .b32 %r<32>;\n\t.reg .b64 %rd<8>;\n"
	"\tld.param.u64 %rd1, [k_out];\n"
	"\tmov.u32 %r1, %tid.x;\n"
	"\tmov.u32 %r2, %ctaid.x;\n"
	"\tmov.u32 %r3, %ntid.x;\n"
	"\tmad.lo.s32 %r4, %r2, %r3, %r1;\n"
	"\tld.param.u32 %r5, [k_n];\n"
	"\tld.global.u32 %r6, [%rd1];\n"
	"\tsetp.ge.s32 %p1, %r4, %r5;\n"
	"\t@%p1 bra ELSE;\n"
	/* then: everything again -> copies */
	"\tmov.u32 %r11, %tid.x;\n"
	"\tmov.u32 %r12, %ctaid.x;\n"
	"\tmov.u32 %r13, %ntid.x;\n"
	"\tmad.lo.s32 %r14, %r12, %r13, %r11;\n"  /* equal to %r4 once the reads are */
	"\tld.param.u32 %r15, [k_n];\n"
	"\tld.global.u32 %r16, [%rd1];\n"         /* memory: not pure */
	"\tadd.s32 %r17, %r14, %r15;\n"
	"\tadd.s32 %r18, %r16, %r17;\n"
	"\tadd.s32 %r19, %r6, %r17;\n"
	"\tst.global.u32 [%rd1+4], %r18;\n"
	"\tst.global.u32 [%rd1+8], %r19;\n"
	"\tbra.uni END;\n"
	"ELSE:\n"
	"\tadd.s32 %r20, %r4, %r5;\n"             /* not dominated by the then-arm's add */
	"\tst.global.u32 [%rd1+12], %r20;\n"
	"\tmov.u32 %r21, %clock;\n"               /* changes: never CSE'd */
	"\tmov.u32 %r22, %clock;\n"
	"\tsub.s32 %r23, %r22, %r21;\n"
	"\tst.global.u32 [%rd1+16], %r23;\n"
	"\tmov.u32 %r24, 1;\n"                    /* written twice: not a value */
	"\tadd.s32 %r25, %r24, %r4;\n"
	"\tmov.u32 %r24, 2;\n"
	"\tadd.s32 %r26, %r24, %r4;\n"
	"\tst.global.u32 [%rd1+20], %r25;\n"
	"\tst.global.u32 [%rd1+24], %r26;\n"
	"END:\n"
	"\tadd.s32 %r27, %r4, %r5;\n"             /* dominated only by the entry: stays */
	"\tst.global.u32 [%rd1+28], %r27;\n"
	"\tret;\n}\n";

TEST(ir_cse_dominated)
{
	IrT t;
	int n;

	if (irt_build(&t, prog) < 0) {
		FAIL("does not build");
		irt_free(&t);
		return;
	}
	n = irt_run(&t, "cse");
	if (n != 5)       /* tid, ctaid, ntid, the mad (its reads renamed), the parameter load */
		FAIL("%d changes:\n%s", n, irt_dump(&t));
	irt_run(&t, "copyprop dce");
	if (irt_count(&t, PTX_OP_mov) != 7)   /* tid ctaid ntid, the two clocks, the two %r24 */
		FAIL("%s", irt_dump(&t));

	CHECK(irt_count(&t, PTX_OP_ld) == 4);    /* out, n, and both global loads */
	CHECK(irt_count(&t, PTX_OP_mad) == 1);
	CHECK(irt_count(&t, PTX_OP_add) == 7);   /* %r17 is %r20's twin only in another branch */
	irt_free(&t);
}
