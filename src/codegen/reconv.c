/* reconv.c -- reconvergence: BSSY/BSYNC around divergent regions (see
 * reconv.h).
 *
 * 1. Divergence: a vreg is uniform when every def is a pure ALU or
 *    constant-bank instruction (or S2R SR_CTAID) over uniform operands,
 *    unguarded or under a uniform guard, and it is not defined more than
 *    once inside a divergent region; optimistic fixpoint.
 * 2. For each conditional BRA with a divergent guard: its immediate
 *    post-dominator j (EXIT/RET blocks, guarded ones too, lead to a
 *    virtual exit; none, or a path that never ends: no region), the
 *    region R = blocks reachable from the branch without passing j,
 *    which must have one entry e.
 * 3. Inner regions first: a block J = [BSYNC] and an empty block E are put
 *    right before j and R's edges into j go to J; BSSY Bk, E goes before
 *    the branch (e == branch block, not a loop header) or into a new
 *    block P before e that the edges from outside R enter.
 * 4. B registers: regions whose blocks overlap, or with no forward path
 *    between them (sibling arms, whose lanes run interleaved), get
 *    different ones (outermost B0); beyond B15 a region is dropped. */
#include <stdlib.h>
#include <string.h>

#include "codegen/reconv.h"

#define NB 16

int
mir_is_bra(const MIns *m)
{
	return m->target >= 0 && mir_op_is(m->text, "BRA");
}

static inline int
ends_flow(const MIns *m)
{
	if (m->guard >= 0)
		return 0;
	switch (m->text[0]) {
	case 'B': return mir_op_is(m->text, "BRA") || mir_op_is(m->text, "BRX");
	case 'E': return mir_op_is(m->text, "EXIT");
	case 'R': return mir_op_is(m->text, "RET");
	case 'J': return mir_op_is(m->text, "JMX") || mir_op_is(m->text, "JMP");
	}
	return 0;
}

int
mir_ends_flow(const MIns *m)
{
	return ends_flow(m);
}

/* What the CFG needs of one block's code: its first two branch targets,
 * whether control falls out of its end, and its CALL targets. */
typedef struct {
	int t[2], nt;
	int ft;       /* no instruction ends the flow */
	int call;     /* the first CALL target, ncall of them */
	int ncall;
} BSum;

/* Scan block b into s; with ncalls, count its CALL targets there. */
static void
scan_block(const MFunc *f, size_t b, BSum *s, int *ncalls)
{
	const MBlock *B = &f->b.v[b];
	size_t i;

	s->nt = s->ncall = 0;
	s->ft = 1;
	for (i = 0; i < B->ins.n; i++) {
		const MIns *m = &B->ins.v[i];
		if (m->target >= 0) {
			if (s->nt < 2 && mir_op_is(m->text, "BRA"))
				s->t[s->nt++] = m->target;
			if (mir_op_is(m->text, "CALL")) {
				if (!s->ncall++)
					s->call = m->target;
				if (ncalls && (size_t)m->target < f->b.n)
					ncalls[m->target]++;
			}
		}
		if (ends_flow(m))
			s->ft = 0;
	}
}

/* Block b's succ[] from its summary; next: the block after it (-1: none). */
static void
succ_of(MFunc *f, size_t b, const BSum *s, int next)
{
	MBlock *B = &f->b.v[b];
	int k;

	B->succ[0] = B->succ[1] = -1;
	if (s->ft)
		B->succ[0] = next;
	for (k = s->nt - 1; k >= 0; k--) {
		if (s->t[k] == B->succ[0] || s->t[k] == B->succ[1])
			continue;
		if (B->succ[1] < 0)
			B->succ[1] = s->t[k];
		else if (B->succ[0] < 0)
			B->succ[0] = s->t[k];
	}
}

void
mir_cfg_recompute(MFunc *f)
{
	size_t b;
	BSum s;

	for (b = 0; b < f->b.n; b++) {
		scan_block(f, b, &s, NULL);
		succ_of(f, b, &s, b + 1 < f->b.n ? (int)b + 1 : -1);
	}
}

void
mir_insert_block(MFunc *f, int k)
{
	MBlock nb = {0};
	size_t b, i;

	nb.succ[0] = nb.succ[1] = -1;
	nb.loop_depth = k < (int)f->b.n ? f->b.v[k].loop_depth : 0;
	vec_push(&f->b, nb);
	memmove(&f->b.v[k + 1], &f->b.v[k], sizeof(MBlock) * (f->b.n - 1 - (size_t)k));
	f->b.v[k] = nb;
	for (b = 0; b < f->b.n; b++)
		for (i = 0; i < f->b.v[b].ins.n; i++)
			if (f->b.v[b].ins.v[i].target >= k)
				f->b.v[b].ins.v[i].target++;
	if (f->cur >= k)
		f->cur++;
}

/* Insert add[b] empty blocks after each block b in one pass, as that
 * many mir_insert_block(f, b + 1) would: each new block takes the loop
 * depth of the block after b (0 after the last), branch targets and
 * f->cur follow their blocks.  Returns the number inserted. */
static size_t
insert_after(MFunc *f, const int *add)
{
	size_t nb = f->b.n, b, i, tot = 0;
	int *pos = xcalloc(nb + 1, sizeof *pos), k;
	MBlock *v;

	for (b = 0; b < nb; b++) {
		pos[b] = (int)(b + tot);
		tot += (size_t)add[b];
	}
	if (!tot) {
		free(pos);
		return 0;
	}
	v = xcalloc(nb + tot, sizeof *v);
	for (b = 0; b < nb; b++) {
		v[pos[b]] = f->b.v[b];
		for (k = 1; k <= add[b]; k++) {
			v[pos[b] + k].succ[0] = v[pos[b] + k].succ[1] = -1;
			v[pos[b] + k].loop_depth = b + 1 < nb ? f->b.v[b + 1].loop_depth : 0;
		}
	}
	free(f->b.v);
	f->b.v = v;
	f->b.n = f->b.cap = nb + tot;
	for (b = 0; b < f->b.n; b++)
		for (i = 0; i < f->b.v[b].ins.n; i++) {
			MIns *m = &f->b.v[b].ins.v[i];
			if (m->target >= 0)
				m->target = (size_t)m->target < nb ? pos[m->target] : m->target + (int)tot;
		}
	if (f->cur >= 0)
		f->cur = (size_t)f->cur < nb ? pos[f->cur] : f->cur + (int)tot;
	free(pos);
	return tot;
}

