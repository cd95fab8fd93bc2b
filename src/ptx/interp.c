/* interp.c -- the PTX interpreter's launch: memory layout of variables
 * and parameters, thread creation, and the cooperative scheduler that
 * runs the threads of a cluster (one CTA without clusters), releases
 * barriers and executes warp collectives. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/interp_int.h"

u64 interp_steps;

static u64
align_up(u64 x, u64 a)
{
	return a ? (x + a - 1) / a * a : x;
}

_Noreturn void
ierr(Interp *I, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	Thread *t = I->cur;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (t && I->curin)
		diag_at(&I->m->src, I->curin->pos,
			"kernel %s, ctaid (%u,%u,%u) tid (%u,%u,%u): %s",
			I->entry->name, t->cta->ctaid[0], t->cta->ctaid[1], t->cta->ctaid[2],
			t->tid[0], t->tid[1], t->tid[2], msg);
	else if (I->curin)
		diag_at(&I->m->src, I->curin->pos, "kernel %s: %s", I->entry ? I->entry->name : "?", msg);
	else if (I->entry)
		diag_at(&I->m->src, I->entry->pos, "kernel %s: %s", I->entry->name, msg);
	else
		diag(I->m->src.path, "kernel %s: %s", I->entry ? I->entry->name : "?", msg);
	longjmp(I->fail, 1);
}

/* ---- variable locations ---- */

static u32
vhash(const void *p)
{
	return (u32)(((uintptr_t)p >> 4) * 2654435761u);
}

VarLoc *
var_loc(Interp *I, const PtxVar *v)
{
	u32 i;

	for (i = vhash(v) & (I->vlcap - 1);; i = (i + 1) & (I->vlcap - 1)) {
		if (I->vl[i].var == v)
			return &I->vl[i];
		if (!I->vl[i].var)
			return NULL;
	}
}

static void
var_put(Interp *I, const PtxVar *v, int space, u64 off)
{
	u32 i;

	for (i = vhash(v) & (I->vlcap - 1); I->vl[i].var && I->vl[i].var != v; i = (i + 1) & (I->vlcap - 1))
		;
	I->vl[i].var = v;
	I->vl[i].space = space;
	I->vl[i].off = off;
}

static u64
var_align(const PtxVar *v)
{
	u64 a = v->align ? v->align : (u64)ptx_type_size(v->type) * (v->vec ? v->vec : 1);

	return a ? a : 1;
}

u64
interp_add_global(Interp *I, u8 *data, u64 size, int arg)
{
	u64 base = GW_GLOBAL;
	int n = I->ngl;

	if (n)
		base = align_up(I->gl[n - 1].base + I->gl[n - 1].size + 256, 256);
	I->gl = xrealloc(I->gl, (n + 1) * sizeof *I->gl);
	I->gl[n].base = base;
	I->gl[n].size = size;
	I->gl[n].data = data;
	I->gl[n].arg = arg;
	I->ngl = n + 1;
	return base;
}

/* ---- the shared variables the launched kernel reaches ----
 * Those the entry and every function it names (calls, addresses taken;
 * after an indirect call: every function) name.  As ptxas gives each
 * kernel only its own, the others get no room (a module of kernels with
 * 48 KiB each fits), and an access past a kernel's own variables is out
 * of bounds as on the GPU. */
static void reach_fn(Interp *I, int fi, u8 *fr);

static void
reach_opd(Interp *I, const PtxOperand *o, u8 *fr)
{
	int i;

	if ((o->kind == PTX_OPD_ADDR || o->kind == PTX_OPD_SYM) && o->symkind == PTX_SYM_FUNC &&
	    o->index >= 0 && o->index < I->m->nfuncs && !fr[o->index])
		reach_fn(I, o->index, fr);
	if ((o->kind == PTX_OPD_ADDR || o->kind == PTX_OPD_SYM) && o->var && o->var->space == PTX_S_SHARED) {
		for (i = 0; i < I->nshreach && I->shreach[i] != o->var; i++)
			;
		if (i == I->nshreach) {
			I->shreach = xrealloc(I->shreach, (size_t)(i + 1) * sizeof *I->shreach);
			I->shreach[I->nshreach++] = o->var;
		}
	}
	if (o->kind == PTX_OPD_VEC || o->kind == PTX_OPD_ADDR)
		for (i = 0; i < o->nelems; i++)
			reach_opd(I, &o->elems[i], fr);
}

static void
reach_fn(Interp *I, int fi, u8 *fr)
{
	const PtxFunc *f = I->m->funcs[fi];
	int i, k;

	fr[fi] = 1;
	for (i = 0; i < f->ninstrs; i++) {
		const PtxInstr *in = &f->instrs[i];
		if (in->op == PTX_OP_call && in->nopds > 1 && in->opds[1].kind == PTX_OPD_REG)
			for (k = 0; k < I->m->nfuncs; k++)
				if (!fr[k])
					reach_fn(I, k, fr);
		for (k = 0; k < in->nopds; k++)
			reach_opd(I, &in->opds[k], fr);
	}
	for (i = 0; i < f->nlocals; i++)
		if (f->locals[i]->space == PTX_S_SHARED) {
			I->shreach = xrealloc(I->shreach, (size_t)(I->nshreach + 1) * sizeof *I->shreach);
			I->shreach[I->nshreach++] = f->locals[i];
		}
}

