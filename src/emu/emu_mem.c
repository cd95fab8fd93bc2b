/* emu_mem.c -- the emulator's memory: global buffers, this CTA's shared
 * memory, each lane's local memory and the generic windows that map onto
 * them, with bounds and alignment checks that stop the run with the
 * address named. */
#include <string.h>

#include "emu/emu_int.h"

#define WIN 0x10000000000ull

static const char *spname[] = {"global", "shared", "local", "generic"};

static u8 *
global_ptr(Emu *E, u64 a, u64 size)
{
	int i = E->gl_last;

	if (i < E->ngl && a >= E->gl[i].base && a - E->gl[i].base + size <= E->gl[i].size)
		return E->gl[i].data + (a - E->gl[i].base);
	for (i = 0; i < E->ngl; i++)
		if (a >= E->gl[i].base && a - E->gl[i].base + size <= E->gl[i].size) {
			E->gl_last = i;
			return E->gl[i].data + (a - E->gl[i].base);
		}
	return NULL;
}

u8 *
emu_mem(Emu *E, Warp *w, int lane, int space, u64 addr, u64 size, int write)
{
	u64 a = addr;
	u8 *p = NULL;
	int sp = space;

	if (sp == MS_GENERIC) {
		if (addr >= GW_SHARED && addr < GW_SHARED + WIN)
			sp = MS_SHARED, a = addr - GW_SHARED;
		else if (addr >= GW_LOCAL && addr < GW_LOCAL + WIN)
			sp = MS_LOCAL, a = addr - GW_LOCAL;
		else if (addr >= GW_PARAM && addr < GW_PARAM + WIN && !write) {   /* constant bank 0: */
			a = addr - GW_PARAM;                                       /* c[0x0][0x198] */
			if (a + size <= E->cbsize[0])
				return E->cb[0] + a;
			sp = MS_GENERIC;
		} else
			sp = MS_GLOBAL;
	}
	if (size > 1 && (addr & (MIN(size, 16) - 1)))
		eerr(E, "misaligned %s %s of %llu bytes at 0x%llx (warp %d lane %d)", spname[space],
		     write ? "store" : "load", (unsigned long long)size, (unsigned long long)addr, w->id, lane);
	switch (sp) {
	case MS_GLOBAL:
		p = global_ptr(E, a, size);
		break;
	case MS_SHARED: {
		/* bits 24 and up: the CTA rank in the cluster (distributed shared;
		   a cooperative launch's CTAs are clusters of 1 run side by side) */
		u64 r = E->coop ? w->rank : a >> 24, off = a & 0xffffff;
		if (r < E->csize && off + size <= E->shared_size)
			p = E->shared + r * E->shared_size + off;
		break;
	}
	case MS_LOCAL:
		if (a + size <= E->local_size && a + size >= a)
			p = E->local + ((u64)w->rank * E->nwarps * 32 + w->tid0 + lane) * E->local_size + a;
		break;
	}
	if (!p)
		eerr(E, "out-of-bounds %s %s of %llu bytes at 0x%llx (warp %d lane %d)", spname[space],
		     write ? "store" : "load", (unsigned long long)size, (unsigned long long)addr, w->id, lane);
	return p;
}
