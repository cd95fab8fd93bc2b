/* emu_mods.c -- the modifiers each opcode's semantics honour.  A decoded
 * instruction carrying any other modifier is refused at run time
 * ("unsupported ... modifier .X"), so a form the handlers do not model can
 * never run as a similar-looking one.  Handlers that are no-ops in a
 * sequential emulator (fences, cache control, sleeps) accept anything. */
#include <stdio.h>
#include <string.h>

#include "emu/emu_int.h"

#define CMPS "EQ NE LT LE GT GE EQU NEU LTU LEU GTU GEU NUM NAN F T AND OR XOR"
#define INTS "S8 U8 S16 U16 S32 U32 S64 U64"
#define RNDS "RN RZ RM RP"
#define LDST "E U8 S8 U16 S16 64 128 CONSTANT STRONG WEAK SYS GPU CTA SM LU U EF EL EU NA LTC64B LTC128B LTC256B BYPASS"
#define ATOMS_ "E STRONG GPU SYS CTA SM RN FTZ ADD MIN MAX INC DEC AND OR XOR EXCH CAS CAST SPIN S32 U32 64 S64 U64 F32 F64 F16x2 BF16x2 F32x2 F32x4 F16x4 F16x8 BF16x4 BF16x8"

static const struct { const char *op, *mods; } tab[] = {
	{"ARRIVES", "64 LDGSTSBAR ARVCNT TRANSCNT"},
	{"ATOM", ATOMS_}, {"ATOMG", ATOMS_}, {"RED", ATOMS_}, {"REDG", ATOMS_},
	{"ATOMS", ATOMS_ " 32 ARRIVE POPC"},
	{"BAR", "SYNC ARV RED POPC AND OR DEFER_BLOCKING"}, {"B2R", "RESULT"}, {"BMOV", "32 CLEAR"}, {"BRA", "U ANY DIV CONV"},
	{"CALL", "REL ABS NOINC"}, {"RET", "REL ABS NODEC"}, {"CS2R", "32"},
	{"DADD", RNDS}, {"DMUL", RNDS}, {"DFMA", RNDS}, {"DSETP", CMPS " MIN MAX"},
	{"F2F", "F16 BF16 F32 F64 FTZ SAT " RNDS}, {"F2FP", "F16 BF16 F32 PACK_AB RELU SAT SATFINITE E4M3 E5M2 PACK_AB_MERGE_C UNPACK_B UNPACK_B_MERGE_C " RNDS},
	{"F2I", "FTZ NTZ TRUNC FLOOR CEIL F16 BF16 F32 F64 " INTS},
	{"FADD", "FTZ SAT " RNDS}, {"FMUL", "FTZ SAT D2 D4 D8 M2 M4 M8 " RNDS}, {"FFMA", "FTZ SAT " RNDS},
	{"FMNMX", "FTZ NAN XORSIGN"}, {"FRND", "TRUNC FLOOR CEIL FTZ F32 F64"}, {"FSETP", CMPS " FTZ"},
	{"FLO", "U32 S32 SH"}, {"SGXT", "W U32 S32"}, {"USGXT", "W U32 S32"}, {"UFLO", "U32 S32 SH"},
	{"HADD2", "BF16_V2 F32 FTZ SAT"}, {"HMUL2", "BF16_V2 F32 FTZ SAT"},
	{"HFMA2", "BF16_V2 F32 MMA FTZ SAT RELU"}, {"HMNMX2", "BF16_V2 NAN FTZ XORSIGN"},
	{"HSET2", "BF BF16_V2 FTZ " CMPS}, {"HSETP2", "BF16_V2 FTZ " CMPS},
	{"HMMA", "16816 1688 1684 F32 F16 BF16 TF32"}, {"IMMA", "16832 16816 S8 U8 SAT"}, {"DMMA", "884 8x8x4"},
	{"HGMMA", "MxNxK F32 F16 BF16 TF32"}, {"QGMMA", "MxNxK F32 F16 E4M3 E5M2"},
	{"IGMMA", "MxNxK S8 U8 SAT"}, {"STAS", "64 128"}, {"REDAS", "ADD MIN MAX INC DEC AND OR XOR S32 64"},
	{"USETMAXREG", "TRY_ALLOC DEALLOC CTAPOOL"},
	{"I2F", "F16 BF16 F32 F64 " INTS " " RNDS}, {"I2FP", "F32 " INTS " " RNDS},
	{"IADD3", "X"}, {"UIADD3", "X 64"}, {"IDP", "4A 2A LO HI S8 U8 S16 U16"},
	{"IMAD", "WIDE HI X U32 MOV IADD SHL"}, {"UIMAD", "WIDE HI X U32 MOV IADD SHL"},
	{"IMNMX", "U32 S32"}, {"VIMNMX", "U32 S32 S16x2 U16x2 RELU"}, {"UIMNMX", "U32 S32"}, {"VIADDMNMX", "U32 S32"}, {"VIMNMX3", "U32 S32 S16x2 U16x2 RELU"},
	{"BMSK", "W"}, {"UBMSK", "W"},
	{"ISETP", CMPS " U32 EX"}, {"UISETP", CMPS " U32 EX"},
	{"LD", LDST}, {"LDG", LDST}, {"LDS", LDST}, {"LDL", LDST},
	{"ST", LDST}, {"STG", LDST}, {"STS", LDST}, {"STL", LDST},
	{"LDC", "64 U8 S8 U16 S16"}, {"ULDC", "64 U8 S8 U16 S16"},
	{"LDGSTS", "E BYPASS 32 64 128 LTC128B ZFILL"}, {"LDSM", "16 M88 MT88 1 2 4"}, {"MOVM", "16 MT88"}, {"STSM", "16 M88 MT88 1 2 4"},
	{"LEA", "HI X SX32"}, {"ULEA", "HI X SX32"},
	{"LOP3", "LUT"}, {"ULOP3", "LUT"}, {"PLOP3", "LUT"}, {"UPLOP3", "LUT"},
	{"MUFU", "RCP RSQ SQRT EX2 LG2 SIN COS TANH RCP64H RSQ64H F16 BF16"},
	{"MATCH", "ANY ALL U32 U64"}, {"PRMT", "F4E B4E RC8 ECL ECR RC16"}, {"UPRMT", "F4E B4E RC8 ECL ECR RC16"},
	{"QSPC", "E S G L D"}, {"R2UR", "OR"}, {"I2IP", "SAT " INTS}, {"REDUX", "SUM MIN MAX AND OR XOR S32 U32"},
	{"SHF", "L R U32 S32 U64 S64 HI W"}, {"USHF", "L R U32 S32 U64 S64 HI W"},
	{"SHFL", "IDX UP DOWN BFLY"},
	{"SYNCS", "64 EXCH ARRIVE TRANS64 A1T0 ART0 OPTOUT A0T1 A0TR A0TX RED PHASECHK TRYWAIT CCTL IV"}, {"UBLKCP", "S G"},
	{"VOTE", "ANY ALL EQ"}, {"VOTEU", "ANY ALL EQ"}, {"WARPSYNC", "ALL COLLECTIVE EXCLUSIVE"},
	{"VABSDIFF", "U32 S32"}, {"VABSDIFF4", "U8 ACC"},
	{"TEX", "LL SCR NODEP"}, {"TLD", "LZ SCR NODEP"},
	{"SULD", "D BA 1D 2D 3D U8 S8 U16 S16 64 128 STRONG SM TRAP IGN"},
	{"SUST", "D BA 1D 2D 3D U8 S8 U16 S16 64 128 STRONG SM TRAP IGN"},
	{"UTMALDG", "1D 2D 3D 4D 5D MULTICAST"}, {"UTMASTG", "1D 2D 3D 4D 5D"},
	{"UTMAREDG", "1D 2D 3D 4D 5D ADD MIN MAX INC DEC AND OR XOR"}, {"UTMAPF", "L2 1D 2D 3D 4D 5D"},
	{"UTMACCTL", "PF IV"},
};