/* ---- divergence ---- */

/* Sorted (strcmp order) for a binary search on the opcode: IMAD.WIDE is
 * IMAD, CS2R.32 is tested apart.  Each is compared as one number (its 8
 * bytes, zero-padded, first byte highest: strcmp order), not a byte at
 * a time (the search runs for every instruction with a def). */
static const char pure_ops[][8] = {
	"BFE", "BFI", "BMSK", "BREV", "DADD", "DFMA", "DMNMX", "DMUL", "DSETP", "F2F", "F2FP", "F2I",
	"FADD", "FCHK", "FFMA", "FLO", "FMNMX", "FMUL", "FRND", "FSEL", "FSETP", "FSWZADD", "HADD2",
	"HFMA2", "HMNMX2", "HMUL2", "HSETP2", "I2F", "I2FP", "IABS", "IADD", "IADD3", "IADD32I", "IDP",
	"IMAD", "IMNMX", "IMUL", "ISCADD", "ISETP", "LDC", "LEA", "LOP", "LOP3", "MOV", "MUFU", "P2R",
	"PLOP3", "POPC", "PRMT", "R2P", "SEL", "SHF", "SHL", "SHR", "UIADD3", "UIMAD", "ULDC", "ULOP3",
	"UMOV", "USHF", "VIADD", "VIMNMX", "VIMNMX3"
};

static u64
op_key(const char op[8])
{
	u64 k;

	memcpy(&k, op, 8);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	k = __builtin_bswap64(k);
#endif
	return k;
}

/* Is t's opcode (up to a space, a dot or the end) one of pure_ops? */
static int
pure_op(const char *t)
{
	size_t len, lo = 0, hi = sizeof pure_ops / sizeof *pure_ops;
	u64 key = 0;

	for (len = 0; t[len] && t[len] != ' ' && t[len] != '.'; len++) {
		if (len == 8)
			return 0;
		key |= (u64)(uchar)t[len] << (56 - 8 * len);
	}
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		u64 k = op_key(pure_ops[mid]);
		if (k == key)
			return 1;
		if (key < k)
			hi = mid;
		else
			lo = mid + 1;
	}
	return 0;
}

static int
uniform_op(const char *t)
{
	if (t[0] == 'S' && (mir_op_is(t, "S2R") || mir_op_is(t, "S2UR")))
		return strstr(t, "SR_CTAID") != NULL;
	if (t[0] == 'C' && mir_op_is(t, "CS2R"))
		return strstr(t, "SRZ") != NULL;
	return pure_op(t);
}

/* The per-block arrays are indexed by block id.  While regions are
 * inserted (insert_region) a new block is appended to f->b and linked
 * into the layout (nx/pv): ids, and so branch targets, stay put, and the
 * CFG state is updated for the blocks that changed (cfg_update);
 * renumber() puts the blocks in layout order at the end. */
typedef struct {
	MFunc *f;
	int n;            /* blocks */
	int cap;          /* size of the per-block arrays */
	u8 *div;          /* per vreg; NULL until a branch asks (divergence()) */
	u8 *uni;          /* per instruction (block order) with a def: uniform_op() */
	u8 *merged;       /* per block: div_round looked at its defs (1), its branch (2) */
	u8 *seen;         /* per vreg: div_round read it as uniform */
	int stale;        /* div_round marked a vreg it had read as uniform */
	int *ndefs;       /* per vreg */
	VEC(int) *pred;   /* per block */
	u8 *reachx;       /* block reaches the virtual exit */
	u8 *live;         /* block reachable from the entry */
	int *ipdom;       /* block -> immediate post-dominator, n = exit */
	u32 *inr;         /* region membership: == gen (region()) */
	u32 gen;
	VEC(int) rl;      /* the blocks of the last region() */
	int *ncalls;      /* CALL instructions naming the block */
	int *stack;
	int *nx, *pv;     /* layout: next and previous block, -1 */
	int head;         /* the first block */
	u8 *dirty;        /* code or layout changed since cfg_update */
	VEC(int) dl;      /* the dirty blocks */
	VEC(int) *refs;   /* per block: blocks with code naming it (or that did) */
	Arena a;          /* the pass's arrays: zeroed, freed together at its end */
} Rc;

#define INR(r, x) ((r)->inr[x] == (r)->gen)

/* Block 0 and called functions' first blocks. */
static int
is_entry(const Rc *r, int x)
{
	return x == r->head || r->ncalls[x] > 0;
}

/* Does block B end in EXIT/RET -- an edge to the virtual exit?  A guarded
 * one too (thread_exits' "@P EXIT", whose block also falls through): a
 * loop left only through it (nvcc -G's) still reaches the exit. */
static int
last_is_exit(const MBlock *B)
{
	const MIns *m = B->ins.n ? &B->ins.v[B->ins.n - 1] : NULL;
	return m && (mir_op_is(m->text, "EXIT") || mir_op_is(m->text, "RET"));
}

/* Region of the branch in block b with join j: blocks reachable from b's
 * successors without passing j, and b; into r->inr and r->rl.  Returns
 * its size, or -1 if it holds a block that never reaches the exit. */
static int
region(Rc *r, int b, int j)
{
	int sp = 0, x, k;

	r->gen++;
	r->rl.n = 0;
	r->inr[b] = r->gen;
	r->stack[sp++] = b;
	while (sp) {
		x = r->stack[--sp];
		vec_push(&r->rl, x);
		if (!r->reachx[x])
			return -1;
		for (k = 0; k < 2; k++) {
			int s = r->f->b.v[x].succ[k];
			if (s >= 0 && s != j && !INR(r, s)) {
				r->inr[s] = r->gen;
				r->stack[sp++] = s;
			}
		}
	}
	return (int)r->rl.n;
}

