/* mir.c -- building and rendering machine IR (see mir.h). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "codegen/mir.h"

int
mvreg(MFunc *f, int cls, int w)
{
	MVreg v = { (u8)cls, (u8)w, 0, 0, -1 };
	vec_push(&f->vr, v);
	return (int)f->vr.n - 1;
}

void
mfunc_init(MFunc *f, Arena *a)
{
	memset(f, 0, sizeof *f);
	f->a = a;
	f->guard = -1;
	f->rz = mvreg(f, RC_R, 1);
	f->vr.v[f->rz].fixed = 1;
	f->vr.v[f->rz].phys = 255;
	f->pt = mvreg(f, RC_P, 1);
	f->vr.v[f->pt].fixed = 1;
	f->vr.v[f->pt].phys = 7;
}

/* mi's text is built in mi_text (reused: no allocation per instruction),
 * a byte at a time: the literal runs and %s strings are a few bytes (many
 * %s are empty), where a strlen and a memcpy call per piece cost more than
 * the bytes.  Up to *e, MI_SLACK bytes remain for one fixed-size piece
 * (a hole, a hex immediate); mi_room makes room and returns the new d. */
enum { MI_SLACK = 16 };
static _Thread_local Buf mi_text;

static char *
mi_room(char *d, char **e)
{
	Buf *t = &mi_text;

	t->n = t->s ? (size_t)(d - t->s) : 0;
	buf_grow(t, 2 * MI_SLACK);
	*e = t->s + t->cap - MI_SLACK - 1;
	return t->s + t->n;
}

/* "0x" and v in lowercase hex (mir.h) */
char *
mi_put_hex(char *d, u64 v)
{
	char h[16], *p = h + sizeof h;

	do
		*--p = "0123456789abcdef"[v & 15];
	while (v >>= 4);
	*d++ = '0';
	*d++ = 'x';
	while (p < h + sizeof h)
		*d++ = *p++;
	return d;
}

/* A new instruction at the end of the current block, under the current
 * guard: built in its slot (an MIns is 128 bytes, a copy costs). */
static MIns *
mi_slot(MFunc *f)
{
	MBlock *B = &f->b.v[f->cur];
	MIns *m;

	vec_push(&B->ins, (MIns){0});
	m = &B->ins.v[B->ins.n - 1];
	m->guard = f->guard;
	m->guard_neg = f->guard_neg;
	m->target = -1;
	return m;
}

MIns *
mi(MFunc *f, const char *fmt, ...)
{
	MIns *m = mi_slot(f);
	char *d = mi_text.s, *e = mi_text.cap > MI_SLACK ? d + mi_text.cap - MI_SLACK - 1 : d;
	va_list ap;
	MOpd o;   /* here, not in its case: s may point into o.txt after it */
	const char *p, *s;

	va_start(ap, fmt);
	for (p = fmt; *p; p++) {
		if (d >= e)
			d = mi_room(d, &e);
		if (*p != '%') {
			*d++ = *p;
			continue;
		}
		s = "";
		switch (*++p) {
		case 'D': case 'U': {
			MRef r = va_arg(ap, MRef);
			if (m->nr == MI_MAXREF)
				die("mi: too many registers in \"%s\"", fmt);
			if (r.v < 0 || (size_t)r.v >= f->vr.n)
				die("mi: bad vreg %d in \"%s\"", r.v, fmt);
			m->r[m->nr] = r;
			m->rf[m->nr] = *p == 'D' ? MF_DEF : MF_USE;
			*d++ = 1;
			*d++ = (char)++m->nr;
			break;
		}
		case 'O': {
			o = va_arg(ap, MOpd);
			if (o.txt[0]) {
				s = o.txt;
				break;
			}
			if (m->nr == MI_MAXREF || o.r.v < 0 || (size_t)o.r.v >= f->vr.n)
				die("mi: bad operand in \"%s\"", fmt);
			m->r[m->nr] = o.r;
			m->rf[m->nr] = MF_USE;
			*d++ = 1;
			*d++ = (char)++m->nr;
			break;
		}
		case 's':
			s = va_arg(ap, const char *);
			break;
		case 'x': {
			i32 x = va_arg(ap, i32);
			if (x < 0)
				*d++ = '-';
			d = mi_put_hex(d, x < 0 ? (u32)-(i64)x : (u32)x);
			break;
		}
		case 'h':
			d = mi_put_hex(d, va_arg(ap, u32));
			break;
		case 'L':
			m->target = va_arg(ap, int);
			*d++ = 2;
			break;
		case '%':
			*d++ = '%';
			break;
		default:
			die("mi: bad format \"%s\"", fmt);
		}
		for (; *s; s++) {
			if (d >= e)
				d = mi_room(d, &e);
			*d++ = *s;
		}
	}
	va_end(ap);
	m->text = arena_strndup(f->a, d ? mi_text.s : "", d ? (size_t)(d - mi_text.s) : 0);
	return m;
}

