/* test_ir_widen.c -- 16-bit compares of small values done in 32 bits
 * (src/ir/widen.c): nvcc's `cvt.u16.u32; and.b16 m; add.s16; setp.*16`
 * switch lowering becomes 32-bit `and`/`add` twins and 32-bit compares
 * (immediates extended as the 16-bit type says); a mask that leaves the
 * sign bit, a compare of two registers and a twice-written register stay. */
#include "test_ir.h"

static const char *prog =
	".version 8.0\n.target sm_90\n.address_size 64\n"
	".visible .entry k(.param .u64 k_out)\n{\n"
	"\t.reg .pred %p<8>;\n\t.reg .b32 %r<8>;\n\t.reg .b16 %rs<12>;\n\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [k_out];\n"
	"\tld.global.u32 %r1, [%rd1];\n"
	"\tcvt.u16.u32 %rs1, %r1;\n"
	"\tand.b16 %rs2, %rs1, 7;\n"
	"\tadd.s16 %rs3, %rs1, 1;\n"
	"\tand.b16 %rs4, %rs3, 7;\n"
	"\tand.b16 %rs5, %rs1, -32767;\n"    /* 0x8001 */
	"\tsetp.gt.s16 %p1, %rs2, 2;\n"      /* -> s32 */
	"\tsetp.lt.s16 %p2, %rs4, -1;\n"     /* -> s32 with -1 */
	"\tsetp.ne.b16 %p3, 3, %rs4;\n"      /* immediate first */
	"\tsetp.lt.u16 %p4, %rs2, -1;\n"     /* u16: 65535 */
	"\tsetp.lt.s16 %p5, %rs5, 0;\n"      /* stays */
	"\tsetp.lt.s16 %p6, %rs2, %rs4;\n"   /* two registers: stays */
	"\tmov.u16 %rs6, 5;\n"
	"\tand.b16 %rs6, %rs6, 3;\n"          /* written twice: stays */
	"\tsetp.eq.s16 %p7, %rs6, 1;\n"
	"\t@%p1 st.global.u32 [%rd1+4], %r1;\n"
	"\t@%p2 st.global.u32 [%rd1+8], %r1;\n"
	"\t@%p3 st.global.u32 [%rd1+12], %r1;\n"
	"\t@%p4 st.global.u32 [%rd1+16], %r1;\n"
	"\t@%p5 st.global.u32 [%rd1+20], %r1;\n"
	"\t@%p6 st.global.u32 [%rd1+24], %r1;\n"
	"\t@%p7 st.global.u32 [%rd1+28], %r1;\n"
	"\tret;\n}\n";

TEST(ir_widen_small_compares)
{
	IrT t;
	const char *d;

	if (irt_build(&t, prog) < 0) {
		FAIL("does not build");
		irt_free(&t);
		return;
	}
	CHECK(irt_run(&t, "widen") == 4);
	d = irt_dump(&t);
	/* registers: %p 0-7, %r 8-15, %rs 16-27, %rd 28-31; new ones from 32 */
	CHECK(strstr(d, "and.b32 %v32, %v9, 7;") != NULL);
	CHECK(strstr(d, "add.s32 %v33, %v9, 1;") != NULL);
	CHECK(strstr(d, "and.b32 %v34, %v33, 7;") != NULL);
	CHECK(strstr(d, "setp.gt.s32 %v1, %v32, 2;") != NULL);
	CHECK(strstr(d, "setp.lt.s32 %v2, %v34, -1;") != NULL);
	CHECK(strstr(d, "setp.ne.b32 %v3, 3, %v34;") != NULL);
	CHECK(strstr(d, "setp.lt.u32 %v4, %v32, 65535;") != NULL);
	CHECK(strstr(d, "setp.lt.s16 %v5, %v21, 0;") != NULL);
	CHECK(strstr(d, "setp.lt.s16 %v6, %v18, %v20;") != NULL);
	CHECK(strstr(d, "setp.eq.s16 %v7, %v22, 1;") != NULL);
	if (t_->failed)
		fprintf(stderr, "%s", d);
	irt_free(&t);
}
