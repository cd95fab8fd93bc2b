/* launch.c -- the buffers of one launch: deterministic initialisation
 * from a spec, typed access for C references, comparison with
 * tolerances, and text output.  Formulas are in docs/FRONTENDS.md. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "run/spec.h"

static int
is_float(ElemType t)
{
	return t == T_F16 || t == T_BF16 || t == T_F32 || t == T_F64;
}

/* Element i of a "random" init, stored at p; *st is the generator state.
 * Floats: lo + (z >> 11) * 2^-53 * (hi - lo), rounded to the type.
 * Integers: lo + z mod (hi - lo + 1) in 64-bit two's complement. */
static void
random_elem(const Init *in, ElemType t, void *p, size_t i, u64 *st)
{
	u64 z = splitmix64(st), lo, span, r;

	if (is_float(t)) {
		elem_set(t, p, i, in->lo + (double)(z >> 11) * 0x1p-53 * (in->hi - in->lo));
		return;
	}
	lo = in->lo_bits;
	span = in->hi_bits - lo + 1;
	r = lo + (span ? z % span : z);
	memcpy((char *)p + i * elem_size(t), &r, elem_size(t));  /* little-endian host */
}

static void
fill(void *p, const SpecArg *a)
{
	const Init *in = &a->init;
	u64 st = in->seed;
	size_t i;

	for (i = 0; i < a->count; i++) {
		double v;
		if (in->kind == INIT_RANDOM) {
			random_elem(in, a->type, p, i, &st);
			continue;
		}
		if (!is_float(a->type) && (in->kind == INIT_FILL || in->kind == INIT_VALUES)) {
			u64 b = in->kind == INIT_FILL ? in->fill_bits : in->value_bits[i % in->nvalues];
			memcpy((char *)p + i * elem_size(a->type), &b, elem_size(a->type));  /* little-endian */
			continue;
		}
		switch (in->kind) {
		case INIT_FILL: v = in->fill; break;
		case INIT_VALUES: v = in->values[i % in->nvalues]; break;
		case INIT_RANGE: v = in->start + (double)i * in->step; break;
		default: die("launch_init: bad init kind %d", (int)in->kind);
		}
		elem_set(a->type, p, i, v);
	}
}

void
launch_init(Launch *l, const Spec *s)
{
	size_t i;

	l->spec = s;
	l->data = xcalloc(s->nall ? s->nall : 1, sizeof *l->data);
	l->bytes = xcalloc(s->nall ? s->nall : 1, sizeof *l->bytes);
	for (i = 0; i < s->nall; i++) {
		const SpecArg *a = &s->args[i];
		if (!a->is_buffer)
			continue;
		l->bytes[i] = a->count * elem_size(a->type);
		l->data[i] = xcalloc(1, l->bytes[i]);
		fill(l->data[i], a);
	}
}

void
launch_free(Launch *l)
{
	size_t i;

	if (l->data)
		for (i = 0; i < l->spec->nall; i++)
			free(l->data[i]);
	free(l->data);
	free(l->bytes);
	memset(l, 0, sizeof *l);
}

static const SpecArg *
arg(const Launch *l, const char *name, int buffer, int *idx)
{
	int i = spec_arg_index(l->spec, name);

	if (i < 0)
		die("%s: no argument named \"%s\"", l->spec->path, name);
	if (l->spec->args[i].is_buffer != buffer || l->spec->args[i].is_struct)
		die("%s: argument \"%s\" is not a %s", l->spec->path, name, buffer ? "buffer" : "scalar");
	*idx = i;
	return &l->spec->args[i];
}

void *
launch_buf(Launch *l, const char *name)
{
	int i;

	arg(l, name, 1, &i);
	return l->data[i];
}

double
launch_scalar(const Launch *l, const char *name)
{
	int i;

	return arg(l, name, 0, &i)->scalar;
}

u64
launch_field(const Launch *l, const char *name, u32 off)
{
	int i = spec_arg_index(l->spec, name);
	const SpecArg *a = i < 0 ? NULL : &l->spec->args[i];
	size_t k;

	if (!a || !a->is_struct)
		die("%s: no struct argument named \"%s\"", l->spec->path, name);
	for (k = 0; k < a->nfields; k++)
		if (a->fields[k].offset == off && a->fields[k].buffer < 0)
			return a->fields[k].bits;
	die("%s: struct \"%s\" has no scalar field at offset %u", l->spec->path, name, off);
}

/* Position of a float's bit pattern on a line where adjacent floats are
 * adjacent integers (so |ord(a) - ord(b)| counts ulps). */
static i64
ordered(ElemType t, u64 bits)
{
	int nb = (int)elem_size(t) * 8;
	u64 sign = (u64)1 << (nb - 1), mag = bits & (sign - 1);

	return bits & sign ? -(i64)mag : (i64)mag;
}

static int
isnan_bits(ElemType t, const void *p, size_t i)
{
	return is_float(t) && isnan(elem_get(t, p, i));
}

