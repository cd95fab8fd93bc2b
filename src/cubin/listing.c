/* listing.c -- print a Cubin as the text that `openassembler as` reads
 * back: the ELF header, then every section in file order with its header
 * fields and its contents decoded (string tables as strings, symbols,
 * .nv.info attributes by name, relocations, call graph, SASS with control
 * bits and labels, other data as hex).  The syntax is documented in
 * docs/findings-cubin.md ("Listing format"). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cubin/cubin.h"
#include "cubin/elfio.h"
#include "cubin/kinfo.h"
#include "cubin/listing.h"
#include "isa/isa.h"

static const struct {
	u32 type;
	const char *name;
} shtypes[] = {
	{SHT_NULL, "NULL"}, {SHT_PROGBITS, "PROGBITS"}, {SHT_SYMTAB, "SYMTAB"},
	{SHT_STRTAB, "STRTAB"}, {SHT_RELA, "RELA"}, {SHT_NOTE, "NOTE"}, {SHT_NOBITS, "NOBITS"},
	{SHT_REL, "REL"}, {SHT_CUDA_INFO, "CUDA_INFO"}, {SHT_CUDA_CALLGRAPH, "CUDA_CALLGRAPH"},
	{SHT_CUDA_RELOCINFO, "CUDA_RELOCINFO"}, {SHT_CUDA_COMPAT, "CUDA_COMPAT"},
};

const char *
shtype_name(u32 t)
{
	size_t i;

	for (i = 0; i < NELEM(shtypes); i++)
		if (shtypes[i].type == t)
			return shtypes[i].name;
	return NULL;
}

int
shtype_lookup(const char *name, u32 *t)
{
	size_t i;

	for (i = 0; i < NELEM(shtypes); i++)
		if (!strcmp(shtypes[i].name, name)) {
			*t = shtypes[i].type;
			return 0;
		}
	return -1;
}

/* Canonical record format of an attribute id (the format ptxas uses);
 * others are printed with an explicit fmt=. */
int
eiattr_fmt(int id, int compat)
{
	if (compat)
		return id == 0x07 ? EIFMT_HVAL : id == 0x0b ? EIFMT_SVAL : EIFMT_BVAL;
	switch (id) {
	case 0x04: case 0x22: case 0x24: case 0x2a: case 0x2b: case 0x30: case 0x35: case 0x3e:
		return EIFMT_NVAL;
	case 0x4c:
		return EIFMT_BVAL;
	case 0x18: case 0x19: case 0x1b: case 0x38: case 0x50: case 0x5f:
		return EIFMT_HVAL;
	}
	return EIFMT_SVAL;
}

/* Character classes: NAME_CH may appear in a plain name (letters, digits,
 * _ . $ @), LIT_CH in a quoted string as itself (printable ASCII but for
 * " and \).  One table look-up a character: the listing quotes every
 * string table entry and symbol name. */
enum { NAME_CH = 1, LIT_CH = 2 };
static const u8 chclass[256] = {
	[0x20] = 2, 2, 0, 2, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 2,	/*  !"#$%&'()*+,-./ */
	3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2,		/* 0-9 :;<=>? */
	3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,		/* @ A-O */
	3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 2, 0, 2, 2, 3,		/* P-Z [\]^_ */
	2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,		/* ` a-o */
	3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 0,		/* p-z {|}~ DEL */
};

static int
plain_name(const char *s)
{
	if (!*s || isdigit((uchar)*s))	/* (# " - are not name characters) */
		return 0;
	while (chclass[(uchar)*s] & NAME_CH)
		s++;
	return !*s;
}

void
put_quoted(Buf *b, const char *s)
{
	buf_putc(b, '"');
	while (*s) {
		const char *run = s;
		uchar ch;

		while (chclass[(uchar)*s] & LIT_CH)
			s++;
		buf_putn(b, run, (size_t)(s - run));
		if (!(ch = (uchar)*s))
			break;
		if (ch == '"' || ch == '\\')
			buf_printf(b, "\\%c", ch);
		else
			buf_printf(b, "\\x%02x", ch);
		s++;
	}
	buf_putc(b, '"');
}

static void
put_name(Buf *b, const char *s)
{
	if (plain_name(s))
		buf_puts(b, s);
	else
		put_quoted(b, s);
}

/* Which sections a listing names by name: plainly named and the first
 * with the name (the others are #index).  Made once per listing. */
static u8 *
named_sections(const Cubin *c)
{
	u8 *ok = xcalloc(c->sec.n + 1, 1);
	u32 i;

	cubin_first_sections(c, ok);
	for (i = 1; i < c->sec.n; i++)
		ok[i] = ok[i] && plain_name(c->sec.v[i].name);
	return ok;
}

