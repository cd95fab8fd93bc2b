/* test_fastpath.c -- the emulator's fast path (src/emu/emu_fast*.c)
 * against its general handlers, bit for bit:
 *   fast_forms   single instructions (the forms added in session 3: the
 *                uniform datapath, IMAD.HI, ISETP.EX, PLOP3, IABS,
 *                VIADDMNMX, R2UR, ...) on random registers, predicates,
 *                masks and memory, through the general handler and the
 *                fast one;
 *   fast_suite   every suite kernel's ptxas cubin (sm_90 and sm_80) run
 *                with the fast handlers and without (emu_fast_off): the
 *                same buffers, bit for bit, and the same instruction
 *                counts;
 *   fast_v3      the same with the x86-64-v3 twins of the fast handlers
 *                against the handlers compiled for any x86-64
 *                (emu_fast_plain), where the host has those units.
 * (emu_ops_fast covers the session-2 forms the same way.) */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "cubin/cubin.h"
#include "emu/emu_fast.h"
#include "../kernels/refs.h"
#include "test_emu_pair.h"

static Emu E;
static Arena A;
static int may_stop, stopped;   /* run1: a stop is expected / happened */
static u32 shape[3] = {8, 4, 2};  /* run1's block */
static u64 seed = 0x2545f4914f6cdd1dull;

static u32
rnd(void)
{
	return (u32)(splitmix64(&seed) >> 13);
}

/* Run text through its general handler (fast = 0) or its fast form (1)
 * on a copy of *w0 and of the memory m0; the results land in *w and m.
 * Returns whether the fast form was taken (fast = 1). */
