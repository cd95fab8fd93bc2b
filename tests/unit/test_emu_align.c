/* test_emu_align.c -- the emulator refuses a register pair or quad that
 * starts at a misaligned register (the hardware raises an illegal
 * instruction), and accepts every form ptxas writes. */
#include <string.h>

#include "test.h"
#include "emu/emu_int.h"

TEST(emu_align_check)
{
	static const struct { const char *text; int bad, need; } t[] = {
		{"IMAD.HI.U32 R20, R7, R8, R10", -1, 0},
		{"IMAD.HI.U32 R20, R7, R8, R9", 3, 2},
		{"IMAD.HI.U32 R12, P0, R15, R10, R12", -1, 0},
		{"IMAD.HI.U32 R12, P0, R15, R10, R13", 4, 2},
		{"IMAD.HI R0, R3, -0x6db6db6d, R3", 3, 2},
		{"IMAD.HI.U32 R5, R5, R10, RZ", -1, 0},
		{"IMAD R20, R7, R8, R9", -1, 0},
		{"IMAD.WIDE R20, R7, R8, R10", -1, 0},
		{"IMAD.WIDE R21, R7, R8, R10", 0, 2},
		{"IMAD.WIDE.U32 R2, R5, 0x4, R3", 3, 2},
		{"IMAD.WIDE.U32.X R8, R4, R4, R5, P0", 3, 2},
		{"UIMAD.WIDE.U32 UR5, UR4, UR6, URZ", 0, 2},
		{"DADD R20, R14, R16", -1, 0},
		{"DFMA R20, R14, R17, R18", 2, 2},
		{"DSETP.GT.AND P1, PT, R16, R15, PT", 3, 2},
		{"LDG.E.64 R7, desc[UR4][R2.64]", 0, 2},
		{"LDG.E.64 R6, desc[UR4][R3.64]", 1, 2},
		{"LDG.E.128 R6, desc[UR4][R2.64]", 0, 4},
		{"LDS.128 R8, [R3+0x10]", -1, 0},
		{"STG.E.64 desc[UR4][R2.64+0x8], R23", 1, 2},
		{"STG.E desc[UR4][R2.64+0x8], R23", -1, 0},
		{"ULDC.64 UR5, c[0x0][0x208]", 0, 2},
		{"F2F.F64.F32 R3, R4", 0, 2},
		{"F2F.F32.F64 R3, R4", -1, 0},
		{"I2F.F64 R4, R7", -1, 0},
		{"I2F.S64 R4, R7", 1, 2},
		{"F2I.F64 R5, R7", 1, 2},
		{"F2I.U64.F16 R5, R7", 0, 2},
		{"FRND.F64.TRUNC R4, R23", 1, 2},
		{"ATOMG.E.ADD.64.STRONG.GPU PT, R2, desc[UR4][R4.64], R7", 3, 2},
		{"SHF.L.U64.HI R3, R5, 0x4, R7", -1, 0},
		{"MUFU.RCP64H R3, R5", -1, 0},
	};
	Arena a = {0};
	char err[128];
	size_t i;

	for (i = 0; i < NELEM(t); i++) {
		EInsn I;
		int k, need = 0;

		memset(&I, 0, sizeof I);
		CHECK(insn_parse(t[i].text, &I.in, &a, err, sizeof err) == 0);
		k = emu_check_align(&I, &need);
		if (k != t[i].bad || (k >= 0 && need != t[i].need))
			FAIL("%s: operand %d (alignment %d), expected %d (%d)", t[i].text, k, need,
			     t[i].bad, t[i].need);
	}
	arena_free(&a);
}
