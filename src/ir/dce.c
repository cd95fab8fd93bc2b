/* dce.c -- dead code elimination: remove side-effect-free instructions
 * whose results nobody reads, until nothing changes; and, within a block,
 * side-effect-free instructions whose results are all overwritten before
 * anything reads them (`mov r, 1; mov r, 2`). */
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "ir/walk.h"

/* Operations with no effect besides their destination registers (a
 * table, not a switch: pure() is asked of every instruction in each walk,
 * and inline). */
static const u8 pure_op[PTX_NOPS] = {
	[PTX_OP_add] = 1, [PTX_OP_sub] = 1, [PTX_OP_mul] = 1, [PTX_OP_mad] = 1, [PTX_OP_mul24] = 1,
	[PTX_OP_mad24] = 1, [PTX_OP_div] = 1, [PTX_OP_rem] = 1, [PTX_OP_abs] = 1, [PTX_OP_neg] = 1,
	[PTX_OP_min] = 1, [PTX_OP_max] = 1, [PTX_OP_and] = 1, [PTX_OP_or] = 1, [PTX_OP_xor] = 1,
	[PTX_OP_not] = 1, [PTX_OP_cnot] = 1, [PTX_OP_shl] = 1, [PTX_OP_shr] = 1, [PTX_OP_shf] = 1,
	[PTX_OP_lop3] = 1, [PTX_OP_prmt] = 1, [PTX_OP_bfe] = 1, [PTX_OP_bfi] = 1, [PTX_OP_bfind] = 1,
	[PTX_OP_brev] = 1, [PTX_OP_clz] = 1, [PTX_OP_popc] = 1, [PTX_OP_fns] = 1, [PTX_OP_bmsk] = 1,
	[PTX_OP_mov] = 1, [PTX_OP_cvt] = 1, [PTX_OP_cvta] = 1, [PTX_OP_setp] = 1, [PTX_OP_set] = 1,
	[PTX_OP_selp] = 1, [PTX_OP_slct] = 1, [PTX_OP_fma] = 1, [PTX_OP_rcp] = 1, [PTX_OP_sqrt] = 1,
	[PTX_OP_rsqrt] = 1, [PTX_OP_sin] = 1, [PTX_OP_cos] = 1, [PTX_OP_lg2] = 1, [PTX_OP_ex2] = 1,
	[PTX_OP_tanh] = 1, [PTX_OP_copysign] = 1, [PTX_OP_testp] = 1, [PTX_OP_sad] = 1, [PTX_OP_dp4a] = 1,
	[PTX_OP_dp2a] = 1, [PTX_OP_szext] = 1, [PTX_OP_cvt_pack] = 1, [PTX_OP_isspacep] = 1,
	[PTX_OP_mapa] = 1
};

static inline int
pure(const PtxInstr *in)
{
	if (in->flags & PTX_F_CC)   /* writes CC.CF, which addc/subc/madc read */
		return 0;
	if (in->op == PTX_OP_ld || in->op == PTX_OP_ldu)
		return !(in->flags & PTX_F_VOLATILE) && in->sem <= PTX_SEM_WEAK;
	return in->op < PTX_NOPS && pure_op[in->op];
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
