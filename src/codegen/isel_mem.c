/* isel_mem.c -- loads, stores and addresses: kernel parameters (constant
 * bank 0), global, shared (static and extern dynamic), local (a stack
 * frame below R1) and generic memory with every width, vectors and
 * ptxas's ordering/cache modifiers; mov of variable addresses; cvta
 * between generic and the shared/local windows; mov pack/unpack.
 * Sequences follow ptxas 13.0 (docs/compiler-mem.md). */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/isel.h"

/* Does the function use TMA (cp.async.bulk.tensor and kin)?  For a more
 * precise message about the parameter address they take on sm_80. */
static int
uses_tma(Sel *s)
{
	size_t b, i;

	for (b = 0; b < s->ir->b.n; b++)
		for (i = 0; i < s->ir->b.v[b].ins.n; i++) {
			int op = s->ir->b.v[b].ins.v[i].p.op;
			if (op == PTX_OP_cp_async_bulk_tensor || op == PTX_OP_cp_async_bulk_prefetch_tensor ||
			    op == PTX_OP_cp_reduce_async_bulk_tensor)
				return 1;
		}
	return 0;
}
#include "cubin/build_data.h"
#include "ptx/arith.h"

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

static MRef
part_of(Sel *s, MRef r, int k)
{
	return s->mf->vr.v[r.v].w > 1 ? mpart(r.v, k, 1) : r;
}

/* The registers of a load's destination (or a store's source): one list
 * entry per element, each w 32-bit parts (w = 2 for 64-bit elements). */
typedef struct {
	MRef part[8];
	int n;
} Parts;

static int
parts_of(Sel *s, const PtxOperand *o, int bytes, Parts *p, int src)
{
	int w = bytes <= 4 ? 1 : bytes / 4, ne = o->kind == PTX_OPD_VEC ? o->nelems : 1, i, k;

	p->n = 0;
	for (i = 0; i < ne; i++) {
		const PtxOperand *e = o->kind == PTX_OPD_VEC ? &o->elems[i] : o;
		for (k = 0; k < w; k++) {
			if (p->n >= 8)
				return sel_unsupported(s, "a vector this wide");
			if (e->kind == PTX_OPD_SINK)
				p->part[p->n++] = sel_tmp(s, 1);
			else if (src)
				p->part[p->n++] = sel_r32(s, e, k);
			else if (e->kind == PTX_OPD_REG)
				p->part[p->n++] = part_of(s, sel_reg(s, e->reg), k);
			else
				return sel_unsupported(s, "this vector element");
			if (p->part[p->n - 1].v < 0)
				return -1;
		}
	}
	return 0;
}

static PtxType
ty(const IrIns *x)
{
	return (PtxType)x->p.types[0];
}

static int
elem_bytes(const IrIns *x)
{
	return ptx_type_size(ty(x));
}

/* A narrow scalar d loaded into a 64-bit register: widen the high part. */
void
sel_widen_hi(Sel *s, const PtxOperand *d, int eb, int sg)
{
	MRef r;
	if (eb >= 8 || d->kind != PTX_OPD_REG)
		return;
	r = sel_reg(s, d->reg);
	if (s->mf->vr.v[r.v].w != 2)
		return;
	if (sg)
		mi(s->mf, "SHF.R.S32.HI %D, RZ, 0x1f, %U", mpart(r.v, 1, 1), mpart(r.v, 0, 1));
	else
		mi(s->mf, "MOV %D, 0x0", mpart(r.v, 1, 1));
}

/* ld.param of a kernel parameter: constant bank 0.  Through an address
 * register (a by-value struct's array indexed at run time: nvcc's
 * `mov.b64 %rd, param; add; ld.param [%rd+off]`), the register holds an
 * offset in the parameter space (var_addr): LDC c[0x0][R+base+off], as
 * ptxas. */
