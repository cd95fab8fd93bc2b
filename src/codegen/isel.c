/* isel.c -- the instruction selection driver and the operand helpers
 * every family uses (see isel.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/isel.h"

static const SelRule *const families[] = {
	sel_rules_int, sel_rules_float, sel_rules_mem, sel_rules_ctrl, sel_rules_cvt,
	sel_rules_atom, sel_rules_warp, sel_rules_intx, sel_rules_math, sel_rules_div, sel_rules_tensor,
	sel_rules_async, sel_rules_call, sel_rules_wmma, sel_rules_mbar, sel_rules_tex, sel_rules_wgmma,
	sel_rules_sm90, sel_rules_tma, sel_rules_stack,
};

int
sel_unsupported(Sel *s, const char *what)
{
	const PtxInstr *in = s->cur ? &s->cur->p : NULL;
	if (in)
		diag_at(&s->m->src, in->pos, "unsupported by the compiler for sm_%d: %s", s->sm, what);
	else
		diag(s->m->src.path, "unsupported by the compiler for sm_%d: %s", s->sm, what);
	return -1;
}

int
sel_type_regs(PtxType t)
{
	int n = ptx_type_size(t);
	if (t == PTX_T_PRED)
		return 0;
	return n <= 4 ? 1 : n / 4;
}

MRef
sel_reg(Sel *s, int r)
{
	if (s->vof[r] < 0) {
		PtxType t = (PtxType)s->ir->rtype[r];
		int w = sel_type_regs(t);
		s->vof[r] = w ? mvreg(s->mf, RC_R, w) : mvreg(s->mf, RC_P, 1);
	}
	return mref(s->vof[r]);
}

MRef
sel_tmp(Sel *s, int w)
{
	int v = mvreg(s->mf, RC_R, w);
	s->mf->vr.v[v].tmp = 1;
	return mref(v);
}

MRef
sel_ptmp(Sel *s)
{
	int v = mvreg(s->mf, RC_P, 1);
	s->mf->vr.v[v].tmp = 1;
	return mref(v);
}

MOpd
mopd_reg(MRef r)
{
	MOpd o;
	memset(&o, 0, sizeof o);
	o.r = r;
	return o;
}

MOpd
mopd_txt(const char *t)
{
	MOpd o;
	size_t n = strlen(t);

	memset(&o, 0, sizeof o);
	o.r.v = -1;
	memcpy(o.txt, t, n < sizeof o.txt ? n : sizeof o.txt - 1);   /* as snprintf: cut, NUL-ended */
	return o;
}

MOpd
mopd_imm(u32 v, int uns)
{
	MOpd o;
	char t[8], *p = t + sizeof t, *q = o.txt;

	memset(&o, 0, sizeof o);
	o.r.v = -1;

	if ((i32)v < 0 && !uns) {
		*q++ = '-';
		v = (u32)-(i64)(i32)v;
	}
	do   /* "0x%x" without snprintf (a hot path of isel and the folds) */
		*--p = "0123456789abcdef"[v & 15];
	while (v >>= 4);
	*q++ = '0';
	*q++ = 'x';
	memcpy(q, p, (size_t)(t + sizeof t - p));
	return o;
}

int
sel_imm(const PtxOperand *o, u64 *v)
{
	if (o->kind == PTX_OPD_IMM) {
		*v = (u64)o->imm;
		return 1;
	}
	if (o->kind == PTX_OPD_FIMM) {
		*v = o->fbits;
		return 1;
	}
	return 0;
}

/* The index in block 0 after the prologue (the stack pointer's load and
 * adjustment, the global memory descriptor): where values computed once
 * per function go (a spill of them needs the stack pointer). */
size_t
sel_prologue_end(const MBlock *b0)
{
	size_t i, at = 0;

	for (i = 0; i < b0->ins.n; i++)
		if (strstr(b0->ins.v[i].text, "R1, c[0x0][0x28]") || !strncmp(b0->ins.v[i].text, "ULDC.64 UR4,", 12) ||
		    !strncmp(b0->ins.v[i].text, "VIADD R1, R1,", 13) || !strncmp(b0->ins.v[i].text, "IADD3 R1, R1,", 13))
			at = i + 1;
	return at;
}

