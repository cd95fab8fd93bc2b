/* test_emu_ops.c -- single SASS instructions through the emulator's
 * handlers (no cubin, no decoder): text -> insn_parse -> handler, on a
 * warp whose registers the test sets.  Checks the semantics models of
 * docs/findings-emu.md one by one (carries, pairs, shifts, compares,
 * conversions, collectives). */
#include <string.h>

#include "test.h"
#include "emu/emu_int.h"
#include "ptx/arith.h"

static Emu E;
static Warp W;
static Arena A;

static void
reset(void)
{
	memset(&E, 0, sizeof E);
	memset(&W, 0, sizeof W);
	E.kname = "ops";
	E.path = "ops";
	E.ntid[0] = 32, E.ntid[1] = E.ntid[2] = 1;
	E.nctaid[0] = E.nctaid[1] = E.nctaid[2] = 1;
	E.nthreads = 32, E.nwarps = 1, E.csize = 1;
	W.live = W.act = ~0u;
	W.up = 0x80;
	for (int l = 0; l < 32; l++)
		W.p[l] = 0x80;
}

/* Run text on the lanes of mask; 0, or -1 if it stopped (error/unsupported). */
static int
run(TestState *t_, const char *text, u32 mask0)
{
	volatile u32 mask = mask0;
	EInsn I;
	char err[128];
	static EmuOpts quiet = {.quiet = 1};

	memset(&I, 0, sizeof I);
	if (insn_parse(text, &I.in, &A, err, sizeof err) < 0) {
		FAIL("%s: %s", text, err);
		return -1;
	}
	I.fn = emu_handler(I.in.op);
	if (!I.fn) {
		FAIL("%s: no handler", text);
		return -1;
	}
	emu_prep(&E, &I);
	if (emu_check_mods(&I))
		return -1;
	E.o = &quiet;
	if (setjmp(E.fail))
		return -1;
	if (I.uni)
		mask &= -mask;
	W.act = mask;
	I.fn(&E, &W, &I, mask);
	return 0;
}

#define P(l, n) (W.p[l] >> (n) & 1)

