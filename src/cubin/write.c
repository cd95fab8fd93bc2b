/* write.c -- lay out a Cubin and serialise it the way ptxas 13 does:
 * ELF header, section contents in index order (each at its alignment,
 * plus the recorded gap), the section header table 8-aligned right after,
 * then the program header table.  Also small model helpers. */
#include <stdlib.h>
#include <string.h>

#include "cubin/cubin.h"
#include "cubin/elfio.h"

/* Name -> first index of a section or symbol with that name, for
 * cubin_find_*: an open-addressing table of index + 1, grown with the
 * table it covers (entries are only ever appended; a hit is checked
 * against the name).  Linear searches made listing a module of N kernels
 * O(N^2). */
typedef struct {
	int *slot;
	u32 cap, n;     /* slots (a power of two), entries indexed */
} NameIdx;
struct CubinNames {
	NameIdx sec, sym;
};

void
cubin_init(Cubin *c)
{
	memset(c, 0, sizeof *c);
}

/* The index of c, made on the first look-up: a cache, so it is made
 * through a const Cubin (c->names is the only member written). */
static struct CubinNames *
names_of(const Cubin *c)
{
	if (!c->names)
		((Cubin *)c)->names = xcalloc(1, sizeof *c->names);
	return c->names;
}

static const char *
name_at(const Cubin *c, int sym, size_t i)
{
	return sym ? c->sym.v[i].name : c->sec.v[i].name;
}

/* The slot of the first indexed entry named name, or the empty slot
 * where it would go. */
static int *
idx_slot(const Cubin *c, const NameIdx *x, int sym, const char *name)
{
	u32 j;

	for (j = fnv1a32(name, strlen(name)) & (x->cap - 1); x->slot[j]; j = (j + 1) & (x->cap - 1))
		if (!strcmp(name_at(c, sym, (size_t)x->slot[j] - 1), name))
			break;
	return &x->slot[j];
}

/* Index the entries appended since the last look-up (sections from 1 on:
 * never section 0). */
static void
idx_update(const Cubin *c, NameIdx *x, int sym, size_t count)
{
	size_t i = x->n;
	int *sl;

	if (2 * count >= x->cap) {	/* grow: index every entry again */
		u32 cap = x->cap ? x->cap : 64;
		while (2 * count >= cap)
			cap *= 2;
		free(x->slot);
		x->slot = xcalloc(cap, sizeof *x->slot);
		x->cap = cap;
		i = 0;
	}
	for (; i < count; i++) {
		const char *nm = name_at(c, sym, i);
		if (nm && (sym || i) && !*(sl = idx_slot(c, x, sym, nm)))
			*sl = (int)i + 1;
	}
	x->n = (u32)count;
}

/* The first section or symbol named name, -1. */
static int
idx_find(const Cubin *c, NameIdx *x, int sym, size_t count, const char *name)
{
	int *sl;

	idx_update(c, x, sym, count);
	sl = idx_slot(c, x, sym, name);
	return *sl ? *sl - 1 : -1;
}

void
cubin_free(Cubin *c)
{
	if (c->names) {
		free(c->names->sec.slot);
		free(c->names->sym.slot);
		free(c->names);
		c->names = NULL;
	}
	arena_free(&c->arena);
	vec_free(&c->sec);
	vec_free(&c->sym);
	vec_free(&c->ph);
}

int
cubin_sm(const Cubin *c)
{
	return (c->flags >> 8) & 0xff;
}

int
cubin_find_section(const Cubin *c, const char *name)
{
	return idx_find(c, &names_of(c)->sec, 0, c->sec.n, name);
}

void
cubin_first_sections(const Cubin *c, u8 *first)
{
	NameIdx *x = &names_of(c)->sec;
	u32 j;

	idx_update(c, x, 0, c->sec.n);
	for (j = 0; j < x->cap; j++)
		if (x->slot[j])
			first[x->slot[j] - 1] = 1;
}

