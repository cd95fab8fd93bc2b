/* walk.c -- helpers shared by the passes: visit the registers an
 * instruction reads and writes, count definitions and uses. */
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "ir/walk.h"
#include "util/util.h"

/* ir_count's walks: the visitors above with the counting inlined (it
 * runs over the whole function at the start of most passes). */
static inline void
bump(const PtxOperand *o, int *n)
{
	if (o->reg >= 0)
		n[o->reg]++;
	if (o->reg2 >= 0)
		n[o->reg2]++;
}

static void
count_uses(const PtxOperand *o, int def, int *uses)
{
	int i;

	switch (o->kind) {
	case PTX_OPD_REG:
		if (!def)
			bump(o, uses);
		break;
	case PTX_OPD_ADDR:
		if (o->reg >= 0)
			uses[o->reg]++;
		for (i = 0; i < o->nelems; i++)
			count_uses(&o->elems[i], 0, uses);
		break;
	case PTX_OPD_VEC:
		for (i = 0; i < o->nelems; i++)
			count_uses(&o->elems[i], def, uses);
		break;
	}
}

static void
count_defs(const PtxOperand *o, int *defs)
{
	int i;

	if (o->kind == PTX_OPD_REG)
		bump(o, defs);
	else if (o->kind == PTX_OPD_VEC) {
		for (i = 0; i < o->nelems; i++)
			count_defs(&o->elems[i], defs);
	}
}

static void
walk(const IrFunc *f, int *defs, int *uses)
{
	size_t b, i;
	int k;

	for (b = 0; b < f->b.n; b++)
		for (i = 0; i < f->b.v[b].ins.n; i++) {
			const PtxInstr *in = &f->b.v[b].ins.v[i].p;
			int d;
			if (f->b.v[b].ins.v[i].dead)
				continue;
			d = ir_opd_is_def(in, 0);
			/* most operands are plain registers or immediates:
			 * counted here, without a call */
			if (defs && d) {
				if (in->opds[0].kind == PTX_OPD_REG)
					bump(&in->opds[0], defs);
				else if (in->opds[0].kind == PTX_OPD_VEC)
					count_defs(&in->opds[0], defs);
			}
			if (!uses)
				continue;
			if (in->guard >= 0)
				uses[in->guard]++;
			for (k = 0; k < in->nopds; k++) {
				const PtxOperand *o = &in->opds[k];
				int def = k == 0 && d && !ir_reads_dst(in);
				if (o->kind == PTX_OPD_REG && !def)
					bump(o, uses);
				else if (o->kind == PTX_OPD_ADDR || o->kind == PTX_OPD_VEC)
					count_uses(o, def, uses);
			}
		}
}

/* The counts of the last walk (see ir_count_offer), or those a pass
 * kept current (ir_count_current, given): of f with n registers;
 * have[0] / have[1]: the defs / uses were counted.  Per thread, in the
 * heap (thread_calloc: the static TLS block stays small). */
typedef struct {
	const IrFunc *f;
	int n, have[2], offered, given;
	int *c[2];
} Kept;
static _Thread_local void *kept_mem;

static Kept *
kept(void)
{
	return thread_calloc(&kept_mem, sizeof(Kept));
}

void
ir_count_offer(const IrFunc *f)
{
	Kept *K = kept();

	K->offered = K->f == f;
	K->given = 0;
}

void
ir_count_forget(void)
{
	Kept *K = kept();

	K->f = NULL;
	K->offered = 0;
}

void
ir_count_changed(void)
{
	if (!kept()->given)
		ir_count_forget();
}

/* f's counts are defs and uses (either may be NULL) */
static void
keep(Kept *K, const IrFunc *f, const int *defs, const int *uses)
{
	const int *have[2] = { defs, uses };
	size_t sz = (size_t)f->nregs * sizeof(int);
	int j;

	K->f = f;
	K->n = f->nregs;
	for (j = 0; j < 2; j++) {
		K->have[j] = have[j] != NULL;
		if (have[j]) {
			K->c[j] = xrealloc(K->c[j], sz + sizeof(int));
			memcpy(K->c[j], have[j], sz);
		}
	}
}

void
ir_count_current(const IrFunc *f, const int *defs, const int *uses)
{
	Kept *K = kept();

	keep(K, f, defs, uses);
	K->given = 1;
}

/* OA_VERIFY=1: counts taken from K are a walk's */
static void
recount_same(const Kept *K, const IrFunc *f)
{
	size_t sz = (size_t)f->nregs * sizeof(int);
	int *d = xcalloc((size_t)f->nregs + 1, 2 * sizeof(int)), *u = d + f->nregs + 1, j;

	walk(f, d, u);
	for (j = 0; j < 2; j++)
		if (K->have[j] && memcmp(K->c[j], j ? u : d, sz))
			die("ir_count: the %s kept differ from a walk's", j ? "uses" : "defs");
	free(d);
}

void
ir_count(const IrFunc *f, int *defs, int *uses)
{
	Kept *K = kept();
	int *want[2] = { defs, uses }, j;

	if (K->offered && K->f == f && K->n == f->nregs && (!defs || K->have[0]) &&
	    (!uses || K->have[1])) {
		K->offered = 0;
		if (ir_verify_all())
			recount_same(K, f);
		for (j = 0; j < 2; j++)
			if (want[j])
				memcpy(want[j], K->c[j], (size_t)f->nregs * sizeof(int));
		return;
	}
	/* only a pass's first ir_count may reuse: later ones may follow
	 * changes it made */
	K->offered = 0;
	walk(f, defs, uses);
	keep(K, f, defs, uses);
}
