/* isel_call.c -- non-inlined .func: call sites, ld/st.param of call-site
 * and function parameters, and linking the callee bodies after the
 * kernel (the ABI is in isel_call.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/isel_call.h"

typedef struct {
	const PtxVar *v;
	int own;          /* 1: this function's parameter ([ap+off]); 0: a call site's ([R1-A+off]) */
	i32 off;
} PSlot;

struct CallCtx {
	PSlot *slot;
	int nslot;
	int v_ap, v_ra;   /* a callee's area pointer and return address (-1 in a kernel) */
	u32 area;         /* a callee's own area */
};

/* Offsets of the return parameters, then the parameters; the area size. */
static u32
layout(const PtxVar *rets, int nrets, const PtxVar *params, int nparams, u32 *roff, u32 *poff)
{
	u32 off = 0, al;
	int i;

	for (i = 0; i < nrets + nparams; i++) {
		const PtxVar *v = i < nrets ? &rets[i] : &params[i - nrets];
		al = v->align ? v->align : 4;
		off = (off + al - 1) / al * al;
		if (i < nrets)
			roff[i] = off;
		else
			poff[i - nrets] = off;
		off += (u32)v->size;
	}
	return (off + 15) & ~15u;
}

static const PtxFunc *
callee_of(const Sel *s, const PtxInstr *in)
{
	const PtxOperand *t = in->nopds > 2 ? &in->opds[1] : NULL;
	if (!t || t->kind != PTX_OPD_SYM || t->symkind != PTX_SYM_FUNC || t->index < 0 ||
	    t->index >= s->m->nfuncs)
		return NULL;
	return s->m->funcs[t->index];
}

/* The prototype of an indirect call, or NULL. */
static const PtxProto *
proto_of(const Sel *s, const PtxInstr *in)
{
	const PtxOperand *p = in->nopds > 3 ? &in->opds[3] : NULL;
	if (in->nopds < 3 || in->opds[1].kind != PTX_OPD_REG || !p || p->kind != PTX_OPD_SYM ||
	    p->symkind != PTX_SYM_PROTO || p->index < 0 || p->index >= s->fn->nprotos)
		return NULL;
	return &s->fn->protos[p->index];
}

/* The callee's (or prototype's) parameter lists of a call. */
static int
signature(const Sel *s, const PtxInstr *in, const PtxVar **r, int *nr, const PtxVar **p, int *np)
{
	const PtxFunc *cf = callee_of(s, in);
	const PtxProto *pr = cf ? NULL : proto_of(s, in);
	if (cf) {
		*r = cf->rets, *nr = cf->nrets, *p = cf->params, *np = cf->nparams;
	} else if (pr) {
		*r = pr->rets, *nr = pr->nrets, *p = pr->params, *np = pr->nparams;
	} else
		return -1;
	return in->opds[0].nelems == *nr && in->opds[2].nelems == *np ? 0 : -1;
}

static void
add_slot(struct CallCtx *c, const PtxVar *v, int own, i32 off)
{
	c->slot[c->nslot].v = v;
	c->slot[c->nslot].own = own;
	c->slot[c->nslot].off = off;
	c->nslot++;
}

/* The call sites' parameter variables and (in a .func) its own. */
static struct CallCtx *
ctx(Sel *s)
{
	struct CallCtx *c;
	const PtxFunc *fn = s->fn;
	int i, k, n = fn->nparams + fn->nrets;
	u32 *roff, *poff;

	if (s->call)
		return s->call;
	for (i = 0; i < fn->ninstrs; i++)
		if (fn->instrs[i].op == PTX_OP_call && fn->instrs[i].nopds > 2)
			n += fn->instrs[i].opds[0].nelems + fn->instrs[i].opds[2].nelems;
	c = arena_alloc(s->mf->a, sizeof *c);
	c->slot = arena_alloc(s->mf->a, sizeof(PSlot) * (size_t)(n + 1));
	c->v_ap = c->v_ra = -1;
	for (i = 0; i < fn->ninstrs; i++) {
		const PtxInstr *in = &fn->instrs[i];
		const PtxVar *rv, *pv;
		int nr, np;
		u32 a;
		if (in->op != PTX_OP_call || signature(s, in, &rv, &nr, &pv, &np) < 0)
			continue;
		roff = arena_alloc(s->mf->a, sizeof(u32) * (size_t)(nr + np + 1));
		poff = roff + nr;
		a = layout(rv, nr, pv, np, roff, poff);
		for (k = 0; k < nr; k++)
			add_slot(c, in->opds[0].elems[k].var, 0, (i32)roff[k] - (i32)a);
		for (k = 0; k < np; k++)
			add_slot(c, in->opds[2].elems[k].var, 0, (i32)poff[k] - (i32)a);
	}
	if (!fn->is_entry) {
		roff = arena_alloc(s->mf->a, sizeof(u32) * (size_t)(fn->nrets + fn->nparams + 1));
		poff = roff + fn->nrets;
		c->area = layout(fn->rets, fn->nrets, fn->params, fn->nparams, roff, poff);
		for (k = 0; k < fn->nrets; k++)
			add_slot(c, &fn->rets[k], 1, (i32)roff[k]);
		for (k = 0; k < fn->nparams; k++)
			add_slot(c, &fn->params[k], 1, (i32)poff[k]);
		c->v_ra = mvreg(s->mf, RC_R, 1);
		c->v_ap = mvreg(s->mf, RC_R, 1);
	}
	s->call = c;
	return c;
}

