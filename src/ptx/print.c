/* print.c -- write a PtxModule back as PTX text.  The output is canonical
 * (one declaration per register range, flattened scopes with renamed
 * shadowed names, hex float immediates) and parses to the same module;
 * `openassembler parse --dump` uses it and the tests round-trip it. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptxint.h"

typedef struct {
	const PtxModule *m;
	const PtxFunc *f;
	Buf *o;
	const char **regname;   /* per decl, possibly renamed */
	const char **localname; /* per local */
	const char **labelname; /* per label, renamed when scopes shared names */
	const char **protoname; /* per prototype, likewise */
	const char **btname;    /* per branch-target table, likewise */
} Pr;

static const char *linkname[] = { "", ".visible ", ".extern ", ".weak ", ".common " };

static const char *
var_name(Pr *pr, const PtxVar *v)
{
	int i;

	if (pr->f) {
		for (i = 0; i < pr->f->nlocals; i++)
			if (pr->f->locals[i] == v)
				return pr->localname[i];
	}
	return v->name;
}

static void
print_opd(Pr *pr, const PtxOperand *o)
{
	Buf *b = pr->o;
	int i;

	switch (o->kind) {
	case PTX_OPD_REG:
		if (o->neg)
			buf_putc(b, '!');
		if (o->reg >= 0) {
			const PtxRegDecl *d = &pr->f->regdecls[pr->f->regs[o->reg].decl];
			buf_puts(b, pr->regname[pr->f->regs[o->reg].decl]);
			if (d->range)
				buf_printf(b, "%d", o->reg - d->first);
		}
		if (o->reg2 >= 0) {
			const PtxRegDecl *d = &pr->f->regdecls[pr->f->regs[o->reg2].decl];
			buf_printf(b, "|%s", pr->regname[pr->f->regs[o->reg2].decl]);
			if (d->range)
				buf_printf(b, "%d", o->reg2 - d->first);
		}
		break;
	case PTX_OPD_SREG:
		buf_puts(b, ptx_sreg_name(o->sreg));
		if (o->comp >= 0)
			buf_printf(b, ".%c", "xyzw"[o->comp]);
		break;
	case PTX_OPD_IMM:
		buf_printf(b, "%" PRId64, o->imm);
		break;
	case PTX_OPD_FIMM:
		if (o->is_f64)
			buf_printf(b, "0d%016" PRIX64, o->fbits);
		else
			buf_printf(b, "0f%08" PRIX32, (u32)o->fbits);
		break;
	case PTX_OPD_SYM:
		if (o->symkind == PTX_SYM_LABEL && pr->labelname)
			buf_puts(b, pr->labelname[o->label]);
		else if (o->symkind == PTX_SYM_PROTO && pr->protoname)
			buf_puts(b, pr->protoname[o->index]);
		else if (o->symkind == PTX_SYM_BTARGETS && pr->btname)
			buf_puts(b, pr->btname[o->index]);
		else
			buf_puts(b, o->symkind == PTX_SYM_VAR ? var_name(pr, o->var) : o->sym);
		if (o->imm || o->has_off)
			buf_printf(b, "+%" PRId64, o->imm);
		break;
	case PTX_OPD_ADDR:
		buf_putc(b, '[');
		if (o->reg >= 0) {
			PtxOperand r = *o;
			r.kind = PTX_OPD_REG;
			r.reg2 = -1;
			r.neg = 0;
			print_opd(pr, &r);
		} else if (o->sym) {
			buf_puts(b, o->symkind == PTX_SYM_VAR ? var_name(pr, o->var) : o->sym);
		}
		if (o->reg >= 0 || o->sym) {
			if (o->imm || o->has_off)
				buf_printf(b, "+%" PRId64, o->imm);
		} else {
			buf_printf(b, "%" PRId64, o->imm);
		}
		for (i = 0; i < o->nelems; i++) {
			buf_puts(b, ", ");
			print_opd(pr, &o->elems[i]);
		}
		buf_putc(b, ']');
		break;
	case PTX_OPD_VEC:
		buf_putc(b, '{');
		for (i = 0; i < o->nelems; i++) {
			if (i)
				buf_puts(b, ", ");
			print_opd(pr, &o->elems[i]);
		}
		buf_putc(b, '}');
		break;
	case PTX_OPD_SINK:
		buf_putc(b, '_');
		break;
	}
}

