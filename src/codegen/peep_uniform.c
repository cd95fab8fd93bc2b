/* peep_uniform.c -- warp-uniform values as operands, the way ptxas uses
 * them.  Kernel parameters and launch dimensions live in constant bank 0
 * and %ctaid is the same for the whole warp; selection first loads each
 * into a general register (LDC/MOV/S2R).  This pass rewrites the readers
 * to take the value directly where the instruction has such a form:
 *
 *   sm_80:  MOV R5, c[0x0][0x178]; ISETP.GE.AND P0, PT, R6, R5, PT
 *        -> ISETP.GE.AND P0, PT, R6, c[0x0][0x178], PT
 *   sm_90:  LDC R5, c[0x0][0x228];  ISETP.GE.AND P0, PT, R6, R5, PT
 *        -> ULDC UR6, c[0x0][0x228]; ISETP.GE.AND P0, PT, R6, UR6, PT
 *           (S2R SR_CTAID.X -> S2UR; LDC.64 pairs -> ULDC.64)
 *
 * Whether a reader has the form is asked of the ISA tables: the reader is
 * rendered with placeholder registers and the candidate operand and
 * encoded (isa_parse).  The load goes when no reader needs it any more. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/peep.h"
#include "isa/isa.h"

typedef struct {
	int v;            /* the general vreg holding the uniform value */
	char lit[40];     /* sm_80: the c[0x0][..] text readers may take */
	char load[48];    /* sm_90: the uniform load (ULDC / ULDC.64 / S2UR ...) */
	int nparts;       /* MOV-from-cbank definitions seen (sm_80 pairs: 2) */
	int uses_done, uses_left;
} Cand;

/* Render m with placeholder registers, hole k replaced by text. */
static void
render_trial(const MFunc *f, const MIns *m, int k, const char *text, Buf *out)
{
	const char *p;

	if (m->guard >= 0)
		buf_puts(out, m->guard_neg ? "@!P0 " : "@P0 ");
	for (p = m->text; *p; p++) {
		if (*p == 2) {
			buf_puts(out, "0x0");
		} else if (*p != 1) {
			buf_putc(out, *p);
		} else {
			int j = *++p - 1;
			const MVreg *v = &f->vr.v[m->r[j].v];
			if (j == k)
				buf_puts(out, text);
			else if (m->r[j].v == f->rz)
				buf_puts(out, "RZ");
			else if (m->r[j].v == f->pt)
				buf_puts(out, "PT");
			else if (v->cls == RC_R)
				buf_printf(out, "R%d", 8 + 4 * j);
			else if (v->cls == RC_P)
				buf_printf(out, "P%d", j % 6);
			else if (v->cls == RC_UR)
				buf_printf(out, "UR%d", 8 + 2 * j);
			else
				buf_printf(out, "UP%d", j % 6);
		}
	}
}

static int
can_encode(const Arch *a, const MFunc *f, const MIns *m, int k, const char *text)
{
	Buf b = {0};
	Word w;
	char err[160];
	size_t pos;
	int ok;

	render_trial(f, m, k, text, &b);
	ok = isa_parse(a, b.s, 0, NULL, &w, err, sizeof err, &pos) == 0;
	buf_free(&b);
	return ok;
}

/* Remove hole k (and ref k) from m, putting text in its place. */
static void
inline_text(MFunc *f, MIns *m, int k, const char *text)
{
	Buf t = {0};
	const char *p;
	int j;

	for (p = m->text; *p; p++) {
		if (*p != 1) {
			buf_putc(&t, *p);
			continue;
		}
		j = *++p - 1;
		if (j == k) {
			buf_puts(&t, text);
		} else {
			buf_putc(&t, 1);
			buf_putc(&t, (char)(j > k ? j : j + 1));
		}
	}
	m->text = arena_strdup(f->a, t.s);
	buf_free(&t);
	for (j = k; j + 1 < m->nr; j++) {
		m->r[j] = m->r[j + 1];
		m->rf[j] = m->rf[j + 1];
	}
	m->nr--;
}

/* Is m a load of a uniform value into a general vreg?  Fills c. */
static int
uniform_def(const MFunc *f, const MIns *m, int sm, Cand *c)
{
	unsigned x;
	char sr[24];
	const MVreg *v;

	if (m->guard >= 0 || m->nr != 1 || !(m->rf[0] & MF_DEF))
		return 0;
	v = &f->vr.v[m->r[0].v];
	memset(c, 0, sizeof *c);
	c->v = m->r[0].v;
	if (sm >= 90) {
		if (v->w == 1 && m->r[0].sub == 0 && sscanf(m->text, "LDC \001\001, c[0x0][0x%x]", &x) == 1)
			snprintf(c->load, sizeof c->load, "ULDC \001\001, c[0x0][0x%x]", x);
		else if (v->w == 2 && sscanf(m->text, "LDC.64 \001\001, c[0x0][0x%x]", &x) == 1)
			snprintf(c->load, sizeof c->load, "ULDC.64 \001\001, c[0x0][0x%x]", x);
		else if (v->w == 1 && sscanf(m->text, "S2R \001\001, SR_CTAID.%1[XYZ]", sr) == 1)
			snprintf(c->load, sizeof c->load, "S2UR \001\001, SR_CTAID.%s", sr);
		else
			return 0;
		return 1;
	}
	if (sscanf(m->text, "MOV \001\001, c[0x0][0x%x]", &x) == 1 && (v->w == 1 || m->r[0].sub == 0)) {
		snprintf(c->lit, sizeof c->lit, "c[0x0][0x%x]", x);
		return 1;
	}
	return 0;
}

