/* build.c -- build a whole cubin for one kernel from a description (code
 * words, parameters, resource usage), with no template file: the header,
 * sections in ptxas 13's order, symbols, .nv.info attributes, notes,
 * .nv.compat, call graph, debug frame and program headers, for sm_80 and
 * sm_90.  Every rule here is recorded with its evidence in
 * docs/findings-cubin.md ("From-scratch writer"). */
#include <stdlib.h>
#include <string.h>

#include "cubin/build.h"
#include "cubin/elfio.h"
#include "cubin/listing.h"
#include "openassembler.h"

#define NOP_LO 0x0000000000007918ull
#define NOP_HI 0x000fc00000000000ull
#define API_VERSION 130 /* CUDA 13.0 */

/* Section and symbol names are literals or strings of c's arena: kept,
 * not copied. */
static int
sec(Cubin *c, const char *name, u32 type, u64 flags, u64 align)
{
	return cubin_add_section_ref(c, name, type, flags, align);
}

static int
sym(Cubin *c, const char *name, int bind, int type, int other, int shndx, u64 size)
{
	CSymbol s = {0};

	s.name = name;
	s.info = (u8)(bind << 4 | type);
	s.other = (u8)other;
	s.shndx = (u16)shndx;
	s.size = size;
	vec_push(&c->sym, s);
	return c->sym.n - 1;
}

/* n more bytes at the end of b, to be written in place: one size check
 * for a whole record (a put32 or put64 each was one, and ~40 bytes of
 * code a call). */
static u8 *
room(Buf *b, size_t n)
{
	u8 *p;

	buf_grow(b, n);
	p = (u8 *)b->s + b->n;
	b->n += n;
	b->s[b->n] = 0;
	return p;
}

static void
rec_s(Buf *b, int id, const u32 *w, int n)
{
	u8 *r = room(b, 4 + 4 * (size_t)n);
	int i;

	r[0] = EIFMT_SVAL;
	r[1] = (u8)id;
	wr16(r + 2, (u16)(4 * n));
	for (i = 0; i < n; i++)
		wr32(r + 4 + 4 * i, w[i]);
}

static void
rec_h(Buf *b, int fmt, int id, u16 v)
{
	u8 *r = room(b, 4);

	r[0] = (u8)fmt;
	r[1] = (u8)id;
	wr16(r + 2, v);
}

/* "NVIDIA Corp" note with the given type and descriptor. */
static void
note(Buf *b, u32 type, const void *desc, u32 n)
{
	u8 *r = room(b, 24 + (size_t)n);

	wr32(r, 12);
	wr32(r + 4, n);
	wr32(r + 8, type);
	memcpy(r + 12, "NVIDIA Corp\0", 12);
	memcpy(r + 24, desc, n);
	while (b->n % 4)
		buf_putc(b, 0);
}

/* DW_CFA_advance_loc4 by v */
static void
advance_loc4(Buf *b, u32 v)
{
	u8 *r = room(b, 5);

	r[0] = 0x04;
	wr32(r + 1, v);
}

static void
tkinfo(Buf *b, int sm, int arch_a)
{
	Buf d = {0}, blob = {0};
	u32 off[5] = {0};   /* strings 0 and 3 empty */
	u8 *r;
	int i;

	buf_putc(&blob, 0);
	off[1] = blob.n;
	buf_putn(&blob, "openassembler", sizeof "openassembler");
	off[2] = blob.n;
	buf_putn(&blob, "openassembler " OA_VERSION, sizeof "openassembler " OA_VERSION);
	off[4] = blob.n;   /* the options: "-arch sm_90a " */
	buf_putn(&blob, "-arch sm_", 9);
	buf_putu(&blob, (u64)sm);
	buf_putn(&blob, arch_a ? "a " : " ", arch_a ? 3 : 2);   /* with the NUL */
	r = room(&d, 24);
	wr32(r, 2);
	for (i = 0; i < 5; i++)
		wr32(r + 4 + 4 * i, off[i]);
	buf_putn(&d, blob.s, blob.n);
	while (d.n % 4)
		buf_putc(&d, 0);
	note(b, 2000, d.s, d.n);
	buf_free(&d);
	buf_free(&blob);
}

