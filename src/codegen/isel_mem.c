/* isel_mem.c -- loads, stores and addresses: kernel parameters (constant
 * bank 0), global, shared, local and generic memory, cvta, and the
 * addresses of variables. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "codegen/isel.h"

#define D0 (&x->p.opds[0])
#define S1 (&x->p.opds[1])

static int
param_index(Sel *s, const PtxVar *v)
{
	int i;
	for (i = 0; i < s->fn->nparams; i++)
		if (&s->fn->params[i] == v)
			return i;
	return -1;
}

/* The destination registers of a load (or sources of a store): a list of
 * 32-bit parts, from a scalar register or a {a, b, c, d} vector. */
typedef struct {
	MRef part[8];
	int n;
} Parts;

static int
parts_of(Sel *s, const PtxOperand *o, int bytes, Parts *p, int src)
{
	int i, k;

	p->n = 0;
	if (o->kind == PTX_OPD_VEC) {
		for (i = 0; i < o->nelems; i++) {
			const PtxOperand *e = &o->elems[i];
			int w = bytes <= 4 ? 1 : bytes / 4;
			for (k = 0; k < w; k++) {
				if (e->kind == PTX_OPD_SINK)
					p->part[p->n++] = sel_tmp(s, 1);
				else if (src || e->kind == PTX_OPD_REG)
					p->part[p->n++] = src ? sel_r32(s, e, k) : (w > 1 || s->mf->vr.v[sel_reg(s, e->reg).v].w > 1 ? mpart(sel_reg(s, e->reg).v, k, 1) : sel_reg(s, e->reg));
				else
					return sel_unsupported(s, "this vector element");
			}
		}
		return 0;
	}
	{
		int w = bytes <= 4 ? 1 : bytes / 4;
		for (k = 0; k < w; k++) {
			if (src)
				p->part[p->n++] = sel_r32(s, o, k);
			else {
				MRef r = sel_reg(s, o->reg);
				p->part[p->n++] = s->mf->vr.v[r.v].w > 1 ? mpart(r.v, k, 1) : r;
			}
		}
	}
	return 0;
}

static int
elem_bytes(const IrIns *x)
{
	return ptx_type_size((PtxType)x->p.types[0]);
}

/* ld.param of a kernel parameter: constant bank 0. */
static int
ld_param(Sel *s, const IrIns *x)
{
	const PtxOperand *a = S1;
	int pi = a->var ? param_index(s, a->var) : -1, i, eb = elem_bytes(x);
	Parts p;
	u32 off;
	char t[48];

	if (a->kind != PTX_OPD_ADDR || pi < 0 || !s->fn->is_entry)
		return sel_unsupported(s, "ld.param of something other than a kernel parameter");
	off = s->param_base + s->param_off[pi] + (u32)a->imm;
	if (parts_of(s, D0, eb, &p, 0) < 0)
		return -1;
	if (eb < 4) {
		const char *sz = eb == 1 ? (ptx_type_is_signed((PtxType)x->p.types[0]) ? ".S8" : ".U8")
					 : (ptx_type_is_signed((PtxType)x->p.types[0]) ? ".S16" : ".U16");
		for (i = 0; i < p.n; i++) {
			snprintf(t, sizeof t, "c[0x0][0x%" PRIx32 "]", off + (u32)(i * eb));
			mi(s->mf, "LDC%s %D, %s", sz, p.part[i], t);
		}
		return 0;
	}
	for (i = 0; i < p.n; i++) {
		snprintf(t, sizeof t, "c[0x0][0x%" PRIx32 "]", off + 4u * (u32)i);
		if (s->sm >= 90)
			mi(s->mf, "LDC %D, %s", p.part[i], t);
		else
			mi(s->mf, "MOV %D, %s", p.part[i], t);
	}
	return 0;
}

static const char *
size_suffix(int bytes, int is_signed)
{
	switch (bytes) {
	case 1: return is_signed ? ".S8" : ".U8";
	case 2: return is_signed ? ".S16" : ".U16";
	case 8: return ".64";
	case 16: return ".128";
	}
	return "";
}

/* "+0x10" / "-0x10" / "" */
static void
offtxt(char *t, size_t n, i64 off)
{
	if (!off)
		t[0] = 0;
	else if (off < 0)
		snprintf(t, n, "-0x%" PRIx64, (u64)-off);
	else
		snprintf(t, n, "+0x%" PRIx64, (u64)off);
}

static int
space_of(const IrIns *x)
{
	return x->p.nspaces ? x->p.space[0] : PTX_S_GENERIC;
}

/* Shared variables: offsets in the CTA's shared window. */
static u32
shared_addr(Sel *s, const PtxVar *v)
{
	size_t i;
	u32 off, al;

	for (i = 0; i < s->shared_vars.n; i++)
		if (s->shared_vars.v[i] == v)
			return s->shared_offs.v[i];
	al = v->align ? v->align : 4;
	off = (s->shared_size + al - 1) / al * al;
	vec_push(&s->shared_vars, v);
	vec_push(&s->shared_offs, off);
	s->shared_size = off + (u32)v->size;
	s->uses_shared = 1;
	return off;
}

/* The 32-bit shared-window address of a shared variable (+off) in a register. */
static MRef
shared_base(Sel *s, const PtxVar *v, i64 off)
{
	MRef r = sel_tmp(s, 1);
	u32 a = shared_addr(s, v) + (u32)off;
	if (s->sm >= 90) {
		/* shared::cta addresses carry the CTA's rank in its cluster (bits 24..) */
		MRef c = sel_tmp(s, 1);
		mi(s->mf, "S2R %D, SR_CgaCtaId", c);
		mi(s->mf, "MOV %D, %x", r, (i32)(0x400 + a));
		mi(s->mf, "LEA %D, %U, %U, 0x18", r, c, r);
	} else {
		mi(s->mf, "MOV %D, %x", r, (i32)a);
	}
	return r;
}