TEST(emu_ops_integer)
{
	reset();
	/* IADD3 carries: bits 32 and 33 of the exact sum */
	W.r[1][0] = 0xffffffff, W.r[2][0] = 0xffffffff, W.r[3][0] = 2;
	CHECK(run(t_, "IADD3 R0, P0, P1, R1, R2, R3", 1) == 0);
	CHECK(W.r[0][0] == 0 && P(0, 0) == 0 && P(0, 1) == 1);
	/* 64-bit subtraction: 0x1_00000000 - 1 */
	W.r[4][0] = 0, W.r[5][0] = 1, W.r[6][0] = 1, W.r[7][0] = 0;
	CHECK(run(t_, "IADD3 R0, P0, R4, -R6, RZ", 1) == 0);
	CHECK(run(t_, "IADD3.X R1, R5, ~R7, RZ, P0, !PT", 1) == 0);
	CHECK(W.r[0][0] == 0xffffffff && W.r[1][0] == 0);
	/* IMAD.HI adds a register pair: hi32(a*b + C:C+1) */
	W.r[1][0] = 0x80000000, W.r[2][0] = 4, W.r[4][0] = 5, W.r[5][0] = 7;
	CHECK(run(t_, "IMAD.HI.U32 R0, R1, R2, R4", 1) == 0);
	CHECK_EQ_U64(W.r[0][0], 9);
	/* IMAD.WIDE with carry out, then .X with carry in */
	W.r[1][0] = 0xffffffff, W.r[2][0] = 0xffffffff, W.r[4][0] = 0, W.r[5][0] = 2;
	CHECK(run(t_, "IMAD.WIDE.U32 R8, P0, R1, R2, R4", 1) == 0);
	CHECK(W.r[8][0] == 1 && W.r[9][0] == 0 && P(0, 0) == 1);
	W.r[4][0] = 0, W.r[5][0] = 0;
	CHECK(run(t_, "IMAD.WIDE.U32.X R8, R4, R4, R4, P0", 1) == 0);
	CHECK(W.r[8][0] == 1 && W.r[9][0] == 0);
	/* LEA.HI.X.SX32: high word of sext(a) << s, plus b and the carry */
	W.r[4][0] = 0xffffffff, W.r[7][0] = 10;
	W.p[0] |= 1;
	CHECK(run(t_, "LEA.HI.X.SX32 R5, R4, R7, 0x2, P0", 1) == 0);
	CHECK_EQ_U64(W.r[5][0], 10);
	/* LEA: the carry is the 32-bit add's (shifted-out bits go to LEA.HI) */
	W.r[1][0] = 0x80000000, W.r[2][0] = 0x1;
	CHECK(run(t_, "LEA R0, P1, R1, R2, 0x1", 1) == 0);
	CHECK(W.r[0][0] == 1 && P(0, 1) == 0);
	W.r[1][0] = 0xffffffff, W.r[2][0] = 0x2;
	CHECK(run(t_, "LEA R0, P1, R1, R2, 0x1", 1) == 0);
	CHECK(W.r[0][0] == 0 && P(0, 1) == 1);
	/* funnel shifts */
	W.r[1][0] = 0x80000000;
	CHECK(run(t_, "SHF.R.S32.HI R0, RZ, 0x1f, R1", 1) == 0);
	CHECK_EQ_U64(W.r[0][0], 0xffffffff);
	W.r[1][0] = 0xf0000000, W.r[2][0] = 1;
	CHECK(run(t_, "SHF.L.U64.HI R0, R1, 0x4, R2", 1) == 0);
	CHECK_EQ_U64(W.r[0][0], 0x1f);
	CHECK(run(t_, "SHF.R.U64 R0, R1, 0x4, R2", 1) == 0);
	CHECK_EQ_U64(W.r[0][0], 0x1f000000);
	CHECK(run(t_, "SHF.R.U32.HI R0, RZ, 0x20, R1", 1) == 0);   /* clamps */
	CHECK_EQ_U64(W.r[0][0], 0);
	/* 64-bit compare: ISETP.EX takes the low word's result */
	W.r[3][0] = 1, W.r[5][0] = 1;
	W.p[0] |= 2;
	CHECK(run(t_, "ISETP.GE.U32.AND.EX P0, PT, R3, R5, PT, P1", 1) == 0);
	CHECK(P(0, 0) == 1);
	W.p[0] &= ~2;
	CHECK(run(t_, "ISETP.GE.U32.AND.EX P0, PT, R3, R5, PT, P1", 1) == 0);
	CHECK(P(0, 0) == 0);
	/* signed vs unsigned */
	W.r[1][0] = 0xffffffff, W.r[2][0] = 1;
	CHECK(run(t_, "ISETP.LT.AND P0, P1, R1, R2, PT", 1) == 0);
	CHECK(P(0, 0) == 1 && P(0, 1) == 0);
	CHECK(run(t_, "ISETP.LT.U32.AND P0, PT, R1, R2, PT", 1) == 0);
	CHECK(P(0, 0) == 0);
	/* PRMT, FLO, POPC, LOP3 with a predicate */
	W.r[1][0] = 0x11223344, W.r[2][0] = 0x55667788;
	CHECK(run(t_, "PRMT R0, R1, 0x7654, R2", 1) == 0);
	CHECK_EQ_U64(W.r[0][0], 0x55667788);
	CHECK(run(t_, "PRMT R0, R1, 0x0123, R2", 1) == 0);
	CHECK_EQ_U64(W.r[0][0], 0x44332211);
	W.r[1][0] = 0x10;
	CHECK(run(t_, "FLO.U32 R0, R1", 1) == 0);
	CHECK_EQ_U64(W.r[0][0], 4);
	CHECK(run(t_, "FLO.U32.SH R0, R1", 1) == 0);
	CHECK_EQ_U64(W.r[0][0], 27);
	CHECK(run(t_, "LOP3.LUT P2, RZ, R1, 0x10, RZ, 0xc0, !PT", 1) == 0);
	CHECK(P(0, 2) == 1);
	/* P2R / R2P round trip */
	W.p[0] = 0x80 | 0x25;
	CHECK(run(t_, "P2R R0, PR, RZ, 0x7f", 1) == 0);
	CHECK_EQ_U64(W.r[0][0], 0x25);
	W.p[0] = 0x80;
	CHECK(run(t_, "R2P PR, R0, 0x7f", 1) == 0);
	CHECK_EQ_U64(W.p[0], 0xa5);
	/* VIMNMX: PT = min */
	W.r[1][0] = (u32)-5, W.r[2][0] = 3;
	CHECK(run(t_, "VIMNMX R0, R1, R2, PT", 1) == 0);
	CHECK_EQ_U64(W.r[0][0], (u32)-5);
	CHECK(run(t_, "VIMNMX.U32 R0, R1, R2, PT", 1) == 0);
	CHECK_EQ_U64(W.r[0][0], 3);
	/* RZ is never written; past R254 nothing is written */
	CHECK(run(t_, "MOV RZ, 0x5", 1) == 0);
	CHECK(W.r[255][0] == 0);
	CHECK(run(t_, "CS2R R254, SRZ", 1) == 0);
	CHECK(W.r[255][0] == 0);
	/* unknown modifiers are refused */
	CHECK(run(t_, "IADD3.FOO R0, R1, R2, R3", 1) == -1);
	arena_free(&A);
}