/* NULL if every modifier of I is honoured, else the first one that is not. */
const char *
emu_check_mods(const EInsn *I)
{
	const char *allowed = "";
	size_t i, n;
	int k;

	for (i = 0; i < NELEM(tab); i++)
		if (!strcmp(tab[i].op, I->in.op)) {
			allowed = tab[i].mods;
			break;
		}
	for (k = 0; k < I->in.nmods; k++) {
		const char *m = I->in.mods[k], *p = allowed;
		int a, b, c;
		char x;
		/* shapes like 64x128x16: the handler checks the numbers */
		if (k == 0 && strstr(allowed, "MxNxK") && sscanf(m, "%dx%dx%d%c", &a, &b, &c, &x) == 3)
			continue;
		n = strlen(m);
		for (;;) {
			const char *q = strstr(p, m);
			if (!q) {
				return m;
			}
			if ((q == allowed || q[-1] == ' ') && (q[n] == ' ' || !q[n]))
				break;
			p = q + 1;
		}
	}
	return NULL;
}

static int
reg_ok(int kind, int r)
{
	switch (kind) {
	case OPK_R: return r <= RZ;
	case OPK_UR: return r <= URZ;
	case OPK_P: case OPK_UP: return r <= 7;
	case OPK_B: return r <= 15;
	}
	return 1;
}

/* 0 if every register number of I exists (R0-R255, UR0-UR63, P0-P7,
 * B0-B15), else -1: the text parser accepts any number up to 255. */
int
emu_check_regs(const EInsn *I)
{
	int i;

	for (i = 0; i < I->in.nops; i++) {
		const Operand *o = &I->in.o[i];
		if (!reg_ok(o->kind, o->reg))
			return -1;
		if ((o->kind == OPK_MEM || o->kind == OPK_CB) && o->rk && !reg_ok(o->rk, o->reg))
			return -1;
		if (o->kind == OPK_MEM && (o->ur > URZ || (o->desc != 0xffff && o->desc > URZ)))
			return -1;
	}
	return I->in.guard > 7 ? -1 : 0;
}
