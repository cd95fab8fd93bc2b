/* emu_fast_prep.c -- chooses the fast handler of each instruction
 * (emu_fast.c, emu_fast_mem.c) once per launch and resolves its operands;
 * forms it does not know keep their general handler. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/emu_fast.h"
#if defined(HAVE_FMA_HW) || defined(EMU_HAVE_V3)
#include <cpuid.h>
#endif
#include "ptx/arith.h"

int emu_fast_off;
int emu_fast_plain;

/* ---- preparation ---- */

/* c[bank][imm] without an index register (or indexed by RZ/URZ)? */
static int
noidx(const Operand *o)
{
	return !o->rk || (o->rk == OPK_R && o->reg == RZ) || (o->rk == OPK_UR && o->reg == URZ);
}

/* Resolve o into s; 0 if the fast handlers cannot take it.  A constant
 * bank operand folds to its value (banks do not change during a launch). */
static int
fsrc(Emu *E, const Operand *o, FSrc *s, int fimm)
{
	memset(s, 0, sizeof *s);
	s->not = o->not;
	s->neg = o->neg;
	s->abs = o->abs;
	switch (o->kind) {
	case OPK_R:
		if (o->sel || o->x64)
			return 0;
		s->k = FS_R;
		s->reg = o->reg;
		return 1;
	case OPK_UR:
		if (o->sel || o->x64)
			return 0;
		s->k = o->reg == URZ ? FS_K : FS_UR;
		s->reg = o->reg;
		return 1;
	case OPK_IMM:
		s->v = (u32)o->imm;
		return 1;
	case OPK_FIMM:
		if (!fimm)
			return 0;
		s->v = bits_f32((float)o->f);
		return 1;
	case OPK_CB:
		if (!noidx(o) || o->bank >= 18 || !E->cb[o->bank] || o->imm + 4 > E->cbsize[o->bank])
			return 0;
		memcpy(&s->v, E->cb[o->bank] + o->imm, 4);
		return 1;
	case OPK_P: case OPK_UP:
		s->k = o->kind == OPK_UP ? FS_UR : FS_R;
		s->reg = o->reg;
		return 1;
	}
	return 0;
}

static int
isreg(const Operand *o)
{
	return o->kind == OPK_R && !o->sel && !o->x64 && !o->not && !o->neg && !o->abs;
}

/* A destination: R for the vector datapath, UR for the uniform one (the
 * uniform forms share the preparation and get their own handler at the
 * end, unifast). */
static int
isdst(const EInsn *I, const Operand *o)
{
	if (I->uni)
		return o->kind == OPK_UR && !o->sel && !o->x64 && !o->not && !o->neg && !o->abs;
	return isreg(o);
}

/* A predicate destination: P (UP for the uniform datapath), no !. */
static int
isp(const EInsn *I, const Operand *o)
{
	return o->kind == (I->uni ? OPK_UP : OPK_P) && !o->not;
}