TEST(emu_ops_float)
{
	reset();
	W.r[1][0] = F32_NAN, W.r[2][0] = 0x3f800000;
	CHECK(run(t_, "FSETP.GEU.AND P0, PT, R1, R2, PT", 1) == 0);
	CHECK(P(0, 0) == 1);
	CHECK(run(t_, "FSETP.GE.AND P0, PT, R1, R2, PT", 1) == 0);
	CHECK(P(0, 0) == 0);
	/* conversions */
	W.r[1][0] = bits_f32(-2.7f);
	CHECK(run(t_, "F2I.TRUNC.NTZ R0, R1", 1) == 0);
	CHECK_EQ_U64(W.r[0][0], (u32)-2);
	CHECK(run(t_, "F2I.FLOOR.NTZ R0, R1", 1) == 0);
	CHECK_EQ_U64(W.r[0][0], (u32)-3);
	CHECK(run(t_, "F2I.NTZ R0, R1", 1) == 0);
	CHECK_EQ_U64(W.r[0][0], (u32)-3);
	W.r[1][0] = 0xffffffff;
	CHECK(run(t_, "I2F.U32.RP R0, R1", 1) == 0);
	CHECK_EQ_U64(W.r[0][0], 0x4f800000);
	CHECK(run(t_, "I2F.U32.RZ R0, R1", 1) == 0);
	CHECK_EQ_U64(W.r[0][0], 0x4f7fffff);
	/* f32 <-> f64 pairs */
	W.r[1][0] = 0x3fc00000;   /* 1.5f */
	CHECK(run(t_, "F2F.F64.F32 R2, R1", 1) == 0);
	CHECK(W.r[2][0] == 0 && W.r[3][0] == 0x3ff80000);
	CHECK(run(t_, "DADD R4, R2, R2", 1) == 0);
	CHECK(W.r[4][0] == 0 && W.r[5][0] == 0x40080000);
	CHECK(run(t_, "DFMA R4, R2, 2, -R4", 1) == 0);   /* 1.5*2 - 3 = 0 */
	CHECK(W.r[4][0] == 0 && W.r[5][0] == 0);
	/* FFMA with negation and abs, FMNMX (PT = min) */
	W.r[1][0] = bits_f32(-2.0f), W.r[2][0] = bits_f32(3.0f);
	CHECK(run(t_, "FFMA R0, |R1|, R2, -R2", 1) == 0);
	CHECK_EQ_U64(W.r[0][0], bits_f32(3.0f));
	CHECK(run(t_, "FMNMX R0, R1, R2, !PT", 1) == 0);
	CHECK_EQ_U64(W.r[0][0], bits_f32(3.0f));
	/* f16x2: HADD2 with a .H0_H0 broadcast; HFMA2.MMA constant load */
	W.r[1][0] = 0x40003c00;   /* {hi 2.0, lo 1.0} */
	CHECK(run(t_, "HADD2 R0, R1, R1.H0_H0", 1) == 0);
	CHECK_EQ_U64(W.r[0][0], 0x42004000);   /* {3.0, 2.0} */
	CHECK(run(t_, "HFMA2.MMA R0, -RZ, RZ, 0, 2.384185791015625e-07", 1) == 0);
	CHECK_EQ_U64(W.r[0][0], 4);
	/* DSETP.MAX: p = a is the result, q = both NaN */
	W.r[2][0] = 0, W.r[3][0] = 0x7ff80000;   /* a = NaN */
	W.r[4][0] = 0, W.r[5][0] = 0x3ff00000;   /* b = 1 */
	CHECK(run(t_, "DSETP.MAX.AND P0, P1, R2, R4, PT", 1) == 0);
	CHECK(P(0, 0) == 0 && P(0, 1) == 0);
	CHECK(run(t_, "DSETP.MAX.AND P0, P1, R4, R2, PT", 1) == 0);
	CHECK(P(0, 0) == 1 && P(0, 1) == 0);
	/* FCHK always takes the exact slow path */
	CHECK(run(t_, "FCHK P0, R1, R2", 1) == 0);
	CHECK(P(0, 0) == 1);
	/* MUFU.SIN takes turns */
	W.r[1][0] = bits_f32(0.25f);
	CHECK(run(t_, "MUFU.SIN R0, R1", 1) == 0);
	CHECK_EQ_U64(W.r[0][0], 0x3f800000);
	arena_free(&A);
}

