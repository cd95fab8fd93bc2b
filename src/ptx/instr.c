/* instr.c -- parsing one PTX instruction: guard, opcode (longest dotted
 * prefix in ops.def), modifiers decoded into PtxInstr fields, operands
 * (registers, special registers, immediates, symbols, addresses,
 * vectors), and the fixed operand layout of call. */
#include <string.h>

#include "ptx/ptxint.h"

enum { MAXMODS = 32, OPD_BATCH = 32 };

static void parse_operand(P *p, PtxOperand *o, int depth);

static void
opd_init(P *p, PtxOperand *o)
{
	memset(o, 0, sizeof *o);
	o->reg = o->reg2 = -1;
	o->comp = -1;
	o->pos = p->t.pos;
}

/* a brace or paren list: {a, b} or (a, b) */
static void
parse_list(P *p, PtxOperand *o, char close, int depth)
{
	PtxOperand tmp[128];   /* wgmma m64n256 f32: 128 accumulators */
	int n = 0;

	o->kind = PTX_OPD_VEC;
	next(p);
	if (!is_punct(p, close)) {
		for (;;) {
			if (n == (int)NELEM(tmp))
				perr(p, p->t.pos, "too many elements in a list");
			parse_operand(p, &tmp[n++], depth + 1);
			if (!is_punct(p, ','))
				break;
			next(p);
		}
	}
	expect_punct(p, close);
	o->nelems = n;
	o->elems = arena_alloc(p->a, (size_t)(n ? n : 1) * sizeof *tmp);
	memcpy(o->elems, tmp, (size_t)n * sizeof *tmp);
}

static i64
offset_expr(P *p)
{
	int neg = is_punct(p, '-');

	next(p);
	return neg ? (i64)(0 - (u64)const_expr(p)) : const_expr(p);
}

static void
parse_addr(P *p, PtxOperand *o, int depth)
{
	PtxOperand tmp[8];
	int n = 0;

	o->kind = PTX_OPD_ADDR;
	next(p);
	if (p->t.kind == TK_IDENT) {
		const char *s = p->lx.s + p->t.pos;
		int r = lookup_reg(p, s, p->t.len);

		if (r >= 0) {
			o->reg = r;
		} else if (*s == '%') {
			perr(p, p->t.pos, "undeclared register '%.*s'", (int)p->t.len, s);
		} else {
			o->sym = tok_str(p, &p->t);
			p->unresolved |= !resolve_sym(p, o, 0);
		}
		next(p);
		if (is_punct(p, '+') || is_punct(p, '-')) {
			o->imm = offset_expr(p);
			o->has_off = 1;
		}
	} else if (!is_punct(p, ']')) {
		o->imm = const_expr(p);
	} else {
		perr(p, p->t.pos, "empty address");
	}
	while (is_punct(p, ',')) {
		next(p);
		if (n == (int)NELEM(tmp))
			perr(p, p->t.pos, "too many address parts");
		parse_operand(p, &tmp[n++], depth + 1);
	}
	expect_punct(p, ']');
	if (n) {
		o->nelems = n;
		o->elems = arena_alloc(p->a, (size_t)n * sizeof *tmp);
		memcpy(o->elems, tmp, (size_t)n * sizeof *tmp);
	}
}

static void
parse_ident_opd(P *p, PtxOperand *o)
{
	const char *s = p->lx.s + p->t.pos;
	size_t n = p->t.len;
	int r;

	if (n == 1 && *s == '_') {
		o->kind = PTX_OPD_SINK;
		next(p);
		return;
	}
	if ((r = lookup_reg(p, s, n)) >= 0) {
		o->kind = PTX_OPD_REG;
		o->reg = r;
		next(p);
		if (is_punct(p, '|')) {
			next(p);
			if (p->t.kind != TK_IDENT ||
			    (o->reg2 = lookup_reg(p, p->lx.s + p->t.pos, p->t.len)) < 0)
				perr(p, p->t.pos, "expected a predicate register after '|'");
			next(p);
		}
		return;
	}
	if (*s == '%') {
		int sr = ptx_sreg_lookup(s, n);

		if (sr < 0)
			perr(p, p->t.pos, "undeclared register '%.*s'", (int)n, s);
		o->kind = PTX_OPD_SREG;
		o->sreg = (u8)sr;
		next(p);
		if (p->t.kind == TK_DOT && !p->t.space && ptx_sreg_ncomp(sr)) {
			const char *c = p->lx.s + p->t.pos;
			if (p->t.len != 2 || !strchr("xyzw", c[1]))
				perr(p, p->t.pos, "bad component '%.*s' of %s",
				     (int)p->t.len, c, ptx_sreg_name(sr));
			o->comp = (signed char)(c[1] == 'w' ? 3 : c[1] - 'x');
			next(p);
		}
		return;
	}
	if (n == 7 && !memcmp(s, "WARP_SZ", 7)) {
		/* the predefined run-time constant (the CUDA headers' __shfl_*
		 * with a width compute (WARP_SZ - width) << 8) */
		o->kind = PTX_OPD_IMM;
		o->imm = 32;
		next(p);
		return;
	}
	o->kind = PTX_OPD_SYM;
	o->sym = tok_str(p, &p->t);
	p->unresolved |= !resolve_sym(p, o, 0);
	next(p);
	if (is_punct(p, '+') || is_punct(p, '-')) {
		o->imm = offset_expr(p);
		o->has_off = 1;
	}
}