static int
prep_int(Emu *E, EInsn *I)
{
	const Insn *in = &I->in;
	const Operand *o = in->o;
	const char *op = in->op;
	int i, np, ok = 1;

	/* a uniform form is prepared as its vector twin (UIADD3 as IADD3) */
	if (I->uni && op[0] == 'U' && strcmp(op, "ULDC"))
		op++;
	if (!strcmp(op, "MOV") && in->nops >= 2 && isdst(I, &o[0]) && (in->nops == 2 || o[2].kind == OPK_IMM)) {
		I->fd = (u8)o[0].reg;
		I->fx = fx_mov;
		return fsrc(E, &o[1], &FS[0], 1) && o[1].kind != OPK_P && o[1].kind != OPK_UP;
	}
	if (!strcmp(op, "HFMA2") && I->d == 1) {
		/* ptxas's constant load HFMA2.MMA d, -RZ, RZ, hi, lo, folded by
		   emu_prep_float into I->e */
		FS[0].v = (u32)I->e;
		I->fd = (u8)o[0].reg;
		I->fx = fx_mov;
		return isreg(&o[0]);
	}
	if (!strcmp(op, "S2R")) {
		static const char *sr[] = {"SR_TID.X", "SR_TID.Y", "SR_TID.Z", "SR_CTAID.X", "SR_CTAID.Y",
					   "SR_CTAID.Z", "SR_LANEID", "SR_CgaCtaId", "SR_EQMASK", "SR_LTMASK",
					   "SR_LEMASK", "SR_GTMASK", "SR_GEMASK"};
		if (in->nops != 2 || !isreg(&o[0]) || o[1].kind != OPK_SR)
			return 0;
		for (i = 0; i < (int)NELEM(sr); i++)
			if (!strcmp(o[1].text, sr[i])) {
				I->a = i;
				I->fd = (u8)o[0].reg;
				I->fx = fx_s2r;
				return 1;
			}
		return 0;
	}
	if (!strcmp(op, "S2UR")) {
		/* I->a = 0..2 CTAID.X/Y/Z, 3 CgaCtaId */
		if (in->nops != 2 || o[0].kind != OPK_UR || o[1].kind != OPK_SR)
			return 0;
		if (!strcmp(o[1].text, "SR_CgaCtaId"))
			I->a = 3;
		else if (strncmp(o[1].text, "SR_CTAID.", 9) || !o[1].text[9] || o[1].text[10] ||
			 o[1].text[9] < 'X' || o[1].text[9] > 'Z')
			return 0;
		else
			I->a = o[1].text[9] - 'X';
		I->fd = (u8)o[0].reg;
		I->fx = fx_s2ur;
		return 1;
	}
	if (!strcmp(op, "LDC")) {
		/* I->a = size, I->b = sign (emu_prep_mem) */
		const Operand *c = &o[1];
		u32 v[2] = {0};
		if (in->nops != 2 || c->kind != OPK_CB || !noidx(c) || c->bank >= 18 ||
		    !E->cb[c->bank] || (I->a != 4 && I->a != 8) || c->imm + I->a > E->cbsize[c->bank])
			return 0;
		memcpy(v, E->cb[c->bank] + c->imm, I->a);
		FS[0].v = v[0];
		FS[1].v = v[1];
		I->fd = (u8)o[0].reg;
		I->fx = fx_ldck;
		return isreg(&o[0]);
	}
	if (!strcmp(op, "ULDC")) {
		const Operand *c = &o[1];
		if (in->nops != 2 || o[0].kind != OPK_UR || c->kind != OPK_CB || !noidx(c) || c->bank >= 18 ||
		    !E->cb[c->bank] || (I->a != 4 && I->a != 8) || c->imm + I->a > E->cbsize[c->bank])
			return 0;
		memcpy(&FS[0].v, E->cb[c->bank] + c->imm, 4);
		if (I->a == 8)
			memcpy(&FS[1].v, E->cb[c->bank] + c->imm + 4, 4);
		I->fd = (u8)o[0].reg;
		I->fx = fx_uldc;
		return 1;
	}
	if (!strcmp(op, "IADD3")) {
		if (insn_has(in, "64"))
			return 0;   /* UIADD3.64: the general path's h_uiadd3_64 */
		for (np = 0, i = 1; i < in->nops && e_isp(&o[i]); i++)
			np++;
		if (np > 2 || in->nops < 4 + np || in->nops > 6 + np || !isdst(I, &o[0]))
			return 0;
		I->a = np;
		I->b = in->nops - 4 - np;
		for (i = 0; i < np; i++)
			ok &= isp(I, &o[1 + i]), I->fp[i] = (u8)o[1 + i].reg;
		for (i = 0; i < 3; i++)
			ok &= fsrc(E, &o[1 + np + i], &FS[i], 0) && !e_isp(&o[1 + np + i]);
		for (i = 0; i < I->b; i++)
			ok &= e_isp(&o[4 + np + i]) && fsrc(E, &o[4 + np + i], &FS[3 + i], 0);
		I->fd = (u8)o[0].reg;
		I->fx = fx_iadd3;
		return ok;
	}
	if (!strcmp(op, "IMAD")) {
		int wide = insn_has(in, "WIDE"), hi = insn_has(in, "HI"), x = insn_has(in, "X");
		const Operand *C;
		np = e_isp(&o[1]);
		if (in->nops < 4 + np || in->nops > 5 + np || !isdst(I, &o[0]) || (wide && hi))
			return 0;
		for (i = 0; i < 3; i++)
			ok &= fsrc(E, &o[1 + np + i], &FS[i], 0) && !e_isp(&o[1 + np + i]);
		I->fd = (u8)o[0].reg;
		I->a = np;
		I->b = x && in->nops > 4 + np;
		if (np)
			ok &= isp(I, &o[1]), I->fp[0] = (u8)o[1].reg;
		if (I->b)
			ok &= e_isp(&o[4 + np]) && fsrc(E, &o[4 + np], &FS[3], 0);
		if (!wide && !hi) {
			I->fx = fx_imad;
			return ok;
		}
		/* .WIDE/.HI: c is 64 bits, a register pair or a constant (e_opr64);
		   I->c = U32, I->d = WIDE, fs[2].vh = a constant's high word */
		C = &o[3 + np];
		I->c = insn_has(in, "U32");
		I->d = wide;
		if (C->not || C->sel || C->x64 || (C->kind != OPK_R && C->kind != OPK_IMM && C->kind != OPK_CB))
			return 0;
		if (C->kind == OPK_IMM) {
			FS[2].v = (u32)C->imm;
			FS[2].vh = (u32)(C->imm >> 32);
		} else if (C->kind == OPK_CB) {
			if (C->rk || C->bank >= 18 || !E->cb[C->bank] || C->imm + 8 > E->cbsize[C->bank])
				return 0;
			memcpy(&FS[2].vh, E->cb[C->bank] + C->imm + 4, 4);
		}
		I->fx = wide && !np && !I->b ? fx_imad_wide : fx_imad_hi;
		if (I->fx == fx_imad_wide && FS[1].k == FS_K) {
			/* b a power of two (positive when signed): a shift */
			u32 b = FS[1].not ? ~FS[1].v : FS[1].v;
			b = FS[1].neg ? -b : b;
			if (b && !(b & (b - 1)) && (I->c || b <= 1u << 30))
				I->e = 1 + __builtin_ctz(b);
		}
		return ok;
	}
	if (!strcmp(op, "VIADD")) {
		if (in->nops != 3 || !isdst(I, &o[0]))
			return 0;
		ok &= fsrc(E, &o[1], &FS[0], 0) && fsrc(E, &o[2], &FS[1], 0) && !e_isp(&o[1]) && !e_isp(&o[2]);
		I->fd = (u8)o[0].reg;
		I->fx = fx_viadd;
		return ok;
	}
	if (!strcmp(op, "IMNMX") || !strcmp(op, "VIMNMX") || !strcmp(op, "VIADDMNMX")) {
		/* VIADDMNMX d, a, b, c, p: I->c set, c in fs[3]; 16x2 and RELU:
		   the slow handler */
		I->c = op[1] == 'I' && op[2] == 'A';
		if (in->nops != 4 + I->c || !isdst(I, &o[0]) || !e_isp(&o[3 + I->c]) || insn_has(in, "S16x2") ||
		    insn_has(in, "U16x2") || insn_has(in, "RELU"))
			return 0;
		ok &= fsrc(E, &o[1], &FS[0], 0) && fsrc(E, &o[2], &FS[1], 0) && !e_isp(&o[1]) && !e_isp(&o[2]);
		ok &= fsrc(E, &o[3 + I->c], &FS[2], 0);
		if (I->c)
			ok &= fsrc(E, &o[3], &FS[3], 0) && !e_isp(&o[3]);
		I->a = !insn_has(in, "U32");
		I->fd = (u8)o[0].reg;
		I->fx = fx_imnmx;
		return ok;
	}
	if (!strcmp(op, "LOP3")) {
		np = e_isp(&o[0]);
		if (!insn_has(in, "LUT") || in->nops < 5 + np || o[np + 4].kind != OPK_IMM || !isdst(I, &o[np]))
			return 0;
		if (np)
			ok &= isp(I, &o[0]), I->fp[0] = (u8)o[0].reg;
		for (i = 0; i < 3; i++)
			ok &= fsrc(E, &o[np + 1 + i], &FS[i], 0) && !e_isp(&o[np + 1 + i]);
		I->a = np;
		I->b = (int)(o[np + 4].imm & 0xff);
		I->fd = (u8)o[np].reg;
		I->fx = fx_lop3;
		return ok;
	}
	if (!strcmp(op, "SHF")) {
		if (in->nops != 4 || !isdst(I, &o[0]))
			return 0;
		for (i = 0; i < 3; i++)
			ok &= fsrc(E, &o[1 + i], &FS[i], 0) && !e_isp(&o[1 + i]);
		I->fd = (u8)o[0].reg;
		I->fx = fx_shf;   /* I->a..e as emu_prep set them */
		return ok;
	}
	if (!strcmp(op, "LEA")) {
		int hi = insn_has(in, "HI"), sx = insn_has(in, "SX32"), na, ns;
		np = e_isp(&o[1]);
		na = 1 + np;
		ns = na + 2 + (hi && !sx);
		if (ns >= in->nops || in->nops > ns + 2 || !isdst(I, &o[0]))
			return 0;
		if (np)
			ok &= isp(I, &o[1]), I->fp[0] = (u8)o[1].reg;
		ok &= fsrc(E, &o[na], &FS[0], 0) && fsrc(E, &o[na + 1], &FS[1], 0);
		if (hi && !sx)
			ok &= fsrc(E, &o[na + 2], &FS[2], 0);
		ok &= fsrc(E, &o[ns], &FS[3], 0);
		I->b = ns + 1 < in->nops;
		if (I->b)
			ok &= e_isp(&o[ns + 1]) && fsrc(E, &o[ns + 1], &FS[4], 0);
		I->a = np;
		I->c = hi;
		I->d = sx;
		I->fd = (u8)o[0].reg;
		I->fx = fx_lea;
		return ok;
	}
	if (!strcmp(op, "ISETP")) {
		/* I->a = CMP_*, b = the bop, c = U32, d = EX (emu_prep) */
		if (I->a < 0 || I->a > CMP_GE || in->nops != 5 + !!I->d || !isp(I, &o[0]) || !isp(I, &o[1]))
			return 0;
		I->fp[0] = (u8)o[0].reg;
		I->fp[1] = (u8)o[1].reg;
		ok &= fsrc(E, &o[2], &FS[0], 0) && fsrc(E, &o[3], &FS[1], 0) && !e_isp(&o[2]) && !e_isp(&o[3]);
		ok &= e_isp(&o[4]) && fsrc(E, &o[4], &FS[2], 0);
		if (I->d)
			ok &= e_isp(&o[5]) && fsrc(E, &o[5], &FS[3], 0);
		I->fx = fx_isetp;
		return ok;
	}
	if (!strcmp(op, "SEL") || !strcmp(op, "FSEL")) {
		if (in->nops != 4 || !isdst(I, &o[0]) || !e_isp(&o[3]))
			return 0;
		I->a = op[0] == 'F';
		ok &= fsrc(E, &o[1], &FS[0], I->a) && fsrc(E, &o[2], &FS[1], I->a) && fsrc(E, &o[3], &FS[2], 0);
		ok &= !e_isp(&o[1]) && !e_isp(&o[2]);
		if (I->a)
			ok &= !o[1].not && !o[2].not;
		I->fd = (u8)o[0].reg;
		I->fx = fx_sel;
		return ok;
	}
	if (!strcmp(op, "PLOP3")) {
		/* PLOP3.LUT p, q, a, b, c, lut, lut2: I->b, I->c = the tables */
		if (!insn_has(in, "LUT") || in->nops != 7 || !isp(I, &o[0]) || !isp(I, &o[1]) ||
		    o[5].kind != OPK_IMM || o[6].kind != OPK_IMM)
			return 0;
		for (i = 0; i < 3; i++)
			ok &= e_isp(&o[2 + i]) && fsrc(E, &o[2 + i], &FS[i], 0);
		I->fp[0] = (u8)o[0].reg;
		I->fp[1] = (u8)o[1].reg;
		I->b = (int)(o[5].imm & 0xff);
		I->c = (int)(o[6].imm & 0xff);
		I->fx = fx_plop3;
		return ok;
	}
	if (!strcmp(op, "SHFL")) {
		/* SHFL.mode p, d, a, b, c: I->b = the mode (emu_prep_mem) */
		if (in->nops != 5 || !isp(I, &o[0]) || !isreg(&o[1]))
			return 0;
		for (i = 0; i < 3; i++)
			ok &= fsrc(E, &o[2 + i], &FS[i], 0) && !e_isp(&o[2 + i]) && !o[2 + i].not && !o[2 + i].neg;
		I->fp[0] = (u8)o[0].reg;
		I->fd = (u8)o[1].reg;
		I->fx = fx_shfl;
		return ok;
	}
	if (!strcmp(op, "CS2R")) {
		/* CS2R[.32] d, SRZ: zeros (I->a = registers) */
		if (in->nops != 2 || !isreg(&o[0]) || o[1].kind != OPK_SR || strcmp(o[1].text, "SRZ"))
			return 0;
		I->a = insn_has(in, "32") ? 1 : 2;
		I->fd = (u8)o[0].reg;
		I->fx = fx_cs2r;
		return 1;
	}
	if (!strcmp(op, "PRMT")) {
		/* PRMT d, a, sel, b: I->a = the mode (emu_prep) */
		if (in->nops != 4 || !isdst(I, &o[0]))
			return 0;
		for (i = 0; i < 3; i++)
			ok &= fsrc(E, &o[1 + i], &FS[i], 0) && !e_isp(&o[1 + i]) && !o[1 + i].not && !o[1 + i].neg;
		I->fd = (u8)o[0].reg;
		I->fx = fx_prmt;
		return ok;
	}
	if (!strcmp(op, "IABS")) {
		if (in->nops != 2 || !isdst(I, &o[0]))
			return 0;
		I->fd = (u8)o[0].reg;
		I->fx = fx_iabs;
		return fsrc(E, &o[1], &FS[0], 0) && !e_isp(&o[1]);
	}
	if (!strcmp(op, "R2UR")) {
		if (in->nops != 2 || o[0].kind != OPK_UR || o[0].sel || o[0].x64 || !isreg(&o[1]))
			return 0;
		I->fd = (u8)o[0].reg;
		I->fx = fx_r2ur;
		return fsrc(E, &o[1], &FS[0], 0);
	}
	return -1;
}

