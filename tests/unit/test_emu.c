/* test_emu.c -- the SASS emulator's own checks: the instruction-text
 * parser (isa/insn.h), the hand-made SIMT kernel of tests/emu/ (ptxas
 * cubins for sm_90 and sm_80) against the PTX interpreter on the same
 * PTX, and the error paths (unsupported words, bad launches). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test.h"
#include "cubin/cubin.h"
#include "emu/emu.h"
#include "emu/emu_int.h"
#include "isa/insn.h"
#include "isa/isa.h"
#include "ptx/interp.h"
#include "ptx/ptx.h"
#include "../kernels/refs.h"

TEST(emu_insn_parse)
{
	Arena a = {0};
	Insn in;
	char err[128];

	CHECK(insn_parse("@!P0 IMAD.WIDE.U32 R2, R5, 0x4, R2 ;", &in, &a, err, sizeof err) == 0);
	CHECK_STR(in.op, "IMAD");
	CHECK(in.nmods == 2 && insn_has(&in, "WIDE") && insn_has(&in, "U32"));
	CHECK(in.guard == 0 && in.guard_not == 1 && !in.guard_up);
	CHECK(in.nops == 4 && in.o[0].kind == OPK_R && in.o[0].reg == 2);
	CHECK(in.o[2].kind == OPK_IMM && in.o[2].imm == 4);

	CHECK(insn_parse("LDG.E.64 R6, desc[UR4][R6.64+-0x10]", &in, &a, err, sizeof err) == 0);
	CHECK(in.o[1].kind == OPK_MEM && in.o[1].desc == 4 && in.o[1].rk == OPK_R && in.o[1].reg == 6);
	CHECK(in.o[1].x64 && in.o[1].imm == (u64)-0x10);

	CHECK(insn_parse("LDS R0, [R3.X4+UR4+0x10]", &in, &a, err, sizeof err) == 0);
	CHECK(in.o[1].scale == 4 && in.o[1].ur == 4 && in.o[1].imm == 0x10);

	CHECK(insn_parse("FSETP.NEU.FTZ.AND P2, PT, -|R3|.reuse, +INF , PT ;", &in, &a, err, sizeof err) == 0);
	CHECK(in.nops == 5 && in.o[2].abs && in.o[2].neg && in.o[2].reg == 3);
	CHECK(in.o[3].kind == OPK_FIMM && in.o[3].f > 1e308);

	CHECK(insn_parse("FFMA R7, R2, c[0x0][R4+0x10], -R7", &in, &a, err, sizeof err) == 0);
	CHECK(in.o[2].kind == OPK_CB && in.o[2].bank == 0 && in.o[2].rk == OPK_R && in.o[2].imm == 0x10);
	CHECK(in.o[3].neg);

	CHECK(insn_parse("HFMA2.MMA R5, -RZ, RZ, 0, 5.9604644775390625e-08", &in, &a, err, sizeof err) == 0);
	CHECK(in.nops == 5 && in.o[1].neg && in.o[1].reg == 255 && in.o[4].kind == OPK_FIMM);

	CHECK(insn_parse("RET.REL.NODEC R20 0x0", &in, &a, err, sizeof err) == 0);
	CHECK(in.nops == 2 && in.o[0].reg == 20 && in.o[1].kind == OPK_IMM);

	CHECK(insn_parse("@UP0 S2UR UR4, SR_CTAID.X", &in, &a, err, sizeof err) == 0);
	CHECK(in.guard_up && in.o[0].kind == OPK_UR && in.o[1].kind == OPK_SR);
	CHECK_STR(in.o[1].text, "SR_CTAID.X");

	CHECK(insn_parse("BSSY B1, 0x750", &in, &a, err, sizeof err) == 0);
	CHECK(in.o[0].kind == OPK_B && in.o[0].reg == 1 && in.o[1].imm == 0x750);

	/* errors, not guesses */
	CHECK(insn_parse("IADD3 R1, R2, Q7, RZ", &in, &a, err, sizeof err) < 0);
	CHECK(strstr(err, "Q7") != NULL);
	CHECK(insn_parse("LDG R1, [R2", &in, &a, err, sizeof err) < 0);
	CHECK(insn_parse("FADD R1, |R2, R3", &in, &a, err, sizeof err) < 0);
	arena_free(&a);
}

/* Run tests/emu/NAME.ARCH.cubin; EMU_* outcome, *got filled. */
static int
emu_file(const char *cubin, const Spec *s, Launch *got, const char *oracle)
{
	size_t n;
	u8 *data = (u8 *)read_file(cubin, &n);
	Cubin c;
	EmuOpts o = {0};
	int rc = EMU_ERROR;

	o.quiet = 1;
	o.oracle = oracle;
	if (!data)
		return EMU_ERROR;
	if (cubin_read(&c, cubin, data, n) == 0)
		rc = emu_run(&c, cubin, NULL, got, &o);
	cubin_free(&c);
	free(data);
	return rc;
}

