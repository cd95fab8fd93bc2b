/* test_emu_pair.h -- every suite kernel's ptxas cubin run twice in the
 * emulator, once in a reference configuration ("without" a feature) and
 * once with it: the same outcome, the same buffers bit for bit and the
 * same warp-instruction counts (and thread-instruction counts when asked).
 * Used by test_fastpath.c (fast handlers) and test_emuwarp.c (fast issue
 * loop). */
#ifndef TEST_EMU_PAIR_H
#define TEST_EMU_PAIR_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cubin/cubin.h"
#include "emu/emu.h"
#include "run/spec.h"
#include "../kernels/refs.h"

/* setup(without, o): configure the run (o is zeroed, quiet, step limit). */
typedef void (*EmuPairSetup)(int without, EmuOpts *o);

static int
emu_pair_run(const KernelRef *k, const char *arch, Spec *s, Launch *l, u64 *steps, u64 *lanes,
	     EmuPairSetup setup, int without)
{
	char path[256];
	Cubin c;
	u8 *data;
	size_t n;
	int rc = EMU_ERROR;
	EmuOpts o = {0};

	o.quiet = 1;
	o.max_steps = 200000000;
	setup(without, &o);
	snprintf(path, sizeof path, "tests/kernels/%s/kernel.%s.cubin", k->name, arch);
	launch_init(l, s);
	if (!(data = (u8 *)read_file(path, &n)))
		return EMU_ERROR;
	if (cubin_read(&c, path, data, n) == 0) {
		rc = emu_run(&c, path, NULL, l, &o);
		*steps = emu_steps;
		*lanes = emu_lane_steps;
	}
	cubin_free(&c);
	free(data);
	return rc;
}

static void
emu_pair_suite(TestState *t_, const char *arch, const char *what, EmuPairSetup setup, int lanes)
{
	size_t i, j, same = 0;

	CHECK(nkernel_refs >= 20);
	for (i = 0; i < nkernel_refs; i++) {
		const KernelRef *k = &kernel_refs[i];
		char spath[256];
		Spec s;
		Launch with, wo;
		u64 nf = 0, ns = 0, lf = 0, ls = 0;
		int rf, rs, diff = 0;
		snprintf(spath, sizeof spath, "tests/kernels/%s/spec.json", k->name);
		if (spec_load(spath, &s) < 0) {
			FAIL("%s: no spec", k->name);
			continue;
		}
		rs = emu_pair_run(k, arch, &s, &wo, &ns, &ls, setup, 1);
		rf = emu_pair_run(k, arch, &s, &with, &nf, &lf, setup, 0);
		if (rf != rs)
			FAIL("%s (%s): with the %s %d, without %d (%s)", k->name, arch, what, rf, rs, emu_why);
		else if (rf == EMU_OK) {
			for (j = 0; j < s.nall; j++)
				if (with.data[j] && (with.bytes[j] != wo.bytes[j] ||
						     memcmp(with.data[j], wo.data[j], with.bytes[j]))) {
					FAIL("%s (%s): buffer %s differs with the %s", k->name, arch, s.args[j].name,
					     what);
					diff = 1;
				}
			if (nf != ns || (lanes && lf != ls)) {
				FAIL("%s (%s): %llu/%llu warp/thread-instructions with the %s, %llu/%llu without",
				     k->name, arch, (unsigned long long)nf, (unsigned long long)lf, what,
				     (unsigned long long)ns, (unsigned long long)ls);
				diff = 1;
			}
			same += !diff;
		}
		launch_free(&with);
		launch_free(&wo);
		spec_free(&s);
	}
	fprintf(stderr, "  %s %s: %zu of %zu kernels the same with and without it\n", what, arch, same,
		nkernel_refs);
	CHECK(same == nkernel_refs);
}

#endif
