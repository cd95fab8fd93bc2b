/* index.c -- find the form that decodes a word without scanning its
 * opcode bucket: per architecture, one decision tree per bucket (the 12
 * opcode bits) over the bits the bucket's forms fix, built once at first
 * use.
 *
 * A node tests one word bit.  A form whose mask fixes that bit goes to
 * the child of its match value; a form that leaves it free goes to both.
 * Every list keeps the bucket's order (most specific first), so the first
 * form of a leaf that matches is the first form of the bucket that
 * matches: decoding is exactly the linear scan's, only faster.  A leaf
 * holds the candidates' mask/match inline, and the enumeration fields
 * that have values the oracle rejects, the only fields that can veto a
 * form whose bits match. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "isa/isa_impl.h"

enum { LEAF = 0xff, LEAFMAX = 1, MAXDEPTH = 40 };

typedef struct {
	Word mask, match;
	u32 form;
	u32 chk, nchk;	/* enum fields that can reject a value: chk[chk .. chk + nchk) */
	u32 op0;	/* the form's extraction program: op[op0 .. op0 + nop) */
	u16 nop;
	u8 cnst;	/* some field has constant value bits */
} Cand;

/* One run of len word bits (len >= 1) into a field value:
 * vals[fi] = (first ? 0 : vals[fi]) | (half >> shift & (2^len - 1)) << vshift.
 * Eight bytes; a form with constant value bits (IsaField.orval) or a field
 * with no word bit at all takes the slow path (cnst). */
typedef struct {
	u8 hi, shift, len, vshift, fi, first;
} Op;

typedef struct {
	u32 a;		/* inner: child for bit 0 (a + 1 for bit 1); leaf: first cand */
	u16 b;		/* leaf: number of cands */
	u8 bit;		/* word bit tested, LEAF for a leaf */
} Node;		/* 8 bytes: the 4096 roots fit in 32 KiB */

typedef struct {
	Node root[4096];	/* copies of each bucket's first node: one load less */
	VEC(Node) node;
	VEC(Cand) cand;
	VEC(u32) chk;	/* field indices into arch->fields */
	u32 *fchk;	/* per form: first entry in chk; fchk[nforms] = end */
	VEC(IsaEnumEnt) ent;	/* per ENUM field: the values the parser may choose */
	u32 *fent;	/* per field: first entry in ent; fent[nfields] = end */
	u32 *base_end;	/* per position in by_base: end of its run of one base mnemonic */
	VEC(Op) op;	/* field extraction programs, per form: op[fop[i] .. fop[i + 1]) */
	u32 *fop;
	u8 *cnst;	/* per form: some field has constant value bits */
} Index;

static int
wbit(Word w, u32 b)
{
	return (int)((b < 64 ? w.lo >> b : w.hi >> (b - 64)) & 1);
}

/* Does field f have a value the oracle rejects (ENUM_INVALID)? */
static int
can_reject(const Arch *a, const IsaField *f)
{
	u64 v;

	if (f->kind != FK_ENUM || f->nbits > 16)
		return f->kind == FK_ENUM;
	for (v = 0; v < (1ull << f->nbits); v++)
		if (a->enums[f->table + v] == ENUM_INVALID)
			return 1;
	return 0;
}

static u32
new_node(Index *x)
{
	Node n = { 0, 0, LEAF };

	vec_push(&x->node, n);
	return (u32)x->node.n - 1;
}

/* Appends the candidates of l; returns the first one's index. */
static u32
leaf(const Arch *a, Index *x, const u32 *l, u32 n)
{
	u32 first = (u32)x->cand.n, i;

	for (i = 0; i < n; i++) {
		const IsaForm *fm = &a->forms[l[i]];
		Cand c = { fm->mask, fm->match, l[i], x->fchk[l[i]], x->fchk[l[i] + 1] - x->fchk[l[i]],
			   x->fop[l[i]], (u16)(x->fop[l[i] + 1] - x->fop[l[i]]), x->cnst[l[i]] };

		vec_push(&x->cand, c);
	}
	return first;
}

/* The bit that splits l best: the smaller larger half, then the fewer
 * forms copied to both halves; 0 when no bit makes both halves smaller. */
static u32
best_bit(const Arch *a, const u32 *l, u32 n, u32 *n0, u32 *n1)
{
	u32 ones[128] = {0}, zeros[128] = {0}, b, i, best = 0, bmax = n, bsum = 2 * n + 1;

	/* a form goes to both halves of a bit it leaves free: count, per bit,
	   the forms that fix it to 1 and to 0 (set bits of the masks only) */
	for (i = 0; i < n; i++) {
		const IsaForm *fm = &a->forms[l[i]];
		u64 m[2] = { fm->mask.lo, fm->mask.hi }, v[2] = { fm->match.lo, fm->match.hi };
		int h;

		for (h = 0; h < 2; h++)
			for (; m[h]; m[h] &= m[h] - 1) {
				int k = __builtin_ctzll(m[h]);
				if (v[h] >> k & 1)
					ones[64 * h + k]++;
				else
					zeros[64 * h + k]++;
			}
	}
	for (b = 12; b < 128; b++) {
		u32 c0 = n - ones[b], c1 = n - zeros[b];

		if (MAX(c0, c1) < bmax || (MAX(c0, c1) == bmax && bmax < n && c0 + c1 < bsum)) {
			best = b;
			bmax = MAX(c0, c1);
			bsum = c0 + c1;
			*n0 = c0;
			*n1 = c1;
		}
	}
	return best;
}

