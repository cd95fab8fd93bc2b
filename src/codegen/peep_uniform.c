/* peep_uniform.c -- warp-uniform values as operands, the way ptxas uses
 * them.  Kernel parameters and launch dimensions live in constant bank 0
 * and %ctaid is the same for the whole warp; selection first loads each
 * into a general register (LDC/MOV/S2R).  peep_fold (peep_fold.c) first
 * puts constants (immediates, and c[..] on sm_80) into the readers that
 * take them; then, on sm_90, this pass rewrites the readers left to take
 * the value as a uniform register where the instruction has such a form:
 *
 *   sm_90:  LDC R5, c[0x0][0x228];  ISETP.GE.AND P0, PT, R6, R5, PT
 *        -> ULDC UR6, c[0x0][0x228]; ISETP.GE.AND P0, PT, R6, UR6, PT
 *           (S2R SR_CTAID.X -> S2UR; LDC.64 pairs -> ULDC.64)
 *
 * Whether a reader has the form is asked of the ISA tables: the reader is
 * rendered with placeholder registers and the candidate operand and
 * encoded (peep_trial, peep_encodes).  The load goes when no reader needs
 * it any more. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/peep.h"
#include "isa/isa.h"

typedef struct {
	int v;            /* the general vreg holding the uniform value */
	char load[48];    /* the uniform load (ULDC / ULDC.64 / S2UR ...) */
	int ur;           /* the uniform vreg for it */
	int uses_done;    /* readers rewritten */
	int left;         /* readers that still need v */
} Cand;

static int
can_encode(const Arch *a, const MFunc *f, const MIns *m, int k, const char *text, Buf *b)
{
	int at = peep_hole(m, k);

	b->n = 0;
	peep_trial(f, m, at, at + 2, text, b);
	return peep_encodes(a, b->s);
}

/* sscanf(text, pre "%x", x) == 1 */
static int
scan_x1(const char *text, const char *pre, const char *fmt, u32 *x)
{
	const char *e;
	int r = peep_scan_x(text, pre, x, &e);

	return r >= 0 ? r : sscanf(text, fmt, x) == 1;
}

/* sscanf(text, "S2R \001\001, SR_CTAID.%1[XYZ]", sr) == 1 */
static int
ctaid(const char *text, char *sr)
{
	const char *e;
	int r = peep_scan_pre(text, "S2R \001\001, SR_CTAID.", &e);

	if (r > 0 && (r = *e && strchr("XYZ", *e)))
		sr[0] = *e, sr[1] = 0;
	return r >= 0 ? r : sscanf(text, "S2R \001\001, SR_CTAID.%1[XYZ]", sr) == 1;
}

/* Is m a load of a uniform value into a general vreg (sm_90)?  Fills c. */
static int
uniform_def(const MFunc *f, const MIns *m, Cand *c)
{
	u32 x;
	char sr[24];
	const MVreg *v;

	if (m->guard >= 0 || m->nr != 1 || !(m->rf[0] & MF_DEF) || (m->text[0] != 'L' && m->text[0] != 'S'))
		return 0;
	v = &f->vr.v[m->r[0].v];
	memset(c, 0, sizeof *c);
	c->v = m->r[0].v;
	if (v->w == 1 && m->r[0].sub == 0 &&
	    scan_x1(m->text, "LDC \001\001, c[0x0][0x", "LDC \001\001, c[0x0][0x%x]", &x))
		strcpy(peep_hex(peep_cat(c->load, "ULDC \001\001, c[0x0][0x"), x), "]");
	else if (v->w == 2 && scan_x1(m->text, "LDC.64 \001\001, c[0x0][0x", "LDC.64 \001\001, c[0x0][0x%x]", &x))
		strcpy(peep_hex(peep_cat(c->load, "ULDC.64 \001\001, c[0x0][0x"), x), "]");
	else if (v->w == 1 && ctaid(m->text, sr))
		peep_cat(peep_cat(c->load, "S2UR \001\001, SR_CTAID."), sr);
	else
		return 0;
	return 1;
}

/* Reader m's refs of candidate c (whole, read only, where the ISA has
 * the UR form) to read c->ur; the others count as left. */
static void
rewrite_refs(MFunc *f, const Arch *a, MIns *m, Cand *c, Buf *tb)
{
	int k, wide = f->vr.v[c->v].w;

	for (k = 0; k < m->nr; k++) {
		MRef r = m->r[k];
		int whole = r.sub == 0 && (r.w == 0 || r.w == wide);
		if (r.v != c->v || !(m->rf[k] & MF_USE))
			continue;
		if ((m->rf[k] & MF_DEF) || !whole || m->copy) {
			c->left++;
			continue;
		}
		if (can_encode(a, f, m, k, "UR6", tb)) {
			m->r[k] = mref(c->ur);
			c->uses_done++;
		} else {
			c->left++;
		}
	}
	if (m->guard == c->v)
		c->left++;
}

/* Every reader of the candidates, each reader's candidates in their
 * order (a reader's trial shows the URs of those before: the same as
 * rewriting all readers of one candidate after another). */
