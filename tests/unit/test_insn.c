/* test_insn.c -- insn_parse_novalue (isa/insn.h): the same view and the
 * same errors as insn_parse, a plain decimal float immediate aside (kind
 * OPK_FIMM, value left 0). */
#include <string.h>

#include "test.h"
#include "isa/insn.h"

TEST(insn_parse_novalue)
{
	static const char *const texts[] = {
		"HFMA2.MMA R5, -RZ, RZ, 0, 5.9604644775390625e-08",
		"FFMA R3, R2, 1.4426950216293334961, -R3 ;",
		"FMUL R0, R1, -1.84467440737095516160e+19",
		"FSETP.NEU.FTZ.AND P2, PT, -|R3|.reuse, +INF , PT ;",
		"FSEL R1, R2, -QNAN, P0",
		"@!P0 IMAD.WIDE.U32 R2, R5, 0x4, R2 ;",
		"LDG.E.64 R6, desc[UR4][R6.64+-0x10]",
		/* errors: the same message */
		"FADD R1, R2, 1.5e",
		"FADD R1, R2, 1.5x",
		"FADD R1, R2, 1e+",
		"FADD R1, |R2, R3",
	};
	Arena a = {0};
	Insn x, y;
	char ex[128], ey[128];
	size_t i;
	int k;

	for (i = 0; i < NELEM(texts); i++) {
		int rx = insn_parse(texts[i], &x, &a, ex, sizeof ex);
		char t[128];
		int ry = insn_parse_novalue(strcpy(t, texts[i]), strlen(texts[i]), &y, &a, ey, sizeof ey);

		CHECK(rx == ry);
		if (rx < 0) {
			CHECK_STR(ex, ey);
			continue;
		}
		CHECK_STR(x.op, y.op);
		CHECK(x.nmods == y.nmods && x.nops == y.nops && x.guard == y.guard);
		for (k = 0; k < x.nops; k++) {
			Operand *o = &x.o[k], *p = &y.o[k];
			CHECK(o->kind == p->kind && o->neg == p->neg && o->abs == p->abs && o->reg == p->reg);
			if (o->kind == OPK_FIMM && !p->imm) {
				CHECK(p->f == 0);
				continue;
			}
			CHECK(o->imm == p->imm);
		}
	}
	char f[] = "FFMA R3, R2, 1.5, R3";
	CHECK(insn_parse_novalue(f, strlen(f), &y, &a, ey, sizeof ey) == 0);
	CHECK(y.o[2].kind == OPK_FIMM && y.o[2].imm == 0);
	arena_free(&a);
}