static const PSlot *
find_slot(Sel *s, const PtxOperand *a)
{
	struct CallCtx *c;
	int i;

	if (a->kind != PTX_OPD_ADDR || !a->var || a->reg >= 0)
		return NULL;
	c = ctx(s);
	for (i = 0; i < c->nslot; i++)
		if (c->slot[i].v == a->var)
			return &c->slot[i];
	return NULL;
}

static const char *
ld_op(int eb, int sg)
{
	switch (eb) {
	case 1: return sg ? "LDL.S8" : "LDL.U8";
	case 2: return sg ? "LDL.S16" : "LDL.U16";
	case 8: return "LDL.64";
	}
	return "LDL";
}

static const char *
st_op(int eb)
{
	switch (eb) {
	case 1: return "STL.U8";
	case 2: return "STL.U16";
	case 8: return "STL.64";
	}
	return "STL";
}

/* Emit "OP <reg>, [addr]" or "OP [addr], <reg>": addr "R1+-0x8" (the
 * stack) or the area pointer's "%U+0x4" (own), "R1" / "%U" at offset 0. */
static void
emit_ls(Sel *s, int load, const char *op, MRef r, int own, i32 off)
{
	char o[24];
	MRef ap = mref(s->call->v_ap);

	sel_offtxt(o, sizeof o, off);
	if (own && load)
		mi(s->mf, "%s %D, [%U%s]", op, r, ap, o);
	else if (own)
		mi(s->mf, "%s [%U%s], %U", op, ap, o, r);
	else if (load)
		mi(s->mf, "%s %D, [R1%s]", op, r, o);
	else
		mi(s->mf, "%s [R1%s], %U", op, o, r);
}

/* The register (part) an element of eb bytes goes to or comes from. */
static MRef
elem_reg(Sel *s, const PtxOperand *o, int eb, int load)
{
	MRef r;
	if (o->kind == PTX_OPD_REG) {
		r = sel_reg(s, o->reg);
		if (eb <= 4 && s->mf->vr.v[r.v].w > 1)
			r = mpart(r.v, 0, 1);
		else if (eb == 8 && s->mf->vr.v[r.v].w == 2)
			r = mpart(r.v, 0, 2);
		return r;
	}
	if (load)
		return mref(-1);
	return eb == 8 ? sel_r64(s, o) : sel_r32(s, o, 0);
}

static int
param_access(Sel *s, const IrIns *x, const PSlot *p, int load)
{
	const PtxOperand *a = &x->p.opds[load ? 1 : 0], *v = &x->p.opds[load ? 0 : 1];
	PtxType t = (PtxType)x->p.types[0];
	int eb = ptx_type_size(t), n = v->kind == PTX_OPD_VEC ? v->nelems : 1, k;

	if (t == PTX_T_PRED || eb > 8 || !eb)
		return sel_unsupported(s, "a parameter access of this type");
	if (p->own && s->call->v_ap < 0)
		return sel_unsupported(s, "a kernel parameter accessed as a .func parameter");
	for (k = 0; k < n; k++) {
		const PtxOperand *e = v->kind == PTX_OPD_VEC ? &v->elems[k] : v;
		i32 off = p->off + (i32)a->imm + k * eb;
		MRef r;
		if (e->kind == PTX_OPD_SINK)
			continue;
		r = elem_reg(s, e, eb, load);
		if (r.v < 0 || (eb == 8 && s->mf->vr.v[r.v].w < 2))
			return sel_unsupported(s, "this parameter operand");
		emit_ls(s, load, load ? ld_op(eb, ptx_type_is_signed(t)) : st_op(eb), r, p->own, off);
		if (load)
			sel_widen_hi(s, e, eb, ptx_type_is_signed(t));
	}
	return 0;
}

