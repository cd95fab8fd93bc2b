/* hz_decode.c -- the hazard checker's view of one instruction: which
 * register slots it reads and writes (register pairs and quads included),
 * its latency class, its control flow (branch, call, return, exit) and its
 * control bits.  Built from the printer's text through insn_parse, so it
 * knows exactly what the disassembler shows. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/hazard.h"
#include "isa/isa_impl.h"
#include "cubin/listing.h"
#include "ir/ir.h"

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

/* Is s in the NULL-terminated list l? */
static int
name_in(const char *s, const char *const *l)
{
	for (; *l; l++)  /* the first letter inline: most names differ there */
		if ((*l)[0] == s[0] && !strcmp(s, *l))
			return 1;
	return 0;
}

static int ndst(const Insn *in, u64 of);
static int is_mem(const char *op);

/* What the table below and the opcode tests of op_flags say about an
 * opcode, computed once per opcode id (hz_opid) instead of string compares
 * at every decode: OF_* in bits 0-7, lat_cat_op in bits 8-11 (OF_CAT),
 * pipe_of in 12-15 (OF_PIPE), the HF_* memory flags in 16-19 (OF_MEMF),
 * the control flow (FL_*) in 20-23, ndst's special forms (ND_*) in 24-27,
 * regs_of's operand forms (FM_*) in 28-31; OF_REUSE: its source operands
 * sit in the A, B, C slots of operand reuse in text order (reuse_srcs:
 * IMAD R4, R5, R20.reuse, RZ: bits 122, 123, 124 mark R5, R20, RZ;
 * ctrlbits.c); OF_S2R: it is S2R (facts_of). */
enum {
	OF_KNOWN = 1, OF_NODST = 2, OF_DBL = 4, OF_MEMOP = 8, OF_MMA = 16, OF_CONV = 32, OF_WIDE = 64,
	OF_FENCE = 128,
};
#define OF_REUSE (1ull << 32)
#define OF_S2R (1ull << 33)
#define OF_CAT(f) ((f) >> 8 & 0xf)
#define OF_PIPE(f) ((f) >> 12 & 0xf)
#define OF_MEMF(f) ((f) >> 16 & 0xf)
#define OF_FLOW(f) ((f) >> 20 & 0xf)
#define OF_ND(f) ((f) >> 24 & 0xf)
#define OF_FM(f) ((f) >> 28 & 0xf)
/* Control flow: BRA/JMP, EXIT/KILL, CALL, RET, BRX/JMX, DEPBAR. */
enum { FL_NONE, FL_BRA, FL_EXIT, FL_CALL, FL_RET, FL_BRX, FL_DEPBAR };
/* ndst's special forms: VOTE, PLOP3-like (two predicate results), LOP3-like
   (a predicate and a register result when the second operand is one;
   every ATOM* too, op_flags). */
enum { ND_NONE, ND_VOTE, ND_PLOP, ND_LOPP };
/* regs_of's operand forms: TEX/TLD and SULD/SUST (tex_regs), LDSM/STSM (a
   group of .2/.4 registers), CS2R (a pair unless .32), and the opcodes
   whose .64 is no 64-bit operand (SHF, USHF, MUFU), the TMA unit's and
   the bulk copy engine's uniform register groups (tma_regs; they read
   them late, HIns.async_ur). */
enum { FM_NONE, FM_TEX, FM_SURF, FM_LDSM, FM_CS2R, FM_NO64, FM_TMA };

/* The opcodes with list bits, sorted by name (strcmp order: op_list_bits
 * searches it).  NODST: writes no register (operands are all sources);
 * MEMOP: its registers are data_width wide; DBL, MMA, CONV, WIDE: the
 * operand widths of regs_of; FM(k): its operand form (FM_*); FENCE: the
 * scheduler moves nothing across it (HIns.fence, sched.c); REUSE, S2R: the
 * OF_ bits of those names.  PIPE(k):
 * variable-latency results that complete in order with each other: 1 FP64;
 * 2 the conversion/SFU pipe (ptxas: I2F without a scoreboard covered by
 * the next MUFU's, F2I by the next F2F's); 3 shared memory and shuffles
 * (ptxas: an LDS without a scoreboard covered by the wait on the next
 * SHFL's, tests/emu/simt.sm_90.cubin); 4 the texture unit (ptxas: a TEX or
 * TLD without a scoreboard covered by a later one's or a later SULD's,
 * tests/emu/tex_surfx.sm_90.cubin; tools/isa-tex's kernel). */
#define NODST OF_NODST
#define DBL OF_DBL
#define MEMOP OF_MEMOP
#define MMA OF_MMA
#define CONV OF_CONV
#define WIDE OF_WIDE
#define FENCE OF_FENCE
#define REUSE OF_REUSE
#define S2R OF_S2R
#define PIPE(k) ((k) << 12)
#define FLOW(k) ((k) << 20)
#define ND(k) ((k) << 24)
#define FM(k) ((u32)(k) << 28)
static const struct {
	const char *name;
	u64 f;
} op_list[] = {
	{"ACQBULK", NODST | FENCE}, {"ARRIVES", NODST | FENCE}, {"ATOM", MEMOP | FENCE},
	{"ATOMG", MEMOP | FENCE}, {"ATOMS", MEMOP | FENCE}, {"BAR", NODST | FENCE}, {"BMOV", FENCE},
	{"BPT", NODST | FENCE}, {"BRA", NODST | FLOW(FL_BRA) | FENCE}, {"BREAK", NODST},
	{"BRX", NODST | FLOW(FL_BRX) | FENCE}, {"BSSY", NODST | FENCE}, {"BSYNC", NODST | FENCE},
	{"CALL", NODST | FLOW(FL_CALL) | FENCE}, {"CCTL", NODST | FENCE}, {"CCTLL", NODST | FENCE},
	{"CGAERRBAR", NODST | FENCE}, {"CS2R", FM(FM_CS2R) | FENCE}, {"DADD", DBL | PIPE(1)},
	{"DEPBAR", NODST | FLOW(FL_DEPBAR) | FENCE}, {"DFMA", DBL | PIPE(1)}, {"DMMA", MMA},
	{"DMNMX", DBL | PIPE(1)}, {"DMUL", DBL | PIPE(1)}, {"DSET", DBL}, {"DSETP", DBL | PIPE(1)},
	{"ELECT", ND(ND_PLOP) | FENCE}, {"ENDCOLLECTIVE", NODST}, {"ERRBAR", NODST | FENCE},
	{"EXIT", NODST | FLOW(FL_EXIT) | FENCE}, {"F2F", CONV | PIPE(2)}, {"F2I", CONV | PIPE(2)},
	{"FADD", REUSE}, {"FENCE", NODST | FENCE}, {"FFMA", REUSE}, {"FMNMX", REUSE}, {"FMUL", REUSE},
	{"FRND", CONV | PIPE(2)}, {"HGMMA", MMA | FENCE}, {"HMMA", MMA},
	{"I2F", CONV | PIPE(2)}, {"IADD3", REUSE}, {"IGMMA", MMA | FENCE}, {"IMAD", WIDE | REUSE},
	{"IMMA", MMA}, {"IMNMX", REUSE},
	{"JMP", NODST | FLOW(FL_BRA) | FENCE}, {"JMX", NODST | FLOW(FL_BRX) | FENCE},
	{"KILL", NODST | FLOW(FL_EXIT) | FENCE}, {"LD", MEMOP}, {"LDC", MEMOP}, {"LDG", MEMOP},
	{"LDGDEPBAR", NODST | FENCE}, {"LDGSTS", NODST | FENCE}, {"LDL", MEMOP}, {"LDS", MEMOP | PIPE(3)},
	{"LDSM", MEMOP | FM(FM_LDSM)}, {"LDTRAM", FENCE}, {"LEPC", FENCE}, {"LOP3", ND(ND_LOPP) | REUSE},
	{"MATCH", FENCE}, {"MEMBAR", NODST | FENCE}, {"MUFU", PIPE(2) | FM(FM_NO64)},
	{"NANOSLEEP", NODST | FENCE}, {"NOP", NODST | FENCE}, {"PLOP3", ND(ND_PLOP)}, {"PMTRIG", FENCE},
	{"PREEXIT", NODST}, {"QGMMA", MMA | FENCE}, {"QSPC", ND(ND_LOPP) | FENCE},
	{"RED", NODST | MEMOP | FENCE}, {"REDG", NODST | MEMOP | FENCE}, {"REDUX", FENCE},
	{"RET", NODST | FLOW(FL_RET) | FENCE}, {"S2R", S2R}, {"S2UR", FENCE}, {"SETMAXNREG", FENCE},
	{"SHF", FM(FM_NO64)}, {"SHFL", PIPE(3) | ND(ND_LOPP) | FENCE}, {"ST", NODST | MEMOP | FENCE},
	{"STG", NODST | MEMOP | FENCE}, {"STL", NODST | MEMOP | FENCE}, {"STS", NODST | MEMOP | FENCE},
	{"STSM", NODST | FM(FM_LDSM) | FENCE}, {"SULD", PIPE(4) | FM(FM_SURF)},
	{"SUST", FM(FM_SURF) | FENCE}, {"SYNCS", MEMOP | FENCE}, {"TEX", PIPE(4) | FM(FM_TEX)},
	{"TLD", PIPE(4) | FM(FM_TEX)}, {"TLD4", PIPE(4)}, {"TXQ", PIPE(4)}, {"UBLKCP", NODST | FM(FM_TMA) | FENCE},
	{"UCGABAR_ARV", NODST | FENCE}, {"UCGABAR_WAIT", NODST | FENCE}, {"UIMAD", WIDE}, {"ULDC", MEMOP},
	{"ULOP3", ND(ND_LOPP)}, {"UPLOP3", ND(ND_PLOP)}, {"USHF", FM(FM_NO64)},
	{"UTMACCTL", NODST | FM(FM_TMA) | FENCE}, {"UTMACMDFLUSH", NODST | FM(FM_TMA) | FENCE},
	{"UTMALDG", NODST | FM(FM_TMA) | FENCE}, {"UTMAPF", NODST | FM(FM_TMA) | FENCE},
	{"UTMAREDG", NODST | FM(FM_TMA) | FENCE}, {"UTMASTG", NODST | FM(FM_TMA) | FENCE},
	{"VOTE", ND(ND_VOTE) | FENCE}, {"VOTEU", ND(ND_VOTE) | FENCE}, {"WARPGROUP", NODST | FENCE},
	{"WARPSYNC", NODST | FENCE}, {"YIELD", NODST | FENCE},
};
#undef NODST
#undef DBL
#undef MEMOP
#undef MMA
#undef CONV
#undef WIDE
#undef FENCE
#undef REUSE
#undef S2R
#undef PIPE
#undef FLOW
#undef ND
#undef FM

