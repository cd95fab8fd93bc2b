/* interp_mem.c -- the interpreter's memory: state spaces, the generic
 * address windows (interp.h), bounds and alignment checks.
 *
 * Space addresses: .global addresses are generic addresses of global
 * buffers; .shared, .local, .const and .param addresses are byte offsets
 * in that space (this CTA's shared memory, this thread's local stack, the
 * constant bank, the current frame's parameter block); .shared::cluster
 * addresses below 2^24 are this CTA's, (rank+1) << 24 | offset is CTA
 * `rank` of the cluster (what mapa returns). */
#include <string.h>

#include "ptx/interp_int.h"

#define WIN 0x10000000000ull   /* size of each generic window */

static u8 *
global_ptr(Interp *I, u64 addr, u64 size)
{
	int i = I->gl_last;

	if (i < I->ngl && addr >= I->gl[i].base && addr - I->gl[i].base + size <= I->gl[i].size)
		return I->gl[i].data + (addr - I->gl[i].base);
	for (i = 0; i < I->ngl; i++)
		if (addr >= I->gl[i].base && addr - I->gl[i].base + size <= I->gl[i].size) {
			I->gl_last = i;
			return I->gl[i].data + (addr - I->gl[i].base);
		}
	return NULL;
}

static const char *
sname(int space)
{
	return space == PTX_S_NONE ? "generic" : ptx_space_name(space);
}

static u8 *
cluster_ptr(Interp *I, Thread *t, u64 addr, u64 size)
{
	u64 rank = addr >> 24, off = addr & 0xffffff;
	Cta *c;

	if (rank == 0)
		c = t->cta;
	else if (rank - 1 < (u64)I->csize)
		c = &I->ctas[t->cta->cl * I->csize + (rank - 1)];
	else
		return NULL;
	if (off + size > I->resv + SPEC_RESV)
		return NULL;
	return c->shared + off;
}

int
generic_space(Interp *I, u64 addr)
{
	if (addr >= GW_SHARED && addr < GW_SHARED + WIN)
		return PTX_S_SHARED;
	if (addr >= GW_DSMEM && addr < GW_DSMEM + WIN)
		return PTX_S_SHARED_CLUSTER;
	if (addr >= GW_LOCAL && addr < GW_LOCAL + WIN)
		return PTX_S_LOCAL;
	if (addr >= GW_CONST && addr < GW_CONST + WIN)
		return PTX_S_CONST;
	if (addr >= GW_PARAM && addr < GW_PARAM + WIN)
		return PTX_S_PARAM;
	return PTX_S_GLOBAL;
}

u64
to_generic(Interp *I, Thread *t, int space, u64 addr)
{
	switch (space) {
	case PTX_S_SHARED: return GW_SHARED + addr;
	case PTX_S_SHARED_CLUSTER:
		if (addr >> 24 == 0)
			return GW_SHARED + addr;
		return GW_DSMEM + (((addr >> 24) - 1) << 24) + (addr & 0xffffff);
	case PTX_S_LOCAL: return GW_LOCAL + addr;
	case PTX_S_CONST: return GW_CONST + addr;
	case PTX_S_PARAM: return GW_PARAM + addr;
	default: return addr;
	}
}

u64
from_generic(Interp *I, Thread *t, int space, u64 addr)
{
	switch (space) {
	case PTX_S_SHARED: return addr - GW_SHARED;
	case PTX_S_SHARED_CLUSTER:
		if (addr >= GW_DSMEM && addr < GW_DSMEM + WIN)
			return addr - GW_DSMEM + (1ull << 24);
		return addr - GW_SHARED;
	case PTX_S_LOCAL: return addr - GW_LOCAL;
	case PTX_S_CONST: return addr - GW_CONST;
	case PTX_S_PARAM: return addr - GW_PARAM;
	default: return addr;
	}
}

/* Host pointer for size bytes at addr in space; a clear error if the
 * access is out of bounds or misaligned.  t may be NULL (set-up). */
u8 *
mem_ptr(Interp *I, Thread *t, int space, u64 addr, u64 size, int write)
{
	u8 *p = NULL;
	u64 a = addr;

	if (space == PTX_S_NONE || space == PTX_S_GENERIC) {
		space = generic_space(I, addr);
		a = from_generic(I, t, space, addr);
	}
	if (size > 1 && (addr & (MIN(size, 16) - 1)))
		ierr(I, "misaligned %s %s of %llu bytes at 0x%llx", sname(space), write ? "store" : "load",
		     (unsigned long long)size, (unsigned long long)addr);
	switch (space) {
	case PTX_S_GLOBAL:
		p = global_ptr(I, a, size);
		break;
	case PTX_S_SHARED:
		if (t && a + size <= I->resv + SPEC_RESV && a + size >= a)
			p = t->cta->shared + a;
		break;
	case PTX_S_SHARED_CLUSTER:
		if (t)
			p = cluster_ptr(I, t, a, size);
		break;
	case PTX_S_LOCAL:
		if (t && a + size <= t->local_sp && a + size >= a)
			p = t->local + a;
		break;
	case PTX_S_CONST:
		if (write)
			ierr(I, "store to .const memory at 0x%llx", (unsigned long long)addr);
		if (a + size <= I->constsize && a + size >= a)
			p = I->constmem + a;
		break;
	case PTX_S_PARAM:
		if (!t)
			break;
		if (addr >= GW_PARAM) {       /* generic: the kernel's parameters */
			if (a + size <= I->kparam_size)
				p = t->frames[0].param + a;
		} else if (a + size <= t->fr->fi->param_size && a + size >= a)
			p = t->fr->param + a;
		break;
	}
	I->writes += write;
	if (!p)
		ierr(I, "out-of-bounds %s %s of %llu bytes at 0x%llx", sname(space),
		     write ? "store" : "load", (unsigned long long)size, (unsigned long long)addr);
	return p;
}

u64
mem_ld(Interp *I, Thread *t, int space, u64 addr, int size)
{
	u64 v = 0;

	memcpy(&v, mem_ptr(I, t, space, addr, size, 0), size);
	return v;
}

void
mem_st(Interp *I, Thread *t, int space, u64 addr, int size, u64 v)
{
	memcpy(mem_ptr(I, t, space, addr, size, 1), &v, size);
}