/* The rule op would have without this table: the last one of the
 * families before it in isel.c's families[] (as isel_mbar.c does). */
static SelFn
mem_rule(int op)
{
	static const SelRule *const before[] = {
		sel_rules_int, sel_rules_float, sel_rules_mem, sel_rules_ctrl, sel_rules_cvt, sel_rules_atom,
		sel_rules_warp, sel_rules_intx, sel_rules_math, sel_rules_div, sel_rules_tensor, sel_rules_async,
	};
	/* the same answer for the process, as before[i] << 8 | the place
	   there, + 1: two bytes, not a pointer, as isel.c's rule_of */
	static u16 memo[PTX_NOPS];
	const SelRule *r;
	size_t i;

	if (!memo[op])
		for (i = 0; i < sizeof before / sizeof *before; i++)
			for (r = before[i]; r->fn; r++)
				if (r->op == op) {
					if (r - before[i] > 255)
						die("isel_call: more than 256 rules in a family");
					memo[op] = (u16)((i << 8 | (size_t)(r - before[i])) + 1);
				}
	if (!memo[op])
		die("isel_call: no rule for op %d before the call table", op);
	return before[(memo[op] - 1u) >> 8][(memo[op] - 1u) & 255].fn;
}

static int
is_param(const IrIns *x)
{
	return x->p.nspaces && x->p.space[0] == PTX_S_PARAM;
}

static int
sel_ld_param(Sel *s, const IrIns *x)
{
	const PSlot *p = is_param(x) && x->p.nopds > 1 ? find_slot(s, &x->p.opds[1]) : NULL;
	if (p)
		return param_access(s, x, p, 1);
	if (is_param(x) && !s->fn->is_entry && x->p.nopds > 1 && x->p.opds[1].kind == PTX_OPD_ADDR &&
	    x->p.opds[1].reg >= 0 && !x->p.opds[1].var) {
		/* ld.param through a register in a .func: the address of one of
		   its own parameters (own_param_addr), a local-window address
		   into its area, so an ld.local (LLVM's NVPTX back end reads a
		   struct passed by value so when it indexes it) */
		IrIns l = *x;
		l.p.space[0] = PTX_S_LOCAL;
		return mem_rule(PTX_OP_ld)(s, &l);
	}
	return mem_rule(PTX_OP_ld)(s, x);
}

static int
sel_st_param(Sel *s, const IrIns *x)
{
	const PSlot *p = is_param(x) && x->p.nopds > 1 ? find_slot(s, &x->p.opds[0]) : NULL;
	if (p)
		return param_access(s, x, p, 0);
	return mem_rule(PTX_OP_st)(s, x);
}

/* ---- calls to the CUDA system externals ----
 *
 * vprintf, malloc, free and __assertfail live in the driver.  ptxas calls
 * them through an address the driver writes into a c[0x4] slot at load
 * (R_CUDA_64 against an undefined FUNC symbol), with NVIDIA's register
 * ABI: arguments from R4 on in parameter order (a 64-bit one at an even
 * register), the result in R4 (R4:R5), the return address in R20:R21
 * (LEPC), R1 the stack pointer, everything else clobbered.  Here the
 * arguments are staged where st.param put them (the call site's area
 * below R1, as for a .func) and loaded into R4.. right before the call,
 * the result stored back to the area at the return point: between those
 * literal loads and the CALL nothing the allocator placed is live (ra.c
 * spills whatever lives across a CALL), so R2..R19 are free to use. */

const char *const sel_sys_names[4] = {"vprintf", "malloc", "free", "__assertfail"};

int
sel_sys_index(const PtxFunc *f)
{
	size_t i;

	if (!f || f->has_body || f->is_entry)
		return -1;
	for (i = 0; i < NELEM(sel_sys_names); i++)
		if (!strcmp(f->name, sel_sys_names[i]))
			return (int)i;
	return -1;
}

int
sel_module_externs(const PtxModule *m, const PtxFunc **out)
{
	int i, j, k, n = 0;
	u8 *called = xcalloc((size_t)m->nfuncs + 1, 1);

	for (i = 0; i < m->nfuncs; i++)
		for (j = 0; j < m->funcs[i]->ninstrs; j++) {
			const PtxInstr *in = &m->funcs[i]->instrs[j];
			const PtxOperand *t = in->nopds > 2 ? &in->opds[1] : NULL;
			if (in->op == PTX_OP_call && t && t->kind == PTX_OPD_SYM && t->symkind == PTX_SYM_FUNC &&
			    t->index >= 0 && t->index < m->nfuncs)
				called[t->index] = 1;
		}
	for (k = 0; k < m->nfuncs; k++)
		if (called[k] && sel_sys_index(m->funcs[k]) >= 0) {
			if (out)
				out[n] = m->funcs[k];
			n++;
		}
	free(called);
	return n;
}