int
hz_op_list_sorted(void)
{
	size_t i;

	for (i = 1; i < NELEM(op_list); i++)
		if (strcmp(op_list[i - 1].name, op_list[i].name) >= 0)
			return 0;
	return 1;
}

/* The op_list bits of op, 0 when it is not there. */
static u64
op_list_bits(const char *op)
{
	size_t lo = 0, hi = NELEM(op_list);

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const char *t = op_list[mid].name;
		int c = t[0] != op[0] ? (uchar)t[0] - (uchar)op[0] : strcmp(t, op);
		if (!c)
			return op_list[mid].f;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

static struct {
	u64 *f;
	size_t n;
} opf;

static u64
op_flags(int id, const char *op)
{
	u64 f = OF_KNOWN;

	if ((size_t)id >= opf.n) {
		size_t n = opf.n ? opf.n : 64;
		while (n <= (size_t)id)
			n *= 2;
		opf.f = xrealloc(opf.f, n * sizeof *opf.f);
		memset(opf.f + opf.n, 0, (n - opf.n) * sizeof *opf.f);
		opf.n = n;
	}
	if (opf.f[id])
		return opf.f[id];
	f |= op_list_bits(op);
	f |= (u64)lat_cat_op(op) << 8;
	f |= (u64)((is_mem(op) ? HF_MEM : 0) | (!strncmp(op, "ATOM", 4) ? HF_ATOM : 0)) << 16;
	if (!OF_ND(f) && !strncmp(op, "ATOM", 4))
		f |= (u64)ND_LOPP << 24;
	return opf.f[id] = f;
}

/* Width of a conversion's destination (dst = 1) or source (dst = 0). */
static int
conv_width(const Insn *in, int dst)
{
	static const char *const ints[] = {"S8", "U8", "S16", "U16", "S32", "U32", "S64", "U64", NULL};
	static const char *const flts[] = {"F16", "F32", "F64", "BF16", "E4M3", "E5M2", "TF32", NULL};
	const char *types[4];
	int nt = 0, i, intdst;
	const char *t = NULL;

	for (i = 0; i < in->nmods && nt < 4; i++)
		if (name_in(in->mods[i], ints) || name_in(in->mods[i], flts))
			types[nt++] = in->mods[i];
	if (!strcmp(in->op, "F2F") || !strcmp(in->op, "FRND")) {
		if (nt >= 2)
			t = types[dst ? 0 : 1];
		else if (nt == 1)
			t = types[0];
	} else {
		intdst = !strcmp(in->op, "F2I");  /* F2I: int dst, float src; I2F the reverse */
		for (i = 0; i < nt; i++)
			if ((name_in(types[i], ints) == intdst) == dst)
				t = types[i];
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

/* The registers of one instruction as regs_of finds them (decode1 keeps
   the ranges it used). */
enum { HZ_RD = 40, HZ_WR = 16 };  /* more than any form can name */
typedef struct {
	HRange rd[HZ_RD], wr[HZ_WR];
	int nrd, nwr;
} Regs;

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

/* Number of destination operands at the front of the operand list (of:
   the opcode's flags). */
static int
ndst(const Insn *in, u64 of)
{
	int k, n = 1;

	if (!in->nops || (of & OF_NODST) || in->o[0].kind == OPK_MEM || in->o[0].kind == OPK_B ||
	    in->o[0].kind == OPK_IMM || in->o[0].kind == OPK_SB)
		return 0;
	if (OF_ND(of) == ND_VOTE)
		return in->nops - 1;  /* VOTE.ANY P1, P1 / VOTE.ANY R9, PT, P3 */
	if (OF_ND(of) == ND_PLOP)
		return MIN(2, in->nops);
	/* "LOP3.LUT P0, R3, ...", "SHFL.BFLY PT, R3, ...", "QSPC.E.S P0, RZ, [..]",
	   "ATOMG.E.CAS PT, R3, [..]" (but FCHK P0, R0, R17 writes P0 only) */
	if (OF_ND(of) == ND_LOPP && (in->o[0].kind == OPK_P || in->o[0].kind == OPK_UP) && in->nops > 1 &&
	    (in->o[1].kind == OPK_R || in->o[1].kind == OPK_UR))
		return 2;
	for (k = 1; k < in->nops && (in->o[k].kind == OPK_P || in->o[k].kind == OPK_UP); k++)
		n++;
	/* PLOP3-like "P, P, P..." forms are handled above; a trailing source
	   predicate (SEL R, R, R, P) never follows the destination directly */
	return n;
}

/* The registers of a memory operation's data: 4 for .128 and the x4 / x8
   vectors, 2 for .64, the 64-bit types and the x2 / x4 ones, else 1; one
   pass over the modifiers. */
static int
data_width(const Insn *in)
{
	static const struct {
		const char *m;
		int w;
	} ws[] = {
		{"128", 4}, {"F32x4", 4}, {"F16x8", 4}, {"BF16x8", 4}, {"64", 2}, {"F64", 2},
		{"S64", 2}, {"U64", 2}, {"F32x2", 2}, {"F16x4", 2}, {"BF16x4", 2},
	};
	int i, w = 1;
	size_t k;

	for (i = 0; i < in->nmods; i++)
		for (k = 0; k < NELEM(ws); k++)
			if (ws[k].m[0] == in->mods[i][0] && ws[k].w > w && !strcmp(ws[k].m, in->mods[i]))
				w = ws[k].w;
	return w;
}

/* Reads of a memory or constant operand's registers. */
static void
mem_reads(Regs *rg, const Operand *o, int cat)
{
	if (o->kind == OPK_MEM) {
		if (o->rk)
			add(rg->rd, &rg->nrd, HZ_RD, o->rk, o->reg, o->rk == OPK_R && o->x64 ? 2 : 1, cat);
		if (o->ur != 63 && o->ur != 0xffff)
			add(rg->rd, &rg->nrd, HZ_RD, OPK_UR, o->ur, 1, cat);
		if (o->desc != 0xffff)
			add(rg->rd, &rg->nrd, HZ_RD, OPK_UR, o->desc, 2, cat);
	} else if (o->kind == OPK_CB && o->rk)
		add(rg->rd, &rg->nrd, HZ_RD, o->rk, o->reg, 1, cat);
}

/* TEX/TLD Rd, Rd2, Ra[, Rb], handle, GEOM[, mask] and SULD/SUST: the
 * enabled components of mask (default 0xf) go to Rd2, Rd2+1, Rd, Rd+1;
 * the coordinates are consecutive from Ra (TLD.SCR: y in Rb), a surface
 * access's from the [Ra] base; the handle UR is read as a pair (ptxas
 * clears its high half).  form: the opcode's FM_TEX or FM_SURF. */
static void
tex_regs(Regs *rg, const Insn *in, int form, int cat)
{
	const char *op = in->op;
	int k, g = -1, dims = 1, tex = form == FM_TEX;

	for (k = 0; k < in->nops; k++)
		if (in->o[k].kind == OPK_GEOM)
			g = k;
	if (g >= 0) {
		const char *t = in->o[g].text;
		dims = !strcmp(t, "ARRAY_CUBE") ? 4 : !strcmp(t, "CUBE") || !strcmp(t, "ARRAY_2D") ? 3 :
		       !strcmp(t, "ARRAY_1D") ? 2 : t[0] - '0';
	} else
		dims = insn_has(in, "3D") ? 3 : insn_has(in, "2D") ? 2 : 1;
	for (k = 0; k < in->nops; k++) {
		const Operand *o = &in->o[k];
		int w = 1;
		if (o->kind == OPK_MEM) {
			if (o->rk == OPK_R)
				add(rg->rd, &rg->nrd, HZ_RD, OPK_R, o->reg, dims, cat);
			continue;
		}
		if (o->kind == OPK_UR) {
			add(rg->rd, &rg->nrd, HZ_RD, OPK_UR, o->reg, 2, cat);
			continue;
		}
		if (o->kind != OPK_R)
			continue;
		if (tex && k < 2) {
			u64 mask = g >= 0 && g + 1 < in->nops && in->o[g + 1].kind == OPK_IMM ? in->o[g + 1].imm : 0xf;
			int n = __builtin_popcountll(mask & 0xf);
			add(rg->wr, &rg->nwr, HZ_WR, OPK_R, o->reg, k ? MIN(n, 2) : n - 2, 0);
			continue;
		}
		if (!tex)
			w = data_width(in);
		else if (k == 2 && !(op[1] == 'L' && in->o[3].kind == OPK_R))
			w = dims;
		if (!tex && !strcmp(op, "SULD") && k == 0)
			add(rg->wr, &rg->nwr, HZ_WR, OPK_R, o->reg, w, 0);
		else
			add(rg->rd, &rg->nrd, HZ_RD, OPK_R, o->reg, w, cat);
	}
}

/* The uniform register groups of the TMA unit and the bulk copy engine
 * (docs/compiler-tma.md): UTMALDG.nD [URa] reads URa..URa+n+1 (smem,
 * mbarrier, coordinates), UTMASTG/UTMAREDG n+1, UTMAPF n; the second
 * [URt] is a 64-bit address; UBLKCP [URd:URd+1], [URs:URs+1], URn;
 * UTMACCTL [URa:URa+1]; a MULTICAST mask UR and desc[] policies. */
static void
tma_regs(Regs *rg, const Insn *in, int cat)
{
	const char *op = in->op;
	int k, n = 0, g;

	for (k = 1; k <= 5; k++)
		if (insn_has(in, (const char *[]){ "", "1D", "2D", "3D", "4D", "5D" }[k]))
			n = k;
	g = !strcmp(op, "UTMALDG") ? n + 2 : !strcmp(op, "UTMAPF") ? n : n ? n + 1 : 2;
	for (k = 0; k < in->nops; k++) {
		const Operand *o = &in->o[k];
		if (o->kind == OPK_MEM && o->rk == OPK_UR)
			add(rg->rd, &rg->nrd, HZ_RD, OPK_UR, o->reg, k ? 2 : g, cat);
		if (o->kind == OPK_MEM && o->desc != 0xffff)
			add(rg->rd, &rg->nrd, HZ_RD, OPK_UR, o->desc, 2, cat);
		if (o->kind == OPK_UR)
			add(rg->rd, &rg->nrd, HZ_RD, OPK_UR, o->reg, 1, cat);
	}
}

/* The modifiers regs_of and reuse_srcs ask about, as bits: one pass over
   the modifiers instead of an insn_has scan per question. */
enum { MB_64 = 1, MB_WIDE = 2, MB_HI = 4, MB_32 = 8, MB_2 = 16, MB_4 = 32, MB_ABS = 64 };

static __attribute__((noinline)) u32
mod_bits(const Insn *in)
{
	u32 b = 0;
	int i;

	for (i = 0; i < in->nmods; i++) {
		const char *m = in->mods[i];

		switch (m[0]) {
		case '6': b |= m[1] == '4' && !m[2] ? MB_64 : 0; break;
		case 'W': b |= !strcmp(m, "WIDE") ? MB_WIDE : 0; break;
		case 'H': b |= m[1] == 'I' && !m[2] ? MB_HI : 0; break;
		case '3': b |= m[1] == '2' && !m[2] ? MB_32 : 0; break;
		case '2': b |= !m[1] ? MB_2 : 0; break;
		case '4': b |= !m[1] ? MB_4 : 0; break;
		case 'A': b |= !strcmp(m, "ABS") ? MB_ABS : 0; break;
		}
	}
	return b;
}

/* The registers of in (of: its op_flags; mb: its mod_bits). */
static void
regs_of(const HIns *h, const Insn *in, u64 of, u32 mb, Regs *rg)
{
	int nd = h->nd, k, cat = lat_cat_flags(OF_CAT(of), h->row);
	int mma = !!(of & OF_MMA);
	int mw[4] = {1, 1, 1, 1}, isdbl = !!(of & OF_DBL), ismem = !!(of & OF_MEMOP);
	int dw = ismem ? data_width(in) : 1;
	int conv = !!(of & OF_CONV);
	int wide = !!(of & OF_WIDE);
	int hi = wide && (mb & MB_HI);
	/* the opcode tests of the operand loop, once */
	int form = OF_FM(of);
	int w64 = form != FM_NO64 && (mb & MB_64);

	/* IMAD.WIDE writes a pair; IMAD.WIDE and IMAD.HI add a pair c (the
	 * third register source, after an optional carry-out predicate) */
	wide = wide && (mb & MB_WIDE);
	if (mma)
		mma_widths(in, mw);
	if (in->guard >= 0 && in->guard != 7)
		add(rg->rd, &rg->nrd, HZ_RD, in->guard_up ? OPK_UP : OPK_P, in->guard, 1, LC_GUARD);
	if (OF_FLOW(of) == FL_CALL && (mb & MB_ABS)) {
		/* a call out of the cubin (vprintf...): the callee reads its
		 * arguments and may overwrite any register, so every pending
		 * result and every pending read must be waited for */
		add(rg->rd, &rg->nrd, HZ_RD, OPK_R, 0, 255, cat);
		add(rg->wr, &rg->nwr, HZ_WR, OPK_R, 2, 253, 0);
	}
	if (form == FM_TEX || form == FM_SURF) {
		tex_regs(rg, in, form, cat);
		return;
	}
	if (form == FM_TMA) {
		tma_regs(rg, in, cat);
		return;
	}
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
					add(rg->wr, &rg->nwr, HZ_WR, kind, p, 1, 0);
				else
					add(rg->rd, &rg->nrd, HZ_RD, kind, p, 1, cat);
			}
			continue;
		}
		if (o->kind == OPK_MEM || o->kind == OPK_CB) {
			mem_reads(rg, o, cat);
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
				w = dw;
			else if (form == FM_CS2R)
				w = mb & MB_32 ? 1 : 2;
			else if (w64)
				w = 2;
			if (o->x64)
				w = MAX(w, 2);
			if (form == FM_LDSM)  /* .2/.4: a group */
				w = mb & MB_4 ? 4 : mb & MB_2 ? 2 : 1;
		}
		if (dst)
			add(rg->wr, &rg->nwr, HZ_WR, o->kind, o->reg, w, 0);
		else
			add(rg->rd, &rg->nrd, HZ_RD, o->kind, o->reg, w, cat);
	}
}

