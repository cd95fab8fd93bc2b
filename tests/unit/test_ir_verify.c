/* test_ir_verify.c -- ir_verify (src/ir/verify.c) checks the operands
 * ir_build gave once, at the build, and after that only the operands a
 * pass wrote (ir_opds_w) or replaced: those it still checks. */
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_ir.h"

static const char *prog =
	".version 8.0\n.target sm_90\n.address_size 64\n"
	".visible .entry k(.param .u64 k_out)\n{\n"
	"\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<2>;\n"
	"\tld.param.u64 %rd1, [k_out];\n"
	"\tmov.u32 %r1, %tid.x;\n"
	"\tadd.s32 %r2, %r1, 7;\n"
	"\tst.global.u32 [%rd1], %r2;\n"
	"\tret;\n}\n";

/* Does ir_verify abort after operand 1 of x's operands (ops) names a
 * register past the function's? (in a child: the abort is the answer) */
static int
aborts_with_bad_reg(IrT *t, IrIns *x, int write)
{
	pid_t pid;
	int st;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		PtxOperand *ops = write ? ir_opds_w(&t->f, x) : (PtxOperand *)x->p.opds;
		if (!freopen("/dev/null", "w", stderr))
			_exit(2);
		ops[1].reg = t->f.nregs;
		ir_verify(&t->f, "test");
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT;
}

TEST(ir_verify_built_operands)
{
	IrT t;
	IrIns *x;
	size_t b, i;

	if (irt_build(&t, prog) < 0) {
		FAIL("does not build");
		irt_free(&t);
		return;
	}
	for (b = 0; b < t.f.b.n; b++)
		for (i = 0; i < t.f.b.v[b].ins.n; i++)
			CHECK(t.f.b.v[b].ins.v[i].built == t.f.b.v[b].ins.v[i].p.opds);
	x = &t.f.b.v[0].ins.v[2];   /* add.s32 %r2, %r1, 7 */
	CHECK(x->p.op == PTX_OP_add && x->p.nopds == 3);
	/* written through ir_opds_w: checked */
	CHECK(aborts_with_bad_reg(&t, x, 1) == 1);
	/* the built array, which no pass may write: not checked again
	 * (OA_VERIFY=1 checks it too) */
	CHECK(aborts_with_bad_reg(&t, x, 0) == ir_verify_all());
	irt_free(&t);
}