static int
element_ok(const SpecArg *a, const void *got, const void *want, size_t i)
{
	const Check *k = &a->check;
	ElemType t = a->type;
	u64 gb = elem_bits(t, got, i), wb = elem_bits(t, want, i);
	double g, w, d;
	int gn = isnan_bits(t, got, i), wn = isnan_bits(t, want, i);

	if (gn || wn) {
		if (gn && wn && k->nan_any)
			return 1;
		return gb == wb && k->abs_tol == 0 && k->rel_tol == 0 && k->ulp == 0;
	}
	if (gb == wb)
		return 1;
	g = elem_get(t, got, i);
	w = elem_get(t, want, i);
	if (k->abs_tol > 0 || k->rel_tol > 0) {
		if (isinf(g) || isinf(w))
			return g == w;
		d = fabs(g - w);
		if (d <= k->abs_tol + k->rel_tol * fabs(w))
			return 1;
	}
	if (k->ulp > 0 && is_float(t)) {
		i64 og = ordered(t, gb), ow = ordered(t, wb);
		u64 dist = og > ow ? (u64)og - (u64)ow : (u64)ow - (u64)og;
		if (dist <= k->ulp)
			return 1;
	}
	return 0;
}

static void
print_value(FILE *f, ElemType t, const void *p, size_t i)
{
	double v = elem_get(t, p, i);

	switch (t) {
	case T_S64: fprintf(f, "%lld", (long long)(i64)elem_bits(t, p, i)); break;
	case T_U64: fprintf(f, "%llu", (unsigned long long)elem_bits(t, p, i)); break;
	case T_F16: case T_BF16: case T_F32: case T_F64:
		if (isnan(v))
			fprintf(f, "nan");
		else
			fprintf(f, "%.*g", t == T_F64 ? 17 : t == T_F32 ? 9 : t == T_F16 ? 5 : 4, v);
		break;
	default: fprintf(f, "%.0f", v); break;
	}
}

static void
print_bits(FILE *f, ElemType t, const void *p, size_t i)
{
	if (is_float(t))
		fprintf(f, " (0x%0*llx)", (int)elem_size(t) * 2, (unsigned long long)elem_bits(t, p, i));
}

size_t
launch_compare(const Launch *got, const Launch *want, FILE *f)
{
	const Spec *s = want->spec;
	size_t i, e, bad = 0, shown = 0;

	ASSERT(got->spec->nall == s->nall);
	for (i = 0; i < s->nall; i++) {
		const SpecArg *a = &s->args[i];
		if (!a->is_buffer || !a->check.enabled)
			continue;
		ASSERT(got->bytes[i] == want->bytes[i]);
		for (e = 0; e < a->count; e++) {
			if (element_ok(a, got->data[i], want->data[i], e))
				continue;
			if (f && shown++ < 10) {
				fprintf(f, "%s[%zu]: got ", a->name, e);
				print_value(f, a->type, got->data[i], e);
				print_bits(f, a->type, got->data[i], e);
				fprintf(f, ", want ");
				print_value(f, a->type, want->data[i], e);
				print_bits(f, a->type, want->data[i], e);
				fputc('\n', f);
			}
			bad++;
		}
	}
	if (f && bad > shown && shown)
		fprintf(f, "... %zu mismatches in all\n", bad);
	return bad;
}

int
launch_write(const Launch *l, const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;
	const Spec *s = l->spec;
	size_t i, e;

	if (!f) {
		diag(path, "cannot create");
		return -1;
	}
	for (i = 0; i < s->nall; i++) {
		const SpecArg *a = &s->args[i];
		if (!a->is_buffer)
			continue;
		for (e = 0; e < a->count; e++) {
			fprintf(f, "%s[%zu] = ", a->name, e);
			print_value(f, a->type, l->data[i], e);
			fputc('\n', f);
		}
	}
	if (f == stdout)
		return fflush(f) ? -1 : 0;
	if (fclose(f)) {
		diag(path, "write failed");
		return -1;
	}
	return 0;
}

u32
launch_param_size(const SpecArg *a)
{
	return a->is_buffer ? 8 : a->is_struct ? a->size : (u32)elem_size(a->type);
}

u32
launch_param(const Launch *l, size_t i, const u64 *addr, u8 *out)
{
	const SpecArg *a = &l->spec->args[i];
	u32 n = launch_param_size(a);
	size_t k;

	ASSERT(i < l->spec->nargs && n <= SPEC_MAX_STRUCT);
	memset(out, 0, n);
	if (a->tex) {
		u64 h = launch_tex_handle(i);
		memcpy(out, &h, 8);
	} else if (a->is_buffer)
		memcpy(out, &addr[i], 8);       /* little-endian host and target */
	else if (!a->is_struct)
		memcpy(out, &a->scalar_bits, n);
	else
		for (k = 0; k < a->nfields; k++) {
			const SpecField *f = &a->fields[k];
			ASSERT(f->offset + f->size <= n);
			u64 v = f->buffer >= 0 ? addr[f->buffer] + f->bits : f->bits;
			memcpy(out + f->offset, &v, f->size);   /* little-endian */
		}
	return n;
}

/* Handles are small and odd-looking on purpose: 0x7e000001 + the index,
 * so a handle used as an address, or an address as a handle, is caught. */
u64
launch_tex_handle(size_t i)
{
	return 0x7e000001u + (u64)i;
}

int
launch_tex_arg(const Launch *l, u64 handle, int surface)
{
	u32 h = (u32)handle;
	size_t i;

	if (h < 0x7e000001u || (i = h - 0x7e000001u) >= l->spec->nargs)
		return -1;
	if (!l->spec->args[i].tex || l->spec->args[i].tex->surface != surface)
		return -1;
	return (int)i;
}