/* The byte address a branch or call names: its last immediate operand,
   ~0 when none. */
static u64
target_addr(const Insn *in)
{
	int k;

	for (k = in->nops - 1; k >= 0; k--)
		if (in->o[k].kind == OPK_IMM)
			return in->o[k].imm;
	return ~(u64)0;
}

/* h->target of a branch or call (fl: FL_BRA, FL_CALL) from the address t
   it names, in code of n words; a BRA whose target is not an instruction
   is a BRX. */
static void
set_target(HIns *h, int fl, u64 t, size_t n)
{
	h->target = t % 16 == 0 && t / 16 < n ? (i32)(t / 16) : -1;
	if (fl == FL_BRA)
		h->kind = h->target < 0 ? HK_BRX : HK_BRA;
}

/* h->kind (left as it is for ordinary instructions), h->sb/sbn, and the
   address a branch or call names (~0 when none). */
static u64
flow_of(HIns *h, const Insn *in, int fl)
{
	switch (fl) {
	case FL_BRA:
		h->kind = HK_BRA;
		return target_addr(in);
	case FL_EXIT:
		h->kind = HK_EXIT;
		break;
	case FL_CALL:
		h->kind = HK_CALL;
		/* CALL.REL.NOINC R2 `(k): the target is in R2 (the label is
		   only an offset to it): an indirect call */
		return in->nops > 0 && in->o[0].kind == OPK_R ? ~(u64)0 : target_addr(in);
	case FL_RET:
		h->kind = HK_RET;
		break;
	case FL_BRX:
		h->kind = HK_BRX;
		break;
	case FL_DEPBAR:
		if (in->nops >= 1 && in->o[0].kind == OPK_SB) {
			h->kind = HK_DEPBAR;
			h->sb = (u8)MIN(in->o[0].reg, 255);
			/* above 255 no count of pending writes reaches it */
			h->sbn = in->nops >= 2 && in->o[1].kind == OPK_IMM ? (u16)MIN(in->o[1].imm, 256) : 0;
		}
		break;
	}
	return ~(u64)0;
}

