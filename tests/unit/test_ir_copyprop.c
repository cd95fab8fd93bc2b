/* test_ir_copyprop.c -- copy propagation (src/ir/copyprop.c): a read is
 * renamed through a chain of copies whatever the order of the blocks
 * holding them; an immediate replaces reads only where selection takes
 * one (not in a mov); a register written twice is not propagated. */
#include "test_ir.h"

static const char *prog =
	".version 8.0\n.target sm_90\n.address_size 64\n"
	".visible .entry k(.param .u64 k_out)\n{\n"
	"\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [k_out];\n"
	"\tmov.u32 %r1, 7;\n"
	"\tbra L2;\n"
	"L1:\n"
	"\tmov.u32 %r3, %r2;\n"          /* %r2 is a copy made in a later block */
	"\tmov.u32 %r4, %r3;\n"
	"\tadd.s32 %r6, %r4, %r1;\n"     /* -> %r5 + 7 */
	"\tmov.u32 %r7, %r1;\n"          /* a mov keeps its register source */
	"\tmov.u32 %r8, %r9;\n"          /* %r9 written twice: stays */
	"\tadd.s32 %r10, %r8, %r7;\n"
	"\tst.global.u32 [%rd1], %r6;\n"
	"\tst.global.u32 [%rd1+8], %r10;\n"
	"\tbra END;\n"
	"L2:\n"
	"\tld.global.u32 %r5, [%rd1+4];\n"
	"\tmov.u32 %r2, %r5;\n"
	"\tmov.u32 %r9, 1;\n"
	"\tadd.s32 %r9, %r9, %r5;\n"
	"\tbra L1;\n"
	"END:\n"
	"\tret;\n}\n";

/* The n-th live instruction with opcode op. */
static const IrIns *
nth(const IrT *t, int op, int n)
{
	size_t b, i;

	for (b = 0; b < t->f.b.n; b++)
		for (i = 0; i < t->f.b.v[b].ins.n; i++) {
			const IrIns *x = &t->f.b.v[b].ins.v[i];
			if (!x->dead && x->p.op == op && n-- == 0)
				return x;
		}
	return NULL;
}

TEST(ir_copyprop_chains)
{
	IrT t;
	const IrIns *ld, *add, *add2, *mov7;
	int n;

	if (irt_build(&t, prog) < 0) {
		FAIL("does not build");
		irt_free(&t);
		return;
	}
	n = irt_run(&t, "copyprop");
	ld = nth(&t, PTX_OP_ld, 1);
	add = nth(&t, PTX_OP_add, 0);
	add2 = nth(&t, PTX_OP_add, 1);
	mov7 = nth(&t, PTX_OP_mov, 3);   /* mov %r1 7, mov %r3, mov %r4, mov %r7 */
	if (!ld || !add || !add2 || !mov7) {
		FAIL("instructions missing:\n%s", irt_dump(&t));
		irt_free(&t);
		return;
	}
	/* renames, counted per step as copy after copy (block order) would:
	 * mov %r3: %r2 -> %r5; mov %r4: %r3 -> %r2 -> %r5; first add: %r4 ->
	 * %r2 -> %r5 and %r1 -> 7; second add: %r7 -> %r1 */
	CHECK(n == 7);
	CHECK(add->p.opds[1].kind == PTX_OPD_REG && add->p.opds[1].reg == ld->p.opds[0].reg);
	CHECK(add->p.opds[2].kind == PTX_OPD_IMM);
	CHECK(mov7->p.opds[1].kind == PTX_OPD_REG);    /* mov %r7, %r1: no immediate */
	CHECK(add2->p.opds[2].kind == PTX_OPD_REG && add2->p.opds[2].reg == nth(&t, PTX_OP_mov, 0)->p.opds[0].reg);
	CHECK(add2->p.opds[1].kind == PTX_OPD_REG && add2->p.opds[1].reg == nth(&t, PTX_OP_mov, 4)->p.opds[0].reg);
	irt_run(&t, "dce");
	CHECK(irt_count(&t, PTX_OP_mov) == 3);   /* %r1 = 7 (the second add reads it), %r8 = %r9, %r9 = 1 */
	irt_free(&t);
}
