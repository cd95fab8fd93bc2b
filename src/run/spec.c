/* spec.c -- launch specifications: parse and check the JSON form
 * (documented in docs/FRONTENDS.md, "Launch specification").  Strict:
 * unknown keys, wrong types, values that do not fit their element type
 * and absurd sizes are errors pointing at the offending text. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "run/spec.h"
#include "run/tmap.h"
#include "util/json.h"

enum {
	MAX_COUNT = 1 << 28,            /* elements in one buffer */
	MAX_VALUES = 1 << 20,           /* entries of an init "values" list */
	MAX_ARGS = 256,
	MAX_SHARED = 232448,            /* 227 KiB: the sm_90 maximum per CTA */
};
#define MAX_BYTES ((u64)1 << 30)        /* all buffers of one launch */

typedef struct {
	const Src *src;
	Spec *s;
} Ctx;

static int
err(Ctx *c, const Json *at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int
err(Ctx *c, const Json *at, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdiag_at(c->src, at ? at->pos : 0, fmt, ap);
	va_end(ap);
	return -1;
}

static int
want(Ctx *c, const Json *j, JsonKind k, const char *what)
{
	if (j->kind == k)
		return 0;
	return err(c, j, "%s must be a%s %s, not %s", what,
		   k == J_ARR || k == J_OBJ ? "n" : "", json_kind_name(k), json_kind_name(j->kind));
}

/* Every key of object j must be one of the NULL-terminated list. */
static int
known_keys(Ctx *c, const Json *j, const char *where, const char *const *keys)
{
	size_t i, k;

	for (i = 0; i < j->n; i++) {
		for (k = 0; keys[k] && strcmp(keys[k], j->key[i]); k++)
			;
		if (!keys[k]) {
			diag_at(c->src, j->keypos[i], "unknown key \"%s\" in %s", j->key[i], where);
			return -1;
		}
	}
	return 0;
}

static int
get_u64(Ctx *c, const Json *j, const char *what, u64 lo, u64 hi, u64 *v)
{
	if (want(c, j, J_NUM, what))
		return -1;
	if (!json_u64(j, v) || *v < lo || *v > hi)
		return err(c, j, "%s must be an integer in [%llu, %llu]", what,
			   (unsigned long long)lo, (unsigned long long)hi);
	return 0;
}

/* A number, or one of the strings "nan", "inf", "-inf". */
static int
get_num(Ctx *c, const Json *j, const char *what, double *v)
{
	if (j->kind == J_STR) {
		if (!strcmp(j->text, "nan"))
			return *v = NAN, 0;
		if (!strcmp(j->text, "inf"))
			return *v = INFINITY, 0;
		if (!strcmp(j->text, "-inf"))
			return *v = -INFINITY, 0;
		return err(c, j, "%s: want a number or \"nan\", \"inf\", \"-inf\"", what);
	}
	if (want(c, j, J_NUM, what))
		return -1;
	*v = j->num;
	return 0;
}

static int
is_float(ElemType t)
{
	return t == T_F16 || t == T_BF16 || t == T_F32 || t == T_F64;
}

static int
is_signed(ElemType t)
{
	return t == T_S8 || t == T_S16 || t == T_S32 || t == T_S64;
}

/* Does v fit type t (integral and in range; finite floats stay finite)? */
static int
fits(ElemType t, double v)
{
	int bits = (int)elem_size(t) * 8;

	if (is_float(t)) {
		if (!isfinite(v))
			return 1;
		switch (t) {
		case T_F16: return fabs(v) < 65520.0;
		case T_BF16: return fabs(v) < 3.3961775292304e38;  /* rounds below inf */
		case T_F32: return isfinite((float)v);
		default: return 1;
		}
	}
	if (!isfinite(v) || v != floor(v))
		return 0;
	if (is_signed(t))
		return v >= -ldexp(1, bits - 1) && v < ldexp(1, bits - 1);
	return v >= 0 && v < ldexp(1, bits);
}

/* An integer written exactly (no fraction) that fits type t: its 64-bit
 * two's complement in *bits.  0 if it is not one. */
static int
exact_int(const Json *j, ElemType t, u64 *bits)
{
	int nb = (int)elem_size(t) * 8;
	i64 iv;
	u64 uv;

	if (j->kind != J_NUM)
		return 0;
	if (json_i64(j, &iv)) {
		if (is_signed(t) ? nb < 64 && (iv < -((i64)1 << (nb - 1)) || iv >= ((i64)1 << (nb - 1)))
				 : iv < 0 || (nb < 64 && (u64)iv >> nb))
			return 0;
		*bits = (u64)iv;
		return 1;
	}
	if (json_u64(j, &uv) && !is_signed(t)) {        /* above INT64_MAX: u64 only */
		*bits = uv;
		return 1;
	}
	return 0;
}

/* A value for an element of type t: *v as a double, and for integer types
 * the exact value in *bits (NULL: not wanted). */
static int
value_for(Ctx *c, const Json *j, ElemType t, const char *what, double *v, u64 *bits)
{
	if (get_num(c, j, what, v))
		return -1;
	if (!is_float(t)) {
		u64 b;
		if (!exact_int(j, t, &b))
			return err(c, j, "%s %s does not fit %s", what, j->text, elem_name(t));
		if (bits)
			*bits = b;
		return 0;
	}
	if (!fits(t, *v))
		return err(c, j, "%s %s does not fit %s", what, j->text, elem_name(t));
	return 0;
}

static int
parse_init(Ctx *c, const Json *j, ElemType t, size_t count, Init *in)
{
	static const char *const top[] = {"fill", "values", "range", "random", NULL};
	static const char *const rk[] = {"start", "step", NULL};
	static const char *const nk[] = {"seed", "min", "max", NULL};
	const Json *f;
	size_t i;

	if (want(c, j, J_OBJ, "init") || known_keys(c, j, "init", top))
		return -1;
	if (j->n != 1)
		return err(c, j, "init must have exactly one of \"fill\", \"values\", \"range\", \"random\"");
	f = j->elem[0];
	if ((f = json_get(j, "fill"))) {
		in->kind = INIT_FILL;
		return value_for(c, f, t, "fill value", &in->fill, &in->fill_bits);
	}
	if ((f = json_get(j, "values"))) {
		in->kind = INIT_VALUES;
		if (want(c, f, J_ARR, "values"))
			return -1;
		if (f->n == 0 || f->n > MAX_VALUES)
			return err(c, f, "values must have 1 to %d entries", MAX_VALUES);
		in->nvalues = f->n;
		in->values = arena_alloc(&c->s->arena, f->n * sizeof *in->values);
		in->value_bits = arena_alloc(&c->s->arena, f->n * sizeof *in->value_bits);
		for (i = 0; i < f->n; i++)
			if (value_for(c, f->elem[i], t, "value", &in->values[i], &in->value_bits[i]))
				return -1;
		return 0;
	}
	if ((f = json_get(j, "range"))) {
		const Json *a, *b;
		in->kind = INIT_RANGE;
		if (want(c, f, J_OBJ, "range") || known_keys(c, f, "range", rk))
			return -1;
		if (!(a = json_get(f, "start")) || !(b = json_get(f, "step")))
			return err(c, f, "range needs \"start\" and \"step\"");
		if (value_for(c, a, t, "range start", &in->start, NULL) ||
		    get_num(c, b, "range step", &in->step))
			return -1;
		if (!isfinite(in->start) || !isfinite(in->step))
			return err(c, f, "range start and step must be finite");
		if (!is_float(t) && in->step != floor(in->step))
			return err(c, b, "range step must be an integer for %s", elem_name(t));
		if (!fits(t, in->start + (double)(count - 1) * in->step))
			return err(c, f, "range end %.17g does not fit %s",
				   in->start + (double)(count - 1) * in->step, elem_name(t));
		return 0;
	}
	f = json_get(j, "random");
	{
		const Json *s, *lo, *hi;
		in->kind = INIT_RANDOM;
		if (want(c, f, J_OBJ, "random") || known_keys(c, f, "random", nk))
			return -1;
		if (!(s = json_get(f, "seed")) || !(lo = json_get(f, "min")) || !(hi = json_get(f, "max")))
			return err(c, f, "random needs \"seed\", \"min\" and \"max\"");
		if (get_u64(c, s, "seed", 0, ~(u64)0, &in->seed) ||
		    value_for(c, lo, t, "random min", &in->lo, &in->lo_bits) ||
		    value_for(c, hi, t, "random max", &in->hi, &in->hi_bits))
			return -1;
		if (!isfinite(in->lo) || !isfinite(in->hi))
			return err(c, f, "random min and max must be finite");
		if (is_float(t) ? in->lo > in->hi
				: is_signed(t) ? (i64)in->lo_bits > (i64)in->hi_bits : in->lo_bits > in->hi_bits)
			return err(c, f, "random min is above max");
		return 0;
	}
}

static int
parse_check(Ctx *c, const Json *j, Check *k)
{
	static const char *const keys[] = {"exact", "abs", "rel", "ulp", "nan_any", NULL};
	const Json *e = json_get(j, "exact"), *a = json_get(j, "abs"), *r = json_get(j, "rel"),
		   *u = json_get(j, "ulp"), *n = json_get(j, "nan_any");
	u64 ulp;

	if (want(c, j, J_OBJ, "check") || known_keys(c, j, "check", keys))
		return -1;
	k->enabled = 1;
	if (n) {
		if (want(c, n, J_BOOL, "nan_any"))
			return -1;
		k->nan_any = n->b;
	}
	if (e) {
		if (want(c, e, J_BOOL, "exact"))
			return -1;
		if (!e->b)
			return err(c, e, "\"exact\": false means nothing; give abs/rel or ulp, or omit check");
		if (a || r || u)
			return err(c, j, "\"exact\" excludes \"abs\", \"rel\" and \"ulp\"");
		return 0;
	}
	if (!a && !r && !u)
		return err(c, j, "check needs \"exact\", \"abs\"/\"rel\" or \"ulp\"");
	if (a && (get_num(c, a, "abs", &k->abs_tol) || !(k->abs_tol >= 0 && isfinite(k->abs_tol))))
		return err(c, a, "abs must be a finite number >= 0");
	if (r && (get_num(c, r, "rel", &k->rel_tol) || !(k->rel_tol >= 0 && isfinite(k->rel_tol))))
		return err(c, r, "rel must be a finite number >= 0");
	if (u) {
		if (get_u64(c, u, "ulp", 0, 1u << 30, &ulp))
			return -1;
		k->ulp = (u32)ulp;
	}
	return 0;
}

static int
parse_type(Ctx *c, const Json *j, ElemType *t)
{
	if (want(c, j, J_STR, "type"))
		return -1;
	if (!elem_lookup(j->text, t))
		return err(c, j, "unknown element type \"%s\" (want s8..u64, f16, bf16, f32, f64, b8..b64)",
			   j->text);
	return 0;
}

static u64
scalar_bits(ElemType t, double v)
{
	union { u64 u; char b[8]; } x = {0};

	elem_set(t, x.b, 0, v);
	return elem_bits(t, x.b, 0);
}

/* The value v of a scalar of type a->type: a->scalar, a->scalar_bits. */
static int
scalar_value(Ctx *c, const Json *v, SpecArg *a)
{
	i64 iv;
	u64 uv;

	if (is_float(a->type)) {
		if (value_for(c, v, a->type, "value", &a->scalar, NULL))
			return -1;
		a->scalar_bits = scalar_bits(a->type, a->scalar);
		a->scalar = elem_get(a->type, &a->scalar_bits, 0);  /* as the kernel sees it */
		return 0;
	}
	if (want(c, v, J_NUM, "value"))
		return -1;
	if (is_signed(a->type)) {
		int bits = (int)elem_size(a->type) * 8;
		if (!json_i64(v, &iv) || (bits < 64 && (iv < -((i64)1 << (bits - 1)) || iv >= ((i64)1 << (bits - 1)))))
			return err(c, v, "value %s does not fit %s", v->text, elem_name(a->type));
		a->scalar = (double)iv;
		a->scalar_bits = bits < 64 ? (u64)iv & (((u64)1 << bits) - 1) : (u64)iv;
		return 0;
	}
	if (!json_u64(v, &uv) || (elem_size(a->type) < 8 && uv >> (elem_size(a->type) * 8)))
		return err(c, v, "value %s does not fit %s", v->text, elem_name(a->type));
	a->scalar = (double)uv;
	a->scalar_bits = uv;
	return 0;
}

static int
parse_scalar(Ctx *c, const Json *j, SpecArg *a)
{
	static const char *const keys[] = {"name", "scalar", "value", "comment", NULL};
	const Json *v = json_get(j, "value");

	if (known_keys(c, j, "scalar argument", keys) || parse_type(c, json_get(j, "scalar"), &a->type))
		return -1;
	if (!v)
		return err(c, j, "scalar \"%s\" needs a \"value\"", a->name);
	return scalar_value(c, v, a);
}

/* One field of a struct: {"offset", "scalar": TYPE, "value"} or
 * {"offset", "pointer": BUFFER} (resolved by resolve_pointers). */
static int
parse_field(Ctx *c, const Json *j, const SpecArg *a, SpecField *f)
{
	static const char *const keys[] = {"offset", "scalar", "value", "pointer", "plus", "comment", NULL};
	const Json *o = json_get(j, "offset"), *sc = json_get(j, "scalar"), *p = json_get(j, "pointer"),
		   *pl = json_get(j, "plus");
	u64 off;

	if (want(c, j, J_OBJ, "field") || known_keys(c, j, "struct field", keys))
		return -1;
	if (!o)
		return err(c, j, "field of struct \"%s\" needs an \"offset\"", a->name);
	if (get_u64(c, o, "offset", 0, a->size - 1, &off))
		return -1;
	f->offset = (u32)off;
	f->buffer = -1;
	if (!sc == !p)
		return err(c, j, "field of struct \"%s\" needs exactly one of \"scalar\" and \"pointer\"", a->name);
	if (p) {
		if (json_get(j, "value"))
			return err(c, json_get(j, "value"), "a pointer field takes no \"value\"");
		if (want(c, p, J_STR, "pointer") || (pl && get_u64(c, pl, "plus", 0, MAX_BYTES, &f->bits)))
			return -1;
		f->type = T_U64;
	} else {
		SpecArg v = {0};
		if (pl)
			return err(c, pl, "\"plus\" belongs to a pointer field");
		if (parse_type(c, sc, &v.type))
			return -1;
		if (!json_get(j, "value"))
			return err(c, j, "scalar field of struct \"%s\" needs a \"value\"", a->name);
		if (scalar_value(c, json_get(j, "value"), &v))
			return -1;
		f->type = v.type;
		f->bits = v.scalar_bits;
	}
	f->size = (u32)elem_size(f->type);
	if (f->offset % f->size)
		return err(c, o, "field at offset %u is not aligned to its size (%u bytes)", f->offset, f->size);
	if ((u64)f->offset + f->size > a->size)
		return err(c, o, "field at offset %u (%u bytes) ends past the struct's %u bytes",
			   f->offset, f->size, a->size);
	return 0;
}

/* A struct passed by value: {"name", "struct": SIZE, "fields": [...]}. */
static int
parse_struct(Ctx *c, const Json *j, SpecArg *a)
{
	static const char *const keys[] = {"name", "struct", "fields", "comment", NULL};
	const Json *fs = json_get(j, "fields");
	u64 size;
	size_t i, k;

	a->is_struct = 1;
	if (known_keys(c, j, "struct argument", keys) ||
	    get_u64(c, json_get(j, "struct"), "struct size", 1, SPEC_MAX_STRUCT, &size))
		return -1;
	a->size = (u32)size;
	if (!fs)
		return err(c, j, "struct \"%s\" needs \"fields\" (an array, possibly empty)", a->name);
	if (want(c, fs, J_ARR, "fields"))
		return -1;
	if (fs->n > size)
		return err(c, fs, "struct \"%s\" has more fields than bytes", a->name);
	a->nfields = fs->n;
	a->fields = arena_alloc(&c->s->arena, (fs->n ? fs->n : 1) * sizeof *a->fields);
	for (i = 0; i < fs->n; i++) {
		SpecField *f = &a->fields[i];
		if (parse_field(c, fs->elem[i], a, f))
			return -1;
		for (k = 0; k < i; k++)
			if (f->offset < a->fields[k].offset + a->fields[k].size &&
			    a->fields[k].offset < f->offset + f->size)
				return err(c, fs->elem[i], "field at offset %u overlaps the field at offset %u",
					   f->offset, a->fields[k].offset);
	}
	return 0;
}

/* A pointer into a buffer: {"name", "pointer": BUFFER, "plus"?: BYTES},
 * an 8-byte struct of one pointer field. */
static int
parse_pointer(Ctx *c, const Json *j, SpecArg *a)
{
	static const char *const keys[] = {"name", "pointer", "plus", "comment", NULL};
	const Json *pl = json_get(j, "plus");

	a->is_struct = 1;
	a->size = 8;
	a->nfields = 1;
	a->fields = arena_alloc(&c->s->arena, sizeof *a->fields);
	a->fields[0].size = 8;
	a->fields[0].type = T_U64;
	a->fields[0].buffer = -1;
	if (known_keys(c, j, "pointer argument", keys) || want(c, json_get(j, "pointer"), J_STR, "pointer"))
		return -1;
	return pl ? get_u64(c, pl, "plus", 0, MAX_BYTES, &a->fields[0].bits) : 0;
}

/* Pointer fields name buffer arguments (before or after the struct). */
static int
resolve_pointers(Ctx *c, const Json *args)
{
	Spec *s = c->s;
	size_t i, k;

	for (i = 0; i < s->nargs; i++) {
		const Json *fs = json_get(args->elem[i], "fields");
		if (!s->args[i].is_struct)
			continue;
		for (k = 0; k < s->args[i].nfields; k++) {
			const Json *p = fs ? json_get(fs->elem[k], "pointer") : k ? NULL :
					json_get(args->elem[i], s->args[i].tmap ? "tensormap" : "pointer");
			int b;
			if (!p)
				continue;
			if ((b = spec_arg_index(s, p->text)) < 0)
				return err(c, p, "pointer field names \"%s\", which is no argument", p->text);
			if (!s->args[b].is_buffer || s->args[b].tex)
				return err(c, p, "pointer field names \"%s\", which is not a buffer", p->text);
			if (s->args[i].fields[k].bits > s->args[b].count * elem_size(s->args[b].type))
				return err(c, p, "\"plus\" %llu points past the end of buffer \"%s\"",
					   (unsigned long long)s->args[i].fields[k].bits, p->text);
			s->args[i].fields[k].buffer = b;
			if (s->args[i].tmap && tmap_span(s->args[i].tmap) > s->args[b].count * elem_size(s->args[b].type))
				return err(c, p, "tensor map \"%s\" spans %llu bytes, more than buffer \"%s\" holds",
					   s->args[i].name, (unsigned long long)tmap_span(s->args[i].tmap), p->text);
		}
	}
	return 0;
}

static int
parse_buffer(Ctx *c, const Json *j, SpecArg *a, u64 *total)
{
	static const char *const keys[] = {"name", "buffer", "count", "init", "check", "comment", NULL};
	const Json *n = json_get(j, "count"), *in = json_get(j, "init"), *ck = json_get(j, "check");
	u64 count;

	a->is_buffer = 1;
	if (known_keys(c, j, "buffer argument", keys) || parse_type(c, json_get(j, "buffer"), &a->type))
		return -1;
	if (!n)
		return err(c, j, "buffer \"%s\" needs a \"count\"", a->name);
	if (get_u64(c, n, "count", 1, MAX_COUNT, &count))
		return -1;
	a->count = (size_t)count;
	*total += count * elem_size(a->type);
	if (*total > MAX_BYTES)
		return err(c, n, "buffers of this launch exceed %llu bytes in all",
			   (unsigned long long)MAX_BYTES);
	a->init.kind = INIT_FILL;
	if (in && parse_init(c, in, a->type, a->count, &a->init))
		return -1;
	if (ck && parse_check(c, ck, &a->check))
		return -1;
	return 0;
}

static int
get_bool(Ctx *c, const Json *j, const char *what, int *v)
{
	if (!j)
		return 0;
	if (j->kind != J_BOOL)
		return err(c, j, "%s must be true or false", what);
	*v = j->b;
	return 0;
}

/* One of the NULL-terminated names; its index in *v. */
static int
get_name(Ctx *c, const Json *j, const char *what, const char *const *names, int *v)
{
	if (want(c, j, J_STR, what))
		return -1;
	for (*v = 0; names[*v]; (*v)++)
		if (!strcmp(names[*v], j->text))
			return 0;
	return err(c, j, "unknown %s \"%s\"", what, j->text);
}

/* A texture or surface: a buffer of size x channels elements of its
 * format, passed as an object handle. */
static int
parse_tex(Ctx *c, const Json *j, SpecArg *a, u64 *total)
{
	static const char *const tkeys[] = {"name", "texture", "channels", "size", "linear", "filter",
					    "address", "normalized", "read", "init", "check", "comment", NULL};
	static const char *const skeys[] = {"name", "surface", "channels", "size", "init", "check",
					    "comment", NULL};
	static const char *const filters[] = {"point", "linear", NULL};
	static const char *const modes[] = {"clamp", "wrap", "mirror", "border", NULL};
	static const char *const reads[] = {"element", "normalized", NULL};
	const Json *ty = json_get(j, "texture"), *sz = json_get(j, "size"), *ch = json_get(j, "channels"),
		   *fi = json_get(j, "filter"), *ad = json_get(j, "address"), *rd = json_get(j, "read"),
		   *in = json_get(j, "init"), *ck = json_get(j, "check");
	SpecTex *t = arena_alloc(&c->s->arena, sizeof *t);
	u64 v, count;
	int i, k;

	memset(t, 0, sizeof *t);
	t->surface = !ty;
	a->is_buffer = 1;
	a->tex = t;
	if (known_keys(c, j, t->surface ? "surface argument" : "texture argument", t->surface ? skeys : tkeys) ||
	    parse_type(c, ty ? ty : json_get(j, "surface"), &a->type))
		return -1;
	if (a->type == T_S64 || a->type == T_U64 || a->type == T_F64 || a->type == T_BF16)
		return err(c, ty ? ty : json_get(j, "surface"), "%s format %s is not supported (want f32, f16, s32, u32, s16, u16, s8, u8)",
			   t->surface ? "surface" : "texture", elem_name(a->type));
	t->channels = 1;
	if (ch) {
		if (get_u64(c, ch, "channels", 1, 4, &v))
			return -1;
		if (v == 3)
			return err(c, ch, "channels must be 1, 2 or 4");
		t->channels = (int)v;
	}
	if (!sz)
		return err(c, j, "\"%s\" needs a \"size\" ([width], [width, height] or [width, height, depth])", a->name);
	if (want(c, sz, J_ARR, "size"))
		return -1;
	if (sz->n < 1 || sz->n > 3)
		return err(c, sz, "size must have 1 to 3 dimensions");
	t->dims = (int)sz->n;
	count = t->channels;
	for (i = 0; i < 3; i++) {
		t->size[i] = 1;
		if (i < t->dims) {
			if (get_u64(c, sz->elem[i], "size", 1, 65536, &v))
				return -1;
			t->size[i] = (u32)v;
		}
		count *= t->size[i];
	}
	if (count > MAX_COUNT)
		return err(c, sz, "%s has more than %d elements", a->name, MAX_COUNT);
	if (get_bool(c, json_get(j, "linear"), "linear", &t->linear) ||
	    get_bool(c, json_get(j, "normalized"), "normalized", &t->normalized))
		return -1;
	if (t->linear && t->dims != 1)
		return err(c, sz, "a linear texture is one-dimensional");
	if (fi && get_name(c, fi, "filter", filters, &t->filter_linear))
		return -1;
	if (rd && get_name(c, rd, "read mode", reads, &t->read_norm))
		return -1;
	if (t->read_norm && elem_size(a->type) > 2)
		return err(c, rd, "read mode \"normalized\" needs an 8- or 16-bit integer format, not %s",
			   elem_name(a->type));
	if (t->read_norm && a->type == T_F16)
		return err(c, rd, "read mode \"normalized\" needs an 8- or 16-bit integer format, not f16");
	if (t->filter_linear && !t->read_norm && a->type != T_F32 && a->type != T_F16)
		return err(c, fi, "linear filtering needs a float format or read mode \"normalized\"");
	if (ad) {
		int one = ad->kind == J_STR;
		if (!one && want(c, ad, J_ARR, "address"))
			return -1;
		if (!one && (int)ad->n != t->dims)
			return err(c, ad, "address needs one mode per dimension (%d)", t->dims);
		for (i = 0; i < t->dims; i++) {
			const Json *m = one ? ad : ad->elem[i];
			if (get_name(c, m, "address mode", modes, &k))
				return -1;
			if ((k == TEX_WRAP || k == TEX_MIRROR) && !t->normalized)
				return err(c, m, "address mode \"%s\" needs normalized coordinates", modes[k]);
			t->addr[i] = (u8)k;
		}
	}
	a->count = (size_t)count;
	*total += count * elem_size(a->type);
	if (*total > MAX_BYTES)
		return err(c, sz, "buffers of this launch exceed %llu bytes in all", (unsigned long long)MAX_BYTES);
	a->init.kind = INIT_FILL;
	if (in && parse_init(c, in, a->type, a->count, &a->init))
		return -1;
	return ck ? parse_check(c, ck, &a->check) : 0;
}

/* An array of rank unsigned numbers in [lo, hi] (absent: all dflt). */
static int
get_dims(Ctx *c, const Json *j, const char *what, int rank, u64 lo, u64 hi, u64 dflt, u64 *v)
{
	int i;

	for (i = 0; i < rank; i++)
		v[i] = dflt;
	if (!j)
		return 0;
	if (want(c, j, J_ARR, what))
		return -1;
	if ((int)j->n != rank)
		return err(c, j, "%s needs %d entries", what, rank);
	for (i = 0; i < rank; i++)
		if (get_u64(c, j->elem[i], what, lo, hi, &v[i]))
			return -1;
	return 0;
}

/* A tensor map (CUtensorMap, by value): cuTensorMapEncodeTiled's
 * arguments over a buffer; 128 bytes of our encoding (run/tmap.h) as
 * fields, the first the buffer's address. */
static int
parse_tmap(Ctx *c, const Json *j, SpecArg *a)
{
	static const char *const keys[] = {"name", "tensormap", "type", "dims", "strides", "box",
					   "elementStrides", "interleave", "swizzle", "l2promotion",
					   "oobFill", "comment", NULL};
	static const char *const swz[] = {"none", "32B", "64B", "128B", NULL};
	static const char *const l2[] = {"none", "64B", "128B", "256B", NULL};
	static const char *const oob[] = {"zeros", "nan", NULL};
	static const char *const il[] = {"none", NULL};
	const Json *d = json_get(j, "dims"), *x;
	Tmap *m = arena_alloc(&c->s->arena, sizeof *m);
	u64 v[TMAP_MAXRANK];
	u8 enc[TMAP_BYTES];
	const char *why;
	int i, k;

	memset(m, 0, sizeof *m);
	a->tmap = m;
	if (known_keys(c, j, "tensor map argument", keys) || want(c, json_get(j, "tensormap"), J_STR, "tensormap") ||
	    parse_type(c, json_get(j, "type"), &m->type))
		return -1;
	if (!d || want(c, d, J_ARR, "dims") || d->n < 1 || d->n > TMAP_MAXRANK)
		return err(c, d ? d : j, "tensor map \"%s\" needs \"dims\" (1 to 5 global dimensions)", a->name);
	m->rank = (int)d->n;
	if (get_dims(c, d, "dims", m->rank, 1, 0xffffffffull, 1, v))
		return -1;
	for (i = 0; i < m->rank; i++)
		m->dims[i] = (u32)v[i];
	m->strides[0] = elem_size(m->type);
	for (i = 1; i < m->rank; i++)               /* default: dense rows */
		m->strides[i] = m->strides[i - 1] * m->dims[i - 1];
	if ((x = json_get(j, "strides")) && get_dims(c, x, "strides", m->rank - 1, 1, ~0ull, 0, v))
		return -1;
	for (i = 1; x && i < m->rank; i++)
		m->strides[i] = v[i - 1];
	if (!json_get(j, "box"))
		return err(c, j, "tensor map \"%s\" needs a \"box\"", a->name);
	if (get_dims(c, json_get(j, "box"), "box", m->rank, 1, 256, 1, v))
		return -1;
	for (i = 0; i < m->rank; i++)
		m->box[i] = (u32)v[i];
	if (get_dims(c, json_get(j, "elementStrides"), "elementStrides", m->rank, 1, 8, 1, v))
		return -1;
	for (i = 0; i < m->rank; i++)
		m->estr[i] = (u32)v[i];
	if (((x = json_get(j, "interleave")) && get_name(c, x, "interleave (our model: none)", il, &k)) ||
	    ((x = json_get(j, "swizzle")) && get_name(c, x, "swizzle", swz, &m->swizzle)) ||
	    ((x = json_get(j, "l2promotion")) && get_name(c, x, "L2 promotion", l2, &m->l2promo)) ||
	    ((x = json_get(j, "oobFill")) && get_name(c, x, "OOB fill", oob, &m->oobfill)))
		return -1;
	if ((why = tmap_check(m)))
		return err(c, j, "tensor map \"%s\": %s", a->name, why);
	tmap_encode(m, enc);
	a->is_struct = 1;
	a->size = TMAP_BYTES;
	a->nfields = TMAP_BYTES / 8;
	a->fields = arena_alloc(&c->s->arena, a->nfields * sizeof *a->fields);
	for (i = 0; i < (int)a->nfields; i++) {
		SpecField *f = &a->fields[i];
		f->offset = 8 * i;
		f->size = 8;
		f->type = T_U64;
		f->buffer = -1;
		memcpy(&f->bits, enc + 8 * i, 8);
	}
	return 0;
}

static int
parse_arg(Ctx *c, const Json *j, SpecArg *a, u64 *total)
{
	const Json *name = json_get(j, "name"), *b = json_get(j, "buffer"), *s = json_get(j, "scalar"),
		   *st = json_get(j, "struct"), *p = json_get(j, "pointer"), *tx = json_get(j, "texture"),
		   *su = json_get(j, "surface"), *tm = json_get(j, "tensormap");
	size_t i;

	if (want(c, j, J_OBJ, "argument"))
		return -1;
	if (!name)
		return err(c, j, "argument needs a \"name\"");
	if (want(c, name, J_STR, "name"))
		return -1;
	if (!name->len || strlen(name->text) != name->len)
		return err(c, name, "argument name must be a non-empty string without NUL");
	a->name = name->text;
	for (i = 0; &c->s->args[i] != a; i++)
		if (!strcmp(c->s->args[i].name, a->name))
			return err(c, name, "duplicate argument name \"%s\"", a->name);
	if (!!b + !!s + !!st + !!p + !!tx + !!su + !!tm != 1)
		return err(c, j, "argument \"%s\" needs exactly one of \"buffer\" and \"scalar\" (or \"struct\", \"pointer\", \"texture\", \"surface\", \"tensormap\")",
			   a->name);
	if (tm)
		return parse_tmap(c, j, a);
	if (tx || su)
		return parse_tex(c, j, a, total);
	if (p)
		return parse_pointer(c, j, a);
	return b ? parse_buffer(c, j, a, total) : s ? parse_scalar(c, j, a) : parse_struct(c, j, a);
}

static int
parse_dim(Ctx *c, const Json *j, const char *what, const u32 lim[3], u32 d[3])
{
	u64 v;
	size_t i;

	d[0] = d[1] = d[2] = 1;
	if (j->kind == J_NUM)
		return get_u64(c, j, what, 1, lim[0], &v) ? -1 : (d[0] = (u32)v, 0);
	if (want(c, j, J_ARR, what))
		return -1;
	if (j->n < 1 || j->n > 3)
		return err(c, j, "%s must have 1 to 3 dimensions", what);
	for (i = 0; i < j->n; i++) {
		if (get_u64(c, j->elem[i], what, 1, lim[i], &v))
			return -1;
		d[i] = (u32)v;
	}
	return 0;
}

static int
parse_top(Ctx *c, const Json *j)
{
	static const char *const keys[] = {"kernel", "grid", "block", "shared", "cluster", "cooperative", "args",
					   "buffers", "comment", NULL};
	static const u32 glim[3] = {0x7fffffff, 65535, 65535}, blim[3] = {1024, 1024, 64},
			 clim[3] = {16, 16, 16};
	Spec *s = c->s;
	const Json *k = json_get(j, "kernel"), *g = json_get(j, "grid"), *b = json_get(j, "block"),
		   *sh = json_get(j, "shared"), *cl = json_get(j, "cluster"), *a = json_get(j, "args"),
		   *cm = json_get(j, "comment"), *bu = json_get(j, "buffers");
	u64 v, total = 0;
	size_t i;

	if (want(c, j, J_OBJ, "the spec") || known_keys(c, j, "the spec", keys))
		return -1;
	if (k && (want(c, k, J_STR, "kernel") || (!k->len && err(c, k, "kernel name is empty"))))
		return -1;
	s->kernel = k ? k->text : NULL;
	if (cm && want(c, cm, J_STR, "comment"))
		return -1;
	s->grid[0] = s->grid[1] = s->grid[2] = 1;
	memcpy(s->block, s->grid, sizeof s->grid);
	memcpy(s->cluster, s->grid, sizeof s->grid);
	if ((g && parse_dim(c, g, "grid", glim, s->grid)) ||
	    (b && parse_dim(c, b, "block", blim, s->block)) ||
	    (cl && parse_dim(c, cl, "cluster", clim, s->cluster)))
		return -1;
	if ((u64)s->block[0] * s->block[1] * s->block[2] > 1024)
		return err(c, b, "block has more than 1024 threads");
	if ((u64)s->cluster[0] * s->cluster[1] * s->cluster[2] > 16)
		return err(c, cl, "cluster has more than 16 CTAs");
	for (i = 0; i < 3; i++)
		if (s->grid[i] % s->cluster[i])
			return err(c, cl, "grid is not a multiple of the cluster shape");
	if (sh) {
		if (get_u64(c, sh, "shared", 0, MAX_SHARED, &v))
			return -1;
		s->shared = (u32)v;
	}
	if (get_bool(c, json_get(j, "cooperative"), "cooperative", &s->cooperative))
		return -1;
	if (s->cooperative && (u64)s->cluster[0] * s->cluster[1] * s->cluster[2] > 1)
		return err(c, cl, "a cooperative launch of clusters is not modelled");
	if (!a)
		return err(c, j, "the spec needs \"args\" (an array, possibly empty)");
	if (want(c, a, J_ARR, "args"))
		return -1;
	if (a->n > MAX_ARGS)
		return err(c, a, "more than %d arguments", MAX_ARGS);
	if (bu && want(c, bu, J_ARR, "buffers"))
		return -1;
	if (bu && bu->n > MAX_ARGS)
		return err(c, bu, "more than %d buffers", MAX_ARGS);
	s->nargs = a->n;
	s->nall = a->n + (bu ? bu->n : 0);
	s->args = arena_alloc(&s->arena, (s->nall ? s->nall : 1) * sizeof *s->args);
	for (i = 0; i < s->nall; i++) {
		/* parse_arg's duplicate check walks args[0..i): keep later names NULL-free */
		const Json *e = i < a->n ? a->elem[i] : bu->elem[i - a->n];
		if (parse_arg(c, e, &s->args[i], &total))
			return -1;
		if (i >= a->n && (!s->args[i].is_buffer || s->args[i].tex))
			return err(c, e, "\"%s\": the spec's \"buffers\" hold buffers only", s->args[i].name);
	}
	return resolve_pointers(c, a);
}

int
spec_parse(const char *path, const char *text, size_t len, Spec *s)
{
	Src src;
	Ctx c;
	Json *j;

	memset(s, 0, sizeof *s);
	s->path = arena_strdup(&s->arena, path);
	src.path = s->path;
	src.text = text;
	src.len = len;
	c.src = &src;
	c.s = s;
	if (!(j = json_parse(&s->arena, &src)) || parse_top(&c, j)) {
		arena_free(&s->arena);
		memset(s, 0, sizeof *s);
		return -1;
	}
	return 0;
}

int
spec_load(const char *path, Spec *s)
{
	size_t n;
	char *text = read_file(path, &n);
	int r;

	if (!text) {
		memset(s, 0, sizeof *s);
		return -1;
	}
	r = spec_parse(path, text, n, s);
	free(text);
	return r;
}

void
spec_free(Spec *s)
{
	arena_free(&s->arena);
	memset(s, 0, sizeof *s);
}

int
spec_arg_index(const Spec *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nall; i++)
		if (!strcmp(s->args[i].name, name))
			return (int)i;
	return -1;
}
