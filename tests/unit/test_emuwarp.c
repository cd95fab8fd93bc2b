/* test_emuwarp.c -- the emulator's per-warp machinery (src/emu/emu.c,
 * emu_int.h):
 *   emuwarp_lanemasks  the lane-mask helpers (a bit of 32 bytes, the
 *                      lanes in a state) against per-lane loops;
 *   emuwarp_issue_*    every suite kernel's ptxas cubin run with the fast
 *                      issue loop (converged warps and the lowest group of
 *                      a diverged one) and without it (warp_step for
 *                      every instruction: a trace of no warp turns it
 *                      off): the same buffers bit for bit and the same
 *                      warp- and thread-instruction counts. */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "cubin/cubin.h"
#include "emu/emu_int.h"
#include "../kernels/refs.h"

TEST(emuwarp_lanemasks)
{
	static Warp w;
	u64 seed = 0x9e3779b97f4a7c15ull;
	int round, l, k, bad = 0;

	for (round = 0; round < 2000; round++) {
		for (l = 0; l < 32; l++) {
			u32 r = (u32)(splitmix64(&seed) >> 7);
			w.p[l] = (u8)(round < 256 ? round : r);
			w.st[l] = (u8)(round % 3 == 0 ? L_RUN : r % 6);
		}
		for (k = 0; k < 8; k++) {
			u32 want = 0;
			for (l = 0; l < 32; l++)
				want |= (u32)(w.p[l] >> k & 1) << l;
			bad += emu_bytebits(w.p, k) != want;
		}
		for (k = L_RUN; k <= L_OFF; k++) {
			u32 want = 0;
			for (l = 0; l < 32; l++)
				want |= (u32)(w.st[l] == k) << l;
			bad += emu_st_lanes(&w, (u32)k) != want;
		}
	}
	CHECK(bad == 0);
}

/* Run kernel k's arch cubin on spec s (slow: no fast issue loop). */
static int
run_kernel(const KernelRef *k, const char *arch, Spec *s, Launch *l, u64 *steps, u64 *lanes, int slow)
{
	char path[256];
	Cubin c;
	u8 *data;
	size_t n;
	int rc = EMU_ERROR;
	EmuOpts o = {0};
	FILE *null = NULL;

	o.quiet = 1;
	o.max_steps = 200000000;
	if (slow) {
		if (!(null = fopen("/dev/null", "w")))
			return EMU_ERROR;
		o.trace = null;
		o.trace_warp = o.trace_cta = -1;
	}
	snprintf(path, sizeof path, "tests/kernels/%s/kernel.%s.cubin", k->name, arch);
	launch_init(l, s);
	if ((data = (u8 *)read_file(path, &n))) {
		if (cubin_read(&c, path, data, n) == 0) {
			rc = emu_run(&c, path, NULL, l, &o);
			*steps = emu_steps;
			*lanes = emu_lane_steps;
		}
		cubin_free(&c);
		free(data);
	}
	if (null)
		fclose(null);
	return rc;
}

static void
suite(TestState *t_, const char *arch)
{
	size_t i, j, same = 0;

	CHECK(nkernel_refs >= 20);
	for (i = 0; i < nkernel_refs; i++) {
		const KernelRef *k = &kernel_refs[i];
		char spath[256];
		Spec s;
		Launch fast, slow;
		u64 nf = 0, ns = 0, lf = 0, ls = 0;
		int rf, rs, diff = 0;
		snprintf(spath, sizeof spath, "tests/kernels/%s/spec.json", k->name);
		if (spec_load(spath, &s) < 0) {
			FAIL("%s: no spec", k->name);
			continue;
		}
		rs = run_kernel(k, arch, &s, &slow, &ns, &ls, 1);
		rf = run_kernel(k, arch, &s, &fast, &nf, &lf, 0);
		if (rf != rs)
			FAIL("%s (%s): fast issue %d, warp_step only %d (%s)", k->name, arch, rf, rs, emu_why);
		else if (rf == EMU_OK) {
			for (j = 0; j < s.nall; j++)
				if (fast.data[j] && (fast.bytes[j] != slow.bytes[j] ||
						     memcmp(fast.data[j], slow.data[j], fast.bytes[j]))) {
					FAIL("%s (%s): buffer %s differs with the fast issue loop", k->name, arch,
					     s.args[j].name);
					diff = 1;
				}
			if (nf != ns || lf != ls) {
				FAIL("%s (%s): %llu/%llu warp/thread-instructions with the fast issue loop, %llu/%llu without",
				     k->name, arch, (unsigned long long)nf, (unsigned long long)lf,
				     (unsigned long long)ns, (unsigned long long)ls);
				diff = 1;
			}
			same += !diff;
		}
		launch_free(&fast);
		launch_free(&slow);
		spec_free(&s);
	}
	fprintf(stderr, "  issue loop %s: %zu of %zu kernels the same with and without it\n", arch, same,
		nkernel_refs);
	CHECK(same == nkernel_refs);
}

TEST(emuwarp_issue_sm90) { suite(t_, "sm_90"); }
TEST(emuwarp_issue_sm80) { suite(t_, "sm_80"); }
