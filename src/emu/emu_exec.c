/* emu_exec.c -- operand access, special registers, control flow and the
 * integer datapath of the SASS emulator.  Uniform (U*) forms share the
 * handlers of their vector twins: the handler runs once, for the first
 * active lane, and the operand helpers read and write UR/UP. */
#include <string.h>

#include "emu/emu_int.h"
#include "ptx/arith.h"

/* ---- operands ---- */

u32
e_cbank(Emu *E, Warp *w, int l, const Operand *o, int size)
{
	u64 off = o->imm;
	u32 v = 0;

	if (o->rk == OPK_R)
		off += o->reg == RZ ? 0 : w->r[o->reg][l];
	else if (o->rk == OPK_UR)
		off += o->reg == URZ ? 0 : w->ur[o->reg];
	if (o->bank >= 18 || !E->cb[o->bank] || off + size > E->cbsize[o->bank])
		eerr(E, "constant c[0x%x][0x%llx] is outside the bank (%u bytes)", o->bank,
		     (unsigned long long)off, o->bank < 18 ? E->cbsize[o->bank] : 0);
	memcpy(&v, E->cb[o->bank] + off, MIN(size, 4));
	return v;
}

u32
e_opr(Emu *E, Warp *w, int l, const Operand *o)
{
	switch (o->kind) {
	case OPK_R: return w->r[o->reg][l];
	case OPK_UR: return o->reg == URZ ? 0 : w->ur[o->reg];
	case OPK_IMM: return (u32)o->imm;
	case OPK_FIMM: return bits_f32((float)o->f);
	case OPK_CB: return e_cbank(E, w, l, o, 4);
	case OPK_SR: return e_sreg(E, w, l, o->text);
	case OPK_P: case OPK_UP: return e_oprp(w, l, o);
	}
	eerr(E, "operand '%s' has no value", o->text);
}

/* 64-bit value: register pair, UR pair, 64-bit constant, immediate
 * (FIMM: f64 bits; IMM: sign-extended). */
u64
e_opr64(Emu *E, Warp *w, int l, const Operand *o)
{
	switch (o->kind) {
	case OPK_R:
		if (o->reg == RZ)
			return 0;
		return w->r[o->reg][l] | (u64)(o->reg + 1 < RZ ? w->r[o->reg + 1][l] : 0) << 32;
	case OPK_UR:
		if (o->reg == URZ)
			return 0;
		return w->ur[o->reg] | (u64)(o->reg + 1 < URZ ? w->ur[o->reg + 1] : 0) << 32;
	case OPK_IMM: return o->imm;
	case OPK_FIMM: return o->imm;
	case OPK_CB: {
		Operand h = *o;
		h.imm += 4;
		return e_cbank(E, w, l, o, 4) | (u64)e_cbank(E, w, l, &h, 4) << 32;
	}
	}
	return e_opr(E, w, l, o);
}

int
e_oprp(Warp *w, int l, const Operand *o)
{
	int v;

	if (o->kind == OPK_R)   /* R.SIGN (PLOP3): the sign bit */
		v = o->reg < RZ && w->r[o->reg][l] >> 31;
	else
		v = o->kind == OPK_UP ? w->up >> o->reg & 1 : w->p[l] >> o->reg & 1;

	return v ^ o->not;
}

void
e_setr(Warp *w, int l, int r, u32 v)
{
	if (r >= 0 && r < RZ) { /* RZ, and past the end of a register tuple */
		if (emu_tlog)
			emu_tlog_write(0, r, l, w->r[r][l]);
		w->r[r][l] = v;
	}
}

/* Write a destination operand (R or UR). */
void
e_wr(Warp *w, int l, const Operand *o, u32 v)
{
	if (o->kind == OPK_UR) {
		if (o->reg < URZ) {
			if (emu_tlog)
				emu_tlog_write(1, o->reg, l, w->ur[o->reg]);
			w->ur[o->reg] = v;
		}
	} else if (o->kind == OPK_R && o->reg < RZ) {
		if (emu_tlog)
			emu_tlog_write(0, o->reg, l, w->r[o->reg][l]);
		w->r[o->reg][l] = v;
	}
}

void
e_wr64(Warp *w, int l, const Operand *o, u64 v)
{
	Operand h = *o;

	e_wr(w, l, o, (u32)v);
	if (o->reg != RZ && o->reg != URZ) {
		h.reg++;
		e_wr(w, l, &h, (u32)(v >> 32));
	}
}

void
e_wrp(Warp *w, int l, const Operand *o, int v)
{
	if (o->kind == OPK_UP) {
		if (o->reg != 7) {
			if (emu_tlog)
				emu_tlog_write(3, o->reg, l, w->up >> o->reg & 1);
			w->up = (u8)((w->up & ~(1u << o->reg)) | (v & 1) << o->reg);
		}
	} else if (o->kind == OPK_P && o->reg != 7) {
		if (emu_tlog)
			emu_tlog_write(2, o->reg, l, w->p[l] >> o->reg & 1);
		w->p[l] = (u8)((w->p[l] & ~(1u << o->reg)) | (v & 1) << o->reg);
	}
}

/* Integer operand with ~ and - applied. */
u32
e_iv(Emu *E, Warp *w, int l, const Operand *o)
{
	u32 v = e_opr(E, w, l, o);

	if (o->not)
		v = ~v;
	if (o->neg)
		v = -v;
	return v;
}

int
e_isp(const Operand *o)
{
	return o->kind == OPK_P || o->kind == OPK_UP;
}

