/* asm_data.c -- assembler pass 3 (section contents: .string, .byte,
 * .zero, .reloc, .edge, attribute records) and the final checks. */
#include <ctype.h>
#include <string.h>

#include "cubin/asmint.h"
#include "cubin/elfio.h"

static int
is(const Tok *t, const char *kw)
{
	return !t->quoted && !strcmp(t->s, kw);
}

static int
hexval(int ch)
{
	return isdigit(ch) ? ch - '0' : tolower(ch) - 'a' + 10;
}

static int
put_hex(Asm *s, const Tok *t, const char *h, Buf *d)
{
	size_t i, n = strlen(h);

	if (n % 2)
		return asm_error(s, t->at, "odd number of hex digits");
	for (i = 0; i < n; i += 2) {
		if (!isxdigit((uchar)h[i]) || !isxdigit((uchar)h[i + 1]))
			return asm_error(s, t->at, "bad hex byte '%c%c'", h[i], h[i + 1]);
		buf_putc(d, (char)(hexval((uchar)h[i]) << 4 | hexval((uchar)h[i + 1])));
	}
	return 0;
}

static void
reloc_line(Asm *s, const char *q, const char *e, Buf *d)
{
	CSection *sec = &s->c->sec.v[s->cur];
	Tok t;
	u64 off, addend = 0, v;
	u32 type, sym;
	int rt;

	if (sec->type != SHT_REL && sec->type != SHT_RELA) {
		asm_error(s, q, ".reloc outside a REL or RELA section");
		return;
	}
	if (asm_tok(s, &q, e, &t) <= 0 || asm_num(s, &t, t.s, 0, ~0ull, &off) < 0)
		return;
	if (asm_tok(s, &q, e, &t) <= 0) {
		asm_error(s, t.at, "expected a relocation type");
		return;
	}
	if ((rt = rcuda_lookup(t.s)) >= 0)
		type = rt;
	else if (asm_num(s, &t, t.s, 0, 0xffffffffu, &v) < 0)
		return;
	else
		type = v;
	if (asm_tok(s, &q, e, &t) <= 0) {
		asm_error(s, t.at, "expected a symbol");
		return;
	}
	if (asm_symref(s, &t, t.s, &sym) < 0)
		return;
	if (sec->type == SHT_RELA && asm_tok(s, &q, e, &t) > 0 &&
	    asm_num(s, &t, t.s, INT64_MIN, ~0ull, &addend) < 0)
		return;
	put64(d, off);
	put64(d, (u64)sym << 32 | type);
	if (sec->type == SHT_RELA)
		put64(d, addend);
}

static void
edge_line(Asm *s, const char *q, const char *e, Buf *d)
{
	Tok t;
	u64 v;
	int k;

	for (k = 0; k < 2; k++) {
		if (asm_tok(s, &q, e, &t) <= 0) {
			asm_error(s, t.at, "an edge is two symbols or marker numbers");
			return;
		}
		if (asm_num_or_sym(s, &t, 0xffffffffu, &v) < 0)
			return;
		put32(d, (u32)v);
	}
}

/* EXIT_INSTR_OFFSETS "auto": the EXITs of the code section this info
 * section belongs to (its sh_info). */
static int
auto_exits(Asm *s, const Tok *t, Buf *pl)
{
	CSection *sec = &s->c->sec.v[s->cur];
	u32 offs[4096];
	size_t n, i;
	Buf *code;

	if (!sec->info || sec->info >= s->data.n || !(s->c->sec.v[sec->info].flags & SHF_EXECINSTR))
		return asm_error(s, t->at, "'auto' needs the section's info= to name a code section");
	code = &s->data.v[sec->info];
	n = exit_offsets((const u8 *)code->s, code->n, offs, NELEM(offs));
	if (n > NELEM(offs))
		return asm_error(s, t->at, "too many EXIT instructions");
	for (i = 0; i < n; i++)
		put32(pl, offs[i]);
	return 0;
}

