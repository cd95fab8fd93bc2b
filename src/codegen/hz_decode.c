/* hz_decode.c -- the hazard checker's view of one instruction: which
 * register slots it reads and writes (register pairs and quads included),
 * its latency class, its control flow (branch, call, return, exit) and its
 * control bits.  Built from the printer's text through insn_parse, so it
 * knows exactly what the disassembler shows. */
#include <stdlib.h>
#include <string.h>

#include "codegen/hazard.h"

const char *
hz_slot_name(int s, char *buf, size_t n)
{
	if (s < SLOT_UR)
		snprintf(buf, n, "R%d", s);
	else if (s < SLOT_P)
		snprintf(buf, n, "UR%d", s - SLOT_UR);
	else if (s < SLOT_UP)
		snprintf(buf, n, "P%d", s - SLOT_P);
	else
		snprintf(buf, n, "UP%d", s - SLOT_UP);
	return buf;
}

int
hz_file(int s)
{
	return s < SLOT_UR ? LF_R : s < SLOT_P ? LF_UR : s < SLOT_UP ? LF_P : LF_UP;
}

static int
op_is(const Insn *in, const char *const *l)
{
	for (; *l; l++)
		if (!strcmp(in->op, *l))
			return 1;
	return 0;
}

/* Opcodes that write no register (operands are all sources). */
static const char *const nodst_ops[] = {
	"BRA", "BRX", "JMP", "JMX", "CALL", "RET", "EXIT", "BSSY", "BSYNC", "BAR", "WARPSYNC",
	"NANOSLEEP", "YIELD", "DEPBAR", "NOP", "MEMBAR", "ERRBAR", "CCTL", "CGAERRBAR",
	"UCGABAR_ARV", "UCGABAR_WAIT", "LDGDEPBAR", "ARRIVES", "ENDCOLLECTIVE", "KILL", "BPT",
	"BREAK", "WARPGROUP", "FENCE", "UBLKCP", "UTMALDG", "UTMASTG", "UTMAPF", "CCTLL",
	"ST", "STG", "STS", "STL", "RED", "REDG", "LDGSTS", "PREEXIT", "ACQBULK", NULL,
};
static const char *const mem_ops[] = {
	"LD", "LDG", "LDS", "LDL", "LDC", "ULDC", "ST", "STG", "STS", "STL", "ATOM", "ATOMG",
	"ATOMS", "RED", "REDG", "SYNCS", "LDSM", NULL,
};
static const char *const dbl_ops[] = {
	"DADD", "DMUL", "DFMA", "DMNMX", "DSETP", "DSET", NULL,
};

/* Width of a conversion's destination (dst = 1) or source (dst = 0). */
static int
conv_width(const Insn *in, int dst)
{
	static const char *const ints[] = {"S8", "U8", "S16", "U16", "S32", "U32", "S64", "U64", NULL};
	static const char *const flts[] = {"F16", "F32", "F64", "BF16", "E4M3", "E5M2", "TF32", NULL};
	const char *types[4];
	int nt = 0, i, intdst;
	const char *t = NULL;

	for (i = 0; i < in->nmods && nt < 4; i++) {
		Insn m = {.op = in->mods[i]};
		if (op_is(&m, ints) || op_is(&m, flts))
			types[nt++] = in->mods[i];
	}
	if (!strcmp(in->op, "F2F") || !strcmp(in->op, "FRND")) {
		if (nt >= 2)
			t = types[dst ? 0 : 1];
		else if (nt == 1)
			t = types[0];
	} else {
		intdst = !strcmp(in->op, "F2I");  /* F2I: int dst, float src; I2F the reverse */
		for (i = 0; i < nt; i++) {
			Insn m = {.op = types[i]};
			int isint = op_is(&m, ints);
			if ((isint == intdst) == dst)
				t = types[i];
		}
	}
	return t && strstr(t, "64") ? 2 : 1;
}

/* MMA fragment widths: d, a, b, c (registers). */
static void
mma_widths(const Insn *in, int w[4])
{
	int f16acc = !insn_has(in, "F32") && !insn_has(in, "S32") && !strcmp(in->op, "HMMA");
	int tf32 = insn_has(in, "TF32");
	int i;

	w[0] = w[3] = f16acc ? 2 : 4;
	w[1] = 4;
	w[2] = 2;
	for (i = 0; i < in->nmods; i++) {
		const char *m = in->mods[i];
		if (!strcmp(m, "1684") || (!strcmp(m, "1688") && !tf32)) {
			w[1] = 2;
			w[2] = 1;
		} else if (!strcmp(m, "8816") || !strcmp(m, "8832")) {
			w[0] = w[3] = 2;
			w[1] = w[2] = 1;
		} else if (!strcmp(m, "884")) {  /* DMMA m8n8k4 */
			w[0] = w[3] = 4;
			w[1] = w[2] = 2;
		}
	}
	if (!strcmp(in->op, "HGMMA") || !strcmp(in->op, "IGMMA") || !strcmp(in->op, "QGMMA")) {
		/* 64xNxK: N/2 f32 accumulators per thread (N/4 packed f16) */
		for (i = 0; i < in->nmods; i++) {
			int nn;
			if (sscanf(in->mods[i], "64x%dx", &nn) == 1)
				w[0] = w[3] = MIN(255, f16acc ? nn / 4 : nn / 2);
		}
		w[1] = 4;
		w[2] = 0;
	}
}