u32
e_sreg(Emu *E, Warp *w, int l, const char *n)
{
	u32 t = w->tid0 + l, nx = E->ntid[0], ny = E->ntid[1];

	if (!strcmp(n, "SR_TID.X")) return t % nx;
	if (!strcmp(n, "SR_TID.Y")) return t / nx % ny;
	if (!strcmp(n, "SR_TID.Z")) return t / (nx * ny);
	if (!strcmp(n, "SR_CTAID.X")) return w->ctaid[0];
	if (!strcmp(n, "SR_CTAID.Y")) return w->ctaid[1];
	if (!strcmp(n, "SR_CTAID.Z")) return w->ctaid[2];
	if (!strcmp(n, "SR_CgaCtaId")) return E->coop ? 0 : w->rank;
	if (!strcmp(n, "SR_LANEID")) return l;
	if (!strcmp(n, "SR_EQMASK")) return 1u << l;
	if (!strcmp(n, "SR_LTMASK")) return (1u << l) - 1;
	if (!strcmp(n, "SR_LEMASK")) return (u32)((2ull << l) - 1);
	if (!strcmp(n, "SR_GTMASK")) return ~(u32)((2ull << l) - 1);
	if (!strcmp(n, "SR_GEMASK")) return ~((1u << l) - 1);
	/* the launch model shared with the PTX interpreter (run/spec.h) */
	if (!strcmp(n, "SR_VIRTUALSMID") || !strcmp(n, "SR_SMID"))
		return (w->ctaid[0] + E->nctaid[0] * (w->ctaid[1] + E->nctaid[1] * w->ctaid[2])) % SPEC_NSMID;
	if (!strcmp(n, "SR_VIRTID")) return (u32)w->id << 8;           /* bits 8..14: the warp */
	if (!strcmp(n, "SR_VIRTCFG")) return SPEC_NWARPID << 8;        /* bits 8..15: warp slots */
	if (!strcmp(n, "SR_SMEMSZ")) return E->smemsz;
	if (!strncmp(n, "SR_PM", 5) || !strcmp(n, "SRZ") || !strcmp(n, "SR_GRIDID"))
		return 0;
	if (!strcmp(n, "SR_WARPID")) return w->id;
	if (!strcmp(n, "SR_SWINHI")) return (u32)(GW_SHARED >> 32);
	/* the stack's lowest local offset (nvcc -G checks R1 against it and
	   traps below): the thread's local window starts at 0 here */
	if (!strcmp(n, "SR_LMEMHIOFF")) return 0;
	if (!strcmp(n, "SR_CLOCKLO") || !strcmp(n, "SR_GLOBALTIMERLO")) return (u32)E->steps;
	if (!strcmp(n, "SR_CLOCKHI") || !strcmp(n, "SR_GLOBALTIMERHI")) return (u32)(E->steps >> 32);
	if (!strcmp(n, "PR")) return w->p[l] & 0x7f;
	eerr(E, "special register %s is not emulated", n);
}

/* ---- predecode facts ---- */

int
e_cmpcode(const Insn *in)
{
	static const struct { const char *s; int c; } t[] = {
		{"EQ", CMP_EQ}, {"NE", CMP_NE}, {"LT", CMP_LT}, {"LE", CMP_LE}, {"GT", CMP_GT},
		{"GE", CMP_GE}, {"EQU", CMP_EQU}, {"NEU", CMP_NEU}, {"LTU", CMP_LTU},
		{"LEU", CMP_LEU}, {"GTU", CMP_GTU}, {"GEU", CMP_GEU}, {"NUM", CMP_NUM},
		{"NAN", CMP_NAN}, {"F", -2}, {"T", -3},
	};
	int i;
	size_t j;

	for (i = 0; i < in->nmods; i++)
		for (j = 0; j < NELEM(t); j++)
			if (!strcmp(in->mods[i], t[j].s))
				return t[j].c;
	return -1;
}

int
e_bopcode(const Insn *in)
{
	if (insn_has(in, "OR")) return 1;
	if (insn_has(in, "XOR")) return 2;
	return 0;
}

int
e_bop(int op, int a, int b)
{
	return op == 0 ? a & b : op == 1 ? a | b : a ^ b;
}

int
emu_rnd(const Insn *in)
{
	if (insn_has(in, "RZ") || insn_has(in, "TRUNC")) return RND_RZ;
	if (insn_has(in, "RM") || insn_has(in, "FLOOR")) return RND_RM;
	if (insn_has(in, "RP") || insn_has(in, "CEIL")) return RND_RP;
	return RND_RN;
}

/* ---- control ---- */

static void
h_nop(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	(void)E, (void)w, (void)I, (void)gm;
}

static void
h_exit(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	int l;

	(void)E;
	/* EXIT Pp: only the lanes where the predicate operand holds as well
	   (ptxas's loop epilogues: @!P0 EXIT P1) */
	if (I->in.nops && e_isp(&I->in.o[0]))
		LANES(l, gm)
			if (!e_oprp(w, l, &I->in.o[0]))
				gm &= ~(1u << l);
	w->live &= ~gm;
	while (gm) {
		w->st[__builtin_ctz(gm)] = L_EXIT;
		gm &= gm - 1;
	}
}

static const Operand *
last_imm(Emu *E, const EInsn *I)
{
	int i;

	for (i = I->in.nops - 1; i >= 0; i--)
		if (I->in.o[i].kind == OPK_IMM)
			return &I->in.o[i];
	eunsup(E, I, "no target");
}

static void
h_bra(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Operand *t;
	int l, i;

	if (strcmp(I->in.op, "BRA")) {
		/* BRX Ra imm / BRXU URa imm: to the next instruction + Ra:Ra+1 +
		   imm (ptxas's jump tables in c[0x2] hold offsets from the
		   function's start, imm = -(this pc + 16)); JMX (absolute) is not
		   modelled */
		if ((strcmp(I->in.op, "BRX") && strcmp(I->in.op, "BRXU")) || I->in.nops != 2 ||
		    (I->in.o[0].kind != OPK_R && I->in.o[0].kind != OPK_UR))
			eunsup(E, I, "indirect jump");
		t = last_imm(E, I);
		LANES(l, gm) w->pc[l] = I->pc + 16 + (u32)e_opr64(E, w, l, &I->in.o[0]) + (u32)t->imm;
		return;
	}
	if (I->in.nops && I->in.o[0].kind == OPK_R)
		eunsup(E, I, "branch to a register");
	t = last_imm(E, I);
	if (insn_has(&I->in, "DIV") || insn_has(&I->in, "CONV")) {
		/* [@P] BRA.DIV mask, target: the warp is converged when every
		   live lane of mask is here with its guard true; BRA.DIV is taken
		   when it is not, BRA.CONV when it is, by all the lanes here or by
		   none (the guard votes; it does not split the warp: ptxas's
		   "@!P0 BRA.DIV" after "R2UR P0, URZ, mask" leaves its warp-wide
		   REDUX path unless every lane has the same mask) */
		int l0 = __builtin_ctz(w->act | 0x80000000u);
		u32 m = I->in.nops > 1 ? e_iv(E, w, l0, &I->in.o[0]) : ~0u;
		int div = (m & w->live & ~gm) != 0;
		if (div != insn_has(&I->in, "DIV"))
			return;
		gm = w->act;
	} else if (insn_has(&I->in, "ANY")) {   /* BRA.U.ANY: all or none of the issuing lanes */
		if (!gm)
			return;
		gm = w->act;
	}
	LANES(l, gm) {
		int take = 1;
		for (i = 0; i < I->in.nops - 1; i++)
			if (e_isp(&I->in.o[i]))
				take &= e_oprp(w, l, &I->in.o[i]);
		if (take)
			w->pc[l] = (u32)t->imm;
	}
}

