/* test_ir_hash.c -- ir_hash (src/ir/verify.c), on which the pass driver
 * (compile.c run_passes) relies to skip the checker after a pass that
 * reports no change and to skip rerunning a pass on IR it left unchanged:
 * every field a pass may change moves the fingerprint, and each pass of
 * the pipeline that reports no change leaves it equal. */
#include "test_ir.h"

static const char *prog =
	".version 8.0\n.target sm_90\n.address_size 64\n"
	".visible .entry k(.param .u64 k_out)\n{\n"
	"\t.reg .pred %p<3>;\n\t.reg .b32 %r<12>;\n\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [k_out];\n"
	"\tmov.u32 %r1, %tid.x;\n"
	"\tmov.u32 %r2, 3;\n"
	"\tadd.s32 %r3, %r1, %r2;\n"
	"\tsetp.lt.s32 %p1, %r1, 16;\n"
	"\t@%p1 bra L1;\n"
	"\tmul.lo.s32 %r3, %r3, 2;\n"
	"L1:\n"
	"\tst.global.u32 [%rd1], %r3;\n"
	"\tret;\n}\n";

TEST(ir_hash_fields)
{
	IrT t;
	IrIns *x;
	u64 h;

	if (irt_build(&t, prog) < 0) {
		FAIL("does not build");
		irt_free(&t);
		return;
	}
	h = ir_hash(&t.f);
	CHECK(h == ir_hash(&t.f));
	x = &t.f.b.v[0].ins.v[3];   /* add.s32 %r3, %r1, %r2 */
	CHECK(x->p.op == PTX_OP_add && x->p.nopds == 3);
	ir_opds_w(&t.f, x)[2].reg++;
	CHECK(ir_hash(&t.f) != h);
	x->p.opds[2].reg--;
	CHECK(ir_hash(&t.f) == h);
	x->dead = 1;
	CHECK(ir_hash(&t.f) != h);
	x->dead = 0;
	x->p.guard_neg = 1;
	CHECK(ir_hash(&t.f) != h);
	x->p.guard_neg = 0;
	t.f.b.v[0].succ[0] ^= 1;
	CHECK(ir_hash(&t.f) != h);
	t.f.b.v[0].succ[0] ^= 1;
	ir_new_reg(&t.f, PTX_T_U32);
	CHECK(ir_hash(&t.f) != h);
	irt_free(&t);
}

/* The opt pipeline's passes, each run twice: no change reported means an
 * equal fingerprint, and a pass that changed nothing changes nothing the
 * second time either. */
TEST(ir_hash_no_change_claims)
{
	static const char *passes[] = {
		"constfold", "copyprop", "widen", "cse", "unroll", "fuse", "ifconv", "dce", "compact",
	};
	IrT t;
	size_t i;

	if (irt_build(&t, prog) < 0) {
		FAIL("does not build");
		irt_free(&t);
		return;
	}
	for (i = 0; i < sizeof passes / sizeof *passes; i++) {
		u64 h = ir_hash(&t.f);
		if (irt_run(&t, passes[i]) == 0) {
			CHECK(ir_hash(&t.f) == h);
			CHECK(irt_run(&t, passes[i]) == 0);
			CHECK(ir_hash(&t.f) == h);
		}
	}
	irt_free(&t);
}