/* sm_80 pairs: both halves of a 2-wide vreg from consecutive words. */
static int
pair_ok(const MFunc *f, int v, unsigned x)
{
	size_t b, i;
	int lo = 0, hi = 0, other = 0;
	unsigned y;

	for (b = 0; b < f->b.n; b++)
		for (i = 0; i < f->b.v[b].ins.n; i++) {
			const MIns *m = &f->b.v[b].ins.v[i];
			for (int k = 0; k < m->nr; k++)
				if ((m->rf[k] & MF_DEF) && m->r[k].v == v) {
					if (m->nr == 1 && m->guard < 0 && sscanf(m->text, "MOV \001\001, c[0x0][0x%x]", &y) == 1 &&
					    y == x + 4u * m->r[k].sub)
						m->r[k].sub ? hi++ : lo++;
					else
						other++;
				}
		}
	return lo == 1 && hi == 1 && !other;
}

static int
count_defs(const MFunc *f, int v)
{
	size_t b, i;
	int n = 0, k;
	for (b = 0; b < f->b.n; b++)
		for (i = 0; i < f->b.v[b].ins.n; i++)
			for (k = 0; k < f->b.v[b].ins.v[i].nr; k++)
				n += (f->b.v[b].ins.v[i].rf[k] & MF_DEF) && f->b.v[b].ins.v[i].r[k].v == v;
	return n;
}

/* Rewrite the readers of c->v; returns how many readers remain. */
static int
rewrite_readers(MFunc *f, const Arch *a, Cand *c, int ur)
{
	size_t b, i;
	int k, left = 0, wide = f->vr.v[c->v].w;
	char urtext[8] = "UR6";

	if (wide == 2)
		snprintf(urtext, sizeof urtext, "UR6");
	for (b = 0; b < f->b.n; b++)
		for (i = 0; i < f->b.v[b].ins.n; i++) {
			MIns *m = &f->b.v[b].ins.v[i];
			if (m->target >= 0)
				continue;
			for (k = 0; k < m->nr; k++) {
				MRef r = m->r[k];
				int whole = r.sub == 0 && (r.w == 0 || r.w == wide);
				if (r.v != c->v || !(m->rf[k] & MF_USE))
					continue;
				if ((m->rf[k] & MF_DEF) || !whole || m->copy) {
					left++;
					continue;
				}
				if (ur >= 0 && can_encode(a, f, m, k, urtext)) {
					m->r[k] = mref(ur);
					c->uses_done++;
				} else if (ur < 0 && c->lit[0] && can_encode(a, f, m, k, c->lit)) {
					inline_text(f, m, k, c->lit);
					c->uses_done++;
					k--;
				} else {
					left++;
				}
			}
			if (m->guard == c->v)
				left++;
		}
	return left;
}

static void
delete_defs(MFunc *f, int v)
{
	size_t b, i, j;
	for (b = 0; b < f->b.n; b++) {
		MBlock *B = &f->b.v[b];
		for (i = j = 0; i < B->ins.n; i++) {
			MIns *m = &B->ins.v[i];
			if (m->nr == 1 && (m->rf[0] & MF_DEF) && m->r[0].v == v && m->guard < 0)
				continue;
			B->ins.v[j++] = *m;
		}
		B->ins.n = j;
	}
}

/* Insert "load" defining ur at the start of the entry block (after the
 * two prologue instructions). */
static void
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
	vec_push(&B->ins, m);
	memmove(&B->ins.v[at + 1], &B->ins.v[at], (B->ins.n - 1 - at) * sizeof m);
	B->ins.v[at] = m;
}

int
peep_uniform(MFunc *f, const Arch *a, int sm)
{
	size_t b, i, nv = f->vr.n;
	u8 *seen = xcalloc(nv + 1, 1);
	int n = 0;

	for (b = 0; b < f->b.n; b++)
		for (i = 0; i < f->b.v[b].ins.n; i++) {
			Cand c;
			int ur = -1, left;
			unsigned x;
			if (!uniform_def(f, &f->b.v[b].ins.v[i], sm, &c) || seen[c.v])
				continue;
			seen[c.v] = 1;
			if (sm < 90) {
				if (f->vr.v[c.v].w == 2 &&
				    (sscanf(c.lit, "c[0x0][0x%x]", &x) != 1 || !pair_ok(f, c.v, x)))
					continue;
				if (f->vr.v[c.v].w == 1 && count_defs(f, c.v) != 1)
					continue;
			} else {
				if (count_defs(f, c.v) != 1)
					continue;
				ur = mvreg(f, RC_UR, f->vr.v[c.v].w);
			}
			left = rewrite_readers(f, a, &c, ur);
			if (!c.uses_done)
				continue;
			n += c.uses_done;
			if (ur >= 0)
				insert_load(f, c.load, ur);
			if (!left)
				delete_defs(f, c.v);
			if (ur >= 0 && b == 0 && i >= 2)
				i++;  /* the load went in before this instruction */
		}
	free(seen);
	return n;
}