static int
interp_file(const char *ptxpath, Launch *want)
{
	size_t n;
	char *text = read_file(ptxpath, &n);
	PtxModule *m;
	InterpOpts o = {0};
	int rc = -1;

	o.quiet = 1;
	if (!text)
		return -1;
	m = ptx_parse(ptxpath, text, n);
	if (m && ptx_check(m) == 0)
		rc = interp_run(m, NULL, want, &o);
	ptx_free(m);
	free(text);
	return rc;
}

/* tests/emu/NAME.ARCH.cubin vs the interpreter on tests/emu/NAME.ptx
 * (DIR/NAME.ptx and .json when dir is given):
 * 1 ran and matched, 0 unsupported (emu_why says why); FAILs otherwise. */
static int
vs_interp(TestState *t_, const char *name, const char *arch, const char *oracle)
{
	char path[128];
	const char *dir = strchr(name, '/') ? "" : "tests/emu/";
	const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
	Spec s;
	Launch got, want;
	int rc, ok = 0;

	snprintf(path, sizeof path, "%s%s.json", dir, name);
	if (spec_load(path, &s) < 0) {
		FAIL("%s does not load", path);
		return 0;
	}
	launch_init(&got, &s);
	launch_init(&want, &s);
	snprintf(path, sizeof path, "tests/emu/%s.%s.cubin", base, arch);
	rc = emu_file(path, &s, &got, oracle);
	snprintf(path, sizeof path, "%s%s.ptx", dir, name);
	CHECK(interp_file(path, &want) == 0);
	if (rc == EMU_OK) {
		CHECK(launch_compare(&got, &want, stderr) == 0);
		CHECK(emu_steps > 100 && emu_lane_steps > emu_steps);
		ok = 1;
	} else if (rc != EMU_UNSUPPORTED)
		FAIL("%s.%s: %s", name, arch, emu_why);
	launch_free(&got);
	launch_free(&want);
	spec_free(&s);
	return ok;
}

static void
vs_interp_test(TestState *t_, const char *name, const char *arch)
{
	static char why[300];

	if (vs_interp(t_, name, arch, NULL))
		return;
	snprintf(why, sizeof why, "built-in decoder: %s", emu_why);
	if (!access("oracle/nvdisasm", X_OK)) {
		/* the semantics still get tested, with the oracle decoding */
		if (!vs_interp(t_, name, arch, "oracle/nvdisasm"))
			FAIL("with the oracle: %s", emu_why);
	}
	SKIP(why);
}

TEST(emu_simt_sm90) { vs_interp_test(t_, "simt", "sm_90"); }
TEST(emu_simt_sm80) { vs_interp_test(t_, "simt", "sm_80"); }
/* BAR.RED + B2R, DMMA, 64-bit CAS, shared EXCH/MAX, VOTE.ALL/EQ */
TEST(emu_extra_sm90) { vs_interp_test(t_, "extra", "sm_90"); }
TEST(emu_extra_sm80) { vs_interp_test(t_, "extra", "sm_80"); }
/* brx.idx: BRX with a divergent index, BRXU with a uniform one */
TEST(emu_brx_sm90) { vs_interp_test(t_, "brx", "sm_90"); }
TEST(emu_brx_sm80) { vs_interp_test(t_, "brx", "sm_80"); }
/* a lane spins on a flag a lane of its warp at a higher PC sets */
/* session 3's gaps: generic ATOM on a shared address, MATCH.ALL, plain
 * REDUX, SGXT, .S64 atomics, MUFU.EX2.F16, FLO, IMMA.SAT; and BAR R, R
 * (emu_barreg_*) */
TEST(emu_gaps_sm90) { vs_interp_test(t_, "gaps", "sm_90"); }
TEST(emu_gaps_sm80) { vs_interp_test(t_, "gaps", "sm_80"); }
TEST(emu_barreg_sm90) { vs_interp_test(t_, "barreg", "sm_90"); }
TEST(emu_barreg_sm80) { vs_interp_test(t_, "barreg", "sm_80"); }
/* mbarrier: all arrivals before the transaction bytes (SYNCS .A0TX) */
TEST(emu_mbar_tx_sm90) { vs_interp_test(t_, "mbar_tx", "sm_90"); }

TEST(emu_spin_sm90) { vs_interp_test(t_, "spin", "sm_90"); }
TEST(emu_spin_sm80) { vs_interp_test(t_, "spin", "sm_80"); }
/* HGMMA (wgmma m64n16k16, swizzled and core-matrix descriptors): the
 * interpreter's hand-written sm_90a test, compiled by ptxas */
