/* index.c -- find the form that decodes a word without scanning its
 * opcode bucket: per architecture, one decision tree per bucket (the 12
 * opcode bits) over the bits the bucket's forms fix.  tools/isa-gentab
 * builds the trees with the forms (arch->node, cand, chk, op), so a
 * program pays nothing for them at start-up and no thread ever waits.
 *
 * How the generator builds a tree: a node tests one word bit, the one
 * that splits the node's forms best (the smaller larger half, then the
 * fewer forms copied to both halves; 0 when no bit makes both halves
 * smaller, or at depth 40: a leaf).  A form whose mask fixes the bit goes
 * to the child of its match value; a form that leaves it free goes to
 * both.  Every list keeps the bucket's order (most specific first), so
 * the first form of a leaf that matches is the first form of the bucket
 * that matches: decoding is exactly the linear scan's (isa_match_scan,
 * which the tests compare it with), only faster. */
#include "isa/isa_impl.h"

/* The word is kept in two scalars: gcc spills a Word argument to the
 * stack and reloads it as one 16-byte load, a store-forwarding stall that
 * cost a third of the time. */
static __attribute__((noinline)) int
enums_ok(const Arch *a, const IsaCand *c, u64 lo, u64 hi)
{
	Word w = { lo, hi };
	u32 k;

	for (k = 0; k < c->nchk; k++) {
		const IsaField *f = &a->fields[a->chk[c->chk + k]];

		if (a->enums[f->table + isa_field_get(a, f, w)] == ENUM_INVALID)
			return 0;
	}
	return 1;
}

static inline const IsaCand *
match_in(const Arch *a, u64 lo, u64 hi)
{
	const IsaNode *node = a->node, *nd = &node[lo & 0xfff];
	const IsaCand *c, *e;

	while (nd->bit != ISA_LEAF) {
		u32 b = nd->bit;

		nd = &node[nd->a + (u32)((b < 64 ? lo >> b : hi >> (b - 64)) & 1)];
	}
	for (c = &a->cand[nd->a], e = c + nd->b; c < e; c++)
		if ((lo & c->mask.lo) == c->match.lo && (hi & c->mask.hi) == c->match.hi &&
		    (!c->nchk || enums_ok(a, c, lo, hi)))
			return c;
	return NULL;
}

const IsaForm *
isa_match(const Arch *a, Word w)
{
	const IsaCand *c = match_in(a, w.lo, w.hi);

	return c ? &a->forms[c->form] : NULL;
}

const IsaForm *
isa_decode(const Arch *a, Word w, u64 *vals)
{
	u64 lo = w.lo, hi = w.hi;
	const IsaCand *c = match_in(a, lo, hi);
	const IsaForm *fm;
	const IsaOp *o, *e;
	u32 k;

	if (!c)
		return NULL;
	fm = &a->forms[c->form];
	o = a->op + c->op0;
	e = o + c->nop;
	if (c->cnst) {
		for (k = 0; k < fm->nfield; k++)
			vals[k] = a->fields[fm->field0 + k].orval;
		for (; o < e; o++)
			vals[o->fi] |= ((o->hi ? hi : lo) >> o->shift & (~0ull >> (64 - o->len))) << o->vshift;
		return fm;
	}
	for (; o < e; o++) {
		u64 v = ((o->hi ? hi : lo) >> o->shift & (~0ull >> (64 - o->len))) << o->vshift;

		if (o->first)
			vals[o->fi] = v;
		else
			vals[o->fi] |= v;
	}
	return fm;
}

void
isa_index_stats(const Arch *a, u32 *nodes, u32 *cands)
{
	*nodes = a->nnode;
	*cands = a->ncand;
}

/* The linear scan the index replaces, for the tests. */
const IsaForm *
isa_match_scan(const Arch *a, Word w)
{
	u32 op = (u32)(w.lo & 0xfff), i, k;

	for (i = a->bucket_start[op]; i < a->bucket_start[op + 1]; i++) {
		const IsaForm *fm = &a->forms[a->bucket[i]];

		if ((w.lo & fm->mask.lo) != fm->match.lo || (w.hi & fm->mask.hi) != fm->match.hi)
			continue;
		for (k = 0; k < fm->nfield; k++) {
			const IsaField *f = &a->fields[fm->field0 + k];

			if (f->kind == FK_ENUM && a->enums[f->table + isa_field_get(a, f, w)] == ENUM_INVALID)
				break;
		}
		if (k == fm->nfield)
			return fm;
	}
	return NULL;
}