static void
secref(const Listing *L, Buf *b, u32 i)
{
	if (i && i < L->c->sec.n && L->named[i])
		buf_puts(b, L->c->sec.v[i].name);
	else
		buf_putc(b, '#'), buf_putu(b, i);
}

void
symref(const Cubin *c, Buf *b, u64 i)
{
	if (i && i < c->sym.n && plain_name(c->sym.v[i].name) && cubin_find_symbol(c, c->sym.v[i].name) == (int)i)
		buf_puts(b, c->sym.v[i].name);
	else
		buf_putc(b, '#'), buf_putu(b, i);
}

static void
hexbytes(Buf *b, const u8 *p, u64 n)
{
	static const char hex[] = "0123456789abcdef";
	char line[8 + 64 + 1];
	u64 i = 0, z;
	size_t j, m;

	memcpy(line, "\t.byte ", 7);
	while (i < n) {
		for (z = i; z + 8 <= n && !rd64(p + z); z += 8)	/* zero runs: 8 bytes a step */
			;
		for (; z < n && !p[z]; z++)
			;
		if (z - i >= 64 || (z == n && z - i >= 8)) { /* zero runs compactly */
			put_kv(b, "\t.zero ", z - i, 1), buf_putc(b, '\n');
			i = z;
			continue;
		}
		for (m = (size_t)MIN(n - i, 32), j = 0; j < m; j++) {
			line[7 + 2 * j] = hex[p[i + j] >> 4];
			line[8 + 2 * j] = hex[p[i + j] & 15];
		}
		line[7 + 2 * m] = '\n';
		buf_putn(b, line, 8 + 2 * m);
		i += m;
	}
}

/* Comments decoding an NVIDIA note (the bytes follow as .byte lines). */
static void
note_comment(const CSection *s, Buf *b)
{
	const u8 *p = s->data;
	u32 nsz, dsz, type, i;
	const u8 *d;

	if (s->size < 12)
		return;
	nsz = rd32(p);
	dsz = rd32(p + 4);
	type = rd32(p + 8);
	if (nsz > 256 || dsz > s->size || 12 + align_up(nsz, 4) + dsz > s->size)
		return;
	d = p + 12 + align_up(nsz, 4);
	put_kv(b, "\t// note type ", type, 0);
	put_kv(b, ", ", dsz, 0), buf_puts(b, "-byte descriptor");
	if (type == 1000 && dsz >= 8) {
		put_kv(b, ": version ", rd16(d), 0);
		put_kv(b, ", virtual sm_", rd16(d + 2), 0);
		put_kv(b, ", CUDA API ", rd32(d + 4), 0);
	}
	buf_putc(b, '\n');
	if (type != 2000 || dsz < 24)
		return;
	for (i = 1; i < 6; i++) {
		u32 off = rd32(d + 4 * i);
		static const char *const what[] = {"", "object", "tool", "version", "branch", "options"};

		if (24 + (u64)off < dsz && memchr(d + 24 + off, 0, dsz - 24 - off) && d[24 + off]) {
			buf_puts(b, "\t// "), buf_puts(b, what[i]), buf_puts(b, ": ");
			put_quoted(b, (const char *)d + 24 + off);
			buf_putc(b, '\n');
		}
	}
}

/* Comments naming the data objects (symbols) of an allocated section. */
static void
object_comments(const Cubin *c, size_t sec, Buf *b)
{
	size_t i;

	for (i = 1; i < c->sym.n; i++) {
		const CSymbol *y = &c->sym.v[i];

		if (y->shndx == sec && (y->info & 15) == STT_OBJECT) {
			buf_puts(b, "\t// object "), buf_puts(b, y->name);
			put_kv(b, " at ", y->value, 1);
			put_kv(b, ", ", y->size, 1), buf_puts(b, " bytes\n");
		}
	}
}

static void
list_strings(const CSection *s, Buf *b)
{
	u64 off = 0;

	if (!s->size || s->data[s->size - 1]) {
		hexbytes(b, s->data, s->size);
		return;
	}
	while (off < s->size) {
		const char *str = (const char *)s->data + off;

		buf_puts(b, "\t.string ");
		put_quoted(b, str);
		buf_putc(b, '\n');
		off += strlen(str) + 1;
	}
}

static const char *const symtypes[] = {"NOTYPE", "OBJECT", "FUNC", "SECTION"};
static const char *const symbinds[] = {"LOCAL", "GLOBAL", "WEAK"};

