/* kinfo.c -- per-kernel facts gathered from a cubin's attributes: the
 * numbers a loader or a runner needs (registers, stack, parameter bytes,
 * static shared memory, thread limits). */
#include <string.h>

#include "cubin/elfio.h"
#include "cubin/kinfo.h"

static void
global_info(const Cubin *c, KernelInfo *k, u32 sym)
{
	int i = cubin_find_section(c, ".nv.info");
	const CSection *s;
	u64 pos = 0;
	InfoRec r;

	if (i < 0)
		return;
	s = &c->sec.v[i];
	while (pos < s->size && info_next(s->data, s->size, &pos, &r, "", "") == 0)
		if (r.fmt == EIFMT_SVAL && r.len == 8 && rd32(r.payload) == sym) {
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
	char name[1024];
	int i;
	const CSection *s;
	u64 pos = 0;
	InfoRec r;

	snprintf(name, sizeof name, ".nv.info.%s", k->name);
	if ((i = cubin_find_section(c, name)) < 0)
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
	snprintf(name, sizeof name, ".nv.shared.%s", k->name);
	if ((i = cubin_find_section(c, name)) >= 0)
		k->shared = c->sec.v[i].size;
}

size_t
cubin_kernels(const Cubin *c, KernelInfo *out, size_t max)
{
	size_t i, n = 0;

	for (i = 1; i < c->sym.n; i++) {
		const CSymbol *s = &c->sym.v[i];
		KernelInfo k;

		if ((s->info & 15) != STT_FUNC || !(s->other & 0x10) || !s->shndx || s->shndx >= c->sec.n)
			continue;
		memset(&k, 0, sizeof k);
		k.name = s->name;
		k.sym = i;
		global_info(c, &k, i);
		kernel_info(c, &k, s->shndx);
		if (n < max)
			out[n] = k;
		n++;
	}
	return n;
}

int
cubin_kparam(const Cubin *c, const KernelInfo *k, u32 ordinal, u32 *offset, u32 *size)
{
	char name[1024];
	int i;
	const CSection *s;
	u64 pos = 0;
	InfoRec r;

	snprintf(name, sizeof name, ".nv.info.%s", k->name);
	if ((i = cubin_find_section(c, name)) < 0)
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
	KernelInfo k[64];
	size_t n = cubin_kernels(c, k, NELEM(k)), i;
	u32 j;

	for (i = 0; i < n && i < NELEM(k); i++) {
		buf_printf(b, "// kernel %s: %u registers, %llu code bytes, %u exit%s", k[i].name, k[i].regs,
			   (unsigned long long)k[i].code_bytes, k[i].nexits, k[i].nexits == 1 ? "" : "s");
		buf_printf(b, ", local frame %u, min stack %u, shared 0x%llx", k[i].frame, k[i].min_stack,
			   (unsigned long long)k[i].shared);
		if (k[i].barriers)
			buf_printf(b, ", %u barrier%s", k[i].barriers, k[i].barriers == 1 ? "" : "s");
		if (k[i].max_threads)
			buf_printf(b, ", max %u threads", k[i].max_threads);
		if (k[i].cluster[0])
			buf_printf(b, ", cluster %ux%ux%u", k[i].cluster[0], k[i].cluster[1], k[i].cluster[2]);
		if (k[i].maxreg && k[i].maxreg != 255)
			buf_printf(b, ", maxreg %u", k[i].maxreg);
		buf_putc(b, '\n');
		if (k[i].nparams) {
			buf_printf(b, "//   %u params, %u bytes at c[0x0][0x%x]:", k[i].nparams, k[i].param_bytes,
				   k[i].param_base);
			for (j = 0; j < k[i].nparams && j < 64; j++) {
				u32 off, size;

				if (cubin_kparam(c, &k[i], j, &off, &size) == 0)
					buf_printf(b, " %u@0x%x", size, off);
			}
			buf_putc(b, '\n');
		}
	}
	if (n > NELEM(k))
		buf_printf(b, "// ... and %zu more kernels\n", n - NELEM(k));
}
