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
	}
	snprintf(name, sizeof name, ".nv.shared.%s", k->name);
	if ((i = cubin_find_section(c, name)) >= 0)
		k->shared = c->sec.v[i].size;
	(void)text;
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