static void
cuinfo(Buf *b, int sm)
{
	u8 d[8];

	wr16(d, 2);
	wr16(d + 2, (u16)sm);
	wr32(d + 4, API_VERSION);
	note(b, 1000, d, 8);
}

/* DWARF CFI as ptxas writes it: a fixed CIE, then one FDE whose location
 * is relocated against the kernel and whose range is the text size; its
 * rows sit after the first BRA or EXIT and at the last EXIT (the rule held
 * for 158 of 169 whole-section FDEs of our test and suite cubins; the
 * others have stack frames, which this builder does not lay out). */
static void
debug_frame(Buf *b, int sm, u64 text_size, u32 first_cf, u32 last_exit)
{
	static const u8 cie[48] = {
		0xff, 0xff, 0xff, 0xff, 0x24, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0x03, 0x00, 0x04, 0x7c, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x0c, 0x81, 0x80, 0x80, 0x28, 0x00, 0x08,
		0xff, 0x81, 0x80, 0x28, 0x08, 0x81, 0x80, 0x80, 0x28, 0x00, 0x00, 0x00,
	};
	Buf in = {0};
	u8 *r;

	buf_putn(b, cie, sizeof cie);
	if (sm < 90) { /* sm_80: a row after the prologue's MOV R1 */
		advance_loc4(&in, 16 / 4);
		first_cf -= 16;
		last_exit -= 16;
	}
	if (sm >= 90 && last_exit < first_cf + 16) {
		/* sm_90 keeps the rows in address order */
		advance_loc4(&in, last_exit / 4);
		advance_loc4(&in, (first_cf + 16 - last_exit) / 4);
		buf_putn(&in, "\x0c\x81\x80\x80\x28\x00", 6);
	} else {
		advance_loc4(&in, (first_cf + 16) / 4);
		buf_putn(&in, "\x0c\x81\x80\x80\x28\x00", 6); /* DW_CFA_def_cfa R1-ish, 0 */
		advance_loc4(&in, (last_exit - first_cf - 16) / 4); /* may wrap (sm_80 does) */
	}
	while ((in.n + 24 + 12) % 8)
		buf_putc(&in, 0);
	r = room(b, 36);
	wr32(r, 0xffffffffu);
	wr64(r + 4, 24 + in.n);
	wr64(r + 12, 0);        /* CIE pointer */
	wr64(r + 20, 0);        /* initial location (R_CUDA_64) */
	wr64(r + 28, text_size);  /* address range */
	buf_putn(b, in.s, in.n);
	buf_free(&in);
}

/* Offsets from the first parameter at c[0x0][base]; each parameter's
 * c[0x0] address aligned (ptxas: a 128-byte-aligned CUtensorMap at 0x70). */
static u32
param_bytes(const KernelDesc *k, u32 *offs)
{
	u32 off = 0, base = k->sm >= 90 ? 0x210 : 0x160;
	size_t i;

	for (i = 0; i < k->nparams; i++) {
		u32 a = k->params[i].align ? k->params[i].align : k->params[i].size;

		off = (u32)align_up(base + off, a ? a : 1) - base;
		offs[i] = off;
		off += k->params[i].size;
	}
	return off;
}

/* Per-kernel section and symbol indices. */
typedef struct {
	int kinfo, relt, c0, c2, text, sh, ksym, c0sym;
	u32 exits[256], offs[256], psize, ext[4], sys[256];
	size_t nexit, nsys;
	u64 tsize, first_cf;
} KState;