/* A call of a shared slow path (isel_seq.c): CALL.REL.NOINC <block>
 * right after MOV ra, <return block> with ra a vreg (a .func call has
 * the literal MOV R20, <return block> there, no register reference). */
static int
local_call(const MBlock *B, size_t i)
{
	const MIns *m = &B->ins.v[i], *p = i ? &B->ins.v[i - 1] : NULL;

	return mir_op_is(m->text, "CALL") && !m->nr && m->target >= 0 && p && mir_op_is(p->text, "MOV") && p->nr == 1 &&
	       p->target >= 0;
}

/* A .func call ends the block (a callee may return diverged). */
static int
ends_with_call(const MBlock *B)
{
	return B->ins.n && mir_op_is(B->ins.v[B->ins.n - 1].text, "CALL") && !local_call(B, B->ins.n - 1);
}

/* Shared slow paths in the CFG the register allocator sees (after
 * everything else here): a calling block's second successor is the
 * body, and the body's RET block leads, through a chain of empty blocks
 * (no code), to every return point -- so what is live across any call
 * is live throughout the body, and the body's registers interfere with
 * it.  The allocator does not spill around these calls (ra.c:
 * cross_calls skips a CALL block with a second successor). */
static int
body_ret(const MFunc *f, int t)
{
	for (; t < (int)f->b.n; t++) {
		const MBlock *B = &f->b.v[t];
		if (B->ins.n && mir_op_is(B->ins.v[B->ins.n - 1].text, "RET"))
			return t;
	}
	die("reconv: a shared slow path without RET");
	return -1;
}

static int
calls_of(const MFunc *f, int t, int *ret, int max)
{
	size_t b;
	int n = 0;

	for (b = 0; b < f->b.n; b++) {
		const MBlock *B = &f->b.v[b];
		if (B->ins.n && local_call(B, B->ins.n - 1) && B->ins.v[B->ins.n - 1].target == t) {
			if (n < max)
				ret[n] = (int)b;
			n++;
		}
	}
	return n;
}

/* (f's succ[] are current on entry.) */
static void
link_local_calls(MFunc *f)
{
	int b, t, r, n, k;
	int *cnt = xcalloc(f->b.n + 1, sizeof *cnt), *cb;

	/* an empty block after each body's RET block per call of the body
	 * (bodies do not overlap: each is its own straight-line block range) */
	for (b = 0; b < (int)f->b.n; b++) {
		const MBlock *B = &f->b.v[b];
		if (B->ins.n && local_call(B, B->ins.n - 1))
			cnt[body_ret(f, B->ins.v[B->ins.n - 1].target)]++;
	}
	if (insert_after(f, cnt))
		mir_cfg_recompute(f);
	free(cnt);
	for (b = 0; b < (int)f->b.n; b++) {
		MBlock *B = &f->b.v[b];
		if (!B->ins.n || !local_call(B, B->ins.n - 1))
			continue;
		t = B->ins.v[B->ins.n - 1].target;
		B->succ[1] = t;
		r = body_ret(f, t);
		if (f->b.v[r].succ[0] >= 0)
			continue;   /* this body is linked already */
		n = calls_of(f, t, NULL, 0);
		cb = xcalloc((size_t)n + 1, sizeof *cb);
		calls_of(f, t, cb, n);
		f->b.v[r].succ[0] = r + 1;
		for (k = 0; k < n; k++) {
			MBlock *V = &f->b.v[r + 1 + k];
			ASSERT(!V->ins.n);
			V->succ[0] = cb[k] + 1;
			V->succ[1] = k + 1 < n ? r + 2 + k : -1;
		}
		free(cb);
	}
}

static void
reach(Rc *r)
{
	int sp = 0, x, k, b;

	for (b = 0; b < r->n; b++)
		if (is_entry(r, b)) {
			r->live[b] = 1;
			r->stack[sp++] = b;
		}
	while (sp) {
		x = r->stack[--sp];
		for (k = 0; k < 2; k++) {
			int s = r->f->b.v[x].succ[k];
			if (s >= 0 && !r->live[s]) {
				r->live[s] = 1;
				r->stack[sp++] = s;
			}
		}
	}
	for (b = 0; b < r->n; b++)
		if (last_is_exit(&r->f->b.v[b])) {
			r->reachx[b] = 1;
			r->stack[sp++] = b;
		}
	while (sp) {
		x = r->stack[--sp];
		for (k = 0; k < (int)r->pred[x].n; k++) {
			int p = r->pred[x].v[k];
			if (!r->reachx[p]) {
				r->reachx[p] = 1;
				r->stack[sp++] = p;
			}
		}
	}
}

/* The nearest common post-dominator of a and b (Cooper, Harvey and
 * Kennedy's intersect, on the reverse CFG: po is the postorder number). */
static int
pdom_meet(const Rc *r, const int *po, int a, int b)
{
	while (a != b) {
		while (po[a] < po[b])
			a = r->ipdom[a];
		while (po[b] < po[a])
			b = r->ipdom[b];
	}
	return a;
}

/* Block x's successors on the way to the exit, k = 0, 1; 2: the virtual
 * exit n when x ends in EXIT/RET; -1 where there is none. */
static int
exit_succ(const Rc *r, int x, int k)
{
	int s;

	if (k == 2)
		return last_is_exit(&r->f->b.v[x]) ? r->n : -1;
	s = r->f->b.v[x].succ[k];
	return s >= 0 && r->reachx[s] ? s : -1;
}

/* ipdom: each block's immediate post-dominator (n: the virtual exit, also
 * for blocks that never reach it), by Cooper, Harvey and Kennedy's
 * iteration over the reverse CFG in reverse postorder -- linear in
 * practice, where post-dominator sets were quadratic in the blocks. */