int
sel_externs(Sel *s)
{
	if (!s->nmext)
		s->nmext = sel_module_externs(s->m, s->mext) + 1;
	return s->nmext - 1;
}

/* Append fmt to block b at position pos (unguarded). */
static void
put_at(MFunc *f, int b, size_t pos, const char *fmt, int target)
{
	int cur = f->cur, g = f->guard;
	u8 gn = f->guard_neg;
	MIns m;

	f->cur = b;
	f->guard = -1;
	f->guard_neg = 0;
	if (target >= 0)
		mi(f, fmt, target);
	else
		mi(f, "%s", fmt);
	m = f->b.v[b].ins.v[--f->b.v[b].ins.n];
	mir_insert(&f->b.v[b], pos, m);
	f->cur = cur;
	f->guard = g;
	f->guard_neg = gn;
}

static int
sel_call_sys(Sel *s, const IrIns *x, const PtxFunc *cf)
{
	int b = s->mf->cur, reg = 4, k, n, slot = -1, i;
	u32 roff[8], poff[8], a;
	char t[64];

	if (cf->nrets > 1 || cf->nparams > 6)
		return sel_unsupported(s, "a call to a system external with this signature");
	a = layout(cf->rets, cf->nrets, cf->params, cf->nparams, roff, poff);
	if (a > s->sys_area)
		s->sys_area = a;
	n = sel_externs(s);
	for (i = 0; i < n; i++)
		if (s->mext[i] == cf)
			slot = 8 * i;
	if (slot < 0)
		die("isel_call: extern %s has no c[0x4] slot", cf->name);
	if (b + 1 >= (int)s->mf->b.n)
		return sel_unsupported(s, "a call at the very end of a function");
	for (i = 0; i < s->next && s->ext[i] != sel_sys_index(cf); i++)
		;
	if (i == s->next)
		s->ext[s->next++] = (u8)sel_sys_index(cf);
	if (x->p.guard >= 0) {   /* @p call: branched around, as a .func call */
		s->mf->guard_neg ^= 1;
		mi(s->mf, "BRA %L", b + 1);
		s->mf->guard = -1;
		s->mf->guard_neg = 0;
	}
	for (k = 0; k < cf->nparams; k++) {
		u64 sz = cf->params[k].size;
		if (sz != 4 && sz != 8)
			return sel_unsupported(s, "a system external's parameter that is not 4 or 8 bytes");
		if (sz == 8)
			reg = (reg + 1) & ~1;
		str_printf(t, sizeof t, "%s R%d, [R1+-0x%x]", sz == 8 ? "LDL.64" : "LDL", reg, a - poff[k]);
		mi(s->mf, "%s", t);
		reg += (int)sz / 4;
	}
	if (slot)
		str_printf(t, sizeof t, "LDC.64 R2, c[0x4][0x%x]", slot);
	else
		str_printf(t, sizeof t, "LDC.64 R2, c[0x4][RZ]");
	mi(s->mf, "%s", t);
	if (s->sm >= 90) {
		mi(s->mf, "LEPC R20, %L", b + 1);   /* the return address */
	} else {
		/* LEPC has no label form on sm_80: LEPC's own address + 0x40 is
		 * the instruction after the CALL.  Nothing comes between: LEPC
		 * and CALL are fences to the scheduler (sched.c), the reconvergence
		 * pass puts its BSSY before the LEPC, and these read no vreg. */
		mi(s->mf, "LEPC R20");
		mi(s->mf, "IADD3 R20, P0, R20, 0x40, RZ");
		mi(s->mf, "IADD3.X R21, RZ, R21, RZ, P0, !PT");
	}
	mi(s->mf, "CALL.ABS.NOINC R2");
	/* at the return point: the memory descriptor again (uniform
	 * registers are clobbered), the result to the area */
	put_at(s->mf, b + 1, 0, s->sm >= 90 ? "ULDC.64 UR4, c[0x0][0x208]" : "ULDC.64 UR4, c[0x0][0x118]", -1);
	if (cf->nrets) {
		u64 sz = cf->rets[0].size;
		if (sz != 4 && sz != 8)
			return sel_unsupported(s, "a system external's result that is not 4 or 8 bytes");
		str_printf(t, sizeof t, "%s [R1+-0x%x], R4", sz == 8 ? "STL.64" : "STL", a - roff[0]);
		put_at(s->mf, b + 1, 1, t, -1);
	}
	return 0;
}

