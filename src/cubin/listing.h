/* listing.h -- internals shared by the listing printer and assembler. */
#ifndef OA_LISTING_H
#define OA_LISTING_H

#include "cubin/cubin.h"
#include "isa/isa.h"

const char *shtype_name(u32 t);
int shtype_lookup(const char *name, u32 *t);
int eiattr_fmt(int id, int compat);
void put_quoted(Buf *b, const char *s);
/* "0x" and lowercase hex digits, as %#llx writes a nonzero value and 0x%llx any. */
static inline void
put_0x(Buf *b, u64 v)
{
	buf_putn(b, "0x", 2);
	buf_putx(b, v);
}

/* s, then v as %llu or 0x%llx.  Inline: s is nearly always a literal,
 * whose length and copy then fold where it is put. */
static inline void
put_kv(Buf *b, const char *s, u64 v, int hex)
{
	buf_puts(b, s);
	if (hex)
		put_0x(b, v);
	else
		buf_putu(b, v);
}
void symref(const Cubin *c, Buf *b, u64 i);
/* The REGCOUNT attribute of symbol sym in .nv.info, or -1. */
int regcount_of(const Cubin *c, u32 sym);
void list_code(const Cubin *c, const Arch *a, size_t sec, const ListOpts *o, Buf *b);

/* A code section's first printing pass (code_list.c), made once per
 * listing and shared by the SASS lines and REGCOUNT's "auto" test. */
typedef struct CodeText CodeText;
CodeText *code_text(const Cubin *c, const Arch *a, size_t sec);
void code_text_free(CodeText *t);
/* code_regcount of the section the texts were made from (its code). */
int code_text_regcount(const CodeText *t, const Arch *a, const u8 *code);
/* t NULL: every word raw. */
void list_code_text(const Cubin *c, const Arch *a, size_t sec, CodeText *t, const ListOpts *o, Buf *b);

/* One listing: the cubin, its ISA (NULL if none) and each code section's
 * first pass, made on first use (listing_code). */
typedef struct {
	const Cubin *c;
	const Arch *a;
	CodeText **code;
	u8 *named;     /* per section: listed by its name (else #index) */
} Listing;
CodeText *listing_code(Listing *L, size_t sec);
int list_info(Listing *L, const char *path, const CSection *s, Buf *b);
/* Byte offsets of EXIT instructions (any guard) in a code section. */
size_t exit_offsets(const u8 *code, u64 n, u32 *out, size_t max);
/* Registers per thread the code needs (regs.c); -1 if it does not decode. */
int code_regcount(const Arch *a, const u8 *code, u64 n);
/* code_regcount of code whose highest register (the largest sass_reg_max
 * of its words' texts) the caller knows: max, from hz_decode's view (the
 * compiler), no word printed again; verify (OA_VERIFY=1): die unless
 * the words, printed, say so. */
int code_regcount_of(const Arch *a, const u8 *code, u64 n, int max, int verify);
/* Did code_regcount count these bytes, or a prefix of them, lately?  If
 * so, 1 and their count in *count (the rest counted now). */
int code_regcount_known(const Arch *a, const u8 *code, u64 n, int *count);
/* The highest general register one instruction's text touches, or -1. */
int sass_reg_max(const char *t);
/* sass_reg_max as events, for a caller that knows the text's parts
 * without the text (the hazard decoder): a register's width depends on
 * whether its operand is the last one (a store's data, a ".WIDE" addend),
 * which is known only at the end, so the current operand keeps two
 * maxima, one for either case.  reg_max_begin with the mnemonic at mn
 * (the guard left out), reg_max_mod for the text after each of its dots
 * (".WIDE", ".128", ".64" anywhere in it), reg_max_mods_done; then, in
 * text order, reg_max_comma for each comma and reg_max_reg for each
 * register Rn (r: n; addr: inside [..]; own: ".64" follows n). */
typedef struct {
	int w, wide, store, dbl, k, max, cur, cur_last;
} RegMax;
void reg_max_begin(RegMax *m, const char *mn);
static inline void
reg_max_mod(RegMax *m, const char *s)
{
	if (s[0] == 'W' && s[1] == 'I' && s[2] == 'D' && s[3] == 'E')
		m->wide = 1;
	else if (s[0] == '1' && s[1] == '2' && s[2] == '8')
		m->w = 4;
	else if (s[0] == '6' && s[1] == '4' && m->w < 4)
		m->w = 2;
}
static inline void
reg_max_mods_done(RegMax *m)
{
	if (m->wide && m->w < 4)
		m->w = 2;
}
static inline void
reg_max_comma(RegMax *m)
{
	m->k++;
	m->max = MAX(m->max, m->cur);
	m->cur = m->cur_last = -1;
}
static inline void
reg_max_reg(RegMax *m, int r, int addr, int own)
{
	int wd, wd_last;

	if (r >= 255)
		return;
	wd = addr ? 1 : m->dbl ? 2 : m->k == 0 && !m->store ? m->w : 1;
	wd_last = addr ? 1 : m->dbl ? 2 : (m->k == 0 && !m->store) || m->store || m->wide ? m->w : 1;
	m->cur = MAX(m->cur, r + (own ? 2 : wd) - 1);
	m->cur_last = MAX(m->cur_last, r + (own ? 2 : wd_last) - 1);
}
static inline int
reg_max_end(const RegMax *m)
{
	return MAX(m->max, m->cur_last);
}

#endif