/* REGCOUNT "auto": from the decoded code of the symbol's section. */
static int
auto_regs(Asm *s, const Tok *t, u32 sym, u64 *v)
{
	Cubin *c = s->c;
	u32 sec;
	int n;

	if (sym >= c->sym.n || !(sec = c->sym.v[sym].shndx) || sec >= c->sec.n ||
	    !(c->sec.v[sec].flags & SHF_EXECINSTR) || !s->arch)
		return asm_error(s, t->at, "'auto' needs a function symbol with code and a .target");
	n = code_regcount(s->arch, (const u8 *)s->data.v[sec].s, s->data.v[sec].n);
	if (n < 0)
		return asm_error(s, t->at, "cannot count registers: the code has words the ISA tables do not decode; give the number");
	*v = (u64)n;
	return 0;
}

static int
kparam(Asm *s, Tok *t, const char **q, const char *e, Buf *pl)
{
	u64 ord = 0, off = 0, size = 0, idx = 0, la = 0, space = 0, cbank = 31, smem = 0, v;
	char *val;
	int seen = 0;

	do {
		if (is(t, "smem")) {
			smem = 1;
			continue;
		}
		if (!(val = asm_kv(t)))
			return asm_error(s, t->at, "KPARAM_INFO takes key=value fields (ordinal, offset, size, ...)");
		if (asm_num(s, t, val, 0, 0xffffffffu, &v) < 0)
			return -1;
		if (!strcmp(t->s, "ordinal") && v <= 0xffff)
			ord = v, seen |= 1;
		else if (!strcmp(t->s, "offset") && v <= 0xffff)
			off = v, seen |= 2;
		else if (!strcmp(t->s, "size") && v <= 0x3fff)
			size = v, seen |= 4;
		else if (!strcmp(t->s, "index"))
			idx = v;
		else if (!strcmp(t->s, "log2align") && v <= 0xff)
			la = v;
		else if (!strcmp(t->s, "space") && v <= 15)
			space = v;
		else if (!strcmp(t->s, "cbank") && v <= 31)
			cbank = v;
		else
			return asm_error(s, t->at, "unknown or out-of-range KPARAM_INFO field '%s'", t->s);
	} while (asm_tok(s, q, e, t) > 0);
	if (seen != 7)
		return asm_error(s, t->at, "KPARAM_INFO needs ordinal=, offset= and size=");
	put32(pl, (u32)idx);
	put16(pl, (u16)ord);
	put16(pl, (u16)off);
	put32(pl, (u32)(la | space << 8 | cbank << 12 | smem << 17 | size << 18));
	return 0;
}

static int
sval(Asm *s, int id, int compat, Tok *t, const char *q, const char *e, Buf *pl)
{
	u64 v;
	char *val;

	if (asm_tok(s, &q, e, t) <= 0)
		return 0;
	if (!compat && id == 0x17)
		return kparam(s, t, &q, e, pl);
	if (is(t, "auto")) {
		if (compat || id != 0x1c)
			return asm_error(s, t->at, "'auto' is only for EIATTR_EXIT_INSTR_OFFSETS");
		return auto_exits(s, t, pl);
	}
	if (!t->quoted && !strncmp(t->s, "bytes=", 6)) {
		val = asm_kv(t);
		return put_hex(s, t, val, pl);
	}
	if (!compat && id == 0x0a) { /* PARAM_CBANK: sym, u16 offset, u16 size */
		u64 o, n;
		Tok t2, t3;

		if (asm_num_or_sym(s, t, 0xffffffffu, &v) < 0)
			return -1;
		if (asm_tok(s, &q, e, &t2) <= 0 || asm_num(s, &t2, t2.s, 0, 0xffff, &o) < 0 ||
		    asm_tok(s, &q, e, &t3) <= 0 || asm_num(s, &t3, t3.s, 0, 0xffff, &n) < 0)
			return asm_error(s, t->at, "PARAM_CBANK takes: symbol offset size");
		put32(pl, (u32)v);
		put16(pl, (u16)o);
		put16(pl, (u16)n);
		return 0;
	}
	do {
		if (!compat && id == 0x2f && pl->n == 4 && is(t, "auto")) {
			if (auto_regs(s, t, rd32((const u8 *)pl->s), &v) < 0)
				return -1;
		} else if (asm_num_or_sym(s, t, 0xffffffffu, &v) < 0)
			return -1;
		put32(pl, (u32)v);
	} while (asm_tok(s, &q, e, t) > 0);
	return 0;
}