static int
shared_reached(const Interp *I, const PtxVar *v)
{
	int i;

	for (i = 0; i < I->nshreach && I->shreach[i] != v; i++)
		;
	return i < I->nshreach;
}

/* Lay out one variable of a function (fi) or of the module (fi NULL). */
static void
layout_var(Interp *I, FnInfo *fi, const PtxVar *v, int pass)
{
	u64 a = var_align(v), off;
	int dyn = v->space == PTX_S_SHARED && (v->linkage == PTX_LINK_EXTERN || v->size == 0);

	if (pass == 1) {        /* dynamic shared: after everything static */
		if (dyn)
			var_put(I, v, PTX_S_SHARED, align_up(I->shared_static, 16));
		return;
	}
	switch (v->space) {
	case PTX_S_SHARED:
		if (dyn)
			return;
		if (!shared_reached(I, v)) {    /* no room: the kernel cannot name it */
			var_put(I, v, PTX_S_SHARED, 0);
			break;
		}
		off = align_up(I->shared_static, a);
		I->shared_static = off + v->size;
		var_put(I, v, PTX_S_SHARED, off);
		break;
	case PTX_S_GLOBAL: {
		u8 *d;
		I->global_vars += v->size;
		if (I->global_vars > (1ull << 30))
			ierr(I, "module .global variables exceed 1 GiB");
		d = xcalloc(1, v->size ? v->size : 1);
		if (v->init)
			memcpy(d, v->init, v->size);
		var_put(I, v, PTX_S_GLOBAL, interp_add_global(I, d, v->size, -1));
		break;
	}
	case PTX_S_CONST:
		if (v->size > (1u << 20) || I->constsize > (1u << 20))
			ierr(I, ".const data exceeds 1 MiB");
		off = align_up(I->constsize, a);
		I->constsize = off + v->size;
		I->constmem = xrealloc(I->constmem, I->constsize ? I->constsize : 1);
		memset(I->constmem + off, 0, v->size);
		if (v->init)
			memcpy(I->constmem + off, v->init, v->size);
		var_put(I, v, PTX_S_CONST, off);
		break;
	case PTX_S_LOCAL:
		if (!fi)
			ierr(I, "module-scope .local variable %s is not supported", v->name);
		off = align_up(fi->local_size, a);
		fi->local_size = off + v->size;
		var_put(I, v, PTX_S_LOCAL, off);
		break;
	case PTX_S_PARAM:
		ASSERT(fi);
		off = align_up(fi->param_size, a);
		fi->param_size = off + MAX(v->size, (u64)ptx_type_size(v->type));
		var_put(I, v, PTX_S_PARAM, off);
		break;
	default:
		break;  /* .tex etc.: unused */
	}
}

/* Apply initializer relocations (addresses of symbols in .global/.const
 * initializers). */
static void
apply_relocs(Interp *I, const PtxVar *v)
{
	int i;
	VarLoc *vl = var_loc(I, v);
	u8 *base;

	if (!vl || !v->nrelocs)
		return;
	if (vl->space == PTX_S_CONST)
		base = I->constmem + vl->off;
	else if (vl->space == PTX_S_GLOBAL)
		base = mem_ptr(I, NULL, PTX_S_GLOBAL, vl->off, v->size, 1);
	else
		return;
	for (i = 0; i < v->nrelocs; i++) {
		const PtxReloc *r = &v->relocs[i];
		const PtxVar *s = ptx_find_var(I->m, r->sym);
		const PtxFunc *f = s ? NULL : ptx_find_func(I->m, r->sym);
		u64 addr;
		if (s) {
			VarLoc *sl = var_loc(I, s);
			ASSERT(sl);
			addr = sl->off;
			if (r->generic || sl->space == PTX_S_GLOBAL)
				addr = to_generic(I, NULL, sl->space, addr);
		} else if (f) {
			int k;
			for (k = 0; k < I->m->nfuncs && I->m->funcs[k] != f; k++)
				;
			addr = GW_FUNC + (u64)k * 16;
		} else
			ierr(I, "initializer of %s: unknown symbol %s", v->name, r->sym);
		addr += (u64)r->addend;
		if (r->mask)
			addr = (addr & r->mask) >> r->shift;
		if (r->at + r->size > v->size)
			ierr(I, "initializer of %s: relocation out of range", v->name);
		memcpy(base + r->at, &addr, MIN(r->size, 8));
	}
}