/* Placeholder targets until call_link knows where function fi starts. */
#define FUNC_MARK (-1000)

static int
func_index(const PtxModule *m, const PtxFunc *f)
{
	int i;

	for (i = 0; i < m->nfuncs && m->funcs[i] != f; i++)
		;
	return i < m->nfuncs ? i : -1;
}

int
sel_ftab_slots(const PtxModule *m, int *slot)
{
	int i, j, k, n = 0, data = 0;

	memset(slot, 0, sizeof *slot * (size_t)m->nfuncs);
	for (i = 0; i < m->nvars; i++)
		for (j = 0; j < m->vars[i]->nrelocs; j++) {
			const char *y = m->vars[i]->relocs[j].sym;
			if (!ptx_find_var(m, y) && (k = func_index(m, ptx_find_func(m, y))) >= 0)
				slot[k] = data = 1;
		}
	if (!data)
		return 0;
	for (i = 0; i < m->nfuncs; i++)   /* and those whose address code takes */
		for (j = 0; j < m->funcs[i]->ninstrs; j++) {
			const PtxInstr *in = &m->funcs[i]->instrs[j];
			for (k = 0; k < in->nopds && in->op != PTX_OP_call; k++)
				if (in->opds[k].kind == PTX_OPD_SYM && in->opds[k].symkind == PTX_SYM_FUNC &&
				    in->opds[k].index >= 0 && in->opds[k].index < m->nfuncs)
					slot[in->opds[k].index] = 1;
		}
	for (i = 0; i < m->nfuncs; i++)
		slot[i] = slot[i] && m->funcs[i]->has_body && !m->funcs[i]->is_entry ? 8 * ++n : 0;
	return n;
}

int
sel_ftab(Sel *s)
{
	if (!s->nfslot) {
		s->fslot = arena_alloc(s->mf->a, sizeof(int) * (size_t)(s->m->nfuncs + 1));
		s->nfslot = sel_ftab_slots(s->m, s->fslot) + 1;
	}
	return s->nfslot - 1;
}

static int
sel_call(Sel *s, const IrIns *x)
{
	const PtxFunc *cf = callee_of(s, &x->p);
	const PtxVar *rv, *pv;
	int b = s->mf->cur, nr, np;

	ctx(s);
	if (!cf && !proto_of(s, &x->p))
		return sel_unsupported(s, "a call through a register without a prototype");
	if (cf && sel_sys_index(cf) < 0 && (!cf->has_body || cf->is_entry))
		return sel_unsupported(s, "a call to a function without a body in this module");
	if (signature(s, &x->p, &rv, &nr, &pv, &np) < 0)
		return sel_unsupported(s, "a call whose parameters do not match the callee");
	if (cf && sel_sys_index(cf) >= 0)
		return sel_call_sys(s, x, cf);
	if (b + 1 >= (int)s->mf->b.n)
		return sel_unsupported(s, "a call at the very end of a function");
	if (x->p.guard >= 0) {
		/* @p call: branched around (the block is split after the
		 * branch by the reconvergence pass) */
		s->mf->guard_neg ^= 1;
		mi(s->mf, "BRA %L", b + 1);
		s->mf->guard = -1;
		s->mf->guard_neg = 0;
	}
	mi(s->mf, "MOV R20, %L", b + 1);   /* the callee RETs through its own pair {R20, 0} */
	if (cf) {
		mi(s->mf, "CALL.REL.NOINC %L", FUNC_MARK - x->p.opds[1].index);
	} else {
		/* a function pointer is the callee's offset in the section;
		 * CALL.REL.NOINC Rp 0x0 goes to the section start + Rp (as
		 * ptxas calls through pointers) */
		MRef p = sel_r32(s, &x->p.opds[1], 0);
		if (p.v < 0)
			return -1;
		if (sel_ftab(s)) {   /* a slot in bank 2 (sel_ftab) */
			MRef t = sel_tmp(s, 1);
			mi(s->mf, "LDC %D, c[0x2][%U]", t, p);
			p = t;
			s->indirect = 1;
		}
		mi(s->mf, "CALL.REL.NOINC %U 0x0", p);
	}
	return 0;
}

/* mov d, P(+off) of a .func's own parameter P: its address in the area
 * (the PTX ISA lets a function take its input parameters' addresses,
 * which ld.param reads through: sel_ld_param), a local-window address
 * like a .local variable's; 1 when done, 0 when P is not one. */
