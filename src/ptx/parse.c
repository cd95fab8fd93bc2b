/* parse.c -- the PTX parser: module directives, variable declarations
 * with initializers, functions and their bodies (registers, scopes,
 * labels, prototypes).  Instructions are parsed by instr.c. */
#include <stdlib.h>
#include <string.h>

#include "ptx/ptxint.h"

/* ---- tokens ---- */

void
perr(P *p, size_t pos, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdiag_at(&p->m->src, pos, fmt, ap);
	va_end(ap);
	longjmp(p->fail, 1);
}

static int
tok_is(P *p, int kind, const char *s)
{
	size_t n = strlen(s);

	return p->t.kind == kind && p->t.len == n && !memcmp(p->lx.s + p->t.pos, s, n);
}

int
is_dot(P *p, const char *s)
{
	return tok_is(p, TK_DOT, s);
}

int
is_ident(P *p, const char *s)
{
	return tok_is(p, TK_IDENT, s);
}

static const char *
describe(P *p)
{
	static char buf[64];

	switch (p->t.kind) {
	case TK_EOF: return "end of file";
	case TK_STRING: return "a string";
	default:
		snprintf(buf, sizeof buf, "'%.*s'", (int)MIN(p->t.len, 40),
			 p->lx.s + p->t.pos);
		return buf;
	}
}

void
expect_punct(P *p, char c)
{
	if (!is_punct(p, c))
		perr(p, p->t.pos, "expected '%c', found %s", c, describe(p));
	next(p);
}

const char *
tok_str(P *p, const Tok *t)
{
	const char *s = p->lx.s + t->pos;
	int i = hm_get(&p->strs, s, t->len);
	char *c;

	if (i >= 0)
		return p->strv.v[i];
	c = arena_strndup(p->a, s, t->len);
	hm_put(&p->strs, c, t->len, (int)p->strv.n);
	vec_push(&p->strv, c);
	return c;
}

static const char *
expect_name(P *p, const char *what)
{
	const char *s;

	if (p->t.kind != TK_IDENT)
		perr(p, p->t.pos, "expected %s, found %s", what, describe(p));
	s = tok_str(p, &p->t);
	next(p);
	return s;
}

static u64
expect_uint(P *p, const char *what)
{
	size_t pos = p->t.pos;
	i64 v = const_expr(p);

	if (v < 0)
		perr(p, pos, "%s must not be negative", what);
	return (u64)v;
}

/* ---- constant expressions: integers with + - * / % << >> & | ^ ~ ! ( ) ---- */

static i64 cexpr_bin(P *p, int prec);
static i64 cexpr_unary1(P *p);

static i64
cexpr_unary(P *p)
{
	size_t pos = p->t.pos;
	i64 v;

	if (++p->cdepth > 200)
		perr(p, pos, "unsupported: constant expression nested deeper than 200");
	v = cexpr_unary1(p);
	p->cdepth--;
	return v;
}

static i64
cexpr_unary1(P *p)
{
	size_t pos = p->t.pos;
	i64 v;

	if (is_punct(p, '-')) {
		next(p);
		return (i64)(0 - (u64)cexpr_unary(p));
	}
	if (is_punct(p, '+')) {
		next(p);
		return cexpr_unary(p);
	}
	if (is_punct(p, '~')) {
		next(p);
		return ~cexpr_unary(p);
	}
	if (is_punct(p, '!')) {
		next(p);
		return !cexpr_unary(p);
	}
	if (is_punct(p, '(')) {
		next(p);
		v = cexpr_bin(p, 0);
		expect_punct(p, ')');
		return v;
	}
	if (p->t.kind == TK_INT) {
		v = (i64)p->t.ival;
		next(p);
		return v;
	}
	perr(p, pos, "expected a constant, found %s", describe(p));
}

/* The binary operator at the current token (its first character) and
 * its precedence, or 0. */
static int
binop(P *p, int *prec)
{
	int c = p->t.ch;

	if (p->t.kind != TK_PUNCT)
		return 0;
	switch (c) {
	case '|': *prec = 1; return c;
	case '^': *prec = 2; return c;
	case '&': *prec = 3; return c;
	case '<': case '>':   /* << >> */
		if (p->lx.p >= p->lx.n || p->lx.s[p->lx.p] != c)
			return 0;
		*prec = 4;
		return c;
	case '+': case '-': *prec = 5; return c;
	case '*': case '/': *prec = 6; return c;
	}
	return 0;
}

static i64 cexpr_rest(P *p, i64 l, int minprec);

static i64
cexpr_bin(P *p, int minprec)
{
	return cexpr_rest(p, cexpr_unary(p), minprec);
}

/* The operators after the left operand l that bind tighter than minprec. */
static i64
cexpr_rest(P *p, i64 l, int minprec)
{
	i64 r;
	int op, prec;

	while ((op = binop(p, &prec)) && prec > minprec) {
		size_t pos = p->t.pos;

		next(p);
		if (op == '<' || op == '>')
			next(p);
		r = cexpr_bin(p, prec);
		switch (op) {
		case '|': l |= r; break;
		case '^': l ^= r; break;
		case '&': l &= r; break;
		case '<': l = (r < 0 || r > 63) ? 0 : (i64)((u64)l << r); break;
		case '>': l = (r < 0 || r > 63) ? 0 : l >> r; break;
		case '+': l = (i64)((u64)l + (u64)r); break;
		case '-': l = (i64)((u64)l - (u64)r); break;
		case '*': l = (i64)((u64)l * (u64)r); break;
		case '/':
			if (r == 0 || (r == -1 && l == INT64_MIN))
				perr(p, pos, "division by zero in constant");
			l /= r;
			break;
		}
	}
	return l;
}

i64
const_expr(P *p)
{
	i64 v;

	if (p->t.kind != TK_INT)
		return cexpr_bin(p, 0);
	v = (i64)p->t.ival;   /* most are one literal: no unary levels */
	next(p);
	return cexpr_rest(p, v, 0);
}

/* ---- scopes and symbols ---- */

/* A register name's bit in regfilt: a clear bit says the name is not in
 * regmap, without hashing it. */
static unsigned
reg_bit(const char *s, size_t n)
{
	return ((uchar)s[n > 1] * 7u + (uchar)s[n - 1] * 3u + (unsigned)n) & 255;
}

static void
scoped_put(P *p, HMap *m, const char *s, size_t n, int v)
{
	Undo u;

	u.map = m;
	u.k = s;
	u.n = (u32)n;
	u.old = hm_put(m, s, n, v);
	vec_push(&p->undo, u);
	if (m == &p->rangemap)
		p->rangegen++;
	if (m == &p->regmap)
		p->regfilt[reg_bit(s, n) >> 6] |= 1ull << (reg_bit(s, n) & 63);
}

static void
push_scope(P *p)
{
	vec_push(&p->scopes, p->undo.n);
	vec_push(&p->fixmark, p->lfix.n);
}