static void
h_call(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Operand *t;
	int l;

	if (!insn_has(&I->in, "REL") && !insn_has(&I->in, "ABS"))
		eunsup(E, I, NULL);
	if (insn_has(&I->in, "ABS") && I->in.nops >= 1 && I->in.o[0].kind == OPK_R) {
		/* an absolute address: a system function (emu_sys.c), or code */
		LANES(l, gm) {
			u64 a = e_opr64(E, w, l, &I->in.o[0]) + (I->in.nops > 1 ? I->in.o[1].imm : 0);
			if (a >= EMU_SYS_BASE) {
				emu_call_sys(E, w, I, gm, a);   /* the whole group goes at once */
				return;
			}
			if (a - EMU_CODE_BASE >= (u64)E->ncode * 16)
				eerr(E, "CALL.ABS to 0x%llx at %s+0x%x, outside the code", (unsigned long long)a,
				     E->kname, I->pc);
			w->pc[l] = (u32)(a - EMU_CODE_BASE);
		}
		return;
	}
	t = last_imm(E, I);
	LANES(l, gm) {
		u32 base = I->in.o[0].kind == OPK_R ? e_opr(E, w, l, &I->in.o[0]) : 0;
		w->pc[l] = base + (u32)t->imm;
	}
}

static void
h_ret(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	int l;

	if (I->in.nops < 1 || I->in.o[0].kind != OPK_R)
		eunsup(E, I, NULL);
	LANES(l, gm)
		w->pc[l] = e_opr(E, w, l, &I->in.o[0]) + (u32)(I->in.nops > 1 ? I->in.o[1].imm : 0);
}

static void
h_bssy(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	if (I->in.o[0].kind != OPK_B)
		eunsup(E, I, NULL);
	w->b[I->in.o[0].reg & 15] = gm;
}

static void
h_bsync(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	int l;

	if (I->in.o[0].kind != OPK_B)
		eunsup(E, I, NULL);
	LANES(l, gm) {
		w->st[l] = L_BSYNC;
		w->warg[l] = I->pc << 8 | (I->in.o[0].reg & 15);
		w->wmask[l] = w->b[I->in.o[0].reg & 15];
	}
	emu_release(w);
}

static void
h_break(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	if (I->in.nops < 1 || I->in.o[I->in.nops - 1].kind != OPK_B)
		eunsup(E, I, NULL);
	w->b[I->in.o[I->in.nops - 1].reg & 15] &= ~gm;
}

/* WARPSYNC R waits for the lanes of mask R.  .EXCLUSIVE (ptxas puts it
 * before a VOTE/REDUX whose membermask comes from a register) and
 * .COLLECTIVE R, end (ptxas's diverged path: a collective up to an
 * ENDCOLLECTIVE): each group of lanes with the same mask is released
 * alone, once no other lane of the warp can run (emu_release), so the
 * group runs the next instructions by itself. */
static void
h_warpsync(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	int l;

	if (insn_has(&I->in, "EXCLUSIVE") || insn_has(&I->in, "COLLECTIVE"))
		w->wexcl |= gm;
	else
		w->wexcl &= ~gm;
	LANES(l, gm) {
		u32 m = insn_has(&I->in, "ALL") || !I->in.nops ? ~0u : e_opr(E, w, l, &I->in.o[0]);
		w->st[l] = L_WSYNC;
		w->warg[l] = I->pc;
		w->wmask[l] = m;
	}
	emu_release(w);
}

static void
h_bar(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	u32 id = 0, cnt = 0;
	int l = __builtin_ctz(gm | 0x80000000u), wait = 1;

	/* I->a: 0 SYNC, 1 ARV, 2 RED (I->b: 1 POPC, 2 AND, 3 OR), -1 other
	   (decoded once, in emu_prep) */
	int red = I->a == 2, op = I->b, np = red;

	if (!gm)
		return;
	if (I->a < 0)
		eunsup(E, I, NULL);
	if (I->a == 1)
		wait = 0;
	if (I->in.nops - np >= 1)
		id = e_opr(E, w, l, &I->in.o[0]) & 15;
	if (I->in.nops - np >= 2)
		cnt = e_opr(E, w, l, &I->in.o[1]);
	/* BAR R, R: ptxas packs id | count << 16 into one register (and names
	 * it twice); an immediate id takes the count register as is */
	if (I->in.nops - np >= 2 && I->in.o[0].kind == OPK_R && I->in.o[1].kind == OPK_R)
		cnt = cnt >> 16 & 0xfff;
	if (red) {
		int k;
		E->bar_op[w->rank][id] = (u8)op;
		LANES(k, gm) E->bar_true[w->rank][id] += e_oprp(w, k, &I->in.o[I->in.nops - 1]);
	}
	E->bar_arrived[w->rank][id] += __builtin_popcount(gm);
	if (cnt)
		E->bar_expect[w->rank][id] = cnt;
	if (wait)
		LANES(l, gm) {
			w->st[l] = L_BAR;
			w->warg[l] = id;
		}
}

/* B2R.RESULT d[, p]: the last barrier reduction of this CTA (BAR.RED):
 * the count for POPC, the AND/OR as 0/1 and in p */
static void
h_b2r(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	int l;

	if (!insn_has(&I->in, "RESULT") || I->in.nops < 1 || I->in.nops > 2)
		eunsup(E, I, NULL);
	LANES(l, gm) {
		e_wr(w, l, &I->in.o[0], E->red_val[w->rank]);
		if (I->in.nops == 2)
			e_wrp(w, l, &I->in.o[1], E->red_bool[w->rank]);
	}
}

/* UCGABAR_ARV: the lanes arrive at the cluster barrier;  UCGABAR_WAIT:
 * they wait until every live thread of the cluster arrived in the
 * generation they arrived in (release in emu.c). */