/* ---- the decode memo ----
 * A compile decodes the same words three times (scheduler, assigner,
 * checker) and a module repeats many words: the decoded view of a word
 * depends only on its operation bits (and the reuse flags the printer
 * shows), not on its stall, yield, scoreboard and wait bits, nor on its
 * address unless its form has a PC-relative field.  So each word is decoded once per
 * process and arch, keyed by those bits; a PC-relative word (its form has
 * such a field: branches, BSSY ...) is marked so in that entry,
 * which serves the address it was decoded at, and gets one more entry per
 * other address (the three decodes of a compile see it at the same one).  The memo's strings live in its own
 * arena for the life of the process. */

enum { MEMO_MAX = 1 << 20 };  /* entries; past that, decode without the memo */

typedef struct {
	const Arch *a;
	Word key;
	u64 addr;  /* an entry for one address (key tagged by MEMO_AT_ADDR), else 0 */
	u64 at;    /* the address it was decoded at */
	u8 pcrel;
	u64 t;    /* the address a branch or call names (flow_of) */
	HIns h;
} Memo;

/* Entries in dense chunks of MEMO_CH (a small kernel touches few pages;
   growing never copies an entry), found through an open-addressing table
   of their indices + 1.  A chunk fills 8 KiB, the allocator's header
   included (64 entries of 144 bytes took a 10 KiB block, 1 KiB unused). */
enum { MEMO_CH = (8192 - 64) / sizeof(Memo) };
#define MEMO_AT(i) (&memo.c[(i) / MEMO_CH][(i) % MEMO_CH])
static struct {
	Memo **c;  /* chunks */
	size_t n, nc;
	u32 *tab;
	size_t tcap;
	Arena ar;
} memo;

/* The bits isa_print reads: the control field's stall, yield, scoreboards
   and wait cleared; reuse flags only when the yield bit shows them. */
static Word
memo_key(Word w)
{
	if (!(w.hi >> 45 & 1))
		w.hi &= ~(0xfull << 58);
	w.hi &= ~(((1ull << 17) - 1) << 41);
	return w;
}

/* A cleared control bit of memo_key set: the key of a per-address entry. */
#define MEMO_AT_ADDR (1ull << 41)

static size_t
memo_hash(const Arch *a, Word k, u64 addr)
{
	u64 x = (k.lo ^ addr) * 0x9e3779b97f4a7c15ull ^ (k.hi + (u64)(uintptr_t)a) * 0xc2b2ae3d27d4eb4full;

	/* the high bits of the products mix every input bit; the low ones only the low bits */
	x ^= x >> 32;
	x *= 0xff51afd7ed558ccdull;
	return (size_t)(x ^ x >> 29);
}

/* The table position of (k, addr): its entry's, or the empty one to fill. */
static size_t
memo_pos(const Arch *a, Word k, u64 addr)
{
	size_t m = memo.tcap - 1, i = memo_hash(a, k, addr) & m;

	for (; memo.tab[i]; i = (i + 1) & m) {
		const Memo *e = MEMO_AT(memo.tab[i] - 1);
		if (e->a == a && e->key.lo == k.lo && e->key.hi == k.hi && e->addr == addr)
			break;
	}
	return i;
}

/* The table at cap slots (a power of two). */
static void
memo_rehash(size_t cap)
{
	size_t i;

	memo.tcap = cap;
	free(memo.tab);
	memo.tab = xcalloc(memo.tcap, sizeof *memo.tab);
	for (i = 0; i < memo.n; i++)
		memo.tab[memo_pos(MEMO_AT(i)->a, MEMO_AT(i)->key, MEMO_AT(i)->addr)] = (u32)(i + 1);
}

/* The entry of (k, addr), or NULL with *pos where to add it (NULL and
   *pos = (size_t)-1 when the memo is full). */
static Memo *
memo_get(const Arch *a, Word k, u64 addr, size_t *pos)
{
	if (memo.n >= MEMO_MAX) {
		*pos = (size_t)-1;
		return NULL;
	}
	if (2 * (memo.n + 1) > memo.tcap)
		memo_rehash(memo.tcap ? 2 * memo.tcap : 256);
	*pos = memo_pos(a, k, addr);
	return memo.tab[*pos] ? MEMO_AT(memo.tab[*pos] - 1) : NULL;
}

/* Room for one more entry (memo_add counts it). */
static Memo *
memo_next(void)
{
	if (memo.n == memo.nc * MEMO_CH) {
		memo.c = xrealloc(memo.c, (memo.nc + 1) * sizeof *memo.c);
		memo.c[memo.nc++] = xmalloc(MEMO_CH * sizeof **memo.c);
	}
	return MEMO_AT(memo.n);
}

/* memo_next's entry, decoded, becomes the one of (k, addr) at table
   position pos. */
static void
memo_add(const Arch *a, Word k, u64 addr, size_t pos)
{
	Memo *m = MEMO_AT(memo.n);

	m->a = a;
	m->key = k;
	m->addr = addr;
	memo.tab[pos] = (u32)(++memo.n);
}

/* Opcode names interned: ops.v[id] (strings in memo.ar). */
static struct {
	const char **v;
	size_t n, cap;
	u16 *tab;   /* open addressing: id + 1, 0 = empty */
	size_t tcap;
} ops;

static size_t
op_hash(const char *s)
{
	size_t x = 5381;

	for (; *s; s++)
		x = x * 33 ^ (uchar)*s;
	return x;
}

/* The id of op; keep: op's string for the life of the process, or NULL
   to keep a copy. */
static int
op_intern(const char *op, const char *keep)
{
	size_t i, m;

	if (2 * (ops.n + 1) > ops.tcap) {
		ops.tcap = ops.tcap ? 2 * ops.tcap : 256;
		free(ops.tab);
		ops.tab = xcalloc(ops.tcap, sizeof *ops.tab);
		for (i = 0; i < ops.n; i++) {
			size_t k = op_hash(ops.v[i]) & (ops.tcap - 1);
			while (ops.tab[k])
				k = (k + 1) & (ops.tcap - 1);
			ops.tab[k] = (u16)(i + 1);
		}
	}
	m = ops.tcap - 1;
	for (i = op_hash(op) & m; ops.tab[i]; i = (i + 1) & m)
		if (!strcmp(ops.v[ops.tab[i] - 1], op))
			return ops.tab[i] - 1;
	if (ops.n >= 0xfffe)
		die("hz_opid: too many opcode names");
	if (ops.n == ops.cap) {
		ops.cap = ops.cap ? 2 * ops.cap : 256;
		ops.v = xrealloc(ops.v, ops.cap * sizeof *ops.v);
	}
	ops.v[ops.n] = keep ? keep : arena_strdup(&memo.ar, op);
	ops.tab[i] = (u16)(ops.n + 1);
	return (int)ops.n++;
}