/* Fills node id with the tree of list l (n forms).  The two children of
 * an inner node are adjacent (a, a + 1), so the walk needs no branch on
 * the bit's value. */
static void
build(const Arch *a, Index *x, u32 id, const u32 *l, u32 n, int depth)
{
	u32 b, n0, n1, i, k0 = 0, k1 = 0, c;
	u32 *l0, *l1;

	if (n <= LEAFMAX || depth >= MAXDEPTH || !(b = best_bit(a, l, n, &n0, &n1))) {
		u32 first = leaf(a, x, l, n);

		ASSERT(n <= 0xffff);
		x->node.v[id] = (Node){ first, (u16)n, LEAF };
		return;
	}
	l0 = xmalloc((n0 + n1 + 1) * sizeof *l0);
	l1 = l0 + n0;
	for (i = 0; i < n; i++) {
		const IsaForm *fm = &a->forms[l[i]];

		if (!wbit(fm->mask, b) || !wbit(fm->match, b))
			l0[k0++] = l[i];
		if (!wbit(fm->mask, b) || wbit(fm->match, b))
			l1[k1++] = l[i];
	}
	ASSERT(k0 == n0 && k1 == n1);
	c = new_node(x);
	new_node(x);
	x->node.v[id] = (Node){ c, 0, (u8)b };
	build(a, x, c, l0, n0, depth + 1);
	build(a, x, c + 1, l1, n1, depth + 1);
	free(l0);
}

/* For the parser: each enumeration's values in order, without those the
 * oracle rejects, the decode-only ones and those the field cannot hold,
 * with their strings' first byte and length. */
static void
enum_entries(const Arch *a, Index *x)
{
	u32 nf = 0, i;
	u64 k;

	for (i = 0; i < a->nforms; i++)
		nf = MAX(nf, a->forms[i].field0 + a->forms[i].nfield);
	x->fent = xmalloc((nf + 1) * sizeof *x->fent);
	for (i = 0; i < nf; i++) {
		const IsaField *f = &a->fields[i];

		x->fent[i] = (u32)x->ent.n;
		if (f->kind != FK_ENUM)
			continue;
		for (k = 0; k < (1ull << f->nbits); k++) {
			u16 id = a->enums[f->table + k];
			IsaEnumEnt e;

			if (id & ENUM_DECODE_ONLY || (k | f->orval) != k)
				continue;
			e.val = (u32)k;
			e.len = (u16)strlen(a->strs[id]);
			e.c0 = (u8)a->strs[id][0];
			e.s = a->strs[id];
			vec_push(&x->ent, e);
		}
	}
	x->fent[nf] = (u32)x->ent.n;
}

/* The fields of every form as runs of word bits (isa_decode). */
static void
extract_ops(const Arch *a, Index *x)
{
	u32 i, k;
	int j;

	x->fop = xmalloc((a->nforms + 1) * sizeof *x->fop);
	x->cnst = xcalloc(a->nforms, 1);
	for (i = 0; i < a->nforms; i++) {
		const IsaForm *fm = &a->forms[i];

		x->fop[i] = (u32)x->op.n;
		ASSERT(fm->nfield <= 255);
		for (k = 0; k < fm->nfield; k++) {
			const IsaField *f = &a->fields[fm->field0 + k];

			int first = 1;

			if (f->orval)
				x->cnst[i] = 1;
			for (j = 0; j < f->nbits;) {
				int b = a->bitpos[f->bitpos + j], n = 1;
				Op o;

				if (b == 255) {
					j++;
					continue;
				}
				while (j + n < f->nbits && a->bitpos[f->bitpos + j + n] == b + n && (b + n) % 64)
					n++;
				o.hi = b >= 64;
				o.shift = (u8)(b % 64);
				o.len = (u8)n;
				o.vshift = (u8)j;
				o.fi = (u8)k;
				o.first = (u8)first;
				first = 0;
				vec_push(&x->op, o);
				j += n;
			}
			if (first)
				x->cnst[i] = 1;
		}
	}
	x->fop[a->nforms] = (u32)x->op.n;
}

