/* build_data.c -- module-scope variables in a cubin made by
 * cubin_build_module(), laid out as ptxas 13 does (tests/kernels/
 * const_global_mem):
 *
 *   .const  variables: constant bank 3, section .nv.constant3 (their
 *           initial bytes, zeros when uninitialised), an OBJECT symbol each;
 *   .global variables: .nv.global.init (initialised, PROGBITS) or
 *           .nv.global (NOBITS), an OBJECT symbol each; their addresses
 *           sit in constant bank 4 (.nv.constant4, 8 bytes per variable),
 *           filled by R_CUDA_64 relocations (.rela.nv.constant4 on sm_90,
 *           .rel.nv.constant4 on sm_80) that the driver (and our emulator)
 *           apply at load time.
 *   addresses in initializers: generic addresses of variables (+addend)
 *           in .nv.global.init / .nv.constant3 bytes, by relocations
 *           R_CUDA_G64 (whole) or R_CUDA_8_<8k> (one byte, mask forms)
 *           against the variable's symbol (.rela.<section>; on sm_80
 *           .rel.<section> for those without addend, as ptxas); a
 *           function's address is a constant (its slot in bank 2).
 *   externs:  (vprintf, malloc, free, __assertfail) an 8-byte slot each in
 *           bank 4 too, before the variables', relocated against the
 *           undefined FUNC symbol cubin_build_module made for it.
 *
 * The caller gives each variable's offset (bank 3 offset, or the offset
 * of its slot in bank 4 and in its data section); the sections are added
 * after the kernels' with two more LOAD program headers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cubin/build_data.h"

static int
add_sym(Cubin *c, const char *name, int bind, int type, int shndx, u64 value, u64 size)
{
	CSymbol s = {0};

	s.name = arena_strdup(&c->arena, name);
	s.info = (u8)(bind << 4 | type);
	s.shndx = (u16)shndx;
	s.value = value;
	s.size = size;
	vec_push(&c->sym, s);
	return (int)c->sym.n - 1;
}

static void
add_phdr(Cubin *c, int flags, int first, int last)
{
	CPhdr p = {0};

	p.type = PT_LOAD;
	p.flags = (u32)flags;
	p.align = 8;
	p.first = first;
	p.last = last;
	vec_push(&c->ph, p);
}

static u32
max_align(const ModVar *v, size_t n, int space, int init)
{
	u32 al = 4;
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i].space == space && (space == MV_CONST || !v[i].init == !init) && v[i].align > al)
			al = v[i].align;
	return al;
}

/* A data section of the variables of one kind: bytes at their offsets. */
static int
data_section(Cubin *c, const char *name, u32 type, u64 flags, const ModVar *v, size_t n, int space, int init)
{
	u64 size = 0;
	size_t i;
	int s, k;
	u8 *d;

	for (i = 0; i < n; i++)
		if (v[i].space == space && (space == MV_CONST || !v[i].init == !init) && v[i].off + v[i].size > size)
			size = v[i].off + v[i].size;
	if (!size)
		return 0;
	s = cubin_add_section(c, name, type, flags, max_align(v, n, space, init));
	if (type == SHT_NOBITS) {
		c->sec.v[s].size = size;
		return s;
	}
	d = xcalloc(size, 1);
	for (i = 0; i < n; i++)
		if (v[i].space == space && (space == MV_CONST || !v[i].init == !init) && v[i].init) {
			memcpy(d + v[i].off, v[i].init, v[i].size);
			for (k = 0; k < v[i].nrel; k++)
				if (v[i].rel[k].type == MR_VALUE)
					memcpy(d + v[i].off + v[i].rel[k].at, &v[i].rel[k].addend, 8);
		}
	cubin_set_data(c, s, d, size);
	free(d);
	return s;
}

static void
put64(Buf *b, u64 x)
{
	int k;

	for (k = 0; k < 8; k++)
		buf_putc(b, (char)(x >> (8 * k)));
}

/* The relocations of the initial bytes of data section sec (of the
 * variables of one kind), symi[] the variables' symbols: on sm_90 a RELA
 * section; on sm_80 a REL one of those without addend (rela 0) or a RELA
 * one of the others (rela 1). */