MIns *
mi_holes(MFunc *f, const char *text, size_t n, const MRef *r, const u8 *rf, int nr)
{
	MIns *m;
	int k;

	if (nr > MI_MAXREF)
		die("mi: too many registers in \"%.*s\"", (int)n, text);
	m = mi_slot(f);
	for (k = 0; k < nr; k++) {
		if (r[k].v < 0 || (size_t)r[k].v >= f->vr.n)
			die("mi: bad vreg %d in \"%.*s\"", r[k].v, (int)n, text);
		m->r[k] = r[k];
		m->rf[k] = rf[k];
	}
	m->nr = (u8)nr;
	m->text = arena_strndup(f->a, text, n);
	return m;
}

static const char *cls_prefix[] = { "R", "P", "UR", "UP" };

/* A physical register's name ("R12", "UP0") written straight into out:
 * the encoder renders every operand of every instruction, and a memcpy
 * call per name cost more than the name. */
static void
put_phys(int cls, int n, Buf *out)
{
	const char *c = cls_prefix[cls];
	unsigned u = n < 0 ? -(unsigned)n : (unsigned)n;
	char *d;

	if (out->n + 16 > out->cap)
		buf_grow(out, 15);
	d = out->s + out->n;
	*d++ = c[0];
	if (c[1])
		*d++ = c[1];
	if (n < 0)
		*d++ = '-';
	if (u >= 100) {
		if (u >= 1000) {   /* never a register; spelled all the same */
			char t[12], *p = t + sizeof t;
			do
				*--p = (char)('0' + u % 10);
			while (u /= 10);
			memcpy(d, p, (size_t)(t + sizeof t - p));
			d += t + sizeof t - p;
			goto done;
		}
		*d++ = (char)('0' + u / 100);
		u %= 100;
		*d++ = (char)('0' + u / 10);
	} else if (u >= 10)
		*d++ = (char)('0' + u / 10);
	*d++ = (char)('0' + u % 10);
done:
	*d = 0;
	out->n = (size_t)(d - out->s);
}

static void
put_reg(const MFunc *f, MRef r, int phys, Buf *out)
{
	const MVreg *v = &f->vr.v[r.v];
	if (r.v == f->rz)
		buf_putn(out, "RZ", 2);
	else if (r.v == f->pt)
		buf_putn(out, "PT", 2);
	else if (phys) {
		put_phys(v->cls, v->phys + r.sub, out);
	} else {
		buf_putc(out, '%');
		buf_puts(out, cls_prefix[v->cls]);
		buf_putd(out, r.v);
		buf_puts(out, r.sub ? (r.sub == 1 ? ".1" : r.sub == 2 ? ".2" : ".3") : "");
	}
}

/* Renders m; returns the number of register holes written.  A hole
 * naming no ref of m, or a branch target outside the function, aborts. */
static int
render(const MFunc *f, const MIns *m, const u64 *baddr, int phys, Buf *out)
{
	const char *p;
	int holes = 0;

	if (m->guard >= 0) {
		buf_puts(out, m->guard_neg ? "@!" : "@");
		put_reg(f, mref(m->guard), phys, out);
		buf_putc(out, ' ');
	}
	for (p = m->text; *p; p++) {
		if (*p == 1) {
			p++;
			if (*p < 1 || *p > m->nr)
				die("MIR invalid: `%s`: hole", m->text);
			put_reg(f, m->r[*p - 1], phys, out);
			holes++;
		} else if (*p == 2) {
			if (m->target < 0 || (size_t)m->target >= f->b.n)
				die("mir: branch target block %d out of range (%zu blocks) in `%s`", m->target, f->b.n,
				    m->text);
			buf_puts(out, baddr ? "0x" : "B");
			if (baddr)
				buf_putx(out, baddr[m->target]);
			else
				buf_putd(out, m->target);
		} else {
			const char *e = p;
			while ((uchar)e[1] > 2)
				e++;
			buf_putn(out, p, (size_t)(e - p + 1));
			p = e;
		}
	}
	return holes;
}