char *
sel_offtxt(char *t, size_t n, i64 off)
{
	char b[24], *p = b + sizeof b;
	u64 v = off < 0 ? (u64)-off : (u64)off;
	size_t k;

	if (!off) {
		t[0] = 0;
		return t;
	}
	*--p = 0;
	do   /* "+0x%x" / "+-0x%x" without snprintf (addresses of every access) */
		*--p = "0123456789abcdef"[v & 15];
	while (v >>= 4);
	*--p = 'x';
	*--p = '0';
	if (off < 0)
		*--p = '-';
	*--p = '+';
	k = strlen(p);
	if (k >= n)   /* as snprintf: cut, NUL-ended */
		k = n - 1;
	memcpy(t, p, k);
	t[k] = 0;
	return t;
}

const char *
sel_gdesc(Sel *s)
{
	return s->sm >= 90 ? "desc[UR4]" : "";
}

void
sel_mov32(Sel *s, MRef d, MOpd src)
{
	MIns *m;
	if (!src.txt[0] && src.r.v == s->mf->rz) {
		mi(s->mf, "MOV %D, 0x0", d);
	} else if (!src.txt[0]) {
		m = mi(s->mf, "MOV %D, %U", d, src.r);
		m->copy = 1;
	} else {
		mi(s->mf, "MOV %D, %s", d, src.txt);
	}
}

/* A value from constant bank 0 (launch dimensions, parameters). */
static void
load_c0(Sel *s, MRef d, u32 off)
{
	if (s->sm >= 90 && !off)
		mi(s->mf, "LDC %D, c[0x0][RZ]", d);  /* LDC's spelling of offset 0 */
	else if (s->sm >= 90)
		mi(s->mf, "LDC %D, c[0x0][%h]", d, off);
	else
		mi(s->mf, "MOV %D, c[0x0][%h]", d, off);
}

/* %clusterid.c (rem 0) or %cluster_ctaid.c (rem 1) on sm_90, as ptxas: the
 * cluster index is trunc(%ctaid * 1/%cluster_nctaid), the f32 reciprocal
 * the driver's at c[0x0][0x150 + 4c] (the dimension at 0x144 + 4c). */
static int
cluster_pos(Sel *s, MRef d, int c, int rem)
{
	MRef id = sel_tmp(s, 1), f = sel_tmp(s, 1), q = rem ? sel_tmp(s, 1) : d, n;

	mi(s->mf, "S2R %D, %s", id, c == 0 ? "SR_CTAID.X" : c == 1 ? "SR_CTAID.Y" : "SR_CTAID.Z");
	load_c0(s, f, 0x150 + 4u * (u32)c);
	mi(s->mf, "I2FP.F32.U32 %D, %U", q, id);
	mi(s->mf, "FMUL %D, %U, %U", f, q, f);
	mi(s->mf, "F2I.U32.TRUNC.NTZ %D, %U", q, f);
	if (!rem)
		return 0;
	n = sel_tmp(s, 1);
	load_c0(s, n, 0x144 + 4u * (u32)c);
	mi(s->mf, "IMAD.MOV %D, RZ, RZ, -%U", q, q);
	mi(s->mf, "IMAD %D, %U, %U, %U", d, q, n, id);
	return 0;
}

/* A special register's 32-bit part (of %gridid, %pmN_64: 0 low, 1 high) into d,
 * as ptxas reads it (docs/compiler-mem.md, "Special registers"). */
