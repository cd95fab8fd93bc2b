/* read.c -- parse a cubin (ELF64, little-endian, EM_CUDA) into a Cubin.
 * Every offset and size is checked against the file before use; bad
 * input gets "path: error: what" and -1, never an out-of-bounds read. */
#include <string.h>

#include "cubin/cubin.h"
#include "cubin/elfio.h"

#define MAXSEC 65280u   /* below SHN_LORESERVE */
#define MAXSYM (1u << 22)

static int
bad(const char *path, const char *fmt, ...)
{
	va_list ap;
	Buf b = {0};

	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	diag(path, "%s", b.s);
	buf_free(&b);
	return -1;
}

static int
in_file(u64 off, u64 len, size_t n)
{
	return off <= n && len <= n - off;
}

static int
read_header(Cubin *c, const char *path, const u8 *p, size_t n, u64 *shoff,
	    u32 *shnum, u32 *shstrndx, u64 *phoff, u32 *phnum)
{
	if (n < 64)
		return bad(path, "truncated file: %zu bytes, an ELF64 header needs 64", n);
	if (memcmp(p, "\177ELF", 4))
		return bad(path, "not an ELF file (bad magic)");
	if (p[4] != 2 || p[5] != 1)
		return bad(path, "not a 64-bit little-endian ELF file (class %d, data %d)", p[4], p[5]);
	c->osabi = p[7];
	c->abiversion = p[8];
	memcpy(c->ident_pad, p + 9, 7);
	c->type = rd16(p + 16);
	c->machine = rd16(p + 18);
	if (c->machine != EM_CUDA)
		return bad(path, "not a CUDA ELF file (e_machine %u, want 190)", c->machine);
	c->version = rd32(p + 20);
	c->entry = rd64(p + 24);
	*phoff = rd64(p + 32);
	*shoff = rd64(p + 40);
	c->flags = rd32(p + 48);
	if (rd16(p + 52) != 64)
		return bad(path, "bad e_ehsize %u", rd16(p + 52));
	*phnum = rd16(p + 56);
	c->phentsize = rd16(p + 54);
	if (c->phentsize == (*phnum ? 56 : 0))
		c->phentsize = 0;
	*shnum = rd16(p + 60);
	*shstrndx = rd16(p + 62);
	if (*phnum && rd16(p + 54) != 56)
		return bad(path, "bad e_phentsize %u", rd16(p + 54));
	if (*shnum && rd16(p + 58) != 64)
		return bad(path, "bad e_shentsize %u", rd16(p + 58));
	if (*shnum == 0 || *shnum > MAXSEC)
		return bad(path, "bad section count %u", *shnum);
	if (!in_file(*shoff, (u64)*shnum * 64, n))
		return bad(path, "section header table (offset 0x%llx, %u entries) is past the end of the file (%zu bytes)",
			   (unsigned long long)*shoff, *shnum, n);
	if (!in_file(*phoff, (u64)*phnum * 56, n))
		return bad(path, "program header table (offset 0x%llx, %u entries) is past the end of the file",
			   (unsigned long long)*phoff, *phnum);
	if (*shstrndx >= *shnum)
		return bad(path, "section name table index %u out of range", *shstrndx);
	return 0;
}

/* A NUL-terminated string at off inside a string section, or NULL. */
static const char *
str_at(const CSection *s, u64 off)
{
	if (!s || s->type != SHT_STRTAB || off >= s->size)
		return NULL;
	if (!memchr(s->data + off, 0, s->size - off))
		return NULL;
	return (const char *)s->data + off;
}