static Index *
index_build(const Arch *a)
{
	Index *x = xcalloc(1, sizeof *x);
	u32 i, k, op;

	enum_entries(a, x);
	extract_ops(a, x);
	x->base_end = xmalloc((a->nforms + 1) * sizeof *x->base_end);
	x->base_end[a->nforms] = a->nforms;
	for (i = a->nforms; i-- > 0;)
		x->base_end[i] = i + 1 < a->nforms && a->forms[a->by_base[i]].base == a->forms[a->by_base[i + 1]].base
			? x->base_end[i + 1] : i + 1;

	x->fchk = xmalloc((a->nforms + 1) * sizeof *x->fchk);
	for (i = 0; i < a->nforms; i++) {
		const IsaForm *fm = &a->forms[i];

		x->fchk[i] = (u32)x->chk.n;
		for (k = 0; k < fm->nfield; k++)
			if (can_reject(a, &a->fields[fm->field0 + k]))
				vec_push(&x->chk, fm->field0 + k);
	}
	x->fchk[a->nforms] = (u32)x->chk.n;
	for (op = 0; op < 4096; op++) {
		u32 id = new_node(x);

		build(a, x, id, a->bucket + a->bucket_start[op],
		      a->bucket_start[op + 1] - a->bucket_start[op], 0);
		x->root[op] = x->node.v[id];
	}
	return x;
}

static void
index_free(Index *x)
{
	vec_free(&x->node);
	vec_free(&x->cand);
	vec_free(&x->chk);
	free(x->fchk);
	vec_free(&x->ent);
	free(x->fent);
	free(x->base_end);
	vec_free(&x->op);
	free(x->fop);
	free(x->cnst);
	free(x);
}

/* One index per architecture, built by the first caller; a thread that
 * loses the race to publish its copy frees it. */
static struct {
	const Arch *arch;
	_Atomic(Index *) idx;
} slots[] = { { &arch_sm80, NULL }, { &arch_sm90, NULL } };

static __attribute__((noinline)) const Index *
index_new(size_t i)
{
	Index *x, *none = NULL;

	x = index_build(slots[i].arch);
	if (!atomic_compare_exchange_strong_explicit(&slots[i].idx, &none, x, memory_order_acq_rel,
						     memory_order_acquire)) {
		index_free(x);
		x = none;
	}
	return x;
}

static inline const Index *
index_of(const Arch *a)
{
	size_t i = a != slots[0].arch;
	const Index *x;

	ASSERT(slots[i].arch == a);
	if ((x = atomic_load_explicit(&slots[i].idx, memory_order_acquire)))
		return x;
	return index_new(i);
}

/* The word is kept in two scalars: gcc spills a Word argument to the
 * stack and reloads it as one 16-byte load, a store-forwarding stall that
 * cost a third of the time. */
static __attribute__((noinline)) int
enums_ok(const Arch *a, const Index *x, const Cand *c, u64 lo, u64 hi)
{
	Word w = { lo, hi };
	u32 k;

	for (k = 0; k < c->nchk; k++) {
		const IsaField *f = &a->fields[x->chk.v[c->chk + k]];

		if (a->enums[f->table + isa_field_get(a, f, w)] == ENUM_INVALID)
			return 0;
	}
	return 1;
}

static inline const Cand *
match_in(const Arch *a, const Index *x, u64 lo, u64 hi)
{
	const Node *nd = &x->root[lo & 0xfff];
	const Cand *c, *e;

	while (nd->bit != LEAF) {
		u32 b = nd->bit;

		nd = &x->node.v[nd->a + (u32)((b < 64 ? lo >> b : hi >> (b - 64)) & 1)];
	}
	for (c = &x->cand.v[nd->a], e = c + nd->b; c < e; c++)
		if ((lo & c->mask.lo) == c->match.lo && (hi & c->mask.hi) == c->match.hi &&
		    (!c->nchk || enums_ok(a, x, c, lo, hi)))
			return c;
	return NULL;
}

const IsaForm *
isa_match(const Arch *a, Word w)
{
	const Cand *c = match_in(a, index_of(a), w.lo, w.hi);

	return c ? &a->forms[c->form] : NULL;
}

const IsaEnumEnt *
isa_enum_entries(const Arch *a, const IsaField *f, u32 *n)
{
	const Index *x = index_of(a);
	u32 i = (u32)(f - a->fields);

	*n = x->fent[i + 1] - x->fent[i];
	return x->ent.v + x->fent[i];
}

const IsaForm *
isa_decode(const Arch *a, Word w, u64 *vals)
{
	const Index *x = index_of(a);
	u64 lo = w.lo, hi = w.hi;
	const Cand *c = match_in(a, x, lo, hi);
	const IsaForm *fm;
	const Op *o, *e;
	u32 k;

	if (!c)
		return NULL;
	fm = &a->forms[c->form];
	o = x->op.v + c->op0;
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

u32
isa_base_end(const Arch *a, u32 i)
{
	return index_of(a)->base_end[i];
}

void
isa_index_stats(const Arch *a, u32 *nodes, u32 *cands)
{
	const Index *x = index_of(a);

	*nodes = (u32)x->node.n;
	*cands = (u32)x->cand.n;
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
