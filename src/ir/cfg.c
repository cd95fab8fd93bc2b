/* cfg.c -- control-flow-graph helpers for the passes: edge edits,
 * reachability and unreachable blocks, dominators (Cooper, Harvey and
 * Kennedy's iterative algorithm over a reverse post-order). */
#include <stdlib.h>

#include "ir/cfg.h"

void
ir_edge_remove(IrFunc *f, int b, int s)
{
	IrBlock *B = &f->b.v[b], *S = &f->b.v[s];
	size_t i;
	int k;

	for (k = 0; k < 2; k++)
		if (B->succ[k] == s) {
			B->succ[k] = -1;
			break;
		}
	for (i = 0; i < S->pred.n; i++)
		if (S->pred.v[i] == b) {
			S->pred.v[i] = S->pred.v[--S->pred.n];
			break;
		}
}

void
ir_edge_add(IrFunc *f, int b, int k, int s)
{
	ASSERT(f->b.v[b].succ[k] < 0);
	f->b.v[b].succ[k] = s;
	vec_push(&f->b.v[s].pred, b);
}

void
ir_reachable(const IrFunc *f, u8 *reach)
{
	int *stack = xcalloc(f->b.n + 1, sizeof *stack), sp = 0, k;
	size_t b;

	for (b = 0; b < f->b.n; b++)
		reach[b] = 0;
	if (f->b.n) {
		reach[0] = 1;
		stack[sp++] = 0;
	}
	while (sp) {
		const IrBlock *B = &f->b.v[stack[--sp]];
		for (k = 0; k < 2; k++)
			if (B->succ[k] >= 0 && !reach[B->succ[k]]) {
				reach[B->succ[k]] = 1;
				stack[sp++] = B->succ[k];
			}
	}
	free(stack);
}

int
ir_prune_unreachable(IrFunc *f)
{
	u8 *reach = xcalloc(f->b.n + 1, 1);
	size_t b, i;
	int n = 0, k;

	ir_reachable(f, reach);
	for (b = 0; b < f->b.n; b++) {
		IrBlock *B = &f->b.v[b];
		int live = 0;
		if (reach[b])
			continue;
		for (i = 0; i < B->ins.n; i++)
			if (!B->ins.v[i].dead) {
				B->ins.v[i].dead = 1;
				live = 1;
				n++;
			}
		if (!live && B->succ[1] < 0 && (B->succ[0] == (int)b + 1 || b + 1 == f->b.n))
			continue;
		for (k = 0; k < 2; k++)
			if (B->succ[k] >= 0)
				ir_edge_remove(f, (int)b, B->succ[k]);
		if (b + 1 < f->b.n)
			ir_edge_add(f, (int)b, 0, (int)b + 1);
	}
	free(reach);
	return n;
}

static void
postorder(const IrFunc *f, int b, u8 *seen, int *out, int *n)
{
	/* iterative DFS: a stack of (block, next successor slot) */
	int *st = xcalloc(2 * (f->b.n + 1), sizeof *st), sp = 0;

	seen[b] = 1;
	st[0] = b;
	st[1] = 0;
	sp = 1;
	while (sp) {
		int x = st[2 * (sp - 1)], *k = &st[2 * (sp - 1) + 1];
		if (*k < 2) {
			int s = f->b.v[x].succ[(*k)++];
			if (s >= 0 && !seen[s]) {
				seen[s] = 1;
				st[2 * sp] = s;
				st[2 * sp + 1] = 0;
				sp++;
			}
			continue;
		}
		out[(*n)++] = x;
		sp--;
	}
	free(st);
}

static int
intersect(const int *idom, const int *order, int a, int b)
{
	while (a != b) {
		while (order[a] > order[b])
			a = idom[a];
		while (order[b] > order[a])
			b = idom[b];
	}
	return a;
}