static void
add(HRange *r, int *n, int max, int kind, int reg, int width, int cat)
{
	int base, lim;

	switch (kind) {
	case OPK_R: base = 0; lim = 255; break;
	case OPK_UR: base = SLOT_UR; lim = 63; break;
	case OPK_P: base = SLOT_P; lim = 7; break;
	case OPK_UP: base = SLOT_UP; lim = 7; break;
	default: return;
	}
	if (reg >= lim || width <= 0)
		return;
	if (reg + width > lim)
		width = lim - reg;
	if (*n >= max)
		return;  /* cannot happen with 8 operands; never abort on input */
	r[*n].s = (u16)(base + reg);
	r[*n].n = (u8)width;
	r[*n].cat = (u8)cat;
	(*n)++;
}

/* Number of destination operands at the front of the operand list. */
int
hz_ndst(const Insn *in)
{
	int k, n = 1;

	if (!in->nops || op_is(in, nodst_ops) || in->o[0].kind == OPK_MEM || in->o[0].kind == OPK_B ||
	    in->o[0].kind == OPK_IMM || in->o[0].kind == OPK_SB)
		return 0;
	if (!strcmp(in->op, "VOTE") || !strcmp(in->op, "VOTEU"))
		return in->nops - 1;  /* VOTE.ANY P1, P1 / VOTE.ANY R9, PT, P3 */
	if (!strcmp(in->op, "PLOP3") || !strcmp(in->op, "UPLOP3") || !strcmp(in->op, "ELECT"))
		return MIN(2, in->nops);
	/* "LOP3.LUT P0, R3, ...", "SHFL.BFLY PT, R3, ...", "QSPC.E.S P0, RZ, [..]",
	   "ATOMG.E.CAS PT, R3, [..]" (but FCHK P0, R0, R17 writes P0 only) */
	if ((!strcmp(in->op, "LOP3") || !strcmp(in->op, "ULOP3") || !strcmp(in->op, "SHFL") ||
	     !strcmp(in->op, "QSPC") || !strncmp(in->op, "ATOM", 4)) &&
	    (in->o[0].kind == OPK_P || in->o[0].kind == OPK_UP) && in->nops > 1 &&
	    (in->o[1].kind == OPK_R || in->o[1].kind == OPK_UR))
		return 2;
	for (k = 1; k < in->nops && (in->o[k].kind == OPK_P || in->o[k].kind == OPK_UP); k++)
		n++;
	/* PLOP3-like "P, P, P..." forms are handled above; a trailing source
	   predicate (SEL R, R, R, P) never follows the destination directly */
	return n;
}

static int
data_width(const Insn *in)
{
	if (insn_has(in, "128"))
		return 4;
	if (insn_has(in, "64") || insn_has(in, "F64") || insn_has(in, "S64") || insn_has(in, "U64"))
		return 2;
	return 1;
}

/* Reads of a memory or constant operand's registers. */
static void
mem_reads(HIns *h, const Operand *o, int cat)
{
	if (o->kind == OPK_MEM) {
		if (o->rk)
			add(h->rd, &h->nrd, HZ_RD, o->rk, o->reg, o->rk == OPK_R && o->x64 ? 2 : 1, cat);
		if (o->ur != 63 && o->ur != 0xffff)
			add(h->rd, &h->nrd, HZ_RD, OPK_UR, o->ur, 1, cat);
		if (o->desc != 0xffff)
			add(h->rd, &h->nrd, HZ_RD, OPK_UR, o->desc, 2, cat);
	} else if (o->kind == OPK_CB && o->rk)
		add(h->rd, &h->nrd, HZ_RD, o->rk, o->reg, 1, cat);
}