static int
run1(TestState *t_, const char *text, const Warp *w0, const u8 *m0, u8 *m, Warp *w, u32 mask0, int fast)
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
	E.kname = E.path = "fastpath";
	E.ntid[0] = shape[0], E.ntid[1] = shape[1], E.ntid[2] = shape[2];
	E.nctaid[0] = E.nctaid[1] = E.nctaid[2] = 3;
	E.nthreads = 64, E.nwarps = 2, E.csize = 1;
	E.o = &quiet;
	for (k = 0; k < (int)sizeof cb; k++)
		cb[k] = (u8)(k * 29 + 3);
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
	if (fast) {
		E.code = &I, E.ncode = 1;
		emu_fast_prep(&E);
		took = I.fx != NULL && I.fn == I.fx;
	}
	*w = *w0;
	stopped = 0;
	if (setjmp(E.fail)) {
		stopped = 1;
		if (!may_stop)
			FAIL("%s (%s): stopped: %s", text, fast ? "fast" : "general", emu_why);
		memcpy(m, gm, sizeof gm);
		memcpy(m + sizeof gm, sh, sizeof sh);
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

/* the session-2 list of fast forms (moved from test_emu_ops.c): each
 * present and equal to its general handler on random state */
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

	for (i = 0; i < sizeof m0; i++)
		m0[i] = (u8)rnd();
	for (i = 0; i < NELEM(texts); i++)
		for (round = 0; round < 8; round++) {
			u32 mask = round == 0 ? ~0u : round == 1 ? 1u : rnd() | 1;
			memset(&w0, 0, sizeof w0);
			for (k = 0; k < 16; k++)
				for (l = 0; l < 32; l++)
					w0.r[k][l] = round & 1 ? rnd() : rnd() % 64 - 8;
			for (l = 0; l < 32; l++) {
				w0.p[l] = (u8)(0x80 | (rnd() & 0x7f));
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
				w0.ur[k] = rnd() % 64 * 4;   /* also a shared offset */
			w0.up = (u8)(0x80 | (rnd() & 0x7f));
			w0.tid0 = 32, w0.id = 1, w0.live = ~0u;
			w0.ctaid[0] = 1, w0.ctaid[1] = 2, w0.ctaid[2] = 0;
			run1(t_, texts[i], &w0, m0, ms, &ws, mask, 0);
			k = run1(t_, texts[i], &w0, m0, mf, &wf, mask, 1);
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

TEST(fast_forms)
{
	static const char *texts[] = {
		/* uniform datapath */
		"UMOV UR4, URZ", "UMOV UR4, 0x7", "UMOV UR5, UR9", "UMOV UR6, c[0x0][0x18]",
		"UIADD3 UR4, UR4, 0x10, URZ", "UIADD3 UR8, UP0, UR8, 0x40, URZ",
		"UIADD3.X UR9, URZ, UR9, URZ, UP0, !UPT", "UIADD3 UR4, UP1, UP2, -UR5, ~UR6, UR7",
		"UIADD3.X UR4, UP3, UR5, UR6, UR7, UP1, !UP2", "UIADD3 UR4, UR5, -c[0x0][0x8], URZ",
		"UIMAD UR4, UR5, UR6, UR7", "UIMAD UR4, UR5, 0x3, URZ", "UIMAD.WIDE.U32 UR4, UR5, UR6, URZ",
		"ULOP3.LUT UR4, UR5, 0x3, URZ, 0xc0, !UPT", "ULOP3.LUT UP0, URZ, UR5, UR6, URZ, 0x3c, !UPT",
		"ULOP3.LUT UR4, ~UR5, UR6, UR7, 0x96, !UPT",
		"USHF.L.U32 UR4, UR5, 0x2, URZ", "USHF.R.U32.HI UR4, URZ, 0x1, UR5", "USHF.R.S32.HI UR4, URZ, 0x1f, UR5",
		"USHF.L.U64.HI UR4, UR5, UR6, UR7", "USHF.R.S64 UR4, UR5, UR6, UR7",
		"ULEA UR4, UR5, UR6, 0x2", "ULEA UR4, UP0, UR5, UR6, 0x3", "ULEA.HI.X UR4, UR5, UR6, UR7, 0x2, UP0",
		"ULEA.HI.X.SX32 UR4, UR5, UR6, 0x1, UP1",
		"UISETP.GE.AND UP0, UPT, UR4, UR5, UPT", "UISETP.NE.U32.OR UP1, UP2, UR4, 0x7, !UP3",
		"UISETP.GT.U32.AND.EX UP0, UPT, UR5, UR7, UPT, UP1", "UISETP.LT.XOR UP0, UP1, UR4, c[0x0][0x8], UP2",
		"USEL UR4, UR5, UR6, UP0", "USEL UR4, UR5, 0x5, !UP1",
		"UPLOP3.LUT UP0, UPT, UPT, UPT, UPT, 0x80, 0x0", "UPLOP3.LUT UP1, UP2, UP0, !UP3, UP4, 0x96, 0x1e",
		"UIMNMX UR4, UR5, UR6, UPT", "UIMNMX.U32 UR4, UR5, UR6, !UPT",
		"R2UR UR4, R5", "R2UR UR6, RZ", "S2UR UR4, SR_CTAID.X", "ULDC.64 UR4, c[0x0][0x118]",
		/* vector forms new this session */
		"IMAD.HI.U32 R0, R1, R2, RZ", "IMAD.HI R0, R1, R2, R4", "IMAD.HI.U32 R0, P0, R1, 0x55555556, R4",
		"IMAD.HI.U32.X R0, R1, R2, R4, P1", "IMAD.HI R0, -R1, c[0x0][0x10], R6",
		"IMAD.WIDE.U32.X R4, P0, R1, R2, R6, P1", "IMAD.WIDE.U32 R4, P2, R1, R2, R6",
		"IMAD.WIDE R4, R1, 0x4, c[0x0][0x20]", "IMAD.WIDE.U32 R4, R1, R2, UR6",
		"IMAD.WIDE R4, R1, 0x4, R4", "IMAD.WIDE.U32 R4, R1, 0x80000000, R6", "IMAD.WIDE R4, R1, 0x1, R6",
		"IMAD.WIDE.U32 R4, -R1, 0x1, R6", "IMAD.WIDE R4, ~R1, 0x40000000, R4", "IMAD.WIDE R8, R1, 0x8, -R6",
		"IMAD.WIDE R8, R1, 0x80000000, R6", "IMAD.WIDE.U32 R4, R1, 0x10, 0x7fffffff0",
		"IMAD R0, R1, R2, R3", "IMAD R0, R1, 0x7, -R3", "LEA R0, R1, R2, 0x2", "LEA R0, R1, -R2, 0x1f",
		"LEA R0, -R1, ~R2, 0x3", "LEA R0, R1, R2, R3", "LEA R0, R1, UR4, 0x0", "LEA R0, P0, R1, R2, 0x2",
		"LEA.HI R0, R1, R2, RZ, 0x2", "LEA.HI.X R0, R1, R2, R3, 0x2, P1",
		"IADD3 R0, R1, -R2, ~R3", "IADD3 R0, -R1, -R2, -R3", "IADD3 R0, ~R1, 0x10, UR4",
		"IADD3 R0, P0, R1, R2, R3", "CS2R R4, SRZ", "CS2R.32 R5, SRZ", "CS2R R254, SRZ",
		"PRMT R0, R1, 0x5410, R2", "PRMT R0, R1, R3, R2", "PRMT R0, RZ, 0x7773, R1", "PRMT R0, R1, 0x3210, c[0x0][0x8]",
		"PRMT.F4E R0, R1, R3, R2", "PRMT.B4E R0, R1, 0x1, R2", "PRMT.RC8 R0, R1, R3, R2", "PRMT.ECL R0, R1, R3, R2",
		"PRMT.ECR R0, R1, R3, R2", "PRMT.RC16 R0, R1, R3, R2", "IMAD.WIDE.U32 R4, R1, R12, R6",
		"IMAD.WIDE R4, R1, R13, R6", "IMAD.WIDE R4, R1, R14, R6", "IMAD.WIDE.U32 R8, R1, R15, R4",
		"S2R R0, SR_TID.X", "S2R R0, SR_TID.Y", "S2R R0, SR_TID.Z", "S2R R0, SR_CgaCtaId",
		"S2R R0, SR_EQMASK", "S2R R0, SR_LTMASK", "S2R R0, SR_LEMASK", "S2R R0, SR_GTMASK",
		"S2R R0, SR_GEMASK", "S2R R0, SR_LANEID", "S2R R0, SR_CTAID.Z",
		"SHFL.DOWN PT, R3, R6, 0x10, 0x1f", "SHFL.DOWN P0, R3, R3, R1, 0x1f", "SHFL.UP P1, R2, R4, 0x1, RZ",
		"SHFL.UP P1, R2, R4, R1, R7", "SHFL.BFLY PT, R0, R5, 0x8, 0x1f", "SHFL.BFLY P2, R5, R5, R1, 0x81f",
		"SHFL.IDX PT, R0, R4, R1, 0x1f", "SHFL.IDX P3, R0, R4, 0x3, 0x181f", "SHFL.IDX PT, R1, R1, R2, R3",
		"SHFL.DOWN PT, R0, 0x7, 0x1, 0x1f", "SHFL.UP P0, R0, R4, 0x2, 0x101f",
		"ISETP.GE.AND.EX P0, PT, R1, R2, PT, P1", "ISETP.GT.U32.OR.EX P0, P2, R1, RZ, P3, !P1",
		"ISETP.NE.XOR.EX P4, P5, R1, c[0x0][0x4], P0, P2", "ISETP.EQ.AND.EX P0, P1, R1, R1, PT, P2",
		"ISETP.LT.U32.AND.EX P0, PT, R1, R2, PT, P6", "ISETP.LE.AND.EX P3, PT, R1, UR4, !P0, P1",
		"PLOP3.LUT P0, PT, PT, PT, PT, 0x80, 0x0", "PLOP3.LUT P0, P1, P2, !P3, P4, 0x96, 0x1e",
		"PLOP3.LUT P6, PT, P0, UP1, !PT, 0xa8, 0x0",
		"IABS R0, R1", "IABS R0, -R2",
		"VIADDMNMX R0, R1, R2, R3, !PT", "VIADDMNMX.U32 R0, R1, 0x10, R3, PT", "VIADDMNMX R0, R1, -R2, RZ, P0",
		"IMNMX R0, R1, R2, P1", "S2UR UR5, SR_CgaCtaId",
		/* f32: directed rounding, .SAT, MUFU, FMNMX */
		"FFMA.RM R0, R4, R5, R6", "FFMA.RP R0, R4, -R5, R6", "FFMA.RZ R0, R4, R5, -R6",
		"FFMA.RM R10, R10, R11, 12582913", "FFMA.SAT R10, R9, R10, 0.5", "FFMA.SAT.FTZ R0, R4, R5, R6",
		"FADD.RZ R0, R4, R5", "FMUL.RM.FTZ R0, R4, -R5", "FADD.SAT R0, |R4|, R5", "FMUL.RP.SAT R0, R4, R6",
		"FFMA.RZ.FTZ.SAT R0, R4, R5, R7",
		"MUFU.RCP R0, R4", "MUFU.RSQ R0, R5", "MUFU.SQRT R0, |R6|", "MUFU.EX2 R0, -R4", "MUFU.LG2 R0, R7",
		"MUFU.TANH R0, R5", "MUFU.RSQ R0, -QNAN", "MUFU.EX2 R0, c[0x0][0x10]",
		"FMNMX R0, R4, R5, !PT", "FMNMX R0, -R4, R6, P0", "FMNMX.FTZ R0, R4, |R7|, P1", "FMNMX.NAN R0, R4, R5, PT",
	};
	static u8 m0[4096 + 1024], ms[sizeof m0], mf[sizeof m0];
	static Warp w0, ws, wf;
	size_t i;
	int round, l, k, took = 0, wanted = 0;

	for (i = 0; i < sizeof m0; i++)
		m0[i] = (u8)rnd();
	for (i = 0; i < NELEM(texts); i++) {
		/* forms the fast path leaves to the general handler on purpose */
		int general = strstr(texts[i], "UIMAD.WIDE") || strstr(texts[i], "R4, R1, R2, UR6");
		for (round = 0; round < 12; round++) {
			u32 mask = round == 0 ? ~0u : round == 1 ? 1u : round == 2 ? 0 : rnd() | 1;
			memset(&w0, 0, sizeof w0);
			for (k = 0; k < 16; k++)
				for (l = 0; l < 32; l++)
					w0.r[k][l] = round & 1 ? rnd() : round & 2 ? rnd() % 8 * 0x3fffffffu : rnd() % 64 - 8;
			for (l = 0; l < 32; l++)
				w0.p[l] = (u8)(0x80 | (rnd() & 0x7f));
			if (round == 4)   /* equal high words: the .EX compares look at plo */
				for (l = 0; l < 32; l++)
					w0.r[2][l] = w0.r[1][l];
			if (round == 6)   /* a*b + c + cin wraps to 0: the carry-in's carry out */
				for (l = 0; l < 32; l++) {
					if (l & 1)
						w0.r[1][l] = 0;
					for (k = 4; k < 8; k++)
						w0.r[k][l] = ~0u;
					w0.p[l] |= 2;
				}
			for (k = 0; k < 63; k++)
				w0.ur[k] = round & 1 ? rnd() : rnd() % 64 - 8;
			if (round == 5)
				w0.ur[7] = w0.ur[5];
			if (round == 3 || round == 7 || round == 9)   /* f32 specials in R4..R7 */
				for (l = 0; l < 32; l++) {
					static const u32 sp[] = {0x7fc00001, 0xff800000, 0x00000003, 0x80000000, 0x7f800000,
								 0x807fffff, 0x3f800000, 0x4b400001, 0xbf000000, 0x7f7fffff};
					for (k = 4; k < 8; k++)
						if ((l + k + round) % 3 == 0)
							w0.r[k][l] = sp[(l * 7 + k + round) % NELEM(sp)];
				}
			w0.rank = (u32)round % 3;
			for (l = 0; l < 32; l++) {   /* uniform powers of two, or nearly */
				w0.r[12][l] = 4;
				w0.r[13][l] = round < 6 ? 1u << 30 : 1u << 31;
				w0.r[14][l] = round & 1 && l == 31 ? 8 : 16;
				w0.r[15][l] = 1u << round % 32;
			}
			if (round == 8)   /* ordinary floats of mixed magnitude */
				for (l = 0; l < 32; l++)
					for (k = 4; k < 12; k++)
						w0.r[k][l] = 0x30000000u + rnd() % 0x1f000000u + (rnd() & 0x80000000u);
			w0.up = (u8)(0x80 | (rnd() & 0x7f));
			w0.tid0 = 32, w0.id = 1, w0.live = ~0u;
			w0.ctaid[0] = 2, w0.ctaid[1] = 1, w0.ctaid[2] = 0;
			/* blocks whose rows are shorter than, as long as, and
			   longer than a warp (S2R) */
			shape[0] = round % 3 == 0 ? 8 : round % 3 == 1 ? 64 : 32;
			shape[1] = round % 3 == 0 ? 4 : round % 3 == 1 ? 2 : 1;
			shape[2] = round % 3 == 1 ? 1 : 2;
			run1(t_, texts[i], &w0, m0, ms, &ws, mask, 0);
			k = run1(t_, texts[i], &w0, m0, mf, &wf, mask, 1);
			if (k == general) {
				FAIL("%s: %s", texts[i], general ? "has a fast form" : "no fast form");
				break;
			}
			wanted++;
			took += k;
			if (memcmp(&ws, &wf, sizeof ws) || memcmp(ms, mf, sizeof ms)) {
				FAIL("%s (mask %08x, round %d): the fast form differs", texts[i], mask, round);
				break;
			}
		}
	}
	shape[0] = 8, shape[1] = 4, shape[2] = 2;
	CHECK(wanted == (int)NELEM(texts) * 12);
	CHECK(took > 0);
	arena_free(&A);
}

/* Loads and stores whose lanes reach the ends of the global buffer and
 * of shared memory, misaligned or not, under random masks: the fast path
 * and the general one agree on the data and on whether the run stops
 * (out of bounds, misaligned) -- and with the same message. */
TEST(fast_mem_bounds)
{
	static const char *texts[] = {
		"LDG.E R0, [R2.64]", "LDG.E.64 R4, [R2.64+0x8]", "LDG.E.128 R4, [R2.64+-0x10]", "LDG.E.U8 R0, [R2.64+0x1]",
		"LDG.E.S16 R0, [R2.64+0x2]", "STG.E [R2.64], R1", "STG.E.64 [R2.64+0x4], R4", "STG.E.128 [R2.64], R4",
		"STG.E.U16 [R2.64+-0x2], R5", "LDG.E R0, desc[UR4][R2.64+0x4]",
		"LDS R0, [R1]", "LDS.64 R4, [R1+0x8]", "LDS.U8 R0, [R1+0x3]", "STS [R1+-0x4], R2", "STS.128 [R1], R4",
		"LDS R0, [R1+UR5]", "STS.64 [R1+UR6+0x8], R6", "LDS.S16 R0, [R1+0x2]",
		"LDS R0, [R9.X4]", "LDS R2, [R9.X4+0x94]", "STS [R9.X4+-0x4], R2", "LDS.64 R4, [R10.X8]",
		"STS.64 [R10.X8+0x8], R4", "LDS.128 R4, [R11.X16]", "LDS.U8 R0, [R9.X4+0x3]", "LDS R0, [R9.X4+UR5]",
		"LDS R0, [R12.X4]",
	};
	static u8 m0[4096 + 1024], ms[sizeof m0], mf[sizeof m0];
	static Warp w0, ws, wf;
	char why[256];
	size_t i;
	int round, l, k, stops = 0, runs = 0;

	for (i = 0; i < sizeof m0; i++)
		m0[i] = (u8)rnd();
	may_stop = 1;
	for (i = 0; i < NELEM(texts); i++)
		for (round = 0; round < 40; round++) {
			u32 mask = round < 8 || round % 8 == 5 ? ~0u : rnd() | 1;
			int s1, s2;
			/* consecutive words whose run of 32 starts before the buffer
			   or ends after it, those lanes off */
			if (round == 30)
				mask = (rnd() & 0xffffff00u) | 0x100u;
			if (round == 38)
				mask = (rnd() & 0x00ffffffu) | 1u;
			memset(&w0, 0, sizeof w0);
			for (k = 0; k < 16; k++)
				for (l = 0; l < 32; l++)
					w0.r[k][l] = rnd();
			for (l = 0; l < 32; l++) {
				/* near an end of the buffer: below the start, at it,
				   around the end; aligned to 16 most of the time */
				u32 near = round % 4 == 0 ? 0 : round % 4 == 1 ? 4096 - 64 : round % 4 == 2 ? 4096 - 16 : 0;
				i32 j = (i32)(rnd() % 64) - (round % 4 == 3 ? 48 : 0);
				u32 o = near + (u32)j * 4;
				if (round % 5 != 4)
					o &= ~15u;
				if (round % 8 == 7)   /* the last bytes, any alignment */
					o = 4096 - 8 + rnd() % 8;
				if (round % 8 == 5) {   /* per half-warp: consecutive words or
							   one word (near the end at times) */
					static u32 h[2];
					if (l == 0 || l == 16)
						h[l / 16] = round > 28 && l ? 4096 - 60 : rnd() % 960 * 4;
					o = h[l / 16] + (round & 16 ? 0 : 4 * (u32)(l & 15));
				}
				if (round % 8 == 6)   /* consecutive words, at the start or
							 the end (one past it at times) */
					o = (round < 20 ? 0 : 4096 - 128 + (round % 16 == 14 ? 4 : 0)) + 4 * (u32)l;
				if (round == 30)
					o = 4 * (u32)l - 32;
				if (round == 38)
					o = 4096 - 96 + 4 * (u32)l;
				w0.r[2][l] = (u32)GW_GLOBAL + o;
				w0.r[3][l] = round == 7 && l == 5 ? 2 : (u32)(GW_GLOBAL >> 32);
				w0.r[1][l] = (round % 4 == 1 ? 1024 - 64 : round % 8 == 7 ? 1024 - 64 : 0) + (o & 63);
				if (round % 8 == 6 || round % 8 == 5)
					w0.r[1][l] = o % 2048 / 2;
				/* scaled indexes of the same bytes (.X4, .X8, .X16),
				   and a huge one (its product wraps 32 bits) */
				w0.r[9][l] = w0.r[1][l] / 4;
				w0.r[10][l] = w0.r[1][l] / 8;
				w0.r[11][l] = w0.r[1][l] / 16;
				w0.r[12][l] = round == 9 ? 0x40000000u + w0.r[1][l] / 4 : w0.r[1][l] / 4;
			}
			for (k = 0; k < 63; k++)
				w0.ur[k] = round % 3 == 0 ? 0 : rnd() % 4 * 16;
			w0.ur[4] = w0.ur[5] = 0;
			w0.tid0 = 0, w0.id = 0, w0.live = ~0u;
			run1(t_, texts[i], &w0, m0, ms, &ws, mask, 0);
			s1 = stopped;
			snprintf(why, sizeof why, "%s", emu_why);
			run1(t_, texts[i], &w0, m0, mf, &wf, mask, 1);
			s2 = stopped;
			runs++;
			stops += s1;
			if (s1 != s2 || (s1 && strcmp(why, emu_why))) {
				FAIL("%s (mask %08x, round %d): general %s, fast %s", texts[i], mask, round,
				     s1 ? why : "ran", s2 ? emu_why : "ran");
				break;
			}
			if (!s1 && (memcmp(&ws, &wf, sizeof ws) || memcmp(ms, mf, sizeof ms))) {
				FAIL("%s (mask %08x, round %d): the fast form differs", texts[i], mask, round);
				break;
			}
		}
	may_stop = 0;
	/* both outcomes occur */
	CHECK(stops > runs / 10 && stops < runs - runs / 10);
	arena_free(&A);
}

/* the reference runs: the general handlers only (emu_fast_off), or the
 * fast handlers compiled for any x86-64 (emu_fast_plain) */
static void
fast_setup(int without, EmuOpts *o)
{
	(void)o;
	emu_fast_off = without;
}

static void
plain_setup(int without, EmuOpts *o)
{
	(void)o;
	emu_fast_plain = without;
}

static void
suite(TestState *t_, const char *arch, const char *what, EmuPairSetup setup)
{
	emu_pair_suite(t_, arch, what, setup, 0);
	emu_fast_off = emu_fast_plain = 0;
}

TEST(fast_suite_sm90) { suite(t_, "sm_90", "fast path", fast_setup); }
TEST(fast_suite_sm80) { suite(t_, "sm_80", "fast path", fast_setup); }
TEST(fast_v3_sm90) { suite(t_, "sm_90", "x86-64-v3 fast path", plain_setup); }
TEST(fast_v3_sm80) { suite(t_, "sm_80", "x86-64-v3 fast path", plain_setup); }