static void
postdom(Rc *r)
{
	int n = r->n, np = 0, ne = 0, sp = 0, b, k, changed = 1;
	int *po = arena_alloc(&r->a, ((size_t)n + 1) * sizeof *po);   /* postorder number, -1 unvisited */
	int *order = arena_alloc(&r->a, ((size_t)n + 1) * sizeof *order);
	int *exits = arena_alloc(&r->a, ((size_t)n + 1) * sizeof *exits);
	int *st = arena_alloc(&r->a, 2 * ((size_t)n + 1) * sizeof *st);   /* node, next child */

	for (b = 0; b < n; b++)
		if (last_is_exit(&r->f->b.v[b]))
			exits[ne++] = b;
	for (b = 0; b <= n; b++)
		po[b] = -1, r->ipdom[b] = -1;
	/* postorder of the reverse CFG from the exit: the children of n are the
	   blocks ending in EXIT/RET, a block's are its predecessors */
	st[sp++] = n, st[sp++] = 0;
	po[n] = -2;
	while (sp) {
		int x = st[sp - 2], i = st[sp - 1]++;
		int nc = x == n ? ne : (int)r->pred[x].n;
		int c = i >= nc ? -1 : x == n ? exits[i] : r->pred[x].v[i];
		if (i >= nc) {
			po[x] = np;
			order[np++] = x;
			sp -= 2;
		} else if (po[c] == -1 && r->reachx[c]) {
			po[c] = -2;
			st[sp++] = c, st[sp++] = 0;
		}
	}
	r->ipdom[n] = n;
	while (changed) {
		changed = 0;
		for (k = np - 2; k >= 0; k--) {   /* reverse postorder after n */
			int x = order[k], nd = -1, j;
			for (j = 0; j < 3; j++) {
				int s = exit_succ(r, x, j);
				if (s >= 0 && r->ipdom[s] >= 0)
					nd = nd < 0 ? s : pdom_meet(r, po, s, nd);
			}
			if (nd != r->ipdom[x]) {
				r->ipdom[x] = nd;
				changed = 1;
			}
		}
	}
	for (b = 0; b < n; b++)
		if (!r->reachx[b] || r->ipdom[b] < 0)
			r->ipdom[b] = n;
}

static const MIns *
cond_branch(const MBlock *B)
{
	const MIns *m = B->ins.n ? &B->ins.v[B->ins.n - 1] : NULL;
	/* BRA.U.ANY: all active lanes go the same way (a uniform loop) */
	return m && mir_is_bra(m) && m->guard >= 0 && strncmp(m->text, "BRA.U.ANY", 9) ? m : NULL;
}

static int
mark_div(Rc *r, int v)
{
	if (v < 0 || r->div[v] || r->f->vr.v[v].fixed)
		return 0;
	r->div[v] = 1;
	r->stale |= r->seen[v];
	return 1;
}

/* Is v divergent (a read that decides something in div_round)? */
static int
is_div(Rc *r, int v)
{
	if (r->div[v])
		return 1;
	r->seen[v] = 1;
	return 0;
}

/* One round of propagation; returns the number of vregs newly divergent.
 * When none of them was read (as uniform) before it was marked, every
 * decision of the round saw the final state: another round would decide
 * the same and mark nothing (r->stale stays 0). */
static int
div_round(Rc *r)
{
	MFunc *f = r->f;
	int b, k, ch = 0;
	size_t i, ix = 0;

	for (b = 0; b < r->n; b++)
		for (i = 0; i < f->b.v[b].ins.n; i++) {
			const MIns *m = &f->b.v[b].ins.v[i];
			int d = !r->uni[ix++] || (m->guard >= 0 && is_div(r, m->guard));
			for (k = 0; k < m->nr && !d; k++)
				if ((m->rf[k] & MF_USE) && is_div(r, m->r[k].v))
					d = 1;
			for (k = 0; k < m->nr && d; k++)
				if (m->rf[k] & MF_DEF)
					ch += mark_div(r, m->r[k].v);
		}
	/* values merged from the paths of a divergent branch.  A block is
	 * looked at once (bit 0), and a branch once (bit 1), in all rounds:
	 * divergence only grows, so a second look would mark nothing new. */
	for (b = 0; b < r->n; b++) {
		const MIns *br = cond_branch(&f->b.v[b]);
		int all, nx, y, x;
		if (!br || !r->live[b] || (r->merged[b] & 2) || !is_div(r, br->guard))
			continue;
		r->merged[b] |= 2;
		all = r->ipdom[b] == r->n || region(r, b, r->ipdom[b]) < 0;
		nx = all ? r->n : (int)r->rl.n;
		for (y = 0; y < nx; y++) {
			x = all ? y : r->rl.v[y];
			if (r->merged[x] & 1)
				continue;
			r->merged[x] |= 1;
			for (i = 0; i < f->b.v[x].ins.n; i++) {
				const MIns *m = &f->b.v[x].ins.v[i];
				for (k = 0; k < m->nr; k++)
					if ((m->rf[k] & MF_DEF) && r->ndefs[m->r[k].v] > 1)
						ch += mark_div(r, m->r[k].v);
			}
		}
	}
	return ch;
}

static void
divergence(Rc *r)
{
	MFunc *f = r->f;
	size_t b, i, n = 0;
	int k;

	r->div = arena_alloc(&r->a, f->vr.n + 1);
	r->ndefs = arena_alloc(&r->a, (f->vr.n + 1) * sizeof *r->ndefs);
	for (b = 0; b < f->b.n; b++)
		n += f->b.v[b].ins.n;
	r->uni = arena_alloc(&r->a, n + 1);
	n = 0;
	for (b = 0; b < f->b.n; b++)
		for (i = 0; i < f->b.v[b].ins.n; i++) {
			const MIns *m = &f->b.v[b].ins.v[i];
			int defs = 0;
			for (k = 0; k < m->nr; k++)
				if (m->rf[k] & MF_DEF) {
					r->ndefs[m->r[k].v]++;
					defs = 1;
				}
			r->uni[n++] = (u8)(defs && uniform_op(m->text));   /* no def: nothing to mark */
		}
	r->merged = arena_alloc(&r->a, (size_t)r->n + 1);
	r->seen = arena_alloc(&r->a, f->vr.n + 1);
	do {
		memset(r->seen, 0, f->vr.n);
		r->stale = 0;
	} while (div_round(r) && r->stale);
}