static void
kernel_info(Buf *b, const KernelDesc *k, int sm, const KState *st)
{
	u32 w[4];
	size_t i;
	int base = sm >= 90 ? 0x210 : 0x160;

	w[0] = API_VERSION;
	rec_s(b, 0x37, w, 1);
	if (sm < 90)
		rec_h(b, EIFMT_NVAL, 0x35, 0); /* SW2861232_WAR */
	if (sm < 90 && k->nparams) {
		w[0] = st->c0sym;
		w[1] = (u32)base | st->psize << 16;
		rec_s(b, 0x0a, w, 2);
		rec_h(b, EIFMT_HVAL, 0x19, (u16)st->psize);
	}
	for (i = k->nparams; i-- > 0;) {
		w[0] = 0;
		w[1] = (u32)i | st->offs[i] << 16;
		w[2] = 0x1f000 | k->params[i].size << 18;
		rec_s(b, 0x17, w, 3);
	}
	if (k->reserved_smem)
		rec_h(b, EIFMT_NVAL, 0x41, 0); /* RESERVED_SMEM_USED */
	if (sm >= 90)
		rec_h(b, EIFMT_HVAL, 0x50, 0); /* SPARSE_MMA_MASK */
	rec_h(b, EIFMT_HVAL, 0x1b, (u16)(k->maxreg ? k->maxreg : 0xff));
	if (k->barriers)
		rec_h(b, EIFMT_BVAL, 0x4c, k->barriers);
	if (k->nexterns)
		rec_s(b, 0x0f, st->ext, k->nexterns);   /* EXTERNS */
	rec_h(b, EIFMT_HVAL, 0x5f, sm >= 90 ? 0x0101 : 0);
	if (st->nsys)
		rec_s(b, 0x46, st->sys, (int)st->nsys);   /* SYSCALL_OFFSETS */
	if (k->reg_reconfig)
		rec_h(b, EIFMT_NVAL, 0x54, 0); /* REG_RECONFIG (setmaxnreg), before the exits as ptxas */
	if (st->nexit)   /* a kernel that never exits (an endless loop) has none, as in ptxas's */
		rec_s(b, 0x1c, st->exits, (int)st->nexit);
	if (k->nexterns) {
		w[0] = 0;
		rec_s(b, 0x1e, w, 1);   /* CRS_STACK_SIZE */
	}
	if (k->max_threads[0])
		rec_s(b, 0x05, k->max_threads, 3);
	if (k->reqntid[0])
		rec_s(b, 0x10, k->reqntid, 3);
	if (sm >= 90 && k->nparams) {
		rec_h(b, EIFMT_HVAL, 0x19, (u16)st->psize);
		w[0] = st->c0sym;
		w[1] = (u32)base | st->psize << 16;
		rec_s(b, 0x0a, w, 2);
	}
	if (sm >= 90) {
		w[0] = 8;
		rec_s(b, 0x36, w, 1);
	}
}

static void
set(Cubin *c, int i, Buf *b)
{
	cubin_set_data(c, i, b->s ? b->s : "", b->n);
	buf_free(b);
}

/* Section i's data: n zero bytes in the arena, as cubin_set_data would
 * hold them, to be written in place (no buffer filled and copied). */
static u8 *
sec_data(Cubin *c, int i, u64 n)
{
	CSection *s = &c->sec.v[i];

	s->data = arena_alloc(&c->arena, n + 1);
	s->size = n;
	return s->data;
}

static void
phdr(Cubin *c, int type, int flags, int first, int last)
{
	CPhdr p = {0};

	p.type = type;
	p.flags = flags;
	p.align = 8;
	p.first = first;
	p.last = last;
	vec_push(&c->ph, p);
}

static int
has_shared(const KernelDesc *k)
{
	return k->shared || k->uses_shared;
}

static int
ksec(Cubin *c, const char *prefix, const char *kname, u32 type, u64 flags, u64 align)
{
	size_t n = strlen(prefix), k = strlen(kname) + 1;
	char *name = arena_alloc(&c->arena, n + k);

	memcpy(name, prefix, n);
	memcpy(name + n, kname, k);
	return sec(c, name, type, flags, align);
}

