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
#include "test_emu_pair.h"

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

/* the reference run: warp_step for every instruction (a trace of no
 * warp turns the fast issue loop off) */
static void
issue_setup(int without, EmuOpts *o)
{
	static FILE *null;

	if (!without)
		return;
	if (!null)
		null = fopen("/dev/null", "w");
	if (!null)
		o->max_steps = 1;   /* no reference run: the comparison fails */
	o->trace = null;
	o->trace_warp = o->trace_cta = -1;
}

static void
suite(TestState *t_, const char *arch)
{
	emu_pair_suite(t_, arch, "fast issue loop", issue_setup, 1);
}

TEST(emuwarp_issue_sm90) { suite(t_, "sm_90"); }
TEST(emuwarp_issue_sm80) { suite(t_, "sm_80"); }