/* ---- inserting regions ---- */

typedef struct {
	int b, j;      /* branch block, its join (ipdom) */
	int p, jb, e;  /* after insertion: BSSY block, BSYNC block, BSSY target */
	int size;      /* region size (blocks) when found */
} Region;

/* The per-block arrays, once: room for the blocks there are and the 3
 * that each region (at most one a block) may add. */
static void
rc_alloc(Rc *r)
{
	size_t c = 4 * (size_t)r->n + 1;

#define NEW(p) ((p) = arena_alloc(&r->a, c * sizeof *(p)))
	NEW(r->pred);
	NEW(r->refs);
	NEW(r->reachx);
	NEW(r->live);
	NEW(r->inr);
	NEW(r->ncalls);
	NEW(r->stack);
	NEW(r->nx);
	NEW(r->pv);
	NEW(r->dirty);
#undef NEW
	r->cap = (int)c;
}

/* The whole CFG state from the blocks in index order (once: the new
 * arrays are zeroed). */
static void
cfg_init(Rc *r)
{
	MFunc *f = r->f;
	int b, k;
	BSum s;

	r->n = (int)f->b.n;
	rc_alloc(r);
	for (b = 0; b < r->n; b++) {
		r->nx[b] = b + 1 < r->n ? b + 1 : -1;
		r->pv[b] = b - 1;
	}
	for (b = 0; b < r->n; b++) {
		scan_block(f, (size_t)b, &s, r->ncalls);
		succ_of(f, (size_t)b, &s, r->nx[b]);
	}
	for (b = 0; b < r->n; b++)
		for (k = 0; k < 2; k++)
			if (f->b.v[b].succ[k] >= 0)
				vec_push(&r->pred[f->b.v[b].succ[k]], b);
	reach(r);
}

static void
set_dirty(Rc *r, int b)
{
	if (!r->dirty[b]) {
		r->dirty[b] = 1;
		vec_push(&r->dl, b);
	}
}

/* succ[] and the predecessor lists of the dirty blocks. */
static void
cfg_update(Rc *r)
{
	MFunc *f = r->f;
	size_t d, i;
	int k;
	BSum s;

	for (d = 0; d < r->dl.n; d++) {
		int x = r->dl.v[d];
		MBlock *B = &f->b.v[x];
		for (k = 0; k < 2; k++) {   /* x leaves its old successors' lists */
			int t = B->succ[k];
			if (t < 0)
				continue;
			for (i = 0; i < r->pred[t].n && r->pred[t].v[i] != x; i++)
				;
			ASSERT(i < r->pred[t].n);
			r->pred[t].v[i] = r->pred[t].v[--r->pred[t].n];
		}
		scan_block(f, (size_t)x, &s, NULL);
		succ_of(f, (size_t)x, &s, r->nx[x]);
		for (k = 0; k < 2; k++)
			if (B->succ[k] >= 0)
				vec_push(&r->pred[B->succ[k]], x);
		r->dirty[x] = 0;
	}
	r->dl.n = 0;
}

/* A new block x (after cfg_update): reaches the exit through its
 * successors, is reached through its predecessors. */
static void
new_reachx(Rc *r, int x)
{
	int k, s;

	for (k = 0; k < 2; k++)
		if ((s = r->f->b.v[x].succ[k]) >= 0 && r->reachx[s])
			r->reachx[x] = 1;
}

static void
new_live(Rc *r, int x)
{
	size_t k;

	r->live[x] = (u8)is_entry(r, x);
	for (k = 0; k < r->pred[x].n; k++)
		if (r->live[r->pred[x].v[k]])
			r->live[x] = 1;
}

/* A new empty block right before block k in the layout; returns its id. */
static int
add_block(Rc *r, int k)
{
	MFunc *f = r->f;
	MBlock nb = {0};
	int x = (int)f->b.n, p = r->pv[k];

	nb.succ[0] = nb.succ[1] = -1;
	nb.loop_depth = f->b.v[k].loop_depth;
	vec_push(&f->b, nb);
	r->n = (int)f->b.n;
	ASSERT(r->n < r->cap);
	r->pv[x] = p;
	r->nx[x] = k;
	r->pv[k] = x;
	if (p >= 0) {
		r->nx[p] = x;
		set_dirty(r, p);   /* it falls into x now */
	} else {
		r->head = x;
	}
	set_dirty(r, x);
	return x;
}

static void
emit_in(Rc *r, int b, const char *fmt, int target)
{
	MFunc *f = r->f;
	int cur = f->cur, g = f->guard;
	set_dirty(r, b);
	f->cur = b;
	f->guard = -1;
	if (target >= 0) {
		mi(f, fmt, target);
		vec_push(&r->refs[target], b);
	} else {
		mi(f, fmt);
	}
	f->cur = cur;
	f->guard = g;
}

static void
retarget(Rc *r, int b, int from, int to)
{
	MFunc *f = r->f;
	size_t i;
	int changed = 0;
	for (i = 0; i < f->b.v[b].ins.n; i++) {
		MIns *m = &f->b.v[b].ins.v[i];
		/* branches, and the return address of a CALL (MOV R20, <J> or
		 * LEPC R20, <J>; an indirect CALL.REL is relative to it) */
		if (m->target == from &&   /* the cheap test first: most have none */
		    (mir_op_is(m->text, "BRA") || mir_op_is(m->text, "MOV") || mir_op_is(m->text, "CALL") ||
		     mir_op_is(m->text, "LEPC"))) {
			m->target = to;
			if (mir_op_is(m->text, "CALL")) {
				r->ncalls[from]--;
				r->ncalls[to]++;
			}
			changed = 1;
		}
	}
	if (changed) {
		vec_push(&r->refs[to], b);
		set_dirty(r, b);
	}
}

/* Retarget from -> to in the blocks naming from that are inside
 * (in == 1) or outside (in == 0) the region in r->inr. */