static void
list_symbols(const Listing *L, Buf *b)
{
	const Cubin *c = L->c;
	size_t i;

	for (i = 0; i < c->sym.n; i++) {
		const CSymbol *s = &c->sym.v[i];
		int t = s->info & 15, bind = s->info >> 4;

		buf_puts(b, "\t.sym ");
		put_quoted(b, s->name);
		if (t < 4)
			buf_putc(b, ' '), buf_puts(b, symtypes[t]);
		else
			put_kv(b, " type=", (u64)t, 0);
		if (bind < 3)
			buf_putc(b, ' '), buf_puts(b, symbinds[bind]);
		else
			put_kv(b, " bind=", (u64)bind, 0);
		if (s->other)
			put_kv(b, " other=", s->other, 1);
		if (s->shndx && s->shndx < 0xff00) {
			buf_puts(b, " section=");
			secref(L, b, s->shndx);
		} else if (s->shndx) {
			put_kv(b, " section=", s->shndx, 1);
		}
		if (s->value)
			put_kv(b, " value=", s->value, 1);
		if (t == STT_FUNC && s->shndx && s->shndx < c->sec.n && !s->value &&
		    (c->sec.v[s->shndx].flags & SHF_EXECINSTR) && s->size == c->sec.v[s->shndx].size)
			buf_puts(b, " size=auto");
		else if (s->size)
			put_kv(b, " size=", s->size, 1);
		put_kv(b, "\t// #", i, 0), buf_putc(b, '\n');
	}
}

static void
list_relocs(const Cubin *c, const CSection *s, Buf *b)
{
	u64 es = s->type == SHT_RELA ? 24 : 16, i;

	if (s->size % es) {
		hexbytes(b, s->data, s->size);
		return;
	}
	for (i = 0; i < s->size; i += es) {
		const u8 *e = s->data + i;
		u64 info = rd64(e + 8);
		u32 type = (u32)info;
		const char *tn = rcuda_name(type);

		put_kv(b, "\t.reloc ", rd64(e), 1), buf_putc(b, ' ');
		if (tn)
			buf_puts(b, tn);
		else
			buf_putu(b, type);
		buf_putc(b, ' ');
		symref(c, b, info >> 32);
		if (es == 24)
			buf_putc(b, ' '), buf_putd(b, (i64)rd64(e + 16));
		buf_putc(b, '\n');
	}
}

static void
cg_ref(const Cubin *c, Buf *b, i32 v)
{
	if (v > 0 && (u32)v < c->sym.n)
		symref(c, b, v);
	else
		buf_putd(b, v);
}

static void
list_callgraph(const Cubin *c, const CSection *s, Buf *b)
{
	u64 i;

	if (s->size % 8) {
		hexbytes(b, s->data, s->size);
		return;
	}
	for (i = 0; i < s->size; i += 8) {
		buf_puts(b, "\t.edge ");
		cg_ref(c, b, (i32)rd32(s->data + i));
		buf_putc(b, ' ');
		cg_ref(c, b, (i32)rd32(s->data + i + 4));
		buf_putc(b, '\n');
	}
}

/* The REGCOUNT attribute of a symbol in .nv.info, or -1. */
int
regcount_of(const Cubin *c, u32 sym)
{
	int i = cubin_find_section(c, ".nv.info");
	const CSection *s;
	u64 pos = 0;
	InfoRec r;

	if (i < 0)
		return -1;
	s = &c->sec.v[i];
	while (pos < s->size && info_next(s->data, s->size, &pos, &r, "", "") == 0)
		if (r.fmt == EIFMT_SVAL && r.id == 0x2f && r.len == 8 && rd32(r.payload) == sym)
			return (int)rd32(r.payload + 4);
	return -1;
}

static void
list_header(const Listing *L, Buf *b, const CSection *s, u32 i, const char *tn)
{
	const Cubin *c = L->c;

	buf_puts(b, "\n.section ");
	put_name(b, s->name);
	if (tn)
		buf_putc(b, ' '), buf_puts(b, tn);
	else
		put_kv(b, " ", s->type, 1);
	if (s->flags)
		put_kv(b, " flags=", s->flags, 1);
	if (s->link) {
		buf_puts(b, " link=");
		secref(L, b, s->link);
	}
	if (s->flags & SHF_EXECINSTR) {
		if (s->info & 0xffffff) {
			buf_puts(b, " info=");
			symref(c, b, s->info & 0xffffff);
		}
		if ((s->info >> 24) && (u32)regcount_of(c, s->info & 0xffffff) == s->info >> 24)
			buf_puts(b, " regs=auto");
		else if (s->info >> 24)
			put_kv(b, " regs=", s->info >> 24, 0);
	} else if (s->info && ((s->flags & SHF_INFO_LINK) || s->type == SHT_REL || s->type == SHT_RELA)) {
		buf_puts(b, " info=");
		secref(L, b, s->info);
	} else if (s->info) {
		put_kv(b, " info=", s->info, 0);
	}
	put_kv(b, " align=", s->align, 0);
	if (s->entsize)
		put_kv(b, " entsize=", s->entsize, 0);
	if (s->gap)
		put_kv(b, " gap=", s->gap, 1);
	if (sec_nobits(s->type))
		put_kv(b, " size=", s->size, 1);
	put_kv(b, "\t// #", i, 0), buf_putc(b, '\n');
}