typedef struct {
	MRef base;   /* address register (64-bit pair for global/generic) */
	i64 off;
} Addr;

static int
address(Sel *s, const IrIns *x, const PtxOperand *a, int space, Addr *ad)
{
	if (a->kind != PTX_OPD_ADDR)
		return sel_unsupported(s, "this address operand");
	ad->off = a->imm;
	if (a->reg >= 0) {
		MRef r = sel_reg(s, a->reg);
		if (space == PTX_S_SHARED || space == PTX_S_LOCAL)
			ad->base = s->mf->vr.v[r.v].w > 1 ? mpart(r.v, 0, 1) : r;
		else if (s->mf->vr.v[r.v].w == 2)
			ad->base = mpart(r.v, 0, 2);
		else
			return sel_unsupported(s, "a 32-bit register as a global/generic address");
		return 0;
	}
	if (a->var && a->var->space == PTX_S_SHARED && space == PTX_S_SHARED) {
		ad->base = shared_base(s, a->var, 0);
		return 0;
	}
	(void)x;
	return sel_unsupported(s, "this address (a symbol other than a shared variable)");
}

static int
sel_ld(Sel *s, const IrIns *x)
{
	int sp = space_of(x), eb = elem_bytes(x), i, n, tot;
	int sg = ptx_type_is_signed((PtxType)x->p.types[0]);
	Parts p;
	Addr ad;
	char o[32];
	MRef t;

	if (sp == PTX_S_PARAM)
		return ld_param(s, x);
	if (sp != PTX_S_GLOBAL && sp != PTX_S_SHARED && sp != PTX_S_GENERIC)
		return sel_unsupported(s, "ld from this state space");
	if (x->p.flags & PTX_F_VOLATILE || x->p.sem > PTX_SEM_WEAK)
		return sel_unsupported(s, "volatile/relaxed/acquire loads");
	if (address(s, x, S1, sp, &ad) < 0 || parts_of(s, D0, eb, &p, 0) < 0)
		return -1;
	n = p.n;
	tot = eb * (x->p.vec ? x->p.vec : 1);
	if (eb < 4 && x->p.vec > 1)
		return sel_unsupported(s, "vector loads of 8/16-bit elements");
	offtxt(o, sizeof o, ad.off);
	t = n == 1 ? p.part[0] : sel_tmp(s, n);
	if (sp == PTX_S_SHARED)
		mi(s->mf, "LDS%s %D, [%U%s]", size_suffix(tot, sg), t, ad.base, o);
	else
		mi(s->mf, "%s%s%s %D, %s[%U.64%s]", sp == PTX_S_GENERIC ? "LD.E" : "LDG.E",
		   x->p.flags & PTX_F_NC ? ".CONSTANT" : "", size_suffix(tot, sg), t, sel_gdesc(s), ad.base, o);
	if (n > 1)
		for (i = 0; i < n; i++)
			sel_mov32(s, p.part[i], mopd_reg(mpart(t.v, i, 1)));
	return 0;
}

static int
sel_st(Sel *s, const IrIns *x)
{
	int sp = space_of(x), eb = elem_bytes(x), i, n, tot;
	Parts p;
	Addr ad;
	char o[32];
	MRef t;

	if (sp != PTX_S_GLOBAL && sp != PTX_S_SHARED && sp != PTX_S_GENERIC)
		return sel_unsupported(s, "st to this state space");
	if (x->p.flags & PTX_F_VOLATILE || x->p.sem > PTX_SEM_WEAK)
		return sel_unsupported(s, "volatile/relaxed/release stores");
	if (address(s, x, D0, sp, &ad) < 0 || parts_of(s, &x->p.opds[1], eb, &p, 1) < 0)
		return -1;
	n = p.n;
	tot = eb * (x->p.vec ? x->p.vec : 1);
	if (eb < 4 && x->p.vec > 1)
		return sel_unsupported(s, "vector stores of 8/16-bit elements");
	offtxt(o, sizeof o, ad.off);
	t = p.part[0];
	if (n > 1) {
		t = sel_tmp(s, n);
		for (i = 0; i < n; i++)
			sel_mov32(s, mpart(t.v, i, 1), mopd_reg(p.part[i]));
	}
	if (sp == PTX_S_SHARED)
		mi(s->mf, "STS%s [%U%s], %U", size_suffix(tot, 0), ad.base, o, t);
	else
		mi(s->mf, "%s%s %s[%U.64%s], %U", sp == PTX_S_GENERIC ? "ST.E" : "STG.E", size_suffix(tot, 0),
		   sel_gdesc(s), ad.base, o, t);
	return 0;
}

/* cvta.to.global / cvta.global: global and generic addresses coincide. */
static int
sel_cvta(Sel *s, const IrIns *x)
{
	int sp = x->p.nspaces ? x->p.space[0] : PTX_S_NONE, k;
	MRef d;

	if (sp != PTX_S_GLOBAL || D0->kind != PTX_OPD_REG || x->p.opds[1].kind != PTX_OPD_REG)
		return sel_unsupported(s, "cvta other than to/from .global of a register");
	d = sel_reg(s, D0->reg);
	for (k = 0; k < s->mf->vr.v[d.v].w; k++)
		sel_mov32(s, mpart(d.v, k, 1), mopd_reg(sel_r32(s, &x->p.opds[1], k)));
	return 0;
}

const SelRule sel_rules_mem[] = {
	{PTX_OP_ld, sel_ld}, {PTX_OP_st, sel_st}, {PTX_OP_cvta, sel_cvta},
	{0, NULL},
};
