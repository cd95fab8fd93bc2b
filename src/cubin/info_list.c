/* info_list.c -- print .nv.info / .nv.compat attribute records by name,
 * with known payloads decoded (symbol references, KPARAM_INFO fields, ...).
 * EXIT_INSTR_OFFSETS prints as "auto" when it equals what the code gives. */
#include <string.h>

#include "cubin/elfio.h"
#include "cubin/listing.h"

#define EIATTR_PARAM_CBANK 0x0a
#define EIATTR_EXTERNS 0x0f
#define EIATTR_KPARAM_INFO 0x17
#define EIATTR_EXIT_INSTR_OFFSETS 0x1c

static int
is_exit(const u8 *word)
{
	return (rd64(word) & 0xfff) == 0x94d;
}

size_t
exit_offsets(const u8 *code, u64 n, u32 *out, size_t max)
{
	u64 i;
	size_t k = 0;

	for (i = 0; i + 16 <= n; i += 16)
		if (is_exit(code + i)) {
			if (k < max)
				out[k] = (u32)i;
			k++;
		}
	return k;
}

/* Are the record's offsets those of the EXITs of the code section s
 * describes (as exit_offsets gives them, at most 4096)?  Compared as the
 * code is scanned: no copy of the offsets. */
static int
exits_auto(const Cubin *c, const CSection *s, const InfoRec *r)
{
	const CSection *t;
	size_t k = 0;
	u64 i;

	if (!(s->flags & SHF_INFO_LINK) || !s->info || s->info >= c->sec.n)
		return 0;
	t = &c->sec.v[s->info];
	if (!(t->flags & SHF_EXECINSTR) || t->type != SHT_PROGBITS)
		return 0;
	for (i = 0; i + 16 <= t->size; i += 16)
		if (is_exit(t->data + i)) {
			if (k == 4096 || 4 * k >= r->len || rd32(r->payload + 4 * k) != (u32)i)
				return 0;
			k++;
		}
	return 4 * k == r->len;
}

/* Does the REGCOUNT of symbol sym equal what its code gives? */
static int
regs_auto(Listing *L, u32 sym, u32 value)
{
	const Cubin *c = L->c;
	const CSection *t;
	u32 sec;
	int n;

	if (!L->a || sym >= c->sym.n || !(sec = c->sym.v[sym].shndx) || sec >= c->sec.n)
		return 0;
	t = &c->sec.v[sec];
	if (!(t->flags & SHF_EXECINSTR) || t->type != SHT_PROGBITS || c->sym.v[sym].value)
		return 0;
	if (!code_regcount_known(L->a, t->data, t->size, &n))
		n = code_text_regcount(listing_code(L, sec), L->a, t->data);
	return n == (int)value;
}

static void
kparam(Buf *b, const u8 *p)
{
	u32 idx = rd32(p), w = rd32(p + 8);

	put_kv(b, " ordinal=", rd16(p + 4), 0);
	put_kv(b, " offset=", rd16(p + 6), 1);
	put_kv(b, " size=", w >> 18, 0);
	if (idx)
		put_kv(b, " index=", idx, 0);
	if (w & 0xff)
		put_kv(b, " log2align=", w & 0xff, 0);
	if ((w >> 8) & 15)
		put_kv(b, " space=", (w >> 8) & 15, 0);
	if (((w >> 12) & 31) != 31)
		put_kv(b, " cbank=", (w >> 12) & 31, 0);
	if ((w >> 17) & 1)
		buf_puts(b, " smem");
}

static void
payload(Listing *L, const CSection *s, const InfoRec *r, int compat, Buf *b)
{
	const Cubin *c = L->c;
	const u8 *p = r->payload;
	u32 i;

	if (!compat) {
		switch (r->id) {
		case 0x11: case 0x12: case 0x23: case 0x2f:
			if (r->len != 8)
				break;
			buf_putc(b, ' ');
			symref(c, b, rd32(p));
			if (r->id == 0x2f && regs_auto(L, rd32(p), rd32(p + 4)))
				put_kv(b, " auto\t// ", rd32(p + 4), 1);
			else
				put_kv(b, " ", rd32(p + 4), 1);
			return;
		case EIATTR_PARAM_CBANK:
			if (r->len != 8)
				break;
			buf_putc(b, ' ');
			symref(c, b, rd32(p));
			put_kv(b, " ", rd16(p + 4), 1);
			put_kv(b, " ", rd16(p + 6), 1);
			return;
		case EIATTR_KPARAM_INFO:
			if (r->len != 12)
				break;
			kparam(b, p);
			return;
		case EIATTR_EXTERNS:
			if (r->len % 4)
				break;
			for (i = 0; i < r->len; i += 4) {
				buf_putc(b, ' ');
				symref(c, b, rd32(p + i));
			}
			return;
		case EIATTR_EXIT_INSTR_OFFSETS:
			if (exits_auto(c, s, r)) {
				buf_puts(b, " auto\t//");
				for (i = 0; i < r->len; i += 4)
					put_kv(b, " ", rd32(p + i), 1);
				return;
			}
			break;
		}
	}
	if (r->len % 4) {
		buf_puts(b, " bytes=");
		for (i = 0; i < r->len; i++)
			buf_printf(b, "%02x", p[i]);
		return;
	}
	for (i = 0; i < r->len; i += 4)
		put_kv(b, " ", rd32(p + i), 1);
}

static const char *const fmtnames[] = {"?", "N", "B", "H", "S"};

int
list_info(Listing *L, const char *path, const CSection *s, Buf *b)
{
	u64 pos = 0;
	int compat = s->type == SHT_CUDA_COMPAT;
	InfoRec r;

	while (pos < s->size) {
		const char *nm;

		if (info_next(s->data, s->size, &pos, &r, path, s->name) < 0)
			return -1;
		nm = compat ? eicompat_name(r.id) : eiattr_name(r.id);
		if (!nm && !compat) {
			diag(path, "%s: unknown attribute id 0x%02x at offset 0x%x", s->name, r.id, r.off);
			return -1;
		}
		if (nm)
			buf_putc(b, '\t'), buf_puts(b, nm);
		else
			buf_printf(b, "\t0x%02x", r.id);
		if (r.fmt != eiattr_fmt(r.id, compat))
			buf_puts(b, " fmt="), buf_puts(b, fmtnames[r.fmt]);
		if (r.fmt == EIFMT_BVAL)
			put_kv(b, " ", r.len & 0xff, 1);
		else if (r.fmt == EIFMT_HVAL)
			put_kv(b, " ", r.len, 1);
		else if (r.fmt == EIFMT_SVAL)
			payload(L, s, &r, compat, b);
		if (r.fmt == EIFMT_BVAL && r.len >> 8)
			put_kv(b, " pad=", r.len >> 8, 1);
		if (r.fmt == EIFMT_NVAL && r.len)
			put_kv(b, " pad=", r.len, 1);
		buf_putc(b, '\n');
	}
	return 0;
}
