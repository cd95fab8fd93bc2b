/* tmap.c -- OUR tensor-map encoding and the TMA tile copies it describes
 * (docs/compiler-tma.md): a box of elements, dimension 0 fastest, dense
 * in shared memory, XOR-swizzled by the shared address, out-of-bounds
 * elements filled on load and skipped on store. */
#include <math.h>
#include <string.h>

#include "run/tmap.h"

/* Byte offsets of our 128-byte encoding (little-endian). */
enum { O_ADDR = 0, O_MAGIC = 8, O_TYPE = 12, O_RANK = 13, O_SWZ = 14, O_OOB = 15, O_L2 = 16,
       O_DIMS = 24, O_STRIDES = 48, O_BOX = 80, O_ESTR = 90 };

static void
put(u8 *p, u64 v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (u8)(v >> 8 * i);
}

static u64
get(const u8 *p, int n)
{
	u64 v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

void
tmap_encode(const Tmap *m, u8 out[TMAP_BYTES])
{
	memset(out, 0, TMAP_BYTES);
	put(out + O_ADDR, m->addr, 8);
	put(out + O_MAGIC, TMAP_MAGIC, 4);
	out[O_TYPE] = (u8)m->type;
	out[O_RANK] = (u8)m->rank;
	out[O_SWZ] = (u8)m->swizzle;
	out[O_OOB] = (u8)m->oobfill;
	out[O_L2] = (u8)m->l2promo;
	for (int i = 0; i < m->rank; i++) {
		put(out + O_DIMS + 4 * i, m->dims[i], 4);
		if (i)
			put(out + O_STRIDES + 8 * (i - 1), m->strides[i], 8);
		put(out + O_BOX + 2 * i, m->box[i], 2);
		out[O_ESTR + i] = (u8)m->estr[i];
	}
}

static int
is_float(ElemType t)
{
	return t == T_F16 || t == T_BF16 || t == T_F32 || t == T_F64;
}

const char *
tmap_check(const Tmap *m)
{
	static const u32 span[] = { 0, 32, 64, 128 };
	u32 es;

	if (m->type >= NTYPE || m->type == T_S8 || m->type == T_S16)
		return "data type not supported by TMA";
	if (m->rank < 1 || m->rank > TMAP_MAXRANK)
		return "rank must be 1 to 5";
	if (m->swizzle < 0 || m->swizzle > TMAP_SWZ_128B || m->oobfill < 0 || m->oobfill > TMAP_OOB_NAN ||
	    m->l2promo < 0 || m->l2promo > 3)
		return "bad swizzle, OOB fill or L2 promotion";
	es = (u32)elem_size(m->type);
	if (m->addr % 16)
		return "global address not a multiple of 16";
	for (int i = 0; i < m->rank; i++) {
		if (!m->dims[i])
			return "a global dimension is 0";
		if (i && (m->strides[i] % 16 || m->strides[i] >= 1ull << 40 || !m->strides[i]))
			return "global strides must be multiples of 16 below 2^40";
		if (!m->box[i] || m->box[i] > 256)
			return "box dimensions must be 1 to 256";
		if (!m->estr[i] || m->estr[i] > 8)
			return "element strides must be 1 to 8";
	}
	if (m->box[0] * es % 16)
		return "the box's inner dimension must be a multiple of 16 bytes";
	if (m->swizzle && m->box[0] * es > span[m->swizzle])
		return "the box's inner dimension exceeds the swizzle span";
	if (m->swizzle && tmap_box_bytes(m) % 128)
		return "a swizzled box must be a multiple of 128 bytes (our model's limit)";
	if (m->oobfill == TMAP_OOB_NAN && !is_float(m->type))
		return "NaN fill needs a floating-point type";
	return NULL;
}

const char *
tmap_decode(const u8 in[TMAP_BYTES], Tmap *m)
{
	memset(m, 0, sizeof *m);
	if (get(in + O_MAGIC, 4) != TMAP_MAGIC)
		return "not a tensor map of the launch spec (no \"OATM\" mark; docs/compiler-tma.md)";
	m->addr = get(in + O_ADDR, 8);
	m->type = (ElemType)in[O_TYPE];
	m->rank = in[O_RANK];
	m->swizzle = in[O_SWZ];
	m->oobfill = in[O_OOB];
	m->l2promo = in[O_L2];
	if (m->rank < 1 || m->rank > TMAP_MAXRANK || m->type >= NTYPE)
		return "a damaged tensor map";
	m->strides[0] = elem_size(m->type);
	for (int i = 0; i < m->rank; i++) {
		m->dims[i] = (u32)get(in + O_DIMS + 4 * i, 4);
		if (i)
			m->strides[i] = get(in + O_STRIDES + 8 * (i - 1), 8);
		m->box[i] = (u32)get(in + O_BOX + 2 * i, 2);
		m->estr[i] = in[O_ESTR + i];
	}
	return tmap_check(m) ? "a damaged tensor map" : NULL;
}

/* The traversal stride of dimension i: elementStrides[0] is ignored
 * without interleave ("TMA doesn't support the stride for dimension
 * zero", cuTensorMapEncodeTiled's documentation). */
static u32
estride(const Tmap *m, int i)
{
	return i ? m->estr[i] : 1;
}

/* Elements along dimension i of the shared image. */
static u32
count(const Tmap *m, int i)
{
	return (m->box[i] + estride(m, i) - 1) / estride(m, i);
}

u64
tmap_span(const Tmap *m)
{
	u64 n = elem_size(m->type);

	for (int i = 0; i < m->rank; i++)
		n += (u64)(m->dims[i] - 1) * m->strides[i];
	return n;
}

u32
tmap_box_bytes(const Tmap *m)
{
	u32 n = (u32)elem_size(m->type);

	for (int i = 0; i < m->rank; i++)
		n *= count(m, i);
	return n;
}

/* Position in the image of the byte at image offset o: the 16-byte chunk
 * (bits 4..6 of the shared address) XORed with address bits 7..9 (128B),
 * 7..8 (64B) or 7 (32B) -- CUTLASS's Swizzle<3,4,3>, <2,4,3>, <1,4,3>. */
static u32
swizzle(const Tmap *m, u32 soff, u32 o)
{
	static const u32 mask[] = { 0, 0x10, 0x30, 0x70 };
	u32 a = soff + o;

	return (a ^ ((a >> 3) & mask[m->swizzle])) - soff;
}

/* Visit every element of the box: its image offset (before swizzling),
 * and its global address, or in = 0 when out of bounds. */
typedef int (*Visit)(const Tmap *m, void *arg, u32 o, u64 g, int in);

static int
walk(const Tmap *m, const i32 *c, Visit f, void *arg)
{
	u32 idx[TMAP_MAXRANK] = { 0 }, es = (u32)elem_size(m->type), n = tmap_box_bytes(m) / es;

	for (u32 k = 0; k < n; k++) {
		u64 g = m->addr;
		int in = 1;
		for (int i = 0; i < m->rank; i++) {
			i64 x = (i64)c[i] + (i64)idx[i] * estride(m, i);
			in &= x >= 0 && x < m->dims[i];
			g += (u64)x * m->strides[i];
		}
		if (f(m, arg, k * es, g, in))
			return -1;
		for (int i = 0; i < m->rank && ++idx[i] == count(m, i); i++)
			idx[i] = 0;
	}
	return 0;
}

typedef struct {
	const TmapMem *mem;
	u8 *box;
	const u8 *cbox;
	u32 soff;
	int red;
} Arg;

static int
visit_load(const Tmap *m, void *arg, u32 o, u64 g, int in)
{
	static const u64 nan[NTYPE] = { [T_F16] = 0x7fff, [T_BF16] = 0x7fff, [T_F32] = 0x7fffffff,
					[T_F64] = 0x7fffffffffffffffull };
	Arg *a = arg;
	u32 es = (u32)elem_size(m->type);
	u64 fill = m->oobfill == TMAP_OOB_NAN ? nan[m->type] : 0;
	u8 *p = a->box + swizzle(m, a->soff, o);     /* an element never straddles a 16-byte chunk */

	if (in)
		return a->mem->read(a->mem->ctx, g, p, es);
	memcpy(p, &fill, es);
	return 0;
}

int
tmap_load(const Tmap *m, const i32 *c, u32 soff, const TmapMem *mem, u8 *box)
{
	Arg a = { .mem = mem, .box = box, .soff = soff };

	return walk(m, c, visit_load, &a);
}

int
tmap_red_ok(ElemType t, int red)
{
	switch (red) {
	case TMAP_RED_NONE: return 1;
	case TMAP_RED_ADD: return t == T_U32 || t == T_S32 || t == T_U64 || (is_float(t) && t != T_F64);
	case TMAP_RED_MIN: case TMAP_RED_MAX:
		return t == T_U32 || t == T_S32 || t == T_U64 || t == T_S64 || t == T_F16 || t == T_BF16;
	case TMAP_RED_INC: case TMAP_RED_DEC: return t == T_U32;
	case TMAP_RED_AND: case TMAP_RED_OR: case TMAP_RED_XOR:
		return t == T_U32 || t == T_S32 || t == T_U64 || t == T_S64;
	default: return 0;
	}
}

/* a < b for elements of type t (bits, zero-extended). */
static int
less(ElemType t, u64 a, u64 b)
{
	u8 ab[8], bb[8];

	switch (t) {
	case T_S32: return (i32)a < (i32)b;
	case T_S64: return (i64)a < (i64)b;
	case T_U32: case T_U64: return a < b;
	default:
		memcpy(ab, &a, 8);
		memcpy(bb, &b, 8);
		return elem_get(t, ab, 0) < elem_get(t, bb, 0);
	}
}

static u64
reduce(ElemType t, int red, u64 old, u64 v)
{
	u64 mask = elem_size(t) == 8 ? ~0ull : (1ull << 8 * elem_size(t)) - 1;
	u8 ob[8], vb[8];

	switch (red) {
	case TMAP_RED_ADD:
		if (is_float(t)) {   /* exact in double for f16, bf16, f32; rounded once */
			memcpy(ob, &old, 8);
			memcpy(vb, &v, 8);
			elem_set(t, ob, 0, elem_get(t, ob, 0) + elem_get(t, vb, 0));
			return elem_bits(t, ob, 0);
		}
		return (old + v) & mask;
	case TMAP_RED_MIN: return less(t, v, old) ? v : old;
	case TMAP_RED_MAX: return less(t, old, v) ? v : old;
	case TMAP_RED_INC: return old >= v ? 0 : old + 1;
	case TMAP_RED_DEC: return old == 0 || old > v ? v : old - 1;
	case TMAP_RED_AND: return old & v;
	case TMAP_RED_OR: return old | v;
	default: return old ^ v;
	}
}

static int
visit_store(const Tmap *m, void *arg, u32 o, u64 g, int in)
{
	Arg *a = arg;
	u32 es = (u32)elem_size(m->type);
	const u8 *p = a->cbox + swizzle(m, a->soff, o);
	u64 old = 0, v = 0;

	if (!in)
		return 0;
	if (a->red == TMAP_RED_NONE)
		return a->mem->write(a->mem->ctx, g, p, es);
	memcpy(&v, p, es);
	if (a->mem->read(a->mem->ctx, g, &old, es))
		return -1;
	v = reduce(m->type, a->red, old, v);
	return a->mem->write(a->mem->ctx, g, &v, es);
}

int
tmap_store(const Tmap *m, const i32 *c, u32 soff, const u8 *box, int red, const TmapMem *mem)
{
	Arg a = { .mem = mem, .cbox = box, .soff = soff, .red = red };

	if (!tmap_red_ok(m->type, red))
		return -1;
	return walk(m, c, visit_store, &a);
}