static int
read_sections(Cubin *c, const char *path, const u8 *p, size_t n, u64 shoff, u32 shnum, u32 shstrndx)
{
	u32 i;

	for (i = 0; i < shnum; i++) {
		const u8 *h = p + shoff + 64 * (u64)i;
		CSection s = {0};

		s.name_off = rd32(h);
		s.type = rd32(h + 4);
		s.flags = rd64(h + 8);
		if (rd64(h + 16))
			return bad(path, "section %u: nonzero sh_addr is not supported", i);
		s.offset = rd64(h + 24);
		s.size = rd64(h + 32);
		s.link = rd32(h + 40);
		s.info = rd32(h + 44);
		s.align = rd64(h + 48);
		s.entsize = rd64(h + 56);
		if (s.align > 4096 || (s.align & (s.align - 1)))
			return bad(path, "section %u: bad alignment %llu", i, (unsigned long long)s.align);
		if (!sec_nobits(s.type) && s.type != SHT_NULL) {
			if (!in_file(s.offset, s.size, n))
				return bad(path, "section %u: data (offset 0x%llx, size 0x%llx) is past the end of the file (%zu bytes)",
					   i, (unsigned long long)s.offset, (unsigned long long)s.size, n);
			s.data = arena_alloc(&c->arena, s.size + 1);
			memcpy(s.data, p + s.offset, s.size);
		} else if (sec_nobits(s.type) && s.size > (1ull << 40)) {
			return bad(path, "section %u: absurd size 0x%llx", i, (unsigned long long)s.size);
		} else if (s.type == SHT_NULL && (i || s.size || s.offset)) {
			if (i)
				return bad(path, "section %u has type SHT_NULL", i);
		}
		if ((s.link >= shnum && s.link) || (s.flags & SHF_INFO_LINK && s.info >= shnum))
			return bad(path, "section %u: link/info index out of range", i);
		vec_push(&c->sec, s);
	}
	if (c->sec.v[shstrndx].type != SHT_STRTAB)
		return bad(path, "section name table (section %u) is not a string table", shstrndx);
	for (i = 0; i < shnum; i++) {
		const char *nm = str_at(&c->sec.v[shstrndx], c->sec.v[i].name_off);

		if (!nm)
			return bad(path, "section %u: name offset 0x%x is outside the name table", i, c->sec.v[i].name_off);
		c->sec.v[i].name = nm;
	}
	c->shstrtab = shstrndx;
	return 0;
}

/* Sections must not overlap each other or the headers, and gaps must hold
 * zeros, since the writer derives offsets from order and alignment. */
static int
check_layout(Cubin *c, const char *path, const u8 *p, u64 shoff, u32 shnum)
{
	u64 pos = 64, a;
	size_t i;

	for (i = 1; i < c->sec.n; i++) {
		CSection *s = &c->sec.v[i];
		u64 start, j;

		a = s->align ? s->align : 1;
		start = (pos + a - 1) / a * a;
		if (s->offset < start)
			return bad(path, "section %zu (%s): offset 0x%llx overlaps the previous section or is misaligned",
				   i, s->name, (unsigned long long)s->offset);
		if (s->offset % a)
			return bad(path, "section %zu (%s): offset 0x%llx is not %llu-aligned", i, s->name,
				   (unsigned long long)s->offset, (unsigned long long)a);
		if (sec_nobits(s->type)) {
			/* ptxas places NOBITS at the aligned current position */
			s->gap = s->offset - start;
			pos = s->offset;
			continue;
		}
		for (j = pos; j < s->offset; j++)
			if (p[j])
				return bad(path, "section %zu (%s): nonzero bytes before it at 0x%llx", i, s->name,
					   (unsigned long long)j);
		s->gap = s->offset - start;
		pos = s->offset + s->size;
	}
	if (shoff != (pos + 7) / 8 * 8)
		return bad(path, "section header table at 0x%llx is not right after the last section (0x%llx); unsupported layout",
			   (unsigned long long)shoff, (unsigned long long)pos);
	return 0;
}

static int
read_symbols(Cubin *c, const char *path)
{
	size_t i, k, nsym;
	CSection *st, *str;

	for (i = 1; i < c->sec.n; i++)
		if (c->sec.v[i].type == SHT_SYMTAB) {
			if (c->symtab)
				return bad(path, "more than one symbol table");
			c->symtab = i;
		}
	if (!c->symtab)
		return 0;
	st = &c->sec.v[c->symtab];
	if (st->entsize != 24 || st->size % 24)
		return bad(path, "symbol table: bad entry size %llu or size 0x%llx",
			   (unsigned long long)st->entsize, (unsigned long long)st->size);
	nsym = st->size / 24;
	if (nsym > MAXSYM)
		return bad(path, "symbol table: absurd count %zu", nsym);
	if (!st->link || st->link >= c->sec.n || c->sec.v[st->link].type != SHT_STRTAB)
		return bad(path, "symbol table: sh_link %u is not a string table", st->link);
	c->strtab = st->link;
	str = &c->sec.v[c->strtab];
	for (k = 0; k < nsym; k++) {
		const u8 *e = st->data + 24 * k;
		CSymbol s;

		s.name_off = rd32(e);
		s.info = e[4];
		s.other = e[5];
		s.shndx = rd16(e + 6);
		s.value = rd64(e + 8);
		s.size = rd64(e + 16);
		s.name = str_at(str, s.name_off);
		if (!s.name)
			return bad(path, "symbol %zu: name offset 0x%x is outside the string table", k, s.name_off);
		if (s.shndx >= c->sec.n && s.shndx < 0xff00)
			return bad(path, "symbol %zu (%s): section index %u out of range", k, s.name, s.shndx);
		vec_push(&c->sym, s);
	}
	return 0;
}