/* Labels are scoped like registers: resolve the references made in the
 * closing scope to the labels visible there; the rest wait for the
 * enclosing scope. */
static void
resolve_labels(P *p, size_t from)
{
	size_t i, k = from;

	for (i = from; i < p->lfix.n; i++) {
		PtxOperand *o = p->lfix.v[i];
		int l = hm_get(&p->labels, o->sym, strlen(o->sym));

		if (l >= 0) {
			o->symkind = PTX_SYM_LABEL;
			o->label = l;
			o->index = p->labelat.v[l];
		} else {
			p->lfix.v[k++] = o;
		}
	}
	p->lfix.n = k;
}

static void
pop_scope(P *p)
{
	size_t to = p->scopes.v[--p->scopes.n];

	resolve_labels(p, p->fixmark.v[--p->fixmark.n]);

	while (p->undo.n > to) {
		Undo *u = &p->undo.v[--p->undo.n];
		hm_put(u->map, u->k, u->n, u->old);
	}
	p->rangegen++;
}

static void
add_gsym(P *p, const char *name, size_t pos, Sym s)
{
	int i = hm_get(&p->gsyms, name, strlen(name));

	if (i >= 0)
		perr(p, pos, "'%s' is already declared", name);
	hm_put(&p->gsyms, name, strlen(name), (int)p->gsym.n);
	vec_push(&p->gsym, s);
}

static void
add_lsym(P *p, const char *name, size_t pos, Sym s)
{
	size_t n = strlen(name);
	int i = hm_get(&p->lsyms, name, n);

	/* a name may be redeclared only in an inner scope */
	if (i >= 0 && p->lsym.v[i].depth == (int)p->scopes.n)
		perr(p, pos, "'%s' is already declared", name);
	s.depth = (int)p->scopes.n;
	scoped_put(p, &p->lsyms, name, n, (int)p->lsym.n);
	vec_push(&p->lsym, s);
}

/* Resolve op->sym (a SYM or ADDR operand) in the current scopes. */
int
resolve_sym(P *p, PtxOperand *o, int labels_too)
{
	size_t n = strlen(o->sym);
	int i;

	if (p->f && (i = hm_get(&p->lsyms, o->sym, n)) >= 0) {
		Sym *s = &p->lsym.v[i];
		o->symkind = s->kind;
		o->var = s->var;
		o->index = s->index;
		return 1;
	}
	if (labels_too && p->f && (i = hm_get(&p->labels, o->sym, n)) >= 0) {
		o->symkind = PTX_SYM_LABEL;
		o->index = i;   /* label number; mapped to an instr index later */
		return 1;
	}
	if ((i = hm_get(&p->gsyms, o->sym, n)) >= 0) {
		Sym *s = &p->gsym.v[i];
		o->symkind = s->kind;
		o->var = s->var;
		o->index = s->index;
		return 1;
	}
	return 0;
}

/* ---- types and variable declarations ---- */

static int
dot_type(P *p)
{
	int m;

	if (p->t.kind != TK_DOT)
		return 0;
	m = ptx_mod_lookup(p->lx.s + p->t.pos, p->t.len);
	if (m > 0 && ptx_mod_class(m) == MC_TYPE)
		return ptx_mod_value(m);
	if (is_dot(p, ".texref"))
		return PTX_T_TEXREF;
	if (is_dot(p, ".samplerref"))
		return PTX_T_SAMPLERREF;
	if (is_dot(p, ".surfref"))
		return PTX_T_SURFREF;
	return 0;
}

static int
dot_space(P *p)
{
	static const struct { const char *s; u8 sp; } t[] = {
		{ ".global", PTX_S_GLOBAL }, { ".const", PTX_S_CONST },
		{ ".shared", PTX_S_SHARED }, { ".local", PTX_S_LOCAL },
		{ ".param", PTX_S_PARAM }, { ".tex", PTX_S_TEX },
		{ ".reg", PTX_S_REG }, { ".shared::cta", PTX_S_SHARED },
		{ ".shared::cluster", PTX_S_SHARED_CLUSTER },
	};
	size_t i;

	for (i = 0; i < NELEM(t); i++)
		if (is_dot(p, t[i].s))
			return t[i].sp;
	return 0;
}

static void
put_le(u8 *b, u64 v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		b[i] = (u8)(v >> (8 * i));
}

static u16
f32_to_f16(float f)
{
	u32 x;
	u32 sign, e, m;
	int ee;

	memcpy(&x, &f, 4);
	sign = (x >> 16) & 0x8000;
	e = (x >> 23) & 0xff;
	m = x & 0x7fffff;
	if (e == 0xff)
		return (u16)(sign | 0x7c00 | (m ? 0x200 : 0));
	ee = (int)e - 127 + 15;
	if (ee >= 31)
		return (u16)(sign | 0x7c00);
	if (ee <= 0) {
		if (ee < -10)
			return (u16)sign;
		m |= 0x800000;
		return (u16)(sign | ((m >> (14 - ee)) + ((m >> (13 - ee)) & 1)));
	}
	return (u16)(sign | ((((u32)ee << 10) | (m >> 13)) + ((m >> 12) & 1)));
}

/* double -> i64 without undefined behaviour: NaN is 0, out of range clamps */
static i64
dbl_to_i64(double d)
{
	if (d != d)
		return 0;
	if (d >= 9223372036854775807.0)
		return INT64_MAX;
	if (d <= -9223372036854775808.0)
		return INT64_MIN;
	return (i64)d;
}

typedef struct {
	PtxVar *v;
	u64 n;       /* elements written */
	u64 cap;     /* elements the variable holds (0 = unsized) */
	Buf *bytes;  /* p->ibytes */
} Init;

static void
init_reloc(P *p, Init *in, size_t pos, int esize, u64 mask)
{
	PtxReloc r = {0};
	Tok name;

	r.at = in->n * (u64)esize;
	r.size = (u8)esize;
	r.mask = mask;
	if (mask) {
		u64 m = mask;
		while (!(m & 0xff)) {
			m >>= 8;
			r.shift += 8;
		}
	}
	if (is_ident(p, "generic")) {
		next(p);
		expect_punct(p, '(');
		r.generic = 1;
		if (p->t.kind != TK_IDENT)
			perr(p, p->t.pos, "expected a symbol in generic()");
		name = p->t;
		next(p);
		expect_punct(p, ')');
	} else {
		name = p->t;
		next(p);
	}
	r.sym = tok_str(p, &name);
	if (is_punct(p, '+') || is_punct(p, '-')) {
		int neg = is_punct(p, '-');
		next(p);
		r.addend = const_expr(p);
		if (neg)
			r.addend = (i64)(0 - (u64)r.addend);
	}
	{
		PtxOperand o = {0};
		o.sym = r.sym;
		if (!resolve_sym(p, &o, 0))
			perr(p, name.pos, "undefined symbol '%s' in initializer", r.sym);
	}
	(void)pos;
	vec_push(&p->irel, r);
}