int
hz_opid(const char *op)
{
	return op_intern(op, NULL);
}

/* The opcode id of form fm's mnemonic, in (a->strs[fm->base]: every
 * form's text starts with it as the whole opcode, the unit test
 * isa_base_is_opcode), through a small open-addressing table keyed by that
 * string's address: hz_opid's hash of the name and compare, ~130
 * instructions a word, once per mnemonic. */
static struct {
	struct {
		const char *s;
		u32 id;
	} *v;
	size_t n, cap;
} bop;

static size_t
bop_slot(const char *s)
{
	size_t m = bop.cap - 1, i = (size_t)(((u64)(uintptr_t)s >> 3) * 0x9e3779b97f4a7c15ull >> 40) & m;

	while (bop.v[i].s && bop.v[i].s != s)
		i = (i + 1) & m;
	return i;
}

static int
base_opid(const Arch *a, const IsaForm *fm, const char *op)
{
	const char *s = a->strs[fm->base];
	size_t i;

	if (2 * (bop.n + 1) > bop.cap) {
		__typeof__(bop.v) old = bop.v;
		size_t k, ocap = bop.cap;

		bop.cap = ocap ? 2 * ocap : 64;
		bop.v = xcalloc(bop.cap, sizeof *bop.v);
		for (k = 0; k < ocap; k++)
			if (old[k].s)
				bop.v[bop_slot(old[k].s)] = old[k];
		free(old);
	}
	i = bop_slot(s);
	if (!bop.v[i].s) {
		bop.v[i].s = s;
		bop.v[i].id = (u32)op_intern(op, s);  /* s: the ISA tables' string */
		bop.n++;
	}
	return (int)bop.v[i].id;
}

const char *
hz_op_name(int id)
{
	return ops.v[id];
}

static int
is_mem(const char *op)
{
	return !strncmp(op, "LD", 2) || !strncmp(op, "ST", 2) || !strncmp(op, "ATOM", 4) ||
	       !strncmp(op, "RED", 3);
}

/* The per-opcode facts the checker uses at every step; fence also for a
   read of the clock (S2R SR_CLOCKLO, SR_CLOCKHI, SR_CLOCK: the ISA
   tables' only names with CLOCK). */
static void
facts_of(HIns *h, const Insn *in, u64 of)
{
	h->pipe = (u8)OF_PIPE(of);
	h->memf = (u8)OF_MEMF(of);
	h->fence = (of & OF_FENCE) || ((of & OF_S2R) && in->nops > 1 && in->o[1].text &&
				       !strncmp(in->o[1].text, "SR_CLOCK", 8));
	h->async_ur = OF_FM(of) == FM_TMA;
	h->minst = (u8)lat_min_stall_row(h->row, in);
}

/* What an instruction's latency class gives: lat_class, lat_row,
 * lat_of_row, and need and maxneed from the row. */
typedef struct {
	const char *cls;
	const LatRow *row;
	Lat lat;
	HNeedRow need[HN_N];
	u8 maxneed[HN_N];
} ClassFacts;

/* The assigner's GPU floors (row HN_FLOOR).  The mined table holds the
 * smallest distances ptxas leaves, per consumer class but not per operand
 * slot or half of a register pair: ptxas lets IMAD.WIDE read an IMAD
 * result 2 cycles later where the slot allows it, and on an H200 our code
 * that did so for any slot read stale values (tools/gpu-check:
 * sgemm_tiled, mma_tf32, div_const_u32 all pass with every stall 15 and
 * fail without).  Until the table knows slots (the stall sweep,
 * tools/lat-sweep, measures them), the assigner takes no exception below
 * the category numbers (those above stay: a consumer class ptxas never
 * placed closer; hazard.c read_need) and waits at least 4 cycles after a
 * fixed-latency register write, 6 after a 64-bit one (.WIDE).  The
 * checker keeps the mined table: ptxas's code stays accepted. */
static void
gpu_floors(ClassFacts *e)
{
	int c, fl = lat_is_wide(e->cls) ? 6 : 4;

	memcpy(e->need[HN_FLOOR], e->need[HN_MINED], sizeof e->need[HN_FLOOR]);
	e->maxneed[HN_FLOOR] = e->maxneed[HN_MINED];
	if (e->lat.var)
		return;
	for (c = 0; c < LC_NCAT; c++)
		e->need[HN_FLOOR][LF_R][c] = (u8)MAX(e->need[HN_FLOOR][LF_R][c], fl);
	e->maxneed[HN_FLOOR] = (u8)MAX(e->maxneed[HN_FLOOR], fl);
}

/* e: the facts of in's class, named cls (NULL: lat_class names it in ar). */
static void
class_facts(const Arch *a, const Insn *in, const char *cls, Arena *ar, ClassFacts *e)
{
	const u8 *mined = &e->need[HN_MINED][0][0];
	u8 *safe = &e->need[HN_SAFE][0][0];
	size_t k;

	memset(e, 0, sizeof *e);
	e->cls = cls ? cls : lat_class(in, ar);
	e->row = lat_row(a, e->cls);
	e->lat = lat_of_row(e->row, e->cls);
	/* the mined row as the generator wrote it (no row: LAT_SAFE throughout);
	   maxneed includes the exceptions' distances (a consumer class may need
	   more than its category: the producer stays tracked that long); the
	   safe row is the mined one raised to LAT_SAFE, so is its maximum */
	if (e->row) {
		memcpy(e->need[HN_MINED], e->row->need, sizeof e->need[HN_MINED]);
		e->maxneed[HN_MINED] = e->row->maxneed;
	} else {
		memset(e->need[HN_MINED], LAT_SAFE, sizeof e->need[HN_MINED]);
		e->maxneed[HN_MINED] = LAT_SAFE;
	}
	for (k = 0; k < sizeof(HNeedRow); k++)  /* one flat pass over the row */
		safe[k] = (u8)MAX(mined[k], LAT_SAFE);
	e->maxneed[HN_SAFE] = MAX(e->maxneed[HN_MINED], LAT_SAFE);
	gpu_floors(e);
}

/* class_facts once per process for each arch, opcode and modifiers the
 * class keeps (lat_class_key): entries taken in order, found through an
 * open-addressing table of their indices + 1 (a compile's few dozen
 * classes touch a few hundred bytes of table and a KiB or two of entries,
 * not a sparse 2-4 KiB table of entries); the facts and class names live
 * in memo.ar. */
typedef struct {
	const Arch *a;
	u64 key;
	u16 opid;
	const ClassFacts *f;
} ClassMemo;

static struct {
	ClassMemo *v;
	size_t n, cap;
	u32 *tab;
	size_t tcap;
} cm;

/* The table position of (a, key, opid): its entry's, or the empty one. */
static size_t
class_pos(const Arch *a, u64 key, int opid)
{
	size_t m = cm.tcap - 1, i;
	u64 x = key * 0x9e3779b97f4a7c15ull ^ ((u64)opid + (u64)(uintptr_t)a) * 0xc2b2ae3d27d4eb4full;

	x ^= x >> 29;
	for (i = (size_t)x & m; cm.tab[i]; i = (i + 1) & m) {
		const ClassMemo *e = &cm.v[cm.tab[i] - 1];
		if (e->key == key && e->opid == opid && e->a == a)
			break;
	}
	return i;
}

/* h->cls, row, lat, need and maxneed (the facts of a class without a key
   in ar); op: in's opcode, the ISA tables' string, which is the name of a
   class that keeps no modifier (key 0: lat_class would copy it). */
