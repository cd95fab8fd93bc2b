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
