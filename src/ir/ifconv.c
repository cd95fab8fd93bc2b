/* ifconv.c -- if-conversion: small branch triangles and diamonds become
 * straight-line predicated code.
 *
 *     B: ... @p bra T          B: ... (no branch)
 *     A: arm                   A: @!p arm        (triangle: T follows A)
 *     T: ...                   T: ...
 *
 *     B: ... @p bra E          B: ...
 *     A: arm1; bra J           A: @!p arm1
 *     E: arm2                  E: @p arm2        (diamond: J follows E)
 *     J: ...                   J: ...
 *
 * An arm qualifies when it is entered only from B, holds at most
 * IFCONV_MAX instructions, none of them guarded already, none writing p,
 * each one that selection can predicate (arithmetic, logic, compares,
 * conversions, moves, loads and stores; not barriers, warp collectives,
 * atomics, calls or math sequences).  An arm instruction without memory
 * effects whose results are written only there and read only later in the
 * same arm is left unguarded (speculated): guarding it would only keep
 * its registers alive from the function entry.  A branch to a block that
 * only jumps on (`@p bra T; bra X; T:`, nvcc's diamonds) is first turned
 * into `@!p bra X` so the diamond is seen.  SASS then needs no BRA, BSSY
 * or BSYNC for the region. */
#include <stdlib.h>
#include <string.h>

#include "ir/cfg.h"
#include "ir/ir.h"
#include "ir/walk.h"

enum { IFCONV_MAX = 8 };

/* Changes to the def/use counts that a conversion makes, applied after
 * it (instead of counting the whole function again). */
typedef struct {
	int *cnt, reg, d;
} Delta;

typedef VEC(Delta) Pend;

typedef struct {
	Pend *pd;
	int *cnt;
	int d;
} PendAt;

static void
pend_one(void *ctx, int r)
{
	PendAt *a = ctx;
	Delta x = { a->cnt, r, a->d };
	vec_push(a->pd, x);
}

/* x dies: its defs and uses no longer count. */
static void
kill_ins(Pend *pd, IrIns *x, const int *defs, const int *uses)
{
	PendAt d = { pd, (int *)defs, -1 }, u = { pd, (int *)uses, -1 };
	ir_each_def(&x->p, pend_one, &d);
	ir_each_use(&x->p, pend_one, &u);
	x->dead = 1;
}

static void
pend_apply(Pend *pd)
{
	size_t i;
	for (i = 0; i < pd->n; i++)
		pd->v[i].cnt[pd->v[i].reg] += pd->v[i].d;
	pd->n = 0;
}

static IrIns *
last_live(IrBlock *B)
{
	size_t i;

	for (i = B->ins.n; i-- > 0;)
		if (!B->ins.v[i].dead)
			return &B->ins.v[i];
	return NULL;
}

static int
live_count(const IrBlock *B)
{
	size_t i;
	int n = 0;

	for (i = 0; i < B->ins.n; i++)
		n += !B->ins.v[i].dead;
	return n;
}

/* Operations selection predicates as one guarded instruction (or a
 * sequence that keeps the guard). */
static int
predicable_op(const PtxInstr *in)
{
	PtxType t = (PtxType)(in->ntypes ? in->types[0] : 0);
	int sp = in->nspaces ? in->space[0] : PTX_S_NONE;

	switch (in->op) {
	case PTX_OP_mov: case PTX_OP_add: case PTX_OP_sub: case PTX_OP_mul: case PTX_OP_mad:
	case PTX_OP_and: case PTX_OP_or: case PTX_OP_xor: case PTX_OP_not: case PTX_OP_shl:
	case PTX_OP_shr: case PTX_OP_min: case PTX_OP_max: case PTX_OP_selp: case PTX_OP_setp:
	case PTX_OP_neg: case PTX_OP_abs: case PTX_OP_fma: case PTX_OP_cvta:
		return !(in->flags & PTX_F_CC) && t != PTX_T_F16 && t != PTX_T_F16X2 && t != PTX_T_BF16 &&
		       t != PTX_T_BF16X2;
	case PTX_OP_cvt:
		return in->ntypes == 2 && !ptx_type_is_float((PtxType)in->types[0]) &&
		       !ptx_type_is_float((PtxType)in->types[1]);
	case PTX_OP_ld: case PTX_OP_st:
		return !(in->flags & PTX_F_VOLATILE) && in->sem <= PTX_SEM_WEAK &&
		       (sp == PTX_S_GLOBAL || sp == PTX_S_SHARED || sp == PTX_S_LOCAL || sp == PTX_S_CONST) &&
		       in->vec <= 4;
	}
	return 0;
}