static void
rewrite_all(MFunc *f, const Arch *a, Cand *cs, int nc, const int *cand_of)
{
	size_t b, i;
	int k, q, lo, next;
	Buf tb = {0};   /* the trial texts, one at a time */

	for (b = 0; b < f->b.n; b++)
		for (i = 0; i < f->b.v[b].ins.n; i++) {
			MIns *m = &f->b.v[b].ins.v[i];
			if (m->target >= 0)
				continue;
			/* its candidates, lowest first */
			for (lo = -1;; lo = next) {
				next = nc;
				for (k = 0; k < m->nr; k++)
					if ((q = cand_of[m->r[k].v]) > lo && q < next)
						next = q;
				if (m->guard >= 0 && (q = cand_of[m->guard]) > lo && q < next)
					next = q;
				if (next == nc)
					break;
				rewrite_refs(f, a, m, &cs[next], &tb);
			}
		}
	buf_free(&tb);
}

/* Delete the (single, unguarded) definition of v. */
static void
delete_def(MFunc *f, int v)
{
	size_t b, i, j;
	for (b = 0; b < f->b.n; b++) {
		MBlock *B = &f->b.v[b];
		for (i = j = 0; i < B->ins.n; i++) {
			MIns *m = &B->ins.v[i];
			if (m->nr == 1 && (m->rf[0] & MF_DEF) && m->r[0].v == v && m->guard < 0)
				continue;
			if (j != i)   /* no copy before the first deletion */
				B->ins.v[j] = *m;
			j++;
		}
		B->ins.n = j;
	}
}

/* Insert "load" defining ur at the start of the entry block (after the
 * two prologue instructions); returns where it went. */
static size_t
insert_load(MFunc *f, const char *load, int ur)
{
	MBlock *B = &f->b.v[0];
	MIns m = {0};
	size_t at = B->ins.n < 2 ? B->ins.n : 2;

	m.text = arena_strdup(f->a, load);
	m.r[0] = mref(ur);
	m.rf[0] = MF_DEF;
	m.nr = 1;
	m.guard = -1;
	m.target = -1;
	mir_insert(B, at, m);
	return at;
}

/* A call that clobbers the uniform registers: a CALL ending its block
 * (not a shared slow path, whose body is in this CFG; see ra.c
 * cross_calls).  A uniform value loaded once at the entry cannot live
 * across one, so functions with calls keep their general registers. */
static int
has_calls(const MFunc *f)
{
	size_t b;

	for (b = 0; b < f->b.n; b++) {
		const MBlock *B = &f->b.v[b];
		if (B->ins.n && B->succ[1] < 0 && mir_op_is(B->ins.v[B->ins.n - 1].text, "CALL"))
			return 1;
	}
	return 0;
}

int
peep_uniform(MFunc *f, const Arch *a, int sm)
{
	size_t b, i, nv;
	FoldMemo *memo = peep_fold_memo(f);
	int *cand_of, *defs, nc = 0, q, k, n = peep_fold(f, a, sm, memo);
	u8 *seen, *named = arena_alloc(f->a, f->vr.n + 1);
	Cand *cs = NULL;

	/* constants the combined ones left unread, or may now fold */
	if (peep_combine(f, a, named) && !peep_fold_settled(f, a, memo, named))
		n += peep_fold(f, a, sm, memo);

	if (sm < 90 || has_calls(f))
		return n;
	/* the candidates, in order: single definitions of uniform values
	   (the first definition of each uniform value, then those with one
	   definition, counted in the same walk) */
	nv = f->vr.n;
	defs = xcalloc(nv + 1, sizeof *defs);
	seen = xcalloc(nv + 1, 1);
	for (b = 0; b < f->b.n; b++)
		for (i = 0; i < f->b.v[b].ins.n; i++) {
			const MIns *m = &f->b.v[b].ins.v[i];
			Cand c;
			for (k = 0; k < m->nr; k++)
				defs[m->r[k].v] += (m->rf[k] & MF_DEF) != 0;
			if (!uniform_def(f, m, &c) || seen[c.v])
				continue;
			seen[c.v] = 1;
			cs = xrealloc(cs, (size_t)(nc + 1) * sizeof *cs);
			cs[nc++] = c;
		}
	for (q = k = 0; q < nc; q++)
		if (defs[cs[q].v] == 1) {
			cs[k] = cs[q];
			cs[k++].ur = mvreg(f, RC_UR, f->vr.v[cs[q].v].w);
		}
	nc = k;
	free(defs);
	free(seen);
	cand_of = xmalloc((f->vr.n + 1) * sizeof *cand_of);
	for (i = 0; i <= f->vr.n; i++)
		cand_of[i] = nc;
	for (q = 0; q < nc; q++)
		cand_of[cs[q].v] = q;
	rewrite_all(f, a, cs, nc, cand_of);
	free(cand_of);
	/* the loads, each after its definition went (when nothing needs it) */
	for (q = 0; q < nc; q++) {
		if (!cs[q].uses_done)
			continue;
		n += cs[q].uses_done;
		if (!cs[q].left)
			delete_def(f, cs[q].v);
		insert_load(f, cs[q].load, cs[q].ur);
	}
	free(cs);
	return n;
}
