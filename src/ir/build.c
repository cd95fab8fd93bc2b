/* build.c -- PTX function -> IR: copy the instructions (sharing their
 * operands until a pass writes one: ir_opds_w), cut them into
 * basic blocks at labels and after control transfers, link the CFG. */
#include <string.h>

#include <stdlib.h>

#include "ir/ir.h"

int
ir_new_reg(IrFunc *f, PtxType t)
{
	if ((size_t)f->nregs == f->rcap) {
		size_t cap = f->rcap ? 2 * f->rcap : 64;
		u8 *n = arena_alloc(f->a, cap);
		if (f->rcap)
			memcpy(n, f->rtype, f->rcap);
		f->rtype = n;
		f->rcap = cap;
	}
	f->rtype[f->nregs] = (u8)t;
	return f->nregs++;
}

/* A deep copy of n operands (vector elements too), in a. */
static PtxOperand *
copy_opds(Arena *a, const PtxOperand *o, int n)
{
	PtxOperand *c = arena_alloc(a, sizeof *c * (size_t)(n ? n : 1));
	int i;

	memcpy(c, o, sizeof *c * (size_t)n);
	for (i = 0; i < n; i++)
		if (o[i].nelems)
			c[i].elems = copy_opds(a, o[i].elems, o[i].nelems);
	return c;
}

PtxOperand *
ir_opds_w(IrFunc *f, IrIns *x)
{
	if (!x->own) {
		x->p.opds = copy_opds(f->a, x->p.opds, x->p.nopds);
		x->own = 1;
	}
	return x->p.opds;
}

/* Instructions after which control does not fall through. */
static int
ends_block(const PtxInstr *in)
{
	switch (in->op) {
	case PTX_OP_bra: case PTX_OP_ret: case PTX_OP_exit: case PTX_OP_trap:
	case PTX_OP_brx_idx: case PTX_OP_call:   /* call: the return point starts a block */
		return 1;
	}
	return 0;
}

static int
no_fallthrough(const PtxInstr *in)
{
	return ends_block(in) && in->guard < 0 && in->op != PTX_OP_call;
}

const u8 ir_no_def[PTX_NOPS] = {
	[PTX_OP_st] = 1, [PTX_OP_st_async] = 1, [PTX_OP_st_bulk] = 1, [PTX_OP_red] = 1,
	[PTX_OP_red_async] = 1, [PTX_OP_bra] = 1, [PTX_OP_brx_idx] = 1, [PTX_OP_call] = 1,
	[PTX_OP_ret] = 1, [PTX_OP_exit] = 1, [PTX_OP_trap] = 1, [PTX_OP_bar] = 1, [PTX_OP_bar_sync] = 1,
	[PTX_OP_bar_arrive] = 1, [PTX_OP_barrier] = 1, [PTX_OP_barrier_sync] = 1,
	[PTX_OP_barrier_arrive] = 1, [PTX_OP_bar_warp_sync] = 1, [PTX_OP_barrier_cluster_arrive] = 1,
	[PTX_OP_barrier_cluster_wait] = 1, [PTX_OP_membar] = 1, [PTX_OP_fence] = 1,
	[PTX_OP_fence_proxy] = 1, [PTX_OP_cp_async] = 1, [PTX_OP_cp_async_commit_group] = 1,
	[PTX_OP_cp_async_wait_group] = 1, [PTX_OP_cp_async_wait_all] = 1, [PTX_OP_cp_async_bulk] = 1,
	[PTX_OP_cp_async_bulk_tensor] = 1, [PTX_OP_cp_async_bulk_commit_group] = 1,
	[PTX_OP_cp_async_bulk_wait_group] = 1, [PTX_OP_cp_async_mbarrier_arrive] = 1,
	[PTX_OP_prefetch] = 1, [PTX_OP_prefetchu] = 1, [PTX_OP_mbarrier_init] = 1,
	[PTX_OP_mbarrier_inval] = 1, [PTX_OP_mbarrier_complete_tx] = 1, [PTX_OP_mbarrier_expect_tx] = 1,
	[PTX_OP_wmma_store] = 1, [PTX_OP_stmatrix] = 1, [PTX_OP_wgmma_fence] = 1,
	[PTX_OP_wgmma_commit_group] = 1, [PTX_OP_wgmma_wait_group] = 1, [PTX_OP_nanosleep] = 1,
	[PTX_OP_pmevent] = 1, [PTX_OP_setmaxnreg] = 1, [PTX_OP_sust] = 1, [PTX_OP_sured] = 1,
	[PTX_OP_multimem_st] = 1, [PTX_OP_multimem_red] = 1, [PTX_OP_discard] = 1,
	[PTX_OP_cp_reduce_async_bulk] = 1, [PTX_OP_cp_reduce_async_bulk_tensor] = 1,
	[PTX_OP_griddepcontrol_launch_dependents] = 1, [PTX_OP_griddepcontrol_wait] = 1,
	[PTX_OP_brkpt] = 1, [PTX_OP_applypriority] = 1, [PTX_OP_cp_async_bulk_prefetch] = 1,
	[PTX_OP_cp_async_bulk_prefetch_tensor] = 1, [PTX_OP_tensormap_cp_fenceproxy] = 1,
	[PTX_OP_stackrestore] = 1,
};

