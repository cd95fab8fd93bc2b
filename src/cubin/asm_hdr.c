/* asm_hdr.c -- assembler pass 2: .target, .elf, .section headers, .sym,
 * .phdr, and the instructions of code sections. */
#include <stdlib.h>
#include <string.h>

#include "cubin/asmint.h"

static int
is(const Tok *t, const char *kw)
{
	return !t->quoted && !strcmp(t->s, kw);
}

static void
elf_line(Asm *s, const char *q, const char *e)
{
	Cubin *c = s->c;
	Tok t;
	u64 v;
	char *val;

	s->have_elf = 1;
	c->machine = EM_CUDA;
	while (asm_tok(s, &q, e, &t) > 0) {
		if (!(val = asm_kv(&t))) {
			asm_error(s, t.at, "expected key=value");
			return;
		}
		if (!strcmp(t.s, "ident")) {
			size_t i;

			if (strlen(val) != 14) {
				asm_error(s, t.at, "ident= takes 7 hex bytes");
				return;
			}
			for (i = 0; i < 7; i++) {
				char h[3] = {val[2 * i], val[2 * i + 1], 0};
				c->ident_pad[i] = (u8)strtoul(h, NULL, 16);
			}
			continue;
		}
		if (asm_num(s, &t, val, 0, strcmp(t.s, "entry") ? 0xffffffffu : ~0ull, &v) < 0)
			return;
		if (!strcmp(t.s, "type") && v <= 0xffff)
			c->type = v;
		else if (!strcmp(t.s, "osabi") && v <= 0xff)
			c->osabi = v;
		else if (!strcmp(t.s, "abiversion") && v <= 0xff)
			c->abiversion = v;
		else if (!strcmp(t.s, "version"))
			c->version = v;
		else if (!strcmp(t.s, "flags"))
			c->flags = v;
		else if (!strcmp(t.s, "machine") && v <= 0xffff)
			c->machine = v;
		else if (!strcmp(t.s, "entry"))
			c->entry = v;
		else if (!strcmp(t.s, "phentsize") && v <= 0xffff)
			c->phentsize = v;
		else
			asm_error(s, t.at, "unknown or out-of-range .elf field '%s'", t.s);
	}
}

static void
section_line(Asm *s, const char *q, const char *e)
{
	Cubin *c = s->c;
	CSection sec = {0};
	Tok t;
	u64 v;
	u32 r;
	char *val;

	if (!c->sec.n)
		vec_push(&c->sec, sec);
	s->cur++;
	asm_tok(s, &q, e, &t);
	sec.name = arena_strdup(&c->arena, t.s);
	sec.align = 1;
	if (asm_tok(s, &q, e, &t) <= 0) {
		asm_error(s, t.at, "expected a section type");
		goto out;
	}
	if (shtype_lookup(t.s, &sec.type) < 0) {
		if (asm_num(s, &t, t.s, 0, 0xffffffffu, &v) < 0)
			goto out;
		sec.type = v;
	}
	while (asm_tok(s, &q, e, &t) > 0) {
		if (!(val = asm_kv(&t))) {
			asm_error(s, t.at, "expected key=value");
			break;
		}
		if (!strcmp(t.s, "link")) {
			if (asm_secref(s, &t, val, &r) < 0)
				break;
			sec.link = r;
		} else if (!strcmp(t.s, "info")) {
			if ((sec.flags & SHF_EXECINSTR) && !(val[0] >= '0' && val[0] <= '9')) {
				if (asm_symref(s, &t, val, &r) < 0)
					break;
				sec.info = (sec.info & 0xff000000u) | r;
			} else if (val[0] == '.' || val[0] == '#') {
				if (asm_secref(s, &t, val, &r) < 0)
					break;
				sec.info = r;
			} else {
				if (asm_num(s, &t, val, 0, 0xffffffffu, &v) < 0)
					break;
				sec.info = v;
			}
		} else if (!strcmp(t.s, "regs") && !strcmp(val, "auto")) {
			vec_push(&s->regs_auto, s->cur);
		} else {
			if (asm_num(s, &t, val, 0, ~0ull, &v) < 0)
				break;
			if (!strcmp(t.s, "flags"))
				sec.flags = v;
			else if (!strcmp(t.s, "regs") && v < 256)
				sec.info = (sec.info & 0xffffff) | (u32)v << 24;
			else if (!strcmp(t.s, "align") && v <= 4096 && !(v & (v - 1)))
				sec.align = v;
			else if (!strcmp(t.s, "entsize"))
				sec.entsize = v;
			else if (!strcmp(t.s, "gap") && v < (1u << 20))
				sec.gap = v;
			else if (!strcmp(t.s, "size") && v < (1ull << 40))
				sec.size = v;
			else {
				asm_error(s, t.at, "unknown or out-of-range section field '%s'", t.s);
				break;
			}
		}
	}
out:
	vec_push(&c->sec, sec);
}

static const char *const symtypes[] = {"NOTYPE", "OBJECT", "FUNC", "SECTION"};
static const char *const symbinds[] = {"LOCAL", "GLOBAL", "WEAK"};

static int
word_index(const char *const *w, int n, const char *s)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(w[i], s))
			return i;
	return -1;
}