static const char fmtnames[] = "?NBHS";

void
asm_attr(Asm *s, Tok *t, const char *q, const char *e)
{
	int compat = s->c->sec.v[s->cur].type == SHT_CUDA_COMPAT;
	int id = compat ? eicompat_lookup(t->s) : eiattr_lookup(t->s), fmt;
	Buf *d = &s->data.v[s->cur], pl = {0};
	u64 v = 0, pad = 0;
	const char *save;
	char *val;

	if (id < 0 && t->s[0] == '0' && t->s[1] == 'x' && asm_num(s, t, t->s, 0, 0xff, &v) == 0)
		id = (int)v;
	if (id < 0) {
		asm_error(s, t->at, "unknown attribute '%s'", t->s);
		return;
	}
	fmt = eiattr_fmt(id, compat);
	save = q;
	if (asm_tok(s, &q, e, t) > 0 && !strncmp(t->s, "fmt=", 4) && !t->quoted) {
		const char *f = strchr(fmtnames + 1, t->s[4]);

		if (!f || t->s[5]) {
			asm_error(s, t->at, "fmt= is one of N, B, H, S");
			return;
		}
		fmt = f - fmtnames;
	} else {
		q = save;
	}
	if (fmt == EIFMT_SVAL) {
		if (sval(s, id, compat, t, q, e, &pl) < 0)
			goto out;
		if (pl.n > 0xffff) {
			asm_error(s, t->at, "attribute payload too long");
			goto out;
		}
		buf_putc(d, EIFMT_SVAL);
		buf_putc(d, (char)id);
		put16(d, (u16)pl.n);
		if (pl.n)
			buf_putn(d, pl.s, pl.n);
		goto out;
	}
	v = 0;
	while (asm_tok(s, &q, e, t) > 0) {
		if ((val = asm_kv(t)) && !strcmp(t->s, "pad")) {
			if (asm_num(s, t, val, 0, 0xffff, &pad) < 0)
				goto out;
		} else if (fmt == EIFMT_NVAL || val) {
			asm_error(s, t->at, "unexpected '%s'", t->s);
			goto out;
		} else if (asm_num(s, t, t->s, 0, fmt == EIFMT_BVAL ? 0xff : 0xffff, &v) < 0) {
			goto out;
		}
	}
	buf_putc(d, (char)fmt);
	buf_putc(d, (char)id);
	put16(d, (u16)(fmt == EIFMT_NVAL ? pad : fmt == EIFMT_BVAL ? (v | pad << 8) : v));
out:
	buf_free(&pl);
}