int
cubin_find_ksection(const Cubin *c, const char *prefix, const char *kname)
{
	size_t n = strlen(prefix);
	char *name = xmalloc(n + strlen(kname) + 1);
	int i;

	memcpy(name, prefix, n);
	strcpy(name + n, kname);
	i = cubin_find_section(c, name);
	free(name);
	return i;
}

int
cubin_find_symbol(const Cubin *c, const char *name)
{
	return idx_find(c, &names_of(c)->sym, 1, c->sym.n, name);
}

void
cubin_set_data(Cubin *c, int sec, const void *p, u64 n)
{
	CSection *s = &c->sec.v[sec];

	s->data = arena_alloc(&c->arena, n + 1);
	if (n)
		memcpy(s->data, p, n);
	s->size = n;
}

int
cubin_add_section(Cubin *c, const char *name, u32 type, u64 flags, u64 align)
{
	return cubin_add_section_ref(c, arena_strdup(&c->arena, name), type, flags, align);
}

int
cubin_add_section_ref(Cubin *c, const char *name, u32 type, u64 flags, u64 align)
{
	CSection s = {0};

	if (!c->sec.n)
		vec_push(&c->sec, s); /* the null section */
	s.name = name;
	s.type = type;
	s.flags = flags;
	s.align = align;
	s.data = sec_nobits(type) ? NULL : arena_alloc(&c->arena, 1);
	vec_push(&c->sec, s);
	return c->sec.n - 1;
}

/* A string table being filled: its bytes and each string's offset and
 * length, so that a name is found without rescanning the table's bytes
 * and added without copying them (both were per name).  The offsets are
 * those of the first string equal to the name, as a scan from 0 finds.
 * Up to SMALL strings are searched linearly (a cubin's two tables hold
 * some 10-30 names: hashing each cost more than comparing lengths); a
 * larger table is hashed. */
enum { SMALL = 32 };
typedef struct {
	Buf b;
	u32 (*str)[2];	/* offset, length of each NUL-terminated string */
	size_t n;
	long open;	/* a last string without its NUL: its offset, else -1 */
	u32 *slot;	/* hash of the strings (past SMALL): index + 1 of the first of each */
	u32 cap;
} StrTab;

/* The slot of the first string equal to p[0..n), or of the empty slot
 * where it would go (t->cap > 0). */
static u32 *
strtab_slot(const StrTab *t, const char *p, size_t n)
{
	u32 j;

	for (j = fnv1a32(p, n) & (t->cap - 1); t->slot[j]; j = (j + 1) & (t->cap - 1)) {
		const u32 *e = t->str[t->slot[j] - 1];
		if (e[1] == n && !memcmp(t->b.s + e[0], p, n))
			break;
	}
	return &t->slot[j];
}

static void
strtab_add(StrTab *t, u64 off, u64 len)
{
	size_t i;

	if (t->n % 64 == 0)
		t->str = xrealloc(t->str, (t->n + 64) * sizeof *t->str);
	t->str[t->n][0] = (u32)off;
	t->str[t->n++][1] = (u32)len;
	if (t->n <= SMALL)
		return;
	if (2 * t->n >= t->cap) {	/* grow: index every string again */
		free(t->slot);
		t->cap = t->cap ? 2 * t->cap : 256;
		t->slot = xcalloc(t->cap, sizeof *t->slot);
		i = 0;
	} else {
		i = t->n - 1;
	}
	for (; i < t->n; i++) {
		u32 *sl = strtab_slot(t, t->b.s + t->str[i][0], t->str[i][1]);
		if (!*sl)
			*sl = (u32)i + 1;
	}
}

static void
strtab_open(StrTab *t, const CSection *s)
{
	u64 off = 0;

	memset(t, 0, sizeof *t);
	t->open = -1;
	buf_grow(&t->b, s->size + 512);   /* a built cubin's names at once: no regrowing */
	buf_putn(&t->b, s->data, s->size);
	while (off < s->size) {
		const u8 *e = memchr(s->data + off, 0, s->size - off);

		if (!e) {
			t->open = (long)off;
			break;
		}
		strtab_add(t, off, (u64)(e - (s->data + off)));
		off = (u64)(e - s->data) + 1;
	}
}