static void
sym_line(Asm *s, const char *q, const char *e)
{
	Cubin *c = s->c;
	CSymbol sym = {0};
	Tok t;
	u64 v;
	u32 r;
	int k, type = 0, bind = 0;
	char *val;

	asm_tok(s, &q, e, &t);
	sym.name = arena_strdup(&c->arena, t.s);
	while (asm_tok(s, &q, e, &t) > 0) {
		if (!t.quoted && (k = word_index(symtypes, 4, t.s)) >= 0) {
			type = k;
			continue;
		}
		if (!t.quoted && (k = word_index(symbinds, 3, t.s)) >= 0) {
			bind = k;
			continue;
		}
		if (!(val = asm_kv(&t))) {
			asm_error(s, t.at, "expected a symbol type, binding or key=value");
			break;
		}
		if (!strcmp(t.s, "size") && !strcmp(val, "auto")) {
			sym.size = SIZE_AUTO;
			continue;
		}
		if (!strcmp(t.s, "section") && !(val[0] >= '0' && val[0] <= '9')) {
			if (asm_secref(s, &t, val, &r) < 0)
				break;
			sym.shndx = r;
			continue;
		}
		if (asm_num(s, &t, val, 0, ~0ull, &v) < 0)
			break;
		if (!strcmp(t.s, "section") && v <= 0xffff)
			sym.shndx = v;
		else if (!strcmp(t.s, "type") && v < 16)
			type = v;
		else if (!strcmp(t.s, "bind") && v < 16)
			bind = v;
		else if (!strcmp(t.s, "other") && v < 256)
			sym.other = v;
		else if (!strcmp(t.s, "value"))
			sym.value = v;
		else if (!strcmp(t.s, "size"))
			sym.size = v;
		else {
			asm_error(s, t.at, "unknown or out-of-range symbol field '%s'", t.s);
			break;
		}
	}
	sym.info = (u8)(bind << 4 | type);
	vec_push(&c->sym, sym);
}

static void
phdr_line(Asm *s, const char *q, const char *e)
{
	CPhdr ph = {0};
	Tok t;
	u64 v;
	u32 r;
	char *val;

	ph.align = 8;
	if (asm_tok(s, &q, e, &t) <= 0 || (!is(&t, "LOAD") && !is(&t, "PHDR"))) {
		asm_error(s, t.at, "expected LOAD or PHDR");
		return;
	}
	ph.type = is(&t, "LOAD") ? PT_LOAD : PT_PHDR;
	if (asm_tok(s, &q, e, &t) <= 0 || t.n != 3 || !strchr("R-", t.s[0]) || !strchr("W-", t.s[1]) ||
	    !strchr("X-", t.s[2])) {
		asm_error(s, t.at, "expected segment flags like R-X");
		return;
	}
	ph.flags = (t.s[0] == 'R') * 4 + (t.s[1] == 'W') * 2 + (t.s[2] == 'X');
	ph.first = ph.last = -2;
	while (asm_tok(s, &q, e, &t) > 0) {
		if ((val = asm_kv(&t))) {
			if (asm_num(s, &t, val, 0, 0xffffffffu, &v) < 0)
				return;
			if (!strcmp(t.s, "align"))
				ph.align = v;
			else if (!strcmp(t.s, "type"))
				ph.type = v;
			else if (!strcmp(t.s, "flags"))
				ph.flags = v;
			else {
				asm_error(s, t.at, "unknown program header field '%s'", t.s);
				return;
			}
		} else if (is(&t, "phdrs")) {
			ph.first = ph.last = PH_TABLE;
		} else if (is(&t, "..")) {
			continue;
		} else {
			if (asm_secref(s, &t, t.s, &r) < 0)
				return;
			if (ph.first == -2)
				ph.first = r;
			ph.last = r;
		}
	}
	if (ph.first == -2 || (ph.first != PH_TABLE && (ph.first < 1 || ph.last < ph.first))) {
		asm_error(s, q, "a program header needs 'phdrs' or a section range FIRST .. LAST");
		return;
	}
	vec_push(&s->c->ph, ph);
}

void
asm_pass2_line(Asm *s, const char *p, const char *e)
{
	Tok t;
	const char *q = p;

	if (asm_tok(s, &q, e, &t) <= 0)
		return;
	if (is(&t, ".target")) {
		/* other sm_NN targets are accepted with raw UNKNOWN words only */
		if (asm_tok(s, &q, e, &t) <= 0 || (!(s->arch = arch_lookup(t.s)) &&
		    (strncmp(t.s, "sm_", 3) || t.s[3] < '1' || t.s[3] > '9')))
			asm_error(s, t.at, "unknown target '%s' (want sm_80, sm_90, or sm_NN with UNKNOWN words)", t.s);
		s->have_target = 1;
	} else if (is(&t, ".elf")) {
		elf_line(s, q, e);
	} else if (is(&t, ".section")) {
		section_line(s, q, e);
	} else if (is(&t, ".sym")) {
		sym_line(s, q, e);
	} else if (is(&t, ".phdr")) {
		phdr_line(s, q, e);
	} else if (s->cur && s->cur < s->c->sec.n && (s->c->sec.v[s->cur].flags & SHF_EXECINSTR) &&
		   !(t.s[0] == '.' && !t.quoted)) {
		if (t.n && t.s[t.n - 1] == ':' && !t.quoted)
			return; /* a label, resolved in pass 1 */
		asm_insn(s, p, e);
	}
}