static int
own_param_addr(Sel *s, const PtxOperand *d, const PtxOperand *a)
{
	struct CallCtx *c;
	MRef r, lo;
	int i;

	if (s->fn->is_entry || d->kind != PTX_OPD_REG || (a->kind != PTX_OPD_SYM && a->kind != PTX_OPD_ADDR) ||
	    a->reg >= 0 || a->nelems || a->symkind != PTX_SYM_VAR || !a->var || a->var->space != PTX_S_PARAM ||
	    a->var < s->fn->params || a->var >= s->fn->params + s->fn->nparams)   /* not a return parameter */
		return 0;
	c = ctx(s);
	for (i = 0; i < c->nslot; i++)
		if (c->slot[i].v == a->var && c->slot[i].own)
			break;
	if (i == c->nslot)
		return 0;
	r = sel_reg(s, d->reg);
	lo = s->mf->vr.v[r.v].w > 1 ? mpart(r.v, 0, 1) : r;
	mi(s->mf, "IADD3 %D, %U, %x, RZ", lo, mref(c->v_ap), (i32)(c->slot[i].off + a->imm));
	if (s->mf->vr.v[r.v].w > 1)
		sel_mov32(s, mpart(r.v, 1, 1), mopd_reg(mref(s->mf->rz)));
	return 1;
}

/* mov of a function's address (for indirect calls) or of a .func's own
 * parameter (own_param_addr); other movs go on. */
static int
sel_mov_func(Sel *s, const IrIns *x)
{
	const PtxOperand *d = &x->p.opds[0], *a = x->p.nopds > 1 ? &x->p.opds[1] : NULL;
	MRef r;

	if (a && own_param_addr(s, d, a))
		return 0;
	if (!a || a->kind != PTX_OPD_SYM || a->symkind != PTX_SYM_FUNC || d->kind != PTX_OPD_REG)
		return mem_rule(PTX_OP_mov)(s, x);
	if (a->index < 0 || a->index >= s->m->nfuncs || !s->m->funcs[a->index]->has_body ||
	    s->m->funcs[a->index]->is_entry)
		return sel_unsupported(s, "the address of a function without a body in this module");
	r = sel_reg(s, d->reg);
	if (sel_ftab(s)) {   /* its slot in bank 2 */
		if (!s->fslot[a->index])
			die("function %s has no slot in bank 2", s->m->funcs[a->index]->name);
		mi(s->mf, "MOV %D, %h", s->mf->vr.v[r.v].w > 1 ? mpart(r.v, 0, 1) : r, (unsigned)s->fslot[a->index]);
		if (s->mf->vr.v[r.v].w > 1)
			sel_mov32(s, mpart(r.v, 1, 1), mopd_reg(mref(s->mf->rz)));
	} else if (s->mf->vr.v[r.v].w > 1) {
		mi(s->mf, "MOV %D, %L", mpart(r.v, 0, 1), FUNC_MARK - a->index);
		sel_mov32(s, mpart(r.v, 1, 1), mopd_reg(mref(s->mf->rz)));
	} else {
		mi(s->mf, "MOV %D, %L", r, FUNC_MARK - a->index);
	}
	return 0;
}

const SelRule sel_rules_call[] = {
	{PTX_OP_call, sel_call}, {PTX_OP_ld, sel_ld_param}, {PTX_OP_st, sel_st_param},
	{PTX_OP_mov, sel_mov_func},
	{0, NULL},
};

/* ---- linking the callees ---- */

/* Take the last instruction mi() appended to block b out again. */
static MIns
take_last(MFunc *f, int b)
{
	return f->b.v[b].ins.v[--f->b.v[b].ins.n];
}

static MIns
make(MFunc *f, int guard, u8 neg, const char *fmt, MRef a, MRef b)
{
	int g = f->guard, cur = f->cur;
	u8 gn = f->guard_neg;
	f->cur = 0;
	f->guard = guard;
	f->guard_neg = neg;
	if (b.v >= 0)
		mi(f, fmt, a, b);
	else if (a.v >= 0)
		mi(f, fmt, a);
	else
		mi(f, "%s", fmt);
	f->guard = g;
	f->guard_neg = gn;
	f->cur = cur;
	return take_last(f, 0);
}

/* A callee after isel: its entry sequence instead of the kernel
 * prologue, each return expanded, the final branch-to-self dropped. */