/* The checks of mir_verify for one instruction, less the text's holes
 * (render counts them): the encoder renders every instruction of the
 * allocated code once, so they run there, not in a walk of their own. */
static void
check_refs(const MFunc *f, const MIns *m)
{
	int k;

	for (k = 0; k < m->nr; k++) {
		const MRef r = m->r[k];
		if (r.v < 0 || (size_t)r.v >= f->vr.n || !m->rf[k] || r.sub + (r.w ? r.w : 1) > f->vr.v[r.v].w)
			die("MIR invalid at encode: `%s`: register %d", m->text, k);
	}
	if (m->guard >= 0 && ((size_t)m->guard >= f->vr.n || f->vr.v[m->guard].cls != RC_P))
		die("MIR invalid at encode: `%s`: guard", m->text);
}

void
mi_render(const MFunc *f, const MIns *m, const u64 *block_addr, Buf *out)
{
	check_refs(f, m);
	if (render(f, m, block_addr, 1, out) != m->nr)
		die("MIR invalid at encode: `%s`: holes and registers differ (%d registers)", m->text, m->nr);
}

void
mir_dump(const MFunc *f, Buf *out, int phys)
{
	size_t b, i;

	for (b = 0; b < f->b.n; b++) {
		const MBlock *B = &f->b.v[b];
		buf_printf(out, "B%zu:\n", b);
		for (i = 0; i < B->ins.n; i++) {
			buf_putc(out, '\t');
			render(f, &B->ins.v[i], NULL, phys, out);
			buf_putc(out, '\n');
		}
	}
}

void
mfunc_free(MFunc *f)
{
	size_t b;

	for (b = 0; b < f->b.n; b++)
		vec_free(&f->b.v[b].ins);
	vec_free(&f->b);
	vec_free(&f->vr);
}

void
mir_verify(const MFunc *f, const char *after)
{
	size_t b, i;
	int k, holes;
	const char *p;

	for (b = 0; b < f->b.n; b++)
		for (i = 0; i < f->b.v[b].ins.n; i++) {
			const MIns *m = &f->b.v[b].ins.v[i];
			for (k = 0; k < m->nr; k++) {
				const MRef r = m->r[k];
				if (r.v < 0 || (size_t)r.v >= f->vr.n || !m->rf[k] ||
				    r.sub + (r.w ? r.w : 1) > f->vr.v[r.v].w)
					die("MIR invalid %s: block %zu: `%s`: register %d", after, b, m->text, k);
			}
			if (m->guard >= 0 && ((size_t)m->guard >= f->vr.n || f->vr.v[m->guard].cls != RC_P))
				die("MIR invalid %s: block %zu: `%s`: guard", after, b, m->text);
			for (holes = 0, p = m->text; *p; p++) {
				if ((uchar)*p > 2)
					continue;
				if (*p == 1) {
					if (p[1] < 1 || p[1] > m->nr)
						die("MIR invalid %s: block %zu: `%s`: hole", after, b, m->text);
					holes++;
					p++;
				} else if (*p == 2 && (m->target < 0 || (size_t)m->target >= f->b.n))
					die("MIR invalid %s: block %zu: `%s`: branch target", after, b, m->text);
			}
			if (holes != m->nr)
				die("MIR invalid %s: block %zu: `%s`: %d holes, %d registers", after, b, m->text,
				    holes, m->nr);
		}
}

void
mir_insert(MBlock *B, size_t at, MIns m)
{
	vec_push(&B->ins, m);
	memmove(&B->ins.v[at + 1], &B->ins.v[at], (B->ins.n - 1 - at) * sizeof m);
	B->ins.v[at] = m;
}

void
mir_counts(const MFunc *f, MCounts *c)
{
	size_t b, i;
	int k;

	c->defs = xcalloc(f->vr.n + 1, sizeof(int));
	c->uses = xcalloc(f->vr.n + 1, sizeof(int));
	for (b = 0; b < f->b.n; b++)
		for (i = 0; i < f->b.v[b].ins.n; i++) {
			const MIns *m = &f->b.v[b].ins.v[i];
			for (k = 0; k < m->nr; k++) {
				if (m->rf[k] & MF_DEF)
					c->defs[m->r[k].v]++;
				if (m->rf[k] & MF_USE)
					c->uses[m->r[k].v]++;
			}
			if (m->guard >= 0)
				c->uses[m->guard]++;
		}
}

void
mir_counts_free(MCounts *c)
{
	free(c->defs);
	free(c->uses);
}