static int
layout(Interp *I)
{
	int i, j, pass;
	long nvars = I->m->nvars + 16;

	for (i = 0; i < I->m->nfuncs; i++)
		nvars += I->m->funcs[i]->nlocals + I->m->funcs[i]->nparams + I->m->funcs[i]->nrets;
	for (I->vlcap = 64; I->vlcap < 2 * nvars; I->vlcap *= 2)
		;
	I->vl = xcalloc(I->vlcap, sizeof *I->vl);
	I->fi = xcalloc(I->m->nfuncs + 1, sizeof *I->fi);
	{
		u8 *fr = xcalloc((size_t)I->m->nfuncs + 1, 1);
		for (i = 0; i < I->m->nfuncs; i++)
			if (I->m->funcs[i] == I->entry)
				reach_fn(I, i, fr);
		free(fr);
	}
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < I->m->nvars; i++)
			layout_var(I, NULL, I->m->vars[i], pass);
		for (i = 0; i < I->m->nfuncs; i++) {
			const PtxFunc *f = I->m->funcs[i];
			FnInfo *fi = &I->fi[i];
			fi->fn = f;
			fi->index = i;
			if (pass == 0) {
				fi->rbits = xcalloc(f->nregs + 1, 1);
				for (j = 0; j < f->nregs; j++) {
					int b = tbits(f->regs[j].type);
					fi->rbits[j] = b > 0 && b <= 64 ? b : 64;
				}
				for (j = 0; j < f->nparams; j++)
					layout_var(I, fi, &f->params[j], 0);
				for (j = 0; j < f->nrets; j++)
					layout_var(I, fi, &f->rets[j], 0);
			}
			for (j = 0; j < f->nlocals; j++)
				layout_var(I, fi, f->locals[j], pass);
			fi->param_size = align_up(fi->param_size, 16);
			fi->local_size = align_up(fi->local_size, 16);
		}
	}
	I->shared_size = align_up(I->shared_static, 16) + I->spec->shared;
	I->resv = align_up(I->shared_size, 16);
	if (I->shared_size > 232448)    /* sm_90's limit; the driver refuses more */
		ierr(I, "shared memory of %llu bytes (%llu static + %u dynamic) exceeds 232448",
		     (unsigned long long)I->shared_size, (unsigned long long)I->shared_static, I->spec->shared);
	for (i = 0; i < I->m->nvars; i++)
		apply_relocs(I, I->m->vars[i]);
	return 0;
}

/* Kernel parameters from the spec's arguments, in order. */
static void
bind_params(Interp *I)
{
	const PtxFunc *e = I->entry;
	FnInfo *fi = NULL;
	u64 *addr;
	int i;

	for (i = 0; i < I->m->nfuncs; i++)
		if (I->m->funcs[i] == e)
			fi = &I->fi[i];
	ASSERT(fi);
	if ((int)I->spec->nargs != e->nparams)
		ierr(I, "the spec gives %zu arguments, the kernel has %d parameters",
		     I->spec->nargs, e->nparams);
	I->kparam_size = fi->param_size;
	I->kparam = xcalloc(1, I->kparam_size + 16);
	addr = xcalloc(I->spec->nall + 1, sizeof *addr);
	for (i = 0; i < (int)I->spec->nall; i++)
		if (I->spec->args[i].is_buffer)
			addr[i] = interp_add_global(I, I->l->data[i], I->l->bytes[i], i);
	for (i = 0; i < e->nparams; i++) {
		const SpecArg *a = &I->spec->args[i];
		const PtxVar *p = &e->params[i];
		VarLoc *vl = var_loc(I, p);
		u8 bytes[SPEC_MAX_STRUCT];
		u32 n = launch_param(I->l, i, addr, bytes);
		u64 sz = p->size ? p->size : 8;
		if ((a->is_buffer && sz != 8) || (a->is_struct && sz != n))
			free(addr);
		if (a->is_buffer && sz != 8)
			ierr(I, "parameter %s receives buffer %s but is %d bytes", p->name, a->name, (int)sz);
		if (a->is_struct && sz != n)
			ierr(I, "parameter %s receives struct %s of %u bytes but is %d bytes", p->name, a->name,
			     n, (int)sz);
		memcpy(I->kparam + vl->off, bytes, MIN(sz, n));
	}
	free(addr);
}

/* ---- threads ---- */

/* Move the thread's local stack pointer to sp, growing its memory. */
void
local_grow(Interp *I, Thread *t, u64 sp)
{
	if (sp > (1u << 24))
		ierr(I, "local memory exceeds 16 MiB per thread (call depth %d)", t->depth);
	t->local_sp = sp;
	if (sp > t->local_cap) {
		u64 nc = MAX(sp, 2 * t->local_cap);
		t->local = xrealloc(t->local, nc);
		memset(t->local + t->local_cap, 0, nc - t->local_cap);
		t->local_cap = nc;
	}
}

