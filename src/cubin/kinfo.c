/* kinfo.c -- per-kernel facts gathered from a cubin's attributes: the
 * numbers a loader or a runner needs (registers, stack, parameter bytes,
 * static shared memory, thread limits). */
#include <string.h>

#include "cubin/elfio.h"
#include "cubin/kinfo.h"
#include "cubin/listing.h"

/* The kernels' records in .nv.info (registers, frame, min stack: the last
 * record of each wins), one pass for out[0..n); at[sym]: the kernel of a
 * symbol + 1, 0 for none. */
static void
global_info(const Cubin *c, KernelInfo *out, const u32 *at)
{
	int i = cubin_find_section(c, ".nv.info");
	const CSection *s;
	u64 pos = 0;
	InfoRec r;

	if (i < 0)
		return;
	s = &c->sec.v[i];
	while (pos < s->size && info_next(s->data, s->size, &pos, &r, "", "") == 0) {
		u32 sym = r.fmt == EIFMT_SVAL && r.len == 8 ? rd32(r.payload) : 0;
		KernelInfo *k = sym < c->sym.n && at[sym] ? &out[at[sym] - 1] : NULL;
		if (!k)
			continue;
		if (r.id == 0x2f)
			k->regs = rd32(r.payload + 4);
		else if (r.id == 0x11)
			k->frame = rd32(r.payload + 4);
		else if (r.id == 0x12)
			k->min_stack = rd32(r.payload + 4);
	}
}

static void
kernel_info(const Cubin *c, KernelInfo *k, int text)
{
	int i;
	const CSection *s;
	u64 pos = 0;
	InfoRec r;

	if ((i = cubin_find_ksection(c, ".nv.info.", k->name)) < 0)
		return;
	s = &c->sec.v[i];
	while (pos < s->size && info_next(s->data, s->size, &pos, &r, "", "") == 0) {
		if (r.fmt == EIFMT_HVAL && r.id == 0x19)
			k->param_bytes = r.len;
		else if (r.fmt == EIFMT_HVAL && r.id == 0x1b)
			k->maxreg = r.len;
		else if (r.fmt == EIFMT_SVAL && r.id == 0x17 && r.len == 12)
			k->nparams++;
		else if (r.fmt == EIFMT_SVAL && r.id == 0x05 && r.len == 12)
			k->max_threads = rd32(r.payload) * rd32(r.payload + 4) * rd32(r.payload + 8);
		else if (r.fmt == EIFMT_SVAL && r.id == 0x10 && r.len == 12)
			k->max_threads = rd32(r.payload) * rd32(r.payload + 4) * rd32(r.payload + 8);
		else if (r.fmt == EIFMT_SVAL && r.id == 0x0a && r.len == 8)
			k->param_base = rd16(r.payload + 4);
		else if (r.fmt == EIFMT_SVAL && r.id == 0x1c)
			k->nexits = r.len / 4;
		else if (r.fmt == EIFMT_BVAL && r.id == 0x4c)
			k->barriers = r.len & 0xff;
		else if (r.fmt == EIFMT_SVAL && r.id == 0x3d && r.len == 12) {
			k->cluster[0] = rd32(r.payload);
			k->cluster[1] = rd32(r.payload + 4);
			k->cluster[2] = rd32(r.payload + 8);
		}
	}
	k->code_bytes = c->sec.v[text].size;
	if ((i = cubin_find_ksection(c, ".nv.shared.", k->name)) >= 0)
		k->shared = c->sec.v[i].size;
}

static int
is_kernel(const Cubin *c, const CSymbol *s)
{
	return (s->info & 15) == STT_FUNC && (s->other & 0x10) && s->shndx && s->shndx < c->sec.n;
}

KernelInfo *
cubin_kernels(const Cubin *c, size_t *n)
{
	size_t i;
	u32 *at;
	KernelInfo *out;

	for (*n = 0, i = 1; i < c->sym.n; i++)
		*n += (size_t)is_kernel(c, &c->sym.v[i]);
	if (!*n)
		return NULL;
	out = xcalloc(*n, sizeof *out);
	at = xcalloc(c->sym.n + 1, sizeof *at);
	for (*n = 0, i = 1; i < c->sym.n; i++)
		if (is_kernel(c, &c->sym.v[i])) {
			out[*n].name = c->sym.v[i].name;
			out[*n].sym = i;
			at[i] = (u32)++*n;
		}
	global_info(c, out, at);
	for (i = 0; i < *n; i++)
		kernel_info(c, &out[i], c->sym.v[out[i].sym].shndx);
	free(at);
	return out;
}

int
cubin_kparam(const Cubin *c, const KernelInfo *k, u32 ordinal, u32 *offset, u32 *size)
{
	int i;
	const CSection *s;
	u64 pos = 0;
	InfoRec r;

	if ((i = cubin_find_ksection(c, ".nv.info.", k->name)) < 0)
		return -1;
	s = &c->sec.v[i];
	while (pos < s->size && info_next(s->data, s->size, &pos, &r, "", "") == 0)
		if (r.fmt == EIFMT_SVAL && r.id == 0x17 && r.len == 12 && rd16(r.payload + 4) == ordinal) {
			*offset = rd16(r.payload + 6);
			*size = rd32(r.payload + 8) >> 18;
			return 0;
		}
	return -1;
}

void
cubin_summary(const Cubin *c, Buf *b)
{
	size_t n, i;
	KernelInfo *k = cubin_kernels(c, &n);
	u32 j;

	for (i = 0; i < n; i++) {
		buf_puts(b, "// kernel "), buf_puts(b, k[i].name);
		put_kv(b, ": ", k[i].regs, 0);
		put_kv(b, " registers, ", k[i].code_bytes, 0);
		put_kv(b, " code bytes, ", k[i].nexits, 0), buf_puts(b, k[i].nexits == 1 ? " exit" : " exits");
		put_kv(b, ", local frame ", k[i].frame, 0);
		put_kv(b, ", min stack ", k[i].min_stack, 0);
		put_kv(b, ", shared ", k[i].shared, 1);
		if (k[i].barriers)
			put_kv(b, ", ", k[i].barriers, 0), buf_puts(b, k[i].barriers == 1 ? " barrier" : " barriers");
		if (k[i].max_threads)
			put_kv(b, ", max ", k[i].max_threads, 0), buf_puts(b, " threads");
		if (k[i].cluster[0]) {
			put_kv(b, ", cluster ", k[i].cluster[0], 0);
			put_kv(b, "x", k[i].cluster[1], 0);
			put_kv(b, "x", k[i].cluster[2], 0);
		}
		if (k[i].maxreg && k[i].maxreg != 255)
			put_kv(b, ", maxreg ", k[i].maxreg, 0);
		buf_putc(b, '\n');
		if (k[i].nparams) {
			put_kv(b, "//   ", k[i].nparams, 0);
			put_kv(b, " params, ", k[i].param_bytes, 0);
			put_kv(b, " bytes at c[0x0][", k[i].param_base, 1), buf_puts(b, "]:");
			for (j = 0; j < k[i].nparams; j++) {
				u32 off, size;

				if (cubin_kparam(c, &k[i], j, &off, &size) == 0)
					put_kv(b, " ", size, 0), put_kv(b, "@", off, 1);
			}
			buf_putc(b, '\n');
		}
	}
	free(k);
}
