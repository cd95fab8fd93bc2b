/* walk.c -- helpers shared by the passes: visit the registers an
 * instruction reads and writes, count definitions and uses. */
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

/* The counts of the last walk (see ir_count_offer): of f with n
 * registers; have[0] / have[1]: the defs / uses were counted. */
static _Thread_local struct {
	const IrFunc *f;
	int n, have[2], offered;
	int *c[2];
} kept;

void
ir_count_offer(const IrFunc *f)
{
	kept.offered = kept.f == f;
}

void
ir_count_forget(void)
{
	kept.f = NULL;
	kept.offered = 0;
}

void
ir_count(const IrFunc *f, int *defs, int *uses)
{
	int *want[2] = { defs, uses }, j;
	size_t sz = (size_t)f->nregs * sizeof(int);

	if (kept.offered && kept.f == f && kept.n == f->nregs && (!defs || kept.have[0]) &&
	    (!uses || kept.have[1])) {
		kept.offered = 0;
		for (j = 0; j < 2; j++)
			if (want[j])
				memcpy(want[j], kept.c[j], sz);
		return;
	}
	/* only a pass's first ir_count may reuse: later ones may follow
	 * changes it made */
	kept.offered = 0;
	walk(f, defs, uses);
	kept.f = f;
	kept.n = f->nregs;
	for (j = 0; j < 2; j++) {
		kept.have[j] = want[j] != NULL;
		if (want[j]) {
			kept.c[j] = xrealloc(kept.c[j], sz + sizeof(int));
			memcpy(kept.c[j], want[j], sz);
		}
	}
}