void
asm_pass3_line(Asm *s, const char *p, const char *e)
{
	Tok t;
	const char *q = p;
	Buf *d;
	CSection *sec;
	u64 v;

	if (asm_tok(s, &q, e, &t) <= 0)
		return;
	if (is(&t, ".section")) {
		s->cur++;
		return;
	}
	if (is(&t, ".target") || is(&t, ".elf") || is(&t, ".sym") || is(&t, ".phdr"))
		return;
	if (!s->cur) {
		asm_error(s, t.at, "'%s' before the first .section", t.s);
		return;
	}
	sec = &s->c->sec.v[s->cur];
	d = &s->data.v[s->cur];
	if (sec->flags & SHF_EXECINSTR)
		return;
	if (sec_nobits(sec->type)) {
		asm_error(s, t.at, "a NOBITS section has no contents (give its size= instead)");
		return;
	}
	if (is(&t, ".string")) {
		if (asm_tok(s, &q, e, &t) <= 0 || !t.quoted) {
			asm_error(s, t.at, "expected a quoted string");
			return;
		}
		buf_putn(d, t.s, t.n + 1);
	} else if (is(&t, ".byte")) {
		while (asm_tok(s, &q, e, &t) > 0)
			if (put_hex(s, &t, t.s, d) < 0)
				return;
	} else if (is(&t, ".zero")) {
		if (asm_tok(s, &q, e, &t) <= 0 || asm_num(s, &t, t.s, 0, 1u << 24, &v) < 0)
			return;
		while (v--)
			buf_putc(d, 0);
	} else if (is(&t, ".reloc")) {
		reloc_line(s, q, e, d);
	} else if (is(&t, ".edge")) {
		edge_line(s, q, e, d);
	} else if ((sec->type == SHT_CUDA_INFO || sec->type == SHT_CUDA_COMPAT) && !t.quoted) {
		asm_attr(s, &t, q, e);
	} else {
		asm_error(s, t.at, "unknown directive '%s' in section %s", t.s, sec->name);
	}
}

void
asm_finish(Asm *s)
{
	Cubin *c = s->c;
	size_t i;

	if (!s->have_elf)
		asm_error(s, s->src.text, "missing .elf header line");
	if (c->sec.n < 2) {
		asm_error(s, s->src.text, "no sections");
		return;
	}
	for (i = 1; i < c->sec.n; i++) {
		CSection *sec = &c->sec.v[i];

		if (sec_nobits(sec->type))
			continue;
		cubin_set_data(c, i, s->data.v[i].s ? s->data.v[i].s : "", s->data.v[i].n);
		if (sec->type == SHT_SYMTAB) {
			if (c->symtab)
				asm_error(s, s->src.text, "more than one SYMTAB section");
			c->symtab = i;
			c->strtab = sec->link;
			if (!sec->link || c->sec.v[sec->link].type != SHT_STRTAB)
				asm_error(s, s->src.text, "the SYMTAB section needs link= naming a STRTAB section");
		}
	}
	for (i = 0; i < s->regs_auto.n; i++) {
		CSection *sec = &c->sec.v[s->regs_auto.v[i]];
		int r = regcount_of(c, sec->info & 0xffffff);

		if (r < 0 || r > 255)
			asm_error(s, s->src.text, "section %s: regs=auto needs an EIATTR_REGCOUNT for its symbol", sec->name);
		else
			sec->info = (sec->info & 0xffffff) | (u32)r << 24;
	}
	if (c->sec.v[1].type != SHT_STRTAB)
		asm_error(s, s->src.text, "section #1 must be the section name table (STRTAB)");
	c->shstrtab = 1;
	if (c->sym.n && !c->symtab)
		asm_error(s, s->src.text, ".sym lines but no SYMTAB section");
	for (i = 0; i < c->sym.n; i++) {
		CSymbol *y = &c->sym.v[i];

		if (y->shndx >= c->sec.n && y->shndx < 0xff00)
			asm_error(s, s->src.text, "symbol %zu: section index %u out of range", i, y->shndx);
		else if (y->size == SIZE_AUTO && (y->shndx == 0 || y->shndx >= c->sec.n))
			asm_error(s, s->src.text, "symbol %zu: size=auto needs a section", i);
		else if (y->size == SIZE_AUTO)
			y->size = c->sec.v[y->shndx].size;
	}
	for (i = 0; i < c->ph.n; i++)
		if (c->ph.v[i].first != PH_TABLE && (size_t)c->ph.v[i].last >= c->sec.n)
			asm_error(s, s->src.text, "program header %zu: section out of range", i);
}