static void
retarget_refs(Rc *r, int from, int to, int in)
{
	size_t i, n = r->refs[from].n;

	for (i = 0; i < n; i++) {
		int x = r->refs[from].v[i];
		if (INR(r, x) == in)
			retarget(r, x, from, to);
	}
}

static int
falls_into(const Rc *r, int p, int s)
{
	const MBlock *B = &r->f->b.v[p];
	size_t i;
	if (p < 0 || r->nx[p] != s)
		return 0;
	for (i = 0; i < B->ins.n; i++)
		if (ends_flow(&B->ins.v[i]))
			return 0;
	return 1;
}

/* The single entry of the region in r->inr, or -1. */
static int
region_entry(Rc *r)
{
	int e = -1, x, k;
	size_t y;

	for (y = 0; y < r->rl.n; y++) {
		int outside;
		x = r->rl.v[y];
		outside = is_entry(r, x);
		for (k = 0; k < (int)r->pred[x].n; k++)
			if (!INR(r, r->pred[x].v[k]))
				outside = 1;
		if (outside) {
			if (e >= 0)
				return -1;
			e = x;
		}
	}
	return e;
}

/* Put J = [BSYNC] and E = [] right before g->j; the region's edges into j
 * go to J, the block outside it that fell into j branches to it. */
static void
insert_join(Rc *r, Region *g)
{
	int j = g->j, y = r->pv[j], J, E;

	if (y >= 0 && !INR(r, y) && falls_into(r, y, j))
		emit_in(r, y, "BRA %L", j);
	E = add_block(r, j);
	J = add_block(r, E);
	retarget_refs(r, j, J, 1);
	g->jb = J;
	g->e = E;
	emit_in(r, J, "BSYNC B0", -1);
	cfg_update(r);
	new_reachx(r, E);
	new_reachx(r, J);
	new_live(r, J);
	new_live(r, E);
}

/* BSSY before the branch of b, or in a new block P before the entry e
 * that the edges from outside the region enter. */
static void
insert_entry(Rc *r, Region *g, int e)
{
	MFunc *f = r->f;
	int y = r->pv[e], k, P, inloop = 0;

	for (k = 0; k < (int)r->pred[e].n; k++)
		if (INR(r, r->pred[e].v[k]))
			inloop = 1;
	if (e == g->b && !inloop) {
		MBlock *B = &f->b.v[e];
		size_t pos = B->ins.n;
		MIns t;
		while (pos > 0 && mir_is_bra(&B->ins.v[pos - 1]))
			pos--;
		if (ends_with_call(B) && pos >= 2) {
			/* before what sets the return address: MOV R20 (a .func
			 * call) or the LEPC of a call to a system external */
			pos -= 2;
			while (pos > 0 && !mir_op_is(B->ins.v[pos].text, "LEPC") &&
			       mir_op_is(B->ins.v[B->ins.n - 1].text, "CALL") && strstr(B->ins.v[B->ins.n - 1].text, ".ABS"))
				pos--;
		}
		emit_in(r, e, "BSSY B0, %L", g->e);
		B = &f->b.v[e];
		t = B->ins.v[B->ins.n - 1];
		memmove(&B->ins.v[pos + 1], &B->ins.v[pos], sizeof(MIns) * (B->ins.n - 1 - pos));
		B->ins.v[pos] = t;
		g->p = e;
		cfg_update(r);
		return;
	}
	if (y >= 0 && INR(r, y) && falls_into(r, y, e))
		emit_in(r, y, "BRA %L", e);
	P = add_block(r, e);
	retarget_refs(r, e, P, 0);
	emit_in(r, P, "BSSY B0, %L", g->e);
	g->p = P;
	cfg_update(r);
	new_reachx(r, P);
	new_live(r, P);
}


/* Bracket region g; 0, or -1 when it has no single entry. */
static int
insert_region(Rc *r, Region *g)
{
	int e;

	if (region(r, g->b, g->j) < 0 || (e = region_entry(r)) < 0)
		return -1;
	insert_join(r, g);
	region(r, g->b, g->jb);
	e = region_entry(r);
	if (e < 0)
		die("reconv: the region lost its entry");
	insert_entry(r, g, e);
	return 0;
}

/* The blocks in layout order (branch targets, the regions' blocks,
 * succ[] and f->cur follow them).  Only succ[] is current after it (what
 * assign_bregs and link_local_calls read): cfg_update kept it so for the
 * old ids, and a block's next in the layout is the one after it now. */
static void
renumber(Rc *r, int n0, Region *g, int ng)
{
	MFunc *f = r->f;
	int n = (int)f->b.n, *pos = xcalloc((size_t)n + 1, sizeof *pos), x, i = 0;
	MBlock *nb = xcalloc((size_t)n + 1, sizeof *nb);
	size_t b, k;

	for (x = r->head; x >= 0; x = r->nx[x]) {
		pos[x] = i;
		nb[i++] = f->b.v[x];
	}
	ASSERT(i == n);
	memcpy(f->b.v, nb, (size_t)n * sizeof *nb);
	for (b = 0; b < f->b.n; b++) {
		for (k = 0; k < 2; k++)
			if (f->b.v[b].succ[k] >= 0)
				f->b.v[b].succ[k] = pos[f->b.v[b].succ[k]];
		for (k = 0; k < f->b.v[b].ins.n; k++) {
			MIns *m = &f->b.v[b].ins.v[k];
			if (m->target >= 0) {
				ASSERT(m->target < n);
				m->target = pos[m->target];
			}
		}
	}
	for (i = 0; i < ng; i++) {
		g[i].b = pos[g[i].b];
		g[i].j = pos[g[i].j];
		g[i].p = pos[g[i].p];
		g[i].jb = pos[g[i].jb];
		g[i].e = pos[g[i].e];
	}
	if (f->cur >= 0)
		f->cur = f->cur < n0 ? pos[f->cur] : f->cur + n - n0;
	free(pos);
	free(nb);
}

/* Blocks of a bracketed region (for B register conflicts): reachable
 * from its BSSY block without passing its BSYNC block, and that block. */