static void
callee_frame(MFunc *f, const struct CallCtx *c)
{
	MBlock *B0 = &f->b.v[0];
	MRef none = mref(-1), ra = mref(c->v_ra), ap = mref(c->v_ap);
	char t[64];
	size_t b, i;

	/* the kernel prologue, and a frame adjustment for .local variables
	 * (our frame F already covers the largest function's locals) */
	for (i = 0; i < B0->ins.n;) {
		const char *x = B0->ins.v[i].text;
		if (strstr(x, "R1, c[0x0][0x28]") || !strncmp(x, "ULDC.64 UR4,", 12) ||
		    !strncmp(x, "VIADD R1, R1,", 13) || !strncmp(x, "IADD3 R1, R1,", 13))
			memmove(&B0->ins.v[i], &B0->ins.v[i + 1], sizeof(MIns) * (--B0->ins.n - i));
		else
			i++;
	}
	f->frames = 1;
	str_printf(t, sizeof t, "IADD3 R1, R1, -FRAME-0x%x, RZ", c->area);
	mir_insert(B0, 0, make(f, -1, 0, t, none, none));
	mir_insert(&f->b.v[0], 1, make(f, -1, 0, "MOV %D, R20", ra, none));
	mir_insert(&f->b.v[0], 2, make(f, -1, 0, "IADD3 %D, R1, FRAME, RZ", ap, none));
	f->b.n--;   /* the branch-to-self */
	vec_free(&f->b.v[f->b.n].ins);
	for (b = 0; b < f->b.n; b++)
		for (i = 0; i < f->b.v[b].ins.n; i++) {
			MIns m = f->b.v[b].ins.v[i];
			int pair;
			if (strcmp(m.text, "RET.REL.NODEC R20 0x0"))
				continue;
			pair = mvreg(f, RC_R, 2);
			f->vr.v[pair].tmp = 1;
			str_printf(t, sizeof t, "IADD3 R1, R1, FRAME+0x%x, RZ", c->area);
			/* make() appends to block 0 first and may move its
			 * instructions: no address into them across the call */
			m = make(f, m.guard, m.guard_neg, "RET.REL.NODEC %U 0x0", mref(pair), none);
			f->b.v[b].ins.v[i] = m;
			mir_insert(&f->b.v[b], i, make(f, m.guard, m.guard_neg, t, none, none));
			mir_insert(&f->b.v[b], i, make(f, m.guard, m.guard_neg, "MOV %D, RZ", mpart(pair, 1, 1), none));
			mir_insert(&f->b.v[b], i, make(f, m.guard, m.guard_neg, "MOV %D, %U", mpart(pair, 0, 1), ra));
			i += 3;
		}
}

/* Append src's blocks and vregs to dst (before dst's last block). */
static int
append(MFunc *dst, const MFunc *src, int *vmap)
{
	int base = (int)dst->b.n, v;
	size_t b, i;
	int k;

	dst->frames |= src->frames;
	for (v = 0; v < (int)src->vr.n; v++) {
		const MVreg *x = &src->vr.v[v];
		if (v == src->rz)
			vmap[v] = dst->rz;
		else if (v == src->pt)
			vmap[v] = dst->pt;
		else {
			vmap[v] = mvreg(dst, x->cls, x->w);
			dst->vr.v[vmap[v]].tmp = x->tmp;
			dst->vr.v[vmap[v]].fixed = x->fixed;
			dst->vr.v[vmap[v]].phys = x->phys;
		}
	}
	for (b = 0; b < src->b.n; b++) {
		MBlock nb = {0};
		const MBlock *S = &src->b.v[b];
		nb.succ[0] = S->succ[0] < 0 ? -1 : S->succ[0] + base;
		nb.succ[1] = S->succ[1] < 0 ? -1 : S->succ[1] + base;
		nb.loop_depth = S->loop_depth;
		for (i = 0; i < S->ins.n; i++) {
			MIns m = S->ins.v[i];
			for (k = 0; k < m.nr; k++)
				m.r[k].v = vmap[m.r[k].v];
			if (m.guard >= 0)
				m.guard = vmap[m.guard];
			if (m.target >= 0)
				m.target += base;
			vec_push(&nb.ins, m);
		}
		vec_push(&dst->b, nb);
	}
	return base;
}

typedef struct {
	int *entry;       /* per module function: first block, -1 */
} Link;

/* A placeholder of ours (other passes have marks of their own, e.g.
 * isel_seq.c's joins far below): the function it names, or -1. */
static int
mark_func(const MFunc *f, int t, int nfuncs)
{
	(void)f;
	return t <= FUNC_MARK && t > FUNC_MARK - nfuncs ? FUNC_MARK - t : -1;
}

/* The first function a placeholder names that is not linked yet, else
 * (after an indirect call through bank 2) the first address-taken one
 * not linked yet, or -1. */