static int
ld_param(Sel *s, const IrIns *x)
{
	const PtxOperand *a = S1;
	int pi = a->var ? param_index(s, a->var) : -1, i, eb = elem_bytes(x), sg = ptx_type_is_signed(ty(x));
	const char *sz = eb == 1 ? (sg ? ".S8" : ".U8") : eb == 2 ? (sg ? ".S16" : ".U16") : "";
	Parts p;
	MRef r = mref(-1);
	u32 off;

	if (a->kind != PTX_OPD_ADDR || !s->fn->is_entry || (a->reg < 0 && pi < 0) || (a->reg >= 0 && a->var))
		return sel_unsupported(s, "ld.param of something other than a kernel parameter");
	if (a->reg >= 0) {
		r = sel_reg(s, a->reg);
		if (s->mf->vr.v[r.v].w > 1)
			r = mpart(r.v, 0, 1);
		off = s->param_base + (u32)a->imm;
	} else
		off = s->param_base + s->param_off[pi] + (u32)a->imm;
	if (off % (u32)MIN(eb, 4))   /* undefined in PTX; the constant bank cannot encode it */
		return sel_unsupported(s, "an ld.param at an offset not aligned to its size");
	if (parts_of(s, D0, eb, &p, 0) < 0)
		return -1;
	for (i = 0; i < p.n; i++) {
		u32 o = off + (u32)(i * (eb < 4 ? eb : 4));
		if (r.v >= 0)
			mi(s->mf, "LDC%s %D, c[0x0][%U+%h]", sz, p.part[i], r, o);
		else if (eb < 4 || s->sm >= 90)
			mi(s->mf, "LDC%s %D, c[0x0][%h]", sz, p.part[i], o);
		else
			mi(s->mf, "MOV %D, c[0x0][%h]", p.part[i], o);
	}
	sel_widen_hi(s, D0, eb, ptx_type_is_signed(ty(x)));
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

static int
space_of(const IrIns *x)
{
	return x->p.nspaces ? x->p.space[0] : PTX_S_GENERIC;
}

/* ---- shared variables ---- */

static void
shared_place(Sel *s, const PtxVar *v, u32 al)
{
	size_t i;
	u32 off;

	for (i = 0; i < s->shared_vars.n; i++)
		if (s->shared_vars.v[i] == v)
			return;
	off = (s->shared_size + al - 1) / al * al;
	vec_push(&s->shared_vars, v);
	vec_push(&s->shared_offs, off);
	s->shared_size = off + (u32)v->size;
}

typedef VEC(const PtxVar *) VarVec;

/* A static shared variable is placed as it is named; extern ones (size
 * 0) are gathered in ext, in order of first use, for later. */
static void
shared_name(Sel *s, const PtxVar *v, VarVec *ext)
{
	size_t k;

	if (v->size) {
		shared_place(s, v, v->align ? v->align : 1);
		return;
	}
	for (k = 0; k < ext->n && ext->v[k] != v; k++)
		;
	if (k == ext->n)
		vec_push(ext, v);
}

static void
shared_scan_opd(Sel *s, const PtxOperand *o, VarVec *ext)
{
	int i;
	const PtxVar *v = o->var;

	if ((o->kind == PTX_OPD_ADDR || o->kind == PTX_OPD_SYM) && v && v->space == PTX_S_SHARED)
		shared_name(s, v, ext);
	if (o->kind == PTX_OPD_VEC || o->kind == PTX_OPD_ADDR)
		for (i = 0; i < o->nelems; i++)
			shared_scan_opd(s, &o->elems[i], ext);
}

/* Function fi and every function it names (calls, addresses taken; after
 * an indirect call: all of them) to reach[] (module order). */
static void
shared_reach(const PtxModule *m, int fi, u8 *reach)
{
	const PtxFunc *fn = m->funcs[fi];
	int i, k, j;

	if (reach[fi])
		return;
	reach[fi] = 1;
	for (i = 0; i < fn->ninstrs; i++) {
		const PtxInstr *in = &fn->instrs[i];
		if (in->op == PTX_OP_call && in->nopds > 1 && in->opds[1].kind == PTX_OPD_REG)
			for (j = 0; j < m->nfuncs; j++)
				if (!m->funcs[j]->is_entry && m->funcs[j]->has_body)
					shared_reach(m, j, reach);
		for (k = 0; k < in->nopds; k++) {
			const PtxOperand *o = &in->opds[k];
			if ((o->kind == PTX_OPD_SYM || o->kind == PTX_OPD_ADDR) && o->symkind == PTX_SYM_FUNC &&
			    o->index >= 0 && o->index < m->nfuncs && m->funcs[o->index]->has_body)
				shared_reach(m, o->index, reach);
		}
	}
}

/* The shared variables of the functions s's function reaches. */
static void
shared_scan_reached(Sel *s, VarVec *ext)
{
	const PtxModule *m = s->m;
	u8 *reach = xcalloc((size_t)m->nfuncs + 1, 1);
	int fi, i, k;

	for (fi = 0; fi < m->nfuncs && m->funcs[fi] != s->fn; fi++)
		;
	if (fi < m->nfuncs)
		shared_reach(m, fi, reach);
	for (fi = 0; fi < m->nfuncs; fi++)
		if (reach[fi] && m->funcs[fi] != s->fn)
			for (i = 0; i < m->funcs[fi]->ninstrs; i++)
				for (k = 0; k < m->funcs[fi]->instrs[i].nopds; k++)
					shared_scan_opd(s, &m->funcs[fi]->instrs[i].opds[k], ext);
	free(reach);
}

/* The shared variables the function names, in order of first use, then
 * those of the functions it reaches. */
static void
shared_walk(Sel *s, VarVec *ext)
{
	size_t b, i;
	int k;

	for (b = 0; b < s->ir->b.n; b++)
		for (i = 0; i < s->ir->b.v[b].ins.n; i++) {
			const IrIns *x = &s->ir->b.v[b].ins.v[i];
			if (x->dead)
				continue;
			for (k = 0; k < x->p.nopds; k++) {
				const PtxOperand *o = &x->p.opds[k];
				if (o->kind == PTX_OPD_ADDR || o->kind == PTX_OPD_SYM || o->kind == PTX_OPD_VEC)
					shared_scan_opd(s, o, ext);
			}
		}
	if (s->m->nfuncs > 1)   /* else it reaches no other */
		shared_scan_reached(s, ext);
}

/* Is v the only shared variable of the module (all scopes)? */
static int
only_shared(const PtxModule *m, const PtxVar *v)
{
	int i, f;

	for (i = 0; i < m->nvars; i++)
		if (m->vars[i]->space == PTX_S_SHARED && m->vars[i] != v)
			return 0;
	for (f = 0; f < m->nfuncs; f++)
		for (i = 0; i < m->funcs[f]->nlocals; i++)
			if (m->funcs[f]->locals[i]->space == PTX_S_SHARED && m->funcs[f]->locals[i] != v)
				return 0;
	return 1;
}

/* Lay out every shared variable the function names, in order of first
 * use, then those of the functions it reaches (called functions use the
 * kernel's layout, sel_shared_inherit); extern (dynamic, size 0) arrays
 * all start after the static ones, whose size is rounded to 16 (ptxas's
 * .nv.shared size; the driver puts dynamic shared memory right after
 * it).  Only address, symbol and vector operands can name a variable.
 * named (or NULL): a variable the function names; when it is the
 * module's only one, the walk could find no other. */
static void
shared_layout(Sel *s, const PtxVar *named)
{
	VarVec ext = {0};
	size_t i;
	u32 stat;

	if (s->shared_vars.n)
		return;
	if (named && only_shared(s->m, named))
		shared_name(s, named, &ext);
	else
		shared_walk(s, &ext);
	/* as ptxas: the static size rounded to 16, then dynamic */
	stat = s->shared_size = (s->shared_size + 15) / 16 * 16;
	for (i = 0; i < ext.n; i++)
		shared_place(s, ext.v[i], ext.v[i]->align ? ext.v[i]->align : 1);
	vec_free(&ext);
	s->shared_size = stat;
}

/* A function called from the kernel s selects in cs with the kernel's
 * layout (which holds its variables); the kernel uses shared memory when
 * a callee does. */
void
sel_shared_inherit(Sel *cs, Sel *s)
{
	size_t i;

	shared_layout(s, NULL);
	for (i = 0; i < s->shared_vars.n; i++) {
		vec_push(&cs->shared_vars, s->shared_vars.v[i]);
		vec_push(&cs->shared_offs, s->shared_offs.v[i]);
	}
	cs->shared_size = s->shared_size;
}

static u32
shared_addr(Sel *s, const PtxVar *v)
{
	size_t i;

	shared_layout(s, v);
	s->uses_shared = 1;
	for (i = 0; i < s->shared_vars.n; i++)
		if (s->shared_vars.v[i] == v)
			return s->shared_offs.v[i];
	die("shared variable %s was not laid out", v->name);
	return 0;
}

/* The 32-bit shared-window address of a shared variable (+off) in a
 * register.  sm_90: shared::cta addresses carry the CTA's rank in its
 * cluster at bit 24, after ptxas's 1 KiB reserve. */
/* sm_90: the CTA's shared window base (rank << 24) + 0x400, computed
 * once at the function's entry (right after the prologue in block 0: a
 * spill of it needs the stack pointer) and kept in one vreg. */
static MRef
shared_window(Sel *s)
{
	MFunc *f = s->mf;
	MBlock *B;
	MIns m1, m2;
	int cur = f->cur, g = f->guard, gn = f->guard_neg;
	size_t at;
	MRef c, w;

	if (s->swin > 0)
		return mref(s->swin - 1);
	c = sel_tmp(s, 1);
	w = sel_tmp(s, 1);
	f->cur = 0;
	f->guard = -1;
	f->guard_neg = 0;
	mi(f, "S2R %D, SR_CgaCtaId", c);
	mi(f, "LEA %D, %U, 0x400, 0x18", w, c);
	f->cur = cur;
	f->guard = g;
	f->guard_neg = (u8)gn;
	B = &f->b.v[0];
	m2 = B->ins.v[--B->ins.n];
	m1 = B->ins.v[--B->ins.n];
	at = sel_prologue_end(B);
	mir_insert(B, at, m1);
	mir_insert(B, at + 1, m2);
	s->swin = w.v + 1;
	return w;
}

static MRef
shared_base(Sel *s, const PtxVar *v, i64 off)
{
	MRef r = sel_tmp(s, 1);
	u32 a = shared_addr(s, v) + (u32)off;
	if (s->sm >= 90) {
		MRef w = shared_window(s);
		if (a)
			mi(s->mf, "IADD3 %D, %U, %x, RZ", r, w, (i32)a);
		else
			sel_mov32(s, r, mopd_reg(w));
	} else {
		mi(s->mf, "MOV %D, %h", r, (unsigned)a);
	}
	return r;
}

/* ---- local variables: a frame below the stack pointer R1 ---- */

static int
local_find(Sel *s, const PtxVar *v, u32 *off)
{
	size_t i;
	for (i = 0; i < s->local_vars.n; i++)
		if (s->local_vars.v[i] == v) {
			*off = s->local_offs.v[i];
			return 1;
		}
	return 0;
}

/* Insert `R1 -= frame` after the prologue's load of R1 (block 0). */
static void
frame_insert(Sel *s, u32 frame)
{
	int cur = s->mf->cur, g = s->mf->guard, gn = s->mf->guard_neg;
	MBlock *b0;
	MIns m;
	size_t i, at = 0;

	s->mf->guard = -1;
	s->mf->guard_neg = 0;
	if (s->sm >= 90)
		mi(s->mf, "VIADD R1, R1, %h", (unsigned)-frame);
	else
		mi(s->mf, "IADD3 R1, R1, %x, RZ", (i32)-frame);
	s->mf->guard = g;
	s->mf->guard_neg = (u8)gn;
	m = s->mf->b.v[cur].ins.v[--s->mf->b.v[cur].ins.n];
	b0 = &s->mf->b.v[0];
	for (i = 0; i < b0->ins.n; i++)
		if (!strncmp(b0->ins.v[i].text, "LDC R1,", 7) || !strncmp(b0->ins.v[i].text, "MOV R1,", 7)) {
			at = i + 1;
			break;
		}
	mir_insert(b0, at, m);
}

/* Lay out every function-scope .local variable once (the frame). */
static void
local_layout(Sel *s)
{
	int i;
	u32 size = 0, al, maxal = 8;

	if (s->local_vars.n)
		return;
	for (i = 0; i < s->fn->nlocals; i++) {
		const PtxVar *v = s->fn->locals[i];
		if (v->space != PTX_S_LOCAL)
			continue;
		al = v->align ? v->align : 1;
		maxal = al > maxal ? al : maxal;
		size = (size + al - 1) / al * al;
		vec_push(&s->local_vars, v);
		vec_push(&s->local_offs, size);
		size += (u32)v->size;
	}
	size = (size + maxal - 1) / maxal * maxal;
	if (!size)
		return;
	s->local_size = size;
	frame_insert(s, size);
}

/* The local-window address of a local variable (+off) in a register. */
static MRef
local_base(Sel *s, const PtxVar *v, i64 off)
{
	MRef r = sel_tmp(s, 1);
	u32 o = 0;

	/* in a called .func, isel_call.c replaces the frame adjustment */
	local_layout(s);
	if (!local_find(s, v, &o))
		die("local variable %s was not laid out", v->name);
	mi(s->mf, "IADD3 %D, R1, %x, RZ", r, (i32)(o + (u32)off));
	return r;
}

/* ---- module-scope .const and .global variables ---- */

/* The relocation type that places relocation r of an initializer
 * (against a module variable w), or 0 if none does: a generic address
 * (of a .global variable, or generic() of a .const one) in an 8-byte
 * slot, or one byte of one (mask forms). */
static u32
reloc_type(const PtxReloc *r, const PtxVar *w)
{
	if (!r->generic && w->space != PTX_S_GLOBAL)
		return 0;   /* a .const variable's bank offset: not placed */
	if (!r->mask)
		return r->size == 8 ? MR_G64 : 0;
	return r->size == 1 && r->shift < 64 && r->mask == 0xffull << r->shift ? MR_8_0 + (u32)r->shift / 8 : 0;
}

/* The bank-2 slot (sel_ftab) of the function relocation r names, when
 * it is a whole 8-byte address, or 0. */
static int
func_slot(const PtxModule *m, const PtxReloc *r, const int *fslot)
{
	const PtxFunc *f = fslot && r->size == 8 && !r->mask && !r->generic ? ptx_find_func(m, r->sym) : NULL;
	int i;

	for (i = 0; f && i < m->nfuncs; i++)
		if (m->funcs[i] == f)
			return fslot[i];
	return 0;
}

/* Can module variable v be laid out: a .const or .global of known size,
 * not extern, whose initializer's addresses (to depth levels; PTX names
 * only variables declared before, so there is no cycle) are those
 * of such variables or of functions with a slot in fslot (sel_ftab;
 * NULL: none)? */
static int
layable(const PtxModule *m, const PtxVar *v, int depth, const int *fslot)
{
	int i;

	if ((v->space != PTX_S_CONST && v->space != PTX_S_GLOBAL) || !v->size || v->linkage == PTX_LINK_EXTERN)
		return 0;
	for (i = 0; i < v->nrelocs; i++) {
		const PtxVar *w = ptx_find_var(m, v->relocs[i].sym);
		if (!w && func_slot(m, &v->relocs[i], fslot))
			continue;
		if (!w || !depth || !reloc_type(&v->relocs[i], w) || (w != v && !layable(m, w, depth - 1, fslot)))
			return 0;
	}
	return 1;
}

/* The layout of every module variable (ptxas's): .const in bank 3 in
 * module order, .global initialised / not in their sections, each with
 * an 8-byte address slot in bank 4 after those of the next system
 * externals ext (sel_module_externs), which come first in out.  A
 * variable that cannot be laid out (layable) is left out: a use of it is
 * refused.  rel, when not NULL, receives the initializers' relocations
 * (room for all of them); fslot: the functions' slots (sel_ftab), NULL
 * if none.  Returns the count. */
static int
modvars(const PtxModule *m, const PtxFunc *const *ext, int next, ModVar *out, ModRel *rel, const int *fslot)
{
	u64 coff = 0, ioff = 0, zoff = 0, slot = 0, *o;
	int i, j, k, n = next, nrel = 0;

	for (i = 0; i < n; i++) {   /* the system externals' addresses first, as ptxas */
		memset(&out[i], 0, sizeof out[i]);
		out[i].name = ext[i]->name;
		out[i].space = MV_EXTERN;
		out[i].visible = 1;
		out[i].slot = slot;
		slot += 8;
	}
	for (i = 0; i < m->nvars; i++) {
		const PtxVar *v = m->vars[i];
		ModVar *x = &out[n];
		u32 al = v->align ? v->align : 1;
		if (!layable(m, v, 8, fslot))
			continue;
		memset(x, 0, sizeof *x);
		x->key = v;
		x->name = v->name;
		x->space = v->space == PTX_S_CONST ? MV_CONST : MV_GLOBAL;
		x->visible = v->linkage == PTX_LINK_VISIBLE;
		x->size = v->size;
		x->align = al;
		x->init = v->init;
		o = v->space == PTX_S_CONST ? &coff : v->init ? &ioff : &zoff;
		x->off = *o = (*o + al - 1) / al * al;
		*o += v->size;
		if (v->space == PTX_S_GLOBAL) {
			x->slot = slot;
			slot += 8;
		}
		n++;
	}
	for (i = next; rel && i < n; i++) {   /* the initializers' relocations */
		const PtxVar *v = out[i].key;
		out[i].rel = rel + nrel;
		out[i].nrel = v->nrelocs;
		for (j = 0; j < v->nrelocs; j++, nrel++) {
			const PtxReloc *r = &v->relocs[j];
			const PtxVar *w = ptx_find_var(m, r->sym);
			rel[nrel].at = r->at;
			rel[nrel].addend = r->addend;
			if (!w) {   /* a function's address: its slot */
				rel[nrel].var = -1;
				rel[nrel].type = MR_VALUE;
				rel[nrel].addend += func_slot(m, r, fslot);
				continue;
			}
			for (k = next; out[k].key != w; k++)
				;
			rel[nrel].var = k;
			rel[nrel].type = reloc_type(r, w);
		}
	}
	return n;
}

static int
modvar_find(Sel *s, const PtxVar *v, ModVar *r)
{
	ModVar *all = arena_alloc(s->mf->a, sizeof(ModVar) * (size_t)(s->m->nvars + 5));
	int i, n = modvars(s->m, s->mext, sel_externs(s), all, NULL, sel_ftab(s) ? s->fslot : NULL);

	for (i = 0; i < n; i++)
		if (all[i].key == v) {
			*r = all[i];
			return 0;
		}
	if (v->space == PTX_S_CONST || v->space == PTX_S_GLOBAL)
		return sel_unsupported(s, "a module variable extern, of unknown size or with an address in its "
				       "initializer the compiler cannot place (an extern's, a function's without a body, "
				       "a .const variable's non-generic one, one in a 4-byte slot)");
	return sel_unsupported(s, "a variable that is not at module scope");
}

/* The 64-bit address of a module .global variable (from bank 4). */
static MRef
global_var_addr(Sel *s, const PtxVar *v)
{
	ModVar mv;
	MRef r;
	char t[32];

	if (modvar_find(s, v, &mv) < 0)
		return mref(-1);
	r = sel_tmp(s, 2);
	if (mv.slot)
		str_printf(t, sizeof t, "c[0x4][0x%" PRIx64 "]", mv.slot);
	else
		str_printf(t, sizeof t, "c[0x4][RZ]");
	mi(s->mf, "LDC.64 %D, %s", r, t);
	return r;
}

int
sel_module_data(const PtxModule *m, Cubin *c, int sm)
{
	ModVar *all = xcalloc((size_t)m->nvars + 5, sizeof *all);
	ModRel *rel;
	const PtxFunc *ext[4];
	int i, n, nrel = 0, rc = 0, *fslot;

	for (i = 0; i < m->nvars; i++)
		nrel += m->vars[i]->nrelocs;
	rel = xcalloc((size_t)nrel + 1, sizeof *rel);
	fslot = xcalloc((size_t)m->nfuncs + 1, sizeof *fslot);
	n = modvars(m, ext, sel_module_externs(m, ext), all, rel, sel_ftab_slots(m, fslot) ? fslot : NULL);
	if (n && cubin_add_data(c, all, (size_t)n, sm) < 0) {
		diag(m->src.path, "internal error: the cubin writer refused the module variables");
		rc = -1;
	}
	free(fslot);
	free(rel);
	free(all);
	return rc;
}

/* ---- address operands ---- */

typedef struct {
	MRef base;   /* address register (a pair for global/generic) */
	i64 off;
} Addr;

/* A 64-bit register holding base + imm. */
static MRef
add64(Sel *s, MRef base, i64 imm)
{
	MRef r = sel_tmp(s, 2), c = sel_ptmp(s), lo = sel_tmp(s, 1), hi = sel_tmp(s, 1);
	mi(s->mf, "MOV %D, %h", lo, (unsigned)(u32)imm);
	mi(s->mf, "MOV %D, %h", hi, (unsigned)(u32)((u64)imm >> 32));
	mi(s->mf, "IADD3 %D, %D, %U, %U, RZ", mpart(r.v, 0, 1), c, mpart(base.v, base.sub, 1), lo);
	mi(s->mf, "IADD3.X %D, %U, %U, RZ, %U, !PT", mpart(r.v, 1, 1), mpart(base.v, base.sub + 1, 1), hi, c);
	return r;
}

/* The IR instruction whose operation is p, and its block, or NULL. */
static const IrIns *
ir_of(Sel *s, const PtxInstr *p, size_t *blk)
{
	size_t b;

	for (b = 0; b < s->ir->b.n; b++) {
		const IrBlock *B = &s->ir->b.v[b];
		if (B->ins.n && (const char *)p >= (const char *)&B->ins.v[0] &&
		    (const char *)p < (const char *)&B->ins.v[B->ins.n]) {
			*blk = b;
			return (const IrIns *)((const char *)p - offsetof(IrIns, p));
		}
	}
	return NULL;
}

/* [r] where r's only definition is `add r, y, imm` (unguarded, earlier in
 * this block, y not written in between and y defined once): [y+imm].
 * NVVM leaves such adds before inline asm (cp.async), whose addresses it
 * cannot fold; the add then has no reader and dies (mir_dce). */
static int
fold_add(Sel *s, const PtxOperand *a, int wide, int *reg, i64 *off)
{
	const PtxInstr *d = sel_only_def(s, a->reg), *dy;
	const IrIns *xd, *xy;
	size_t bd = 0, bc = 0, by = 0;
	u64 v;

	if (!d || d->op != PTX_OP_add || d->guard >= 0 || d->nopds != 3 || d->opds[1].kind != PTX_OPD_REG ||
	    d->opds[1].reg == a->reg || !sel_imm(&d->opds[2], &v))
		return 0;
	if (wide ? sel_type_regs((PtxType)d->types[0]) != 2 : sel_type_regs((PtxType)d->types[0]) != 1)
		return 0;
	if (!wide)
		v = (u64)(i64)(i32)(u32)v;
	if ((i64)v < -0x100000 || (i64)v > 0x100000 || !(dy = sel_only_def(s, d->opds[1].reg)))
		return 0;
	xd = ir_of(s, d, &bd);
	xy = ir_of(s, dy, &by);
	if (!xd || !xy || !ir_of(s, &s->cur->p, &bc) || bd != bc || xd >= s->cur)
		return 0;
	if (by == bd && xy > xd && xy < s->cur)
		return 0;
	*reg = d->opds[1].reg;
	*off = (i64)v;
	return 1;
}

static int
address(Sel *s, const PtxOperand *a, int space, Addr *ad)
{
	const PtxVar *v = a->var;
	int wide = space != PTX_S_SHARED && space != PTX_S_LOCAL;

	if (a->kind != PTX_OPD_ADDR)
		return sel_unsupported(s, "this address operand");
	ad->off = a->imm;
	if (space == PTX_S_SHARED_CLUSTER) {
		/* sm_90: a shared::cluster address (rank bits 24..) as a generic
		 * one in the shared window, {addr, SR_SWINHI} (ptxas's LD.E/ST.E) */
		MRef lo, hi, pr;
		if (s->sm < 90 || (a->reg < 0 && (!v || v->space != PTX_S_SHARED)))
			return sel_unsupported(s, "this shared::cluster address");
		lo = a->reg >= 0 ? part_of(s, sel_reg(s, a->reg), 0) : shared_base(s, v, 0);
		hi = sel_tmp(s, 1);
		pr = sel_tmp(s, 2);
		mi(s->mf, "S2R %D, SR_SWINHI", hi);
		sel_mov32(s, mpart(pr.v, 0, 1), mopd_reg(lo));
		sel_mov32(s, mpart(pr.v, 1, 1), mopd_reg(hi));
		ad->base = pr;
		wide = 1;
	} else if (a->reg >= 0) {
		int reg = a->reg;
		i64 fo;
		MRef r;
		if (fold_add(s, a, wide, &reg, &fo))
			ad->off += fo;
		r = sel_reg(s, reg);
		if (!wide)
			ad->base = part_of(s, r, 0);
		else if (s->mf->vr.v[r.v].w == 2)
			ad->base = mpart(r.v, 0, 2);
		else
			return sel_unsupported(s, "a 32-bit register as a global/generic address");
	} else if (v && v->space == PTX_S_SHARED && space == PTX_S_SHARED) {
		ad->base = shared_base(s, v, 0);
	} else if (v && v->space == PTX_S_LOCAL && space == PTX_S_LOCAL) {
		ad->base = local_base(s, v, 0);
		if (ad->base.v < 0)
			return -1;
	} else if (v && v->space == PTX_S_GLOBAL && wide) {
		ad->base = global_var_addr(s, v);
		if (ad->base.v < 0)
			return -1;
	} else if (!v && !wide) {
		/* an absolute window address: in a register ([imm] alone does
		 * not encode on sm_90) */
		ad->base = sel_tmp(s, 1);
		mi(s->mf, "MOV %D, %h", ad->base, (unsigned)(u32)a->imm);
		ad->off = 0;
	} else {
		return sel_unsupported(s, "this address (a symbol of another state space or a global/const variable)");
	}
	/* offsets beyond the 24-bit signed field: into the base */
	if (ad->off < -0x800000 || ad->off > 0x7fffff) {
		if (wide) {
			ad->base = add64(s, ad->base, ad->off);
		} else {
			MRef r = sel_tmp(s, 1);
			mi(s->mf, "IADD3 %D, %U, %x, RZ", r, ad->base, (i32)ad->off);
			ad->base = r;
		}
		ad->off = 0;
	}
	return 0;
}

int
sel_address(Sel *s, const PtxOperand *a, int space, MRef *base, i64 *off)
{
	Addr ad;
	if (address(s, a, space, &ad) < 0)
		return -1;
	*base = ad.base;
	*off = ad.off;
	return 0;
}

/* ---- ordering and cache modifiers (ptxas's mapping) ---- */

typedef struct {
	const char *cache;   /* .EF .LU .NA .EL .EU before the size */
	const char *ltc;     /* .LTC64B .LTC128B .LTC256B (L2 prefetch size), after the cache */
	MRef policy;         /* .L2::cache_hint: the policy in a uniform pair, the access's descriptor; else -1 */
	const char *strong;  /* .STRONG.GPU .CONSTANT after it */
	int pre, post;       /* fence scope before (release) / CCTL after (acquire), 0 = none */
} Order;

static const char *
scope_strong(int scope)
{
	switch (scope) {
	case PTX_SCOPE_CTA: return ".STRONG.SM";
	case PTX_SCOPE_SYS: return ".STRONG.SYS";
	}
	return ".STRONG.GPU";
}

/* The L1 eviction priority and the L2 prefetch size of a global/generic
 * ld/st, as ptxas (LDG.E.EL.LTC128B.128 ...). */
static int
hints_of(Sel *s, const IrIns *x, Order *o)
{
	static const struct { int mod; const char *sass; } l1[] = {
		{PTX_M_L1_no_allocate, ".NA"}, {PTX_M_L1_evict_last, ".EL"}, {PTX_M_L1_evict_first, ".EF"},
		{PTX_M_L1_evict_unchanged, ".EU"}, {PTX_M_L1_evict_normal, ""},
	}, l2[] = {
		{PTX_M_L2_64B, ".LTC64B"}, {PTX_M_L2_128B, ".LTC128B"}, {PTX_M_L2_256B, ".LTC256B"},
	};
	size_t i;

	for (i = 0; i < NELEM(l1); i++)
		if (ptx_has_mod(&x->p, (PtxModId)l1[i].mod)) {
			if (x->p.cache != PTX_CACHE_NONE)   /* ptxas refuses the combination */
				return sel_unsupported(s, "an L1 eviction priority with a cache operator");
			o->cache = l1[i].sass;
		}
	for (i = 0; i < NELEM(l2); i++)
		if (ptx_has_mod(&x->p, (PtxModId)l2[i].mod))
			/* sm_80 caps a .nc load's prefetch at 128 bytes (ptxas 13.0) */
			o->ltc = i == 2 && s->sm < 90 && (x->p.flags & PTX_F_NC) ? ".LTC128B" : l2[i].sass;
	if (ptx_has_mod(&x->p, PTX_M_L2_evict_first) || ptx_has_mod(&x->p, PTX_M_L2_evict_last) ||
	    ptx_has_mod(&x->p, PTX_M_L2_evict_normal) || ptx_has_mod(&x->p, PTX_M_L2_evict_unchanged))
		return sel_unsupported(s, "an L2 eviction priority on ld/st");
	if ((x->p.flags & PTX_F_CACHE_HINT) && s->sm < 90 && space_of(x) == PTX_S_GENERIC)
		/* ptxas: LD.E/ST.E desc[URx][..], forms sm_80's tables lack */
		return sel_unsupported(s, ".L2::cache_hint on a generic ld/st for sm_80");
	if (x->p.flags & PTX_F_CACHE_HINT) {
		/* the policy (last operand) becomes the memory descriptor: R2UR of
		   both words, as ptxas (which takes the policy to be uniform; it
		   has no architectural effect) */
		MRef r = sel_r64(s, &x->p.opds[x->p.nopds - 1]);
		if (r.v < 0)
			return -1;
		o->policy = mref(mvreg(s->mf, RC_UR, 2));
		mi(s->mf, "R2UR %D, %U", mpart(o->policy.v, 0, 1), mpart(r.v, 0, 1));
		mi(s->mf, "R2UR %D, %U", mpart(o->policy.v, 1, 1), mpart(r.v, 1, 1));
	}
	return 0;
}

static int
order_sem(Sel *s, const IrIns *x, int st, int sp, Order *o)
{
	int sem = x->p.sem;

	memset(o, 0, sizeof *o);
	o->cache = o->strong = o->ltc = "";
	o->policy = mref(-1);
	if (x->p.flags & PTX_F_VOLATILE)
		sem = PTX_SEM_VOLATILE;
	if ((x->p.flags & PTX_F_CACHE_HINT) && sp != PTX_S_GLOBAL && sp != PTX_S_GENERIC)
		return sel_unsupported(s, ".L2::cache_hint outside global memory");
	if (sp == PTX_S_SHARED || sp == PTX_S_LOCAL) {
		/* shared/local: plain LDS/STS (LDL/STL) for volatile and relaxed;
		 * acquire adds CCTL.IVALL after (beyond .cta), release the fence
		 * before (as ptxas) */
		if (sem == PTX_SEM_ACQUIRE && !st)
			o->post = x->p.scope != PTX_SCOPE_CTA;
		else if (sem == PTX_SEM_RELEASE && st)
			o->pre = x->p.scope ? x->p.scope : PTX_SCOPE_GPU;
		else if (sem > PTX_SEM_RELAXED && sem != PTX_SEM_VOLATILE)
			return sel_unsupported(s, "this memory-order semantics on shared or local memory");
		return 0;
	}
	switch (sem) {
	case PTX_SEM_NONE: case PTX_SEM_WEAK:
		break;
	case PTX_SEM_VOLATILE:
		o->strong = ".STRONG.SYS";
		return 0;
	case PTX_SEM_RELAXED:
		o->strong = scope_strong(x->p.scope);
		return 0;
	case PTX_SEM_ACQUIRE:
		if (st)
			return sel_unsupported(s, "st.acquire");
		o->strong = scope_strong(x->p.scope);
		o->post = x->p.scope == PTX_SCOPE_CTA ? 0 : 1;
		return 0;
	case PTX_SEM_RELEASE:
		if (!st)
			return sel_unsupported(s, "ld.release");
		o->strong = scope_strong(x->p.scope);
		o->pre = x->p.scope ? x->p.scope : PTX_SCOPE_GPU;
		return 0;
	default:
		return sel_unsupported(s, "this memory-order semantics on ld/st");
	}
	if (x->p.flags & PTX_F_NC) {
		if (st || sp != PTX_S_GLOBAL)
			return sel_unsupported(s, ".nc other than on ld.global");
		o->strong = ".CONSTANT";
	}
	switch (x->p.cache) {
	case PTX_CACHE_NONE: break;
	case PTX_CACHE_CS: o->cache = ".EF"; break;
	case PTX_CACHE_LU: o->cache = st ? "" : ".LU"; break;
	case PTX_CACHE_CG: o->strong = ".STRONG.GPU"; break;
	case PTX_CACHE_CA: case PTX_CACHE_WB: o->strong = ".STRONG.SM"; break;
	case PTX_CACHE_CV: o->strong = ".STRONG.SYS"; break;
	case PTX_CACHE_WT: o->strong = ".STRONG.SYS"; break;
	default: return sel_unsupported(s, "this cache operator");
	}
	return 0;
}

/* The SASS modifiers of a ld/st: ordering, cache operator, hints. */
static int
order_of(Sel *s, const IrIns *x, int st, int sp, Order *o)
{
	if (order_sem(s, x, st, sp, o) < 0)
		return -1;
	return sp == PTX_S_GLOBAL || sp == PTX_S_GENERIC ? hints_of(s, x, o) : 0;
}

static void
release_fence(Sel *s, int scope)
{
	const char *sc = scope == PTX_SCOPE_CTA ? "CTA" : scope == PTX_SCOPE_SYS ? "SYS" : "GPU";
	mi(s->mf, "MEMBAR.ALL.%s", sc);
	if (scope == PTX_SCOPE_CTA)
		return;
	mi(s->mf, "ERRBAR");
	if (s->sm >= 90)
		mi(s->mf, "CGAERRBAR");
}

/* ---- ld / st ---- */

/* sm_80's tables encode LDS/STS [R+imm] for few base registers (the
 * learned forms fixed the register); [R+URZ+imm] encodes for all. */
static const char *
urz(Sel *s, int sp, const char *off)
{
	return s->sm < 90 && sp == PTX_S_SHARED && off[0] ? "+URZ" : "";
}

static int
check_width(Sel *s, const IrIns *x, int eb)
{
	if (!eb || eb * (x->p.vec ? x->p.vec : 1) > 16)
		return sel_unsupported(s, "vectors wider than 128 bits");
	if (ty(x) == PTX_T_PRED)
		return sel_unsupported(s, "ld/st of a predicate");
	return 0;
}

/* ld.const: constant bank 3 (module .const variables) with LDC; the
 * address is a variable (+imm), a register holding a bank offset (+imm)
 * or an absolute offset. */
static int
ld_const(Sel *s, const IrIns *x)
{
	const PtxOperand *a = S1;
	int eb = elem_bytes(x), sg = ptx_type_is_signed(ty(x)), i, k, tot;
	MRef base = mref(s->mf->rz), t;
	i64 off = a->imm;
	ModVar mv;
	Parts p;
	char c[48];

	if (a->kind != PTX_OPD_ADDR || (a->var && a->var->space != PTX_S_CONST) || (a->reg >= 0 && a->var))
		return sel_unsupported(s, "this ld.const address");
	if (a->var) {
		if (modvar_find(s, a->var, &mv) < 0)
			return -1;
		off = (i64)((u64)off + mv.off);   /* wraps like the address arithmetic */
	}
	if (check_width(s, x, eb) < 0 || parts_of(s, D0, eb, &p, 0) < 0)
		return -1;
	tot = eb * (x->p.vec ? x->p.vec : 1);
	if (a->reg >= 0) {
		base = part_of(s, sel_reg(s, a->reg), 0);
		if (off < 0 || off > 0xffff) {
			MRef r = sel_tmp(s, 1);
			mi(s->mf, "IADD3 %D, %U, %x, RZ", r, base, (i32)off);
			base = r;
			off = 0;
		}
	} else if (off < 0 || off > 0x10000 - (i64)tot) {
		return sel_unsupported(s, "a constant-bank offset outside 64 KiB");
	}
	t = p.n == 1 ? p.part[0] : sel_tmp(s, p.n);
	for (k = 0; k * 8 < tot || !k; k++) {
		int sz = tot < 8 ? tot : 8;
		i64 o = off + 8 * k;
		MRef d = p.n == 1 ? t : mpart(t.v, 2 * k, sz == 8 ? 2 : 1);
		if (base.v == s->mf->rz)
			str_printf(c, sizeof c, o ? "c[0x3][0x%" PRIx64 "]" : "c[0x3][RZ]", (u64)o);
		else
			str_printf(c, sizeof c, o ? "c[0x3][%%U+0x%" PRIx64 "]" : "c[0x3][%%U]", (u64)o);
		{
			char fmt[80];
			str_printf(fmt, sizeof fmt, "LDC%s %%D, %s", size_suffix(sz, sg), c);
			if (base.v == s->mf->rz)
				mi(s->mf, fmt, d);
			else
				mi(s->mf, fmt, d, base);
		}
	}
	if (p.n > 1)
		for (i = 0; i < p.n; i++)
			sel_mov32(s, p.part[i], mopd_reg(mpart(t.v, i, 1)));
	sel_widen_hi(s, D0, eb, ptx_type_is_signed(ty(x)));
	return 0;
}

/* Vectors of 8/16-bit elements travel in 32-bit words: element i of a
 * loaded word is a shift and a mask (or a sign extension)... */
static void
narrow_unpack(Sel *s, MRef t, const Parts *p, int eb, int sg)
{
	int i;
	for (i = 0; i < p->n; i++) {
		MRef w = mpart(t.v, i * eb / 4, 1), e = w;
		int sh = i * eb * 8 % 32, top = 32 - sh - 8 * eb;
		if (s->mf->vr.v[t.v].w == 1)
			w = e = t;
		if (sg) { /* the element to the top, then an arithmetic shift down */
			if (top) {
				e = sel_tmp(s, 1);
				mi(s->mf, "SHF.L.U32 %D, %U, %h, RZ", e, w, (unsigned)top);
			}
			mi(s->mf, "SHF.R.S32.HI %D, RZ, %h, %U", p->part[i], (unsigned)(32 - 8 * eb), e);
			continue;
		}
		if (sh) {
			e = sel_tmp(s, 1);
			mi(s->mf, "SHF.R.U32.HI %D, RZ, %h, %U", e, (unsigned)sh, w);
		}
		mi(s->mf, "LOP3.LUT %D, %U, %h, RZ, 0xc0, !PT", p->part[i], e, eb == 1 ? 0xffu : 0xffffu);
	}
}

/* ... and stored words are packed with PRMT. */
static MRef
narrow_pack(Sel *s, const Parts *p, int eb)
{
	int nw = (p->n * eb + 3) / 4, i;
	MRef t = sel_tmp(s, nw);

	for (i = 0; i < nw; i++) {
		MRef d = nw > 1 ? mpart(t.v, i, 1) : t;
		if (eb == 2) {
			mi(s->mf, "PRMT %D, %U, 0x5410, %U", d, p->part[2 * i], p->part[2 * i + 1]);
		} else if (p->n == 2) {
			mi(s->mf, "PRMT %D, %U, 0x40, %U", d, p->part[0], p->part[1]);
		} else {
			MRef lo = sel_tmp(s, 1), hi = sel_tmp(s, 1);
			mi(s->mf, "PRMT %D, %U, 0x40, %U", lo, p->part[0], p->part[1]);
			mi(s->mf, "PRMT %D, %U, 0x40, %U", hi, p->part[2], p->part[3]);
			mi(s->mf, "PRMT %D, %U, 0x5410, %U", d, lo, hi);
		}
	}
	return t;
}

static int
sel_ld(Sel *s, const IrIns *x)
{
	int sp = space_of(x), eb = elem_bytes(x), i, n, tot;
	int sg = ptx_type_is_signed(ty(x));
	Parts p;
	Addr ad;
	Order o;
	char off[32];
	MRef t;

	if (sp == PTX_S_PARAM)
		return ld_param(s, x);
	if (sp == PTX_S_CONST)
		return ld_const(s, x);
	if (sp != PTX_S_GLOBAL && sp != PTX_S_SHARED && sp != PTX_S_GENERIC && sp != PTX_S_LOCAL &&
	    sp != PTX_S_SHARED_CLUSTER)
		return sel_unsupported(s, "ld from this state space");
	if (check_width(s, x, eb) < 0 || order_of(s, x, 0, sp == PTX_S_SHARED_CLUSTER ? PTX_S_GENERIC : sp, &o) < 0)
		return -1;
	if (address(s, S1, sp, &ad) < 0 || parts_of(s, D0, eb, &p, 0) < 0)
		return -1;
	if (sp == PTX_S_SHARED_CLUSTER)
		sp = PTX_S_GENERIC;
	n = p.n;
	tot = eb * (x->p.vec ? x->p.vec : 1);
	sel_offtxt(off, sizeof off, ad.off);
	t = n == 1 ? p.part[0] : sel_tmp(s, n);
	if (eb < 4 && n > 1) { /* a narrow vector: whole words */
		t = sel_tmp(s, (tot + 3) / 4);
		sg = 0;
	}
	if (sp == PTX_S_SHARED || sp == PTX_S_LOCAL)
		mi(s->mf, "%s%s %D, [%U%s%s]", sp == PTX_S_SHARED ? "LDS" : "LDL", size_suffix(tot, sg), t, ad.base,
		   urz(s, sp, off), off);
	else if (o.policy.v >= 0)
		mi(s->mf, "%s%s%s%s%s %D, desc[%U][%U.64%s]", sp == PTX_S_GENERIC ? "LD.E" : "LDG.E", o.cache, o.ltc,
		   size_suffix(tot, sg), o.strong, t, o.policy, ad.base, off);
	else
		mi(s->mf, "%s%s%s%s%s %D, %s[%U.64%s]", sp == PTX_S_GENERIC ? "LD.E" : "LDG.E", o.cache, o.ltc,
		   size_suffix(tot, sg), o.strong, t, sel_gdesc(s), ad.base, off);
	if (o.post)
		mi(s->mf, "CCTL.IVALL");
	if (eb < 4 && n > 1)
		narrow_unpack(s, t, &p, eb, ptx_type_is_signed(ty(x)));
	else if (n > 1)
		for (i = 0; i < n; i++)
			sel_mov32(s, p.part[i], mopd_reg(mpart(t.v, i, 1)));
	sel_widen_hi(s, D0, eb, ptx_type_is_signed(ty(x)));
	return 0;
}

static int
sel_st(Sel *s, const IrIns *x)
{
	int sp = space_of(x), eb = elem_bytes(x), i, n, tot;
	Parts p;
	Addr ad;
	Order o;
	char off[32];
	MRef t;

	if (sp != PTX_S_GLOBAL && sp != PTX_S_SHARED && sp != PTX_S_GENERIC && sp != PTX_S_LOCAL &&
	    sp != PTX_S_SHARED_CLUSTER)
		return sel_unsupported(s, "st to this state space");
	if (check_width(s, x, eb) < 0 || order_of(s, x, 1, sp == PTX_S_SHARED_CLUSTER ? PTX_S_GENERIC : sp, &o) < 0)
		return -1;
	if (address(s, D0, sp, &ad) < 0 || parts_of(s, S1, eb, &p, 1) < 0)
		return -1;
	if (sp == PTX_S_SHARED_CLUSTER)
		sp = PTX_S_GENERIC;
	n = eb < 4 ? 1 : p.n;
	tot = eb * (x->p.vec ? x->p.vec : 1);
	sel_offtxt(off, sizeof off, ad.off);
	t = p.part[0];
	if (eb < 4 && p.n > 1)
		t = narrow_pack(s, &p, eb);
	else if (n > 1) {
		t = sel_tmp(s, n);
		for (i = 0; i < n; i++)
			sel_mov32(s, mpart(t.v, i, 1), mopd_reg(p.part[i]));
	}
	if (o.pre)
		release_fence(s, o.pre);
	if (sp == PTX_S_SHARED || sp == PTX_S_LOCAL)
		mi(s->mf, "%s%s [%U%s%s], %U", sp == PTX_S_SHARED ? "STS" : "STL", size_suffix(tot, 0), ad.base,
		   urz(s, sp, off), off, t);
	else if (o.policy.v >= 0)
		mi(s->mf, "%s%s%s%s%s desc[%U][%U.64%s], %U", sp == PTX_S_GENERIC ? "ST.E" : "STG.E", o.cache, o.ltc,
		   size_suffix(tot, 0), o.strong, o.policy, ad.base, off, t);
	else
		mi(s->mf, "%s%s%s%s%s %s[%U.64%s], %U", sp == PTX_S_GENERIC ? "ST.E" : "STG.E", o.cache, o.ltc,
		   size_suffix(tot, 0), o.strong, sel_gdesc(s), ad.base, off, t);
	return 0;
}

/* ---- mov of addresses and vectors, cvta ---- */

/* The window base of generic addresses: c[0x0][0x18] shared (sm_80),
 * c[0x0][0x20] local, the constant bank 3 (__constant__ variables)
 * c[0x0][0x50] (sm_80) / c[0x0][0xd0] (sm_90), as ptxas reads them; a
 * register pair. */
static MRef
window(Sel *s, u32 cofs)
{
	MRef w = sel_tmp(s, 2);
	if (s->sm >= 90) {
		mi(s->mf, "LDC.64 %D, c[0x0][%h]", w, cofs);
	} else {
		mi(s->mf, "MOV %D, c[0x0][%h]", mpart(w.v, 0, 1), cofs);
		mi(s->mf, "MOV %D, c[0x0][%h]", mpart(w.v, 1, 1), cofs + 4);
	}
	return w;
}

/* Where bank 0 holds the window base of a state space (0x198: sm_90's
 * generic address of the parameters, ptxas's). */
static u32
window_ofs(const Sel *s, int space)
{
	switch (space) {
	case PTX_S_SHARED: return 0x18;
	case PTX_S_PARAM: return 0x198;
	case PTX_S_CONST: return s->sm >= 90 ? 0xd0 : 0x50;
	}
	return 0x20;
}

/* d (32 or 64-bit register) = a 32-bit window address, as a window
 * address (generic = 0) or converted to generic. */
static void
put_addr(Sel *s, MRef d, MRef a, int space, int generic)
{
	int w = s->mf->vr.v[d.v].w;
	MRef lo = part_of(s, d, 0);

	if (!generic) {
		sel_mov32(s, lo, mopd_reg(a));
		if (w > 1)
			mi(s->mf, "MOV %D, 0x0", mpart(d.v, 1, 1));
		return;
	}
	if (space == PTX_S_SHARED && s->sm >= 90) {
		/* sm_90: the shared window's high word, the address as is */
		MRef h = sel_tmp(s, 1);
		mi(s->mf, "S2R %D, SR_SWINHI", h);
		sel_mov32(s, lo, mopd_reg(a));
		sel_mov32(s, mpart(d.v, 1, 1), mopd_reg(h));
		return;
	}
	{
		MRef win = window(s, window_ofs(s, space));
		MRef c = sel_ptmp(s), t = sel_tmp(s, 1);
		mi(s->mf, "IADD3 %D, %D, %U, %U, RZ", t, c, a, mpart(win.v, 0, 1));
		mi(s->mf, "IADD3.X %D, RZ, %U, RZ, %U, !PT", mpart(d.v, 1, 1), mpart(win.v, 1, 1), c);
		sel_mov32(s, lo, mopd_reg(t));
	}
}

/* The address of a variable (+off) as a window address. */
static int
var_addr(Sel *s, const PtxOperand *o, MRef *a, int *space)
{
	const PtxVar *v = o->var;
	if (!v || o->symkind != PTX_SYM_VAR)
		return sel_unsupported(s, "mov of this symbol");
	*space = v->space;
	if (v->space == PTX_S_SHARED)
		*a = shared_base(s, v, o->imm);
	else if (v->space == PTX_S_LOCAL) {
		*a = local_base(s, v, o->imm);
		if (a->v < 0)
			return -1;
	} else if (v->space == PTX_S_CONST) {
		ModVar mv;
		if (modvar_find(s, v, &mv) < 0)
			return -1;
		*a = sel_tmp(s, 1);
		mi(s->mf, "MOV %D, %h", *a, (unsigned)(u32)(mv.off + (u64)o->imm));
	} else if (v->space == PTX_S_PARAM && s->fn->is_entry && param_index(s, v) >= 0 && (s->sm >= 90 || !uses_tma(s))) {
		/* a kernel parameter: its offset in the parameter space (ptxas),
		   which ld.param reads through (ld_param); sm_90's cvta.param
		   makes it generic (a __grid_constant__ CUtensorMap) */
		*a = sel_tmp(s, 1);
		mi(s->mf, "MOV %D, %h", *a, (unsigned)(s->param_off[param_index(s, v)] + (u64)o->imm));
	} else
		return sel_unsupported(s, v->space != PTX_S_PARAM || !s->fn->is_entry || param_index(s, v) < 0
				       ? "the address of a param variable (other than a kernel's or a .func's own input parameter)"
				       : "TMA (cp.async.bulk.tensor and its CUtensorMap parameter's address: sm_90 and later)");
	return 0;
}

static int
mov_vec(Sel *s, const IrIns *x)
{
	int i, k = 0, w, eb;
	const PtxOperand *v = D0->kind == PTX_OPD_VEC ? D0 : S1, *r = D0->kind == PTX_OPD_VEC ? S1 : D0;
	MRef reg;

	if (r->kind != PTX_OPD_REG || v->kind != PTX_OPD_VEC)
		return sel_unsupported(s, "mov of this vector form");
	reg = sel_reg(s, r->reg);
	w = s->mf->vr.v[reg.v].w;
	eb = ptx_type_size((PtxType)s->ir->rtype[r->reg]) / v->nelems;
	if (eb != 4 && eb != 8)
		return sel_mov_pack16(s, x);   /* 16-bit elements: isel_cvt.c */
	for (i = 0; i < v->nelems; i++) {
		const PtxOperand *e = &v->elems[i];
		int j;
		for (j = 0; j < eb / 4; j++, k++) {
			if (k >= w)
				return sel_unsupported(s, "mov of a vector wider than its register");
			if (D0->kind == PTX_OPD_VEC) {
				if (e->kind == PTX_OPD_SINK)
					continue;
				if (e->kind != PTX_OPD_REG)
					return sel_unsupported(s, "this vector element");
				sel_mov32(s, part_of(s, sel_reg(s, e->reg), j), mopd_reg(mpart(reg.v, k, 1)));
			} else {
				MOpd o = sel_b32u(s, e, j);
				if (!o.txt[0] && o.r.v < 0)
					return -1;
				sel_mov32(s, mpart(reg.v, k, 1), o);
			}
		}
	}
	return 0;
}

/* d = the (generic = global) address of a module .global variable + off. */
static int
global_to(Sel *s, MRef d, const PtxOperand *o)
{
	MRef a;
	if (s->mf->vr.v[d.v].w != 2)
		return sel_unsupported(s, "the address of a global variable in a 32-bit register");
	a = global_var_addr(s, o->var);
	if (a.v < 0)
		return -1;
	if (o->imm)
		a = add64(s, a, o->imm);
	sel_mov32(s, mpart(d.v, 0, 1), mopd_reg(mpart(a.v, 0, 1)));
	sel_mov32(s, mpart(d.v, 1, 1), mopd_reg(mpart(a.v, 1, 1)));
	return 0;
}

static SelFn
int_rule(int op)
{
	const SelRule *r;
	for (r = sel_rules_int; r->fn; r++)
		if (r->op == op)
			return r->fn;
	return NULL;
}

static int
sel_mov(Sel *s, const IrIns *x)
{
	MRef a;
	int sp;
	SelFn f;

	if (D0->kind == PTX_OPD_VEC || S1->kind == PTX_OPD_VEC)
		return mov_vec(s, x);
	if (S1->kind == PTX_OPD_SREG && S1->sreg == PTX_SR_cluster_ctarank && D0->kind == PTX_OPD_REG) {
		/* the CTA's rank in its cluster (ptxas: SR_CgaCtaId) */
		if (s->sm < 90)
			return sel_unsupported(s, "%cluster_ctarank (sm_90 and later)");
		mi(s->mf, "S2R %D, SR_CgaCtaId", part_of(s, sel_reg(s, D0->reg), 0));
		return 0;
	}
	if (S1->kind == PTX_OPD_SYM && D0->kind == PTX_OPD_REG && S1->var && S1->var->space == PTX_S_GLOBAL)
		return global_to(s, sel_reg(s, D0->reg), S1);
	if (S1->kind == PTX_OPD_SYM && D0->kind == PTX_OPD_REG) {
		if (var_addr(s, S1, &a, &sp) < 0)
			return -1;
		put_addr(s, sel_reg(s, D0->reg), a, sp, 0);
		return 0;
	}
	f = int_rule(PTX_OP_mov);
	return f ? f(s, x) : sel_unsupported(s, "mov");
}

/* cvta.SPACE (to generic) and cvta.to.SPACE (from generic). */
static int
sel_cvta(Sel *s, const IrIns *x)
{
	int sp = x->p.nspaces ? x->p.space[0] : PTX_S_NONE, to = (x->p.flags & PTX_F_TO) != 0, k, vsp;
	MRef d, a;

	if (D0->kind != PTX_OPD_REG)
		return sel_unsupported(s, "cvta into a non-register");
	d = sel_reg(s, D0->reg);
	if (sp == PTX_S_GLOBAL) {
		/* global and generic addresses coincide */
		if (S1->kind == PTX_OPD_SYM)
			return S1->var && S1->var->space == PTX_S_GLOBAL && !to ? global_to(s, d, S1)
									: sel_unsupported(s, "cvta of this symbol");
		for (k = 0; k < s->mf->vr.v[d.v].w; k++)
			sel_mov32(s, mpart(d.v, k, 1), mopd_reg(sel_r32(s, S1, k)));
		return 0;
	}
	if (sp != PTX_S_SHARED && sp != PTX_S_LOCAL && sp != PTX_S_CONST && !(sp == PTX_S_PARAM && !to && s->sm >= 90))
		return sel_unsupported(s, "cvta of this state space");
	if (S1->kind == PTX_OPD_SYM) {
		if (to || var_addr(s, S1, &a, &vsp) < 0 || vsp != sp)
			return to ? sel_unsupported(s, "cvta.to of a symbol") : -1;
	} else {
		a = sel_r32(s, S1, 0);
		if (a.v < 0)
			return -1;
	}
	if (!to) {
		if (s->mf->vr.v[d.v].w != 2)
			return sel_unsupported(s, "cvta to a 32-bit generic address");
		put_addr(s, d, a, sp, 1);
		return 0;
	}
	/* generic -> window: sm_90 shared keeps the low word (the rank bits
	 * stay); otherwise subtract the window base */
	if (sp == PTX_S_SHARED && s->sm >= 90) {
		put_addr(s, d, a, sp, 0);
	} else {
		MRef win = window(s, window_ofs(s, sp)), t = sel_tmp(s, 1);
		mi(s->mf, "IADD3 %D, %U, -%U, RZ", t, a, mpart(win.v, 0, 1));
		put_addr(s, d, t, sp, 0);
	}
	return 0;
}

/* The size of the module's constant bank 3 (its .const variables). */
static u64
const_bank_size(Sel *s)
{
	ModVar *all = arena_alloc(s->mf->a, sizeof(ModVar) * (size_t)(s->m->nvars + 5));
	int i, n = modvars(s->m, s->mext, sel_externs(s), all, NULL, sel_ftab(s) ? s->fslot : NULL);
	u64 end = 0;

	for (i = 0; i < n; i++)
		if (all[i].space == MV_CONST)
			end = MAX(end, all[i].off + all[i].size);
	return end;
}

/* isspacep.SPACE p, a: QSPC.E.{G,S,L,D} p, RZ, [a] (ptxas's; .D is
 * sm_90's shared::cluster window).  .G also holds for the constant bank's
 * generic window (in global memory): ptxas takes [base, base + size) out
 * of it, and so do we.  .const and .param, which ptxas answers by
 * comparing with the driver's window bounds, are refused. */
static int
sel_isspacep(Sel *s, const IrIns *x)
{
	int sp = x->p.nspaces ? x->p.space[0] : PTX_S_NONE;
	const char *q = sp == PTX_S_GLOBAL ? "G" : sp == PTX_S_SHARED ? "S" : sp == PTX_S_LOCAL ? "L"
		: sp == PTX_S_SHARED_CLUSTER && s->sm >= 90 ? "D" : NULL;
	MRef a, p, g, w, t, c, k;
	u64 n;

	if (!q)
		return sel_unsupported(s, "isspacep of this state space (.const, .param)");
	if (D0->kind != PTX_OPD_REG || (a = sel_r64(s, S1)).v < 0)
		return sel_unsupported(s, "this form of isspacep");
	p = sel_reg(s, D0->reg);
	if (sp != PTX_S_GLOBAL || !(n = const_bank_size(s))) {
		mi(s->mf, "QSPC.E.%s %D, RZ, [%U]", q, p, a);
		return 0;
	}
	g = sel_ptmp(s), k = sel_ptmp(s), c = sel_ptmp(s), t = sel_tmp(s, 2);
	w = window(s, window_ofs(s, PTX_S_CONST));
	mi(s->mf, "QSPC.E.G %D, RZ, [%U]", g, a);
	mi(s->mf, "IADD3 %D, %D, %U, -%U, RZ", mpart(t.v, 0, 1), c, mpart(a.v, a.sub, 1), mpart(w.v, 0, 1));
	mi(s->mf, "IADD3.X %D, %U, ~%U, RZ, %U, !PT", mpart(t.v, 1, 1), mpart(a.v, a.sub + 1, 1), mpart(w.v, 1, 1), c);
	mi(s->mf, "ISETP.LT.U32.AND %D, PT, %U, %h, PT", k, mpart(t.v, 0, 1), (unsigned)n);
	mi(s->mf, "ISETP.EQ.U32.AND %D, PT, %U, RZ, %U", k, mpart(t.v, 1, 1), k);
	mi(s->mf, "PLOP3.LUT %D, PT, %U, %U, PT, 0x20, 0x0", p, g, k);
	return 0;
}

/* ---- cache hints: prefetch, prefetchu, discard, applypriority ---- */

/* CCTL.E.<op> [Ra+off] (global, generic; a 64-bit address printed without
 * .64) or CCTLL.<op> [Ra+off] (local), as ptxas: .L1 PF1, .L2 and
 * .L2::evict_normal PF2, .L2::evict_last PML2; discard.L2 RML2;
 * applypriority.L2::evict_normal DML2.  No architectural effect. */
static int
sel_cctl(Sel *s, const IrIns *x)
{
	int sp = space_of(x), op = x->p.op;
	const char *what;
	char off[32];
	Addr ad;

	if (ptx_has_mod(&x->p, PTX_M_tensormap))
		return sel_tmap_prefetch(s, x);
	if (op == PTX_OP_discard)
		what = "RML2";
	else if (op == PTX_OP_applypriority)
		what = "DML2";
	else if (ptx_has_mod(&x->p, PTX_M_L1))
		what = "PF1";
	else if (ptx_has_mod(&x->p, PTX_M_L2_evict_last))
		what = "PML2";
	else
		what = "PF2";   /* .L2, .L2::evict_normal */
	if (sp != PTX_S_GLOBAL && sp != PTX_S_GENERIC && !(sp == PTX_S_LOCAL && op == PTX_OP_prefetch))
		return sel_unsupported(s, "this state space for a cache hint");
	if (address(s, D0, sp, &ad) < 0)   /* the address is operand 0 */
		return -1;
	sel_offtxt(off, sizeof off, ad.off);
	mi(s->mf, sp == PTX_S_LOCAL ? "CCTLL.%s [%U%s]" : "CCTL.E.%s [%U%s]", what, ad.base, off);
	return 0;
}

/* createpolicy.fractional d, fraction: the policy ptxas's code computes
 * (cache_policy_fractional): a constant for an immediate fraction, else
 * FMUL by 15.99, F2I.U32.TRUNC, into bits 20..23 of the high word (ptxas's
 * sm_80 sequence). */
static int
sel_createpolicy(Sel *s, const IrIns *x)
{
	int pri, sec;
	u32 f = 0x3f800000u;   /* fraction 1.0 when absent */
	MRef d, r, t;

	if (x->p.op != PTX_OP_createpolicy_fractional)
		return sel_unsupported(s, "createpolicy.range and createpolicy.cvt");
	d = sel_reg(s, D0->reg);
	if (D0->kind != PTX_OPD_REG || s->mf->vr.v[d.v].w != 2)
		return sel_unsupported(s, "createpolicy into a register that is not 64-bit");
	ptx_evict_priorities(&x->p, &pri, &sec);
	mi(s->mf, "MOV %D, 0x0", mpart(d.v, 0, 1));
	if (x->p.nopds < 2 || S1->kind == PTX_OPD_FIMM) {
		if (x->p.nopds >= 2)
			f = S1->is_f64 ? bits_f32((float)f64_of(S1->fbits)) : (u32)S1->fbits;
		mi(s->mf, "MOV %D, %h", mpart(d.v, 1, 1), (unsigned)(cache_policy_fractional(pri, sec == 1, f) >> 32));
		return 0;
	}
	r = sel_r32(s, S1, 0);
	t = sel_tmp(s, 1);
	if (r.v < 0)
		return -1;
	mi(s->mf, "FMUL %D, %U, 15.989999771118164062", t, r);
	mi(s->mf, "F2I.U32.TRUNC.NTZ %D, %U", t, t);
	mi(s->mf, "SHF.L.U32 %D, %U, 0x14, RZ", t, t);
	mi(s->mf, "LOP3.LUT %D, %U, 0xf00000, RZ, 0xe2, !PT", t, t);
	mi(s->mf, "LOP3.LUT %D, %U, %h, RZ, 0xfc, !PT", mpart(d.v, 1, 1), t,
	   (unsigned)(cache_policy_fractional(pri, sec == 1, 0) >> 32));
	return 0;
}

const SelRule sel_rules_mem[] = {
	{PTX_OP_createpolicy_fractional, sel_createpolicy}, {PTX_OP_createpolicy_range, sel_createpolicy},
	{PTX_OP_createpolicy_cvt, sel_createpolicy},
	{PTX_OP_prefetch, sel_cctl}, {PTX_OP_prefetchu, sel_cctl}, {PTX_OP_discard, sel_cctl},
	{PTX_OP_applypriority, sel_cctl},
	{PTX_OP_ld, sel_ld}, {PTX_OP_ldu, sel_ld} /* ptxas: a plain load */, {PTX_OP_st, sel_st}, {PTX_OP_cvta, sel_cvta}, {PTX_OP_isspacep, sel_isspacep}, {PTX_OP_mov, sel_mov},
	{0, NULL},
};