static void
region_set(Rc *r, const Region *g, u64 *set, size_t W)
{
	int sp = 0, x, k;

	memset(set, 0, W * 8);
	set[g->p / 64] |= 1ull << (g->p & 63);
	set[g->jb / 64] |= 1ull << (g->jb & 63);
	r->stack[sp++] = g->p;
	while (sp) {
		x = r->stack[--sp];
		for (k = 0; k < 2; k++) {
			int s = r->f->b.v[x].succ[k];
			if (s >= 0 && !(set[s / 64] >> (s & 63) & 1)) {
				set[s / 64] |= 1ull << (s & 63);
				if (s != g->jb)
					r->stack[sp++] = s;
			}
		}
	}
}

static void
drop_ins(MBlock *B, size_t i)
{
	memmove(&B->ins.v[i], &B->ins.v[i + 1], sizeof(MIns) * (B->ins.n - i - 1));
	B->ins.n--;
}

/* The text pre + "B<k>" + post in f's arena (k < NB; by hand: snprintf
 * cost ~1 K instructions a call). */
static char *
breg_text(MFunc *f, const char *pre, int k, const char *post)
{
	char t[32], *d = t;

	while (*pre)
		*d++ = *pre++;
	*d++ = 'B';
	if (k >= 10)
		*d++ = '1';
	*d++ = (char)('0' + k % 10);
	while ((*d++ = *post++))
		;
	return arena_strdup(f->a, t);
}

/* Write B register k into the region's BSSY/BSYNC (k < 0: delete them). */
static void
set_breg(MFunc *f, const Region *g, int k)
{
	MBlock *P = &f->b.v[g->p], *J = &f->b.v[g->jb];
	size_t i;

	for (i = 0; i < P->ins.n; i++)
		if (mir_op_is(P->ins.v[i].text, "BSSY") && P->ins.v[i].target == g->e) {
			if (k < 0)
				drop_ins(P, i);
			else
				P->ins.v[i].text = breg_text(f, "BSSY ", k, ", \002");
			break;
		}
	for (i = 0; i < J->ins.n; i++)
		if (mir_op_is(J->ins.v[i].text, "BSYNC")) {
			if (k < 0)
				drop_ins(J, i);
			else
				J->ins.v[i].text = breg_text(f, "BSYNC ", k, "");
			break;
		}
}

static void
assign_bregs(Rc *r, Region *g, int ng, ReconvStats *st)
{
	size_t W;
	u64 *sets, *fwd, *reach;
	int *ord, *col, *size, *lo, *hi, i, k, a, b;

	W = ((size_t)r->n + 64) / 64;
	sets = arena_alloc(&r->a, ((size_t)ng * W + 1) * 8);
	ord = arena_alloc(&r->a, ((size_t)ng + 1) * sizeof *ord);
	col = arena_alloc(&r->a, ((size_t)ng + 1) * sizeof *col);
	size = arena_alloc(&r->a, ((size_t)ng + 1) * sizeof *size);
	lo = arena_alloc(&r->a, (2 * (size_t)ng + 1) * sizeof *lo);   /* the words of a set that may be nonzero */
	hi = lo + ng;
	for (i = 0; i < ng; i++) {
		region_set(r, &g[i], &sets[(size_t)i * W], W);
		lo[i] = (int)W;
		for (size_t w = 0; w < W; w++)
			if (sets[(size_t)i * W + w]) {
				size[i] += __builtin_popcountll(sets[(size_t)i * W + w]);
				lo[i] = lo[i] < (int)w ? lo[i] : (int)w;
				hi[i] = (int)w + 1;
			}
		ord[i] = i;
	}
	/* the lanes of the two arms of a divergent branch run interleaved
	 * (the emulator by lowest PC, the hardware as it likes), so a
	 * region stays open while a region it has no forward path to or
	 * from (in a sibling arm; or a shared slow path's call and its
	 * body) opens: such regions get different B registers too */
	fwd = arena_alloc(&r->a, ((size_t)r->n * W + 1) * 8);
	reach = arena_alloc(&r->a, ((size_t)ng * W + 1) * 8);
	for (b = r->n - 1; b >= 0; b--) {
		const MBlock *B = &r->f->b.v[b];
		fwd[(size_t)b * W + (size_t)b / 64] |= 1ull << (b & 63);
		for (k = 0; k < 2; k++)
			if (B->succ[k] > b && B->succ[k] < r->n)
				for (size_t w = 0; w < W; w++)
					fwd[(size_t)b * W + w] |= fwd[(size_t)B->succ[k] * W + w];
	}
	for (i = 0; i < ng; i++)
		for (size_t v = 0; v < W; v++)
			for (u64 bits = sets[(size_t)i * W + v]; bits; bits &= bits - 1) {
				b = (int)(v * 64) + __builtin_ctzll(bits);
				for (size_t w = 0; w < W; w++)
					reach[(size_t)i * W + w] |= fwd[(size_t)b * W + w];
			}
	for (i = 1; i < ng; i++)   /* largest (outermost) first, stable */
		for (k = i; k > 0 && size[ord[k - 1]] < size[ord[k]]; k--) {
			int t = ord[k];
			ord[k] = ord[k - 1];
			ord[k - 1] = t;
		}
	for (i = 0; i < ng; i++) {
		u32 busy = 0;
		a = ord[i];
		for (k = 0; k < i; k++) {
			int o = ord[k], inter = 0, w0 = lo[a] > lo[o] ? lo[a] : lo[o], w1 = hi[a] < hi[o] ? hi[a] : hi[o];
			if (col[o] < 0)
				continue;
			for (int w = w0; w < w1 && !inter; w++)
				inter = (sets[(size_t)a * W + w] & sets[(size_t)o * W + w]) != 0;
			if (!inter) {
				int ordered = 0;
				for (size_t w = 0; w < W && !ordered; w++)
					ordered = (reach[(size_t)a * W + w] & sets[(size_t)o * W + w]) ||
						  (reach[(size_t)o * W + w] & sets[(size_t)a * W + w]);
				inter = !ordered;
			}
			if (inter)
				busy |= 1u << col[o];
		}
		for (col[a] = 0; col[a] < NB && (busy >> col[a] & 1); col[a]++)
			;
		if (col[a] == NB)
			col[a] = -1;
		set_breg(r->f, &g[a], col[a]);
		if (col[a] < 0)
			st->skipped++;
		else {
			st->regions++;
			if (col[a] + 1 > st->bregs)
				st->bregs = col[a] + 1;
		}
	}
}