static void
push_frame(Interp *I, Thread *t, FnInfo *fi)
{
	Frame *f;
	int maxd = I->opts.max_depth ? I->opts.max_depth : 512;

	if (t->depth >= maxd)
		ierr(I, "call depth exceeds %d (unbounded recursion?)", maxd);
	if (t->depth == t->fcap) {
		t->fcap = t->fcap ? 2 * t->fcap : 4;
		t->frames = xrealloc(t->frames, t->fcap * sizeof *t->frames);
	}
	f = &t->frames[t->depth++];
	memset(f, 0, sizeof *f);
	f->fi = fi;
	f->regs = xcalloc(fi->fn->nregs + 1, sizeof(u64));
	f->param = xcalloc(1, fi->param_size + 16);
	f->local_base = align_up(t->local_sp, 16);
	local_grow(I, t, f->local_base + fi->local_size);
	t->fr = f;
}

static void
pop_frame(Thread *t)
{
	Frame *f = &t->frames[--t->depth];

	t->local_sp = f->local_base;
	free(f->regs);
	free(f->param);
	t->fr = t->depth ? &t->frames[t->depth - 1] : NULL;
}

void
do_call(Interp *I, Thread *t, const PtxInstr *in)
{
	const PtxOperand *tg = &in->opds[1], *args = &in->opds[2];
	Frame *caller = t->fr;
	FnInfo *fi;
	int idx, i;

	if (tg->kind == PTX_OPD_SYM)
		idx = tg->index;
	else {
		u64 a = opd_read(I, t, in, tg, PTX_T_U64);
		if (a < GW_FUNC || (a - GW_FUNC) % 16 || (a - GW_FUNC) / 16 >= (u64)I->m->nfuncs)
			ierr(I, "indirect call to 0x%llx, which is not a function", (unsigned long long)a);
		idx = (int)((a - GW_FUNC) / 16);
	}
	fi = &I->fi[idx];
	if (!fi->fn->has_body) {   /* vprintf, malloc...: the arguments' values */
		u64 v[8] = {0}, ret;
		int nv = MIN(args->nelems, 8);
		for (i = 0; i < nv; i++) {
			const PtxOperand *a = &args->elems[i];
			const PtxVar *p = i < fi->fn->nparams ? &fi->fn->params[i] : NULL;
			u64 sz = p ? MIN(MAX(p->size, (u64)ptx_type_size(p->type)), 8) : 8;
			if (a->kind == PTX_OPD_SYM && a->var) {
				VarLoc *al = var_loc(I, a->var);
				memcpy(&v[i], caller->param + al->off, MIN(sz, MAX(a->var->size, (u64)ptx_type_size(a->var->type))));
			} else
				v[i] = opd_read(I, t, in, a, p ? p->type : PTX_T_U64);
		}
		if (interp_syscall(I, t, fi->fn, v, nv, &ret)) {
			if (in->opds[0].nelems > 0 && in->opds[0].elems[0].kind == PTX_OPD_SYM && fi->fn->nrets) {
				VarLoc *vl = var_loc(I, in->opds[0].elems[0].var);
				if (vl)
					memcpy(caller->param + vl->off, &ret, MIN(fi->fn->rets[0].size, 8));
			}
			t->pc++;
			return;
		}
		ierr(I, "call to %s, which has no body", fi->fn->name);
	}
	push_frame(I, t, fi);
	caller = &t->frames[t->depth - 2];
	for (i = 0; i < args->nelems && i < fi->fn->nparams; i++) {
		const PtxOperand *a = &args->elems[i];
		const PtxVar *p = &fi->fn->params[i];
		VarLoc *pl = var_loc(I, p);
		u64 psz = MAX(p->size, (u64)ptx_type_size(p->type));
		if (a->kind == PTX_OPD_SYM && a->var) {
			VarLoc *al = var_loc(I, a->var);
			u64 asz = MAX(a->var->size, (u64)ptx_type_size(a->var->type));
			ASSERT(al);
			memcpy(t->fr->param + pl->off, caller->param + al->off, MIN(psz, asz));
		} else {
			u64 v;
			Frame *save = t->fr;
			t->fr = caller;
			v = opd_read(I, t, in, a, p->type);
			t->fr = save;
			memcpy(t->fr->param + pl->off, &v, MIN(psz, 8));
		}
	}
	t->fr->ret_pc = t->pc + 1;
	t->fr->call = in;
	t->pc = 0;
}

void
do_ret(Interp *I, Thread *t)
{
	Frame *f = t->fr, *caller;
	const PtxInstr *call = f->call;
	int i;

	if (t->depth == 1) {
		t->state = TS_DONE;
		return;
	}
	caller = &t->frames[t->depth - 2];
	for (i = 0; i < call->opds[0].nelems && i < f->fi->fn->nrets; i++) {
		const PtxOperand *r = &call->opds[0].elems[i];
		const PtxVar *rv = &f->fi->fn->rets[i];
		VarLoc *rl = var_loc(I, rv);
		u64 rsz = MAX(rv->size, (u64)ptx_type_size(rv->type));
		if (r->kind == PTX_OPD_SYM && r->var) {
			VarLoc *cl = var_loc(I, r->var);
			memcpy(caller->param + cl->off, f->param + rl->off, MIN(rsz, MAX(r->var->size, (u64)ptx_type_size(r->var->type))));
		} else if (r->kind == PTX_OPD_REG) {
			u64 v = 0;
			memcpy(&v, f->param + rl->off, MIN(rsz, 8));
			caller->regs[r->reg] = v;
		}
	}
	t->pc = f->ret_pc;
	pop_frame(t);
}

