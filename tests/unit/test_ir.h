/* test_ir.h -- helpers for the IR pass tests (tests/unit/test_ir_*.c):
 * PTX text -> IR of its first entry, run passes by name with ir_verify
 * after each, inspect the result, run the PTX in the interpreter. */
#ifndef OA_TEST_IR_H
#define OA_TEST_IR_H

#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "ptx/interp.h"
#include "test.h"

typedef struct {
	PtxModule *m;
	const PtxFunc *fn;
	IrFunc f;
	Arena a;
	Buf dump;
	int built;
} IrT;

static inline int
irt_build(IrT *t, const char *ptx)
{
	int i;

	memset(t, 0, sizeof *t);
	t->m = ptx_parse("test.ptx", ptx, strlen(ptx));
	if (!t->m || ptx_check(t->m) < 0)
		return -1;
	for (i = 0; i < t->m->nfuncs; i++)
		if (t->m->funcs[i]->is_entry && t->m->funcs[i]->has_body) {
			t->fn = t->m->funcs[i];
			break;
		}
	if (!t->fn || ir_build(&t->f, t->m, t->fn, &t->a) < 0)
		return -1;
	t->built = 1;
	return 0;
}

/* Run the passes named in list ("constfold copyprop dce"), checking the
 * IR after each.  Returns the total number of changes. */
static inline int
irt_run(IrT *t, const char *list)
{
	static const struct { const char *name; int (*fn)(IrFunc *); } all[] = {
		{"constfold", ir_constfold}, {"copyprop", ir_copyprop}, {"cse", ir_cse},
		{"unroll", ir_unroll}, {"fuse", ir_fuse}, {"ifconv", ir_ifconv}, {"widen", ir_widen},
		{"dce", ir_dce}, {"compact", ir_compact},
	};
	char name[32];
	int n = 0;
	size_t i, k;

	while (*list) {
		for (k = 0; list[k] && list[k] != ' ' && k + 1 < sizeof name; k++)
			name[k] = list[k];
		name[k] = 0;
		list += k;
		while (*list == ' ')
			list++;
		for (i = 0; i < sizeof all / sizeof *all; i++)
			if (!strcmp(all[i].name, name)) {
				n += all[i].fn(&t->f);
				ir_verify(&t->f, name);
			}
	}
	return n;
}

static inline const char *
irt_dump(IrT *t)
{
	t->dump.n = 0;
	ir_dump(&t->f, &t->dump);
	return t->dump.s ? t->dump.s : "";
}

/* Live instructions with opcode op (PTX_OP_NONE: all). */
static inline int
irt_count(const IrT *t, int op)
{
	size_t b, i;
	int n = 0;

	for (b = 0; b < t->f.b.n; b++)
		for (i = 0; i < t->f.b.v[b].ins.n; i++) {
			const IrIns *x = &t->f.b.v[b].ins.v[i];
			if (!x->dead && (op == PTX_OP_NONE || x->p.op == op))
				n++;
		}
	return n;
}

/* The single live definition of register r, or NULL. */
static inline const IrIns *
irt_def(const IrT *t, int r)
{
	const IrIns *d = NULL;
	size_t b, i;

	for (b = 0; b < t->f.b.n; b++)
		for (i = 0; i < t->f.b.v[b].ins.n; i++) {
			const IrIns *x = &t->f.b.v[b].ins.v[i];
			if (!x->dead && ir_opd_is_def(&x->p, 0) && x->p.opds[0].kind == PTX_OPD_REG &&
			    x->p.opds[0].reg == r) {
				if (d)
					return NULL;
				d = x;
			}
		}
	return d;
}

static inline void
irt_free(IrT *t)
{
	if (t->built)
		ir_free(&t->f);
	buf_free(&t->dump);
	arena_free(&t->a);
	ptx_free(t->m);
}

/* Run the module's entry in the interpreter with one u64 output buffer
 * "out" of n elements (zero-filled); returns a malloc'ed copy, or NULL. */
static inline u64 *
irt_interp(IrT *t, size_t n)
{
	char spec[512];
	Spec s;
	Launch l;
	InterpOpts o = {0};
	u64 *r = NULL;

	snprintf(spec, sizeof spec,
		 "{\"kernel\": \"%s\", \"grid\": [1], \"block\": [1], \"args\": ["
		 "{\"name\": \"out\", \"buffer\": \"u64\", \"count\": %zu, \"init\": {\"fill\": 0}}]}",
		 t->fn->name, n);
	if (spec_parse("test.json", spec, strlen(spec), &s) < 0)
		return NULL;
	launch_init(&l, &s);
	o.quiet = 1;
	if (interp_run(t->m, NULL, &l, &o) == 0) {
		r = xcalloc(n, sizeof *r);
		memcpy(r, launch_buf(&l, "out"), n * sizeof *r);
	}
	launch_free(&l);
	spec_free(&s);
	return r;
}

#endif