static void
h_cgabar(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	int l, arv = !strcmp(I->in.op, "UCGABAR_ARV");

	if (I->in.nops || I->in.nmods)
		eunsup(E, I, NULL);
	if (arv) {
		LANES(l, gm) w->cgen[l] = E->cl_gen;
		E->cl_arrived += __builtin_popcount(gm);
	} else
		LANES(l, gm)
			if (w->cgen[l] == E->cl_gen) {
				w->st[l] = L_BAR;
				w->warg[l] = 16;
			}
}

/* ---- moves and special registers ---- */

static void
h_mov(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	int l;

	LANES(l, gm) e_wr(w, l, &I->in.o[0], e_opr(E, w, l, &I->in.o[1]));
}

static void
h_s2r(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	int l;

	LANES(l, gm) e_wr(w, l, &I->in.o[0], e_sreg(E, w, l, I->in.o[1].text));
}

static void
h_cs2r(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	int l;

	LANES(l, gm) {
		const char *n = I->in.o[1].text;
		u64 v;
		if (!strcmp(n, "SRZ"))
			v = 0;
		else if (strstr(n, "CLOCK") || strstr(n, "TIMER"))   /* time: the warp-instruction counter */
			v = strstr(n, "HI") ? E->steps >> 32 : E->steps;
		else
			v = e_sreg(E, w, l, n);
		if (insn_has(&I->in, "32"))
			e_wr(w, l, &I->in.o[0], (u32)v);
		else
			e_wr64(w, l, &I->in.o[0], v);
	}
}

int
e_ldsize(const Insn *in, int *sign)
{
	*sign = 0;
	if (insn_has(in, "U8")) return 1;
	if (insn_has(in, "S8")) return *sign = 1, 1;
	if (insn_has(in, "U16")) return 2;
	if (insn_has(in, "S16")) return *sign = 1, 2;
	if (insn_has(in, "64")) return 8;
	if (insn_has(in, "128")) return 16;
	return 4;
}

static void
h_ldc(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	int l, sign, n = e_ldsize(&I->in, &sign), k;
	const Operand *c = &I->in.o[1];

	if (c->kind != OPK_CB)
		eunsup(E, I, NULL);
	LANES(l, gm) {
		u32 v[4] = {0};
		Operand t = *c;
		if (n < 4) {
			u32 x = e_cbank(E, w, l, c, n);
			v[0] = n == 1 ? (sign ? (u32)(int8_t)x : (u8)x) : (sign ? (u32)(int16_t)x : (u16)x);
		} else
			for (k = 0; k < n / 4; k++, t.imm += 4)
				v[k] = e_cbank(E, w, l, &t, 4);
		for (k = 0; k < MAX(n / 4, 1); k++) {
			Operand d = I->in.o[0];
			if (d.reg != RZ && d.reg != URZ)
				d.reg += k;
			e_wr(w, l, &d, v[k]);
		}
	}
}

/* R2UR URd, Ra: Ra of the first active lane.  R2UR P, URd, Ra (ptxas's
 * waterfall loops): also P per active lane = its Ra differs from URd (the
 * lanes still to do; checked by running ptxas's loop, tests/emu/misc).
 * R2UR.OR P, URd, Ra ORs that into P (the high word of a 64-bit value). */
static void
h_r2ur(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Operand *o = I->in.o;
	int l = __builtin_ctz(gm | 0x80000000u), np = e_isp(&o[0]), or = insn_has(&I->in, "OR");
	u32 u;

	if (!gm)
		return;
	u = e_opr(E, w, l, &o[1 + np]);
	e_wr(w, l, &o[np], u);
	if (np)
		LANES(l, gm) e_wrp(w, l, &o[0], e_opr(E, w, l, &o[2]) != u || (or && e_oprp(w, l, &o[0])));
}

/* ---- integer ---- */

/* IMAD[.WIDE][.HI][.X][.U32] d, [pcarry,] a, b, c [, cin] */
static void
h_imad(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Operand *o = I->in.o;
	int l, wide = I->a, hi = I->b, x = I->c, s = !I->d, np = e_isp(&o[1]);
	const Operand *A = &o[1 + np], *B = &o[2 + np], *C = &o[3 + np];

	if (I->in.nops < 4 + np)
		eunsup(E, I, NULL);
	LANES(l, gm) {
		u32 a = e_iv(E, w, l, A), b = e_iv(E, w, l, B);
		u32 cin = x && I->in.nops > 4 + np ? e_oprp(w, l, &o[4 + np]) : 0;
		u64 p = s ? (u64)((i64)(i32)a * (i32)b) : (u64)a * b;
		if (wide || hi) {
			/* a*b + c (c a register pair) with the carry out of 64 bits */
			u64 c = e_opr64(E, w, l, C), r;
			int co;
			if (C->neg)
				c = -c;
			r = p + c;
			co = r < p;
			r += cin;
			co |= cin && r == 0;
			if (wide)
				e_wr64(w, l, &o[0], r);
			else
				e_wr(w, l, &o[0], (u32)(r >> 32));
			if (np)
				e_wrp(w, l, &o[1], co);
		} else {
			u64 r = (u64)(u32)p + e_iv(E, w, l, C) + cin;
			e_wr(w, l, &o[0], (u32)r);
			if (np)
				e_wrp(w, l, &o[1], (int)(r >> 32) & 1);
		}
	}
}

/* IADD3[.X] d, [p0, [p1,]] a, b, c [, cin0, cin1] */
static void
h_iadd3(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Operand *o = I->in.o;
	int l, i, np = 0, k;

	for (i = 1; i < I->in.nops && e_isp(&o[i]); i++)
		np++;
	if (I->in.nops < 4 + np)
		eunsup(E, I, NULL);
	LANES(l, gm) {
		u64 s = 0, s01 = 0;
		u32 c;
		for (k = 0; k < 3; k++) {
			const Operand *t = &o[1 + np + k];
			u32 v = e_opr(E, w, l, t);
			if (t->not)
				v = ~v;
			if (t->neg)
				s += (u64)(u32)~v + 1;
			else
				s += v;
			if (k == 1)
				s01 = s;
		}
		for (i = 4 + np; i < I->in.nops; i++)
			if (e_isp(&o[i]))
				s += e_oprp(w, l, &o[i]);
		e_wr(w, l, &o[0], (u32)s);
		c = emu_iadd3_carries(s01, s, np);
		for (k = 0; k < np; k++)
			e_wrp(w, l, &o[1 + k], (int)(c >> k) & 1);
	}
}