/* Code: the words, then NOPs up to the next 128 bytes plus 128. */
static int
code(Cubin *c, const KernelDesc *k, KState *st, int s90)
{
	size_t i;
	u8 *w;

	st->tsize = align_up(16 * k->ncode, 128) + 128;
	w = sec_data(c, st->text, st->tsize);
	for (i = 0; i < k->ncode; i++) {
		wr64(w + 16 * i, k->code[i].lo);
		wr64(w + 16 * i + 8, k->code[i].hi);
	}
	for (; 16 * i < st->tsize; i++) {
		wr64(w + 16 * i, NOP_LO);
		wr64(w + 16 * i + 8, NOP_HI);
	}
	st->nexit = exit_offsets(w, 16 * k->ncode, st->exits, NELEM(st->exits));
	for (st->nsys = 0, i = 0; i < 16 * k->ncode && st->nsys < NELEM(st->sys); i += 16)
		if ((w[i] | (u32)w[i + 1] << 8) == 0x7343)   /* CALL.ABS.NOINC Rn */
			st->sys[st->nsys++] = (u32)i;
	for (st->first_cf = 0; st->first_cf < 16 * k->ncode; st->first_cf += 16) { /* first BRA or EXIT */
		u64 op = w[st->first_cf] | (u64)w[st->first_cf + 1] << 8;

		if ((op & 0xfff) == 0x947 || (op & 0xfff) == 0x94d)
			break;
	}
	if (st->nexit > NELEM(st->exits))
		return -1;
	c->sec.v[st->text].link = c->symtab;
	c->sec.v[st->text].info = (u32)st->ksym | (s90 ? 0 : (k->regs & 0xff) << 24);
	c->sym.v[st->ksym].size = st->tsize;
	return 0;
}

/* Sections in ptxas's order; kernels run in section order (the reverse
 * of their definition order). */
static void
sections(Cubin *c, const KernelDesc *ks, KState *st, size_t n, int s90, int *idx)
{
	size_t i;
	int first_sh = -1;

	c->shstrtab = sec(c, ".shstrtab", SHT_STRTAB, 0, 1);
	c->strtab = sec(c, ".strtab", SHT_STRTAB, 0, 1);
	c->symtab = sec(c, ".symtab", SHT_SYMTAB, 0, 8);
	idx[0] = sec(c, ".debug_frame", SHT_PROGBITS, 0, 1);
	idx[1] = sec(c, ".note.nv.tkinfo", SHT_NOTE, 0x02000000, 4);
	idx[2] = sec(c, ".note.nv.cuinfo", SHT_NOTE, s90 ? 0x01000040 : 0x01000000, 4);
	idx[3] = sec(c, ".nv.info", SHT_CUDA_INFO, 0, 4);
	idx[4] = s90 ? sec(c, ".nv.compat", SHT_CUDA_COMPAT, 0, 4) : 0;
	for (i = 0; i < n; i++)
		st[i].kinfo = ksec(c, ".nv.info.", ks[i].name, SHT_CUDA_INFO, SHF_INFO_LINK, 4);
	idx[5] = sec(c, ".nv.callgraph", SHT_CUDA_CALLGRAPH, 0, 4);
	idx[6] = s90 ? 0 : sec(c, ".nv.rel.action", SHT_CUDA_RELOCINFO, 0, 8);
	for (i = 0; i < n && s90; i++) /* ptxas writes them empty */
		if (has_shared(&ks[i]))
			st[i].relt = ksec(c, ".rela.text.", ks[i].name, SHT_RELA, SHF_INFO_LINK, 8);
	idx[7] = sec(c, s90 ? ".rela.debug_frame" : ".rel.debug_frame", s90 ? SHT_RELA : SHT_REL, SHF_INFO_LINK, 8);
	for (i = 0; i < n && !s90; i++)
		st[i].c0 = ksec(c, ".nv.constant0.", ks[i].name, SHT_PROGBITS, SHF_ALLOC | SHF_INFO_LINK, 4);
	for (i = 0; i < n; i++)   /* right before the code (ptxas: after bank 4) */
		if (ks[i].ncb2)
			st[i].c2 = ksec(c, ".nv.constant2.", ks[i].name, SHT_PROGBITS, SHF_ALLOC | SHF_INFO_LINK, 4);
	for (i = 0; i < n; i++)
		st[i].text = ksec(c, ".text.", ks[i].name, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 128);
	idx[8] = 0;
	for (i = 0; i < n; i++) {
		if (has_shared(&ks[i])) {
			st[i].sh = ksec(c, ".nv.shared.", ks[i].name, SHT_NOBITS, SHF_WRITE | SHF_ALLOC | SHF_INFO_LINK,
					ks[i].shared_align ? ks[i].shared_align : 16);
			if (first_sh < 0)
				first_sh = st[i].sh;
		}
		if (i == 0 && s90) /* the reserved window follows the first kernel's */
			idx[8] = sec(c, ".nv.shared.reserved.0", SHT_NOBITS, SHF_WRITE | SHF_ALLOC, 1);
	}
	idx[9] = first_sh < 0 ? idx[8] : MIN(first_sh, idx[8] ? idx[8] : first_sh);
	for (i = 0; i < n && s90; i++)
		st[i].c0 = ksec(c, ".nv.constant0.", ks[i].name, SHT_PROGBITS, SHF_ALLOC | SHF_INFO_LINK, 4);
}

