/* isel_sm90.c -- sm_90 warp/grid control: elect.sync, griddepcontrol and
 * setmaxnreg, in ptxas 13.0's SASS (compiled probes, docs/session6-hopper.md):
 *
 *   elect.sync d|p, m      [WARPSYNC m unless m is all ones]
 *                          ELECT p, URx, PT;  MOV d, URx
 *   griddepcontrol.wait    ACQBULK
 *   griddepcontrol.launch_dependents   PREEXIT
 *   setmaxnreg.dec n       USETMAXREG.DEALLOC.CTAPOOL n
 *   setmaxnreg.inc n       L: USETMAXREG.TRY_ALLOC.CTAPOOL UPx, n
 *                             PLOP3.LUT Px, PT, PT, PT, UPx, 0x80, 0x0;  @!Px BRA L
 *
 * setmaxnreg needs the register count at entry, which the kernel declares
 * with .maxnreg or .maxntid and .minnctapersm; without it ptxas ignores
 * setmaxnreg ("unable to determine register count at entry") and so do
 * we.  With it, REGCOUNT is that count (as ptxas) and the whole kernel is
 * allocated within the smallest .dec count, so every region fits whatever
 * count it runs under (the allocator has one limit per kernel, not one
 * per region: code after .inc gains nothing). */
#include <string.h>

#include "codegen/isel.h"
#include "codegen/ra.h"

/* The register count at entry of a kernel that declares it, else 0. */
int
sel_entry_regs(const PtxFunc *fn)
{
	if (!fn->is_entry || !(fn->maxnreg || (fn->minnctapersm && fn->maxntid[0])))
		return 0;
	return ra_reg_limit(fn->maxnreg, fn->maxntid, fn->minnctapersm);
}

static int
sel_elect(Sel *s, const IrIns *x)
{
	const PtxInstr *in = &x->p;
	const PtxOperand *d = &in->opds[0];
	u64 m;
	MRef u, p;

	if (s->sm != 90)
		return sel_unsupported(s, "elect.sync (sm_90 only)");
	if (in->nopds != 2 || d->reg2 < 0)
		return sel_unsupported(s, "this form of elect.sync");
	if (!sel_imm(&in->opds[1], &m) || (u32)m != 0xffffffffu) {
		MRef r = sel_r32(s, &in->opds[1], 0);
		if (r.v < 0)
			return -1;
		mi(s->mf, "WARPSYNC %U", r);
	}
	u = mref(mvreg(s->mf, RC_UR, 1));
	p = sel_reg(s, d->reg2);
	mi(s->mf, "ELECT %D, %D, PT", p, u);
	if (d->kind == PTX_OPD_REG)
		mi(s->mf, "MOV %D, %U", sel_reg(s, d->reg), u);
	else if (d->kind != PTX_OPD_SINK)
		return sel_unsupported(s, "this form of elect.sync");
	return 0;
}

static int
sel_gdc_wait(Sel *s, const IrIns *x)
{
	(void)x;
	if (s->sm != 90)
		return sel_unsupported(s, "griddepcontrol (sm_90 only)");
	mi(s->mf, "ACQBULK");
	return 0;
}

static int
sel_gdc_launch(Sel *s, const IrIns *x)
{
	(void)x;
	if (s->sm != 90)
		return sel_unsupported(s, "griddepcontrol (sm_90 only)");
	mi(s->mf, "PREEXIT");
	return 0;
}

static int
sel_setmaxnreg(Sel *s, const IrIns *x)
{
	const PtxInstr *in = &x->p;
	int entry = sel_entry_regs(s->fn), head, after;
	u64 n;
	MRef up, p;

	if (s->sm != 90 || !s->m->arch_a)
		return sel_unsupported(s, "setmaxnreg outside sm_90a (`.target sm_90a` and --arch sm_90)");
	if (in->guard >= 0 || in->nopds != 1 || !sel_imm(&in->opds[0], &n) ||
	    (in->aop != PTX_AOP_INC && in->aop != PTX_AOP_DEC))
		return sel_unsupported(s, "this form of setmaxnreg");
	if (!entry)
		return 0;   /* as ptxas: ignored without a known count at entry */
	if (!s->maxnreg_cap)
		s->maxnreg_cap = entry;
	if (in->aop == PTX_AOP_DEC) {
		if ((int)n < s->maxnreg_cap)
			s->maxnreg_cap = (int)n;
		mi(s->mf, "USETMAXREG.DEALLOC.CTAPOOL %h", (u32)n);
		return 0;
	}
	head = seq_mark();
	after = seq_mark();
	seq_label(s->mf, head);
	up = mref(mvreg(s->mf, RC_UP, 1));
	p = sel_ptmp(s);
	mi(s->mf, "USETMAXREG.TRY_ALLOC.CTAPOOL %D, %h", up, (u32)n);
	mi(s->mf, "PLOP3.LUT %D, PT, PT, PT, %U, 0x80, 0x0", p, up);
	s->mf->guard = p.v, s->mf->guard_neg = 1;
	mi(s->mf, "BRA %L", head);
	s->mf->guard = -1, s->mf->guard_neg = 0;
	seq_label(s->mf, after);
	return 0;
}

const SelRule sel_rules_sm90[] = {
	{PTX_OP_elect, sel_elect}, {PTX_OP_griddepcontrol_wait, sel_gdc_wait},
	{PTX_OP_griddepcontrol_launch_dependents, sel_gdc_launch}, {PTX_OP_setmaxnreg, sel_setmaxnreg},
	{0, NULL},
};