static int
sreg_value(Sel *s, const PtxOperand *o, MRef d, int part)
{
	static const char *const sr[2][3] = {
		{ "SR_TID.X", "SR_TID.Y", "SR_TID.Z" },
		{ "SR_CTAID.X", "SR_CTAID.Y", "SR_CTAID.Z" },
	};
	static const char *const mask[] = { "SR_EQMASK", "SR_LEMASK", "SR_LTMASK", "SR_GEMASK", "SR_GTMASK" };
	int c = o->comp < 0 ? 0 : o->comp, r = o->sreg;
	MRef t;

	if (part && r != PTX_SR_gridid && !(r >= PTX_SR_pm0_64 && r <= PTX_SR_pm7_64)) {
		mi(s->mf, "MOV %D, 0x0", d);   /* the high word of a 32-bit register */
		return 0;
	}
	switch (r) {
	case PTX_SR_tid:
	case PTX_SR_ctaid:
		if (c > 2)
			break;
		mi(s->mf, "S2R %D, %s", d, sr[r != PTX_SR_tid][c]);
		return 0;
	case PTX_SR_ntid:
		if (c > 2)
			break;
		load_c0(s, d, 0x0 + 4u * (u32)c);
		return 0;
	case PTX_SR_nctaid:
		if (c > 2)
			break;
		load_c0(s, d, 0xc + 4u * (u32)c);
		return 0;
	case PTX_SR_cluster_nctarank:   /* the cluster's constants (sm_90) */
		if (s->sm < 90)
			break;
		load_c0(s, d, 0x188);
		return 0;
	case PTX_SR_cluster_nctaid:
	case PTX_SR_nclusterid:
		if (s->sm < 90 || c > 2)
			break;
		load_c0(s, d, (r == PTX_SR_cluster_nctaid ? 0x144u : 0x15cu) + 4u * (u32)c);
		return 0;
	case PTX_SR_clusterid:
	case PTX_SR_cluster_ctaid:
		if (s->sm < 90 || c > 2)
			break;
		return cluster_pos(s, d, c, r == PTX_SR_cluster_ctaid);
	case PTX_SR_laneid:
		mi(s->mf, "S2R %D, SR_LANEID", d);
		return 0;
	case PTX_SR_clock:
		mi(s->mf, "S2R %D, SR_CLOCKLO", d);
		return 0;
	case PTX_SR_clock_hi:
		mi(s->mf, "CS2R.32 %D, SR_CLOCKHI", d);
		return 0;
	case PTX_SR_globaltimer_lo:
	case PTX_SR_globaltimer_hi:
		mi(s->mf, "CS2R.32 %D, %s", d, r == PTX_SR_globaltimer_lo ? "SR_GLOBALTIMERLO" : "SR_GLOBALTIMERHI");
		return 0;
	case PTX_SR_lanemask_eq: case PTX_SR_lanemask_le: case PTX_SR_lanemask_lt:
	case PTX_SR_lanemask_ge: case PTX_SR_lanemask_gt:
		mi(s->mf, "S2R %D, %s", d, mask[r - PTX_SR_lanemask_eq]);
		return 0;
	case PTX_SR_smid:
		mi(s->mf, "S2R %D, SR_VIRTUALSMID", d);
		return 0;
	case PTX_SR_nsmid:
		load_c0(s, d, 0x10c);
		return 0;
	case PTX_SR_gridid:
		load_c0(s, d, 0x30 + 4u * (u32)part);
		return 0;
	case PTX_SR_dynamic_smem_size:
		load_c0(s, d, 0x2c);
		return 0;
	case PTX_SR_total_smem_size:
		/* the CTA's allocation less the driver's reserve at c[0x0][0x114] */
		t = sel_tmp(s, 1);
		mi(s->mf, "S2R %D, SR_SMEMSZ", t);
		load_c0(s, d, 0x114);
		mi(s->mf, "IADD3 %D, %U, -%U, RZ", d, t, d);
		return 0;
	case PTX_SR_reserved_smem_offset_begin: case PTX_SR_reserved_smem_offset_0:
	case PTX_SR_reserved_smem_offset_cap:
		/* the driver's reserved shared memory: sm_90 [0, 0x400) of the
		   window; sm_80 at its top, from SR_SMEMSZ - c[0x0][0x114] */
		s->reserved_smem = 1;
		if (s->sm >= 90) {
			mi(s->mf, "MOV %D, %s", d, r == PTX_SR_reserved_smem_offset_cap ? "0x400" : "0x0");
			return 0;
		}
		mi(s->mf, "S2R %D, SR_SMEMSZ", d);
		if (r != PTX_SR_reserved_smem_offset_cap) {
			t = sel_tmp(s, 1);
			load_c0(s, t, 0x114);
			mi(s->mf, "IADD3 %D, %U, -%U, RZ", d, d, t);
		}
		return 0;
	case PTX_SR_reserved_smem_offset_end:
	case PTX_SR_reserved_smem_offset_1:
		s->reserved_smem = 1;
		load_c0(s, d, (s->sm >= 90 ? 0x68u : 0x120u) + (r == PTX_SR_reserved_smem_offset_1 ? 4u : 0u));
		return 0;
	case PTX_SR_warpid:
	case PTX_SR_nwarpid:
		/* bits 8..14 of SR_VIRTID, 8..15 of SR_VIRTCFG; sm_80's %nwarpid is 64 */
		if (r == PTX_SR_nwarpid && s->sm < 90) {
			mi(s->mf, "MOV %D, 0x40", d);
			return 0;
		}
		mi(s->mf, "S2R %D, %s", d, r == PTX_SR_warpid ? "SR_VIRTID" : "SR_VIRTCFG");
		mi(s->mf, "SHF.R.U32.HI %D, RZ, 0x8, %U", d, d);
		mi(s->mf, r == PTX_SR_warpid ? "SGXT.U32 %D, %U, 0x7" : "SGXT.U32 %D, %U, 0x8", d, d);
		return 0;
	}
	if ((r >= PTX_SR_pm0 && r <= PTX_SR_pm7) || (r >= PTX_SR_pm0_64 && r <= PTX_SR_pm7_64)) {
		char nm[16];
		str_printf(nm, sizeof nm, "SR_PM%s%d", part ? "_HI" : "", r - (r >= PTX_SR_pm0_64 ? PTX_SR_pm0_64 : PTX_SR_pm0));
		mi(s->mf, "CS2R.32 %D, %s", d, nm);
		return 0;
	}
	if (r >= PTX_SR_envreg0 && r <= PTX_SR_envreg31) {
		/* the driver's environment words in constant bank 0 */
		load_c0(s, d, (s->sm >= 90 ? 0x40u : 0x88u) + 4u * (u32)(r - PTX_SR_envreg0));
		return 0;
	}
	{
		char what[64];
		str_printf(what, sizeof what, "the special register %s", ptx_sreg_name(r));
		return sel_unsupported(s, what);
	}
}