static void
symbols(Cubin *c, const KernelDesc *ks, KState *st, size_t n, int s90, const int *idx)
{
	size_t i;
	int first_global, k;

	sym(c, "", 0, 0, 0, 0, 0);
	sym(c, ".note.nv.tkinfo", STB_LOCAL, STT_SECTION, 0, idx[1], 0);
	sym(c, ".note.nv.cuinfo", STB_LOCAL, STT_SECTION, 0, idx[2], 0);
	for (i = 0; i < n; i++) {
		sym(c, c->sec.v[st[i].text].name, STB_LOCAL, STT_SECTION, 0, st[i].text, 0);
		if (st[i].sh)
			sym(c, c->sec.v[st[i].sh].name, STB_LOCAL, STT_SECTION, 0, st[i].sh, 0);
		if (s90 && i == 0) {
			sym(c, ".nv.reservedSmem.offset0", STB_WEAK, STT_OBJECT, 0, 0, 4);
			sym(c, "__nv_reservedSMEM_offset_0_alias", STB_WEAK, STT_NOTYPE, 0xa0, idx[8], 0);
		}
		if (s90 && st[i].sh) /* the nameless leftover of ptxas's shared-memory symbol */
			sym(c, "", STB_LOCAL, STT_NOTYPE, 1, 0, 0);
		if (!s90)
			st[i].c0sym = sym(c, c->sec.v[st[i].c0].name, STB_LOCAL, STT_SECTION, 0, st[i].c0, 0);
	}
	sym(c, ".debug_frame", STB_LOCAL, STT_SECTION, 0, idx[0], 0);
	sym(c, ".nv.callgraph", STB_LOCAL, STT_SECTION, 0, idx[5], 0);
	if (!s90)
		sym(c, ".nv.rel.action", STB_LOCAL, STT_SECTION, 0, idx[6], 0);
	first_global = c->sym.n;
	for (i = 0; i < n; i++)
		st[i].ksym = sym(c, c->sec.v[st[i].text].name + strlen(".text."), STB_GLOBAL, STT_FUNC, 0x10,
				 st[i].text, 0);
	for (i = 0; i < n; i++)   /* the driver's functions: undefined, once per module */
		for (k = 0; k < ks[i].nexterns; k++) {
			size_t j;
			for (j = first_global; j < c->sym.n && strcmp(c->sym.v[j].name, ks[i].externs[k]); j++)
				;
			st[i].ext[k] = j < c->sym.n ? (u32)j
						    : (u32)sym(c, arena_strdup(&c->arena, ks[i].externs[k]),
							       STB_GLOBAL, STT_FUNC, 0, 0, 0);
		}
	for (i = 0; i < n && s90; i++)
		st[i].c0sym = sym(c, c->sec.v[st[i].c0].name, STB_LOCAL, STT_SECTION, 0, st[i].c0, 0);
	c->sec.v[c->symtab].link = c->strtab;
	c->sec.v[c->symtab].info = s90 ? c->sym.n : (u32)first_global;
	c->sec.v[c->symtab].entsize = 24;
}

/* .nv.info: (REGCOUNT, FRAME_SIZE) per kernel in definition order, then
 * MIN_STACK_SIZE per kernel in section order. */