static void
print_list(Pr *pr, const PtxOperand *o)
{
	int i;

	buf_putc(pr->o, '(');
	for (i = 0; i < o->nelems; i++) {
		if (i)
			buf_puts(pr->o, ", ");
		print_opd(pr, &o->elems[i]);
	}
	buf_putc(pr->o, ')');
}

static void
print_instr(Pr *pr, const PtxInstr *in)
{
	Buf *b = pr->o;
	int i;

	buf_putc(b, '\t');
	if (in->guard >= 0) {
		PtxOperand g = {0};
		g.kind = PTX_OPD_REG;
		g.reg = in->guard;
		g.reg2 = -1;
		buf_puts(b, in->guard_neg ? "@!" : "@");
		print_opd(pr, &g);
		buf_putc(b, ' ');
	}
	i = 0;
	if (in->nmods && in->mods[0] == PTX_M_cta && !strncmp(ptx_op_name(in->op), "bar", 3) &&
	    strchr(ptx_op_name(in->op), '.')) {
		/* bar.cta.sync: the scope sits between the two opcode words */
		const char *name = ptx_op_name(in->op), *dot = strchr(name, '.');
		buf_printf(b, "%.*s.cta%s", (int)(dot - name), name, dot);
		i = 1;
	} else {
		buf_puts(b, ptx_op_name(in->op));
	}
	for (; i < in->nmods; i++)
		buf_puts(b, ptx_mod_name(in->mods[i]));
	if (in->op == PTX_OP_call) {
		buf_putc(b, ' ');
		if (in->opds[0].nelems) {
			print_list(pr, &in->opds[0]);
			buf_puts(b, ", ");
		}
		print_opd(pr, &in->opds[1]);
		if (in->opds[2].nelems || in->nopds > 3) {
			buf_puts(b, ", ");
			print_list(pr, &in->opds[2]);
		}
		if (in->nopds > 3) {
			buf_puts(b, ", ");
			print_opd(pr, &in->opds[3]);
		}
	} else {
		for (i = 0; i < in->nopds; i++) {
			buf_puts(b, i ? ", " : " ");
			print_opd(pr, &in->opds[i]);
		}
	}
	buf_puts(b, ";\n");
}

static void
print_decl(Pr *pr, const PtxVar *v, const char *name)
{
	Buf *b = pr->o;
	int i;

	if (v->ptr) {
		buf_printf(b, " .%s .ptr", ptx_type_name(v->type));
		if (v->ptr_space)
			buf_printf(b, " .%s", ptx_space_name(v->ptr_space));
		buf_printf(b, " .align %u %s", v->align, name);
	} else {
		buf_printf(b, " .align %u", v->align);
		if (v->vec > 1)
			buf_printf(b, " .v%d", v->vec);
		buf_printf(b, " .%s %s", ptx_type_name(v->type), name);
	}
	for (i = 0; i < v->ndims; i++)
		if (v->dims[i] || v->init)
			buf_printf(b, "[%" PRIu64 "]", v->dims[i]);
		else
			buf_puts(b, "[]");
}

static void
print_params(Pr *pr, const PtxVar *v, int n)
{
	int i;

	buf_putc(pr->o, '(');
	for (i = 0; i < n; i++) {
		buf_puts(pr->o, i ? ",\n\t.param" : "\n\t.param");
		print_decl(pr, &v[i], v[i].name);
	}
	buf_puts(pr->o, n ? "\n)" : ")");
}