MRef
sel_r32(Sel *s, const PtxOperand *o, int part)
{
	MRef r, t;
	u64 v;

	switch (o->kind) {
	case PTX_OPD_REG:
		r = sel_reg(s, o->reg);
		if (s->mf->vr.v[r.v].w > 1)
			return mpart(r.v, part, 1);
		return r;
	case PTX_OPD_IMM:
	case PTX_OPD_FIMM:
		sel_imm(o, &v);
		if (o->kind == PTX_OPD_FIMM && !o->is_f64)
			v &= 0xffffffffu;
		v = part ? v >> 32 : v;
		if ((u32)v == 0)
			return mref(s->mf->rz);
		t = sel_tmp(s, 1);
		sel_mov32(s, t, mopd_imm((u32)v, 1));
		return t;
	case PTX_OPD_SREG:
		t = sel_tmp(s, 1);
		if (sreg_value(s, o, t, part) < 0)
			return mref(-1);
		return t;
	}
	sel_unsupported(s, "this operand kind");
	return mref(-1);
}

MRef
sel_r64(Sel *s, const PtxOperand *o)
{
	MRef r, lo, hi;

	if (o->kind == PTX_OPD_REG) {
		r = sel_reg(s, o->reg);
		if (s->mf->vr.v[r.v].w >= 2)
			return mpart(r.v, 0, 2);
	}
	r = sel_tmp(s, 2);
	lo = sel_r32(s, o, 0);
	hi = o->kind == PTX_OPD_REG ? mref(s->mf->rz) : sel_r32(s, o, 1);
	if (lo.v == -1 || hi.v == -1)
		return mref(-1);
	sel_mov32(s, mpart(r.v, 0, 1), mopd_reg(lo));
	sel_mov32(s, mpart(r.v, 1, 1), mopd_reg(hi));
	return r;
}

MOpd
sel_b32(Sel *s, const PtxOperand *o, int part)
{
	u64 v;
	MRef r;

	if (o->kind == PTX_OPD_IMM) {
		sel_imm(o, &v);
		return mopd_imm((u32)(part ? v >> 32 : v), 0);
	}
	r = sel_r32(s, o, part);
	return mopd_reg(r);
}

MOpd
sel_b32u(Sel *s, const PtxOperand *o, int part)
{
	MOpd r = sel_b32(s, o, part);
	u64 v;

	if (r.txt[0] && sel_imm(o, &v))
		r = mopd_imm((u32)(part ? v >> 32 : v), 1);
	return r;
}

/* d = a constant predicate (PTX's 0 / -1): ptxas's PLOP3.LUT 0x8 (false)
 * or 0x80 (true) over PT inputs. */
void
sel_pred_const(Sel *s, MRef d, int val)
{
	mi(s->mf, "PLOP3.LUT %D, PT, PT, PT, PT, %s, 0x0", d, val ? "0x80" : "0x8");
}

MRef
sel_pred(Sel *s, const PtxOperand *o, int *neg)
{
	*neg = o->neg;
	if (o->kind == PTX_OPD_REG)
		return sel_reg(s, o->reg);
	if (o->kind == PTX_OPD_IMM) {   /* selp/and.pred ... with 0 or -1 */
		MRef t = sel_ptmp(s);
		sel_pred_const(s, t, o->imm != 0);
		*neg = 0;
		return t;
	}
	if (o->kind == PTX_OPD_SREG) {  /* mov.pred p, %is_explicit_cluster */
		char what[80];
		str_printf(what, sizeof what, "the predicate special register %s", ptx_sreg_name(o->sreg));
		sel_unsupported(s, what);
		return mref(-1);
	}
	sel_unsupported(s, "a predicate operand that is not a register");
	return mref(-1);
}