static void
global_info(Cubin *c, const KernelDesc *ks, KState *st, size_t n, int sec_info)
{
	Buf b = {0};
	size_t i;
	u32 w[2];

	for (i = n; i-- > 0;) {
		w[0] = (u32)st[i].ksym;
		w[1] = ks[i].regs;
		rec_s(&b, 0x2f, w, 2);
		w[1] = ks[i].frame;
		rec_s(&b, 0x11, w, 2);
	}
	for (i = 0; i < n; i++) {
		w[0] = (u32)st[i].ksym;
		w[1] = ks[i].frame;
		rec_s(&b, 0x12, w, 2);
	}
	set(c, sec_info, &b);
	c->sec.v[sec_info].link = c->symtab;
}

/* One CIE+FDE per kernel; relocations last kernel first. */
static void
frames(Cubin *c, KState *st, size_t n, int sm, int i_df, int i_rela)
{
	Buf b = {0}, r = {0};
	size_t i, *at = xcalloc(n, sizeof *at);
	int s90 = sm >= 90;

	for (i = 0; i < n; i++) {
		size_t cie = b.n;

		/* without an EXIT, ptxas's rows are those of an EXIT right at the first branch */
		debug_frame(&b, sm, st[i].tsize, (u32)st[i].first_cf,
			    st[i].nexit ? st[i].exits[st[i].nexit - 1] : (u32)st[i].first_cf);
		wr64((u8 *)b.s + cie + 48 + 12, cie); /* the FDE's CIE pointer */
		at[i] = cie + 48 + 20;                /* its initial location */
	}
	for (i = n; i-- > 0;) {
		u8 *e = room(&r, s90 ? 24 : 16);

		wr64(e, at[i]);
		wr64(e + 8, (u64)st[i].ksym << 32 | 2); /* R_CUDA_64 */
		if (s90)
			wr64(e + 16, 0);
	}
	set(c, i_df, &b);
	set(c, i_rela, &r);
	c->sec.v[i_rela].link = c->symtab;
	c->sec.v[i_rela].info = i_df;
	c->sec.v[i_rela].entsize = s90 ? 24 : 16;
	free(at);
}

/* a .nv.callgraph entry */
static void
edge(Buf *b, u32 from, u32 to)
{
	u8 *r = room(b, 8);

	wr32(r, from);
	wr32(r + 4, to);
}

