/* test_emu_suite.c -- every kernel of the suite (tests/kernels/): its
 * committed ptxas cubin, sm_90 and sm_80, runs in the SASS emulator and
 * matches the C reference through launch_compare.  A kernel that reaches
 * something the emulator cannot execute yet (a word the decoder does not
 * know, an opcode without semantics) is counted as unsupported, with the
 * reason, not failed; a mismatch or any other error fails the test.
 *
 * Two runs per arch: with the built-in decoder only, and (when the oracle
 * nvdisasm is installed at oracle/nvdisasm) with it decoding the kernels
 * the built-in decoder cannot run yet (all of them with OA_LONG=1), to
 * test the semantics ahead of the decoder.  OA_EMU_VERBOSE=1 prints every
 * kernel's outcome. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test.h"
#include "cubin/cubin.h"
#include "emu/emu.h"
#include "../kernels/refs.h"

/* EMU_OK with *nbad set, or the emu_run outcome. */
static int
run_one(const KernelRef *k, const char *arch, const char *oracle, int timing, size_t *nbad)
{
	char path[256], spath[256];
	Spec s;
	Launch got, want;
	Cubin c;
	u8 *data;
	size_t n;
	int rc = EMU_ERROR;
	EmuOpts o = {0};

	o.quiet = 1;
	o.oracle = oracle;
	o.timing = timing;
	o.max_steps = 200000000;
	snprintf(spath, sizeof spath, "tests/kernels/%s/spec.json", k->name);
	if (spec_load(spath, &s) < 0)
		return EMU_ERROR;
	snprintf(path, sizeof path, "tests/kernels/%s/kernel.%s.cubin", k->name, arch);
	if (!(data = (u8 *)read_file(path, &n))) {
		spec_free(&s);
		return EMU_ERROR;
	}
	if (cubin_read(&c, path, data, n) == 0) {
		launch_init(&got, &s);
		launch_init(&want, &s);
		rc = emu_run(&c, path, NULL, &got, &o);
		if (rc == EMU_OK) {
			k->ref(&want);
			*nbad = launch_compare(&got, &want, stderr);
		}
		launch_free(&got);
		launch_free(&want);
	}
	cubin_free(&c);
	free(data);
	spec_free(&s);
	return rc;
}

static void
suite(TestState *t_, const char *arch, const char *oracle, int timing)
{
	size_t i, nbad, pass = 0, unsup = 0;
	int verbose = getenv("OA_EMU_VERBOSE") != NULL;

	CHECK(nkernel_refs >= 20);
	for (i = 0; i < nkernel_refs; i++) {
		const KernelRef *k = &kernel_refs[i];
		int rc;
		nbad = 0;
		/* oracle mode re-checks only what the built-in decoder cannot run
		   (every kernel with OA_LONG=1): nvdisasm costs ~0.2 s a call */
		rc = EMU_UNSUPPORTED;
		if (oracle && !getenv("OA_LONG"))
			rc = run_one(k, arch, NULL, timing, &nbad);
		if (rc == EMU_UNSUPPORTED)
			rc = run_one(k, arch, oracle, timing, &nbad);
		if (rc == EMU_UNSUPPORTED) {
			unsup++;
			if (verbose)
				fprintf(stderr, "  emu %s %s: unsupported: %s\n", arch, k->name, emu_why);
		} else if (rc != EMU_OK)
			FAIL("%s (%s): %s", k->name, arch, emu_why);
		else if (nbad)
			FAIL("%s (%s): %zu elements differ from the C reference", k->name, arch, nbad);
		else {
			pass++;
			if (verbose)
				fprintf(stderr, "  emu %s %s: ok (%llu warp-instructions)\n", arch, k->name,
					(unsigned long long)emu_steps);
		}
	}
	fprintf(stderr, "  emu suite %s%s%s: %zu of %zu kernels match the C reference, %zu unsupported\n",
		arch, oracle ? " (oracle decoding)" : "", timing ? " (timing mode)" : "", pass, nkernel_refs, unsup);
}

TEST(emu_suite_sm90) { suite(t_, "sm_90", NULL, 0); }
TEST(emu_suite_sm80) { suite(t_, "sm_80", NULL, 0); }
/* the timing mode (emu --timing) accepts ptxas's schedules: stale reads
 * would change the results */
TEST(emu_suite_timing_sm90) { suite(t_, "sm_90", NULL, 1); }
TEST(emu_suite_timing_sm80) { suite(t_, "sm_80", NULL, 1); }

#define ORACLE "oracle/nvdisasm"

TEST(emu_suite_oracle_sm90)
{
	if (access(ORACLE, X_OK))
		SKIP("no oracle/nvdisasm (tools/fetch-oracle installs it)");
	suite(t_, "sm_90", ORACLE, 0);
}

TEST(emu_suite_oracle_sm80)
{
	if (access(ORACLE, X_OK))
		SKIP("no oracle/nvdisasm (tools/fetch-oracle installs it)");
	suite(t_, "sm_80", ORACLE, 0);
}