/* Does destination operand o write register r? */
static int
opd_writes(const PtxOperand *o, int r)
{
	int e;

	if (o->kind == PTX_OPD_REG)
		return o->reg == r || o->reg2 == r;
	if (o->kind == PTX_OPD_VEC)
		for (e = 0; e < o->nelems; e++)
			if (opd_writes(&o->elems[e], r))
				return 1;
	return 0;
}

/* sel_only_def by a walk over the function (for a register id out of
 * range, as a caller may pass an immediate's). */
static const PtxInstr *
scan_only_def(Sel *s, int r)
{
	const PtxInstr *d = NULL;
	size_t b, i;

	for (b = 0; b < s->ir->b.n; b++)
		for (i = 0; i < s->ir->b.v[b].ins.n; i++) {
			const IrIns *x = &s->ir->b.v[b].ins.v[i];
			const PtxOperand *o = &x->p.opds[0];
			if (x->dead || !ir_opd_is_def(&x->p, 0) || !opd_writes(o, r))
				continue;
			if (d || o->kind == PTX_OPD_VEC)
				return NULL;
			d = &x->p;
		}
	return d;
}

/* Every register opd (a destination) writes: one more definition of
 * each (a vector one counts as two: it disqualifies). */
static void
count_def(const PtxOperand *o, const IrIns *x, const PtxInstr **d, u8 *n, int nregs)
{
	int e;

	if (o->kind == PTX_OPD_VEC) {
		for (e = 0; e < o->nelems; e++)
			count_def(&o->elems[e], x, NULL, n, nregs);
		return;
	}
	if (o->kind != PTX_OPD_REG)
		return;
	for (e = 0; e < 2; e++) {
		int r = e ? o->reg2 : o->reg;
		if (r < 0 || r >= nregs || (e && r == o->reg))
			continue;
		if (n[r] < 2)
			n[r] += d ? 1 : 2;
		if (d)
			d[r] = &x->p;
	}
}

/* The single definition of PTX register r in the function (not a vector
 * element), or NULL.  One walk over the function answers every register
 * (the IR does not change during selection). */
const PtxInstr *
sel_only_def(Sel *s, int r)
{
	int nr = s->ir->nregs;
	size_t b, i;
	u8 *n;

	if (r < 0 || r >= nr)
		return scan_only_def(s, r);
	if (s->only_def)
		return s->only_def[r];
	s->only_def = arena_alloc(s->mf->a, sizeof *s->only_def * (size_t)nr);
	memset(s->only_def, 0, sizeof *s->only_def * (size_t)nr);
	n = xcalloc((size_t)nr, 1);
	for (b = 0; b < s->ir->b.n; b++)
		for (i = 0; i < s->ir->b.v[b].ins.n; i++) {
			const IrIns *x = &s->ir->b.v[b].ins.v[i];
			if (!x->dead && ir_opd_is_def(&x->p, 0))
				count_def(&x->p.opds[0], x, (const PtxInstr **)s->only_def, n, nr);
		}
	for (i = 0; i < (size_t)nr; i++)
		if (n[i] != 1)
			s->only_def[i] = NULL;
	free(n);
	return s->only_def[r];
}

int
sel_group_in(Sel *s, const PtxOperand *o, const int *idx, int n, MRef *g)
{
	int i;

	if (!idx && (o->kind != PTX_OPD_VEC || o->nelems != n))
		return sel_unsupported(s, "a fragment that is not a register list of the right length");
	*g = sel_tmp(s, n);
	for (i = 0; i < n; i++) {
		MRef r = sel_r32(s, &o->elems[idx ? idx[i] : i], 0);
		if (r.v < 0)
			return -1;
		sel_mov32(s, n == 1 ? *g : mpart(g->v, i, 1), mopd_reg(r));
	}
	return 0;
}

/* ---- the driver ---- */

/* Each op's rule (the last one of the families that has one) as its
 * family << 8 | its place there, + 1; 0: none.  Two bytes, not a pointer:
 * the table is in .bss with the variables every process touches, and at
 * 1.4 KiB it spread them over a third page. */
static u16 rule_of[PTX_NOPS];