static int
no_memory(const PtxInstr *in)
{
	return in->op != PTX_OP_ld && in->op != PTX_OP_st;
}

typedef struct {
	const int *defs;
	int p;
	int bad;
} ArmCheck;

static void
writes_p(void *ctx, int r)
{
	ArmCheck *c = ctx;
	if (r == c->p)
		c->bad = 1;
}

/* Can arm A (without its final unconditional branch, if skip_bra) be
 * predicated on p? */
static int
arm_ok(IrBlock *A, int p, int skip_bra)
{
	IrIns *last = last_live(A);
	ArmCheck c = { NULL, p, 0 };
	size_t i;
	int n = live_count(A) - (skip_bra ? 1 : 0);

	if (n > IFCONV_MAX || n < 0)
		return 0;
	for (i = 0; i < A->ins.n; i++) {
		IrIns *x = &A->ins.v[i];
		if (x->dead || (skip_bra && x == last))
			continue;
		if (x->p.guard >= 0 || !predicable_op(&x->p))
			return 0;
		ir_each_def(&x->p, writes_p, &c);
		if (c.bad)
			return 0;
	}
	return 1;
}

typedef struct {
	const int *defs;
	int ok;
} Single;

static void
single_def(void *ctx, int r)
{
	Single *s = ctx;
	if (s->defs[r] != 1)
		s->ok = 0;
}

/* Guard the arm's instructions with (p, neg), except those that may be
 * speculated (esc[i] == 0: results read only later in the arm). */
static void
guard_arm(IrBlock *A, int p, int neg, int skip_bra, const int *defs, const int *uses, const int *esc, Pend *pd)
{
	IrIns *last = last_live(A);
	size_t i;

	for (i = 0; i < A->ins.n; i++) {
		IrIns *x = &A->ins.v[i];
		Single s = { defs, 1 };
		if (x->dead || (skip_bra && x == last))
			continue;
		if (no_memory(&x->p) && ir_opd_is_def(&x->p, 0) && !esc[i]) {
			ir_each_def(&x->p, single_def, &s);
			if (s.ok)
				continue;   /* speculated */
		}
		if (x->p.guard >= 0) {
			Delta o = { (int *)uses, x->p.guard, -1 };
			vec_push(pd, o);
		}
		{
			Delta g = { (int *)uses, p, 1 };
			vec_push(pd, g);
		}
		x->p.guard = p;
		x->p.guard_neg = (u8)neg;
	}
}

typedef struct {
	int *cnt;
} Cnt;

static void
bump(void *ctx, int r)
{
	((Cnt *)ctx)->cnt[r]++;
}

/* For each instruction of A: 1 when one of its results is read outside
 * the instructions of A that follow it (so it must keep the guard). */