static void
init_elem(P *p, Init *in)
{
	PtxVar *v = in->v;
	int esize = ptx_type_size(v->type);
	u8 b[16] = {0};
	size_t pos = p->t.pos;

	if (in->cap && in->n >= in->cap)
		perr(p, pos, "too many initializers for '%s'", v->name);
	if (p->t.kind == TK_IDENT && !is_ident(p, "mask")) {
		init_reloc(p, in, pos, esize, 0);
	} else if (is_ident(p, "mask")) {
		u64 mask;
		next(p);
		expect_punct(p, '(');
		mask = expect_uint(p, "mask");
		expect_punct(p, ',');
		init_reloc(p, in, pos, esize, mask);
		expect_punct(p, ')');
	} else if (p->t.kind == TK_INT && p->lx.p < p->lx.n && p->lx.s[p->lx.p] == '(') {
		u64 mask = p->t.ival;
		next(p);
		expect_punct(p, '(');
		init_reloc(p, in, pos, esize, mask);
		expect_punct(p, ')');
	} else if (p->t.kind == TK_FLOAT || (is_punct(p, '-') && ptx_type_is_float(v->type))) {
		int neg = 0;
		double d;
		u64 bits = 0;

		if (is_punct(p, '-')) {
			neg = 1;
			next(p);
		}
		if (p->t.kind == TK_FLOAT) {
			bits = p->t.ival;
			if (!p->t.is_f64) {
				float f;
				u32 x = (u32)bits;
				memcpy(&f, &x, 4);
				d = f;
			} else {
				memcpy(&d, &bits, 8);
			}
			next(p);
		} else {
			d = (double)const_expr(p);
		}
		if (neg)
			d = -d;
		if (v->type == PTX_T_F64) {
			memcpy(&bits, &d, 8);
			put_le(b, bits, 8);
		} else if (v->type == PTX_T_F32) {
			float f = (float)d;
			u32 x;
			memcpy(&x, &f, 4);
			put_le(b, x, 4);
		} else if (v->type == PTX_T_F16) {
			put_le(b, f32_to_f16((float)d), 2);
		} else if (!ptx_type_is_float(v->type) && p->t.kind != TK_FLOAT) {
			put_le(b, (u64)dbl_to_i64(d), esize);
		} else {
			/* raw bits into integer-typed storage */
			u64 raw = p->t.is_f64 ? bits : (u32)bits;
			put_le(b, raw, esize);
		}
		buf_putn(in->bytes, b, esize);
		in->n++;
		return;
	} else {
		i64 x = const_expr(p);
		if (ptx_type_is_float(v->type)) {
			double d = (double)x;
			if (v->type == PTX_T_F64)
				memcpy(&x, &d, 8);
			else {
				float f = (float)d;
				u32 y;
				memcpy(&y, &f, 4);
				x = y;
			}
		}
		put_le(b, (u64)x, esize);
	}
	buf_putn(in->bytes, b, esize);
	in->n++;
}

static void
init_list(P *p, Init *in, int depth)
{
	if (depth > 8)
		perr(p, p->t.pos, "initializer nested too deeply");
	if (!is_punct(p, '{')) {
		init_elem(p, in);
		return;
	}
	next(p);
	if (is_punct(p, '}')) {
		next(p);
		return;
	}
	for (;;) {
		init_list(p, in, depth + 1);
		if (!is_punct(p, ','))
			break;
		next(p);
	}
	expect_punct(p, '}');
}

static void
parse_init(P *p, PtxVar *v)
{
	Init in = {0};
	u64 esize = (u64)ptx_type_size(v->type) * v->vec;
	int i;

	in.v = v;
	in.bytes = &p->ibytes;
	p->ibytes.n = 0;
	p->irel.n = 0;
	in.cap = esize ? v->size / (ptx_type_size(v->type) ? ptx_type_size(v->type) : 1) : 0;
	if (v->space != PTX_S_GLOBAL && v->space != PTX_S_CONST)
		perr(p, p->t.pos, "only .global and .const variables can be initialized");
	if (!ptx_type_size(v->type) || v->type == PTX_T_PRED)
		perr(p, v->pos, "variable of this type cannot be initialized");
	init_list(p, &in, 0);
	if (v->size == 0) {
		/* unsized [] array: the initializer decides */
		u64 inner = esize;
		for (i = 1; i < v->ndims; i++)
			inner *= v->dims[i];
		if (!inner)
			perr(p, v->pos, "cannot size '%s'", v->name);
		v->dims[0] = (in.n * ptx_type_size(v->type) + inner - 1) / inner;
		v->size = v->dims[0] * inner;
	}
	if (v->size > (64u << 20))
		perr(p, v->pos, "unsupported: initialized variable larger than 64 MiB");
	v->init = arena_alloc(p->a, v->size ? v->size : 1);
	if (p->ibytes.n)
		memcpy(v->init, p->ibytes.s, MIN(p->ibytes.n, v->size));
	if (p->irel.n) {
		v->relocs = arena_alloc(p->a, p->irel.n * sizeof *v->relocs);
		memcpy(v->relocs, p->irel.v, p->irel.n * sizeof *v->relocs);
		v->nrelocs = (int)p->irel.n;
	}
}

/* Attributes of a declaration up to the name: .align N, .vN, a type,
 * .ptr with a space and alignment (kernel parameters). */
static void
var_attrs(P *p, PtxVar *v)
{
	int t;

	for (;;) {
		if (is_dot(p, ".align")) {
			size_t pos = p->t.pos;
			u64 a;
			next(p);
			a = expect_uint(p, "alignment");
			if (!a || (a & (a - 1)) || a > (1u << 20))
				perr(p, pos, "alignment must be a power of two");
			v->align = (u32)a;
		} else if (is_dot(p, ".v2") || is_dot(p, ".v4") || is_dot(p, ".v8")) {
			v->vec = (u8)(p->lx.s[p->t.pos + 2] - '0');
			next(p);
		} else if (is_dot(p, ".ptr")) {
			v->ptr = 1;
			next(p);
		} else if (v->ptr && (t = dot_space(p)) && t != PTX_S_REG && t != PTX_S_PARAM) {
			v->ptr_space = (u8)t;
			next(p);
		} else if ((t = dot_type(p))) {
			if (v->type)
				perr(p, p->t.pos, "more than one type in a declaration");
			v->type = (u8)t;
			next(p);
		} else if (is_dot(p, ".attribute")) {
			/* .attribute(.managed) / .attribute(.unified(...)) */
			int depth = 0;
			next(p);
			do {
				if (is_punct(p, '('))
					depth++;
				else if (is_punct(p, ')'))
					depth--;
				else if (p->t.kind == TK_EOF)
					perr(p, p->t.pos, "unterminated .attribute");
				next(p);
			} while (depth > 0);
		} else {
			break;
		}
	}
}

