/* test_interp_suite.c -- every kernel of the suite (tests/kernels/), its
 * sm_90 and sm_80 PTX, runs in the PTX interpreter and matches the C
 * reference through launch_compare (the spec's tolerances). */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "ptx/interp.h"
#include "ptx/ptx.h"
#include "../kernels/refs.h"

/* 0 on match; prints the mismatches. */
static int
run_one(const KernelRef *k, const char *arch, size_t *nbad, u64 *steps)
{
	char path[256];
	Spec s;
	Launch got, want;
	PtxModule *m;
	char *text;
	size_t n;
	int rc = -1;

	snprintf(path, sizeof path, "tests/kernels/%s/spec.json", k->name);
	if (spec_load(path, &s) < 0)
		return -1;
	snprintf(path, sizeof path, "tests/kernels/%s/kernel.%s.ptx", k->name, arch);
	if (!(text = read_file(path, &n))) {
		spec_free(&s);
		return -1;
	}
	m = ptx_parse(path, text, n);
	if (m && ptx_check(m) == 0) {
		launch_init(&got, &s);
		launch_init(&want, &s);
		if (interp_run(m, NULL, &got, NULL) == 0) {
			*steps += interp_steps;
			k->ref(&want);
			*nbad = launch_compare(&got, &want, stderr);
			rc = 0;
		}
		launch_free(&got);
		launch_free(&want);
	}
	ptx_free(m);
	free(text);
	spec_free(&s);
	return rc;
}

static void
suite(TestState *t_, const char *arch)
{
	size_t i, nbad;
	u64 steps = 0;

	CHECK(nkernel_refs >= 20);
	for (i = 0; i < nkernel_refs; i++) {
		const KernelRef *k = &kernel_refs[i];
		nbad = 0;
		if (run_one(k, arch, &nbad, &steps) < 0)
			FAIL("%s (%s): did not run", k->name, arch);
		else if (nbad)
			FAIL("%s (%s): %zu elements differ from the C reference", k->name, arch, nbad);
	}
	CHECK(steps > 0);
}

TEST(interp_suite_sm90) { suite(t_, "sm_90"); }
TEST(interp_suite_sm80) { suite(t_, "sm_80"); }

/* CC.CF as ptxas compiles it (one SASS carry flag for add and sub: after
 * sub.cc it is the carry-out of a + ~b + 1, "no borrow"; subc adds ~b and
 * it): ptxas 13.0's cubin of this PTX, run in the emulator, stores
 * 0, 0xffffffff, 1, 0xffffffff for a = {0, 1, 0}. */
TEST(interp_carry_mixed)
{
	static const char ptx[] =
		".version 8.0\n.target sm_80\n.address_size 64\n"
		".visible .entry cf(.param .u64 po, .param .u64 pa)\n{\n"
		"\t.reg .b32 %r<12>;\n\t.reg .b64 %rd<3>;\n"
		"\tld.param.u64 %rd1, [po];\n\tld.param.u64 %rd2, [pa];\n"
		"\tld.global.u32 %r1, [%rd2];\n\tld.global.u32 %r2, [%rd2+4];\n\tld.global.u32 %r3, [%rd2+8];\n"
		"\tsub.cc.u32 %r4, %r1, %r2;\n\taddc.u32 %r5, %r3, %r3;\n\tst.global.u32 [%rd1], %r5;\n"
		"\tadd.cc.u32 %r6, %r1, %r2;\n\tsubc.u32 %r7, %r3, %r3;\n\tst.global.u32 [%rd1+4], %r7;\n"
		"\tsub.cc.u32 %r8, %r2, %r1;\n\taddc.u32 %r9, %r3, %r3;\n\tst.global.u32 [%rd1+8], %r9;\n"
		"\tadd.cc.u32 %r10, %r2, %r2;\n\tsubc.u32 %r11, %r3, %r3;\n\tst.global.u32 [%rd1+12], %r11;\n"
		"\tret;\n}\n";
	static const char spec[] =
		"{\"kernel\": \"cf\", \"grid\": [1], \"block\": [1], \"args\": ["
		"{\"name\": \"o\", \"buffer\": \"u32\", \"count\": 4},"
		"{\"name\": \"a\", \"buffer\": \"u32\", \"count\": 3, \"init\": {\"values\": [0, 1, 0]}}]}";
	PtxModule *m = ptx_parse("cf.ptx", ptx, strlen(ptx));
	Spec s;
	Launch l;
	const u32 *o;

	CHECK(m && ptx_check(m) == 0);
	CHECK(spec_parse("cf.json", spec, strlen(spec), &s) == 0);
	launch_init(&l, &s);
	CHECK(interp_run(m, NULL, &l, NULL) == 0);
	o = launch_buf(&l, "o");
	CHECK_EQ_U64(o[0], 0);
	CHECK_EQ_U64(o[1], 0xffffffffu);
	CHECK_EQ_U64(o[2], 1);
	CHECK_EQ_U64(o[3], 0xffffffffu);
	launch_free(&l);
	spec_free(&s);
	ptx_free(m);
}