static void
class_of(const Arch *a, HIns *h, const Insn *in, const char *op, Arena *ar)
{
	const ClassFacts *f;
	u64 key;
	size_t i;

	if (lat_class_key(in, &key) < 0) {
		ClassFacts *one = arena_alloc(ar, sizeof *one);
		class_facts(a, in, NULL, ar, one);
		f = one;
	} else {
		ClassMemo *e;
		if (2 * (cm.n + 1) > cm.tcap) {
			cm.tcap = cm.tcap ? 2 * cm.tcap : 128;
			free(cm.tab);
			cm.tab = xcalloc(cm.tcap, sizeof *cm.tab);
			for (i = 0; i < cm.n; i++)
				cm.tab[class_pos(cm.v[i].a, cm.v[i].key, cm.v[i].opid)] = (u32)(i + 1);
		}
		i = class_pos(a, key, h->opid);
		if (!cm.tab[i]) {
			ClassFacts *nf = arena_alloc(&memo.ar, sizeof *nf);
			class_facts(a, in, key ? NULL : op, &memo.ar, nf);
			if (cm.n == cm.cap) {
				cm.cap = cm.cap ? 2 * cm.cap : 32;
				cm.v = xrealloc(cm.v, cm.cap * sizeof *cm.v);
			}
			e = &cm.v[cm.n];
			e->a = a;
			e->key = key;
			e->opid = h->opid;
			e->f = nf;
			cm.tab[i] = (u32)++cm.n;
		}
		f = cm.v[cm.tab[i] - 1].f;
	}
	h->cls = f->cls;
	h->row = f->row;
	h->lat = f->lat;
	h->need = f->need;
	memcpy(h->maxneed, f->maxneed, sizeof h->maxneed);
}

/* h->src: the general register in each reuse slot, 0xff where the slot
   holds no plain one (or the opcode has no reuse slots). */
static void
reuse_srcs(HIns *h, const Insn *in, u64 of, u32 mb)
{
	int k;

	memset(h->src, 0xff, sizeof h->src);
	if (!(of & OF_REUSE) || (mb & (MB_WIDE | MB_64)))
		return;
	for (k = 0; k < 3 && h->nd + k < in->nops; k++) {
		const Operand *o = &in->o[h->nd + k];
		if (o->kind == OPK_R && o->reg != 255 && !o->x64 && o->sel == SEL_NONE)
			h->src[k] = (u8)o->reg;
	}
}

/* ---- a word's Insn from its fields' values, without its text ----
 * tools/isa-gentab writes, for each form whose text fits a small grammar
 * (registers with - ! ~ |..| and suffixes, immediates, [..], c[..][..],
 * desc[..][..], SR_ names, optional predicates), its operands as a byte
 * program (Arch.hzop; hz_prog there): what insn_parse_novalue makes of
 * the printed text, and the registers sass_reg_max counts in it, in text
 * order.  The other forms print and parse.  The unit test
 * ctrl_decode_direct holds the two ways equal on the golden words. */
enum { HO_REG = 1, HO_CREG, HO_IMM, HO_CIMM, HO_FIMM, HO_SR, HO_MEM, HO_CB, HO_OPTP, HO_TAILP, HO_BLANK };
enum { T_REG = 1, T_CREG, T_IMM, T_CIMM, T_EREG, T_END };
/* a register's flags byte: .64 in its suffixes, a selector (.H1 ...;
   reuse_srcs asks only whether there is one), .64 right after its number,
   a suffix enumeration whose string names the selector (its field in the
   next byte) */
enum { RF_X64 = 1, RF_SEL = 2, RF_OWN = 4, RF_SELF = 8 };

typedef struct {
	const Arch *a;
	const IsaForm *fm;
	Word w;
	u64 addr;
	RegMax rm;
} Direct;

/* The value of field fi: taken from the word only when the program reads
   it (a form's inert suffixes and floats are never read). */
static u64
d_val(const Direct *d, int fi)
{
	return isa_field_get(d->a, &d->a->fields[d->fm->field0 + fi], d->w);
}

/* The string (its id) enumeration field fi prints. */
static u32
d_sid(const Direct *d, int fi)
{
	return d->a->enums[d->a->fields[d->fm->field0 + fi].table + d_val(d, fi)] & ENUM_ID;
}

static const char *
d_str(const Direct *d, int fi)
{
	return d->a->strs[d_sid(d, fi)];
}

static u64
le64(const u8 *p)
{
	u64 v = 0;
	int k;

	for (k = 7; k >= 0; k--)
		v = v << 8 | p[k];
	return v;
}

/* The selector of a register's suffixes s (".reuse.H1"), as
   parse_suffixes finds it; -1 for a suffix it does not take or that is
   not a selector, .reuse, .ROW or .COL (the text decides). */
static int
d_sel(const char *s)
{
	int sel = SEL_NONE, k;
	size_t n;

	while (*s) {
		if ((k = insn_sel_at(s, &n)) >= 0)
			sel = k;
		else if (!strncmp(s, ".reuse", 6))
			n = 6;
		else if (!strncmp(s, ".ROW", 4) || !strncmp(s, ".COL", 4))
			n = 4;
		else
			return -1;
		if (s[n] && s[n] != '.')
			return -1;
		s += n;
	}
	return sel;
}

/* A register (p: kind, field index or number, RF_ flags[, field]) into
   kind and *reg; its x64 and selector into o; NULL: the text decides. */
static inline const u8 *
d_reg(Direct *d, const u8 *p, int field, u8 *kind, u16 *reg, Operand *o, int addr)
{
	*kind = p[0];
	*reg = field ? (u16)d_val(d, p[1]) : p[1];
	o->x64 |= p[2] & RF_X64;
	o->sel = p[2] & RF_SEL ? SEL_H1 : o->sel;
	if (*kind == OPK_R)
		reg_max_reg(&d->rm, *reg, addr, p[2] & RF_OWN);
	if (p[2] & RF_SELF) {
		int sel = d_sel(d_str(d, p[3]));
		if (sel < 0)
			return NULL;
		o->sel = sel ? (u8)sel : o->sel;
		return p + 4;
	}
	return p + 3;
}

/* parse_addr's rule for a register term (first: nothing before it in the
   brackets): the first register or a general one is the base, another
   uniform one the offset register; -1 where the parse fails. */
static int
d_term(Operand *o, u8 k, u16 r, u8 x64, int first)
{
	if (k == OPK_R || (first && !o->rk)) {
		if (o->rk)
			return -1;
		o->rk = k;
		o->reg = r;
		o->x64 = x64;
	} else if (o->ur == 63)
		o->ur = r;
	else
		return -1;
	return 0;
}

/* An address's terms, as many as its text has; NULL where its parse fails. */
static const u8 *
d_terms(Direct *d, const u8 *p, Operand *o)
{
	int first = 1;  /* nothing printed in the brackets yet */

	o->ur = 63;
	o->scale = 1;
	for (;;) {
		Operand t = {0};
		const IsaField *f;
		const char *s;
		u64 x;
		u8 k;
		u16 r;

		switch (*p++) {
		case T_END:
			return p;
		case T_IMM:
			f = &d->a->fields[d->fm->field0 + *p];
			x = (u64)isa_hex_value(f, d_val(d, *p), d->addr);
			p++;
			if (x || !(f->flags & FF_OPTPLUS))  /* else it prints nothing */
				o->imm += x, first = 0;
			continue;
		case T_CIMM:
			o->imm += le64(p);
			p += 8;
			break;
		case T_EREG:  /* "R0+", "URZ" or nothing */
			s = d_str(d, *p++);
			if (!*s)
				continue;
			k = s[0] == 'U' ? OPK_UR : OPK_R;
			s += k == OPK_UR;
			r = (u16)(s[1] == 'Z' ? (k == OPK_R ? 255 : 63) : strtoul(s + 1, NULL, 10));
			if (k == OPK_R)
				reg_max_reg(&d->rm, r, 1, 0);
			if (d_term(o, k, r, 0, first) < 0)
				return NULL;
			break;
		default:
			p = d_reg(d, p, p[-1] == T_REG, &k, &r, &t, 1);
			if (!p || d_term(o, k, r, t.x64, first) < 0)
				return NULL;
			break;
		}
		first = 0;
	}
}

/* The next operand of in, cleared; NULL when in has room for no more
   (the parse fails). */
static Operand *
d_new(Direct *d, Insn *in)
{
	Operand *o = &in->o[in->nops];

	if (in->nops == INSN_MAXOPS)
		return NULL;
	if (in->nops++)
		reg_max_comma(&d->rm);
	memset(o, 0, sizeof *o);
	o->desc = 0xffff;
	o->ur = 63;
	o->scale = 1;
	return o;
}