/* A 64-bit f64 source (dv): a register pair or a constant. */
static int
dsrc(Emu *E, const Operand *o, FSrc *s)
{
	u64 v;

	memset(s, 0, sizeof *s);
	s->neg = o->neg;
	s->abs = o->abs;
	switch (o->kind) {
	case OPK_R:
		if (o->sel || o->x64 || o->not)
			return 0;
		s->k = FS_R;
		s->reg = o->reg;
		return 1;
	case OPK_IMM:   /* an integer-looking f64 immediate: its high word */
		v = o->imm << 32;
		break;
	case OPK_FIMM:
		v = o->imm;
		break;
	case OPK_CB:
		if (!noidx(o) || o->bank >= 18 || !E->cb[o->bank] || o->imm + 8 > E->cbsize[o->bank])
			return 0;
		memcpy(&v, E->cb[o->bank] + o->imm, 8);
		break;
	default:
		return 0;
	}
	s->v = (u32)v;
	s->vh = (u32)(v >> 32);
	return 1;
}

static int
prep_float(Emu *E, EInsn *I)
{
	const Insn *in = &I->in;
	const Operand *o = in->o;
	const char *op = in->op;
	int n, i, ok = 1;

	if (!strcmp(op, "DADD") || !strcmp(op, "DMUL") || !strcmp(op, "DFMA")) {
		I->e = op[1] == 'A' ? 0 : op[1] == 'M' ? 1 : 2;
		n = I->e == 2 ? 3 : 2;
		/* I->a = rounding (emu_prep_float) */
		if (I->a != RND_RN || in->nops != n + 1 || !isreg(&o[0]))
			return 0;
		for (i = 0; i < n; i++)
			ok &= dsrc(E, &o[1 + i], &FS[i]);
		I->fd = (u8)o[0].reg;
		I->fx = fx_darith;
		return ok;
	}
	if (!strcmp(op, "FSETP")) {
		I->d = e_cmpcode(in);
		I->e = e_bopcode(in);
		if (I->d == -1 || I->e < 0 || I->e > 2 || in->nops != 5 || !isp(I, &o[0]) || !isp(I, &o[1]))
			return 0;
		I->fp[0] = (u8)o[0].reg;
		I->fp[1] = (u8)o[1].reg;
		ok &= fsrc(E, &o[2], &FS[0], 1) && fsrc(E, &o[3], &FS[1], 1) && !e_isp(&o[2]) && !e_isp(&o[3]);
		ok &= !o[2].not && !o[3].not && e_isp(&o[4]) && fsrc(E, &o[4], &FS[2], 0);
		I->fx = fx_fsetp;
		return ok;
	}
	if (!strcmp(op, "MUFU")) {
		static const struct { const char *m; int ap; } f[] = {
			{"RCP", AP_RCP}, {"RSQ", AP_RSQRT}, {"SQRT", AP_SQRT}, {"EX2", AP_EX2},
			{"LG2", AP_LG2}, {"TANH", AP_TANH},
		};
		if (in->nops != 2 || in->nmods != 1 || !isreg(&o[0]))
			return 0;
		for (i = 0; i < (int)NELEM(f); i++)
			if (!strcmp(in->mods[0], f[i].m)) {
				I->e = f[i].ap;
				I->fd = (u8)o[0].reg;
				I->fx = fx_mufu;
				return fsrc(E, &o[1], &FS[0], 1) && !e_isp(&o[1]) && !o[1].not;
			}
		return 0;
	}
	if (!strcmp(op, "FMNMX")) {
		/* I->b = ftz (emu_prep_float), I->d = .NAN; .XORSIGN: the slow handler */
		if (in->nops != 4 || !isreg(&o[0]) || !e_isp(&o[3]) || insn_has(in, "XORSIGN"))
			return 0;
		I->d = insn_has(in, "NAN");
		ok &= fsrc(E, &o[1], &FS[0], 1) && fsrc(E, &o[2], &FS[1], 1) && fsrc(E, &o[3], &FS[2], 0);
		ok &= !e_isp(&o[1]) && !e_isp(&o[2]) && !o[1].not && !o[2].not;
		I->fd = (u8)o[0].reg;
		I->fx = fx_fmnmx;
		return ok;
	}
	if (!strcmp(op, "FADD"))
		I->e = 0, n = 2;
	else if (!strcmp(op, "FMUL") && emu_fmul_scale(in))
		return 0;   /* .D8 etc.: the slow handler */
	else if (!strcmp(op, "FMUL"))
		I->e = 1, n = 2;
	else if (!strcmp(op, "FFMA"))
		I->e = 2, n = 3;
	else
		return -1;
	/* I->a = rounding, b = ftz, c = sat (emu_prep_float) */
	if (I->a < RND_RN || I->a > RND_RP || in->nops != n + 1 || !isreg(&o[0]))
		return 0;
	for (i = 0; i < n; i++)
		ok &= fsrc(E, &o[1 + i], &FS[i], 1) && !e_isp(&o[1 + i]) && !o[1 + i].not;
	I->fd = (u8)o[0].reg;
	I->fx = fx_farith;
	return ok;
}

