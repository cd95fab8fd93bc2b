/* emu_align.c -- 64-bit values live in even register pairs, 128-bit ones
 * in quads starting at a multiple of 4.  An instruction that names an odd
 * first register of a pair is illegal on the hardware (an H200 raised
 * CUDA_ERROR_ILLEGAL_INSTRUCTION for IMAD.HI.U32 R20, R7, R8, R9), so the
 * emulator refuses it instead of reading R9:R10.  ptxas never writes one:
 * these rules hold for every instruction of tests/golden (suite, corpus,
 * sm_80/sm_90 pairs; the fuzz files are random encodings). */
#include <string.h>

#include "emu/emu_int.h"

static int
is_op(const char *op, const char *const *l)
{
	for (; *l; l++)
		if (!strcmp(op, *l))
			return 1;
	return 0;
}

static int
has64(const Insn *in, const char *const *l)
{
	for (; *l; l++)
		if (insn_has(in, *l))
			return 1;
	return 0;
}

/* A conversion's 64-bit sides: dst (1) and src (2) bits.  Two types name
 * dst then src; one names I2F's float dst or integer src, F2I's integer
 * dst or float src. */
static int
conv64(const Insn *in)
{
	const char *t[2];
	int n = 0, k, f;

	for (k = 0; k < in->nmods && n < 2; k++) {
		const char *m = in->mods[k];
		if (strchr("FSU", m[0]) && (!strcmp(m + 1, "64") || !strcmp(m + 1, "32") ||
					    !strcmp(m + 1, "16") || !strcmp(m + 1, "8")))
			t[n++] = m;
		else if (!strcmp(m, "BF16"))
			t[n++] = m;
	}
	if (!strcmp(in->op, "FRND"))
		return n && !strcmp(t[0], "F64") ? 3 : 0;
	if (n == 2)
		return (strstr(t[0], "64") ? 1 : 0) | (strstr(t[1], "64") ? 2 : 0);
	if (n == 0 || !strstr(t[0], "64"))
		return 0;
	f = t[0][0] == 'F';
	if (!strcmp(in->op, "I2F"))
		return f ? 1 : 2;
	if (!strcmp(in->op, "F2I"))
		return f ? 2 : 1;
	return 3;
}

/* The alignment operand k's register needs: 1, 2 (a pair) or 4 (a quad). */
static int
align_of(const Insn *in, int k)
{
	static const char *const dbl[] = {"DADD", "DMUL", "DFMA", "DSETP", "DMNMX", NULL};
	static const char *const ld[] = {"LD", "LDG", "LDS", "LDL", "LDC", "ULDC", NULL};
	static const char *const st[] = {"ST", "STG", "STS", "STL", NULL};
	static const char *const atom[] = {"ATOM", "ATOMG", "ATOMS", "RED", "REDG", NULL};
	static const char *const conv[] = {"F2F", "I2F", "F2I", "FRND", NULL};
	static const char *const w64[] = {"64", "S64", "U64", "F64", NULL};
	const char *op = in->op;
	int c, w;

	if (is_op(op, dbl) || (is_op(op, atom) && has64(in, w64)))
		return 2;
	if (!strcmp(op, "IMAD") || !strcmp(op, "UIMAD")) {
		/* the addend c: the third source, after a carry-out predicate */
		for (c = 1; c < in->nops && (in->o[c].kind == OPK_P || in->o[c].kind == OPK_UP); c++)
			;
		if (k == 0 && insn_has(in, "WIDE"))
			return 2;
		return k == c + 2 && (insn_has(in, "WIDE") || insn_has(in, "HI")) ? 2 : 1;
	}
	w = insn_has(in, "128") ? 4 : insn_has(in, "64") ? 2 : 1;
	if (is_op(op, ld))
		return k == 0 ? w : 1;
	if (is_op(op, st))
		return k == in->nops - 1 ? w : 1;
	if (is_op(op, conv)) {
		c = conv64(in);
		return (k == 0 && (c & 1)) || (k == in->nops - 1 && (c & 2)) ? 2 : 1;
	}
	return 1;
}

/* -1 if every register pair and quad of I starts where it must (and
 * every [Rn.64] address is a pair), else the index of the first operand
 * that does not; *need gets its alignment. */
int
emu_check_align(const EInsn *I, int *need)
{
	const Insn *in = &I->in;
	int k;

	for (k = 0; k < in->nops; k++) {
		const Operand *o = &in->o[k];
		int a = 1;

		if (o->kind == OPK_MEM && o->x64 && o->rk == OPK_R && o->reg != RZ)
			a = 2;
		else if (o->kind == OPK_MEM && o->x64 && o->rk == OPK_UR && o->reg != URZ)
			a = 2;
		else if ((o->kind == OPK_R && o->reg != RZ) || (o->kind == OPK_UR && o->reg != URZ))
			a = align_of(in, k);
		if (o->reg % a) {
			*need = a;
			return k;
		}
	}
	return -1;
}