static int *
escaping(IrFunc *f, IrBlock *A, const int *uses)
{
	int *esc = xcalloc(A->ins.n + 1, sizeof *esc);
	int *in_arm = xcalloc((size_t)f->nregs + 1, sizeof *in_arm);
	Cnt c = { in_arm };
	size_t i;

	for (i = A->ins.n; i-- > 0;) {
		IrIns *x = &A->ins.v[i];
		int k;
		if (x->dead)
			continue;
		/* results of x read only by later arm instructions? */
		for (k = 0; k < x->p.nopds; k++) {
			const PtxOperand *o = &x->p.opds[k];
			if (!ir_opd_is_def(&x->p, k))
				continue;
			if (o->kind == PTX_OPD_REG) {
				if (uses[o->reg] != in_arm[o->reg] || (o->reg2 >= 0 && uses[o->reg2] != in_arm[o->reg2]))
					esc[i] = 1;
			} else {
				esc[i] = 1;
			}
		}
		ir_each_use(&x->p, bump, &c);
	}
	free(in_arm);
	return esc;
}

static void
convert_arm(IrFunc *f, IrBlock *A, int p, int neg, int skip_bra, const int *defs, const int *uses, Pend *pd)
{
	int *esc = escaping(f, A, uses);
	guard_arm(A, p, neg, skip_bra, defs, uses, esc, pd);
	free(esc);
}

/* `@p bra T; bra X; T:` -> `@!p bra X; T:` (the forwarding block empties). */
static int
invert_forwarder(IrFunc *f, int b, const int *defs, const int *uses, Pend *pd)
{
	IrBlock *B = &f->b.v[b], *F;
	IrIns *br = last_live(B), *fb;
	int t, x;

	if (!br || br->p.op != PTX_OP_bra || br->p.guard < 0 || b + 2 >= (int)f->b.n)
		return 0;
	F = &f->b.v[b + 1];
	t = br->target;
	fb = last_live(F);
	if (t != b + 2 || B->succ[0] != b + 1 || B->succ[1] != t || F->pred.n != 1 || live_count(F) != 1 ||
	    fb->p.op != PTX_OP_bra || fb->p.guard >= 0 || F->succ[1] < 0 || F->succ[0] >= 0)
		return 0;
	x = fb->target;
	if (x == t || x == b + 1)
		return 0;
	ir_edge_remove(f, b, t);
	ir_edge_remove(f, b + 1, x);
	ir_edge_add(f, b, 1, x);
	ir_edge_add(f, b + 1, 0, t);
	br->target = x;
	br->p.guard_neg = !br->p.guard_neg;
	kill_ins(pd, fb, defs, uses);
	return 1;
}

/* The first block from a on that is not an empty block entered only by
 * falling into it (forwarders emptied by invert_forwarder). */
static int
skip_empty(IrFunc *f, int a, int stop)
{
	while (a + 1 < (int)f->b.n && a + 1 != stop && !live_count(&f->b.v[a]) && f->b.v[a].pred.n == 1 &&
	       f->b.v[a].succ[0] == a + 1 && f->b.v[a].succ[1] < 0 && f->b.v[a + 1].pred.n == 1)
		a++;
	return a;
}

static int
triangle(IrFunc *f, int b, const int *defs, const int *uses, Pend *pd)
{
	IrBlock *B = &f->b.v[b], *A;
	IrIns *br = last_live(B), *ab;
	int t, a = b + 1, skip;

	if (!br || br->p.op != PTX_OP_bra || br->p.guard < 0 || a >= (int)f->b.n)
		return 0;
	t = br->target;
	if (B->succ[0] != a || B->succ[1] != t || t == a)
		return 0;
	a = skip_empty(f, a, t);
	A = &f->b.v[a];
	if (t == a || A->pred.n != 1)
		return 0;
	ab = last_live(A);
	skip = ab && ab->p.op == PTX_OP_bra;
	if (skip ? (ab->p.guard >= 0 || ab->target != t || A->succ[0] >= 0 || A->succ[1] != t)
		 : (A->succ[0] != t || A->succ[1] >= 0 || t != a + 1))
		return 0;
	if (!arm_ok(A, br->p.guard, skip))
		return 0;
	convert_arm(f, A, br->p.guard, !br->p.guard_neg, skip, defs, uses, pd);
	kill_ins(pd, br, defs, uses);
	ir_edge_remove(f, b, t);
	return 1;
}