static int
prep_mem(Emu *E, EInsn *I)
{
	const Insn *in = &I->in;
	const char *op = in->op;
	const Operand *m, *r;
	int ld;

	if (!strcmp(op, "LDG") || !strcmp(op, "LDS"))
		ld = 1;
	else if (!strcmp(op, "STG") || !strcmp(op, "STS"))
		ld = 0;
	else
		return -1;
	if (in->nops != 2 || (I->c != MS_GLOBAL && I->c != MS_SHARED))
		return 0;
	m = &in->o[ld];
	r = &in->o[!ld];
	/* desc[URn] (a cache policy) does not change the address (addr_of) */
	if (m->kind != OPK_MEM || !isreg(r) || (I->a & (I->a - 1)))
		return 0;
	/* the base: R (pair when 64-bit and not .U32), UR (pair likewise), none */
	I->d = I->d && !m->u32;
	if (m->rk == OPK_R) {
		FS[0].k = FS_R;
		FS[0].reg = m->reg;
	} else if (m->rk == OPK_UR) {
		FS[0].k = m->reg == URZ ? FS_K : FS_UR;
		FS[0].reg = m->reg;
		/* the high word of a UR pair */
		FS[3].k = m->reg == URZ || m->reg + 1 >= URZ ? FS_K : FS_UR;
		FS[3].reg = (u16)(m->reg + 1);
	} else if (m->rk)
		return 0;
	I->e = m->scale ? m->scale : 1;
	if (m->ur != URZ) {
		FS[1].k = FS_UR;
		FS[1].reg = m->ur;
	}
	FS[2].v = (u32)m->imm;
	if (m->imm >> 32)
		return 0;
	I->fd = (u8)r->reg;
	I->fx = ld ? fx_ld : fx_st;
	return 1;
}