/* An optional immediate operand at q into o: "0x40", or a scoreboard set
   "{2,1,0}" (its mask, as the parse takes it; its commas are text for
   sass_reg_max); the text after it. */
static const char *
d_optimm(Direct *d, Operand *o, const char *q)
{
	char *e;

	o->kind = OPK_IMM;
	if (q[0] == '0') {
		o->imm = strtoull(q, &e, 16);
		return e;
	}
	for (q++; *q != '}'; q++)
		if (*q == ',')
			reg_max_comma(&d->rm);
		else
			o->imm |= 1 << (*q - '0');
	return q + 1;
}

/* Optional operands: predicates or registers, "P0, UR1, " before an
   operand (and maybe its prefix: "P0, -"; or "0x0," where the template
   has the blank); ", !P0", ", 0x40" or ", {2,1,0}" after one; or
   nothing; -1 for "P0, UR0 " (then a blank, no comma: the text decides). */
static int
d_optp(Direct *d, Insn *in, const char *s)
{
	for (;;) {
		const char *q = s + (s[0] == ',' ? 2 : 0);
		Operand *o;
		int up;

		q += q[0] == '!';
		up = q[0] == 'U';
		if (q[up] != 'P' && q[up] != 'R' && q[0] != '0' && q[0] != '{')
			return 0;
		if (!(o = d_new(d, in)))
			return -1;
		if (q[0] == '0' || q[0] == '{')
			s = d_optimm(d, o, q);
		else if (q[up] == 'P') {
			o->kind = up ? OPK_UP : OPK_P;
			o->reg = (u16)(q[up + 1] == 'T' ? 7 : q[up + 1] - '0');
			s = q + up + 2;
		} else {
			char *e;
			o->kind = up ? OPK_UR : OPK_R;
			o->reg = (u16)(q[up + 1] == 'Z' ? (up ? 63 : 255) : strtoul(q + up + 1, &e, 10));
			s = q[up + 1] == 'Z' ? q + up + 2 : e;
			if (!up)
				reg_max_reg(&d->rm, o->reg, 0, 0);
		}
		if (s[0] == ' ')
			return -1;
		s += s[0] == ',' ? 1 + (s[1] == ' ') : 0;  /* "0x0,": the template's blank follows */
	}
}

/* in's operands by program p; -1 where the text's parse fails. */
static int
d_operands(Direct *d, const u8 *p, Insn *in)
{
	while (*p) {
		u8 op = *p++;
		Operand *o;

		if (op < HO_OPTP) {
			if (!(o = d_new(d, in)))
				return -1;
		} else if (op == HO_BLANK) {  /* "R2 0x0": the parse splits there too; no comma to count */
			RegMax keep = d->rm;
			if (!(o = d_new(d, in)))
				return -1;
			d->rm = keep;
			op = *p++;
		} else {  /* HO_OPTP, HO_TAILP: after the blank in "EXIT.NO_ATEXIT P0" */
			const char *s = d_str(d, *p++);
			if (op == HO_TAILP)
				s = strchr(s, ' ') ? strchr(s, ' ') + 1 : "";
			if (*s && d_optp(d, in, s) < 0)  /* most print nothing */
				return -1;
			continue;
		}
		switch (op) {
		case HO_REG:
		case HO_CREG:
			if (!(p = d_reg(d, p, op == HO_REG, &o->kind, &o->reg, o, 0)))
				return -1;
			break;
		case HO_IMM:
			o->kind = OPK_IMM;
			o->imm = (u64)isa_hex_value(&d->a->fields[d->fm->field0 + *p], d_val(d, *p), d->addr);
			p++;
			break;
		case HO_CIMM: o->kind = OPK_IMM; o->imm = le64(p); p += 8; break;
		case HO_FIMM: o->kind = OPK_FIMM; break;
		case HO_SR:  /* the names the parse takes */
			o->kind = OPK_SR;
			o->text = d_str(d, *p++);
			if (strncmp(o->text, "SR_", 3) && strcmp(o->text, "SRZ"))
				return -1;
			break;
		case HO_MEM:
			o->kind = OPK_MEM;
			if (*p != 0xff)
				o->desc = (u16)d_val(d, *p);
			if (!(p = d_terms(d, p + 1, o)))
				return -1;
			break;
		case HO_CB:
			o->kind = OPK_CB;
			if (!(p = d_terms(d, p, o)) || o->ur != 63)
				return -1;
			o->scale = 1;
			o->x64 = 0;
			break;
		}
	}
	if (in->nops < INSN_MAXOPS)
		memset(&in->o[in->nops], 0, sizeof in->o[0]);
	return 0;
}

/* A form's mnemonic fits: tools/isa-gentab gives a program only to forms
   whose longest text is shorter than 512 bytes (the parse's limit). */
enum { MN_MAX = 512 };

/* in's opcode and modifiers: the form's template to its first blank (its
   holes enumerations) copied into buf (MN_MAX bytes) and cut at the dots
   as the parse cuts the text; what sass_reg_max reads of them.  -1: more
   modifiers than an Insn holds. */
static int
d_mnemonic(Direct *d, Insn *in, char *buf)
{
	const char *t = d->fm->tmpl;
	char *e = buf;
	int i;

	reg_max_begin(&d->rm, t);  /* the template starts with the whole opcode */
	in->op = buf;
	in->nmods = 0;
	for (;;) {  /* a piece of literal text or a hole's string, in one pass */
		int hole = *t == HOLE;
		const char *s = hole ? d_str(d, (uchar)t[1] - 1) : t;

		/* the bytes below '!' here: NUL, the blank and HOLE (a template's
		   only other ones are the byte after HOLE, skipped below) */
		for (; (uchar)*s > ' '; s++) {
			if (*s != '.') {
				*e++ = *s;
				continue;
			}
			if (in->nmods == INSN_MAXMODS)
				return -1;
			*e++ = 0;
			in->mods[in->nmods++] = e;
		}
		t = hole ? t + 2 : s;
		/* a blank in a hole's string: HO_TAILP's enumeration */
		if (*s == ' ' || !*t || *t == ' ')
			break;
	}
	*e = 0;
	for (i = 0; i < in->nmods; i++)
		reg_max_mod(&d->rm, in->mods[i]);
	reg_max_mods_done(&d->rm);
	return 0;
}

/* w's Insn into in (its mnemonic's text in buf, MN_MAX bytes) and the highest
 * register its text names into *rmax, with w's form, if the form has a
 * program; NULL: print and parse. */
static const IsaForm *
direct(const Arch *a, Word w, u64 addr, Insn *in, short *rmax, char *buf)
{
	Direct d;
	const u8 *p;
	u64 vals[32];  /* isa_decode's; tools/isa-gentab: no form has more fields */

	if (!(w.hi >> 45 & 1))  /* the printer's reuse flags: shown only with the yield bit */
		w.hi &= ~(0xfull << 58);
	/* the form the print would take: its memo's (most words of a compile:
	   the parser printed them back), else isa_match's */
	if (!(d.fm = isa_print_known(a, w)) && !(d.fm = isa_decode(a, w, vals)))
		return NULL;
	if (!d.fm->hz)
		return NULL;
	d.a = a;
	d.w = w;
	d.addr = addr;
	if (d_mnemonic(&d, in, buf) < 0)
		return NULL;
	in->guard = (w.lo >> 12 & 7) == 7 && !(w.lo >> 15 & 1) ? -1 : (int)(w.lo >> 12 & 7);
	in->guard_not = in->guard >= 0 && (w.lo >> 15 & 1);
	in->guard_up = in->guard >= 0 && d.fm->uguard;
	in->nops = 0;
	in->text = NULL;
	p = a->hzop + d.fm->hz;
	if (d_operands(&d, p, in) < 0)
		return NULL;
	*rmax = (short)reg_max_end(&d.rm);
	return d.fm;
}

/* The Insn of the word being decoded, which only decode1 reads (one
   thread decodes, like the memo's). */
static Insn dec_in;

/* Decode word w at address addr into h (strings, class facts and register
   ranges in ar) and *t, the address a branch or call names (flow_of); -1
   if it does not decode. */