TEST(emu_ops_warp)
{
	int l;
	u32 odd = 0xaaaaaaaau;

	reset();
	for (l = 0; l < 32; l++) {
		W.r[1][l] = l;
		if (l & 1)
			W.p[l] |= 1;
	}
	CHECK(run(t_, "SHFL.BFLY PT, R0, R1, 0x1, 0x1f", ~0u) == 0);
	for (l = 0; l < 32; l++)
		CHECK(W.r[0][l] == (u32)(l ^ 1));
	CHECK(run(t_, "SHFL.DOWN P2, R0, R1, 0x4, 0x1f", ~0u) == 0);
	CHECK(W.r[0][0] == 4 && P(0, 2) == 1 && W.r[0][31] == 31 && P(31, 2) == 0);
	CHECK(run(t_, "SHFL.UP P2, R0, R1, 0x1, RZ", ~0u) == 0);
	CHECK(W.r[0][0] == 0 && P(0, 2) == 0 && W.r[0][5] == 4);
	CHECK(run(t_, "SHFL.IDX PT, R0, R1, 0x3, 0x1f", ~0u) == 0);
	CHECK(W.r[0][17] == 3);
	/* segmented: width 8 (c = 0x1807 style: segmask 0x18, clamp 7) */
	CHECK(run(t_, "SHFL.IDX PT, R0, R1, 0x2, 0x1807", ~0u) == 0);
	CHECK(W.r[0][13] == 10);
	CHECK(run(t_, "VOTE.ANY R0, PT, P0", ~0u) == 0);
	CHECK_EQ_U64(W.r[0][0], odd);
	CHECK(run(t_, "VOTE.ALL P3, P0", odd) == 0);
	CHECK(P(1, 3) == 1);
	CHECK(run(t_, "VOTE.ALL P3, P0", ~0u) == 0);
	CHECK(P(1, 3) == 0);
	CHECK(run(t_, "VOTEU.ANY UR4, UPT, PT", 0x0000ff00u) == 0);
	CHECK_EQ_U64(W.ur[4], 0x0000ff00u);
	CHECK(run(t_, "REDUX.SUM UR5, R1", ~0u) == 0);
	CHECK_EQ_U64(W.ur[5], 496);
	CHECK(run(t_, "REDUX.MIN.S32 UR6, R1", 0xfffffff0u) == 0);
	CHECK_EQ_U64(W.ur[6], 4);
	for (l = 0; l < 32; l++)
		W.r[2][l] = l & 3;
	CHECK(run(t_, "MATCH.ANY R0, R2", ~0u) == 0);
	CHECK_EQ_U64(W.r[0][5], 0x22222222u);
	CHECK(run(t_, "MATCH.ALL R0, P5, R2", 0x11111111u) == 0);
	CHECK(W.r[0][4] == 0x11111111u && P(4, 5) == 1);
	CHECK(run(t_, "MATCH.ALL R0, P5, R2", 0x3u) == 0);
	CHECK(W.r[0][1] == 0 && P(1, 5) == 0);
	CHECK(run(t_, "VOTE.EQ P6, P0", odd) == 0);
	CHECK(P(1, 6) == 1);
	CHECK(run(t_, "VOTE.EQ P6, P0", 0x3u) == 0);
	CHECK(P(1, 6) == 0);
	/* uniform ops run once: UIADD3 on UR */
	W.ur[1] = 40;
	CHECK(run(t_, "UIADD3 UR2, UR1, 0x2, URZ", ~0u) == 0);
	CHECK_EQ_U64(W.ur[2], 42);
	/* ELECT: the lowest active lane */
	CHECK(run(t_, "ELECT P4, URZ, PT", 0x00f0u) == 0);
	CHECK(P(4, 4) == 1 && P(5, 4) == 0);
	arena_free(&A);
}