/* ---- the scheduler ---- */

/* --trace: the source line of each executed instruction of one thread,
 * then the registers it wrote (the destination operands). */
void
interp_trace(Interp *I, Thread *t, const PtxInstr *in)
{
	const char *src = I->m->src.text, *b = src + in->pos, *e = b;
	FILE *f = I->opts.trace;
	int i;

	const char *p;
	int line = 1;

	for (p = src; p < b; p++)
		line += *p == '\n';
	while (*e && *e != '\n' && *e != ';')
		e++;
	fprintf(f, "%5d  %-60.*s", line, (int)(e - b), b);
	if (in->guard >= 0 && (t->fr->regs[in->guard] != 0) == in->guard_neg) {
		fputs(" (guard false)\n", f);
		return;
	}
	if (in->nopds > 0 && in->op != PTX_OP_st && in->op != PTX_OP_bra && in->op != PTX_OP_call) {
		const PtxOperand *o = &in->opds[0];
		int n = o->kind == PTX_OPD_VEC ? o->nelems : 1;
		for (i = 0; i < n; i++) {
			const PtxOperand *r = o->kind == PTX_OPD_VEC ? &o->elems[i] : o;
			if (r->kind == PTX_OPD_REG && t->fr)
				fprintf(f, " %s=0x%llx", ptx_reg_name(t->fr->fi->fn, r->reg),
					(unsigned long long)t->fr->regs[r->reg]);
		}
	}
	fputc('\n', f);
}

/* Run t until it blocks, exits, or has run a time slice (so that threads
 * spinning on memory written by others let those run). */
static void
run_thread(Interp *I, Thread *t)
{
	u64 slice = I->steps + 100000;

	I->cur = t;
	t->spinning = 0;
	if (t->state == TS_YIELD)
		t->state = TS_RUN;
	while (t->state == TS_RUN) {
		const PtxInstr *in;
		if (t->pc >= t->fr->fi->fn->ninstrs) {  /* fell off the end */
			I->curin = NULL;
			do_ret(I, t);
			continue;
		}
		in = cur_instr(t);
		I->curin = in;
		if (++I->steps > I->max_steps)
			ierr(I, "step limit of %llu thread-instructions exceeded (infinite loop or deadlock?)",
			     (unsigned long long)I->max_steps);
		if (in->guard >= 0 && (t->fr->regs[in->guard] != 0) == in->guard_neg) {
			if (t->traced)
				interp_trace(I, t, in);
			t->pc++;
			continue;
		}
		if (is_collective(in)) {
			t->state = TS_WARP;
			break;
		}
		exec_one(I, t, in);
		if (t->traced)
			interp_trace(I, t, in);
		if (I->steps > slice && t->state == TS_RUN)
			t->state = TS_YIELD;
	}
}

static int
live_threads(Cta *c)
{
	return c->nth - c->ndone;
}

static int
release_barriers(Interp *I, Cta *c)
{
	int id, i, progress = 0;

	for (id = 0; id < 16; id++) {
		Barrier *b = &c->bar[id];
		int need = b->expected ? b->expected : live_threads(c);
		u64 popc = 0, all = 1, any = 0;
		if (!b->waiting || b->arrived < need)
			continue;
		for (i = 0; i < c->nth; i++) {
			Thread *t = &c->th[i];
			if (t->state == TS_BAR && t->bar == id) {
				popc += t->barval != 0;
				all &= t->barval != 0;
				any |= t->barval != 0;
			}
		}
		for (i = 0; i < c->nth; i++) {
			Thread *t = &c->th[i];
			if (t->state == TS_BAR && t->bar == id) {
				const PtxInstr *in = cur_instr(t);
				if (in->op == PTX_OP_bar_red || in->op == PTX_OP_barrier_red) {
					u64 r = in->aop == PTX_AOP_POPC ? popc : in->aop == PTX_AOP_AND ? all : any;
					I->cur = t;
					I->curin = in;
					opd_write(I, t, &in->opds[0], in->aop == PTX_AOP_POPC ? PTX_T_U32 : PTX_T_PRED, r);
				}
				t->state = TS_RUN;
				t->pc++;
			}
		}
		b->arrived = b->waiting = b->expected = 0;
		b->gen++;
		progress = 1;
	}
	return progress;
}

static int
release_cluster(Interp *I)
{
	int k, c, i, progress = 0;

	for (k = 0; k < I->nclusters; k++) {
		int live = 0;
		for (c = k * I->csize; c < (k + 1) * I->csize; c++)
			live += live_threads(&I->ctas[c]);
		if (!I->clb[k].arrived || I->clb[k].arrived < live)
			continue;
		I->clb[k].arrived = 0;
		I->clb[k].gen++;
		for (c = k * I->csize; c < (k + 1) * I->csize; c++)
			for (i = 0; i < I->ctas[c].nth; i++) {
				Thread *t = &I->ctas[c].th[i];
				if (t->state == TS_BAR && t->bar == 16) {
					t->state = TS_RUN;
					t->pc++;
				}
			}
		progress = 1;
	}
	return progress;
}