TEST(emu_wgmma_sm90a) { vs_interp_test(t_, "tests/interp/wgmma", "sm_90a"); }
/* HGMMA with A from registers (wgmma_rs.ptx: the same product, A as an
 * mma.sync-style register fragment) */
TEST(emu_wgmma_rs_sm90a) { vs_interp_test(t_, "wgmma_rs", "sm_90a"); }

/* A word nobody decodes stops the run, naming kernel, PC and word. */
TEST(emu_unsupported_word)
{
	Spec s;
	Launch l;
	Cubin c;
	size_t n;
	u8 *data = (u8 *)read_file("tests/emu/simt.sm_90.cubin", &n);
	int si, rc;
	EmuOpts o = {0};

	CHECK(data != NULL);
	if (!data)
		return;
	CHECK(spec_load("tests/emu/simt.json", &s) == 0);
	CHECK(cubin_read(&c, "x.cubin", data, n) == 0);
	si = cubin_find_section(&c, ".text.simt");
	CHECK(si > 0);
	/* word 3 becomes all ones (no table row has it) */
	memset(c.sec.v[si].data + 3 * 16, 0xff, 16);
	o.quiet = 1;
	launch_init(&l, &s);
	rc = emu_run(&c, "x.cubin", NULL, &l, &o);
	CHECK(rc == EMU_UNSUPPORTED);
	CHECK(strstr(emu_why, "simt+0x30") != NULL || strstr(emu_why, "simt+0x") != NULL);
	CHECK(strstr(emu_why, "UNKNOWN") != NULL || strstr(emu_why, "unsupported") != NULL);
	launch_free(&l);
	cubin_free(&c);
	spec_free(&s);
	free(data);
}

/* Launch errors are reported, not crashed on. */
TEST(emu_bad_launch)
{
	Spec s;
	Launch l;
	Cubin c;
	size_t n;
	u8 *data = (u8 *)read_file("tests/emu/simt.sm_80.cubin", &n);
	EmuOpts o = {0};

	CHECK(data != NULL);
	if (!data)
		return;
	o.quiet = 1;
	CHECK(spec_load("tests/emu/simt.json", &s) == 0);
	CHECK(cubin_read(&c, "x.cubin", data, n) == 0);
	launch_init(&l, &s);
	CHECK(emu_run(&c, "x.cubin", "no_such_kernel", &l, &o) == EMU_ERROR);
	s.block[0] = 2048;
	CHECK(emu_run(&c, "x.cubin", NULL, &l, &o) == EMU_ERROR);
	launch_free(&l);
	cubin_free(&c);
	spec_free(&s);
	free(data);
}

/* Modifiers the semantics do not model are refused, not ignored. */
TEST(emu_modifier_check)
{
	static const struct { const char *text, *bad; } t[] = {
		{"FADD.FTZ.RZ R1, R2, R3", NULL},
		{"IMAD.WIDE.U32 R2, R5, 0x4, R2", NULL},
		{"ISETP.GE.U32.AND.EX P0, PT, R3, R5, PT, P0", NULL},
		{"LDG.E.128.CONSTANT R4, desc[UR4][R2.64]", NULL},
		{"FADD.D2 R1, R2, R3", "D2"},
		{"LDG.E.ZD R4, desc[UR4][R2.64]", "ZD"},
		{"MOV.FOO R1, R2", "FOO"},
		{"SHFL.IDX.XOR PT, R1, R2, R3, R4", "XOR"},
	};
	Arena a = {0};
	char err[128];
	size_t i;

	for (i = 0; i < NELEM(t); i++) {
		EInsn I;
		const char *m;
		memset(&I, 0, sizeof I);
		CHECK(insn_parse(t[i].text, &I.in, &a, err, sizeof err) == 0);
		m = emu_check_mods(&I);
		if (t[i].bad)
			CHECK(m && !strcmp(m, t[i].bad));
		else if (m)
			FAIL("%s: modifier %s refused", t[i].text, m);
	}
	arena_free(&a);
}

/* Random bit flips in the code never crash the emulator: every run ends
 * with a result, an error or "unsupported" (the sanitizer build checks
 * the memory side).  OA_LONG=1: more rounds. */
