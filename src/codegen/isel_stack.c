/* isel_stack.c -- alloca, stacksave and stackrestore (nvcc: __builtin_alloca,
 * variable-length arrays) in kernels that make no calls.
 *
 * The frame (.local variables, spills) stays at [R1+off]; the dynamic
 * allocations grow down from its bottom through a stack-pointer vreg SP
 * that the prologue sets to R1 after the frame reservation:
 *
 *   alloca.u32/u64 d, n, al   SP = (SP - n) & -al;  d = SP  (a .local address)
 *   stacksave d               d = SP
 *   stackrestore a            SP = a
 *
 * ptxas moves R1 itself and addresses the frame another way; with no
 * calls nothing else lives below R1, so a separate SP needs no change to
 * the frame or spill code.  A kernel that calls (its callees' frames and
 * argument areas go below R1) or a .func is refused. */
#include <string.h>

#include "codegen/isel.h"

/* SP, set to R1 right after the prologue's stack-pointer load (and after
 * the frame reservations the isel/ra insert there later). */
static MRef
stack_ptr(Sel *s)
{
	int cur = s->mf->cur, g = s->mf->guard, gn = s->mf->guard_neg;
	MBlock *b0;
	MIns m;
	size_t i;

	if (s->asp)
		return mref(s->asp - 1);
	s->asp = sel_tmp(s, 1).v + 1;
	s->mf->guard = -1;
	s->mf->guard_neg = 0;
	mi(s->mf, "MOV %D, R1", mref(s->asp - 1));
	s->mf->guard = g;
	s->mf->guard_neg = (u8)gn;
	m = s->mf->b.v[cur].ins.v[--s->mf->b.v[cur].ins.n];
	b0 = &s->mf->b.v[0];
	for (i = 0; i < b0->ins.n; i++)
		if (strstr(b0->ins.v[i].text, "R1, c[0x0][0x28]"))
			break;
	if (i == b0->ins.n)
		die("isel: no stack pointer load in the prologue");
	while (++i < b0->ins.n && (!strncmp(b0->ins.v[i].text, "IADD3 R1, R1,", 13) ||
				   !strncmp(b0->ins.v[i].text, "VIADD R1, R1,", 13)))
		;   /* after the frame reservation isel_mem.c made already */
	mir_insert(b0, i, m);
	return mref(s->asp - 1);
}

static int
check_kernel(Sel *s)
{
	size_t b, i;

	if (s->asp)
		return 0;   /* checked when the first stack operation made SP */
	if (!s->fn->is_entry)
		return sel_unsupported(s, "alloca/stacksave/stackrestore in a called function");
	for (b = 0; b < s->ir->b.n; b++)
		for (i = 0; i < s->ir->b.v[b].ins.n; i++)
			if (s->ir->b.v[b].ins.v[i].p.op == PTX_OP_call && !s->ir->b.v[b].ins.v[i].dead)
				return sel_unsupported(s, "alloca/stacksave/stackrestore in a kernel that makes calls");
	return 0;
}

/* d = SP, widened to d's width. */
static int
put_sp(Sel *s, const PtxOperand *d, MRef sp)
{
	MRef r;

	if (d->kind != PTX_OPD_REG)
		return sel_unsupported(s, "this destination");
	r = sel_reg(s, d->reg);
	if (s->mf->vr.v[r.v].w > 1) {
		sel_mov32(s, mpart(r.v, 0, 1), mopd_reg(sp));
		sel_mov32(s, mpart(r.v, 1, 1), mopd_reg(mref(s->mf->rz)));
	} else
		sel_mov32(s, r, mopd_reg(sp));
	return 0;
}

static int
sel_alloca(Sel *s, const IrIns *x)
{
	const PtxOperand *o = x->p.opds;
	u64 al = 8;
	MRef sp, n;

	if (check_kernel(s) < 0)
		return -1;
	if (x->p.nopds > 2)
		al = o[2].kind == PTX_OPD_IMM ? (u64)o[2].imm : 0;
	if (!al || (al & (al - 1)) || al > 0x10000)
		return sel_unsupported(s, "alloca with this alignment (a power of two immediate up to 64 KiB)");
	sp = stack_ptr(s);
	n = sel_r32(s, &o[1], 0);   /* the local window is 32-bit */
	if (n.v < 0)
		return -1;
	mi(s->mf, "IADD3 %D, %U, -%U, RZ", sp, sp, n);
	mi(s->mf, "LOP3.LUT %D, %U, %h, RZ, 0xc0, !PT", sp, sp, (unsigned)-(u32)al);
	return put_sp(s, &o[0], sp);
}

static int
sel_stacksave(Sel *s, const IrIns *x)
{
	if (check_kernel(s) < 0)
		return -1;
	return put_sp(s, &x->p.opds[0], stack_ptr(s));
}

static int
sel_stackrestore(Sel *s, const IrIns *x)
{
	MRef sp, a;

	if (check_kernel(s) < 0)
		return -1;
	sp = stack_ptr(s);
	a = sel_r32(s, &x->p.opds[0], 0);
	if (a.v < 0)
		return -1;
	sel_mov32(s, sp, mopd_reg(a));
	return 0;
}

const SelRule sel_rules_stack[] = {
	{PTX_OP_alloca, sel_alloca}, {PTX_OP_stacksave, sel_stacksave}, {PTX_OP_stackrestore, sel_stackrestore},
	{0, NULL},
};