/* Name, dimensions, size; the declaration attributes are already in v. */
static void
var_name_dims(P *p, PtxVar *v)
{
	u64 elem;
	int i;

	v->pos = p->t.pos;
	v->name = expect_name(p, "a variable name");
	if (!v->type)
		perr(p, v->pos, "declaration of '%s' has no type", v->name);
	while (is_punct(p, '[')) {
		size_t pos = p->t.pos;
		if (v->ndims == 4)
			perr(p, pos, "unsupported: more than 4 array dimensions");
		next(p);
		if (is_punct(p, ']')) {
			if (v->ndims)
				perr(p, pos, "only the first dimension may be unsized");
			v->dims[v->ndims++] = 0;
		} else {
			u64 d = expect_uint(p, "array size");
			if (d == 0 || d > (1ull << 40))
				perr(p, pos, "bad array size");
			v->dims[v->ndims++] = d;
		}
		expect_punct(p, ']');
	}
	if (!v->vec)
		v->vec = 1;
	elem = (u64)ptx_type_size(v->type) * v->vec;
	v->size = elem;
	for (i = 0; i < v->ndims; i++) {
		if (v->dims[i] && v->size > (1ull << 40) / v->dims[i])
			perr(p, v->pos, "unsupported: variable '%s' is larger than 1 TiB", v->name);
		v->size *= v->dims[i];
	}
	if (!v->align)
		v->align = (u32)(elem ? elem : 1);
}

static PtxVar *
new_var(P *p, int space, int linkage)
{
	PtxVar *v = arena_alloc(p->a, sizeof *v);

	v->space = (u8)space;
	v->linkage = (u8)linkage;
	return v;
}

/* ---- registers ---- */

/* The declaration of the range prefix s[0..k) (%r of .reg .b32 %r<20>),
 * or -1: through a small memo, as the hash lookup costs more. */
static int
range_decl(P *p, const char *s, size_t k)
{
	u64 key = 0;
	size_t j;
	int i;
	__typeof__(p->rmemo[0]) *m;

	if (k > 8)
		return hm_get(&p->rangemap, s, k);
	for (j = 0; j < k; j++)   /* names have no NUL: the key is unique */
		key = key << 8 | (uchar)s[j];
	m = &p->rmemo[(key * 0x9e3779b97f4a7c15ull) >> 61];
	if (m->key == key && m->gen == p->rangegen)
		return m->decl;
	i = hm_get(&p->rangemap, s, k);
	m->key = key;
	m->gen = p->rangegen;
	m->decl = i;
	return i;
}