/* UIADD3.64 URd, URa, b, URc (ptxas's sm_90 address arithmetic for
 * wgmma descriptors): 64-bit pairs, an immediate sign-extended; no
 * negation or carry-out forms are handled. */
static void
h_uiadd3_64(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Operand *o = I->in.o;
	int l, k;

	if (I->in.nops != 4)
		eunsup(E, I, NULL);
	for (k = 1; k < 4; k++)
		if (o[k].neg || o[k].not)
			eunsup(E, I, NULL);
	LANES(l, gm)
		e_wr64(w, l, &o[0], e_opr64(E, w, l, &o[1]) + e_opr64(E, w, l, &o[2]) + e_opr64(E, w, l, &o[3]));
}

/* VIADD d, a, b */
static void
h_viadd(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	int l;

	LANES(l, gm) e_wr(w, l, &I->in.o[0], e_iv(E, w, l, &I->in.o[1]) + e_iv(E, w, l, &I->in.o[2]));
}

static u32
mnmx(u32 a, u32 b, int is_min, int sgn)
{
	int lt = sgn ? (i32)a < (i32)b : a < b;

	return is_min ? (lt ? a : b) : (lt ? b : a);
}

/* The min/max of an [V]IMNMX[3]: 32-bit, or per 16-bit half (.S16x2,
 * .U16x2); .RELU clamps signed results below at 0. */
typedef struct {
	int sgn, h16, relu;
} Mnmx;

static Mnmx
mnmx_kind(const Insn *in)
{
	Mnmx k;

	k.h16 = insn_has(in, "S16x2") || insn_has(in, "U16x2");
	k.sgn = !insn_has(in, "U32") && !insn_has(in, "U16x2");
	k.relu = insn_has(in, "RELU");
	return k;
}

static u32
mnmx_v(u32 a, u32 b, int mn, Mnmx k)
{
	u32 r = 0, x, y, v;
	int s;

	if (!k.h16) {
		r = mnmx(a, b, mn, k.sgn);
		return k.relu && k.sgn && (i32)r < 0 ? 0 : r;
	}
	for (s = 0; s < 32; s += 16) {
		x = a >> s & 0xffff, y = b >> s & 0xffff;
		if (k.sgn)   /* sign-extended halves compare as 32-bit */
			x = (u32)(i32)(int16_t)x, y = (u32)(i32)(int16_t)y;
		v = mnmx(x, y, mn, k.sgn) & 0xffff;
		if (k.relu && k.sgn && (v & 0x8000))
			v = 0;
		r |= v << s;
	}
	return r;
}

/* IMNMX/VIMNMX d, a, b, p (p: min);  VIADDMNMX d, a, b, c, p: minmax(a+b, c) */
static void
h_imnmx(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Operand *o = I->in.o;
	int l, add = !strcmp(I->in.op, "VIADDMNMX");
	Mnmx k = mnmx_kind(&I->in);

	if (add && (k.h16 || k.relu))
		eunsup(E, I, NULL);
	LANES(l, gm) {
		u32 a = e_iv(E, w, l, &o[1]), b = e_iv(E, w, l, &o[2]);
		if (add) {
			a += b;
			b = e_iv(E, w, l, &o[3]);
		}
		e_wr(w, l, &o[0], mnmx_v(a, b, e_oprp(w, l, &o[3 + add]), k));
	}
}

/* VIMNMX3 d, a, b, c, p: min (p) or max of three */
static void
h_imnmx3(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Operand *o = I->in.o;
	int l;
	Mnmx k = mnmx_kind(&I->in), k1 = k;

	k1.relu = 0;
	LANES(l, gm) {
		int mn = e_oprp(w, l, &o[4]);
		u32 a = e_iv(E, w, l, &o[1]), b = e_iv(E, w, l, &o[2]), c = e_iv(E, w, l, &o[3]);
		e_wr(w, l, &o[0], mnmx_v(mnmx_v(a, b, mn, k1), c, mn, k));
	}
}

/* BMSK d, pos, width (bmsk.clamp; .W: bmsk.wrap): width ones from bit pos */
static void
h_bmsk(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Operand *o = I->in.o;
	int l, wrap = insn_has(&I->in, "W");

	LANES(l, gm) {
		u32 a = e_iv(E, w, l, &o[1]), b = e_iv(E, w, l, &o[2]);
		u64 m;
		if (wrap) {
			a &= 31;
			b &= 31;
		} else {
			a = MIN(a, 32);
			b = MIN(b, 32);
		}
		m = (((u64)1 << b) - 1) << a;
		e_wr(w, l, &o[0], (u32)m);
	}
}

static void
h_iabs(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	int l;

	LANES(l, gm) {
		i32 v = (i32)e_iv(E, w, l, &I->in.o[1]);
		e_wr(w, l, &I->in.o[0], v < 0 ? -(u32)v : (u32)v);
	}
}

/* LEA d, [p,] a, b, s [, cin];  LEA.HI d, [p,] a, b, c, s [, cin];
 * LEA.HI.SX32 d, a, b, s [, cin] (c = sign of a). */
static void
h_lea(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Operand *o = I->in.o;
	int l, np = e_isp(&o[1]), hi = insn_has(&I->in, "HI"), sx = insn_has(&I->in, "SX32");
	int na = 1 + np, ns = na + 2 + (hi && !sx);

	if (ns >= I->in.nops)
		eunsup(E, I, NULL);
	LANES(l, gm) {
		u32 a = e_iv(E, w, l, &o[na]), b = e_opr(E, w, l, &o[na + 1]), sh = e_opr(E, w, l, &o[ns]) & 31;
		u32 cin = ns + 1 < I->in.nops ? e_oprp(w, l, &o[ns + 1]) : 0;
		u64 v, s;
		if (o[na + 1].not)
			b = ~b;
		if (hi) {
			u32 c = sx ? (u32)((i32)a >> 31) : e_opr(E, w, l, &o[na + 2]);
			v = ((u64)c << 32 | a) >> (32 - sh);
			v = sh ? (u32)v : c;
		} else
			v = (u32)((u64)a << sh);
		s = (u64)(u32)v + b + cin;
		if (o[na + 1].neg)
			s = (u64)(u32)v + (u64)(u32)~b + 1 + cin;
		e_wr(w, l, &o[0], (u32)s);
		if (np)
			e_wrp(w, l, &o[1], (int)(s >> 32) & 1);
	}
}

