/* dump.c -- the IR as text, for --dump-ir and for debugging passes:
 * blocks with their edges, one PTX-like instruction per line, registers
 * as %vN (the PTX register id). */
#include <inttypes.h>

#include "ir/ir.h"

static void
opd(const PtxOperand *o, Buf *out)
{
	int i;

	switch (o->kind) {
	case PTX_OPD_REG:
		buf_printf(out, "%s%%v%d", o->neg ? "!" : "", o->reg);
		if (o->reg2 >= 0)
			buf_printf(out, "|%%v%d", o->reg2);
		break;
	case PTX_OPD_SREG:
		buf_puts(out, ptx_sreg_name(o->sreg));
		if (o->comp >= 0)
			buf_printf(out, ".%c", "xyzw"[o->comp]);
		break;
	case PTX_OPD_IMM:
		buf_printf(out, "%" PRId64, o->imm);
		break;
	case PTX_OPD_FIMM:
		buf_printf(out, o->is_f64 ? "0d%016" PRIX64 : "0f%08" PRIX64, o->fbits);
		break;
	case PTX_OPD_SYM:
		buf_puts(out, o->sym ? o->sym : "?");
		if (o->imm)
			buf_printf(out, "+%" PRId64, o->imm);
		break;
	case PTX_OPD_ADDR:
		buf_putc(out, '[');
		if (o->reg >= 0)
			buf_printf(out, "%%v%d", o->reg);
		else if (o->sym)
			buf_puts(out, o->sym);
		if (o->imm)
			buf_printf(out, "%+" PRId64, o->imm);
		buf_putc(out, ']');
		break;
	case PTX_OPD_VEC:
		buf_putc(out, '{');
		for (i = 0; i < o->nelems; i++) {
			if (i)
				buf_puts(out, ", ");
			opd(&o->elems[i], out);
		}
		buf_putc(out, '}');
		break;
	case PTX_OPD_SINK:
		buf_putc(out, '_');
		break;
	}
}

static void
mods(const PtxInstr *in, Buf *out)
{
	static const char *cmp[] = { "", ".eq", ".ne", ".lt", ".le", ".gt", ".ge", ".lo", ".ls", ".hi",
				     ".hs", ".equ", ".neu", ".ltu", ".leu", ".gtu", ".geu", ".num", ".nan" };
	static const char *mode[] = { [PTX_MODE_LO] = ".lo", [PTX_MODE_HI] = ".hi", [PTX_MODE_WIDE] = ".wide" };
	int k;

	if (in->mode < sizeof mode / sizeof *mode && mode[in->mode])
		buf_puts(out, mode[in->mode]);
	if (in->cmp < sizeof cmp / sizeof *cmp)
		buf_puts(out, cmp[in->cmp]);
	for (k = 0; k < in->ntypes; k++)
		buf_printf(out, ".%s", ptx_type_name((PtxType)in->types[k]));
}

void
ir_dump(const IrFunc *f, Buf *out)
{
	size_t b, i;
	int k;

	buf_printf(out, "// IR of %s: %zu blocks, %d registers\n", f->f->name, f->b.n, f->nregs);
	for (b = 0; b < f->b.n; b++) {
		const IrBlock *B = &f->b.v[b];
		buf_printf(out, "B%zu:", b);
		if (B->pred.n) {
			buf_puts(out, "\t// preds");
			for (i = 0; i < B->pred.n; i++)
				buf_printf(out, " B%d", B->pred.v[i]);
		}
		buf_putc(out, '\n');
		for (i = 0; i < B->ins.n; i++) {
			const IrIns *x = &B->ins.v[i];
			if (x->dead)
				continue;
			buf_putc(out, '\t');
			if (x->p.guard >= 0)
				buf_printf(out, "@%s%%v%d ", x->p.guard_neg ? "!" : "", x->p.guard);
			buf_puts(out, ptx_op_name(x->p.op));
			for (k = 0; k < x->p.nmods; k++)
				buf_puts(out, ptx_mod_name(x->p.mods[k]));
			if (!x->p.nmods)   /* rewritten by a pass: the decoded fields */
				mods(&x->p, out);
			if (x->target >= 0) {
				buf_printf(out, " B%d\n", x->target);
				continue;
			}
			for (k = 0; k < x->p.nopds; k++) {
				buf_puts(out, k ? ", " : " ");
				opd(&x->p.opds[k], out);
			}
			buf_puts(out, ";\n");
		}
		for (k = 0; k < 2; k++)
			if (B->succ[k] >= 0)
				buf_printf(out, "\t// -> B%d\n", B->succ[k]);
	}
}
