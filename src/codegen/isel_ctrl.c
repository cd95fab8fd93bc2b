/* isel_ctrl.c -- branches, returns, exits, traps and CTA barriers. */
#include "codegen/isel.h"

static int
sel_bra(Sel *s, const IrIns *x)
{
	int b = s->mf->cur;

	if (x->target < 0)
		return sel_unsupported(s, "a branch without a label target");
	if (x->p.guard < 0 && x->target == b + 1)
		return 0;  /* falls through */
	mi(s->mf, "BRA %L", x->target);
	return 0;
}

/* ret: EXIT in a kernel; in a .func the marker call_link expands into
 * the return sequence (isel_call.c).  exit ends the thread anywhere. */
static int
sel_ret(Sel *s, const IrIns *x)
{
	if (x->p.op == PTX_OP_ret && !s->fn->is_entry)
		mi(s->mf, "RET.REL.NODEC R20 0x0");
	else
		mi(s->mf, "EXIT");
	return 0;
}

/* trap: BPT.TRAP 0x1 (ptxas's spelling), then EXIT so that control never
 * runs on.  Like ptxas, a guarded trap is branched around rather than
 * predicated (@!P BRA next; the reconvergence pass splits the block
 * after that branch). */
static int
sel_trap(Sel *s, const IrIns *x)
{
	int b = s->mf->cur;

	if (x->p.guard >= 0) {
		if (b + 1 >= (int)s->mf->b.n)
			return sel_unsupported(s, "a guarded trap at the very end of a function");
		s->mf->guard_neg ^= 1;
		mi(s->mf, "BRA %L", b + 1);
		s->mf->guard = -1;
		s->mf->guard_neg = 0;
	}
	mi(s->mf, "BPT.TRAP 0x1");
	mi(s->mf, "EXIT");
	return 0;
}

static int
sel_bar(Sel *s, const IrIns *x)
{
	u64 id = 0;

	if (x->p.nopds > 1 || (x->p.nopds && !sel_imm(&x->p.opds[0], &id)) || id > 15)
		return sel_unsupported(s, "a barrier with a thread count or a register id");
	if (id + 1 > s->barriers)
		s->barriers = (u32)id + 1;
	mi(s->mf, "BAR.SYNC.DEFER_BLOCKING %h", (unsigned)id);
	return 0;
}

const SelRule sel_rules_ctrl[] = {
	{PTX_OP_bra, sel_bra}, {PTX_OP_ret, sel_ret}, {PTX_OP_exit, sel_ret}, {PTX_OP_trap, sel_trap},
	{PTX_OP_bar_sync, sel_bar}, {PTX_OP_barrier_sync, sel_bar}, {PTX_OP_bar, sel_bar},
	{PTX_OP_barrier, sel_bar},
	{0, NULL},
};