static void
print_elem(Pr *pr, const PtxVar *v, u64 i, int *r)
{
	Buf *b = pr->o;
	int es = ptx_type_size(v->type), k;
	u64 x = 0;

	if (*r < v->nrelocs && v->relocs[*r].at == i * (u64)es) {
		const PtxReloc *rl = &v->relocs[(*r)++];
		if (rl->mask)
			buf_printf(b, "0x%" PRIX64 "(", rl->mask);
		buf_printf(b, rl->generic ? "generic(%s)" : "%s", rl->sym);
		if (rl->addend)
			buf_printf(b, "+%" PRId64, rl->addend);
		if (rl->mask)
			buf_putc(b, ')');
		return;
	}
	for (k = es - 1; k >= 0; k--)
		x = x << 8 | v->init[i * (u64)es + (u64)k];
	if (v->type == PTX_T_F32)
		buf_printf(b, "0f%08" PRIX64, x);
	else if (v->type == PTX_T_F64)
		buf_printf(b, "0d%016" PRIX64, x);
	else if (ptx_type_is_signed(v->type) && es < 8 && (x >> (8 * es - 1)))
		buf_printf(b, "%" PRId64, (i64)(x | ~0ull << (8 * es)));
	else if (ptx_type_is_signed(v->type))
		buf_printf(b, "%" PRId64, (i64)x);
	else
		buf_printf(b, "%" PRIu64, x);
}

/* Elements [*i, *i + count of this level) with braces per dimension. */
static void
print_level(Pr *pr, const PtxVar *v, int dim, u64 *i, int *r)
{
	u64 n, j;

	if (dim == v->ndims) {
		if (v->vec == 1) {
			print_elem(pr, v, (*i)++, r);
			return;
		}
		n = v->vec;
	} else {
		n = v->dims[dim];
	}
	buf_putc(pr->o, '{');
	for (j = 0; j < n; j++) {
		if (j)
			buf_puts(pr->o, ", ");
		if (dim == v->ndims)
			print_elem(pr, v, (*i)++, r);
		else
			print_level(pr, v, dim + 1, i, r);
	}
	buf_putc(pr->o, '}');
}

static void
print_init(Pr *pr, const PtxVar *v)
{
	u64 i = 0;
	int r = 0;

	buf_puts(pr->o, " = ");
	print_level(pr, v, 0, &i, &r);
}

static void
print_var(Pr *pr, const PtxVar *v, const char *name)
{
	buf_printf(pr->o, "%s.%s", linkname[v->linkage], ptx_space_name(v->space));
	print_decl(pr, v, name);
	if (v->init)
		print_init(pr, v);
	buf_puts(pr->o, ";\n");
}

/* Does a plain register name fall inside a declared range (%p1 vs %p<5>)? */
static int
in_range(const HMap *ranges, const char *name)
{
	size_t n = strlen(name), k = n;
	int c;

	while (k > 0 && name[k - 1] >= '0' && name[k - 1] <= '9')
		k--;
	if (k == n || n - k > 9)
		return 0;
	c = hm_get(ranges, name, k);
	return c > 0 && atoi(name + k) < c;
}

static const char *
uniq(Arena *a, HMap *seen, const char *name, int *serial)
{
	char tmp[300];

	if (hm_get(seen, name, strlen(name)) < 0) {
		hm_put(seen, name, strlen(name), 1);
		return name;
	}
	do
		snprintf(tmp, sizeof tmp, "%s__s%d", name, ++*serial);
	while (hm_get(seen, tmp, strlen(tmp)) >= 0);
	name = arena_strdup(a, tmp);
	hm_put(seen, name, strlen(name), 1);
	return name;
}