TEST(emu_mutated_code)
{
	Spec s;
	Cubin c;
	size_t n, i;
	u8 *data = (u8 *)read_file("tests/emu/simt.sm_90.cubin", &n);
	u64 seed = 12345;
	int si, rounds = getenv("OA_LONG") ? 3000 : 150, r, outcome[3] = {0};
	EmuOpts o = {0};

	CHECK(data != NULL);
	if (!data)
		return;
	CHECK(spec_load("tests/emu/simt.json", &s) == 0);
	o.quiet = 1;
	o.max_steps = 200000;
	for (r = 0; r < rounds; r++) {
		Launch l;
		int rc;
		CHECK(cubin_read(&c, "m.cubin", data, n) == 0);
		si = cubin_find_section(&c, ".text.simt");
		CHECK(si > 0);
		if (si <= 0) {
			cubin_free(&c);
			break;
		}
		for (i = 0; i < 3; i++) {
			u64 x = splitmix64(&seed);
			u64 words = c.sec.v[si].size / 16, wi = x % (words ? words : 1);
			/* flip one bit of the operation part (bits 0..104) */
			u32 bit = (u32)((x >> 32) % 105);
			c.sec.v[si].data[wi * 16 + bit / 8] ^= (u8)(1u << (bit % 8));
		}
		launch_init(&l, &s);
		rc = emu_run(&c, "m.cubin", NULL, &l, &o);
		CHECK(rc == EMU_OK || rc == EMU_ERROR || rc == EMU_UNSUPPORTED);
		outcome[rc == EMU_OK ? 0 : rc == EMU_ERROR ? 1 : 2]++;
		launch_free(&l);
		cubin_free(&c);
	}
	CHECK(outcome[0] + outcome[1] + outcome[2] == rounds);
	if (getenv("OA_EMU_VERBOSE"))
		fprintf(stderr, "  mutated code: %d ran, %d stopped with an error, %d unsupported\n",
			outcome[0], outcome[1], outcome[2]);
	spec_free(&s);
	free(data);
}

/* ---- timing mode (emu --timing) ---- */

/* Run tests/kernels/NAME's ARCH cubin with every instruction's control
 * bits changed by how (0: as ptxas wrote them, 1: stall counts of 1,
 * 2: no scoreboard waits) under the timing model (or not); returns the
 * number of elements that differ from the C reference, or -1. */
static long
timed(const char *name, const char *arch, int how, int timing)
{
	char path[256], sec[128];
	Spec s;
	Launch got, want;
	Cubin c;
	EmuOpts o = {0};
	const KernelRef *k = kernel_ref_lookup(name);
	u8 *data;
	size_t n, i;
	long bad = -1;
	int si;

	snprintf(path, sizeof path, "tests/kernels/%s/spec.json", name);
	if (!k || spec_load(path, &s) < 0)
		return -1;
	snprintf(path, sizeof path, "tests/kernels/%s/kernel.%s.cubin", name, arch);
	if (!(data = (u8 *)read_file(path, &n))) {
		spec_free(&s);
		return -1;
	}
	o.quiet = 1;
	o.timing = timing;
	snprintf(sec, sizeof sec, ".text.%s", s.kernel ? s.kernel : name);
	if (cubin_read(&c, path, data, n) == 0 && (si = cubin_find_section(&c, sec)) >= 0) {
		u8 *p = c.sec.v[si].data;
		for (i = 0; how && i + 16 <= c.sec.v[si].size; i += 16) {
			Word w;
			Ctrl ct;
			memcpy(&w.lo, p + i, 8);
			memcpy(&w.hi, p + i + 8, 8);
			ct = ctrl_get(w);
			if (how == 1)
				ct.stall = 1;
			else
				ct.wait = 0;
			w = ctrl_set(w, ct);
			memcpy(p + i, &w.lo, 8);
			memcpy(p + i + 8, &w.hi, 8);
		}
		launch_init(&got, &s);
		launch_init(&want, &s);
		if (emu_run(&c, path, NULL, &got, &o) == EMU_OK) {
			k->ref(&want);
			bad = (long)launch_compare(&got, &want, NULL);
		} else
			bad = 1000000;   /* a fault counts as wrong */
		launch_free(&got);
		launch_free(&want);
	}
	cubin_free(&c);
	free(data);
	spec_free(&s);
	return bad;
}

/* ptxas's control bits give the right answer in timing mode; with its
 * stall counts cut to 1, or its scoreboard waits dropped, the same code
 * computes the wrong answer there (and still the right one without the
 * timing model, which ignores control bits). */
TEST(emu_timing)
{
	static const char *const arch[] = {"sm_90", "sm_80"};
	int a;

	for (a = 0; a < 2; a++) {
		CHECK(timed("ew_f16", arch[a], 0, 1) == 0);
		CHECK(timed("ew_f16", arch[a], 1, 0) == 0);
		CHECK(timed("ew_f16", arch[a], 2, 0) == 0);
		CHECK(timed("ew_f16", arch[a], 1, 1) > 0);
		CHECK(timed("ew_f16", arch[a], 2, 1) > 0);
		CHECK(timed("ew_saxpy_f32", arch[a], 0, 1) == 0);
		CHECK(timed("ew_saxpy_f32", arch[a], 2, 1) > 0);
	}
}