/* The first string equal to p[0..n): its index + 1, or 0. */
static u32
strtab_find(const StrTab *t, const char *p, size_t n)
{
	size_t i;

	if (t->cap)
		return *strtab_slot(t, p, n);
	for (i = 0; i < t->n; i++)
		if (t->str[i][1] == n && !memcmp(t->b.s + t->str[i][0], p, n))
			return (u32)i + 1;
	return 0;
}

static u32
strtab_intern(StrTab *t, const char *name)
{
	size_t len = strlen(name);
	u64 off;
	u32 i;

	if ((i = strtab_find(t, name, len)))
		return t->str[i - 1][0];
	if (t->b.n == 0 && *name) /* every table starts with "" */
		strtab_intern(t, "");
	off = t->b.n;
	buf_putn(&t->b, name, len + 1);
	if (t->open >= 0)	/* glued to the unterminated string before it */
		strtab_add(t, (u64)t->open, t->b.n - 1 - (u64)t->open), t->open = -1;
	else
		strtab_add(t, off, len);
	return (u32)off;
}

/* The table's new bytes into section sec (one copy), zero after them. */
static void
strtab_close(Cubin *c, int sec, StrTab *t)
{
	CSection *s = &c->sec.v[sec];

	if (t->b.n != s->size) {
		s->data = arena_alloc(&c->arena, t->b.n + 1);
		memcpy(s->data, t->b.s, t->b.n);
		s->size = t->b.n;
	}
	buf_free(&t->b);
	free(t->str);
	free(t->slot);
}

static void
names(Cubin *c)
{
	size_t i;
	StrTab t;
	CSection *sy;

	ASSERT(c->shstrtab > 0 && c->shstrtab < (int)c->sec.n);
	strtab_open(&t, &c->sec.v[c->shstrtab]);
	for (i = 1; i < c->sec.n; i++)
		c->sec.v[i].name_off = strtab_intern(&t, c->sec.v[i].name);
	strtab_close(c, c->shstrtab, &t);
	if (!c->symtab)
		return;
	ASSERT(c->strtab > 0);
	strtab_open(&t, &c->sec.v[c->strtab]);
	for (i = 0; i < c->sym.n; i++)
		c->sym.v[i].name_off = strtab_intern(&t, c->sym.v[i].name);
	strtab_close(c, c->strtab, &t);
	/* each entry written in place, as cubin_set_data would hold it */
	sy = &c->sec.v[c->symtab];
	sy->data = arena_alloc(&c->arena, 24 * c->sym.n + 1);
	sy->size = 24 * c->sym.n;
	for (i = 0; i < c->sym.n; i++) {
		const CSymbol *s = &c->sym.v[i];
		u8 *e = sy->data + 24 * i;

		wr32(e, s->name_off);
		e[4] = s->info;
		e[5] = s->other;
		wr16(e + 6, s->shndx);
		wr64(e + 8, s->value);
		wr64(e + 16, s->size);
	}
}

static u64
layout(Cubin *c)
{
	u64 pos = 64;
	size_t i;

	for (i = 1; i < c->sec.n; i++) {
		CSection *s = &c->sec.v[i];

		s->offset = align_up(pos, s->align) + s->gap;
		pos = sec_nobits(s->type) ? s->offset : s->offset + s->size;
	}
	return pos;
}

static int
in_class(const CSection *s, const CPhdr *p)
{
	return (s->flags & SHF_ALLOC) && ((s->flags & SHF_WRITE) != 0) == ((p->flags & 2) != 0);
}