static void
print_func(Pr *pr, const PtxFunc *f)
{
	Buf *b = pr->o;
	Arena a = {0};
	HMap seen = {0}, ranges = {0};
	int i, j, serial = 0, l, loc_file, loc_line;

	buf_printf(b, "%s%s ", linkname[f->linkage], f->is_entry ? ".entry" : ".func");
	if (f->nrets) {
		print_params(pr, f->rets, f->nrets);
		buf_putc(b, ' ');
	}
	buf_puts(b, f->name);
	if (f->nparams || f->is_entry)
		print_params(pr, f->params, f->nparams);
	if (f->noreturn)
		buf_puts(b, " .noreturn");
	if (f->maxntid[0])
		buf_printf(b, "\n.maxntid %u, %u, %u", f->maxntid[0], f->maxntid[1], f->maxntid[2]);
	if (f->reqntid[0])
		buf_printf(b, "\n.reqntid %u, %u, %u", f->reqntid[0], f->reqntid[1], f->reqntid[2]);
	if (f->minnctapersm)
		buf_printf(b, "\n.minnctapersm %u", f->minnctapersm);
	if (f->maxnctapersm)
		buf_printf(b, "\n.maxnctapersm %u", f->maxnctapersm);
	if (f->maxnreg)
		buf_printf(b, "\n.maxnreg %u", f->maxnreg);
	if (f->explicitcluster)
		buf_puts(b, "\n.explicitcluster");
	if (f->reqnctapercluster[0])
		buf_printf(b, "\n.reqnctapercluster %u, %u, %u", f->reqnctapercluster[0],
			   f->reqnctapercluster[1], f->reqnctapercluster[2]);
	if (!f->has_body) {
		buf_puts(b, ";\n\n");
		return;
	}
	buf_puts(b, "\n{\n");
	for (i = 0; i < f->nparams; i++)
		hm_put(&seen, f->params[i].name, strlen(f->params[i].name), 1);
	for (i = 0; i < f->nrets; i++)
		hm_put(&seen, f->rets[i].name, strlen(f->rets[i].name), 1);
	pr->f = f;
	pr->regname = arena_alloc(&a, (size_t)(f->nregdecls + 1) * sizeof(char *));
	pr->localname = arena_alloc(&a, (size_t)(f->nlocals + 1) * sizeof(char *));
	for (i = 0; i < f->nregdecls; i++)
		if (f->regdecls[i].range)
			hm_put(&ranges, f->regdecls[i].name, strlen(f->regdecls[i].name),
			       f->regdecls[i].count);
	for (i = 0; i < f->nregdecls; i++) {
		const PtxRegDecl *d = &f->regdecls[i];
		if (!d->range && in_range(&ranges, d->name))
			hm_put(&seen, d->name, strlen(d->name), 1);
		pr->regname[i] = uniq(&a, &seen, d->name, &serial);
		if (d->range)
			buf_printf(b, "\t.reg .%s %s<%d>;\n", ptx_type_name(d->type), pr->regname[i], d->count);
		else
			buf_printf(b, "\t.reg .%s %s;\n", ptx_type_name(d->type), pr->regname[i]);
	}
	pr->labelname = arena_alloc(&a, (size_t)(f->nlabels + 1) * sizeof(char *));
	for (i = 0; i < f->nlabels; i++)
		pr->labelname[i] = uniq(&a, &seen, f->labelnames[i], &serial);
	pr->protoname = arena_alloc(&a, (size_t)(f->nprotos + 1) * sizeof(char *));
	for (i = 0; i < f->nprotos; i++)
		pr->protoname[i] = uniq(&a, &seen, f->protos[i].name, &serial);
	pr->btname = arena_alloc(&a, (size_t)(f->nbtargets + 1) * sizeof(char *));
	for (i = 0; i < f->nbtargets; i++)
		pr->btname[i] = uniq(&a, &seen, f->btargets[i].name, &serial);
	for (i = 0; i < f->nlocals; i++) {
		pr->localname[i] = uniq(&a, &seen, f->locals[i]->name, &serial);
		buf_putc(b, '\t');
		print_var(pr, f->locals[i], pr->localname[i]);
	}
	for (i = 0; i < f->nprotos; i++) {
		const PtxProto *p = &f->protos[i];
		buf_printf(b, "%s: .callprototype ", pr->protoname[i]);
		if (p->nrets) {
			buf_puts(b, "(.param");
			print_decl(pr, &p->rets[0], "_");
			buf_puts(b, ") ");
		}
		buf_puts(b, "_ (");
		for (j = 0; j < p->nparams; j++) {
			buf_puts(b, j ? ", .param" : ".param");
			print_decl(pr, &p->params[j], "_");
		}
		buf_puts(b, p->noreturn ? ") .noreturn;\n" : ");\n");
	}
	for (j = 0; j < f->nbtargets; j++) {
		const PtxBtargets *bt = &f->btargets[j];
		int k, li;
		buf_printf(b, "%s: .branchtargets ", pr->btname[j]);
		for (k = 0; k < bt->ntargets; k++) {
			for (li = 0; li < f->nlabels && f->labelat[li] != bt->targets[k]; li++)
				;
			buf_printf(b, "%s%s", k ? ", " : "", li < f->nlabels ? pr->labelname[li] : "?");
		}
		buf_puts(b, ";\n");
	}
	loc_file = loc_line = 0;
	for (i = 0, l = 0, j = 0; i <= f->ninstrs; i++) {
		for (; l < f->nlabels && f->labelat[l] == i; l++)
			buf_printf(b, "%s:\n", pr->labelname[l]);
		for (; j < f->npragmas && f->pragmas[j].at == i; j++)
			buf_printf(b, "\t.pragma \"%s\";\n", f->pragmas[j].text);
		if (i < f->ninstrs && f->instrs[i].loc_line &&
		    (f->instrs[i].loc_file != loc_file || f->instrs[i].loc_line != loc_line)) {
			loc_file = f->instrs[i].loc_file;
			loc_line = f->instrs[i].loc_line;
			buf_printf(b, "\t.loc %d %d 0\n", loc_file, loc_line);
		}
		if (i < f->ninstrs)
			print_instr(pr, &f->instrs[i]);
	}
	buf_puts(b, "}\n\n");
	pr->f = NULL;
	pr->labelname = pr->protoname = pr->btname = NULL;
	hm_free(&seen);
	hm_free(&ranges);
	arena_free(&a);
}