/* Does a register name start right after the current token ('!')? */
static int
name_follows(P *p)
{
	const char *s = p->lx.s;
	size_t i = p->lx.p, n = p->lx.n;
	int c = i < n ? (uchar)s[i] : 0, d = i + 1 < n ? (uchar)s[i + 1] : 0;

	if (c == '%' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
		return 1;
	return c == '_' && ((d >= 'a' && d <= 'z') || (d >= 'A' && d <= 'Z') ||
			    (d >= '0' && d <= '9') || d == '_' || d == '$');
}

static void
parse_operand(P *p, PtxOperand *o, int depth)
{
	opd_init(p, o);
	if (depth > 4)
		perr(p, p->t.pos, "operand nested too deeply");
	switch (p->t.kind) {
	case TK_IDENT:
		parse_ident_opd(p, o);
		return;
	case TK_FLOAT:
		o->kind = PTX_OPD_FIMM;
		o->fbits = p->t.ival;
		o->is_f64 = p->t.is_f64;
		next(p);
		return;
	case TK_INT:
		o->kind = PTX_OPD_IMM;
		o->imm = const_expr(p);
		return;
	case TK_PUNCT:
		break;
	default:
		perr(p, p->t.pos, "expected an operand");
	}
	switch (p->t.ch) {
	case '{':
		parse_list(p, o, '}', depth);
		return;
	case '[':
		parse_addr(p, o, depth);
		return;
	case '!':
		if (!name_follows(p)) {
			/* !5, !(1+2): a constant expression */
			o->kind = PTX_OPD_IMM;
			o->imm = const_expr(p);
			return;
		}
		next(p);
		if (p->t.kind != TK_IDENT)
			perr(p, p->t.pos, "expected a predicate after '!'");
		parse_ident_opd(p, o);
		if (o->kind != PTX_OPD_REG)
			perr(p, o->pos, "'!' applies only to predicate registers");
		o->neg = 1;
		return;
	case '-':
		if (p->lx.p < p->lx.n && p->lx.s[p->lx.p] == '0' && p->lx.p + 1 < p->lx.n &&
		    strchr("fFdD", p->lx.s[p->lx.p + 1])) {
			next(p);
			o->kind = PTX_OPD_FIMM;
			o->is_f64 = p->t.is_f64;
			o->fbits = p->t.ival ^ (p->t.is_f64 ? 1ull << 63 : 1ull << 31);
			next(p);
			return;
		}
		/* fallthrough */
	case '(':
	case '~':
	case '+':
		{
			Lex save = p->lx;
			Tok t = p->t;
			next(p);
			if (t.ch == '-' && p->t.kind == TK_FLOAT) {
				o->kind = PTX_OPD_FIMM;
				o->is_f64 = p->t.is_f64;
				o->fbits = p->t.ival ^ (p->t.is_f64 ? 1ull << 63 : 1ull << 31);
				next(p);
				return;
			}
			p->lx = save;
			p->t = t;
		}
		o->kind = PTX_OPD_IMM;
		o->imm = const_expr(p);
		return;
	default:
		perr(p, p->t.pos, "expected an operand, found '%c'", p->t.ch);
	}
}

/* call[.uni] (rets), target, (args), proto; -- any part optional but target */
static int
parse_call(P *p, PtxOperand *o)
{
	int n = 0;

	opd_init(p, &o[0]);
	o[0].kind = PTX_OPD_VEC;
	if (is_punct(p, '(')) {
		parse_list(p, &o[0], ')', 0);
		expect_punct(p, ',');
	}
	n = 1;
	if (p->t.kind != TK_IDENT)
		perr(p, p->t.pos, "expected a call target");
	parse_operand(p, &o[n++], 0);
	if (o[1].kind != PTX_OPD_SYM && o[1].kind != PTX_OPD_REG)
		perr(p, o[1].pos, "call target must be a function or a register");
	opd_init(p, &o[n]);
	o[n].kind = PTX_OPD_VEC;
	n++;
	if (is_punct(p, ',')) {
		next(p);
		if (is_punct(p, '(')) {
			parse_list(p, &o[2], ')', 0);
			if (is_punct(p, ',')) {
				next(p);
				parse_operand(p, &o[n++], 0);
			}
		} else {
			parse_operand(p, &o[n++], 0);
		}
	}
	if (o[1].kind == PTX_OPD_REG && n < 4)
		perr(p, o[1].pos, "indirect call needs a prototype or target list");
	return n;
}

static int
is_setcmp(int op)
{
	return op == PTX_OP_setp || op == PTX_OP_set || op == PTX_OP_slct ||
	       op == PTX_OP_vset || op == PTX_OP_vset2 || op == PTX_OP_vset4;
}

static void
apply_mod(P *p, PtxInstr *in, int m, const Tok *t)
{
	int v = ptx_mod_value(m);

	switch (ptx_mod_class(m)) {
	case MC_TYPE:
		if (in->ntypes == PTX_MAXTYPES)
			perr(p, t->pos, "too many type modifiers");
		in->types[in->ntypes++] = (u8)v;
		break;
	case MC_RND:
		if (in->rnd)
			perr(p, t->pos, "more than one rounding modifier");
		in->rnd = (u8)v;
		break;
	case MC_CMP:
		in->cmp = (u8)v;
		break;
	case MC_AOP:
		in->aop = (u8)v;
		break;
	case MC_MODE:
		if ((v == PTX_MODE_LO || v == PTX_MODE_HI) && is_setcmp(in->op))
			in->cmp = v == PTX_MODE_LO ? PTX_CMP_LO : PTX_CMP_HI;
		else
			in->mode = (u8)v;
		break;
	case MC_SEM:
		in->sem = (u8)v;
		break;
	case MC_SCOPE:
		in->scope = (u8)v;
		break;
	case MC_CACHE:
		in->cache = (u8)v;
		break;
	case MC_VEC:
		in->vec = (u8)v;
		break;
	case MC_SPACE:
		if (in->nspaces == 2)
			perr(p, t->pos, "too many state-space modifiers");
		in->space[in->nspaces++] = (u8)v;
		break;
	case MC_FLAG:
		in->flags |= (u32)v;
		if (v == PTX_F_UNI && in->op == PTX_OP_vote)
			in->mode = PTX_MODE_UNI;
		if (v == PTX_F_VOLATILE)
			in->sem = PTX_SEM_VOLATILE;
		break;
	default:
		break;
	}
}

static int
match_opcode(P *p, const Tok *op, const Tok *mods, int nmods, int *skip)
{
	char buf[96];
	size_t len = op->len;
	int k, best = -1, bestop = 0, cta = -1;
	size_t ends[MAXMODS + 1];

	*skip = -1;
	if (len >= sizeof buf)
		return 0;
	memcpy(buf, p->lx.s + op->pos, len);
	ends[0] = len;
	/* bar.cta.sync / barrier.cta.arrive: .cta is a modifier */
	if (nmods > 0 && mods[0].len == 4 && !memcmp(p->lx.s + mods[0].pos, ".cta", 4) &&
	    ((len == 3 && !memcmp(buf, "bar", 3)) || (len == 7 && !memcmp(buf, "barrier", 7))))
		cta = 0;
	for (k = 0; k < nmods && k < 4; k++) {
		if (k == cta) {
			ends[k + 1] = len;
			continue;
		}
		if (len + mods[k].len >= sizeof buf)
			break;
		memcpy(buf + len, p->lx.s + mods[k].pos, mods[k].len);
		len += mods[k].len;
		ends[k + 1] = len;
	}
	for (; k >= 0; k--) {
		int o = ptx_op_lookup(buf, ends[k]);
		if (o) {
			best = k;
			bestop = o;
			break;
		}
	}
	if (best < 0)
		return 0;
	if (cta == 0 && best >= 1)
		*skip = 0;
	else if (cta == 0)
		best = 0;
	return bestop | best << 16;
}

static void
add_fixups(P *p, PtxOperand *o, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		if ((o[i].kind == PTX_OPD_SYM || o[i].kind == PTX_OPD_ADDR) &&
		    o[i].sym && o[i].symkind == PTX_SYM_NONE)
			vec_push(&p->lfix, &o[i]);
		if (o[i].nelems)
			add_fixups(p, o[i].elems, o[i].nelems);
	}
}