/* LOP3.LUT [p,] d, a, b, c, lut, q */
static void
h_lop3(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Operand *o = I->in.o;
	int l, np = e_isp(&o[0]), d = np;

	if (!insn_has(&I->in, "LUT") || I->in.nops < 5 + np)
		eunsup(E, I, NULL);
	LANES(l, gm) {
		u32 v = i_lop3(e_iv(E, w, l, &o[d + 1]), e_iv(E, w, l, &o[d + 2]), e_iv(E, w, l, &o[d + 3]),
			       e_opr(E, w, l, &o[d + 4]));
		e_wr(w, l, &o[d], v);
		if (np)
			e_wrp(w, l, &o[0], v != 0);
	}
}

/* PLOP3.LUT p, q, a, b, c, lut, lut2 */
static void
h_plop3(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Operand *o = I->in.o;
	int l;

	if (I->in.nops < 7)
		eunsup(E, I, NULL);
	LANES(l, gm) {
		u32 a = e_oprp(w, l, &o[2]) ? ~0u : 0, b = e_oprp(w, l, &o[3]) ? ~0u : 0,
		    c = e_oprp(w, l, &o[4]) ? ~0u : 0;
		int p = i_lop3(a, b, c, (u32)o[5].imm) & 1, q = i_lop3(a, b, c, (u32)o[6].imm) & 1;
		e_wrp(w, l, &o[0], p);
		e_wrp(w, l, &o[1], q);
	}
}

/* SHF.{L,R}.{U32,S32,U64,S64}[.HI][.W] d, lo, n, hi */
static void
h_shf(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Operand *o = I->in.o;
	int l, left = I->a, hi = I->b, wrap = I->c, sgn = I->d, w64 = I->e;

	LANES(l, gm) {
		u64 v = (u64)e_opr(E, w, l, &o[3]) << 32 | e_opr(E, w, l, &o[1]), r;
		u32 n = e_opr(E, w, l, &o[2]);
		n = wrap ? n & (w64 ? 63 : 31) : MIN(n, w64 ? 64u : 32u);
		if (left)
			r = n >= 64 ? 0 : v << n;
		else if (sgn)
			r = n >= 64 ? (u64)((i64)v >> 63) : (u64)((i64)v >> n);
		else
			r = n >= 64 ? 0 : v >> n;
		e_wr(w, l, &o[0], hi ? (u32)(r >> 32) : (u32)r);
	}
}

/* SEL/FSEL d, a, b, p */
static void
h_sel(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Operand *o = I->in.o;
	int l, f = I->in.op[0] == 'F';

	LANES(l, gm) {
		const Operand *s = e_oprp(w, l, &o[3]) ? &o[1] : &o[2];
		u32 v = e_opr(E, w, l, s);
		if (f) {
			if (s->abs) v &= 0x7fffffff;
			if (s->neg) v ^= 0x80000000;
		} else
			v = e_iv(E, w, l, s);
		e_wr(w, l, &o[0], v);
	}
}

/* ISETP.cmp[.U32].bop[.EX] p, q, a, b, c [, plo] */
static void
h_isetp(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Operand *o = I->in.o;
	int l, cmp = I->a, bo = I->b, sgn = !I->c, ex = I->d;

	if (cmp < 0 || I->in.nops < 5 + ex)
		eunsup(E, I, NULL);
	LANES(l, gm) {
		u32 a = e_iv(E, w, l, &o[2]), b = e_iv(E, w, l, &o[3]);
		int r, c = e_oprp(w, l, &o[4]);
		if (ex) {
			int plo = e_oprp(w, l, &o[5]);
			int gt = sgn ? (i32)a > (i32)b : a > b, lt = sgn ? (i32)a < (i32)b : a < b, eq = a == b;
			switch (cmp) {
			case CMP_EQ: r = eq && plo; break;
			case CMP_NE: r = !eq || plo; break;
			case CMP_LT: case CMP_LE: r = lt || (eq && plo); break;
			default: r = gt || (eq && plo); break;
			}
		} else
			r = i_cmp(cmp, a, b, sgn, 32);
		e_wrp(w, l, &o[0], e_bop(bo, r, c));
		e_wrp(w, l, &o[1], e_bop(bo, !r, c));
	}
}

/* PRMT d, a, sel, b */
static void
h_prmt(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Operand *o = I->in.o;
	int l;

	LANES(l, gm) e_wr(w, l, &o[0], i_prmt(e_opr(E, w, l, &o[1]), e_opr(E, w, l, &o[3]), e_opr(E, w, l, &o[2]), I->a));
}

static void
h_popc(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	int l;

	LANES(l, gm) e_wr(w, l, &I->in.o[0], __builtin_popcount(e_iv(E, w, l, &I->in.o[I->in.nops - 1])));
}

/* FLO[.U32|.S32][.SH] d, a */
static void
h_flo(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	/* FLO[.U32][.SH]: signed unless .U32 (bfind.s32 prints as plain FLO) */
	int l, sh = insn_has(&I->in, "SH"), sgn = !insn_has(&I->in, "U32");

	LANES(l, gm) {
		u32 v = e_iv(E, w, l, &I->in.o[I->in.nops - 1]), r;
		if (sgn && (i32)v < 0)
			v = ~v;
		r = v ? 31 - __builtin_clz(v) : ~0u;
		if (sh && v)
			r = 31 - r;
		e_wr(w, l, &I->in.o[0], r);
	}
}

/* SGXT[.W][.U32] d, a, n (szext): the low N bits of a, sign-extended
 * (zero-extended with .U32); N = min(n, 32), or n mod 32 with .W; N = 0
 * gives 0. */
static void
h_sgxt(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	int l, wrap = insn_has(&I->in, "W"), uns = insn_has(&I->in, "U32");

	LANES(l, gm) {
		u32 a = e_iv(E, w, l, &I->in.o[1]), n = e_iv(E, w, l, &I->in.o[2]), r;
		n = wrap ? n & 31 : MIN(n, 32u);
		if (!n)
			r = 0;
		else if (n == 32)
			r = a;
		else {
			r = a & ((1u << n) - 1);
			if (!uns && (r >> (n - 1) & 1))
				r |= ~0u << n;
		}
		e_wr(w, l, &I->in.o[0], r);
	}
}