void
ptx_print(const PtxModule *m, Buf *out)
{
	Pr pr = {0};
	int i, j;

	pr.m = m;
	pr.o = out;
	buf_printf(out, ".version %d.%d\n.target %s%s%s\n.address_size %d\n\n",
		   m->version_major, m->version_minor, m->target,
		   m->texmode_independent ? ", texmode_independent" : "",
		   m->debug ? ", debug" : "", m->address_size);
	for (i = 0; i < m->nfiles; i++)
		if (m->files[i])
			buf_printf(out, ".file %d \"%s\"\n", i, m->files[i]);
	/* variables and functions in source order is not recorded across the
	 * two lists; print variables first (initializers may name functions,
	 * so declare every function before the variables). */
	for (i = 0; i < m->nfuncs; i++) {
		const PtxFunc *f = m->funcs[i];
		PtxFunc d = *f;
		d.has_body = 0;
		if (f->is_entry)
			continue;
		print_func(&pr, &d);
	}
	for (i = 0; i < m->nvars; i++)
		print_var(&pr, m->vars[i], m->vars[i]->name);
	buf_putc(out, '\n');
	/* functions, then kernels: the order a reparse of this output has */
	for (i = 0; i < m->nfuncs; i++)
		if (m->funcs[i]->has_body && !m->funcs[i]->is_entry)
			print_func(&pr, m->funcs[i]);
	for (i = 0; i < m->nfuncs; i++)
		if (m->funcs[i]->is_entry)
			print_func(&pr, m->funcs[i]);
	for (i = 0; i < m->nsections; i++)
		buf_printf(out, ".section %s\n{\n%s\n}\n", m->sections[i].name, m->sections[i].body);
	(void)j;
}