void
cubin_phdr_extent(const Cubin *c, CPhdr *p, u64 phoff)
{
	u64 end, vaddr = 0;
	int i;

	if (p->first == PH_TABLE) {
		p->offset = phoff;
		p->filesz = p->memsz = 56 * (u64)c->ph.n;
		return;
	}
	ASSERT(p->first > 0 && p->last >= p->first && p->last < (int)c->sec.n);
	p->offset = end = c->sec.v[p->first].offset;
	for (i = p->first; i <= p->last; i++) {
		const CSection *s = &c->sec.v[i];

		if (in_class(s, p))
			end = MAX(end, s->offset + (sec_nobits(s->type) ? 0 : s->size));
	}
	p->filesz = end - p->offset;
	/* memory image: the file extent, then the NOBITS sections in order,
	 * each at its alignment (checked on 128 ptxas files, incl. -g) */
	vaddr = p->filesz;
	for (i = p->first; i <= p->last; i++) {
		const CSection *s = &c->sec.v[i];

		if (in_class(s, p) && sec_nobits(s->type))
			vaddr = align_up(vaddr, s->align) + s->size;
	}
	p->memsz = vaddr;
}

/* Zeros up to length n. */
static void
pad_to(Buf *b, size_t n)
{
	if (b->n >= n)
		return;
	buf_grow(b, n - b->n);
	memset(b->s + b->n, 0, n - b->n);
	b->n = n;
	b->s[n] = 0;
}

/* The header of s at h[0..64). */
static void
shdr(u8 *h, const CSection *s)
{
	wr32(h, s->name_off);
	wr32(h + 4, s->type);
	wr64(h + 8, s->flags);
	wr64(h + 16, 0);
	wr64(h + 24, s->offset);
	wr64(h + 32, s->size);
	wr32(h + 40, s->link);
	wr32(h + 44, s->info);
	wr64(h + 48, s->align);
	wr64(h + 56, s->entsize);
}

/* The program header p at h[0..56). */
static void
phdr_entry(u8 *h, const CPhdr *p)
{
	wr32(h, p->type);
	wr32(h + 4, p->flags);
	wr64(h + 8, p->offset);
	wr64(h + 16, 0);
	wr64(h + 24, 0);
	wr64(h + 32, p->filesz);
	wr64(h + 40, p->memsz);
	wr64(h + 48, p->align);
}

void
cubin_write(Cubin *c, Buf *out)
{
	u64 end, shoff, phoff;
	size_t i, base = out->n;
	u8 h[64] = {0x7f, 'E', 'L', 'F', 2, 1, 1};

	names(c);
	end = layout(c);
	shoff = align_up(end, 8);
	phoff = c->ph.n ? shoff + 64 * (u64)c->sec.n : 0;
	for (i = 0; i < c->ph.n; i++)
		cubin_phdr_extent(c, &c->ph.v[i], phoff);
	buf_grow(out, shoff + 64 * c->sec.n + 56 * c->ph.n);   /* the whole file: no copy while it grows */
	h[7] = c->osabi;
	h[8] = c->abiversion;
	memcpy(h + 9, c->ident_pad, 7);
	wr16(h + 16, c->type);
	wr16(h + 18, c->machine ? c->machine : EM_CUDA);
	wr32(h + 20, c->version);
	wr64(h + 24, c->entry);
	wr64(h + 32, phoff);
	wr64(h + 40, shoff);
	wr32(h + 48, c->flags);
	wr16(h + 52, 64);
	wr16(h + 54, c->phentsize ? c->phentsize : c->ph.n ? 56 : 0);
	wr16(h + 56, c->ph.n);
	wr16(h + 58, 64);
	wr16(h + 60, c->sec.n);
	wr16(h + 62, c->shstrtab);
	buf_putn(out, h, 64);
	for (i = 1; i < c->sec.n; i++) {
		CSection *s = &c->sec.v[i];

		if (sec_nobits(s->type))
			continue;
		pad_to(out, base + s->offset);
		buf_putn(out, s->data, s->size);
	}
	pad_to(out, base + shoff);
	/* the tables written in place (the room was grown above) */
	for (i = 0; i < c->sec.n; i++)
		shdr((u8 *)out->s + out->n + 64 * i, &c->sec.v[i]);
	out->n += 64 * c->sec.n;
	for (i = 0; i < c->ph.n; i++)
		phdr_entry((u8 *)out->s + out->n + 56 * i, &c->ph.v[i]);
	out->n += 56 * c->ph.n;
	out->s[out->n] = 0;
}