static void
h_brev(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	int l;

	LANES(l, gm) e_wr(w, l, &I->in.o[0], (u32)i_brev(e_opr(E, w, l, &I->in.o[1]), 32));
}

/* P2R d, PR, a, mask;  R2P PR, a, mask */
static void
h_p2r(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Operand *o = I->in.o;
	int l, sh = insn_has(&I->in, "B1") ? 8 : insn_has(&I->in, "B2") ? 16 : insn_has(&I->in, "B3") ? 24 : 0;

	LANES(l, gm) {
		u32 m = e_opr(E, w, l, &o[3]) << sh, pv = (u32)(w->p[l] & 0x7f) << sh;
		e_wr(w, l, &o[0], (e_opr(E, w, l, &o[2]) & ~m) | (pv & m));
	}
}

static void
h_r2p(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Operand *o = I->in.o;
	int l, k, sh = insn_has(&I->in, "B1") ? 8 : insn_has(&I->in, "B2") ? 16 : insn_has(&I->in, "B3") ? 24 : 0;

	LANES(l, gm) {
		u32 v = e_opr(E, w, l, &o[1]) >> sh, m = e_opr(E, w, l, &o[2]);
		for (k = 0; k < 7; k++)
			if (m >> k & 1) {
				if (emu_tlog)
					emu_tlog_write(2, k, l, w->p[l] >> k & 1);
				w->p[l] = (u8)((w->p[l] & ~(1u << k)) | (v >> k & 1) << k);
			}
	}
}

/* BMOV.32[.CLEAR] R, Bn;  BMOV.32 Bn, R (save/restore convergence masks) */
static void
h_bmov(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Operand *o = I->in.o;
	int l;

	if (I->in.nops != 2)
		eunsup(E, I, NULL);
	if (o[0].kind == OPK_B) {
		l = __builtin_ctz(gm | 0x80000000u);
		if (gm)
			w->b[o[0].reg & 15] = e_opr(E, w, l, &o[1]);
	} else if (o[1].kind == OPK_B) {
		LANES(l, gm) e_wr(w, l, &o[0], w->b[o[1].reg & 15]);
		if (insn_has(&I->in, "CLEAR") && gm)
			w->b[o[1].reg & 15] = 0;
	} else
		eunsup(E, I, NULL);
}

/* IDP.4A.{S8,U8}.{S8,U8} d, a, b, c;  IDP.2A.{LO,HI}.{S16,U16}.{S8,U8} */
static void
h_idp(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Insn *in = &I->in;
	int l, four = insn_has(in, "4A"), hi = insn_has(in, "HI"), as, bs, i, n = 0, sg[2] = {1, 1};

	for (i = 0; i < in->nmods && n < 2; i++)
		if (in->mods[i][0] == 'S' || in->mods[i][0] == 'U')
			if (strcmp(in->mods[i], "SAT"))
				sg[n++] = in->mods[i][0] == 'S';
	as = sg[0], bs = sg[1];
	LANES(l, gm) {
		u32 a = e_iv(E, w, l, &in->o[1]), b = e_iv(E, w, l, &in->o[2]), c = e_iv(E, w, l, &in->o[3]);
		e_wr(w, l, &in->o[0], four ? i_dp4a(a, b, c, as, bs) : i_dp2a(a, b, c, as, bs, hi));
	}
}

/* VABSDIFF[.U32] d, a, b, c: |a - b| + c */
static void
h_vabsdiff(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Insn *in = &I->in;
	int l, sgn = !insn_has(in, "U32");

	if (in->nmods > 1 || (in->nmods == 1 && !insn_has(in, "U32") && !insn_has(in, "S32")))
		eunsup(E, I, NULL);
	LANES(l, gm) {
		u32 a = e_iv(E, w, l, &in->o[1]), b = e_iv(E, w, l, &in->o[2]);
		e_wr(w, l, &in->o[0], (u32)i_sad(a, b, e_iv(E, w, l, &in->o[3]), 32, sgn));
	}
}

/* VABSDIFF4.U8[.ACC] d, a, b, c: the bytes' unsigned |a - b|, packed, or
   with .ACC summed onto c (ptxas's vabsdiff4.u32.u32.u32[.add]; without
   .ACC c is not read: ptxas selects it for the default mask only) */
static void
h_vabsdiff4(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Insn *in = &I->in;
	int l, i, acc = insn_has(in, "ACC");

	if (!insn_has(in, "U8") || in->nmods != 1 + acc)
		eunsup(E, I, NULL);
	LANES(l, gm) {
		u32 a = e_iv(E, w, l, &in->o[1]), b = e_iv(E, w, l, &in->o[2]), d = acc ? e_iv(E, w, l, &in->o[3]) : 0;
		for (i = 0; i < 32; i += 8) {
			u32 x = a >> i & 0xff, y = b >> i & 0xff, r = x > y ? x - y : y - x;
			d = acc ? d + r : d | r << i;
		}
		e_wr(w, l, &in->o[0], d);
	}
}

/* ELECT p, ud, mask: p true for the lowest active lane, ud its lane */
static void
h_elect(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Operand *o = I->in.o;
	int l, lead = gm ? __builtin_ctz(gm) : 0;

	if (I->in.nops != 3 || o[2].kind != OPK_P || o[2].reg != 7 || o[2].not)
		eunsup(E, I, NULL);
	LANES(l, gm) {
		e_wrp(w, l, &o[0], l == lead);
		e_wr(w, l, &o[1], (u32)lead);
	}
}

/* ---- table ---- */

int
emu_is_nop(Handler h)
{
	return h == h_nop;
}

int
emu_is_control(Handler h)
{
	return h == h_exit || h == h_bra || h == h_call || h == h_ret || h == h_bssy || h == h_bsync ||
	       h == h_break || h == h_warpsync || h == h_bar || h == h_cgabar || h == h_bmov;
}

int
emu_is_bra(Handler h)
{
	return h == h_bra;
}


/* USETMAXREG (setmaxnreg): the emulator has no register pool, so an
 * allocation always succeeds (TRY_ALLOC sets its UP) and a release does
 * nothing; the compiler keeps the whole kernel within the smallest count. */
