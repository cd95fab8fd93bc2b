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
	/* IADD3's two carries: P0 of a + b, P1 of the rest; a carry of 2 is
	 * P0 = P1 = 1, so IADD3.X adds 2 (ptxas's three-term 64-bit add,
	 * xxhash64 in tests/compile/real5) */
	W.r[1][0] = 0xffffffff, W.r[2][0] = 0xffffffff, W.r[3][0] = 2;
	CHECK(run(t_, "IADD3 R0, P0, P1, R1, R2, R3", 1) == 0);
	CHECK(W.r[0][0] == 0 && P(0, 0) == 1 && P(0, 1) == 1);
	W.r[1][0] = 0xffffffff, W.r[2][0] = 0, W.r[3][0] = 1;
	CHECK(run(t_, "IADD3 R0, P0, P1, R1, R2, R3", 1) == 0);
	CHECK(W.r[0][0] == 0 && P(0, 0) == 0 && P(0, 1) == 1);
	W.r[4][0] = 7, W.r[5][0] = 3, W.r[6][0] = 0;
	CHECK(run(t_, "IADD3.X R0, R4, R5, R6, P0, P1", 1) == 0);
	CHECK(W.r[0][0] == 11);
	/* 64-bit subtraction: 0x1_00000000 - 1 */
	W.r[4][0] = 0, W.r[5][0] = 1, W.r[6][0] = 1, W.r[7][0] = 0;
	CHECK(run(t_, "IADD3 R0, P0, R4, -R6, RZ", 1) == 0);
	CHECK(run(t_, "IADD3.X R1, R5, ~R7, RZ, P0, !PT", 1) == 0);
	CHECK(W.r[0][0] == 0xffffffff && W.r[1][0] == 0);
	/* UIADD3.64 (ptxas's sm_90 wgmma descriptor arithmetic): a 64-bit sum
	 * of pairs, the carry into the high word */
	W.ur[8] = 0xfffffff0, W.ur[9] = 1;
	CHECK(run(t_, "UIADD3.64 UR4, UR8, 0x80, URZ", 1) == 0);
	CHECK(W.ur[4] == 0x70 && W.ur[5] == 2);
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
	/* .H1 reads the high half; .BF16 flushes a subnormal result (ex2(-127)) */
	W.r[3][0] = 0x4200bc00, W.r[3][1] = 0xc2fe0000;
	CHECK(run(t_, "MUFU.EX2.F16 R0, R3.H1", 3) == 0);
	CHECK(W.r[0][0] == 0x4800);
	CHECK(run(t_, "MUFU.EX2.BF16 R0, R3.H1", 3) == 0);
	CHECK(W.r[0][1] == 0);
	CHECK(run(t_, "MUFU.TANH.F16 R0, R3.H1", 1) == 0);
	CHECK(W.r[0][0] == 0x3bf6);
	/* fp8: e4m3 0x38 = 1.0; 1000 saturates to 448 (0x7e); f16x2 {-2, 1} */
	W.r[3][0] = 0x3f800000, W.r[4][0] = 0x447a0000, W.r[5][0] = 0xb838, W.r[6][0] = 0xc0003c00;
	CHECK(run(t_, "F2FP.SATFINITE.E4M3.F32.PACK_AB_MERGE_C R0, R3, R4, RZ", 1) == 0);
	CHECK_EQ_U64(W.r[0][0], 0x387e);
	CHECK(run(t_, "F2FP.F16.E4M3.UNPACK_B R0, R5", 1) == 0);
	CHECK_EQ_U64(W.r[0][0], 0xbc003c00);
	CHECK(run(t_, "F2FP.RELU.F16.E4M3.UNPACK_B R0, R5", 1) == 0);
	CHECK_EQ_U64(W.r[0][0], 0x3c00);
	CHECK(run(t_, "F2FP.SATFINITE.E4M3.F16.UNPACK_B_MERGE_C R0, R6, RZ", 1) == 0);
	CHECK_EQ_U64(W.r[0][0], 0xc038);
	/* MERGE_C: c's low half becomes the upper half (ptxas's fp8x4 chains) */
	W.r[7][0] = 0xdead387e;
	CHECK(run(t_, "F2FP.SATFINITE.E4M3.F32.PACK_AB_MERGE_C R0, R4, R3, R7", 1) == 0);
	CHECK_EQ_U64(W.r[0][0], 0x387e7e38);
	CHECK(run(t_, "F2FP.SATFINITE.E4M3.F16.UNPACK_B_MERGE_C R0, R6, R7", 1) == 0);
	CHECK_EQ_U64(W.r[0][0], 0x387ec038);
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