/* The first instruction control reaches at block b (skipping empty
 * blocks), or NULL. */
static const MIns *
first_ins(const MFunc *f, int b)
{
	for (; b < (int)f->b.n; b++)
		if (f->b.v[b].ins.n)
			return &f->b.v[b].ins.v[0];
	return NULL;
}

/* "@P BRA L" where L is an unguarded EXIT becomes "@P EXIT" (as ptxas
 * writes it): exiting threads need no reconvergence. */
static void
thread_exits(MFunc *f)
{
	size_t b, i;

	for (b = 0; b < f->b.n; b++)
		for (i = 0; i < f->b.v[b].ins.n; i++) {
			MIns *m = &f->b.v[b].ins.v[i];
			const MIns *t;
			if (!mir_is_bra(m) || !(t = first_ins(f, m->target)))
				continue;
			if (t->guard < 0 && !strcmp(t->text, "EXIT")) {
				m->text = arena_strdup(f->a, "EXIT");
				m->target = -1;
			}
		}
}

/* Blocks end at their first branch/EXIT: split after a control transfer
 * that isel wrote in the middle of a block (e.g. around a guarded trap).
 * succ[] is left to the caller (cfg_init). */
static inline int
transfers(const MIns *m)
{
	switch (m->text[0]) {   /* one name test per instruction */
	case 'B': return mir_is_bra(m);
	case 'E': return mir_op_is(m->text, "EXIT");
	case 'R': return mir_op_is(m->text, "RET");
	case 'C': return mir_op_is(m->text, "CALL");
	}
	return 0;
}

static void
split_blocks(MFunc *f)
{
	size_t b, i, n;
	int *add = xcalloc(f->b.n + 1, sizeof *add);

	/* an empty block after b for each piece, then the pieces into them */
	for (b = 0; b < f->b.n; b++)
		for (i = 0; i + 1 < f->b.v[b].ins.n; i++)
			add[b] += transfers(&f->b.v[b].ins.v[i]);
	n = insert_after(f, add);
	free(add);
	for (b = 0; b < f->b.n && n; b++)
		for (i = 0; i + 1 < f->b.v[b].ins.n; i++) {
			MBlock *B = &f->b.v[b], *N = &f->b.v[b + 1];
			size_t rest;
			if (!transfers(&B->ins.v[i]))
				continue;
			ASSERT(!N->ins.n);
			rest = B->ins.n - (i + 1);
			for (size_t k = 0; k < rest; k++)
				vec_push(&N->ins, B->ins.v[i + 1 + k]);
			B->ins.n = i + 1;
			break;
		}
}

int
reconv_run(MFunc *f, ReconvStats *st)
{
	Rc r = {0};
	VEC(Region) g = {0};
	int b, i, k, kend, n0;

	memset(st, 0, sizeof *st);
	r.f = f;
	split_blocks(f);
	thread_exits(f);
	cfg_init(&r);
	r.ipdom = arena_alloc(&r.a, ((size_t)r.n + 1) * sizeof *r.ipdom);
	kend = r.n;
	postdom(&r);
	/* called functions (appended after the kernel) get no regions: a
	 * callee would clobber its caller's B registers (no BMOV saves yet) */
	for (b = 1; b < r.n; b++)
		if (is_entry(&r, b) && b < kend)
			kend = b;
	for (b = 0; b < kend; b++) {
		const MIns *br = cond_branch(&f->b.v[b]);
		Region x = { b, r.ipdom[b], -1, -1, -1, 0 };
		if (ends_with_call(&f->b.v[b]) && r.live[b] && f->b.v[b].succ[0] == b + 1) {
			/* a callee may return diverged: reconverge at the return point */
			x.j = b + 1;
			x.size = 1;
			vec_push(&g, x);
			continue;
		}
		if (!br || !r.live[b] || f->b.v[b].succ[0] < 0 || f->b.v[b].succ[1] < 0)
			continue;
		if (!r.div)   /* the first two-way branch that asks */
			divergence(&r);
		if (!r.div[br->guard])
			continue;
		if (x.j == r.n || (x.size = region(&r, b, x.j)) < 0) {
			st->skipped++;
			continue;
		}
		vec_push(&g, x);
	}
	/* inner (smaller) regions first */
	for (i = 1; i < (int)g.n; i++)
		for (k = i; k > 0 && g.v[k - 1].size > g.v[k].size; k--) {
			Region t = g.v[k];
			g.v[k] = g.v[k - 1];
			g.v[k - 1] = t;
		}
	/* which blocks name each block */
	n0 = r.n;
	for (b = 0; b < n0 && g.n; b++)
		for (size_t x = 0; x < f->b.v[b].ins.n; x++)
			if (f->b.v[b].ins.v[x].target >= 0)
				vec_push(&r.refs[f->b.v[b].ins.v[x].target], b);
	for (i = 0; i < (int)g.n; i++)
		if (insert_region(&r, &g.v[i]) < 0) {
			g.v[i].p = -1;
			st->skipped++;
		}
	for (i = k = 0; i < (int)g.n; i++)
		if (g.v[i].p >= 0)
			g.v[k++] = g.v[i];
	g.n = (size_t)k;
	if (g.n) {   /* (a region that was not inserted changed nothing) */
		renumber(&r, n0, g.v, (int)g.n);
		assign_bregs(&r, g.v, (int)g.n, st);
	}
	link_local_calls(f);
	for (b = 0; b < r.n; b++) {   /* (the rest never held a block) */
		vec_free(&r.pred[b]);
		vec_free(&r.refs[b]);
	}
	vec_free(&r.rl);
	vec_free(&r.dl);
	arena_free(&r.a);
	vec_free(&g);
	return 0;
}