/* session 3: forms ptxas emits that the handlers lacked (the kernels
 * tests/emu/gaps.ptx and barreg.ptx check them against the interpreter) */
TEST(emu_ops_gaps)
{
	int l;

	reset();
	for (l = 0; l < 32; l++) {
		W.r[1][l] = 0xf0f0 | 1u << l;
		W.r[2][l] = l & 3;
	}
	/* plain REDUX is the AND */
	CHECK(run(t_, "REDUX UR5, R1", ~0u) == 0);
	CHECK_EQ_U64(W.ur[5], 0xf0f0);
	CHECK(run(t_, "REDUX UR5, R1", 0x3u) == 0);
	CHECK_EQ_U64(W.ur[5], 0xf0f0);
	CHECK(run(t_, "REDUX.XOR UR6, R1", 0x3u) == 0);
	CHECK_EQ_U64(W.ur[6], 3);
	/* MATCH.ALL in nvdisasm's order: predicate, register, value */
	CHECK(run(t_, "MATCH.ALL P5, R0, R2", 0x11111111u) == 0);
	CHECK(W.r[0][4] == 0x11111111u && P(4, 5) == 1);
	CHECK(run(t_, "MATCH.ALL P5, R0, R2", 0x3u) == 0);
	CHECK(W.r[0][1] == 0 && P(1, 5) == 0);
	/* SGXT (szext): sign/zero extension of the low n bits */
	W.r[3][0] = 0x1234abcd, W.r[4][0] = 16;
	CHECK(run(t_, "SGXT R0, R3, R4", 1) == 0);
	CHECK_EQ_U64(W.r[0][0], 0xffffabcd);
	CHECK(run(t_, "SGXT.U32 R0, R3, R4", 1) == 0);
	CHECK_EQ_U64(W.r[0][0], 0xabcd);
	W.r[4][0] = 40;         /* clamp: all 32 bits; wrap: 40 mod 32 = 8 */
	CHECK(run(t_, "SGXT R0, R3, R4", 1) == 0);
	CHECK_EQ_U64(W.r[0][0], 0x1234abcd);
	CHECK(run(t_, "SGXT.W R0, R3, R4", 1) == 0);
	CHECK_EQ_U64(W.r[0][0], 0xffffffcd);
	W.r[4][0] = 0;
	CHECK(run(t_, "SGXT.W R0, R3, R4", 1) == 0);
	CHECK_EQ_U64(W.r[0][0], 0);
	/* FLO is signed unless .U32: the highest bit unlike the sign */
	W.r[3][0] = 0xfffff000;
	CHECK(run(t_, "FLO R0, R3", 1) == 0);
	CHECK_EQ_U64(W.r[0][0], 11);
	CHECK(run(t_, "FLO.U32 R0, R3", 1) == 0);
	CHECK_EQ_U64(W.r[0][0], 31);
	CHECK(run(t_, "FLO.SH R0, R3", 1) == 0);
	CHECK_EQ_U64(W.r[0][0], 20);
	W.r[3][0] = 0xffffffff;
	CHECK(run(t_, "FLO R0, R3", 1) == 0);
	CHECK_EQ_U64(W.r[0][0], 0xffffffff);
	/* MUFU.EX2.F16: one f16, high half zero; ex2(-1) = 0.5, ex2(3) = 8 */
	W.r[3][0] = 0xbc00, W.r[3][1] = 0x4200;
	CHECK(run(t_, "MUFU.EX2.F16 R0, R3", 3) == 0);
	CHECK(W.r[0][0] == 0x3800 && W.r[0][1] == 0x4800);
	/* BAR.SYNC R, R: id in bits 0..3, count in bits 16..27 of one register */
	E.nwarps = 2;
	W.r[5][0] = 64u << 16 | 3;
	CHECK(run(t_, "BAR.SYNC.DEFER_BLOCKING R5, R5", ~0u) == 0);
	CHECK(E.bar_expect[0][3] == 64 && E.bar_arrived[0][3] == 32);
	W.r[6][0] = 96;         /* an immediate id: the count register as is */
	CHECK(run(t_, "BAR.SYNC.DEFER_BLOCKING 0x2, R6", ~0u) == 0);
	CHECK(E.bar_expect[0][2] == 96);
	arena_free(&A);
}

