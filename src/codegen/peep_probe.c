/* peep_probe.c -- asking the ISA tables about machine-IR instructions:
 * does a text encode, does it print back as itself, and an instruction
 * rendered with placeholder registers and one operand replaced (for
 * peep_fold.c, peep_combine.c, peep_uniform.c and isel's sel_can_encode). */
#include <string.h>

#include "codegen/peep.h"

int
peep_encodes(const Arch *a, const char *text)
{
	Word w;
	char err[160];
	size_t pos;

	return a && isa_parse(a, text, 0, NULL, &w, err, sizeof err, &pos) == 0;
}

int
peep_encodes_exact(const Arch *a, const char *text, Word *w)
{
	char err[160];
	size_t pos;
	Buf b = {0};
	int ok;

	if (!a || isa_parse(a, text, 0, NULL, w, err, sizeof err, &pos) != 0)
		return 0;
	ok = isa_print(a, *w, 0, NULL, &b) == 0 && b.s && !strcmp(b.s, text);
	buf_free(&b);
	return ok;
}

int
peep_hole(const MIns *m, int k)
{
	const char *p;
	for (p = m->text; *p; p++)
		if (*p == 1) {
			if (p[1] == k + 1)
				return (int)(p - m->text);
			p++;
		}
	return -1;
}

void
peep_trial(const MFunc *f, const MIns *m, int from, int to, const char *text, Buf *out)
{
	const char *p;
	int j;

	if (m->guard >= 0)
		buf_puts(out, m->guard_neg ? "@!P0 " : "@P0 ");
	for (p = m->text; *p; p++) {
		if (from >= 0 && p - m->text == from) {
			buf_puts(out, text);
			p = m->text + to - 1;
			continue;
		}
		if (*p == 2) {
			buf_puts(out, "0x0");
		} else if (*p != 1) {
			buf_putc(out, *p);
		} else {
			const MVreg *v;
			j = *++p - 1;
			v = &f->vr.v[m->r[j].v];
			if (m->r[j].v == f->rz)
				buf_puts(out, "RZ");
			else if (m->r[j].v == f->pt)
				buf_puts(out, "PT");
			else if (v->cls == RC_R)
				buf_printf(out, "R%d", 8 + 4 * j);
			else if (v->cls == RC_P)
				buf_printf(out, "P%d", j % 6);
			else if (v->cls == RC_UR)
				buf_printf(out, "UR%d", 8 + 4 * j);
			else
				buf_printf(out, "UP%d", j % 6);
		}
	}
}

/* Replace text [from, to) of m, which holds hole k, by lit; ref k goes. */
void
peep_inline(MFunc *f, MIns *m, int k, int from, int to, const char *lit)
{
	Buf t = {0};
	const char *p;
	int j;

	for (p = m->text; *p; p++) {
		if (p - m->text == from) {
			buf_puts(&t, lit);
			p = m->text + to - 1;
			continue;
		}
		if (*p != 1) {
			buf_putc(&t, *p);
			continue;
		}
		j = *++p - 1;
		ASSERT(j != k);
		buf_putc(&t, 1);
		buf_putc(&t, (char)(j > k ? j : j + 1));
	}
	m->text = arena_strdup(f->a, t.s ? t.s : "");
	buf_free(&t);
	for (j = k; j + 1 < m->nr; j++) {
		m->r[j] = m->r[j + 1];
		m->rf[j] = m->rf[j + 1];
	}
	m->nr--;
	m->copy = 0;
}