static int
diamond(IrFunc *f, int b, const int *defs, const int *uses, Pend *pd)
{
	IrBlock *B = &f->b.v[b], *A, *E;
	IrIns *br = last_live(B), *ab, *eb;
	int a = b + 1, e, j, eskip;

	if (!br || br->p.op != PTX_OP_bra || br->p.guard < 0 || a + 1 >= (int)f->b.n)
		return 0;
	e = br->target;
	if (B->succ[0] != a || B->succ[1] != e)
		return 0;
	a = skip_empty(f, a, e);
	A = &f->b.v[a];
	E = &f->b.v[e];
	if (e != a + 1 || A->pred.n != 1 || E->pred.n != 1)
		return 0;
	ab = last_live(A);
	if (!ab || ab->p.op != PTX_OP_bra || ab->p.guard >= 0 || A->succ[0] >= 0 || A->succ[1] < 0)
		return 0;
	j = ab->target;
	if (j == e)
		return 0;
	eb = last_live(E);
	eskip = eb && eb->p.op == PTX_OP_bra;
	if (eskip ? (eb->p.guard >= 0 || eb->target != j || E->succ[0] >= 0 || E->succ[1] != j)
		  : (E->succ[0] != j || E->succ[1] >= 0))
		return 0;
	if (!arm_ok(A, br->p.guard, 1) || !arm_ok(E, br->p.guard, eskip))
		return 0;
	if (live_count(A) - 1 + live_count(E) - eskip > IFCONV_MAX + 4)
		return 0;
	convert_arm(f, A, br->p.guard, !br->p.guard_neg, 1, defs, uses, pd);
	convert_arm(f, E, br->p.guard, br->p.guard_neg, eskip, defs, uses, pd);
	kill_ins(pd, ab, defs, uses);
	ir_edge_remove(f, a, j);
	ir_edge_add(f, a, 0, e);
	kill_ins(pd, br, defs, uses);
	ir_edge_remove(f, b, e);
	return 1;
}

/* OA_VERIFY=1: the counts kept by pend_apply are ir_count's. */
static void
recount_same(const IrFunc *f, const int *defs, const int *uses)
{
	int *d = xcalloc((size_t)f->nregs + 1, sizeof *d), *u = xcalloc((size_t)f->nregs + 1, sizeof *u);

	ir_count(f, d, u);
	if (memcmp(d, defs, sizeof *d * (size_t)f->nregs) || memcmp(u, uses, sizeof *u * (size_t)f->nregs))
		die("ifconv: the kept def/use counts differ from ir_count's");
	free(d);
	free(u);
}

int
ir_ifconv(IrFunc *f)
{
	int *defs = xcalloc((size_t)f->nregs + 1, sizeof *defs);
	int *uses = xcalloc((size_t)f->nregs + 1, sizeof *uses);
	int n = 0, changed = 1, rounds = 0;
	size_t b;
	Pend pd = {0};

	ir_count(f, defs, uses);
	while (changed && rounds++ < 4) {
		changed = 0;
		if (rounds > 1 && ir_verify_all())   /* pend_apply kept them: prove it */
			recount_same(f, defs, uses);
		for (b = 0; b < f->b.n; b++) {
			int k = invert_forwarder(f, (int)b, defs, uses, &pd);
			k = k + (diamond(f, (int)b, defs, uses, &pd) || triangle(f, (int)b, defs, uses, &pd));
			if (k) {
				n += k;
				changed = 1;
			}
			pend_apply(&pd);   /* the counts as ir_count would give them */
		}
	}
	n += ir_drop_jumps(f);   /* unguarded bra: no register */
	if (n)
		ir_count_current(f, defs, uses);
	vec_free(&pd);
	free(defs);
	free(uses);
	return n;
}