static void
regs_of(const Arch *a, HIns *h)
{
	const Insn *in = &h->in;
	int nd = hz_ndst(in), k, cat = lat_cat_row(in, h->row);
	int mma = !strcmp(in->op, "HMMA") || !strcmp(in->op, "IMMA") || !strcmp(in->op, "DMMA") ||
		  !strcmp(in->op, "HGMMA") || !strcmp(in->op, "IGMMA") || !strcmp(in->op, "QGMMA");
	int mw[4] = {1, 1, 1, 1}, isdbl = op_is(in, dbl_ops), ismem = op_is(in, mem_ops);
	int conv = !strcmp(in->op, "F2F") || !strcmp(in->op, "F2I") || !strcmp(in->op, "I2F") ||
		   !strcmp(in->op, "FRND");
	int wide = !strcmp(in->op, "IMAD") || !strcmp(in->op, "UIMAD");
	int hi = wide && insn_has(in, "HI");

	/* IMAD.WIDE writes a pair; IMAD.WIDE and IMAD.HI add a pair c (the
	 * third register source, after an optional carry-out predicate) */
	wide = wide && insn_has(in, "WIDE");
	if (mma)
		mma_widths(in, mw);
	if (in->guard >= 0 && in->guard != 7)
		add(h->rd, &h->nrd, HZ_RD, in->guard_up ? OPK_UP : OPK_P, in->guard, 1, LC_GUARD);
	for (k = 0; k < in->nops; k++) {
		const Operand *o = &in->o[k];
		int w = 1, dst = k < nd;
		if (o->kind == OPK_SR && o->text && (!strcmp(o->text, "PR") || !strcmp(o->text, "UPR"))) {
			/* P2R R, PR, R, mask / R2P PR, R, mask: the predicates in mask */
			int kind = o->text[0] == 'U' ? OPK_UP : OPK_P, p;
			u64 mask = 0x7f;
			if (in->nops > 0 && in->o[in->nops - 1].kind == OPK_IMM)
				mask = in->o[in->nops - 1].imm;
			for (p = 0; p < 7; p++) {
				if (!(mask >> p & 1))
					continue;
				if (dst)
					add(h->wr, &h->nwr, HZ_WR, kind, p, 1, 0);
				else
					add(h->rd, &h->nrd, HZ_RD, kind, p, 1, cat);
			}
			continue;
		}
		if (o->kind == OPK_MEM || o->kind == OPK_CB) {
			mem_reads(h, o, cat);
			continue;
		}
		if (o->kind != OPK_R && o->kind != OPK_UR && o->kind != OPK_P && o->kind != OPK_UP)
			continue;
		if (o->kind == OPK_R || o->kind == OPK_UR) {
			if (mma)
				w = mw[MIN(k, 3)];
			else if (isdbl)
				w = 2;
			else if (conv)
				w = conv_width(in, dst);
			else if (wide || hi)
				w = (dst && wide) || k == nd + 2 ? 2 : 1;
			else if (ismem)
				w = data_width(in);
			else if (!strcmp(in->op, "CS2R"))
				w = insn_has(in, "32") ? 1 : 2;
			else if (insn_has(in, "64") && strcmp(in->op, "SHF") && strcmp(in->op, "USHF") &&
				 strncmp(in->op, "MUFU", 4))
				w = 2;
			if (o->x64)
				w = MAX(w, 2);
			if (!strcmp(in->op, "LDSM"))
				w = insn_has(in, "4") ? 4 : insn_has(in, "2") ? 2 : 1;
		}
		if (dst)
			add(h->wr, &h->nwr, HZ_WR, o->kind, o->reg, w, 0);
		else
			add(h->rd, &h->nrd, HZ_RD, o->kind, o->reg, w, cat);
	}
}

static long
target_of(const Insn *in, size_t n)
{
	int k;

	for (k = in->nops - 1; k >= 0; k--)
		if (in->o[k].kind == OPK_IMM) {
			u64 t = in->o[k].imm;
			return t % 16 == 0 && t / 16 < n ? (long)(t / 16) : -1;
		}
	return -1;
}

static void
flow_of(HIns *h, size_t n)
{
	const Insn *in = &h->in;
	const char *op = in->op;

	h->target = -1;
	if (!strcmp(op, "BRA") || !strcmp(op, "JMP")) {
		h->kind = HK_BRA;
		h->target = target_of(in, n);
		if (h->target < 0)
			h->kind = HK_BRX;
	} else if (!strcmp(op, "EXIT") || !strcmp(op, "KILL"))
		h->kind = HK_EXIT;
	else if (!strcmp(op, "CALL")) {
		h->kind = HK_CALL;
		h->target = target_of(in, n);
	} else if (!strcmp(op, "RET"))
		h->kind = HK_RET;
	else if (!strcmp(op, "BRX") || !strcmp(op, "JMX"))
		h->kind = HK_BRX;
	else if (!strcmp(op, "DEPBAR") && in->nops >= 1 && in->o[0].kind == OPK_SB) {
		h->kind = HK_DEPBAR;
		h->sb = in->o[0].reg;
		h->sbn = in->nops >= 2 && in->o[1].kind == OPK_IMM ? (int)in->o[1].imm : 0;
	}
}

int
hz_decode(const Arch *a, const Word *code, size_t n, HIns *ins, Arena *ar, size_t *bad)
{
	Buf b = {0};
	char err[256];
	size_t i;

	for (i = 0; i < n; i++) {
		HIns *h = &ins[i];
		memset(h, 0, sizeof *h);
		b.n = 0;
		if (b.s)
			b.s[0] = 0;
		if (isa_print(a, code[i], (u64)i * 16, NULL, &b) < 0 ||
		    insn_parse(b.s, &h->in, ar, err, sizeof err) < 0) {
			*bad = i;
			buf_free(&b);
			return -1;
		}
		h->c = ctrl_get(code[i]);
		h->cls = lat_class(&h->in, ar);
		h->row = lat_row(a, h->cls);
		h->lat = lat_of_row(h->row, h->cls);
		h->cond = h->in.guard >= 0 && h->in.guard != 7;
		h->never = h->in.guard == 7 && h->in.guard_not;
		flow_of(h, n);
		if (!h->never)
			regs_of(a, h);
	}
	buf_free(&b);
	return 0;
}