static int
label_target(const PtxInstr *in)
{
	int i;

	for (i = 0; i < in->nopds; i++)
		if (in->opds[i].kind == PTX_OPD_SYM && in->opds[i].symkind == PTX_SYM_LABEL)
			return in->opds[i].index;
	return -1;
}

int
ir_build(IrFunc *f, const PtxModule *m, const PtxFunc *fn, Arena *a)
{
	int n, i, e, *blk, cur = -1, nextra;
	const PtxInstr *bad, *ins = ir_expand_brx(fn, a, &n, &nextra, &bad);   /* brx.c */
	u8 *leader;

	memset(f, 0, sizeof *f);
	f->m = m;
	f->f = fn;
	f->a = a;
	if (!ins) {
		diag_at(&m->src, bad->pos, "unsupported by the compiler: brx.idx without a .branchtargets list");
		return -1;
	}
	leader = xcalloc((size_t)n + 1, 1);
	if (fn->nregs + nextra) {   /* as ir_new_reg for each would leave them */
		size_t cap = 64;
		while (cap < (size_t)(fn->nregs + nextra))
			cap *= 2;
		f->rtype = arena_alloc(a, cap);
		f->rcap = cap;
		for (i = 0; i < fn->nregs; i++)
			f->rtype[i] = (u8)fn->regs[i].type;
		memset(f->rtype + fn->nregs, PTX_T_PRED, (size_t)nextra);
		f->nregs = fn->nregs + nextra;
	}
	for (i = 0; i < n; i++) {
		const PtxInstr *in = &ins[i];
		int t = in->op == PTX_OP_bra ? label_target(in) : -1;
		if (t >= 0)
			leader[t] |= 2;
		if (ends_block(in))
			leader[i + 1] |= 1;
	}
	leader[0] |= 1;
	blk = xcalloc((size_t)n + 1, sizeof *blk);
	for (i = 0, e = 0; i <= n; i++)   /* the vectors sized once */
		e += i == n ? (leader[n] & 2) != 0 : leader[i] != 0;
	f->b.v = xmalloc((size_t)e * sizeof *f->b.v + 1);
	f->b.cap = (size_t)e;
	for (i = 0; i <= n; i++) {
		if (i == n ? (leader[n] & 2) != 0 : leader[i] != 0) {
			IrBlock b = {0};
			for (e = i + 1; e < n && !leader[e]; e++)
				;
			if (i < n) {
				b.ins.cap = (size_t)(e - i);
				b.ins.v = xmalloc(b.ins.cap * sizeof *b.ins.v);
			}
			b.succ[0] = b.succ[1] = -1;
			vec_push(&f->b, b);
			cur = (int)f->b.n - 1;
		}
		blk[i] = cur;
		if (i < n) {
			IrIns x = {0};
			x.p = ins[i];   /* the operands shared until written */
			x.target = -1;
			vec_push(&f->b.v[cur].ins, x);
		}
	}
	/* edges */
	for (i = 0; i < (int)f->b.n; i++) {
		IrBlock *b = &f->b.v[i];
		IrIns *last = b->ins.n ? &b->ins.v[b->ins.n - 1] : NULL;
		if (last && last->p.op == PTX_OP_bra)
			last->target = blk[label_target(&last->p)];
		if ((!last || !no_fallthrough(&last->p)) && i + 1 < (int)f->b.n)
			b->succ[0] = i + 1;
		if (last && last->target >= 0)
			b->succ[1] = last->target;
		if (b->succ[0] == b->succ[1])
			b->succ[1] = -1;
	}
	for (i = 0; i < (int)f->b.n; i++)
		for (int k = 0; k < 2; k++)
			if (f->b.v[i].succ[k] >= 0)
				vec_push(&f->b.v[f->b.v[i].succ[k]].pred, i);
	free(leader);
	free(blk);
	ir_verify(f, "build");
	for (i = 0; i < (int)f->b.n; i++)   /* checked: ir_verify skips them from now on */
		for (e = 0; e < (int)f->b.v[i].ins.n; e++)
			f->b.v[i].ins.v[e].built = f->b.v[i].ins.v[e].p.opds;
	return 0;
}

void
ir_free(IrFunc *f)
{
	size_t b;

	for (b = 0; b < f->b.n; b++) {
		vec_free(&f->b.v[b].ins);
		vec_free(&f->b.v[b].pred);
	}
	vec_free(&f->b);
}