/* ---- the fast handlers (emu_fast.c) against the general ones ---- */

static u64 seed = 0x9e3779b97f4a7c15ull;

static u32
rnd32(void)
{
	return (u32)(splitmix64(&seed) >> 17);
}

/* Run text through the general handler (fast = 0) or its fast form on a
 * copy of *w0 and memory m0; the results land in *w and m.  1 if the fast
 * form exists (fast = 1). */
static int
run2(TestState *t_, const char *text, const Warp *w0, const u8 *m0, u8 *m, Warp *w, u32 mask0, int fast)
{
	volatile u32 mask = mask0;
	static u8 cb[0x400], gm[4096], sh[1024];
	static Region reg;
	static EmuOpts quiet = {.quiet = 1};
	volatile int took = 0;
	EInsn I;
	char err[128];
	int k;

	memset(&E, 0, sizeof E);
	E.kname = E.path = "fast";
	E.ntid[0] = 8, E.ntid[1] = 4, E.ntid[2] = 2;
	E.nctaid[0] = E.nctaid[1] = E.nctaid[2] = 3;
	E.nthreads = 64, E.nwarps = 2, E.csize = 1;
	E.o = &quiet;
	for (k = 0; k < (int)sizeof cb; k++)
		cb[k] = (u8)(k * 37 + 11);
	E.cb[0] = cb, E.cbsize[0] = sizeof cb;
	memcpy(gm, m0, sizeof gm);
	memcpy(sh, m0 + sizeof gm, sizeof sh);
	reg.base = GW_GLOBAL, reg.size = sizeof gm, reg.data = gm;
	E.gl = &reg, E.ngl = 1;
	E.shared = sh, E.shared_size = sizeof sh;
	memset(&I, 0, sizeof I);
	if (insn_parse(text, &I.in, &A, err, sizeof err) < 0) {
		FAIL("%s: %s", text, err);
		return 0;
	}
	I.fn = emu_handler(I.in.op);
	I.decoded = 1;
	if (!I.fn || emu_check_mods(&I)) {
		FAIL("%s: no handler", text);
		return 0;
	}
	emu_prep(&E, &I);
	I.uni = I.in.op[0] == 'U' || !strcmp(I.in.op, "S2UR");
	if (fast) {
		E.code = &I, E.ncode = 1;
		emu_fast_prep(&E);
		took = I.fx != NULL;
	}
	*w = *w0;
	if (setjmp(E.fail)) {
		FAIL("%s (%s): stopped: %s", text, fast ? "fast" : "general", emu_why);
		return took;
	}
	if (I.uni)
		mask &= -mask;
	w->act = mask;
	I.fn(&E, w, &I, mask);
	memcpy(m, gm, sizeof gm);
	memcpy(m + sizeof gm, sh, sizeof sh);
	return took;
}

