/* dce.c -- dead code elimination: remove side-effect-free instructions
 * whose results nobody reads, until nothing changes; and, within a block,
 * side-effect-free instructions whose results are all overwritten before
 * anything reads them (`mov r, 1; mov r, 2`). */
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "ir/walk.h"

/* Operations with no effect besides their destination registers. */
static int
pure(const PtxInstr *in)
{
	if (in->flags & PTX_F_CC)   /* writes CC.CF, which addc/subc/madc read */
		return 0;
	switch (in->op) {
	case PTX_OP_add: case PTX_OP_sub: case PTX_OP_mul: case PTX_OP_mad: case PTX_OP_mul24:
	case PTX_OP_mad24: case PTX_OP_div: case PTX_OP_rem: case PTX_OP_abs: case PTX_OP_neg:
	case PTX_OP_min: case PTX_OP_max: case PTX_OP_and: case PTX_OP_or: case PTX_OP_xor:
	case PTX_OP_not: case PTX_OP_cnot: case PTX_OP_shl: case PTX_OP_shr: case PTX_OP_shf:
	case PTX_OP_lop3: case PTX_OP_prmt: case PTX_OP_bfe: case PTX_OP_bfi: case PTX_OP_bfind:
	case PTX_OP_brev: case PTX_OP_clz: case PTX_OP_popc: case PTX_OP_fns: case PTX_OP_bmsk:
	case PTX_OP_mov: case PTX_OP_cvt: case PTX_OP_cvta: case PTX_OP_setp: case PTX_OP_set:
	case PTX_OP_selp: case PTX_OP_slct: case PTX_OP_fma: case PTX_OP_rcp: case PTX_OP_sqrt:
	case PTX_OP_rsqrt: case PTX_OP_sin: case PTX_OP_cos: case PTX_OP_lg2: case PTX_OP_ex2:
	case PTX_OP_tanh: case PTX_OP_copysign: case PTX_OP_testp: case PTX_OP_sad:
	case PTX_OP_dp4a: case PTX_OP_dp2a: case PTX_OP_szext: case PTX_OP_cvt_pack:
	case PTX_OP_isspacep: case PTX_OP_mapa:
		return 1;
	case PTX_OP_ld: case PTX_OP_ldu:
		return !(in->flags & PTX_F_VOLATILE) && in->sem <= PTX_SEM_WEAK;
	}
	return 0;
}

typedef struct {
	const int *uses;
	int live;
} Mark;

static void
mark(void *ctx, int r)
{
	Mark *m = ctx;
	if (m->uses[r])
		m->live = 1;
}

typedef struct {
	int *over;     /* over[r] == stamp: r is written again before any read */
	int stamp;
	int all;       /* every destination seen is overwritten */
} Over;

static void
test_over(void *ctx, int r)
{
	Over *o = ctx;
	if (o->over[r] != o->stamp)
		o->all = 0;
}

static void
set_over(void *ctx, int r)
{
	Over *o = ctx;
	o->over[r] = o->stamp;
}

static void
clear_over(void *ctx, int r)
{
	Over *o = ctx;
	o->over[r] = 0;
}

typedef struct {
	int *uses;
	int zeroed;    /* a count reached 0: some definition may be unread now */
} Uses;

static void
unuse(void *ctx, int r)
{
	Uses *u = ctx;
	u->zeroed |= --u->uses[r] == 0;
}

/* Backwards through each block: definitions overwritten before a read.
 * The reads of what it removes come off uses.  Only the blocks marked in
 * redo (all when NULL): a block whose live instructions are those of its
 * last walk has nothing more to give (the walk judges each instruction
 * by the live ones after it, as a second walk would). */
static int
dead_defs(IrFunc *f, Uses *uses, const u8 *redo)
{
	Over o = { xcalloc((size_t)f->nregs + 1, sizeof(int)), 0, 0 };
	size_t b, i;
	int n = 0;

	for (b = 0; b < f->b.n; b++) {
		IrBlock *B = &f->b.v[b];
		if (redo && !redo[b])
			continue;
		o.stamp++;
		for (i = B->ins.n; i-- > 0;) {
			IrIns *x = &B->ins.v[i];
			if (x->dead)
				continue;
			if (pure(&x->p) && ir_opd_is_def(&x->p, 0)) {
				o.all = 1;
				ir_each_def(&x->p, test_over, &o);
				if (o.all) {
					x->dead = 1;
					ir_each_use(&x->p, unuse, uses);
					n++;
					continue;
				}
			}
			ir_each_def(&x->p, x->p.guard >= 0 ? clear_over : set_over, &o);
			ir_each_use(&x->p, clear_over, &o);
		}
	}
	free(o.over);
	return n;
}

/* OA_VERIFY=1: the uses kept by ir_dce are ir_count's. */
static void
recount_same(const IrFunc *f, const int *uses)
{
	int *u = xcalloc((size_t)f->nregs + 1, sizeof *u);

	ir_count(f, NULL, u);
	if (memcmp(u, uses, sizeof *u * (size_t)f->nregs))
		die("dce: the kept use counts differ from ir_count's");
	free(u);
}

/* Rounds of dead_defs and removing what nobody reads, until neither
 * finds anything.  uses is counted once and kept current: each removed
 * instruction's reads come off it (those of a round's unread ones after
 * the round, which judges them all by the counts at its start).  After
 * the first round each part redoes only what the last one changed: a
 * block's dead_defs when the unread ones removed something in it, the
 * scan for unread ones when a count has reached 0 since the last scan
 * (an instruction it kept had a read destination, and still has). */
int
ir_dce(IrFunc *f)
{
	int total = 0, changed = 1, first = 1;
	Uses uses = { xcalloc((size_t)f->nregs, sizeof(int)), 0 };
	u8 *redo = xcalloc(f->b.n + 1, 1);
	VEC(IrIns *) gone = {0};

	ir_count(f, NULL, uses.uses);
	while (changed) {
		size_t b, i;
		changed = 0;
		if ((i = (size_t)dead_defs(f, &uses, first ? NULL : redo)) > 0) {
			total += (int)i;
			changed = 1;
		}
		if (ir_verify_all())
			recount_same(f, uses.uses);
		if (!first && !uses.zeroed)
			break;
		uses.zeroed = 0;
		first = 0;
		memset(redo, 0, f->b.n);
		gone.n = 0;
		for (b = 0; b < f->b.n; b++)
			for (i = 0; i < f->b.v[b].ins.n; i++) {
				IrIns *x = &f->b.v[b].ins.v[i];
				Mark m = { uses.uses, 0 };
				if (x->dead || !pure(&x->p))
					continue;
				ir_each_def(&x->p, mark, &m);
				if (!m.live) {
					x->dead = 1;
					vec_push(&gone, x);
					redo[b] = 1;
					changed = 1;
					total++;
				}
			}
		for (i = 0; i < gone.n; i++)
			ir_each_use(&gone.v[i]->p, unuse, &uses);
	}
	free(redo);
	free(gone.v);
	free(uses.uses);
	return total;
}