/* A uniform instruction prepared as its vector twin: its own handler
 * (emu_fast_uni.c), if it has one and reads no vector register (R2UR
 * aside); 0 otherwise. */
static int
unifast(EInsn *I)
{
	static const struct { Handler v, u; } t[] = {
		{fx_mov, fx_umov}, {fx_iadd3, fx_uiadd3}, {fx_imad, fx_uimad}, {fx_lop3, fx_ulop3},
		{fx_shf, fx_ushf}, {fx_lea, fx_ulea}, {fx_isetp, fx_uisetp}, {fx_sel, fx_usel},
		{fx_plop3, fx_uplop3}, {fx_viadd, fx_uviadd}, {fx_imnmx, fx_uimnmx},
		{fx_uldc, fx_uldc}, {fx_s2ur, fx_s2ur}, {fx_r2ur, fx_r2ur},
	};
	size_t i;
	int k;

	for (k = 0; k < 5 && I->fx != fx_r2ur; k++)
		if (FS[k].k == FS_R)
			return 0;
	for (i = 0; i < NELEM(t); i++)
		if (I->fx == t[i].v) {
			I->fx = t[i].u;
			return 1;
		}
	return 0;
}

/* Choose the fast handler of every instruction that has one.
 * OA_EMU_SLOW=1 lists on stderr the instructions that keep their general
 * handler (a development aid for choosing the next fast forms). */