TEST(emu_ops_fast)
{
	static const char *texts[] = {
		"MOV R0, R1", "MOV R0, c[0x0][0x8]", "MOV R0, 0x7", "MOV R0, UR5",
		"IADD3 R0, P0, P1, R1, -R2, ~R3", "IADD3.X R0, R1, R2, RZ, P0, !P1",
		"IADD3 R4, R1, 0x10, c[0x0][0x4]", "IADD3 R0, P2, -R1, -R2, UR4", "IADD3.X R0, P0, ~R1, R2, R3, P0, P1",
		"IMAD R0, R1, R2, R3", "IMAD R0, P1, R1, R2, -R3", "IMAD.X R0, R1, R2, ~R3, P0",
		"IMAD.SHL.U32 R0, R1, 0x4, RZ", "IMAD.MOV.U32 R0, RZ, RZ, -R1", "IMAD.IADD R0, R1, 0x1, R2",
		"IMAD R0, R1, c[0x0][0x10], UR6", "IMAD.U32 R0, -R1, R2, R3",
		"IMAD.WIDE R2, R1, 0x4, R4", "IMAD.WIDE.U32 R2, R1, R5, c[0x0][0x8]", "IMAD.WIDE R4, R1, R2, -R4",
		"IMAD.WIDE.U32 R6, R1, 0x10, RZ", "IMAD.WIDE R2, -R1, R5, 0x7",
		"LOP3.LUT R0, R1, R2, R3, 0x96, !PT", "LOP3.LUT P0, R0, R1, 0x7, RZ, 0xc0, !PT",
		"LOP3.LUT R0, ~R1, c[0x0][0x4], RZ, 0xfc, !PT", "LOP3.LUT P3, RZ, R1, R2, RZ, 0x3c, !PT",
		"SHF.L.U32 R0, R1, R2, RZ", "SHF.R.S32.HI R0, RZ, 0x1f, R1", "SHF.L.U64.HI R0, R1, R2, R3",
		"SHF.R.U64 R0, R1, R2, R3", "SHF.R.W.U32 R0, R1, R2, R3", "SHF.R.S64 R0, R1, R2, R3",
		"SHF.L.W.U32.HI R0, R1, 0x5, R3",
		"LEA R0, P0, R1, R2, 0x2", "LEA.HI.X R0, R1, R2, R3, 0x2, P0", "LEA.HI.X.SX32 R0, R1, R2, 0x1, P1",
		"LEA R0, R1, -R2, 0x3", "LEA.HI R0, P2, R1, c[0x0][0x8], R3, 0x1f", "LEA R0, ~R1, R2, R3",
		"ISETP.GE.AND P0, PT, R1, R2, PT", "ISETP.GT.U32.OR P1, P2, R1, 0x7, !P3",
		"ISETP.NE.XOR P0, P1, R1, c[0x0][0x4], P2", "ISETP.LT.AND P4, P5, -R1, UR4, P0",
		"ISETP.LE.U32.AND P0, PT, R1, R2, UP1", "ISETP.EQ.OR P6, P0, R1, RZ, !PT",
		"VIADD R0, R1, 0xfffffff0", "VIADD R0, R1, -R2", "VIADD R0, R1, c[0x0][0x8]",
		"IMNMX R0, R1, R2, !PT", "IMNMX.U32 R0, R1, -R2, P0", "VIMNMX R0, R1, 0x7, PT",
		"VIMNMX.U32 R0, R1, R2, !P3",
		"SEL R0, R1, R2, P0", "SEL R0, R1, 0x5, !P1", "FSEL R0, -R1, |R2|, P0", "FSEL R0, R1, 1.5, P2",
		"FADD R0, R1, -R2", "FADD.FTZ R0, |R1|, R2", "FMUL R0, R1, 0.5", "FMUL.FTZ R0, -R1, R2",
		"FFMA R0, R1, R2, -R3", "FFMA.FTZ R0, R1, c[0x0][0xc], R3", "FFMA R0, -|R1|, UR4, R3",
		"FSETP.GEU.AND P0, PT, R4, R5, PT", "FSETP.NEU.FTZ.AND P1, P2, |R6|, 1.5, !P3",
		"FSETP.GT.OR P0, P1, -R7, c[0x0][0x8], P2", "FSETP.NAN.XOR P4, PT, R4, R6, P0",
		"FSETP.LT.FTZ.AND P5, P6, R5, UR4, UP1",
		"FADD R0, R4, R5", "FFMA R0, R4, R5, R6", "FMUL.FTZ R0, R6, R7", "FFMA.FTZ R9, -R7, R4, |R5|",
		"DADD R0, R4, -R6", "DMUL R4, |R6|, 0.5", "DFMA R0, R4, R6, R10", "DFMA R12, -R4, c[0x0][0x10], 2",
		"DADD R10, R4, c[0x0][0x18]", "DMUL R0, R6, R6",
		"S2R R0, SR_TID.X", "S2R R0, SR_TID.Y", "S2R R0, SR_TID.Z", "S2R R0, SR_LANEID",
		"S2R R0, SR_CTAID.Y", "S2UR UR4, SR_CTAID.Z",
		"LDC R0, c[0x0][0x4]", "LDC.64 R0, c[0x0][0x8]", "LDC R7, c[0x0][RZ]", "ULDC UR4, c[0x0][0x4]",
		"ULDC.64 UR4, c[0x0][0x8]", "HFMA2.MMA R0, -RZ, RZ, 0, 2.384185791015625e-07",
		"LDG.E R0, [R2.64]", "LDG.E.64 R0, [R2.64+0x8]", "LDG.E.128 R4, [R2.64]",
		"LDG.E.U8 R0, [R2.64+0x3]", "LDG.E.S16 R0, [R2.64+0x2]", "LDG.E.S8 R9, [R2.64+0x5]",
		"LDG.E R0, desc[UR4][R2.64+0x4]", "STG.E [R2.64], R1", "STG.E.64 [R2.64+0x8], R4",
		"STG.E.U8 [R2.64+0x1], R1", "STG.E.128 [R2.64], R4", "STG.E.U16 [R2.64+0x6], RZ",
		"LDS R0, [R1]", "LDS.64 R4, [R1+0x8]", "STS [R1+0x4], R2", "LDS R0, [R8.X4]",
		"STS.128 [R1], R4", "LDS.U8 R0, [R1+0x7]", "LDS R0, [R8.X4+UR5]",
	};
	static u8 m0[4096 + 1024], ms[sizeof m0], mf[sizeof m0];
	static Warp w0, ws, wf;
	size_t i;
	int round, l, k, took = 0;

	reset();
	for (i = 0; i < sizeof m0; i++)
		m0[i] = (u8)rnd32();
	for (i = 0; i < NELEM(texts); i++)
		for (round = 0; round < 8; round++) {
			u32 mask = round == 0 ? ~0u : round == 1 ? 1u : rnd32() | 1;
			memset(&w0, 0, sizeof w0);
			for (k = 0; k < 16; k++)
				for (l = 0; l < 32; l++)
					w0.r[k][l] = round & 1 ? rnd32() : rnd32() % 64 - 8;
			for (l = 0; l < 32; l++) {
				w0.p[l] = (u8)(0x80 | (rnd32() & 0x7f));
				/* addresses: R2:R3 global (16-byte aligned), R1 and
				   R8 shared (R8 scaled by 4) */
				w0.r[2][l] = (u32)(GW_GLOBAL + 32 * l + (round & 2 ? 16 : 0)), w0.r[3][l] = 1;
				w0.r[1][l] = 16 * (u32)l + (round & 4 ? 256 : 0);
				w0.r[8][l] = 4 * (u32)l + 1;
			}
			if (round == 3 || round == 5)   /* NaN, infinity, subnormal, zero */
				for (l = 0; l < 32; l++) {
					static const u32 sp[] = {0x7fc00001, 0xff800000, 0x00000003, 0x80000000,
								 0x7ff80000, 0x7ff00000, 0x000fffff, 0x3f800000};
					for (k = 4; k < 8; k++)
						if ((l + k) % 3 == 0)
							w0.r[k][l] = sp[(l + k + round) % 8];
				}
			for (k = 0; k < 63; k++)
				w0.ur[k] = rnd32() % 64 * 4;   /* also a shared offset */
			w0.up = (u8)(0x80 | (rnd32() & 0x7f));
			w0.tid0 = 32, w0.id = 1, w0.live = ~0u;
			w0.ctaid[0] = 1, w0.ctaid[1] = 2, w0.ctaid[2] = 0;
			run2(t_, texts[i], &w0, m0, ms, &ws, mask, 0);
			k = run2(t_, texts[i], &w0, m0, mf, &wf, mask, 1);
			if (!k) {
				FAIL("%s: no fast form", texts[i]);
				break;
			}
			took++;
			if (memcmp(&ws, &wf, sizeof ws) || memcmp(ms, mf, sizeof ms)) {
				FAIL("%s (mask %08x, round %d): the fast form differs", texts[i], mask, round);
				break;
			}
		}
	CHECK(took == (int)NELEM(texts) * 8);
	arena_free(&A);
}