/* Which section range does a program header cover?  Sections that match
 * the segment's write flag, from the first at p_offset to the last that
 * starts inside it (see docs/findings-cubin.md). */
static int
read_phdrs(Cubin *c, const char *path, const u8 *p, size_t n, u64 phoff, u32 phnum, u64 shoff)
{
	u32 i;

	for (i = 0; i < phnum; i++) {
		const u8 *h = p + phoff + 56 * (u64)i;
		CPhdr ph = {0};
		size_t k;
		int w;

		ph.type = rd32(h);
		ph.flags = rd32(h + 4);
		ph.offset = rd64(h + 8);
		if (rd64(h + 16) || rd64(h + 24))
			return bad(path, "program header %u: nonzero addresses are not supported", i);
		ph.filesz = rd64(h + 32);
		ph.memsz = rd64(h + 40);
		ph.align = rd64(h + 48);
		ph.first = ph.last = -2;
		if (!in_file(ph.offset, ph.filesz, n))
			return bad(path, "program header %u: extent is past the end of the file", i);
		if (ph.offset == phoff && ph.filesz == 56 * (u64)phnum && phoff > shoff) {
			ph.first = ph.last = PH_TABLE;
			vec_push(&c->ph, ph);
			continue;
		}
		w = (ph.flags & 2) != 0;
		for (k = 1; k < c->sec.n; k++) {
			CSection *s = &c->sec.v[k];

			if (!(s->flags & SHF_ALLOC) || ((s->flags & SHF_WRITE) != 0) != w)
				continue;
			if (ph.first < 0 && s->offset == ph.offset)
				ph.first = k;
			if (ph.first >= 0 && s->offset >= ph.offset &&
			    (s->offset < ph.offset + ph.filesz ||
			     (s->offset == ph.offset + ph.filesz && (sec_nobits(s->type) || !s->size))))
				ph.last = k;
		}
		if (ph.first < 0 || ph.last < 0)
			return bad(path, "program header %u: offset 0x%llx is not the start of an allocated section",
				   i, (unsigned long long)ph.offset);
		vec_push(&c->ph, ph);
	}
	for (i = 0; i < phnum; i++) {
		CPhdr p2 = c->ph.v[i];

		cubin_phdr_extent(c, &p2, phoff);
		if (p2.offset != c->ph.v[i].offset || p2.filesz != c->ph.v[i].filesz || p2.memsz != c->ph.v[i].memsz)
			return bad(path, "program header %u: extent (offset 0x%llx, filesz 0x%llx, memsz 0x%llx) does not match its sections; unsupported layout",
				   i, (unsigned long long)c->ph.v[i].offset, (unsigned long long)c->ph.v[i].filesz,
				   (unsigned long long)c->ph.v[i].memsz);
	}
	return 0;
}

int
cubin_read(Cubin *c, const char *path, const u8 *p, size_t n)
{
	u64 shoff = 0, phoff = 0;
	u32 shnum = 0, shstrndx = 0, phnum = 0;

	cubin_init(c);
	if (read_header(c, path, p, n, &shoff, &shnum, &shstrndx, &phoff, &phnum) < 0)
		return -1;
	if (read_sections(c, path, p, n, shoff, shnum, shstrndx) < 0)
		return -1;
	if (shstrndx != 1)
		return bad(path, "section name table is section %u; only 1 is supported", shstrndx);
	if (check_layout(c, path, p, shoff, shnum) < 0)
		return -1;
	if (phnum && phoff != shoff + 64 * (u64)shnum)
		return bad(path, "program header table at 0x%llx is not right after the section headers; unsupported layout",
			   (unsigned long long)phoff);
	if (read_symbols(c, path) < 0)
		return -1;
	return read_phdrs(c, path, p, n, phoff, phnum, shoff);
}