static int
unlinked(const Sel *s, const Link *l)
{
	const MFunc *f = s->mf;
	size_t b, i;
	int fi;

	for (b = 0; b < f->b.n; b++)
		for (i = 0; i < f->b.v[b].ins.n; i++) {
			fi = mark_func(f, f->b.v[b].ins.v[i].target, s->m->nfuncs);
			if (fi >= 0 && l->entry[fi] < 0)
				return fi;
		}
	for (fi = 0; s->indirect && fi < s->m->nfuncs; fi++)
		if (s->fslot[fi] && l->entry[fi] < 0)
			return fi;
	return -1;
}

static int
has_marks(const MFunc *f, int nfuncs)
{
	size_t b, i;
	for (b = 0; b < f->b.n; b++)
		for (i = 0; i < f->b.v[b].ins.n; i++)
			if (mark_func(f, f->b.v[b].ins.v[i].target, nfuncs) >= 0)
				return 1;
	return 0;
}

/* Select function fi and append it to s->mf. */
static int
link_one(Sel *s, Link *l, int fi)
{
	const PtxFunc *fn = s->m->funcs[fi];
	IrFunc ir;
	MFunc cf;
	Sel cs;
	int rc = -1, *vmap, base;

	if (ir_build(&ir, s->m, fn, s->mf->a) < 0) {
		ir_free(&ir);
		return -1;
	}
	ir_dce(&ir);
	mfunc_init(&cf, s->mf->a);
	memset(&cs, 0, sizeof cs);
	cs.mf = &cf;
	cs.ir = &ir;
	cs.m = s->m;
	cs.fn = fn;
	cs.sm = s->sm;
	cs.param_base = s->param_base;
	cs.param_off = arena_alloc(s->mf->a, sizeof(u32) * (size_t)(fn->nparams + 1));
	sel_ftab(s);
	cs.fslot = s->fslot;
	cs.nfslot = s->nfslot;
	ctx(&cs);
	sel_shared_inherit(&cs, s);
	if (isel_func(&cs) == 0) {
		seq_link(&cf);   /* as compile.c does for the kernel */
		callee_frame(&cf, cs.call);
		vmap = xcalloc(cf.vr.n + 1, sizeof *vmap);
		base = append(s->mf, &cf, vmap);
		l->entry[fi] = base;
		s->mf->b.v[base].func = fi + 1;
		s->indirect |= cs.indirect;
		free(vmap);
		if (cs.local_size > s->local_size)
			s->local_size = cs.local_size;
		if (cs.barriers > s->barriers)
			s->barriers = cs.barriers;
		if (cs.sys_area > s->sys_area)
			s->sys_area = cs.sys_area;
		for (int e = 0; e < cs.next; e++) {   /* its system externals are the kernel's too */
			int j;
			for (j = 0; j < s->next && s->ext[j] != cs.ext[e]; j++)
				;
			if (j == s->next)
				s->ext[s->next++] = cs.ext[e];
		}
		s->uses_shared |= cs.uses_shared;
		s->reserved_smem |= cs.reserved_smem;
		rc = 0;
	}
	vec_free(&cs.shared_vars);
	vec_free(&cs.shared_offs);
	vec_free(&cs.local_vars);
	vec_free(&cs.local_offs);
	mfunc_free(&cf);
	ir_free(&ir);
	return rc;
}

int
call_link(Sel *s)
{
	Link l = {0};
	MBlock last;
	int rc = 0, i, fi;
	size_t b, k;

	if (!has_marks(s->mf, s->m->nfuncs) && !s->indirect)
		return 0;
	l.entry = xcalloc((size_t)s->m->nfuncs + 1, sizeof *l.entry);
	for (i = 0; i < s->m->nfuncs; i++)
		l.entry[i] = -1;
	last = s->mf->b.v[--s->mf->b.n];   /* the branch-to-self goes last again */
	while (!rc && (fi = unlinked(s, &l)) >= 0)
		rc = link_one(s, &l, fi);
	vec_push(&s->mf->b, last);
	{
		MBlock *L = &s->mf->b.v[s->mf->b.n - 1];
		L->succ[1] = (int)s->mf->b.n - 1;
		for (k = 0; k < L->ins.n; k++)
			L->ins.v[k].target = (int)s->mf->b.n - 1;
	}
	for (b = 0; b < s->mf->b.n && !rc; b++)
		for (k = 0; k < s->mf->b.v[b].ins.n; k++) {
			MIns *m = &s->mf->b.v[b].ins.v[k];
			if ((fi = mark_func(s->mf, m->target, s->m->nfuncs)) >= 0)
				m->target = l.entry[fi];
		}
	free(l.entry);
	return rc;
}