int
cubin_build_module(Cubin *c, const KernelDesc *defs, size_t n)
{
	int sm, s90, idx[10];
	KState *st;
	KernelDesc *ks;
	size_t i, j;
	Buf b = {0};

	if (!n || (defs[0].sm != 80 && defs[0].sm != 90))
		return -1;
	sm = defs[0].sm;
	s90 = sm >= 90;
	for (i = 0; i < n; i++)
		if (defs[i].sm != sm || defs[i].nparams > 256 || !defs[i].ncode)
			return -1;
	/* ptxas lays kernels out in the reverse of their definition order */
	ks = xcalloc(n, sizeof *ks);
	st = xcalloc(n, sizeof *st);
	for (i = 0; i < n; i++)
		ks[i] = defs[n - 1 - i];
	cubin_init(c);
	c->type = 2;
	c->osabi = 0x41;
	c->abiversion = 8;
	c->version = 1;
	c->machine = EM_CUDA;
	c->flags = 0x06000004u | (u32)sm << 8;
	/* room for the usual counts at once (each doubling from 8 was a
	 * realloc and copy): 11 fixed sections + 6 per kernel, 7 symbols + 4 */
	c->sec.cap = 11 + 6 * n;
	c->sec.v = xmalloc(c->sec.cap * sizeof *c->sec.v);
	c->sym.cap = 7 + 4 * n;
	c->sym.v = xmalloc(c->sym.cap * sizeof *c->sym.v);
	sections(c, ks, st, n, s90, idx);
	symbols(c, ks, st, n, s90, idx);
	for (i = 0; i < n; i++)
		if (code(c, &ks[i], &st[i], s90) < 0) {
			free(ks);
			free(st);
			return -1;
		}
	global_info(c, ks, st, n, idx[3]);
	for (i = 0; i < n; i++) {
		st[i].psize = param_bytes(&ks[i], st[i].offs);
		kernel_info(&b, &ks[i], sm, &st[i]);
		set(c, st[i].kinfo, &b);
		c->sec.v[st[i].kinfo].link = c->symtab;
		c->sec.v[st[i].kinfo].info = st[i].text;
		if (st[i].relt) {
			c->sec.v[st[i].relt].link = c->symtab;
			c->sec.v[st[i].relt].info = st[i].text;
			c->sec.v[st[i].relt].entsize = 24;
		}
		sec_data(c, st[i].c0, (s90 ? 0x210u : 0x160u) + st[i].psize);   /* c[0x0]: zeros */
		c->sec.v[st[i].c0].info = st[i].text;
		if (st[i].c2) {
			cubin_set_data(c, st[i].c2, ks[i].cb2, ks[i].ncb2);
			c->sec.v[st[i].c2].info = st[i].text;
		}
		if (st[i].sh) {
			c->sec.v[st[i].sh].size = ks[i].shared + (s90 ? 0x400 : 0); /* sm_90 reserves 1 KiB */
			c->sec.v[st[i].sh].info = st[i].text;
		}
	}
	if (s90) {
		u8 compat[] = {2, 9, 0, 0, 2, 2, 1, 0, 2, 5, 5, 0, 3, 7, 1, 1, 2, 3, 0, 0,
			       2, 6, 1, 0, 4, 0xb, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0};
		compat[2] = ks[0].arch_a;   /* CUDA_ACCELERATOR_TARGET: 1 for sm_90a, as ptxas */
		cubin_set_data(c, idx[4], compat, sizeof compat);
	}
	for (i = 1; i <= 4; i++) {
		edge(&b, 0, (u32)-(i32)i);
		if (i > 1)
			continue;
		for (j = 0; j < n; j++)   /* after (0, -1): kernel -> extern, last called first (ptxas) */
			for (int k = ks[j].nexterns; k-- > 0;)
				edge(&b, (u32)st[j].ksym, st[j].ext[k]);
	}
	set(c, idx[5], &b);
	c->sec.v[idx[5]].link = c->symtab;
	c->sec.v[idx[5]].entsize = 8;
	if (!s90) {
		static const u8 act[16] = {0x73, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x11, 0x25, 0, 0x05, 0x36};

		cubin_set_data(c, idx[6], act, 16);
		c->sec.v[idx[6]].entsize = 8;
	}
	tkinfo(&b, sm, ks[0].arch_a);
	set(c, idx[1], &b);
	cuinfo(&b, sm);
	set(c, idx[2], &b);
	c->sec.v[idx[2]].link = idx[1];
	c->sec.v[idx[2]].info = s90 ? (u32)idx[4] : 0;
	frames(c, st, n, sm, idx[0], idx[7]);

	/* program headers */
	{
		int sh_first = 0, sh_last = 0;

		for (i = 1; i < c->sec.n; i++)
			if (c->sec.v[i].type == SHT_NOBITS) {
				if (!sh_first)
					sh_first = i;
				sh_last = i;
			}
		if (s90) {
			phdr(c, PT_PHDR, 4, PH_TABLE, PH_TABLE);
			phdr(c, PT_LOAD, 4, PH_TABLE, PH_TABLE);
			for (i = 0; i < n && !st[i].c2; i++)
				;
			if (i < n)   /* the banks 2, right before the code */
				phdr(c, PT_LOAD, 4, st[i].c2, st[0].text - 1);
			phdr(c, PT_LOAD, 5, st[0].text, st[n - 1].text);
			phdr(c, PT_LOAD, 6, sh_first, sh_last);
			phdr(c, PT_LOAD, 4, st[0].c0, st[n - 1].c0);
		} else {
			phdr(c, PT_PHDR, 5, PH_TABLE, PH_TABLE);
			phdr(c, PT_LOAD, 5, st[0].c0, st[n - 1].text);
			if (sh_first)
				phdr(c, PT_LOAD, 6, sh_first, sh_last);
			phdr(c, PT_LOAD, 5, PH_TABLE, PH_TABLE);
		}
	}
	free(ks);
	free(st);
	return 0;
}

int
cubin_build(Cubin *c, const KernelDesc *k)
{
	return cubin_build_module(c, k, 1);
}