static void
init_relocs(Cubin *c, int s90, int sec, int rela, const ModVar *v, size_t n, int space, int init, const int *symi)
{
	char name[64];
	size_t i;
	int k, s;
	Buf r = {0};

	for (i = 0; i < n; i++) {
		if (v[i].space != space || (space != MV_CONST && !v[i].init != !init))
			continue;
		for (k = 0; k < v[i].nrel; k++) {
			const ModRel *m = &v[i].rel[k];
			if (m->type == MR_VALUE || (!s90 && (m->addend != 0) != rela))
				continue;
			put64(&r, v[i].off + m->at);
			put64(&r, (u64)symi[m->var] << 32 | m->type);
			if (rela)
				put64(&r, (u64)m->addend);
		}
	}
	if (r.n) {
		str_printf(name, sizeof name, "%s%s", rela ? ".rela" : ".rel", c->sec.v[sec].name);
		s = cubin_add_section(c, name, rela ? SHT_RELA : SHT_REL, SHF_INFO_LINK, 8);
		cubin_set_data(c, s, r.s, r.n);
		c->sec.v[s].link = (u32)c->symtab;
		c->sec.v[s].info = (u32)sec;
		c->sec.v[s].entsize = rela ? 24 : 16;
	}
	buf_free(&r);
}

int
cubin_add_data(Cubin *c, const ModVar *v, size_t n, int sm)
{
	int s90 = sm >= 90, c3 = 0, c4 = 0, rel = 0, gi = 0, gn = 0, k, *symi;
	size_t i, nglob = 0;
	Buf r = {0};

	if (!n)
		return 0;
	for (i = 0; i < n; i++) {
		if (v[i].space != MV_CONST && v[i].space != MV_GLOBAL && v[i].space != MV_EXTERN)
			return -1;
		if (v[i].space != MV_CONST)
			nglob++;
	}
	if (nglob)
		rel = cubin_add_section(c, s90 ? ".rela.nv.constant4" : ".rel.nv.constant4", s90 ? SHT_RELA : SHT_REL,
					SHF_INFO_LINK, 8);
	c3 = data_section(c, ".nv.constant3", SHT_PROGBITS, SHF_ALLOC, v, n, MV_CONST, 0);
	if (nglob) {
		u8 *z = xcalloc(8 * nglob, 1);
		c4 = cubin_add_section(c, ".nv.constant4", SHT_PROGBITS, SHF_ALLOC, 8);
		cubin_set_data(c, c4, z, 8 * nglob);
		free(z);
	}
	gi = data_section(c, ".nv.global.init", SHT_PROGBITS, SHF_WRITE | SHF_ALLOC, v, n, MV_GLOBAL, 1);
	gn = data_section(c, ".nv.global", SHT_NOBITS, SHF_WRITE | SHF_ALLOC, v, n, MV_GLOBAL, 0);
	symi = xcalloc(n, sizeof *symi);
	if (c3)
		add_sym(c, ".nv.constant3", STB_LOCAL, STT_SECTION, c3, 0, 0);
	if (gi)
		add_sym(c, ".nv.global.init", STB_LOCAL, STT_SECTION, gi, 0, 0);
	if (gn)
		add_sym(c, ".nv.global", STB_LOCAL, STT_SECTION, gn, 0, 0);
	if (c4)
		add_sym(c, ".nv.constant4", STB_LOCAL, STT_SECTION, c4, 0, 0);
	for (i = 0; i < n; i++) {
		int sh = v[i].space == MV_CONST ? c3 : v[i].init ? gi : gn;
		if (v[i].space == MV_EXTERN) {   /* the module's undefined FUNC symbol */
			for (k = 0; k < (int)c->sym.n && strcmp(c->sym.v[k].name, v[i].name); k++)
				;
			if (k == (int)c->sym.n) {
				free(symi);
				buf_free(&r);
				return -1;
			}
			symi[i] = k;
			continue;
		}
		symi[i] = add_sym(c, v[i].name, v[i].visible ? STB_GLOBAL : STB_LOCAL, STT_OBJECT, sh, v[i].off,
				  v[i].size);
	}
	for (i = 0; i < n; i++) {
		if (v[i].space == MV_CONST)
			continue;
		for (k = 0; k < 8; k++)
			buf_putc(&r, (char)(v[i].slot >> (8 * k)));
		for (k = 0; k < 8; k++)
			buf_putc(&r, (char)(((u64)symi[i] << 32 | 2) >> (8 * k))); /* R_CUDA_64 */
		if (s90)
			for (k = 0; k < 8; k++)
				buf_putc(&r, 0);
	}
	if (rel) {
		cubin_set_data(c, rel, r.s, r.n);
		c->sec.v[rel].link = (u32)c->symtab;
		c->sec.v[rel].info = (u32)c4;
		c->sec.v[rel].entsize = s90 ? 24 : 16;
	}
	buf_free(&r);
	if (c3 || c4)
		add_phdr(c, 4, c3 ? c3 : c4, c4 ? c4 : c3);
	if (gi || gn)
		add_phdr(c, 6, gi ? gi : gn, gn ? gn : gi);
	for (k = s90; k < 2; k++) {
		if (c3)
			init_relocs(c, s90, c3, k, v, n, MV_CONST, 0, symi);
		if (gi)
			init_relocs(c, s90, gi, k, v, n, MV_GLOBAL, 1, symi);
	}
	free(symi);
	return 0;
}