static void
list_phdrs(const Listing *L, Buf *b)
{
	const Cubin *c = L->c;
	size_t i;

	if (c->ph.n)
		buf_putc(b, '\n');
	for (i = 0; i < c->ph.n; i++) {
		const CPhdr *p = &c->ph.v[i];

		char rwx[4] = {p->flags & 4 ? 'R' : '-', p->flags & 2 ? 'W' : '-', p->flags & 1 ? 'X' : '-', 0};

		buf_puts(b, ".phdr "), buf_puts(b, p->type == PT_LOAD ? "LOAD" : p->type == PT_PHDR ? "PHDR" : "?");
		buf_putc(b, ' '), buf_puts(b, rwx);
		if (p->type != PT_LOAD && p->type != PT_PHDR)
			put_kv(b, " type=", p->type, 1);
		if (p->flags & ~7u)
			put_kv(b, " flags=", p->flags, 1);
		put_kv(b, " align=", p->align, 0), buf_putc(b, ' ');
		if (p->first == PH_TABLE) {
			buf_puts(b, "phdrs");
		} else {
			secref(L, b, p->first);
			buf_puts(b, " .. ");
			secref(L, b, p->last);
		}
		buf_putc(b, '\n');
	}
}

CodeText *
listing_code(Listing *L, size_t sec)
{
	if (!L->code[sec])
		L->code[sec] = code_text(L->c, L->a, sec);
	return L->code[sec];
}

int
cubin_list(const Cubin *c, const char *path, const ListOpts *o, Buf *b)
{
	size_t i;
	const Arch *a = NULL;
	char an[16];
	Listing L = {c, NULL, NULL, NULL};
	int rc = 0;

	snprintf(an, sizeof an, "sm_%d", cubin_sm(c));
	a = L.a = arch_lookup(an);
	L.code = xcalloc(c->sec.n + 1, sizeof *L.code);
	L.named = named_sections(c);
	buf_puts(b, "// "), buf_puts(b, path), buf_puts(b, ": CUDA ELF for "), buf_puts(b, an);
	buf_puts(b, ", listed by openassembler disasm\n.target "), buf_puts(b, an);
	put_kv(b, "\n.elf type=", c->type, 0);
	put_kv(b, " osabi=", c->osabi, 1);
	put_kv(b, " abiversion=", c->abiversion, 0);
	put_kv(b, " version=", c->version, 0);
	put_kv(b, " flags=", c->flags, 1);
	if (c->entry)
		put_kv(b, " entry=", c->entry, 1);
	if (c->phentsize)
		put_kv(b, " phentsize=", c->phentsize, 0);
	for (i = 0; i < 7; i++)
		if (c->ident_pad[i])
			break;
	if (i < 7) {
		buf_puts(b, " ident=");
		for (i = 0; i < 7; i++)
			buf_printf(b, "%02x", c->ident_pad[i]);
	}
	buf_putc(b, '\n');
	cubin_summary(c, b);
	for (i = 1; i < c->sec.n; i++) {
		const CSection *s = &c->sec.v[i];

		list_header(&L, b, s, i, shtype_name(s->type));
		if (sec_nobits(s->type)) {
			object_comments(c, i, b);
			continue;
		}
		if ((int)i == c->symtab)
			list_symbols(&L, b);
		else if (s->type == SHT_STRTAB)
			list_strings(s, b);
		else if (s->type == SHT_CUDA_INFO || s->type == SHT_CUDA_COMPAT) {
			if ((rc = list_info(&L, path, s, b)) < 0)
				break;
		} else if (s->type == SHT_REL || s->type == SHT_RELA)
			list_relocs(c, s, b);
		else if (s->type == SHT_CUDA_CALLGRAPH)
			list_callgraph(c, s, b);
		else if ((s->flags & SHF_EXECINSTR) && s->size % 16 == 0)
			list_code_text(c, a, i, a && !o->raw ? listing_code(&L, i) : NULL, o, b);
		else {
			if (s->type == SHT_NOTE)
				note_comment(s, b);
			if (s->flags & SHF_ALLOC)
				object_comments(c, i, b);
			hexbytes(b, s->data, s->size);
		}
	}
	for (i = 0; i < c->sec.n; i++)
		code_text_free(L.code[i]);
	free(L.code);
	if (!rc)
		list_phdrs(&L, b);
	free(L.named);
	return rc;
}