/* Whether two threads got where they are through the same call sites. */
static int
same_calls(const Thread *a, const Thread *b)
{
	int d;

	if (a->depth != b->depth)
		return 0;
	for (d = 1; d < a->depth; d++)
		if (a->frames[d].call != b->frames[d].call)
			return 0;
	return 1;
}

/* Warp collectives: group the lanes waiting at a collective by
 * instruction; a group runs once every lane its membermask names (that
 * has not exited) is in it, whatever the other lanes do (independent
 * thread scheduling).  Instructions without a membermask (activemask,
 * vote without .sync) wait until no lane of the warp can run, and then
 * take the lanes that are there through the same call sites (-G code
 * calls one __activemask from both sides of a branch: those paths are
 * not one group). */
static int
run_warp(Interp *I, Cta *c, int w)
{
	Thread *ts[32], *grp[32];
	int i, n = 0, progress = 0, runnable = 0;
	int lo = w * 32, hi = MIN(c->nth, lo + 32);

	for (i = lo; i < hi; i++) {
		int s = c->th[i].state;
		runnable |= s == TS_RUN || s == TS_YIELD;
		if (s == TS_WARP)
			ts[n++] = &c->th[i];
	}
	while (n > 0) {
		Thread *t0 = ts[0];
		const PtxInstr *in = cur_instr(t0);
		int k = 0, m = 0;
		u32 g = 0, need;
		/* the lanes at the same instruction with the same member mask
		   execute it together (its result covers those lanes: redux or
		   vote in the groups match.any made are several groups) */
		I->cur = t0;
		I->curin = in;
		need = collective_mask(I, t0, in);
		for (i = 0; i < n; i++) {
			if (cur_instr(ts[i]) == in && (i == 0 || (collective_mask(I, ts[i], in) == need &&
							  (need || same_calls(t0, ts[i]))))) {
				grp[k++] = ts[i];
				g |= 1u << ts[i]->lane;
			} else
				ts[m++] = ts[i];
		}
		n = m;
		/* lanes the instruction needs that have not exited must be here */
		if (hi - lo < 32)       /* lanes past the end of a partial warp */
			need &= (1u << (hi - lo)) - 1;
		for (i = lo; i < hi; i++)
			if (c->th[i].state == TS_DONE)
				need &= ~(1u << (i - lo));
		if ((need & ~g) || (!need && runnable))
			continue;
		exec_collective(I, grp, k, in);
		progress = 1;
	}
	return progress;
}

static void
init_cta(Interp *I, Cta *c, u32 cx, u32 cy, u32 cz, int rank, FnInfo *efi)
{
	int n = (int)(I->block[0] * I->block[1] * I->block[2]), i;

	memset(c, 0, sizeof *c);
	c->ctaid[0] = cx;
	c->ctaid[1] = cy;
	c->ctaid[2] = cz;
	c->rank = rank;
	c->shared = xcalloc(1, I->resv + SPEC_RESV + 16);
	c->nth = n;
	c->nwarps = (n + 31) / 32;
	c->th = xcalloc(n, sizeof *c->th);
	for (i = 0; i < n; i++) {
		Thread *t = &c->th[i];
		t->lin = i;
		t->tid[0] = i % I->block[0];
		t->tid[1] = i / I->block[0] % I->block[1];
		t->tid[2] = i / (I->block[0] * I->block[1]);
		t->lane = i % 32;
		t->warp = i / 32;
		t->cta = c;
		push_frame(I, t, efi);
		memcpy(t->fr->param, I->kparam, I->kparam_size);
		t->traced = I->opts.trace && i == I->opts.trace_tid &&
			    (long)(cx + I->grid[0] * (cy + (u64)I->grid[1] * cz)) == I->opts.trace_cta;
	}
}

static void
free_cta(Cta *c)
{
	int i;

	for (i = 0; i < c->nth; i++) {
		Thread *t = &c->th[i];
		while (t->depth)
			pop_frame(t);
		free(t->frames);
		free(t->local);
	}
	free(c->th);
	free(c->shared);
}

static void
count_done(Interp *I)
{
	int c, i;

	for (c = 0; c < I->nctas; c++) {
		Cta *ct = &I->ctas[c];
		ct->ndone = 0;
		for (i = 0; i < ct->nth; i++)
			ct->ndone += ct->th[i].state == TS_DONE;
	}
}

static int
all_spinning(Interp *I)
{
	int c, i;

	for (c = 0; c < I->nctas; c++)
		for (i = 0; i < I->ctas[c].nth; i++) {
			Thread *t = &I->ctas[c].th[i];
			if (t->state == TS_RUN || (t->state == TS_YIELD && !t->spinning))
				return 0;
		}
	return 1;
}