int *
ir_dominators(const IrFunc *f, int **rpo_out, int *nrpo)
{
	size_t nb = f->b.n;
	int *idom = xcalloc(nb + 1, sizeof *idom), *po = xcalloc(nb + 1, sizeof *po);
	int *order = xcalloc(nb + 1, sizeof *order), *rpo = xcalloc(nb + 1, sizeof *rpo);
	u8 *seen = xcalloc(nb + 1, 1);
	int n = 0, i, changed = 1;
	size_t b, p;

	for (b = 0; b < nb; b++)
		idom[b] = -1;
	if (nb)
		postorder(f, 0, seen, po, &n);
	for (i = 0; i < n; i++) {
		rpo[i] = po[n - 1 - i];
		order[rpo[i]] = i;
	}
	if (n)
		idom[rpo[0]] = rpo[0];
	while (changed) {
		changed = 0;
		for (i = 1; i < n; i++) {
			const IrBlock *B = &f->b.v[rpo[i]];
			int nd = -1;
			for (p = 0; p < B->pred.n; p++) {
				int q = B->pred.v[p];
				if (!seen[q] || idom[q] < 0)
					continue;
				nd = nd < 0 ? q : intersect(idom, order, q, nd);
			}
			if (nd != idom[rpo[i]]) {
				idom[rpo[i]] = nd;
				changed = 1;
			}
		}
	}
	free(po);
	free(order);
	free(seen);
	*rpo_out = rpo;
	*nrpo = n;
	return idom;
}

int
ir_dominates(const int *idom, int a, int b)
{
	if (idom[b] < 0 || idom[a] < 0)
		return 0;
	for (;;) {
		if (a == b)
			return 1;
		if (idom[b] == b)
			return 0;
		b = idom[b];
	}
}

/* The last live instruction of block b, or NULL. */
static IrIns *
last_live(IrFunc *f, int b)
{
	IrBlock *B = &f->b.v[b];
	size_t i;

	for (i = B->ins.n; i-- > 0;)
		if (!B->ins.v[i].dead)
			return &B->ins.v[i];
	return NULL;
}

int
ir_drop_jumps(IrFunc *f)
{
	size_t b;
	int n = 0, k;

	for (b = 0; b < f->b.n; b++) {
		IrBlock *B = &f->b.v[b];
		IrIns *x = last_live(f, (int)b);
		int t;
		if (!x || x->p.op != PTX_OP_bra || x->p.guard >= 0 || x->target <= (int)b || B->succ[0] >= 0 ||
		    B->succ[1] != x->target)
			continue;
		t = x->target;
		for (k = (int)b + 1; k < t; k++)
			if (last_live(f, k) || f->b.v[k].succ[0] != k + 1 || f->b.v[k].succ[1] >= 0)
				break;
		if (k < t)
			continue;
		x->dead = 1;
		ir_edge_remove(f, (int)b, t);
		ir_edge_add(f, (int)b, 0, (int)b + 1);
		n++;
	}
	return n;
}

/* Remove empty blocks that only fall through (not the entry): edges and
 * branch targets into them go to the block they fall into; blocks are
 * renumbered and the predecessor lists rebuilt.  Returns how many went. */
int
ir_compact(IrFunc *f)
{
	size_t n = f->b.n, b, i;
	int *dest = xcalloc(n + 1, sizeof *dest), *nidx = xcalloc(n + 1, sizeof *nidx), kept = 0, k;
	u8 *gone = xcalloc(n + 1, 1);

	for (b = n; b-- > 0;) {
		IrBlock *B = &f->b.v[b];
		gone[b] = b > 0 && !last_live(f, (int)b) && B->succ[1] < 0 && B->succ[0] == (int)b + 1;
		dest[b] = gone[b] ? dest[b + 1] : (int)b;
	}
	for (b = 0; b < n; b++)
		nidx[b] = gone[b] ? -1 : kept++;
	if (kept == (int)n) {
		free(dest);
		free(nidx);
		free(gone);
		return 0;
	}
	for (b = 0, k = 0; b < n; b++) {
		IrBlock *B = &f->b.v[b];
		int j;
		if (gone[b]) {
			vec_free(&B->ins);
			vec_free(&B->pred);
			continue;
		}
		for (j = 0; j < 2; j++)
			if (B->succ[j] >= 0)
				B->succ[j] = nidx[dest[B->succ[j]]];
		if (B->succ[0] == B->succ[1])
			B->succ[1] = -1;
		for (i = 0; i < B->ins.n; i++)
			if (B->ins.v[i].target >= 0)
				B->ins.v[i].target = nidx[dest[B->ins.v[i].target]];
		B->pred.n = 0;
		f->b.v[k++] = *B;
	}
	f->b.n = (size_t)kept;
	for (b = 0; b < f->b.n; b++)
		for (k = 0; k < 2; k++)
			if (f->b.v[b].succ[k] >= 0)
				vec_push(&f->b.v[f->b.v[b].succ[k]].pred, (int)b);
	n -= (size_t)kept;
	free(dest);
	free(nidx);
	free(gone);
	return (int)n;
}
