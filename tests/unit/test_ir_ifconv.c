/* test_ir_ifconv.c -- if-conversion (src/ir/ifconv.c): triangles,
 * diamonds and nvcc's forwarding-branch diamonds become guarded
 * straight-line code (temporaries local to an arm stay unguarded);
 * regions with a barrier, an arm that writes the predicate, an arm that
 * is entered from elsewhere, or too many instructions stay branches. */
#include "test_ir.h"

#define HEAD ".version 8.0\n.target sm_90\n.address_size 64\n" \
	     ".visible .entry k(.param .u64 k_out, .param .u32 k_n)\n{\n" \
	     "\t.reg .pred %p<4>;\n\t.reg .b32 %r<32>;\n\t.reg .b64 %rd<8>;\n" \
	     "\tld.param.u64 %rd1, [k_out];\n\tld.param.u32 %r1, [k_n];\n" \
	     "\tmov.u32 %r2, %tid.x;\n\tsetp.lt.u32 %p1, %r2, %r1;\n"

/* Branches left after ifconv (and the text, in *dump, when asked). */
static int
branches_after(const char *ptx, char **dump)
{
	IrT t;
	int n;

	if (irt_build(&t, ptx) < 0) {
		irt_free(&t);
		return -1;
	}
	irt_run(&t, "ifconv dce");
	n = irt_count(&t, PTX_OP_bra);
	if (dump)
		*dump = strdup(irt_dump(&t));
	irt_free(&t);
	return n;
}

TEST(ir_ifconv_shapes)
{
	static const char *triangle = HEAD
		"\tmov.u32 %r3, 5;\n"
		"\t@%p1 bra L;\n"
		"\tld.global.u32 %r3, [%rd1];\n"
		"\tadd.s32 %r4, %r2, 7;\n"        /* a temporary: speculated */
		"\tst.global.u32 [%rd1+4], %r4;\n"
		"L:\n"
		"\tst.global.u32 [%rd1+8], %r3;\n"
		"\tret;\n}\n";
	static const char *nvcc_diamond = HEAD
		"\t@%p1 bra T;\n"
		"\tbra.uni E;\n"
		"T:\n"
		"\tmul.lo.s32 %r3, %r2, 3;\n"
		"\tbra.uni J;\n"
		"E:\n"
		"\tsub.s32 %r3, %r1, %r2;\n"
		"J:\n"
		"\tst.global.u32 [%rd1], %r3;\n"
		"\tret;\n}\n";
	static const char *barrier = HEAD
		"\t@%p1 bra L;\n"
		"\tbar.sync 0;\n"
		"L:\n"
		"\tret;\n}\n";
	static const char *writes_p = HEAD
		"\t@%p1 bra L;\n"
		"\tsetp.eq.s32 %p1, %r2, 0;\n"
		"L:\n"
		"\t@%p1 st.global.u32 [%rd1], %r2;\n"
		"\tret;\n}\n";
	static const char *long_arm = HEAD
		"\t@%p1 bra L;\n"
		"\tadd.s32 %r3, %r2, 1;\n\tadd.s32 %r3, %r3, 1;\n\tadd.s32 %r3, %r3, 1;\n"
		"\tadd.s32 %r3, %r3, 1;\n\tadd.s32 %r3, %r3, 1;\n\tadd.s32 %r3, %r3, 1;\n"
		"\tadd.s32 %r3, %r3, 1;\n\tadd.s32 %r3, %r3, 1;\n\tadd.s32 %r3, %r3, 1;\n"
		"\tst.global.u32 [%rd1], %r3;\n"
		"L:\n"
		"\tret;\n}\n";
	static const char *two_entries = HEAD   /* the arm is also a loop head */
		"\tmov.u32 %r3, 0;\n"
		"\t@%p1 bra L;\n"
		"M:\n"
		"\tadd.s32 %r3, %r3, 1;\n"
		"\tsetp.lt.u32 %p2, %r3, %r1;\n"
		"\t@%p2 bra M;\n"
		"L:\n"
		"\tst.global.u32 [%rd1], %r3;\n"
		"\tret;\n}\n";
	char *d = NULL;

	CHECK(branches_after(triangle, &d) == 0);
	if (d) {
		CHECK(strstr(d, "@!%v1 ld.global.u32 %v7, [%v37];") != NULL);
		CHECK(strstr(d, "\tadd.s32 %v8, %v6, 7;") != NULL);       /* unguarded */
		CHECK(strstr(d, "@!%v1 st.global.u32 [%v37+4], %v8;") != NULL);
		free(d);
	}
	d = NULL;
	CHECK(branches_after(nvcc_diamond, &d) == 0);
	if (d) {
		CHECK(strstr(d, "@%v1 mul.lo.s32 %v7, %v6, 3;") != NULL);
		CHECK(strstr(d, "@!%v1 sub.s32 %v7, %v5, %v6;") != NULL);
		free(d);
	}
	{
		/* compact: the two blocks ifconv emptied go */
		IrT t;
		if (irt_build(&t, nvcc_diamond) == 0) {
			irt_run(&t, "ifconv dce compact");
			if (t.f.b.n != 4)   /* entry, the two arms, the join */
				FAIL("%zu blocks:\n%s", t.f.b.n, irt_dump(&t));
			CHECK(t.f.b.n == 4 && t.f.b.v[0].succ[0] == 1 && t.f.b.v[3].pred.n == 1 && t.f.b.v[3].pred.v[0] == 2);
		} else {
			FAIL("does not build");
		}
		irt_free(&t);
	}
	CHECK(branches_after(barrier, NULL) == 1);
	CHECK(branches_after(writes_p, NULL) == 1);
	CHECK(branches_after(long_arm, NULL) == 1);
	CHECK(branches_after(two_entries, NULL) == 2);
}