static void
h_usetmaxreg(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Operand *o = I->in.o;
	int l;

	if (insn_has(&I->in, "TRY_ALLOC")) {
		if (I->in.nops != 2 || o[0].kind != OPK_UP)
			eunsup(E, I, NULL);
		LANES(l, gm)
			e_wrp(w, l, &o[0], 1);
	}
}

static const struct { const char *op; Handler fn; } tab[] = {
	/* ACQBULK (griddepcontrol.wait): waits for the prerequisite grids,
	 * which in the emulator have always completed (one grid at a time);
	 * PREEXIT (launch_dependents): only lets dependents start early */
	{"ACQBULK", h_nop}, {"PREEXIT", h_nop}, {"USETMAXREG", h_usetmaxreg},
	{"NOP", h_nop}, {"DEPBAR", h_nop}, {"MEMBAR", h_nop}, {"ERRBAR", h_nop}, {"CCTL", h_nop}, {"CCTLL", h_nop},
	{"NANOSLEEP", h_nop}, {"YIELD", h_nop}, {"CGAERRBAR", h_nop}, {"LDGDEPBAR", h_nop},
	{"FENCE", h_nop}, {"ENDCOLLECTIVE", h_nop}, {"PMTRIG", h_nop}, {"UCGABAR_ARV", h_cgabar},
	{"UCGABAR_WAIT", h_cgabar}, {"WARPGROUP", h_nop},
	{"EXIT", h_exit}, {"BRA", h_bra}, {"BRX", h_bra}, {"BRXU", h_bra}, {"CALL", h_call}, {"RET", h_ret}, {"LEPC", h_lepc}, {"BSSY", h_bssy},
	{"BSYNC", h_bsync}, {"BREAK", h_break}, {"WARPSYNC", h_warpsync}, {"BAR", h_bar},
	{"MOV", h_mov}, {"UMOV", h_mov}, {"S2R", h_s2r}, {"S2UR", h_s2r}, {"CS2R", h_cs2r},
	{"LDC", h_ldc}, {"ULDC", h_ldc}, {"R2UR", h_r2ur},
	{"IMAD", h_imad}, {"UIMAD", h_imad}, {"IADD3", h_iadd3}, {"UIADD3", h_iadd3},
	{"VIADD", h_viadd}, {"IMNMX", h_imnmx}, {"VIMNMX", h_imnmx}, {"VIADDMNMX", h_imnmx},
	{"UIMNMX", h_imnmx}, {"VIMNMX3", h_imnmx3}, {"BMSK", h_bmsk}, {"UBMSK", h_bmsk}, {"IABS", h_iabs}, {"LEA", h_lea}, {"ULEA", h_lea},
	{"LOP3", h_lop3}, {"ULOP3", h_lop3}, {"PLOP3", h_plop3}, {"UPLOP3", h_plop3},
	{"SHF", h_shf}, {"USHF", h_shf}, {"SEL", h_sel}, {"USEL", h_sel}, {"FSEL", h_sel},
	{"ISETP", h_isetp}, {"UISETP", h_isetp}, {"PRMT", h_prmt}, {"UPRMT", h_prmt},
	{"POPC", h_popc}, {"UPOPC", h_popc}, {"FLO", h_flo}, {"UFLO", h_flo}, {"SGXT", h_sgxt}, {"USGXT", h_sgxt},
	{"BMOV", h_bmov}, {"B2R", h_b2r}, {"ELECT", h_elect}, {"VABSDIFF", h_vabsdiff}, {"VABSDIFF4", h_vabsdiff4}, {"IDP", h_idp}, {"BREV", h_brev}, {"UBREV", h_brev}, {"P2R", h_p2r}, {"R2P", h_r2p},
};

Handler
emu_handler(const char *op)
{
	size_t i;
	Handler h;

	for (i = 0; i < NELEM(tab); i++)
		if (!strcmp(tab[i].op, op))
			return tab[i].fn;
	if ((h = emu_float_handler(op)))
		return h;
	if ((h = emu_tex_handler(op)) || (h = emu_tma_handler(op)))
		return h;
	return emu_mem_handler(op);
}

void
emu_prep(Emu *E, EInsn *I)
{
	const Insn *in = &I->in;
	const char *op = in->op;

	/* the uniform datapath runs once per warp (first active lane); R2UR
	   with a predicate output writes it in every lane */
	I->uni = (op[0] == 'U' && strcmp(op, "UCGABAR_ARV") && strcmp(op, "UCGABAR_WAIT") &&
		  strcmp(op, "VOTEU")) || !strcmp(op, "S2UR") || (!strcmp(op, "R2UR") && !e_isp(&in->o[0]));
	if (I->fn == h_iadd3 && insn_has(in, "64"))
		I->fn = h_uiadd3_64;
	if (I->fn == h_imad) {
		I->a = insn_has(in, "WIDE");
		I->b = insn_has(in, "HI");
		I->c = insn_has(in, "X");
		I->d = insn_has(in, "U32");
	} else if (I->fn == h_shf) {
		I->a = insn_has(in, "L");
		I->b = insn_has(in, "HI");
		I->c = insn_has(in, "W");
		I->d = insn_has(in, "S32") || insn_has(in, "S64");
		I->e = insn_has(in, "U64") || insn_has(in, "S64");
	} else if (I->fn == h_isetp) {
		I->a = e_cmpcode(in);
		I->b = e_bopcode(in);
		I->c = insn_has(in, "U32");
		I->d = insn_has(in, "EX");
	} else if (I->fn == h_bar) {
		/* BAR's kind, decoded once (h_bar runs at every barrier) */
		I->a = 0;
		if (insn_has(in, "RED")) {
			I->a = 2;
			I->b = insn_has(in, "POPC") ? 1 : insn_has(in, "AND") ? 2 : insn_has(in, "OR") ? 3 : 0;
			if (!I->b || in->nops < 2 || !e_isp(&in->o[in->nops - 1]))
				I->a = -1;
		} else if (insn_has(in, "ARV"))
			I->a = 1;
		else if (!insn_has(in, "SYNC"))
			I->a = -1;
	} else if (I->fn == h_prmt) {
		static const char *m[] = {"", "F4E", "B4E", "RC8", "ECL", "ECR", "RC16"};
		size_t k;
		I->a = PRMT_DEFAULT;
		for (k = 1; k < NELEM(m); k++)
			if (insn_has(in, m[k]))
				I->a = (int)k;
	} else
		emu_prep_float(E, I);
}