static void
init_rules(void)
{
	unsigned f, k;
	const SelRule *r;

	if (rule_of[PTX_OP_mov])
		return;
	for (f = 0; f < sizeof families / sizeof *families; f++) {
		for (r = families[f], k = f << 8; r->fn; r++)
			rule_of[r->op] = (u16)++k;
		if (r - families[f] > 256)
			die("isel: more than 256 rules in a family");
	}
}

static void
prologue(Sel *s)
{
	if (s->sm >= 90) {
		mi(s->mf, "LDC R1, c[0x0][0x28]");
		mi(s->mf, "ULDC.64 UR4, c[0x0][0x208]");
	} else {
		mi(s->mf, "MOV R1, c[0x0][0x28]");
		mi(s->mf, "ULDC.64 UR4, c[0x0][0x118]");
	}
}

static int
sel_block(Sel *s, int b)
{
	const IrBlock *B = &s->ir->b.v[b];
	size_t i;
	int rc = 0;

	s->mf->cur = b;
	for (i = 0; i < B->ins.n && !rc; i++) {
		const IrIns *x = &B->ins.v[i];
		if (x->dead)
			continue;
		s->cur = x;
		s->mf->guard = -1;
		s->mf->guard_neg = 0;
		if (x->p.guard >= 0) {
			s->mf->guard = sel_reg(s, x->p.guard).v;
			s->mf->guard_neg = x->p.guard_neg;
		}
		if (s->wg && (x->p.op == PTX_OP_bra || x->p.op == PTX_OP_ret || x->p.op == PTX_OP_exit ||
			      x->p.op == PTX_OP_call || x->p.op == PTX_OP_trap || x->p.op == PTX_OP_brx_idx))
			sel_wgmma_flush(s);
		if (!rule_of[x->p.op]) {
			char what[96];
			str_printf(what, sizeof what, "`%s`", ptx_op_name(x->p.op));
			rc = sel_unsupported(s, what);
		} else {
			unsigned k = rule_of[x->p.op] - 1u;
			rc = families[k >> 8][k & 255].fn(s, x);
		}
	}
	s->mf->guard = -1;
	if (!rc && s->wg)
		sel_wgmma_flush(s);
	s->cur = NULL;
	/* falling off the end of the function */
	if (!rc && B->succ[0] < 0 && B->succ[1] < 0) {
		const IrIns *last = B->ins.n ? &B->ins.v[B->ins.n - 1] : NULL;
		if (!last || last->p.guard >= 0 ||
		    (last->p.op != PTX_OP_ret && last->p.op != PTX_OP_exit && last->p.op != PTX_OP_bra &&
		     last->p.op != PTX_OP_trap))
			mi(s->mf, s->fn->is_entry ? "EXIT" : "RET.REL.NODEC R20 0x0");
	}
	return rc;
}

int
isel_func(Sel *s)
{
	size_t b;
	int i, end;

	init_rules();
	s->vof = arena_alloc(s->mf->a, sizeof(int) * (size_t)(s->ir->nregs + 1));
	for (i = 0; i < s->ir->nregs; i++)
		s->vof[i] = -1;
	for (b = 0; b < s->ir->b.n; b++) {
		MBlock mb = {0};
		mb.succ[0] = s->ir->b.v[b].succ[0];
		mb.succ[1] = s->ir->b.v[b].succ[1];
		mb.loop_depth = s->ir->b.v[b].loop_depth;
		/* room for 1.5 MIR instructions per PTX one from the start
		 * (growing from 8 copied each MIns ~2 times; over the suite
		 * 93 % of the blocks fit, and twice as much left most of
		 * the slots untouched, half-used pages between blocks) */
		mb.ins.cap = s->ir->b.v[b].ins.n + s->ir->b.v[b].ins.n / 2 + 4;
		mb.ins.v = xmalloc(mb.ins.cap * sizeof *mb.ins.v);
		vec_push(&s->mf->b, mb);
	}
	s->mf->cur = 0;
	prologue(s);
	for (b = 0; b < s->ir->b.n; b++)
		if (sel_block(s, (int)b) < 0)
			return -1;
	/* the final branch-to-self ptxas ends every kernel with */
	{
		MBlock mb = {0};
		mb.succ[0] = mb.succ[1] = -1;
		vec_push(&s->mf->b, mb);
		end = (int)s->mf->b.n - 1;
		s->mf->cur = end;
		mi(s->mf, "BRA %L", end);
		s->mf->b.v[end].succ[1] = end;
	}
	return 0;
}