/* opcode (longest known prefix) and modifiers into in */
static void
decode_opcode(P *p, PtxInstr *in, const Tok *op, const Tok *mods, int nmods)
{
	int used, skip, i, k, r;

	r = match_opcode(p, op, mods, nmods, &skip);
	if (!r)
		perr(p, op->pos, "unknown instruction '%.*s'", (int)MIN(op->len, 40),
		     p->lx.s + op->pos);
	in->op = (u16)(r & 0xffff);
	used = r >> 16;
	in->nmods = (u8)(nmods - used + (skip >= 0));
	in->mods = arena_alloc(p->a, (size_t)(in->nmods ? in->nmods : 1) * sizeof *in->mods);
	for (i = 0, k = 0; i < nmods; i++) {
		int m;
		if (i < used && i != skip)
			continue;
		m = ptx_mod_lookup(p->lx.s + mods[i].pos, mods[i].len);
		if (m < 0)
			perr(p, mods[i].pos, "unknown modifier '%.*s' for %s",
			     (int)MIN(mods[i].len, 40), p->lx.s + mods[i].pos,
			     ptx_op_name(in->op));
		in->mods[k++] = (u16)m;
		apply_mod(p, in, m, &mods[i]);
	}
}

void
parse_instr(P *p)
{
	PtxInstr in;
	Tok op, mods[MAXMODS];
	PtxOperand *opds;
	int nmods = 0, i, r, key_ok, used;
	size_t keylen;

	memset(&in, 0, sizeof in);
	in.guard = -1;
	in.vec = 1;
	in.pos = p->t.pos;
	p->unresolved = 0;
	if (is_punct(p, '@')) {
		next(p);
		if (is_punct(p, '!')) {
			in.guard_neg = 1;
			next(p);
		}
		if (p->t.kind != TK_IDENT ||
		    (in.guard = lookup_reg(p, p->lx.s + p->t.pos, p->t.len)) < 0)
			perr(p, p->t.pos, "expected a predicate register after '@'");
		next(p);
	}
	if (p->t.kind != TK_IDENT)
		perr(p, p->t.pos, "expected an instruction, found '%.*s'",
		     (int)MIN(p->t.len, 40), p->lx.s + p->t.pos);
	op = p->t;
	next(p);
	while (p->t.kind == TK_DOT) {
		if (nmods == MAXMODS)
			perr(p, p->t.pos, "too many modifiers");
		mods[nmods++] = p->t;
		next(p);
	}
	/* Most spellings repeat: decode each distinct one once. */
	key_ok = 1;
	for (i = 0; i < nmods; i++)
		if (mods[i].space)
			key_ok = 0;
	keylen = (nmods ? mods[nmods - 1].pos + mods[nmods - 1].len : op.pos + op.len) - op.pos;
	if (key_ok && (r = hm_get(&p->tmplmap, p->lx.s + op.pos, keylen)) >= 0) {
		const PtxInstr *t = &p->tmpl.v[r];
		int guard = in.guard, neg = in.guard_neg;
		u32 pos = in.pos;
		in = *t;
		in.loc_file = p->loc_file;
		in.loc_line = p->loc_line;
		in.guard = guard;
		in.guard_neg = (u8)neg;
		in.pos = pos;
	} else {
		decode_opcode(p, &in, &op, mods, nmods);
		in.loc_file = p->loc_file;
		in.loc_line = p->loc_line;
		if (key_ok) {
			hm_put(&p->tmplmap, p->lx.s + op.pos, keylen, (int)p->tmpl.n);
			vec_push(&p->tmpl, in);
		}
	}
	/* parsed in place, in a batch taken once per ~10 instructions (an
	 * arena call per instruction cost as much as a short one's parse) */
	if (p->opdroom < PTX_MAXOPDS) {
		p->opdroom = OPD_BATCH;
		p->opd = arena_alloc(p->a, OPD_BATCH * sizeof *opds);
	}
	opds = p->opd;
	if (in.op == PTX_OP_call) {
		in.nopds = parse_call(p, opds);
	} else if (!is_punct(p, ';')) {
		for (;;) {
			if (in.nopds == PTX_MAXOPDS)
				perr(p, p->t.pos, "too many operands");
			parse_operand(p, &opds[in.nopds++], 0);
			if (!is_punct(p, ','))
				break;
			next(p);
		}
	}
	if (!is_punct(p, ';'))
		perr(p, is_punct(p, ',') ? p->t.pos : p->prev_end,
		     "expected ';' after the operands of %s", ptx_op_name(in.op));
	next(p);
	in.opds = opds;
	used = in.nopds ? in.nopds : 1;
	p->opd += used;
	p->opdroom -= used;
	if (p->unresolved)
		add_fixups(p, in.opds, in.nopds);
	if (p->instrs.n == p->instrs.cap) {   /* past body_room's bound */
		size_t cap = p->instrs.cap ? 2 * p->instrs.cap : 8;
		PtxInstr *v = arena_alloc(p->a, cap * sizeof *v);
		if (p->instrs.n)
			memcpy(v, p->instrs.v, p->instrs.n * sizeof *v);
		p->instrs.v = v;
		p->instrs.cap = cap;
	}
	p->instrs.v[p->instrs.n++] = in;
}