int
lookup_reg(P *p, const char *s, size_t n)
{
	int i = -1;
	size_t k;
	u64 idx = 0, unit = 1;

	if (p->regmap.len) {
		unsigned bit = reg_bit(s, n);
		if (p->regfilt[bit >> 6] >> (bit & 63) & 1)
			i = hm_get(&p->regmap, s, n);
	}
	if (i >= 0)
		return i;
	if (!p->rangemap.len)
		return -1;
	/* the trailing digits and their value (meaningless past 9 digits,
	 * which are refused) */
	for (k = n; k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9'; k--, unit *= 10)
		idx += (u64)(s[k - 1] - '0') * unit;
	if (k == n || k == 0 || n - k > 9 || (s[k] == '0' && n - k > 1))
		return -1;
	i = range_decl(p, s, k);
	if (i < 0)
		return -1;
	if (idx >= (u64)p->decls.v[i].count)
		return -1;
	return p->decls.v[i].first + (int)idx;
}

static void
parse_reg_decl(P *p)
{
	PtxVar tmp = {0};
	size_t pos = p->t.pos;

	next(p); /* .reg */
	var_attrs(p, &tmp);
	if (!tmp.type)
		perr(p, p->t.pos, ".reg declaration needs a type");
	if (tmp.vec > 1)
		perr(p, pos, "unsupported: vector registers (.reg .v%d)", tmp.vec);
	for (;;) {
		PtxRegDecl d = {0};
		Tok nt = p->t;
		int j, count = 1;

		if (p->t.kind != TK_IDENT)
			perr(p, p->t.pos, "expected a register name, found %s", describe(p));
		next(p);
		if (is_punct(p, '<')) {
			size_t cpos;
			next(p);
			cpos = p->t.pos;
			u64 c = expect_uint(p, "register count");
			if (c > (1u << 22))
				perr(p, cpos, "unsupported: more than 4194304 registers in a function "
				     "or 16777216 in a module");
			count = (int)c;
			expect_punct(p, '>');
			d.range = 1;
		} else if (is_punct(p, '[')) {
			perr(p, p->t.pos, "register arrays are not allowed");
		}
		if (p->regs.n + (size_t)count > (1u << 22) ||
		    (size_t)p->m->nregs + p->regs.n + (size_t)count > (1u << 24))
			perr(p, nt.pos, "unsupported: more than 4194304 registers in a function "
			     "or 16777216 in a module");
		d.type = tmp.type;
		d.name = tok_str(p, &nt);
		d.first = (int)p->regs.n;
		d.count = count;
		if (d.range) {
			int o = hm_get(&p->rangemap, d.name, nt.len);
			if (o >= 0 && p->declscope.v[o] == (int)p->scopes.n)
				perr(p, nt.pos, "register range '%s' is already declared", d.name);
			scoped_put(p, &p->rangemap, d.name, nt.len, (int)p->decls.n);
		} else {
			int o = lookup_reg(p, d.name, nt.len);
			if (o >= 0 && p->declscope.v[p->regs.v[o].decl] == (int)p->scopes.n)
				perr(p, nt.pos, "register '%s' is already declared", d.name);
			scoped_put(p, &p->regmap, d.name, nt.len, d.first);
		}
		vec_push(&p->declscope, (int)p->scopes.n);
		if (p->regs.n + (size_t)count > p->regs.cap) {   /* the room vec_push would grow to, at once */
			size_t cap = p->regs.cap ? p->regs.cap : 8;
			while (cap < p->regs.n + (size_t)count)
				cap *= 2;
			p->regs.v = xrealloc(p->regs.v, cap * sizeof *p->regs.v);
			p->regs.cap = cap;
		}
		for (j = 0; j < count; j++) {
			PtxReg *r = &p->regs.v[p->regs.n++];
			r->type = tmp.type;
			r->decl = (int)p->decls.n;
		}
		vec_push(&p->decls, d);
		if (!is_punct(p, ','))
			break;
		next(p);
	}
	expect_punct(p, ';');
}

/* ---- function-scope declarations ---- */

static void
parse_local_var(P *p, int space)
{
	for (;;) {
		PtxVar *v = new_var(p, space, PTX_LINK_NONE);
		Sym s = {0};

		var_attrs(p, v);
		var_name_dims(p, v);
		if (is_punct(p, '='))
			perr(p, p->t.pos, "only .global and .const variables can be initialized");
		s.kind = PTX_SYM_VAR;
		s.var = v;
		add_lsym(p, v->name, v->pos, s);
		vec_push(&p->locals, v);
		if (!is_punct(p, ','))
			break;
		next(p);
	}
	expect_punct(p, ';');
}

/* (.param .b32 a, .param .align 8 .b8 b[16], ...) */
static void
parse_params(P *p, PtxVar **out, int *nout, int proto)
{
	p->pvec.n = 0;

	expect_punct(p, '(');
	while (!is_punct(p, ')')) {
		PtxVar x = {0};
		size_t pos = p->t.pos;

		if (is_dot(p, ".reg"))
			perr(p, pos, "unsupported: .reg parameters");
		if (!is_dot(p, ".param"))
			perr(p, pos, "expected .param, found %s", describe(p));
		next(p);
		x.space = PTX_S_PARAM;
		var_attrs(p, &x);
		if (proto && is_ident(p, "_")) {
			x.pos = p->t.pos;
			next(p);
			x.name = "_";
			x.vec = x.vec ? x.vec : 1;
			x.size = (u64)ptx_type_size(x.type) * x.vec;
			while (is_punct(p, '[')) {
				next(p);
				if (!is_punct(p, ']'))
					x.size *= expect_uint(p, "array size");
				expect_punct(p, ']');
			}
			if (!x.align)
				x.align = (u32)ptx_type_size(x.type);
		} else {
			var_name_dims(p, &x);
		}
		vec_push(&p->pvec, x);
		if (!is_punct(p, ','))
			break;
		next(p);
	}
	expect_punct(p, ')');
	*nout = (int)p->pvec.n;
	*out = arena_alloc(p->a, (p->pvec.n ? p->pvec.n : 1) * sizeof **out);
	if (p->pvec.n)
		memcpy(*out, p->pvec.v, p->pvec.n * sizeof **out);
}

/* NAME: .callprototype (.param .b32 _) _ (.param .b64 _); */
static void
parse_proto(P *p, const Tok *name)
{
	PtxProto pr = {0};
	Sym s = {0};

	pr.name = tok_str(p, name);
	pr.pos = name->pos;
	next(p); /* .callprototype */
	if (is_punct(p, '('))
		parse_params(p, &pr.rets, &pr.nrets, 1);
	if (!is_ident(p, "_"))
		perr(p, p->t.pos, "expected '_' in .callprototype, found %s", describe(p));
	next(p);
	if (is_punct(p, '('))
		parse_params(p, &pr.params, &pr.nparams, 1);
	if (is_dot(p, ".noreturn")) {
		pr.noreturn = 1;
		next(p);
	}
	expect_punct(p, ';');
	s.kind = PTX_SYM_PROTO;
	s.index = (int)p->protos.n;
	add_lsym(p, pr.name, pr.pos, s);
	vec_push(&p->protos, pr);
}

/* NAME: .branchtargets L1, L2, ...; */
static void
parse_btargets(P *p, const Tok *name)
{
	PtxBtargets bt = {0};
	Sym s = {0};
	int n = 0;

	bt.name = tok_str(p, name);
	bt.pos = name->pos;
	next(p);
	for (;;) {
		PtxOperand *o = arena_alloc(p->a, sizeof *o);
		if (p->t.kind != TK_IDENT)
			perr(p, p->t.pos, "expected a label, found %s", describe(p));
		o->kind = PTX_OPD_SYM;
		o->reg = o->reg2 = -1;
		o->comp = -1;
		o->pos = p->t.pos;
		o->sym = tok_str(p, &p->t);
		vec_push(&p->btnames, o);
		vec_push(&p->lfix, o);
		n++;
		next(p);
		if (!is_punct(p, ','))
			break;
		next(p);
	}
	expect_punct(p, ';');
	vec_push(&p->btcount, n);
	s.kind = PTX_SYM_BTARGETS;
	s.index = (int)p->btargets.n;
	add_lsym(p, bt.name, bt.pos, s);
	vec_push(&p->btargets, bt);
}

static void
parse_pragma(P *p, int keep)
{
	next(p);
	for (;;) {
		PtxPragma pr;
		if (p->t.kind != TK_STRING)
			perr(p, p->t.pos, "expected a string after .pragma");
		pr.pos = p->t.pos;
		pr.at = (int)p->instrs.n;
		pr.text = arena_strndup(p->a, p->lx.s + p->t.pos + 1, p->t.len - 2);
		if (keep)
			vec_push(&p->pragmas, pr);
		next(p);
		if (!is_punct(p, ','))
			break;
		next(p);
	}
	expect_punct(p, ';');
}

/* .loc FILE LINE COL [, function_name ..., inlined_at ...]: keep the file
 * and line for the instructions that follow; skip the rest. */
static void
skip_loc(P *p)
{
	next(p);
	if (p->t.kind == TK_INT) {
		p->loc_file = (int)MIN(p->t.ival, 1u << 30);
		next(p);
		if (p->t.kind == TK_INT)
			p->loc_line = (int)MIN(p->t.ival, 1u << 30);
	}
	lex_skip_line(&p->lx);
	next(p);
}

static void
parse_label(P *p, const Tok *name)
{
	const char *s = tok_str(p, name);
	int l = hm_get(&p->labels, s, name->len);

	if (l >= 0 && p->labeldepth.v[l] == (int)p->scopes.n)
		perr(p, name->pos, "label '%s' is already defined", s);
	scoped_put(p, &p->labels, s, name->len, (int)p->labelnames.n);
	vec_push(&p->labelnames, s);
	vec_push(&p->labelat, (int)p->instrs.n);
	vec_push(&p->labeldepth, (int)p->scopes.n);
}

static void
body_stmt(P *p)
{
	int sp;

	if (p->t.kind == TK_DOT) {
		if (is_dot(p, ".reg")) {
			parse_reg_decl(p);
		} else if (is_dot(p, ".loc")) {
			skip_loc(p);
		} else if (is_dot(p, ".pragma")) {
			parse_pragma(p, 1);
		} else if ((sp = dot_space(p)) && sp != PTX_S_TEX) {
			next(p);
			parse_local_var(p, sp);
		} else if (is_dot(p, ".section")) {
			perr(p, p->t.pos, "unexpected .section inside a function");
		} else {
			perr(p, p->t.pos, "unexpected directive %s in a function body", describe(p));
		}
		return;
	}
	if (is_punct(p, '{')) {
		next(p);
		push_scope(p);
		return;
	}
	/* NAME: -- a label, prototype or branch-target table.  An opcode
	 * with a modifier right after it (ld.global) cannot be one: no
	 * lookahead token for it. */
	if (p->t.kind == TK_IDENT && p->lx.p < p->lx.n && p->lx.s[p->lx.p] != '.') {
		Lex save = p->lx;
		Tok name = p->t;
		next(p);
		if (is_punct(p, ':')) {
			next(p);
			if (is_dot(p, ".callprototype"))
				parse_proto(p, &name);
			else if (is_dot(p, ".branchtargets"))
				parse_btargets(p, &name);
			else
				parse_label(p, &name);
			return;
		}
		p->lx = save;
		p->t = name;
	}
	parse_instr(p);
}

/* ---- functions ---- */

static void
reset_fn(P *p)
{
	hm_free(&p->regmap);
	memset(p->regfilt, 0, sizeof p->regfilt);
	hm_free(&p->rangemap);
	p->rangegen++;
	hm_free(&p->lsyms);
	hm_free(&p->labels);
	p->lsym.n = p->undo.n = p->scopes.n = p->instrs.n = p->regs.n = 0;
	p->decls.n = p->declscope.n = p->locals.n = p->labelnames.n = p->labelat.n = 0;
	p->protos.n = p->btargets.n = p->btnames.n = p->btcount.n = 0;
	p->lfix.n = p->pragmas.n = p->fixmark.n = p->labeldepth.n = 0;
	p->loc_file = p->loc_line = 0;
}

#define COPY(dst, ndst, vec)                                                   \
	do {                                                                   \
		(ndst) = (int)(vec).n;                                         \
		(dst) = arena_alloc(p->a, ((vec).n ? (vec).n : 1) * sizeof *(vec).v); \
		if ((vec).n)                                                   \
			memcpy((dst), (vec).v, (vec).n * sizeof *(vec).v);     \
	} while (0)

static void
resolve_fn(P *p, PtxFunc *f)
{
	size_t i;
	int j, k = 0;

	for (i = 0; i < p->lfix.n; i++) {
		PtxOperand *o = p->lfix.v[i];

		if (!resolve_sym(p, o, 0))
			vec_push(&p->gfix, o);
	}
	for (i = 0; i < p->btargets.n; i++) {
		PtxBtargets *bt = &p->btargets.v[i];
		bt->ntargets = p->btcount.v[i];
		bt->targets = arena_alloc(p->a, (size_t)bt->ntargets * sizeof(int));
		for (j = 0; j < bt->ntargets; j++, k++) {
			PtxOperand *o = p->btnames.v[k];
			if (o->symkind != PTX_SYM_LABEL)
				perr(p, o->pos, "undefined label '%s'", o->sym);
			bt->targets[j] = o->index;
		}
	}
	f->instrs = p->instrs.v;   /* the arena's (body_room) */
	f->ninstrs = (int)p->instrs.n;
	p->instrs.v = NULL;
	p->instrs.cap = 0;
	COPY(f->regs, f->nregs, p->regs);
	COPY(f->regdecls, f->nregdecls, p->decls);
	COPY(f->locals, f->nlocals, p->locals);
	COPY(f->labelnames, f->nlabels, p->labelnames);
	COPY(f->labelat, j, p->labelat);
	COPY(f->protos, f->nprotos, p->protos);
	COPY(f->btargets, f->nbtargets, p->btargets);
	COPY(f->pragmas, f->npragmas, p->pragmas);
	p->m->ninstrs += f->ninstrs;
	p->m->nregs += f->nregs;
}

/* The function's instruction array, in the arena, before its body is
 * parsed: every instruction ends in ';', so the ';' up to the body's end
 * bound their number -- the end taken as the first '}' that starts a line
 * (nvcc's closing brace), a hint only: parse_instr doubles the array when
 * the body holds more.  No growth and no copy of the array. */
static void
body_room(P *p)
{
	const char *s = p->lx.s, *at = s + p->t.pos, *end = s + p->lx.n, *q;
	size_t n = 1;

	for (q = at; (q = memchr(q, '}', (size_t)(end - q))) && q[-1] != '\n'; q++)
		;
	if (q)
		end = q;
	for (q = at; (q = memchr(q, ';', (size_t)(end - q))); q++)
		n++;
	p->instrs.v = arena_alloc(p->a, n * sizeof *p->instrs.v);
	p->instrs.cap = n;
}

static void
parse_body(P *p, PtxFunc *f)
{
	size_t i;
	int j;

	reset_fn(p);
	p->f = f;
	f->has_body = 1;
	push_scope(p);
	/* parameters are visible in the body */
	for (j = 0; j < f->nparams; j++) {
		Sym s = { PTX_SYM_VAR, j, &f->params[j], 0 };
		add_lsym(p, f->params[j].name, f->params[j].pos, s);
	}
	for (j = 0; j < f->nrets; j++) {
		Sym s = { PTX_SYM_VAR, j, &f->rets[j], 0 };
		add_lsym(p, f->rets[j].name, f->rets[j].pos, s);
	}
	body_room(p);
	next(p); /* { */
	push_scope(p);
	for (;;) {
		if (p->t.kind == TK_EOF)
			perr(p, p->t.pos, "unexpected end of file in the body of '%s'", f->name);
		if (is_punct(p, '}')) {
			next(p);
			pop_scope(p);
			if (p->scopes.n == 1)
				break;
			continue;
		}
		body_stmt(p);
	}
	pop_scope(p);
	resolve_fn(p, f);
	(void)i;
	p->f = NULL;
}

static void
perf_directives(P *p, PtxFunc *f)
{
	for (;;) {
		u32 *dst = NULL;
		int n = 0, i;

		if (is_dot(p, ".maxntid"))
			dst = f->maxntid, n = 3;
		else if (is_dot(p, ".reqntid"))
			dst = f->reqntid, n = 3;
		else if (is_dot(p, ".reqnctapercluster"))
			dst = f->reqnctapercluster, n = 3;
		else if (is_dot(p, ".maxnreg"))
			dst = &f->maxnreg, n = 1;
		else if (is_dot(p, ".minnctapersm"))
			dst = &f->minnctapersm, n = 1;
		else if (is_dot(p, ".maxnctapersm"))
			dst = &f->maxnctapersm, n = 1;
		else if (is_dot(p, ".explicitcluster")) {
			f->explicitcluster = 1;
			next(p);
			continue;
		} else if (is_dot(p, ".noreturn")) {
			f->noreturn = 1;
			next(p);
			continue;
		} else if (is_dot(p, ".pragma")) {
			parse_pragma(p, 0);
			continue;
		} else if (is_dot(p, ".maxclusterrank") || is_dot(p, ".blocksareclusters")) {
			perr(p, p->t.pos, "unsupported: %s", describe(p));
		} else
			break;
		next(p);
		for (i = 0; i < n; i++) {
			size_t pos = p->t.pos;
			u64 v = expect_uint(p, "directive value");
			if (v == 0 || v > 0xffffffffu)
				perr(p, pos, "bad directive value");
			dst[i] = (u32)v;
			if (!is_punct(p, ','))
				break;
			next(p);
		}
		for (i++; i < n; i++)
			dst[i] = 1;
	}
}

static void
parse_function(P *p, int linkage)
{
	PtxFunc *f = arena_alloc(p->a, sizeof *f), *old;
	Sym s = {0};
	int i;

	f->is_entry = is_dot(p, ".entry");
	f->linkage = (u8)linkage;
	f->pos = p->t.pos;
	next(p);
	if (!f->is_entry && is_punct(p, '('))
		parse_params(p, &f->rets, &f->nrets, 0);
	f->pos = p->t.pos;
	f->name = expect_name(p, "a function name");
	if (is_punct(p, '('))
		parse_params(p, &f->params, &f->nparams, 0);
	perf_directives(p, f);
	i = hm_get(&p->gsyms, f->name, strlen(f->name));
	old = NULL;
	if (i >= 0) {
		if (p->gsym.v[i].kind != PTX_SYM_FUNC)
			perr(p, f->pos, "'%s' is already declared as a variable", f->name);
		old = p->funcs.v[p->gsym.v[i].index];
		if (old->has_body && is_punct(p, '{'))
			perr(p, f->pos, "function '%s' is already defined", f->name);
		if (old->nparams != f->nparams || old->nrets != f->nrets ||
		    old->is_entry != f->is_entry)
			perr(p, f->pos, "'%s' redeclared differently", f->name);
		if (is_punct(p, '{')) {
			*old = *f;
			f = old;
		}
	} else {
		s.kind = PTX_SYM_FUNC;
		s.index = (int)p->funcs.n;
		add_gsym(p, f->name, f->pos, s);
		vec_push(&p->funcs, f);
	}
	if (is_punct(p, '{'))
		parse_body(p, f);
	else
		expect_punct(p, ';');
}

static void
parse_global_var(P *p, int linkage)
{
	PtxVar pre = {0};
	int space;
	size_t pos;

	if (is_dot(p, ".align")) {
		/* `.align 8 .global ...`: the alignment may come first */
		var_attrs(p, &pre);
		if (!dot_space(p))
			perr(p, p->t.pos, "expected a state space after .align");
	}
	space = dot_space(p);
	pos = p->t.pos;

	if (space == PTX_S_REG || space == PTX_S_PARAM)
		perr(p, pos, "%s variables are not allowed at module scope", describe(p));
	if (space == PTX_S_SHARED_CLUSTER)
		perr(p, pos, ".shared::cluster variables are not allowed (declare them .shared)");
	next(p);
	for (;;) {
		PtxVar *v = new_var(p, space, linkage);
		Sym s = {0};
		int i;

		v->align = pre.align;
		var_attrs(p, v);
		var_name_dims(p, v);
		if (v->size == 0 && linkage != PTX_LINK_EXTERN && !is_punct(p, '=') &&
		    !(space == PTX_S_SHARED))
			perr(p, v->pos, "unsized array '%s' needs an initializer or .extern", v->name);
		if (is_punct(p, '=')) {
			next(p);
			parse_init(p, v);
		}
		i = hm_get(&p->gsyms, v->name, strlen(v->name));
		if (i >= 0 && p->gsym.v[i].kind == PTX_SYM_VAR &&
		    p->gsym.v[i].var->linkage == PTX_LINK_EXTERN) {
			*p->gsym.v[i].var = *v; /* definition after .extern */
		} else {
			s.kind = PTX_SYM_VAR;
			s.var = v;
			add_gsym(p, v->name, v->pos, s);
			vec_push(&p->vars, v);
		}
		if (!is_punct(p, ','))
			break;
		next(p);
	}
	expect_punct(p, ';');
}

static void
parse_version(P *p)
{
	const char *s;
	size_t pos;
	int maj = 0, min = 0, i;

	next(p);
	pos = p->t.pos;
	if (p->t.kind != TK_FLOAT)
		perr(p, pos, "expected a version number like 8.7");
	s = p->lx.s + pos;
	for (i = 0; i < (int)p->t.len && s[i] >= '0' && s[i] <= '9'; i++)
		maj = MIN(maj, 1000) * 10 + (s[i] - '0');
	if (i < (int)p->t.len && s[i] == '.')
		for (i++; i < (int)p->t.len && s[i] >= '0' && s[i] <= '9'; i++)
			min = MIN(min, 1000) * 10 + (s[i] - '0');
	if (i != (int)p->t.len || maj > 99 || min > 99)
		perr(p, pos, "malformed version number");
	if (maj < 1 || (maj == 9 && min > 0) || maj > 9)
		perr(p, pos, "unsupported: PTX ISA version %d.%d (1.0 to 9.0 are known)", maj, min);
	p->m->version_major = maj;
	p->m->version_minor = min;
	next(p);
}

/* The first PTX version that knows a target (ptxas: "PTX .version 7.7 does
 * not support .target sm_90"). */
static void
check_target_version(P *p, size_t pos)
{
	static const struct { int sm, a, ver; } first[] = {
		{ 70, 0, 60 }, { 75, 0, 63 }, { 80, 0, 70 }, { 86, 0, 71 }, { 87, 0, 74 },
		{ 89, 0, 78 }, { 90, 0, 78 }, { 90, 1, 80 }, { 100, 0, 86 }, { 120, 0, 87 },
	};
	PtxModule *m = p->m;
	int ver = m->version_major * 10 + m->version_minor;
	size_t i;

	for (i = 0; i < NELEM(first); i++)
		if (first[i].sm == m->sm && first[i].a <= m->arch_a && ver < first[i].ver &&
		    (first[i].a == m->arch_a || !first[i].a))
			perr(p, pos, "PTX .version %d.%d does not support .target %s",
			     m->version_major, m->version_minor, m->target);
}

static void
parse_target(P *p)
{
	PtxModule *m = p->m;

	next(p);
	for (;;) {
		size_t pos = p->t.pos;
		const char *s = p->lx.s + pos;
		size_t n = p->t.len;

		if (p->t.kind != TK_IDENT)
			perr(p, pos, "expected a target name, found %s", describe(p));
		if (n > 3 && !memcmp(s, "sm_", 3)) {
			int sm = 0;
			size_t i;
			for (i = 3; i < n && s[i] >= '0' && s[i] <= '9'; i++)
				sm = MIN(sm, 10000) * 10 + (s[i] - '0');
			if (i == 3 || sm > 1000 || (i < n && !(i + 1 == n && (s[i] == 'a' || s[i] == 'f'))))
				perr(p, pos, "unknown target '%.*s'", (int)n, s);
			if (n >= sizeof m->target)
				perr(p, pos, "target name too long");
			memcpy(m->target, s, n);
			m->target[n] = 0;
			m->sm = sm;
			m->target_pos = pos;
			m->arch_a = i < n;
			check_target_version(p, pos);
		} else if (n == strlen("texmode_independent") && !memcmp(s, "texmode_independent", n)) {
			m->texmode_independent = 1;
		} else if (n == strlen("texmode_unified") && !memcmp(s, "texmode_unified", n)) {
		} else if (n == strlen("debug") && !memcmp(s, "debug", n)) {
			m->debug = 1;
		} else if (n == strlen("map_f64_to_f32") && !memcmp(s, "map_f64_to_f32", n)) {
		} else {
			perr(p, pos, "unknown target '%.*s'", (int)n, s);
		}
		next(p);
		if (!is_punct(p, ','))
			break;
		next(p);
	}
}

static void
parse_file(P *p)
{
	size_t pos;
	u64 n;

	next(p);
	pos = p->t.pos;
	n = expect_uint(p, "file number");
	if (n > (1u << 20))
		perr(p, pos, "unsupported: .file number above 1048576");
	if (p->t.kind != TK_STRING)
		perr(p, p->t.pos, "expected a file name string");
	if ((int)n >= p->m->nfiles) {
		const char **nf = arena_alloc(p->a, (n + 1) * sizeof *nf);
		if (p->m->nfiles)
			memcpy(nf, p->m->files, (size_t)p->m->nfiles * sizeof *nf);
		p->m->files = nf;
		p->m->nfiles = (int)n + 1;
	}
	p->m->files[n] = arena_strndup(p->a, p->lx.s + p->t.pos + 1, p->t.len - 2);
	lex_skip_line(&p->lx);
	next(p);
}

static void
skip_section(P *p)
{
	int depth = 0;
	PtxSection sec = {0};
	size_t start, end = 0;

	next(p);
	if (p->t.kind != TK_DOT)
		perr(p, p->t.pos, "expected a section name");
	sec.name = tok_str(p, &p->t);
	next(p);
	if (!is_punct(p, '{'))
		perr(p, p->t.pos, "expected '{' after the section name");
	start = p->t.pos + 1;
	do {
		if (p->t.kind == TK_EOF)
			perr(p, p->t.pos, "unterminated .section");
		if (is_punct(p, '{'))
			depth++;
		else if (is_punct(p, '}'))
			depth--;
		end = p->t.pos;
		next(p);
	} while (depth > 0);
	/* trim blank space at both ends, so that print and parse agree */
	while (start < end && strchr(" \t\r\n", p->lx.s[start]))
		start++;
	while (end > start && strchr(" \t\r\n", p->lx.s[end - 1]))
		end--;
	sec.body = arena_strndup(p->a, p->lx.s + start, end - start);
	vec_push(&p->sections, sec);
}

static void
module_stmt(P *p)
{
	int linkage = PTX_LINK_NONE;

	if (is_dot(p, ".version")) {
		parse_version(p);
		return;
	}
	if (is_dot(p, ".target")) {
		parse_target(p);
		return;
	}
	if (is_dot(p, ".address_size")) {
		size_t pos;
		next(p);
		pos = p->t.pos;
		p->m->address_size = (int)expect_uint(p, "address size");
		if (p->m->address_size != 64 && p->m->address_size != 32)
			perr(p, pos, "address size must be 32 or 64");
		if (p->m->address_size == 32)
			perr(p, pos, "unsupported: .address_size 32");
		return;
	}
	if (is_dot(p, ".file")) {
		parse_file(p);
		return;
	}
	if (is_dot(p, ".loc")) {
		skip_loc(p);
		return;
	}
	if (is_dot(p, ".section")) {
		skip_section(p);
		return;
	}
	if (is_dot(p, ".pragma")) {
		parse_pragma(p, 0);
		return;
	}
	if (is_dot(p, ".alias"))
		perr(p, p->t.pos, "unsupported: .alias");
	if (is_dot(p, ".visible"))
		linkage = PTX_LINK_VISIBLE;
	else if (is_dot(p, ".extern"))
		linkage = PTX_LINK_EXTERN;
	else if (is_dot(p, ".weak"))
		linkage = PTX_LINK_WEAK;
	else if (is_dot(p, ".common"))
		linkage = PTX_LINK_COMMON;
	if (linkage)
		next(p);
	if (is_dot(p, ".entry") || is_dot(p, ".func")) {
		parse_function(p, linkage);
		return;
	}
	if (dot_space(p) || is_dot(p, ".align")) {
		parse_global_var(p, linkage);
		return;
	}
	if (p->t.kind == TK_DOT)
		perr(p, p->t.pos, "unknown directive %s", describe(p));
	perr(p, p->t.pos, "expected a directive, found %s", describe(p));
}

static void
resolve_module(P *p)
{
	size_t i;

	for (i = 0; i < p->gfix.n; i++) {
		PtxOperand *o = p->gfix.v[i];
		if (!resolve_sym(p, o, 0))
			perr(p, o->pos, "undefined symbol '%s'", o->sym);
	}
}

static void
cleanup(P *p)
{
	/* p is freed next: the vectors need not be cleared */
	reset_fn(p);
	hm_free(&p->strs);
	hm_free(&p->gsyms);
	free(p->strv.v);
	free(p->gsym.v);
	free(p->vars.v);
	free(p->funcs.v);
	free(p->sections.v);
	free(p->gfix.v);
	free(p->lsym.v);
	free(p->undo.v);
	free(p->scopes.v);
	free(p->regs.v);
	free(p->decls.v);
	free(p->declscope.v);
	free(p->locals.v);
	free(p->labelnames.v);
	free(p->labelat.v);
	free(p->protos.v);
	free(p->btargets.v);
	free(p->btnames.v);
	free(p->btcount.v);
	free(p->lfix.v);
	free(p->fixmark.v);
	free(p->labeldepth.v);
	free(p->pragmas.v);
	buf_free(&p->ibytes);
	hm_free(&p->tmplmap);
	free(p->tmpl.v);
	free(p->irel.v);
	free(p->pvec.v);
}

PtxModule *
ptx_parse(const char *path, const char *text, size_t len)
{
	P *p = xcalloc(1, sizeof *p);
	PtxModule *m = xcalloc(1, sizeof *m);
	PtxModule *ret = NULL;

	m->src.path = path;
	m->src.text = text;
	m->src.len = len;
	m->address_size = 64;
	p->m = m;
	p->a = &m->arena;
	lex_init(&p->lx, text, len);
	p->lx.src = &m->src;
	p->lx.fail = &p->fail;
	if (setjmp(p->fail) == 0) {
		next(p);
		if (!is_dot(p, ".version"))
			perr(p, p->t.pos, "a PTX module must start with .version");
		while (p->t.kind != TK_EOF)
			module_stmt(p);
		if (!m->sm)
			perr(p, len, "missing .target directive");
		resolve_module(p);
		COPY(m->vars, m->nvars, p->vars);
		COPY(m->funcs, m->nfuncs, p->funcs);
		COPY(m->sections, m->nsections, p->sections);
		ret = m;
	}
	cleanup(p);
	free(p);
	if (!ret)
		ptx_free(m);
	return ret;
}

void
ptx_free(PtxModule *m)
{
	if (!m)
		return;
	arena_free(&m->arena);
	free(m);
}