static _Noreturn void
deadlock(Interp *I)
{
	int c, i;

	for (c = 0; c < I->nctas; c++)
		for (i = 0; i < I->ctas[c].nth; i++) {
			Thread *t = &I->ctas[c].th[i];
			if (t->state == TS_YIELD && t->spinning) {
				I->cur = t;
				I->curin = &t->fr->fi->fn->instrs[t->pc > 0 ? t->pc - 1 : 0];
				ierr(I, "deadlock: this thread waits for an mbarrier phase (or sleeps) that no thread can complete");
			}
			if (t->state == TS_BAR || t->state == TS_WARP) {
				I->cur = t;
				I->curin = cur_instr(t);
				ierr(I, "deadlock: this thread waits %s and no thread can run",
				     t->state == TS_BAR ? "at a barrier" :
				     "for lanes of its warp that wait elsewhere (divergent collective)");
			}
		}
	ierr(I, "deadlock");
}

/* Run a wave of clusters (by default one cluster, one CTA when the launch
 * has no clusters): org[k] is the ctaid of cluster k's first CTA. */
static void
run_wave(Interp *I, const u32 (*org)[3], int nclusters, FnInfo *efi)
{
	u32 x, y, z;
	int c, i, w, k, alive, spin = 0;

	I->csize = (int)(I->cluster[0] * I->cluster[1] * I->cluster[2]);
	I->nclusters = nclusters;
	I->nctas = I->csize * nclusters;
	I->ctas = xcalloc(I->nctas, sizeof *I->ctas);
	I->clb = xcalloc(nclusters, sizeof *I->clb);
	c = 0;
	for (k = 0; k < nclusters; k++)
		for (z = 0; z < I->cluster[2]; z++)
			for (y = 0; y < I->cluster[1]; y++)
				for (x = 0; x < I->cluster[0]; x++, c++) {
					init_cta(I, &I->ctas[c], org[k][0] + x, org[k][1] + y, org[k][2] + z,
						 c % I->csize, efi);
					I->ctas[c].cl = k;
				}
	for (;;) {
		int progress = 0;
		u64 before = I->steps, w0 = I->writes;
		for (c = 0; c < I->nctas; c++) {
			Cta *ct = &I->ctas[c];
			for (i = 0; i < ct->nth; i++) {
				Thread *t = &ct->th[i];
				if (t->state == TS_RUN || t->state == TS_YIELD)
					run_thread(I, t);
			}
		}
		count_done(I);
		for (c = 0; c < I->nctas; c++) {
			Cta *ct = &I->ctas[c];
			progress |= release_barriers(I, ct);
			for (w = 0; w < ct->nwarps; w++)
				progress |= run_warp(I, ct, w);
		}
		count_done(I);
		progress |= release_cluster(I);
		alive = 0;
		for (c = 0; c < I->nctas; c++)
			alive += live_threads(&I->ctas[c]);
		if (!alive)
			break;
		if (!progress && I->steps == before)
			deadlock(I);
		/* every live thread spins on a wait and nothing was written */
		if (!progress && I->writes == w0 && all_spinning(I)) {
			if (++spin > 1000)
				deadlock(I);
		} else
			spin = 0;
	}
	for (c = 0; c < I->nctas; c++)
		free_cta(&I->ctas[c]);
	free(I->ctas);
	free(I->clb);
	I->ctas = NULL;
	I->clb = NULL;
}

static const PtxFunc *
find_entry(Interp *I, const char *name)
{
	const PtxFunc *e = NULL;
	int i, n = 0;

	for (i = 0; i < I->m->nfuncs; i++) {
		const PtxFunc *f = I->m->funcs[i];
		if (!f->is_entry)
			continue;
		if (name && !strcmp(f->name, name))
			return f;
		e = f;
		n++;
	}
	if (name)
		ierr(I, "no kernel named %s in the module", name);
	if (n != 1)
		ierr(I, "the module has %d kernels: name one (--kernel or the spec's \"kernel\")", n);
	return e;
}

static void
interp_free(Interp *I)
{
	int i;

	for (i = 0; i < I->ngl; i++)
		if (I->gl[i].arg < 0)
			free(I->gl[i].data);
	dev_heap_free(&I->heap);
	free(I->gl);
	free(I->constmem);
	free(I->kparam);
	free(I->org);
	free(I->clb);
	free(I->vl);
	free(I->shreach);
	if (I->fi)
		for (i = 0; i < I->m->nfuncs; i++)
			free(I->fi[i].rbits);
	free(I->fi);
	if (I->ctas) {
		for (i = 0; i < I->nctas; i++)
			if (I->ctas[i].th)
				free_cta(&I->ctas[i]);
		free(I->ctas);
	}
}

/* The launch must satisfy the entry's .reqntid / .maxntid /
 * .reqnctapercluster (the driver refuses the launch otherwise). */