static int
decode1(const Arch *a, Word w, u64 addr, size_t n, HIns *h, u64 *t, u8 *pcrel, Arena *ar, Buf *b, int text)
{
	char err[256], mn[MN_MAX];
	const Insn *in = &dec_in;
	const IsaForm *fm;
	Regs rg;
	HRange *r;
	int m;
	u64 of;
	u32 mb;

	memset(h, 0, sizeof *h);
	b->n = 0;
	if (b->s)
		b->s[0] = 0;
	if (text || !(fm = direct(a, w, addr, &dec_in, &h->rmax, mn))) {
		/* no float immediate's value: nothing in the checker reads one */
		if (!(fm = isa_print_form(a, w, addr, NULL, b)))
			return -1;
		h->rmax = (short)sass_reg_max(b->s);  /* before the parse cuts the text */
		if (insn_parse_novalue(b->s, b->n, &dec_in, ar, err, sizeof err) < 0)
			return -1;
	}
	/* a pc-relative field is what makes the text depend on the address */
	*pcrel = fm->pcrel;
	h->c = ctrl_get(w);
	/* by the form's mnemonic string (a memo per form was a sparse 3 KiB
	   table: two pages touched) */
	h->opid = (u16)base_opid(a, fm, in->op);
	of = op_flags(h->opid, in->op);
	h->nd = (u8)ndst(in, of);
	h->mods = in->nmods > 0;
	class_of(a, h, in, a->strs[fm->base], ar);
	h->cond = in->guard >= 0 && in->guard != 7;
	h->never = in->guard == 7 && in->guard_not;
	h->gslot = (u16)(h->cond ? (in->guard_up ? SLOT_UP : SLOT_P) + in->guard : 0);
	h->gnot = in->guard_not;
	*t = flow_of(h, in, OF_FLOW(of));
	h->target = -1;
	if (OF_FLOW(of) == FL_BRA || OF_FLOW(of) == FL_CALL)
		set_target(h, OF_FLOW(of), *t, n);
	rg.nrd = rg.nwr = 0;
	mb = mod_bits(in);
	if (!h->never)
		regs_of(h, in, of, mb, &rg);
	r = arena_alloc(ar, (size_t)(rg.nrd + rg.nwr + 1) * sizeof *r);
	memcpy(r, rg.rd, (size_t)rg.nrd * sizeof *r);
	memcpy(r + rg.nrd, rg.wr, (size_t)rg.nwr * sizeof *r);
	h->rd = r;
	h->wr = r + rg.nrd;
	h->nrd = (u8)rg.nrd;
	h->nwr = (u8)rg.nwr;
	facts_of(h, in, of);
	reuse_srcs(h, in, of, mb);
	h->wide_hi = -1;
	if (h->nwr > 0 && h->wr[0].n >= 2 && h->wr[0].s < SLOT_UR && !h->lat.var && lat_is_wide(h->cls)) {
		h->wide_hi = (short)(h->wr[0].s + 1);
		for (m = 0; m < HN_N; m++)
			h->maxneed[m] = (u8)MAX(h->maxneed[m], LAT_WIDE_HI);
	}
	return 0;
}

int
hz_decode_one(const Arch *a, Word w, u64 addr, size_t n, int text, HIns *h, u64 *t, Arena *ar)
{
	Buf b = {0};
	u8 pcrel;
	int rc = decode1(a, w, addr, n, h, t, &pcrel, ar, &b, text);

	buf_free(&b);
	return rc;
}

/* OA_VERIFY=1: the view of word w that decode1 built from its fields (h,
   t) is the one its printed text gives; die unless. */
static void
verify_direct(const Arch *a, Word w, u64 addr, size_t n, const HIns *h, u64 t, Buf *b)
{
	HIns x;
	u64 tx;
	u8 pcrel;
	Arena ar = {0};

	if (decode1(a, w, addr, n, &x, &tx, &pcrel, &ar, b, 1) < 0 || !hz_same_view(h, &x) || tx != t)
		die("hz_decode: the view of word 0x%016llx 0x%016llx from its fields is not its text's",
		    (unsigned long long)w.lo, (unsigned long long)w.hi);
	arena_free(&ar);
}

/* h = the memo's decoded word with code word w's control bits (its
   branch target again: it may depend on n). */
static void
from_memo(HIns *h, const Memo *m, Word w, size_t n)
{
	int fl = (int)OF_FLOW(opf.f[m->h.opid]);

	*h = m->h;
	h->c = ctrl_get(w);
	if (fl == FL_BRA || fl == FL_CALL)
		set_target(h, fl, m->t, n);
}

/* The memo entries of the last code decoded, by index: the checker decodes
 * the words the assigner has just decoded (their control bits aside), so
 * a word whose key is the one at its index last time needs no lookup (at
 * the same index a PC-relative word's entry is this address's). */
static struct {
	const Arch *a;
	Word *key;
	Memo **m;
	size_t n, cap;
} last;

/* The memo entry of code word i (key *k), or NULL with *pos as memo_get
 * (and *k tagged when the entry to add is one for this address). */
static Memo *
memo_at(const Arch *a, Word *k, size_t i, size_t nlast, size_t *pos)
{
	u64 addr = (u64)i * 16;
	Memo *m;

	if (i < nlast && last.m[i] && last.key[i].lo == k->lo && last.key[i].hi == k->hi)
		return last.m[i];
	m = memo_get(a, *k, 0, pos);
	if (m && m->pcrel && m->at != addr) {  /* the entry for this address */
		k->hi |= MEMO_AT_ADDR;
		m = memo_get(a, *k, addr, pos);
	}
	return m;
}

int
hz_decode(const Arch *a, const Word *code, size_t n, HIns *ins, Arena *ar, size_t *bad)
{
	Buf b = {0};
	size_t i, pos, nlast = last.a == a ? last.n : 0;
	int rc = 0;

	if (n > last.cap) {
		last.cap = n;
		last.key = xrealloc(last.key, n * sizeof *last.key);
		last.m = xrealloc(last.m, n * sizeof *last.m);
	}
	last.a = a;
	if (!memo.tcap) {  /* the first code: at most n words, at most half full */
		size_t cap = 256;  /* 1 KiB: a small kernel's words */
		while (cap < 2 * (n + 1) && cap < 2 * MEMO_MAX)
			cap *= 2;
		memo_rehash(cap);
	}
	for (i = 0; i < n && !rc; i++) {
		HIns *h = &ins[i];
		Word k0 = memo_key(code[i]), k = k0;  /* memo_at may tag k */
		u64 addr = (u64)i * 16;
		Memo *m = memo_at(a, &k, i, nlast, &pos);

		last.key[i] = k0;
		last.m[i] = m;
		if (m) {
			from_memo(h, m, code[i], n);
			continue;
		}
		if (pos == (size_t)-1) {  /* no room */
			u64 t;
			u8 pcrel;
			if (decode1(a, code[i], addr, n, h, &t, &pcrel, ar, &b, 0) < 0)
				*bad = i, rc = -1;
			continue;
		}
		m = memo_next();
		if (decode1(a, code[i], addr, n, &m->h, &m->t, &m->pcrel, &memo.ar, &b, 0) < 0) {
			*bad = i, rc = -1;
			continue;
		}
		if (ir_verify_all())
			verify_direct(a, code[i], addr, n, &m->h, m->t, &b);
		m->at = addr;
		memo_add(a, k, k.hi & MEMO_AT_ADDR ? addr : 0, pos);
		last.m[i] = m;
		*h = m->h;  /* decoded at this address: right even when PC-relative */
	}
	last.n = i;
	buf_free(&b);
	return rc;
}

void
hz_reorder(HIns *ins, const u32 *perm, size_t n)
{
	struct { HIns h; Word key; Memo *m; } *t = xmalloc((n + 1) * sizeof *t);  /* the moved words */
	size_t k, j;

	if (last.n != n)
		last.n = 0;
	for (k = j = 0; k < n; k++)
		if (perm[k] != k) {
			t[j].h = ins[perm[k]];
			if (last.n)
				t[j].key = last.key[perm[k]], t[j].m = last.m[perm[k]];
			j++;
		}
	for (k = j = 0; k < n; k++)
		if (perm[k] != k) {
			ins[k] = t[j].h;
			if (last.n) {  /* a PC-relative word's entry serves its old address */
				last.key[k] = t[j].key;
				last.m[k] = t[j].m && !t[j].m->pcrel ? t[j].m : NULL;
			}
			j++;
		}
	free(t);
}