#if defined(HAVE_FMA_HW) || defined(EMU_HAVE_V3)
/* The host's units, from CPUID, asked once when first needed (not with
 * __builtin_cpu_supports, whose start-up constructor runs CPUID in every
 * process: a VM exit of 4-12 us each on our machines).  Bit 0: FMA;
 * bit 1: all of x86-64-v3 with the OS saving the YMM registers. */
static unsigned
host_units(void)
{
	static int known = -1;
	unsigned a, b, c, d, fma, v3;

	if (known >= 0)
		return (unsigned)known;
	fma = v3 = 0;
	if (__get_cpuid(1, &a, &b, &c, &d)) {
		unsigned lo, hi;
		fma = c >> 12 & 1;
		/* FMA 12, MOVBE 22, OSXSAVE 27, AVX 28, F16C 29 */
		v3 = (c & 0x38401000u) == 0x38401000u;
		if (v3) {
			__asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
			v3 = (lo & 6) == 6;
		}
		/* AVX2 5, BMI1 3, BMI2 8 */
		v3 = v3 && __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & 0x128u) == 0x128u;
		/* LZCNT: extended leaf 1, ECX bit 5 */
		v3 = v3 && __get_cpuid(0x80000001u, &a, &b, &c, &d) && (c >> 5 & 1);
	}
	known = (int)(fma | v3 << 1);
	return (unsigned)known;
}
#endif