static void
check_directives(Interp *I)
{
	const PtxFunc *e = I->entry;
	u64 n = (u64)I->block[0] * I->block[1] * I->block[2];
	int i;

	for (i = 0; i < 3; i++) {
		if (e->reqntid[0] && I->block[i] != (e->reqntid[i] ? e->reqntid[i] : 1))
			ierr(I, "block %u x %u x %u differs from the kernel's .reqntid %u, %u, %u",
			     I->block[0], I->block[1], I->block[2], e->reqntid[0],
			     e->reqntid[1] ? e->reqntid[1] : 1, e->reqntid[2] ? e->reqntid[2] : 1);
		if (e->reqnctapercluster[0] && I->cluster[i] !=
		    (e->reqnctapercluster[i] ? e->reqnctapercluster[i] : 1))
			ierr(I, "cluster %u x %u x %u differs from the kernel's .reqnctapercluster",
			     I->cluster[0], I->cluster[1], I->cluster[2]);
	}
	if (e->maxntid[0]) {
		u64 m = (u64)e->maxntid[0] * (e->maxntid[1] ? e->maxntid[1] : 1) * (e->maxntid[2] ? e->maxntid[2] : 1);
		if (n > m)
			ierr(I, "block of %llu threads exceeds the kernel's .maxntid (%llu)",
			     (unsigned long long)n, (unsigned long long)m);
	}
}

int
interp_run(PtxModule *m, const char *kernel, Launch *l, const InterpOpts *o)
{
	Interp *I = xcalloc(1, sizeof *I);
	FnInfo *efi = NULL;
	u32 gx, gy, gz;
	int i, rc = 0;

	I->m = m;
	I->l = l;
	I->spec = l->spec;
	if (o)
		I->opts = *o;
	I->max_steps = I->opts.max_steps ? I->opts.max_steps : 1000000000ull;
	if (setjmp(I->fail)) {
		rc = -1;
		goto out;
	}
	I->entry = find_entry(I, kernel ? kernel : I->spec->kernel);
	for (i = 0; i < 3; i++) {
		I->grid[i] = I->spec->grid[i] ? I->spec->grid[i] : 1;
		I->block[i] = I->spec->block[i] ? I->spec->block[i] : 1;
		I->cluster[i] = I->spec->cluster[i] ? I->spec->cluster[i] : 1;
		if (I->entry->reqnctapercluster[i] && !I->spec->cluster[i])
			I->cluster[i] = I->entry->reqnctapercluster[i];
		if (I->grid[i] % I->cluster[i])
			ierr(I, "grid dimension %d (%u) is not a multiple of the cluster (%u)",
			     i, I->grid[i], I->cluster[i]);
	}
	if ((u64)I->block[0] * I->block[1] * I->block[2] > 1024)
		ierr(I, "block of %u x %u x %u threads exceeds 1024", I->block[0], I->block[1], I->block[2]);
	check_directives(I);
	layout(I);
	bind_params(I);
	if (I->spec->cooperative) {   /* every CTA at once, a zeroed workspace */
		I->coop_ws = interp_add_global(I, xcalloc(SPEC_COOP_BYTES, 1), SPEC_COOP_BYTES, -1);
		I->opts.all_ctas = 1;
	}
	for (i = 0; i < m->nfuncs; i++)
		if (m->funcs[i] == I->entry)
			efi = &I->fi[i];
	if ((u64)(efi->fn->nregs + 1) * 8 * I->block[0] * I->block[1] * I->block[2] *
	    I->cluster[0] * I->cluster[1] * I->cluster[2] > (1ull << 30))
		ierr(I, "%d registers per thread need more than 1 GiB for one cluster", efi->fn->nregs);
	if (I->opts.all_ctas) {
		u64 n = (u64)I->grid[0] / I->cluster[0] * (I->grid[1] / I->cluster[1]) * (I->grid[2] / I->cluster[2]);
		u32 (*org)[3];
		int k = 0;
		if (n * I->block[0] * I->block[1] * I->block[2] * I->cluster[0] * I->cluster[1] * I->cluster[2] > (1u << 20))
			ierr(I, "--all-ctas runs at most 2^20 threads at once");
		org = xcalloc(n, sizeof *org);
		for (gz = 0; gz < I->grid[2]; gz += I->cluster[2])
			for (gy = 0; gy < I->grid[1]; gy += I->cluster[1])
				for (gx = 0; gx < I->grid[0]; gx += I->cluster[0], k++) {
					org[k][0] = gx;
					org[k][1] = gy;
					org[k][2] = gz;
				}
		I->org = org;
		run_wave(I, (const u32 (*)[3])org, (int)n, efi);
	} else
		for (gz = 0; gz < I->grid[2]; gz += I->cluster[2])
			for (gy = 0; gy < I->grid[1]; gy += I->cluster[1])
				for (gx = 0; gx < I->grid[0]; gx += I->cluster[0]) {
					u32 org1[1][3] = { { gx, gy, gz } };
					run_wave(I, (const u32 (*)[3])org1, 1, efi);
				}
out:
	interp_steps = I->steps;
	interp_free(I);
	free(I);
	return rc;
}