#ifdef EMU_HAVE_V3
/* The x86-64-v3 twin of a fast handler, or the handler itself. */
static Handler
v3_twin(Handler f)
{
#define TWIN(n) { n, n##_v3 },
	static const struct {
		Handler plain, v3;
	} twins[] = { FAST_HANDLERS(TWIN) };
#undef TWIN
	size_t i;

	for (i = 0; i < sizeof twins / sizeof *twins; i++)
		if (twins[i].plain == f)
			return twins[i].v3;
	return f;
}
#endif

void
emu_fast_prep(Emu *E)
{
	const char *log = getenv("OA_EMU_SLOW");
	u32 i;

#ifdef HAVE_FMA_HW
	E->fma_hw = host_units() & 1;
#endif
	if (emu_fast_off)
		return;
	for (i = 0; i < E->ncode; i++) {
		EInsn *I = &E->code[i];
		EInsn save = *I;
		int r;
		if (!I->decoded || I->why || emu_is_control(I->fn))
			continue;
		memset(I->fs, 0, sizeof I->fs);
		if ((r = prep_int(E, I)) < 0 && (r = prep_float(E, I)) < 0)
			r = prep_mem(E, I);
		if (r > 0 && I->uni)
			r = unifast(I);
		if (r <= 0) {
			*I = save;   /* the general handler, with its own facts */
			if (log && *log == '1')
				fprintf(stderr, "emu slow %04x: %s\n", I->pc, I->in.text);
		}
		else {
#ifdef EMU_HAVE_V3
			if (!emu_fast_plain && host_units() & 2)
				I->fx = v3_twin(I->fx);
#endif
			I->fn = I->fx;   /* a..e now hold the fast handler's facts */
		}
	}
}
