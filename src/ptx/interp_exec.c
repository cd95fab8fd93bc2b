/* interp_exec.c -- the interpreter's per-thread instructions: operands,
 * arithmetic (through arith.c), comparisons, moves, conversions, loads
 * and stores, atomics and control flow.  Barriers, mbarriers and async
 * copies are in interp_sync.c, warp collectives in interp_warp.c. */
#include <math.h>
#include <string.h>

#include "ptx/interp_int.h"

static u8 bits_tab[PTX_NTYPES], signed_tab[PTX_NTYPES], tabs_ready;

static void
init_tabs(void)
{
	int t;

	for (t = 0; t < PTX_NTYPES; t++) {
		bits_tab[t] = t == PTX_T_PRED ? 1 : (u8)MIN(ptx_type_size(t) * 8, 255);
		signed_tab[t] = ptx_type_is_signed(t);
	}
	tabs_ready = 1;
}

int
tbits(int type)
{
	if (!tabs_ready)
		init_tabs();
	return (unsigned)type < PTX_NTYPES ? bits_tab[type] : 0;
}

static int
tsigned(int type)
{
	if (!tabs_ready)
		init_tabs();
	return (unsigned)type < PTX_NTYPES && signed_tab[type];
}

static int
ffmt(int type)
{
	switch (type) {
	case PTX_T_F16: case PTX_T_F16X2: return FF_F16;
	case PTX_T_BF16: case PTX_T_BF16X2: return FF_BF16;
	case PTX_T_TF32: return FF_TF32;
	case PTX_T_F32: return FF_F32;
	case PTX_T_F64: return FF_F64;
	case PTX_T_E4M3: case PTX_T_E4M3X2: return FF_E4M3;
	case PTX_T_E5M2: case PTX_T_E5M2X2: return FF_E5M2;
	}
	return -1;
}

static int
rmode(const PtxInstr *in, int *irnd)
{
	int r = in->rnd;

	if (irnd)
		*irnd = r >= PTX_RND_RNI && r <= PTX_RND_RPI;
	switch (r) {
	case PTX_RND_RZ: case PTX_RND_RZI: return RND_RZ;
	case PTX_RND_RM: case PTX_RND_RMI: return RND_RM;
	case PTX_RND_RP: case PTX_RND_RPI: return RND_RP;
	case PTX_RND_RNA: return RND_RNA;
	default: return RND_RN;
	}
}

static int
cmpop(int c)
{
	switch (c) {
	case PTX_CMP_EQ: return CMP_EQ;
	case PTX_CMP_NE: return CMP_NE;
	case PTX_CMP_LT: return CMP_LT;
	case PTX_CMP_LE: return CMP_LE;
	case PTX_CMP_GT: return CMP_GT;
	case PTX_CMP_GE: return CMP_GE;
	case PTX_CMP_LO: return CMP_LT;
	case PTX_CMP_LS: return CMP_LE;
	case PTX_CMP_HI: return CMP_GT;
	case PTX_CMP_HS: return CMP_GE;
	case PTX_CMP_EQU: return CMP_EQU;
	case PTX_CMP_NEU: return CMP_NEU;
	case PTX_CMP_LTU: return CMP_LTU;
	case PTX_CMP_LEU: return CMP_LEU;
	case PTX_CMP_GTU: return CMP_GTU;
	case PTX_CMP_GEU: return CMP_GEU;
	case PTX_CMP_NUM: return CMP_NUM;
	case PTX_CMP_NAN: return CMP_NAN;
	}
	return CMP_EQ;
}

/* ---- operands ---- */

static u64
sreg(Interp *I, Thread *t, const PtxOperand *o)
{
	Cta *c = t->cta;
	int k = o->comp < 0 ? 0 : o->comp;
	u32 lane = t->lane;

	if (k > 2)
		return 0;
	switch (o->sreg) {
	case PTX_SR_tid: return t->tid[k];
	case PTX_SR_ntid: return I->block[k];
	case PTX_SR_ctaid: return c->ctaid[k];
	case PTX_SR_nctaid: return I->grid[k];
	case PTX_SR_laneid: return lane;
	case PTX_SR_warpid: return t->warp;
	case PTX_SR_nwarpid: return SPEC_NWARPID;
	case PTX_SR_smid: return (c->ctaid[0] + I->grid[0] * (c->ctaid[1] + I->grid[1] * c->ctaid[2])) % SPEC_NSMID;
	case PTX_SR_nsmid: return SPEC_NSMID;
	case PTX_SR_gridid: return SPEC_GRIDID;
	case PTX_SR_lanemask_eq: return 1u << lane;
	case PTX_SR_lanemask_le: return (u32)((2ull << lane) - 1);
	case PTX_SR_lanemask_lt: return (1u << lane) - 1;
	case PTX_SR_lanemask_ge: return ~((1u << lane) - 1);
	case PTX_SR_lanemask_gt: return (u32)~((2ull << lane) - 1);
	case PTX_SR_clock: return (u32)I->steps;
	case PTX_SR_clock_hi: return (u32)(I->steps >> 32);
	case PTX_SR_clock64: return I->steps;
	case PTX_SR_globaltimer: return I->steps * 10;
	case PTX_SR_globaltimer_lo: return (u32)(I->steps * 10);
	case PTX_SR_globaltimer_hi: return (u32)((I->steps * 10) >> 32);
	case PTX_SR_dynamic_smem_size: return I->spec->shared;
	case PTX_SR_total_smem_size: case PTX_SR_aggr_smem_size: return I->shared_size;
	case PTX_SR_reserved_smem_offset_begin: case PTX_SR_reserved_smem_offset_0: return I->resv;
	case PTX_SR_reserved_smem_offset_end: case PTX_SR_reserved_smem_offset_cap: return I->resv + SPEC_RESV;
	case PTX_SR_reserved_smem_offset_1: return I->resv + SPEC_RESV1;
	case PTX_SR_cluster_ctaid: return c->ctaid[k] % I->cluster[k];
	case PTX_SR_cluster_nctaid: return I->cluster[k];
	case PTX_SR_cluster_ctarank: return c->rank;
	case PTX_SR_cluster_nctarank: return I->csize;
	case PTX_SR_clusterid: return c->ctaid[k] / I->cluster[k];
	case PTX_SR_nclusterid: return I->grid[k] / I->cluster[k];
	case PTX_SR_is_explicit_cluster: return I->spec->cluster[0] != 0;
	case PTX_SR_envreg1: return (u32)(I->coop_ws >> 32);   /* a cooperative launch's workspace */
	case PTX_SR_envreg2: return (u32)I->coop_ws;
	}
	return 0;
}

static u64
sym_addr(Interp *I, Thread *t, const PtxOperand *o, int *space)
{
	switch (o->symkind) {
	case PTX_SYM_VAR: {
		VarLoc *vl = o->var ? var_loc(I, o->var) : NULL;
		if (!vl)
			ierr(I, "symbol %s has no storage", o->sym ? o->sym : "?");
		*space = vl->space;
		if (vl->space == PTX_S_LOCAL)
			return t->fr->local_base + vl->off;
		return vl->off;
	}
	case PTX_SYM_FUNC:
		*space = PTX_S_GLOBAL;
		return GW_FUNC + (u64)o->index * 16;
	case PTX_SYM_LABEL:
		*space = PTX_S_NONE;
		return (u64)o->index;
	}
	ierr(I, "unsupported symbol operand %s", o->sym ? o->sym : "?");
}

static u64
fimm(const PtxOperand *o, int type)
{
	double d = o->is_f64 ? f64_of(o->fbits) : f32_of((u32)o->fbits);

	switch (type) {
	case PTX_T_F32: return o->is_f64 ? bits_f32((float)d) : (u32)o->fbits;
	case PTX_T_F64: return bits_f64(d);
	case PTX_T_F16: case PTX_T_BF16: return round_to(d, ffmt(type), RND_RN, 0);
	}
	return o->fbits;
}

u64
opd_read(Interp *I, Thread *t, const PtxInstr *in, const PtxOperand *o, int type)
{
	int sp, i, w;
	u64 v;

	switch (o->kind) {
	case PTX_OPD_REG:
		v = t->fr->regs[o->reg];
		return o->neg ? !v : v;
	case PTX_OPD_IMM:
		return (u64)o->imm;
	case PTX_OPD_FIMM:
		return fimm(o, type);
	case PTX_OPD_SREG:
		return sreg(I, t, o);
	case PTX_OPD_SYM:
		return sym_addr(I, t, o, &sp) + (u64)o->imm;
	case PTX_OPD_VEC:
		if (!o->nelems)
			return 0;
		w = tbits(type) / o->nelems;
		v = 0;
		for (i = 0; i < o->nelems; i++)
			v |= zext(opd_read(I, t, in, &o->elems[i], PTX_T_NONE), w) << (w * i);
		return v;
	}
	ierr(I, "unsupported operand");
}

void
opd_write(Interp *I, Thread *t, const PtxOperand *o, int type, u64 v)
{
	int i, w, rt;

	switch (o->kind) {
	case PTX_OPD_REG:
		rt = t->fr->fi->rbits[o->reg];
		if (rt == 1) {
			t->fr->regs[o->reg] = v != 0;
			return;
		}
		w = tbits(type);
		if (w && w < 64)
			v = tsigned(type) ? sext(v, w) : zext(v, w);
		t->fr->regs[o->reg] = zext(v, rt);
		return;
	case PTX_OPD_SINK:
		return;
	case PTX_OPD_VEC:
		if (!o->nelems)
			return;
		w = tbits(type) / o->nelems;
		for (i = 0; i < o->nelems; i++) {
			const PtxOperand *e = &o->elems[i];
			if (e->kind == PTX_OPD_REG)
				t->fr->regs[e->reg] = zext(v >> (w * i), MIN(w, t->fr->fi->rbits[e->reg]));
		}
		return;
	}
	ierr(I, "operand is not writable");
}

/* Address of a memory operand [base+off]; *space is the instruction's
 * space (PTX_S_NONE for generic). */
u64
opd_addr(Interp *I, Thread *t, const PtxInstr *in, const PtxOperand *o, int *space)
{
	u64 a = 0;
	int sp = *space;

	if (o->kind == PTX_OPD_ADDR && o->reg >= 0) {
		a = t->fr->regs[o->reg];
		if (t->fr->fi->rbits[o->reg] <= 32)   /* a 32-bit address: [%r+imm] wraps */
			return (u32)(a + (u64)o->imm);
	} else if ((o->kind == PTX_OPD_ADDR || o->kind == PTX_OPD_SYM) && o->var) {
		int vs;
		a = sym_addr(I, t, o, &vs);
		if ((sp == PTX_S_NONE || sp == PTX_S_GENERIC) && vs != PTX_S_GLOBAL)
			a = to_generic(I, t, vs, a);   /* [var] in a generic access */
		if (o->kind == PTX_OPD_SYM)
			return a + (u64)o->imm;
	} else if (o->kind == PTX_OPD_REG)
		return t->fr->regs[o->reg];
	else if (o->kind == PTX_OPD_IMM)
		return (u64)o->imm;
	return a + (u64)o->imm;
}

static int
ispace(const PtxInstr *in, int k)
{
	return k < in->nspaces ? in->space[k] : PTX_S_NONE;
}

#define R(k, ty) opd_read(I, t, in, &in->opds[k], (ty))
#define W(k, ty, v) opd_write(I, t, &in->opds[k], (ty), (v))

/* ---- floating point ---- */

enum { FB_ADD, FB_SUB, FB_MUL, FB_FMA, FB_MIN, FB_MAX, FB_DIV };

static u64
h_lane(const PtxInstr *in, int op, int ff, u16 a, u16 b, u16 c)
{
	int rnd = rmode(in, NULL), ftz = !!(in->flags & PTX_F_FTZ), sat = !!(in->flags & PTX_F_SAT);
	int nan = !!(in->flags & PTX_F_NAN), relu = !!(in->flags & PTX_F_RELU);

	switch (op) {
	case FB_ADD: return h_add(ff, a, b, rnd, ftz, sat);
	case FB_SUB: return h_sub(ff, a, b, rnd, ftz, sat);
	case FB_MUL: return h_mul(ff, a, b, rnd, ftz, sat);
	case FB_FMA: return h_fma(ff, a, b, c, rnd, ftz, sat, relu);
	case FB_MIN: return h_min(ff, a, b, ftz, nan);
	case FB_MAX: return h_max(ff, a, b, ftz, nan);
	}
	return round_to(widen(a, ff) / widen(b, ff), ff, rnd, ftz);
}

static u64 fop_plain(Interp *I, const PtxInstr *in, int op, int type, u64 a, u64 b, u64 c);

/* min/max .xorsign.abs: the min/max of |a| and |b| with the sign
 * sign(a) ^ sign(b) (NaN results stay canonical), lane by lane. */
static u64
fop(Interp *I, const PtxInstr *in, int op, int type, u64 a, u64 b, u64 c)
{
	u64 sbit, sign, r;
	int lanes, w, l;

	if (!(in->flags & PTX_F_XORSIGN) || (op != FB_MIN && op != FB_MAX))
		return fop_plain(I, in, op, type, a, b, c);
	lanes = (type == PTX_T_F16X2 || type == PTX_T_BF16X2) ? 2 : 1;
	w = lanes == 2 ? 16 : tbits(type);
	r = 0;
	for (l = 0; l < lanes; l++) {
		u64 x = zext(a >> (w * l), w), y = zext(b >> (w * l), w), m;
		sbit = 1ull << (w - 1);
		sign = (x ^ y) & sbit;
		m = fop_plain(I, in, op, lanes == 2 ? (type == PTX_T_F16X2 ? PTX_T_F16 : PTX_T_BF16) : type,
			      x & ~sbit, y & ~sbit, 0);
		if (!isnan(widen(m, ffmt(lanes == 2 ? (type == PTX_T_F16X2 ? PTX_T_F16 : PTX_T_BF16) : type))))
			m |= sign;
		r |= zext(m, w) << (w * l);
	}
	return r;
}

static u64
fop_plain(Interp *I, const PtxInstr *in, int op, int type, u64 a, u64 b, u64 c)
{
	int rnd = rmode(in, NULL), ftz = !!(in->flags & PTX_F_FTZ), sat = !!(in->flags & PTX_F_SAT);
	int nan = !!(in->flags & PTX_F_NAN);

	switch (type) {
	case PTX_T_F32:
		switch (op) {
		case FB_ADD: return f32_add(a, b, rnd, ftz, sat);
		case FB_SUB: return f32_sub(a, b, rnd, ftz, sat);
		case FB_MUL: return f32_mul(a, b, rnd, ftz, sat);
		case FB_FMA: return f32_fma(a, b, c, rnd, ftz, sat);
		case FB_MIN: return f32_min(a, b, ftz, nan);
		case FB_MAX: return f32_max(a, b, ftz, nan);
		case FB_DIV:
			if (in->flags & (PTX_F_APPROX | PTX_F_FULL))
				return f32_div_approx(a, b, ftz, !!(in->flags & PTX_F_FULL));
			return f32_div(a, b, rnd, ftz);
		}
		break;
	case PTX_T_F64:
		switch (op) {
		case FB_ADD: return f64_add(a, b, rnd);
		case FB_SUB: return f64_sub(a, b, rnd);
		case FB_MUL: return f64_mul(a, b, rnd);
		case FB_FMA: return f64_fma(a, b, c, rnd);
		case FB_MIN: return f64_min(a, b, nan);
		case FB_MAX: return f64_max(a, b, nan);
		case FB_DIV: return f64_div(a, b, rnd);
		}
		break;
	case PTX_T_F16: case PTX_T_BF16:
		return h_lane(in, op, ffmt(type), a, b, c);
	case PTX_T_F16X2: case PTX_T_BF16X2: {
		int ff = ffmt(type);
		u64 lo = h_lane(in, op, ff, a, b, c);
		u64 hi = h_lane(in, op, ff, a >> 16, b >> 16, c >> 16);
		return (hi & 0xffff) << 16 | (lo & 0xffff);
	}
	}
	ierr(I, "%s.%s is not supported", ptx_op_name(in->op), ptx_type_name(type));
}

static u64
funary(Interp *I, const PtxInstr *in, int type, u64 a)
{
	int ftz = !!(in->flags & PTX_F_FTZ), rnd = rmode(in, NULL);
	int approx = !!(in->flags & PTX_F_APPROX), ap;

	switch (in->op) {
	case PTX_OP_abs:
		if (type == PTX_T_F32) return f32_abs(a, ftz);
		if (type == PTX_T_F64) return a & ~(1ull << 63);
		if (type == PTX_T_F16 || type == PTX_T_BF16) return h_abs(ffmt(type), a, ftz);
		if (type == PTX_T_F16X2 || type == PTX_T_BF16X2)
			return (u64)h_abs(ffmt(type), a >> 16, ftz) << 16 | h_abs(ffmt(type), a, ftz);
		break;
	case PTX_OP_neg:
		if (type == PTX_T_F32) return f32_neg(a, ftz);
		if (type == PTX_T_F64) return a ^ (1ull << 63);
		if (type == PTX_T_F16 || type == PTX_T_BF16) return h_neg(ffmt(type), a, ftz);
		if (type == PTX_T_F16X2 || type == PTX_T_BF16X2)
			return (u64)h_neg(ffmt(type), a >> 16, ftz) << 16 | h_neg(ffmt(type), a, ftz);
		break;
	case PTX_OP_rcp:
		if (type == PTX_T_F32) return approx ? f32_approx(AP_RCP, a, ftz) : f32_rcp(a, rnd, ftz);
		if (type == PTX_T_F64) return approx ? f64_approx(AP_RCP, a, ftz) : f64_rcp(a, rnd);
		break;
	case PTX_OP_sqrt:
		if (type == PTX_T_F32) return approx ? f32_approx(AP_SQRT, a, ftz) : f32_sqrt(a, rnd, ftz);
		if (type == PTX_T_F64) return approx ? f64_approx(AP_SQRT, a, ftz) : f64_sqrt(a, rnd);
		break;
	case PTX_OP_rsqrt:
		if (type == PTX_T_F32) return f32_approx(AP_RSQRT, a, ftz);
		if (type == PTX_T_F64) return f64_approx(AP_RSQRT, a, ftz);
		break;
	case PTX_OP_ex2: case PTX_OP_lg2: case PTX_OP_sin: case PTX_OP_cos: case PTX_OP_tanh:
		ap = in->op == PTX_OP_ex2 ? AP_EX2 : in->op == PTX_OP_lg2 ? AP_LG2 :
		     in->op == PTX_OP_sin ? AP_SIN : in->op == PTX_OP_cos ? AP_COS : AP_TANH;
		if (type == PTX_T_F32) return f32_approx(ap, a, ftz);
		if (type == PTX_T_F16 || type == PTX_T_BF16) return h_approx(ap, a, ffmt(type), ftz);
		if (type == PTX_T_F16X2 || type == PTX_T_BF16X2)
			return (u64)h_approx(ap, a >> 16, ffmt(type), ftz) << 16 | h_approx(ap, a, ffmt(type), ftz);
		break;
	}
	ierr(I, "%s.%s is not supported", ptx_op_name(in->op), ptx_type_name(type));
}

static int
testp(int mode, int type, u64 a)
{
	double x = widen(a, ffmt(type));
	int sub = type == PTX_T_F32 ? f32_issub(a) : (type == PTX_T_F64 && (a & 0x7ff0000000000000ull) == 0 && (a << 1));

	switch (mode) {
	case PTX_MODE_FINITE: return isfinite(x);
	case PTX_MODE_INFINITE: return isinf(x);
	case PTX_MODE_NUMBER: return !isnan(x);
	case PTX_MODE_NOTANUMBER: return isnan(x);
	case PTX_MODE_NORMAL: return isfinite(x) && x != 0 && !sub;
	case PTX_MODE_SUBNORMAL: return sub;
	}
	return 0;
}

/* ---- integer ---- */

/* a + b + c in n bits; with cc, CC.CF = the carry-out. */
static u64
add_cc(Thread *t, u64 a, u64 b, u64 c, int n, int cc)
{
	u64 r = zext(a, n) + zext(b, n) + c;

	if (cc)
		t->carry = n == 64 ? (r < zext(a, n) || (c && r == zext(a, n))) : (int)((r >> n) & 1);
	return zext(r, n);
}

static u64
iop(Interp *I, Thread *t, const PtxInstr *in, int type)
{
	int n = tbits(type), sg = tsigned(type), mode = in->mode;
	u64 a, b, c, r;
	int cc = !!(in->flags & PTX_F_CC);

	a = R(1, type);
	b = in->nopds > 2 ? R(2, type) : 0;
	switch (in->op) {
	case PTX_OP_add: case PTX_OP_addc:
		if (in->flags & PTX_F_SAT)
			return i_add_sat_s32(a, b);
		return add_cc(t, a, b, in->op == PTX_OP_addc ? t->carry : 0, n, cc);
	case PTX_OP_sub: case PTX_OP_subc:
		if (in->flags & PTX_F_SAT)
			return i_sub_sat_s32(a, b);
		/* a + ~b + 1 (subc: + CC.CF), CC.CF its carry-out ("no borrow"),
		   as ptxas compiles it: one carry flag for add and sub, so a
		   chain may mix them (CCCL's 128-bit division does) */
		return add_cc(t, a, ~b, in->op == PTX_OP_subc ? t->carry : 1, n, cc);
	case PTX_OP_mul:
		if (mode == PTX_MODE_HI)
			return i_mulhi(a, b, n, sg);
		if (mode == PTX_MODE_WIDE)
			return i_mulwide(a, b, n, sg);
		return zext(a * b, n);
	case PTX_OP_mul24: {
		u64 p = (u64)(sg ? (i64)sext(a, 24) * (i64)sext(b, 24) : (i64)(zext(a, 24) * zext(b, 24)));
		return mode == PTX_MODE_HI ? zext(p >> 16, 32) : zext(p, 32);
	}
	case PTX_OP_mad: case PTX_OP_madc: case PTX_OP_mad24: {
		int wn = mode == PTX_MODE_WIDE ? 2 * n : n;
		u64 cin = in->op == PTX_OP_madc ? t->carry : 0;
		c = R(3, mode == PTX_MODE_WIDE ? (sg ? (n == 16 ? PTX_T_S32 : PTX_T_S64) : (n == 16 ? PTX_T_U32 : PTX_T_U64)) : type);
		if (in->op == PTX_OP_mad24) {
			u64 p = (u64)(sg ? (i64)sext(a, 24) * (i64)sext(b, 24) : (i64)(zext(a, 24) * zext(b, 24)));
			p = mode == PTX_MODE_HI ? p >> 16 : p;
			return zext(p + c, 32);
		}
		if (mode == PTX_MODE_HI)
			r = i_mulhi(a, b, n, sg);
		else if (mode == PTX_MODE_WIDE)
			r = i_mulwide(a, b, n, sg);
		else
			r = zext(a * b, n);
		if ((in->flags & PTX_F_SAT) && mode == PTX_MODE_HI && sg && n == 32)
			return i_add_sat_s32(r, c);
		{
			u64 s = zext(r, wn) + zext(c, wn) + cin;
			if (cc)
				t->carry = wn == 64 ? (s < zext(r, wn) || (cin && s == zext(r, wn))) : (int)((s >> wn) & 1);
			return zext(s, wn);
		}
	}
	case PTX_OP_div: return i_div(a, b, n, sg);
	case PTX_OP_rem: return i_rem(a, b, n, sg);
	case PTX_OP_min: case PTX_OP_max: {
		int h = type == PTX_T_S16X2 || type == PTX_T_U16X2 ? 16 : n, k;   /* .s16x2/.u16x2: per half */
		for (r = 0, k = 0; k < n; k += h) {
			u64 x = a >> k, y = b >> k, v = in->op == PTX_OP_min ? i_min(x, y, h, sg) : i_max(x, y, h, sg);
			if ((in->flags & PTX_F_RELU) && (i64)sext(v, h) < 0)
				v = 0;
			r |= zext(v, h) << k;
		}
		return r;
	}
	case PTX_OP_abs: return i_abs(a, n);
	case PTX_OP_neg: return zext(-a, n);
	case PTX_OP_sad: return i_sad(a, b, R(3, type), n, sg);
	case PTX_OP_and: return a & b;
	case PTX_OP_or: return a | b;
	case PTX_OP_xor: return a ^ b;
	case PTX_OP_not: return type == PTX_T_PRED ? !a : zext(~a, n);
	case PTX_OP_cnot: return zext(a, n) == 0;
	case PTX_OP_shl: return i_shl(a, (u32)R(2, PTX_T_U32), n);
	case PTX_OP_shr: return i_shr(a, (u32)R(2, PTX_T_U32), n, sg);
	case PTX_OP_popc: return i_popc(a, n);
	case PTX_OP_clz: return i_clz(a, n);
	case PTX_OP_brev: return i_brev(a, n);
	case PTX_OP_bfind: return i_bfind(a, n, sg, !!(in->flags & PTX_F_SHIFTAMT));
	case PTX_OP_bfe: return i_bfe(a, (u32)R(2, PTX_T_U32), (u32)R(3, PTX_T_U32), n, sg);
	case PTX_OP_bfi: return i_bfi(a, b, (u32)R(3, PTX_T_U32), (u32)R(4, PTX_T_U32), n);
	}
	ierr(I, "%s.%s is not supported", ptx_op_name(in->op), ptx_type_name(type));
}

static int
prmt_mode(int m)
{
	switch (m) {
	case PTX_MODE_F4E: return PRMT_F4E;
	case PTX_MODE_B4E: return PRMT_B4E;
	case PTX_MODE_RC8: return PRMT_RC8;
	case PTX_MODE_ECL: return PRMT_ECL;
	case PTX_MODE_ECR: return PRMT_ECR;
	case PTX_MODE_RC16: return PRMT_RC16;
	}
	return PRMT_DEFAULT;
}

static int
is_ftype(int type)
{
	return ffmt(type) >= 0;
}

/* ---- cvt ---- */

static void
exec_cvt(Interp *I, Thread *t, const PtxInstr *in)
{
	int dt = in->types[0], st = in->ntypes > 1 ? in->types[1] : dt, irnd;
	int rnd = rmode(in, &irnd), ftz = !!(in->flags & PTX_F_FTZ), sat = !!(in->flags & PTX_F_SAT);
	int relu = !!(in->flags & PTX_F_RELU), satfinite = !!(in->flags & PTX_F_SATFINITE);
	u64 a, r;

	if (dt == PTX_T_F16X2 || dt == PTX_T_BF16X2 || dt == PTX_T_E4M3X2 || dt == PTX_T_E5M2X2) {
		if (st == PTX_T_F32 && in->nopds >= 3) {
			r = cvt_pack_f32(R(1, PTX_T_F32), R(2, PTX_T_F32), ffmt(dt), rnd, relu, sat, satfinite);
			W(0, dt == PTX_T_E4M3X2 || dt == PTX_T_E5M2X2 ? PTX_T_B16 : PTX_T_B32, r);
			return;
		}
		if (st == PTX_T_F16X2 && (dt == PTX_T_E4M3X2 || dt == PTX_T_E5M2X2)) {  /* f16x2 -> fp8x2 */
			a = R(1, PTX_T_B32);    /* each half exact in f32, then rounded once */
			r = cvt_pack_f32((u32)cvt_f2f(a >> 16 & 0xffff, FF_F16, FF_F32, RND_RN, 0, 0, 0, 0),
					 (u32)cvt_f2f(a & 0xffff, FF_F16, FF_F32, RND_RN, 0, 0, 0, 0), ffmt(dt), rnd, relu, sat,
					 satfinite);
			W(0, PTX_T_B16, r);
			return;
		}
		if (st == PTX_T_E4M3X2 || st == PTX_T_E5M2X2) {  /* fp8x2 -> f16x2 */
			a = R(1, PTX_T_B16);
			r = cvt_f2f(a >> 8 & 0xff, ffmt(st), FF_F16, RND_RN, 0, 0, 0, relu) << 16 |
			    cvt_f2f(a & 0xff, ffmt(st), FF_F16, RND_RN, 0, 0, 0, relu);
			W(0, PTX_T_B32, r);
			return;
		}
		ierr(I, "cvt.%s.%s is not supported", ptx_type_name(dt), ptx_type_name(st));
	}
	a = R(1, st);
	if (is_ftype(dt) && is_ftype(st)) {
		if (st == PTX_T_F32 && dt == PTX_T_F32 && !irnd && !ftz && !sat)
			r = a;
		else if (satfinite && st == PTX_T_F32 && (dt == PTX_T_F16 || dt == PTX_T_BF16 || dt == PTX_T_TF32))
			r = cvt_f32_to((u32)a, ffmt(dt), rnd, relu, sat, 1);
		else
			r = cvt_f2f(a, ffmt(st), ffmt(dt), rnd, irnd, ftz, sat, relu);
	} else if (is_ftype(st)) {
		if (ftz && st == PTX_T_F32)
			a = f32_flush(a);
		r = cvt_f2i(a, ffmt(st), tbits(dt), tsigned(dt), rnd);
	} else if (is_ftype(dt)) {
		r = cvt_i2f(a, tbits(st), tsigned(st), ffmt(dt), rnd, 0);
		if (sat)
			r = cvt_f2f(r, ffmt(dt), ffmt(dt), RND_RN, 0, 0, 1, 0);
		if (ftz && dt == PTX_T_F32)
			r = f32_flush(r);
	} else
		r = cvt_i2i(a, tbits(st), tsigned(st), tbits(dt), tsigned(dt), sat);
	W(0, dt, r);
}

/* ---- memory ---- */

static void
exec_ld(Interp *I, Thread *t, const PtxInstr *in)
{
	int type = in->types[0], sz = ptx_type_size(type), sp = ispace(in, 0), i;
	int nv = in->vec ? in->vec : 1;
	u64 a = opd_addr(I, t, in, &in->opds[1], &sp);
	const PtxOperand *d = &in->opds[0];
	u8 *p;

	if (sz > 8)
		ierr(I, "%s of %d-byte elements is not supported", ptx_op_name(in->op), sz);
	p = mem_ptr(I, t, sp, a, (u64)sz * nv, 0);
	if (d->kind == PTX_OPD_VEC) {
		for (i = 0; i < d->nelems && i < nv; i++) {
			u64 v = 0;
			memcpy(&v, p + i * sz, sz);
			opd_write(I, t, &d->elems[i], type, v);
		}
	} else {
		u64 v = 0;
		memcpy(&v, p, sz);
		opd_write(I, t, d, type, v);
	}
}

static void
exec_st(Interp *I, Thread *t, const PtxInstr *in)
{
	int type = in->types[0], sz = ptx_type_size(type), sp = ispace(in, 0), i;
	int nv = in->vec ? in->vec : 1;
	u64 a = opd_addr(I, t, in, &in->opds[0], &sp);
	const PtxOperand *s = &in->opds[1];
	u8 *p;

	if (sz > 8)
		ierr(I, "st of %d-byte elements is not supported", sz);
	p = mem_ptr(I, t, sp, a, (u64)sz * nv, 1);
	if (s->kind == PTX_OPD_VEC) {
		for (i = 0; i < s->nelems && i < nv; i++) {
			u64 v = opd_read(I, t, in, &s->elems[i], type);
			memcpy(p + i * sz, &v, sz);
		}
	} else {
		u64 v = opd_read(I, t, in, s, type);
		memcpy(p, &v, sz);
	}
}

u64
atomic_op(Interp *I, Thread *t, const PtxInstr *in, int sp, u64 addr, int type, u64 b, u64 c)
{
	int sz = ptx_type_size(type), n = sz * 8;
	u8 *p = mem_ptr(I, t, sp, addr, sz, 1);
	u64 old = 0, r;

	memcpy(&old, p, sz);
	switch (in->aop) {
	case PTX_AOP_ADD:
		if (type == PTX_T_F32) {
			/* ptxas: global memory uses ATOM(G).ADD.F32.FTZ.RN; shared
			 * memory a CAS loop around a plain FADD (no flush) */
			int rs = (sp == PTX_S_NONE || sp == PTX_S_GENERIC) ? generic_space(I, addr) : sp;
			int shared = rs == PTX_S_SHARED || rs == PTX_S_SHARED_CLUSTER;
			r = f32_add(old, b, RND_RN, !shared, 0);
		}
		else if (is_ftype(type))
			r = fop(I, in, FB_ADD, type, old, b, 0);
		else
			r = zext(old + b, n);
		break;
	case PTX_AOP_MIN: case PTX_AOP_MAX:
		if (is_ftype(type))
			r = fop(I, in, in->aop == PTX_AOP_MIN ? FB_MIN : FB_MAX, type, old, b, 0);
		else
			r = in->aop == PTX_AOP_MIN ? i_min(old, b, n, tsigned(type)) : i_max(old, b, n, tsigned(type));
		break;
	case PTX_AOP_INC: r = zext(old, n) >= zext(b, n) ? 0 : old + 1; break;
	case PTX_AOP_DEC: r = (zext(old, n) == 0 || zext(old, n) > zext(b, n)) ? b : old - 1; break;
	case PTX_AOP_AND: r = old & b; break;
	case PTX_AOP_OR: r = old | b; break;
	case PTX_AOP_XOR: r = old ^ b; break;
	case PTX_AOP_CAS: r = zext(old, n) == zext(b, n) ? c : old; break;
	case PTX_AOP_EXCH: r = b; break;
	default: ierr(I, "atomic operation is not supported");
	}
	memcpy(p, &r, sz);
	return old;
}

static void
exec_atom(Interp *I, Thread *t, const PtxInstr *in, int red)
{
	int type = in->types[0], sp = ispace(in, 0), k = red ? 0 : 1, i;
	u64 a = opd_addr(I, t, in, &in->opds[k], &sp), b, c, old;
	const PtxOperand *bv = &in->opds[k + 1], *dv = &in->opds[0];

	if (in->vec > 1) {      /* atom/red.v2/.v4/.v8: element by element */
		int sz = ptx_type_size(type);
		if (bv->kind != PTX_OPD_VEC || bv->nelems != in->vec || (!red && dv->kind != PTX_OPD_VEC))
			ierr(I, "vector atomic needs {...} operands of %d elements", in->vec);
		mem_ptr(I, t, sp, a, (u64)sz * in->vec, 1);    /* alignment of the whole vector */
		for (i = 0; i < in->vec; i++) {
			old = atomic_op(I, t, in, sp, a + (u64)i * sz, type, opd_read(I, t, in, &bv->elems[i], type), 0);
			if (!red && i < dv->nelems)
				opd_write(I, t, &dv->elems[i], type, old);
		}
		return;
	}
	b = R(k + 1, type);
	c = in->nopds > k + 2 ? R(k + 2, type) : 0;
	old = atomic_op(I, t, in, sp, a, type, b, c);
	if (!red)
		W(0, type, old);
}

/* ---- SIMD video instructions: vadd2/4, vsub2/4, vavrg2/4, vabsdiff2/4,
 * vmin2/4, vmax2/4, vset2/4 with the default lane selectors and mask
 * (every lane comes from the result, so c only matters with a secondary
 * operation).  With .add/.min/.max the lane results are combined with c
 * as 32-bit integers; without one each lane is truncated, or clamped to
 * the destination lane type with .sat. */

static void
exec_video(Interp *I, Thread *t, const PtxInstr *in)
{
	int op = in->op, lanes, w, i, dsg, asg, bsg;
	u32 a, b, c, d = 0;
	i64 acc;

	lanes = (op == PTX_OP_vadd4 || op == PTX_OP_vsub4 || op == PTX_OP_vavrg4 || op == PTX_OP_vabsdiff4 ||
		 op == PTX_OP_vmin4 || op == PTX_OP_vmax4 || op == PTX_OP_vset4) ? 4 : 2;
	w = 32 / lanes;
	if (op == PTX_OP_vset2 || op == PTX_OP_vset4) {
		asg = tsigned(in->types[0]);
		bsg = tsigned(in->ntypes > 1 ? in->types[1] : in->types[0]);
		dsg = 0;
	} else {
		dsg = tsigned(in->types[0]);
		asg = tsigned(in->ntypes > 1 ? in->types[1] : in->types[0]);
		bsg = tsigned(in->ntypes > 2 ? in->types[2] : in->types[0]);
	}
	a = (u32)R(1, PTX_T_B32);
	b = (u32)R(2, PTX_T_B32);
	c = in->nopds > 3 ? (u32)R(3, PTX_T_B32) : 0;
	acc = (i32)c;
	for (i = 0; i < lanes; i++) {
		i64 x = asg ? (i64)sext(a >> (w * i), w) : (i64)zext(a >> (w * i), w);
		i64 y = bsg ? (i64)sext(b >> (w * i), w) : (i64)zext(b >> (w * i), w);
		i64 r, lo = dsg ? -(1ll << (w - 1)) : 0, hi = dsg ? (1ll << (w - 1)) - 1 : (1ll << w) - 1;
		switch (op) {
		case PTX_OP_vadd2: case PTX_OP_vadd4: r = x + y; break;
		case PTX_OP_vsub2: case PTX_OP_vsub4: r = x - y; break;
		case PTX_OP_vavrg2: case PTX_OP_vavrg4: r = (x + y + (x + y >= 0)) >> 1; break;   /* half away from 0 (ptxas) */
		case PTX_OP_vabsdiff2: case PTX_OP_vabsdiff4: r = x > y ? x - y : y - x; break;
		case PTX_OP_vmin2: case PTX_OP_vmin4: r = MIN(x, y); break;
		case PTX_OP_vmax2: case PTX_OP_vmax4: r = MAX(x, y); break;
		default: r = i_cmp(cmpop(in->cmp), (u64)x, (u64)y, 1, 64); break;
		}
		switch (in->aop) {
		case PTX_AOP_ADD: acc += r; break;
		case PTX_AOP_MIN: acc = i == 0 ? MIN((i64)(i32)c, r) : MIN(acc, r); break;
		case PTX_AOP_MAX: acc = i == 0 ? MAX((i64)(i32)c, r) : MAX(acc, r); break;
		default:
			if (in->flags & PTX_F_SAT)
				r = r < lo ? lo : r > hi ? hi : r;
			d |= (u32)zext((u64)r, w) << (w * i);
		}
	}
	W(0, PTX_T_B32, in->aop ? (u32)acc : d);
}

/* ---- one instruction ---- */

static void
branch(Interp *I, Thread *t, const PtxInstr *in)
{
	const PtxOperand *o = &in->opds[0];

	if (o->kind != PTX_OPD_SYM || o->symkind != PTX_SYM_LABEL)
		ierr(I, "branch target is not a label");
	t->pc = o->index;
}

/* The comparison ct of x and y as values of type t (setp and set, per
 * half of an f16x2/bf16x2 pair). */
static int
cmp_of(int ct, u64 x, u64 y, int t, int ftz)
{
	if (t == PTX_T_F32)
		return f32_cmp(ct, (u32)x, (u32)y, ftz);
	if (is_ftype(t))
		return fx_cmp(ct, widen(x, ffmt(t)), widen(y, ffmt(t)));
	return i_cmp(ct, x, y, tsigned(t), tbits(t));
}

void
exec_one(Interp *I, Thread *t, const PtxInstr *in)
{
	int type = in->ntypes ? in->types[0] : PTX_T_NONE;
	int sp;
	u64 a, b, c, r;

	switch (in->op) {
	case PTX_OP_add: case PTX_OP_sub: case PTX_OP_mul: case PTX_OP_min: case PTX_OP_max:
		if (is_ftype(type)) {
			int op = in->op == PTX_OP_add ? FB_ADD : in->op == PTX_OP_sub ? FB_SUB :
				 in->op == PTX_OP_mul ? FB_MUL : in->op == PTX_OP_min ? FB_MIN : FB_MAX;
			r = fop(I, in, op, type, R(1, type), R(2, type), 0);
			if (in->nopds > 3 && (in->op == PTX_OP_min || in->op == PTX_OP_max))
				r = fop(I, in, op, type, r, R(3, type), 0);
			W(0, type, r);
			break;
		}
		/* fallthrough */
	case PTX_OP_addc: case PTX_OP_subc: case PTX_OP_mul24: case PTX_OP_div: case PTX_OP_rem:
	case PTX_OP_and: case PTX_OP_or: case PTX_OP_xor: case PTX_OP_not: case PTX_OP_cnot:
	case PTX_OP_shl: case PTX_OP_shr: case PTX_OP_popc: case PTX_OP_clz: case PTX_OP_brev:
	case PTX_OP_bfind: case PTX_OP_bfe: case PTX_OP_bfi: case PTX_OP_sad:
	case PTX_OP_madc: case PTX_OP_mad24:
		if (in->op == PTX_OP_div && is_ftype(type)) {
			W(0, type, fop(I, in, FB_DIV, type, R(1, type), R(2, type), 0));
			break;
		}
		r = iop(I, t, in, type);
		if (in->op == PTX_OP_mul && in->mode == PTX_MODE_WIDE)
			W(0, tsigned(type) ? (type == PTX_T_S16 ? PTX_T_S32 : PTX_T_S64) : (type == PTX_T_U16 ? PTX_T_U32 : PTX_T_U64), r);
		else if (in->op == PTX_OP_popc || in->op == PTX_OP_clz || in->op == PTX_OP_bfind)
			W(0, PTX_T_U32, r);
		else
			W(0, type, r);
		break;
	case PTX_OP_mad:
		if (is_ftype(type)) {
			W(0, type, fop(I, in, FB_FMA, type, R(1, type), R(2, type), R(3, type)));
			break;
		}
		r = iop(I, t, in, type);
		if (in->mode == PTX_MODE_WIDE)
			W(0, tsigned(type) ? (type == PTX_T_S16 ? PTX_T_S32 : PTX_T_S64) : (type == PTX_T_U16 ? PTX_T_U32 : PTX_T_U64), r);
		else
			W(0, type, r);
		break;
	case PTX_OP_fma:
		W(0, type, fop(I, in, FB_FMA, type, R(1, type), R(2, type), R(3, type)));
		break;
	case PTX_OP_abs: case PTX_OP_neg:
		if (is_ftype(type))
			W(0, type, funary(I, in, type, R(1, type)));
		else
			W(0, type, iop(I, t, in, type));
		break;
	case PTX_OP_rcp: case PTX_OP_sqrt: case PTX_OP_rsqrt: case PTX_OP_ex2: case PTX_OP_lg2:
	case PTX_OP_sin: case PTX_OP_cos: case PTX_OP_tanh:
		W(0, type, funary(I, in, type, R(1, type)));
		break;
	case PTX_OP_copysign:
		if (type == PTX_T_F32)
			W(0, type, (R(2, type) & 0x7fffffffu) | (R(1, type) & 0x80000000u));
		else
			W(0, type, (R(2, type) & ~(1ull << 63)) | (R(1, type) & (1ull << 63)));
		break;
	case PTX_OP_testp:
		W(0, PTX_T_PRED, testp(in->mode, type, R(1, type)));
		break;
	case PTX_OP_prmt:
		W(0, PTX_T_B32, i_prmt(R(1, PTX_T_B32), R(2, PTX_T_B32), R(3, PTX_T_B32), prmt_mode(in->mode)));
		break;
	case PTX_OP_lop3:
		W(0, PTX_T_B32, i_lop3(R(1, PTX_T_B32), R(2, PTX_T_B32), R(3, PTX_T_B32), (u32)R(4, PTX_T_B32)));
		break;
	case PTX_OP_dp4a:
		W(0, PTX_T_U32, i_dp4a(R(1, type), R(2, in->types[1]), R(3, PTX_T_U32), tsigned(type), tsigned(in->types[1])));
		break;
	case PTX_OP_dp2a:
		W(0, PTX_T_U32, i_dp2a(R(1, type), R(2, in->types[1]), R(3, PTX_T_U32), tsigned(type),
				       tsigned(in->types[1]), in->mode == PTX_MODE_HI));
		break;
	case PTX_OP_shf:
		W(0, PTX_T_B32, i_shf(R(1, PTX_T_B32), R(2, PTX_T_B32), R(3, PTX_T_U32), in->mode == PTX_MODE_L,
				      !!(in->flags & PTX_F_CLAMP)));
		break;
	case PTX_OP_fns:
		W(0, PTX_T_U32, i_fns(R(1, PTX_T_U32), R(2, PTX_T_U32), (i32)R(3, PTX_T_S32)));
		break;
	case PTX_OP_vadd2: case PTX_OP_vadd4: case PTX_OP_vsub2: case PTX_OP_vsub4:
	case PTX_OP_vavrg2: case PTX_OP_vavrg4: case PTX_OP_vabsdiff2: case PTX_OP_vabsdiff4:
	case PTX_OP_vmin2: case PTX_OP_vmin4: case PTX_OP_vmax2: case PTX_OP_vmax4:
	case PTX_OP_vset2: case PTX_OP_vset4:
		exec_video(I, t, in);
		break;
	case PTX_OP_szext:
		W(0, type, i_szext(R(1, PTX_T_U32), R(2, PTX_T_U32), !!(in->flags & PTX_F_CLAMP), tsigned(type)));
		break;
	case PTX_OP_bmsk:
		W(0, PTX_T_B32, i_bmsk(R(1, PTX_T_U32), R(2, PTX_T_U32), !!(in->flags & PTX_F_CLAMP)));
		break;
	case PTX_OP_setp: {
		int ct = cmpop(in->cmp), res, lanes = (type == PTX_T_F16X2 || type == PTX_T_BF16X2) ? 2 : 1, l;
		int cbool = in->nopds > 3 ? (int)(R(3, PTX_T_PRED) != 0) : -1;
		a = R(1, type);
		b = R(2, type);
		for (l = 0; l < lanes; l++) {
			u64 x = lanes == 2 ? (a >> (16 * l)) & 0xffff : a, y = lanes == 2 ? (b >> (16 * l)) & 0xffff : b;
			int p, q;
			res = cmp_of(ct, x, y, type, !!(in->flags & PTX_F_FTZ));
			p = res;
			q = !res;
			if (cbool >= 0) {
				switch (in->aop) {
				case PTX_AOP_AND: p = p && cbool; q = q && cbool; break;
				case PTX_AOP_OR: p = p || cbool; q = q || cbool; break;
				case PTX_AOP_XOR: p = p ^ cbool; q = q ^ cbool; break;
				}
			}
			if (lanes == 2) {
				if (l == 0)
					opd_write(I, t, &in->opds[0], PTX_T_PRED, p);
				else if (in->opds[0].reg2 >= 0)
					t->fr->regs[in->opds[0].reg2] = p;
			} else {
				opd_write(I, t, &in->opds[0], PTX_T_PRED, p);
				if (in->opds[0].reg2 >= 0)
					t->fr->regs[in->opds[0].reg2] = q;
			}
		}
		break;
	}
	case PTX_OP_set: {
		/* f16x2/bf16x2 sources: a comparison per half, 0xffff (or 1.0 of
		   a half dtype) in that half */
		int dt = type, st = in->ntypes > 1 ? in->types[1] : type, res, ct = cmpop(in->cmp), l;
		int lanes = st == PTX_T_F16X2 || st == PTX_T_BF16X2 ? 2 : 1, cb = in->nopds > 3 ? R(3, PTX_T_PRED) != 0 : -1;
		int et = lanes == 1 ? st : st == PTX_T_F16X2 ? PTX_T_F16 : PTX_T_BF16;
		u64 one = dt == PTX_T_F32 ? 0x3f800000u : dt == PTX_T_F16 || dt == PTX_T_F16X2 ? 0x3c00
			: dt == PTX_T_BF16 || dt == PTX_T_BF16X2 ? 0x3f80 : lanes == 2 ? 0xffff : ~0ull;
		a = R(1, st);
		b = R(2, st);
		r = 0;
		for (l = 0; l < lanes; l++) {
			u64 x = lanes == 2 ? a >> 16 * l & 0xffff : a, y = lanes == 2 ? b >> 16 * l & 0xffff : b;
			res = cmp_of(ct, x, y, et, !!(in->flags & PTX_F_FTZ));
			if (cb >= 0)
				res = in->aop == PTX_AOP_AND ? res && cb : in->aop == PTX_AOP_OR ? res || cb : res ^ cb;
			if (res)
				r |= one << 16 * l;
		}
		W(0, dt, r);
		break;
	}
	case PTX_OP_selp:
		W(0, type, R(3, PTX_T_PRED) ? R(1, type) : R(2, type));
		break;
	case PTX_OP_slct: {
		int ct = in->ntypes > 1 ? in->types[1] : PTX_T_S32;
		c = R(3, ct);
		if (ct == PTX_T_F32) {
			if (in->flags & PTX_F_FTZ)
				c = f32_flush(c);
			r = f32_cmp(CMP_GE, c, 0, 0);
		} else
			r = (i32)c >= 0;
		W(0, type, r ? R(1, type) : R(2, type));
		break;
	}
	case PTX_OP_mov:
		if (in->opds[1].kind == PTX_OPD_SYM && in->opds[1].symkind == PTX_SYM_VAR) {
			int vs;
			r = sym_addr(I, t, &in->opds[1], &vs) + (u64)in->opds[1].imm;
			W(0, type, r);
		} else
			W(0, type, R(1, type));
		break;
	case PTX_OP_cvt:
		exec_cvt(I, t, in);
		break;
	case PTX_OP_cvt_pack: {
		/* cvt.pack.sat.u8.s32.b32 d, a, b, c: saturate a, b to u8/s8/u16/s16 */
		int dt = in->types[0], n = tbits(dt), i;
		u64 v = in->nopds > 3 ? R(3, PTX_T_B32) : 0;
		u64 x[2] = { R(1, PTX_T_S32), R(2, PTX_T_S32) };
		for (i = 0; i < 2; i++)
			x[i] = cvt_i2i(x[i], 32, 1, n, tsigned(dt), 1);
		if (n == 16)
			r = x[0] << 16 | x[1];
		else
			r = (v << 16) | x[0] << 8 | x[1];
		W(0, PTX_T_B32, r);
		break;
	}
	case PTX_OP_cvta:
		a = R(1, PTX_T_U64);
		sp = ispace(in, 0);
		r = (in->flags & PTX_F_TO) ? from_generic(I, t, sp, a) : to_generic(I, t, sp, a);
		W(0, type, r);
		break;
	case PTX_OP_isspacep: {
		int g;
		a = R(1, PTX_T_U64);
		g = generic_space(I, a);
		sp = ispace(in, 0);
		W(0, PTX_T_PRED, g == sp || (sp == PTX_S_SHARED_CLUSTER && g == PTX_S_SHARED));
		break;
	}
	case PTX_OP_getctarank:
		a = R(1, PTX_T_U64);
		sp = ispace(in, 0);
		if (sp == PTX_S_NONE || sp == PTX_S_GENERIC) {
			if (generic_space(I, a) == PTX_S_SHARED_CLUSTER)
				r = ((a - GW_DSMEM) >> 24);
			else
				r = t->cta->rank;
		} else
			r = (a >> 24) ? (a >> 24) - 1 : (u64)t->cta->rank;
		W(0, PTX_T_U32, r);
		break;
	case PTX_OP_mapa: {
		u64 rank = R(2, PTX_T_U32);
		a = R(1, PTX_T_U64);
		sp = ispace(in, 0);
		if (rank >= (u64)I->csize)
			ierr(I, "mapa to CTA rank %llu, the cluster has %d", (unsigned long long)rank, I->csize);
		if (sp == PTX_S_NONE || sp == PTX_S_GENERIC) {
			u64 off = generic_space(I, a) == PTX_S_SHARED_CLUSTER ? (a - GW_DSMEM) & 0xffffff : a - GW_SHARED;
			r = GW_DSMEM + (rank << 24) + off;
		} else
			r = ((rank + 1) << 24) | (a & 0xffffff);
		W(0, type, r);
		break;
	}
	case PTX_OP_ld: case PTX_OP_ldu:
		exec_ld(I, t, in);
		break;
	case PTX_OP_st:
		exec_st(I, t, in);
		break;
	case PTX_OP_st_async: {
		/* st.async.shared::cluster.mbarrier::complete_tx::bytes{.v2/.v4}.type [a], b, [mbar] */
		int sz = ptx_type_size(type), nv = in->vec ? in->vec : 1, i, msp = PTX_S_SHARED_CLUSTER;
		u64 m, v;
		sp = PTX_S_SHARED_CLUSTER;
		a = opd_addr(I, t, in, &in->opds[0], &sp);
		for (i = 0; i < nv; i++) {
			const PtxOperand *s = in->opds[1].kind == PTX_OPD_VEC ? &in->opds[1].elems[i] : &in->opds[1];
			mem_st(I, t, sp, a + (u64)i * sz, sz, opd_read(I, t, in, s, type));
		}
		m = opd_addr(I, t, in, &in->opds[2], &msp);
		v = mem_ld(I, t, msp, m, 8);
		mem_st(I, t, msp, m, 8, mb_update(v, 0, 0, -(i64)(sz * nv)));
		break;
	}
	case PTX_OP_red_async: {
		/* red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.op.type [a], b, [mbar] */
		int msp = PTX_S_SHARED_CLUSTER, sz = ptx_type_size(type);
		u64 m, v;
		if (in->nopds != 3 || in->vec > 1)
			ierr(I, "red.async: want [a], b, [mbar]");
		sp = PTX_S_SHARED_CLUSTER;
		a = opd_addr(I, t, in, &in->opds[0], &sp);
		atomic_op(I, t, in, sp, a, type, R(1, type), 0);
		m = opd_addr(I, t, in, &in->opds[2], &msp);
		v = mem_ld(I, t, msp, m, 8);
		mem_st(I, t, msp, m, 8, mb_update(v, 0, 0, -(i64)sz));
		break;
	}
	case PTX_OP_wmma_load: case PTX_OP_wmma_store:
		exec_wmma_ldst(I, t, in);
		break;
	case PTX_OP_alloca: {
		/* alloca{.local}.type ptr, size{, align}: on the thread's local stack */
		u64 al = in->nopds > 2 ? R(2, PTX_T_U32) : 8, at;
		if (!al || (al & (al - 1)))
			ierr(I, "alloca alignment %llu is not a power of two", (unsigned long long)al);
		at = (t->local_sp + al - 1) & ~(al - 1);
		local_grow(I, t, at + R(1, PTX_T_U64));
		W(0, type, at);       /* a .local address (nvcc follows it with cvta.local) */
		break;
	}
	case PTX_OP_stacksave:
		W(0, type, t->local_sp);
		break;
	case PTX_OP_stackrestore:
		a = R(0, type);
		if (a < t->fr->local_base || a > t->local_sp)
			ierr(I, "stackrestore to 0x%llx, outside this frame's stack", (unsigned long long)a);
		t->local_sp = a;
		break;
	case PTX_OP_atom:
		exec_atom(I, t, in, 0);
		break;
	case PTX_OP_red:
		exec_atom(I, t, in, 1);
		break;
	case PTX_OP_bra:
		branch(I, t, in);
		return;
	case PTX_OP_brx_idx: {
		const PtxOperand *tb = &in->opds[1];
		const PtxBtargets *bt;
		u32 i = (u32)R(0, PTX_T_U32);
		if (tb->symkind != PTX_SYM_BTARGETS)
			ierr(I, "brx.idx needs a .branchtargets list");
		bt = &t->fr->fi->fn->btargets[tb->index];
		if (i >= (u32)bt->ntargets)
			ierr(I, "brx.idx index %u out of range (%d targets)", i, bt->ntargets);
		t->pc = bt->targets[i];
		return;
	}
	case PTX_OP_call:
		do_call(I, t, in);
		return;
	case PTX_OP_ret:
		do_ret(I, t);
		return;
	case PTX_OP_exit:
		t->state = TS_DONE;
		return;
	case PTX_OP_trap:
		ierr(I, "trap");
	case PTX_OP_bar: case PTX_OP_bar_sync: case PTX_OP_barrier: case PTX_OP_barrier_sync:
	case PTX_OP_bar_red: case PTX_OP_barrier_red:
		bar_arrive(I, t, in, 1);
		return;
	case PTX_OP_bar_arrive: case PTX_OP_barrier_arrive:
		bar_arrive(I, t, in, 0);
		return;
	case PTX_OP_barrier_cluster_arrive:
		I->clb[t->cta->cl].arrived++;
		t->barval = I->clb[t->cta->cl].gen;     /* the phase this thread arrived in */
		break;
	case PTX_OP_barrier_cluster_wait:
		if ((int)t->barval != I->clb[t->cta->cl].gen)
			break;  /* its phase already completed */
		t->bar = 16;
		t->state = TS_BAR;
		return;
	case PTX_OP_mbarrier_init: case PTX_OP_mbarrier_inval: case PTX_OP_mbarrier_arrive:
	case PTX_OP_mbarrier_arrive_drop: case PTX_OP_mbarrier_expect_tx: case PTX_OP_mbarrier_complete_tx:
	case PTX_OP_mbarrier_test_wait: case PTX_OP_mbarrier_try_wait: case PTX_OP_mbarrier_pending_count:
		exec_mbarrier(I, t, in);
		return;
	case PTX_OP_cp_async: case PTX_OP_cp_async_commit_group: case PTX_OP_cp_async_wait_group:
	case PTX_OP_cp_async_wait_all: case PTX_OP_cp_async_bulk: case PTX_OP_cp_async_bulk_commit_group:
	case PTX_OP_cp_async_bulk_wait_group: case PTX_OP_cp_async_mbarrier_arrive:
		exec_async(I, t, in);
		return;
	case PTX_OP_membar: case PTX_OP_fence: case PTX_OP_fence_proxy: case PTX_OP_fence_proxy_tensormap:
	case PTX_OP_nanosleep: case PTX_OP_prefetch: case PTX_OP_prefetchu: case PTX_OP_cp_async_bulk_prefetch:
	case PTX_OP_griddepcontrol_launch_dependents: case PTX_OP_griddepcontrol_wait:
	case PTX_OP_discard: case PTX_OP_applypriority: case PTX_OP_pmevent: case PTX_OP_brkpt:
	case PTX_OP_setmaxnreg: case PTX_OP_wgmma_fence: case PTX_OP_wgmma_commit_group:
	case PTX_OP_wgmma_wait_group:
		if (in->op == PTX_OP_prefetch && ptx_has_mod(in, PTX_M_tensormap)) {
			exec_tma(I, t, in);
			return;
		}
		if (in->op == PTX_OP_nanosleep) {
			t->state = TS_YIELD;
			t->spinning = 1;
		}
		break;
	case PTX_OP_createpolicy_fractional: {
		int pri, sec;
		ptx_evict_priorities(in, &pri, &sec);
		W(0, PTX_T_B64, cache_policy_fractional(pri, sec == 1, in->nopds > 1 ? (u32)R(1, PTX_T_F32) : 0x3f800000u));
		break;
	}
	case PTX_OP_createpolicy_range: case PTX_OP_createpolicy_cvt:   /* opaque: 0 */
		W(0, PTX_T_B64, 0);
		break;
	case PTX_OP_cp_async_bulk_tensor: case PTX_OP_cp_reduce_async_bulk_tensor:
	case PTX_OP_cp_async_bulk_prefetch_tensor:
		exec_tma(I, t, in);
		return;
	case PTX_OP_tex:
		exec_tex(I, t, in);
		break;
	case PTX_OP_suld: case PTX_OP_sust:
		exec_surf(I, t, in);
		break;
	default:
		ierr(I, "%s is not supported by the interpreter", ptx_op_name(in->op));
	}
	t->pc++;
}

int
is_collective(const PtxInstr *in)
{
	switch (in->op) {
	case PTX_OP_shfl: case PTX_OP_vote: case PTX_OP_match: case PTX_OP_redux:
	case PTX_OP_activemask: case PTX_OP_bar_warp_sync: case PTX_OP_mma: case PTX_OP_ldmatrix:
	case PTX_OP_stmatrix: case PTX_OP_movmatrix: case PTX_OP_elect: case PTX_OP_wmma_mma:
	case PTX_OP_wgmma_mma_async:
		return 1;
	}
	return 0;
}

int
interp_supports(int op)
{
	switch (op) {
	case PTX_OP_add: case PTX_OP_sub: case PTX_OP_mul: case PTX_OP_min: case PTX_OP_max:
	case PTX_OP_addc: case PTX_OP_subc: case PTX_OP_mul24: case PTX_OP_div: case PTX_OP_rem:
	case PTX_OP_and: case PTX_OP_or: case PTX_OP_xor: case PTX_OP_not: case PTX_OP_cnot:
	case PTX_OP_shl: case PTX_OP_shr: case PTX_OP_popc: case PTX_OP_clz: case PTX_OP_brev:
	case PTX_OP_bfind: case PTX_OP_bfe: case PTX_OP_bfi: case PTX_OP_sad: case PTX_OP_madc:
	case PTX_OP_mad24: case PTX_OP_mad: case PTX_OP_fma: case PTX_OP_abs: case PTX_OP_neg:
	case PTX_OP_rcp: case PTX_OP_sqrt: case PTX_OP_rsqrt: case PTX_OP_ex2: case PTX_OP_lg2:
	case PTX_OP_sin: case PTX_OP_cos: case PTX_OP_tanh: case PTX_OP_copysign: case PTX_OP_testp:
	case PTX_OP_prmt: case PTX_OP_lop3: case PTX_OP_dp4a: case PTX_OP_dp2a: case PTX_OP_shf:
	case PTX_OP_fns: case PTX_OP_bmsk: case PTX_OP_szext: case PTX_OP_setp: case PTX_OP_set: case PTX_OP_selp:
	case PTX_OP_slct: case PTX_OP_mov: case PTX_OP_cvt: case PTX_OP_cvt_pack: case PTX_OP_cvta:
	case PTX_OP_isspacep: case PTX_OP_getctarank: case PTX_OP_mapa: case PTX_OP_ld: case PTX_OP_ldu:
	case PTX_OP_st: case PTX_OP_st_async: case PTX_OP_red_async: case PTX_OP_atom: case PTX_OP_red: case PTX_OP_bra:
	case PTX_OP_brx_idx: case PTX_OP_call: case PTX_OP_ret: case PTX_OP_exit: case PTX_OP_trap:
	case PTX_OP_bar: case PTX_OP_bar_sync: case PTX_OP_barrier: case PTX_OP_barrier_sync:
	case PTX_OP_bar_red: case PTX_OP_barrier_red: case PTX_OP_bar_arrive: case PTX_OP_barrier_arrive:
	case PTX_OP_barrier_cluster_arrive: case PTX_OP_barrier_cluster_wait:
	case PTX_OP_mbarrier_init: case PTX_OP_mbarrier_inval: case PTX_OP_mbarrier_arrive:
	case PTX_OP_mbarrier_arrive_drop: case PTX_OP_mbarrier_expect_tx: case PTX_OP_mbarrier_complete_tx:
	case PTX_OP_mbarrier_test_wait: case PTX_OP_mbarrier_try_wait: case PTX_OP_mbarrier_pending_count:
	case PTX_OP_cp_async: case PTX_OP_cp_async_commit_group: case PTX_OP_cp_async_wait_group:
	case PTX_OP_cp_async_wait_all: case PTX_OP_cp_async_bulk: case PTX_OP_cp_async_bulk_commit_group:
	case PTX_OP_cp_async_bulk_wait_group: case PTX_OP_cp_async_mbarrier_arrive:
	case PTX_OP_membar: case PTX_OP_fence: case PTX_OP_fence_proxy: case PTX_OP_fence_proxy_tensormap:
	case PTX_OP_nanosleep: case PTX_OP_prefetch: case PTX_OP_prefetchu: case PTX_OP_cp_async_bulk_prefetch:
	case PTX_OP_griddepcontrol_launch_dependents: case PTX_OP_griddepcontrol_wait:
	case PTX_OP_discard: case PTX_OP_applypriority: case PTX_OP_pmevent: case PTX_OP_brkpt:
	case PTX_OP_setmaxnreg: case PTX_OP_createpolicy_fractional: case PTX_OP_createpolicy_range:
	case PTX_OP_createpolicy_cvt:
	case PTX_OP_shfl: case PTX_OP_vote: case PTX_OP_match: case PTX_OP_redux:
	case PTX_OP_activemask: case PTX_OP_bar_warp_sync: case PTX_OP_mma: case PTX_OP_ldmatrix:
	case PTX_OP_stmatrix: case PTX_OP_movmatrix: case PTX_OP_elect:
	case PTX_OP_wmma_load: case PTX_OP_wmma_store: case PTX_OP_wmma_mma:
	case PTX_OP_alloca: case PTX_OP_stacksave: case PTX_OP_stackrestore:
	case PTX_OP_vadd2: case PTX_OP_vadd4: case PTX_OP_vsub2: case PTX_OP_vsub4:
	case PTX_OP_vavrg2: case PTX_OP_vavrg4: case PTX_OP_vabsdiff2: case PTX_OP_vabsdiff4:
	case PTX_OP_vmin2: case PTX_OP_vmin4: case PTX_OP_vmax2: case PTX_OP_vmax4:
	case PTX_OP_vset2: case PTX_OP_vset4:
	case PTX_OP_wgmma_mma_async: case PTX_OP_wgmma_fence: case PTX_OP_wgmma_commit_group:
	case PTX_OP_wgmma_wait_group: case PTX_OP_tex: case PTX_OP_suld: case PTX_OP_sust:
	case PTX_OP_cp_async_bulk_tensor: case PTX_OP_cp_reduce_async_bulk_tensor:
	case PTX_OP_cp_async_bulk_prefetch_tensor:
		return 1;
	}
	return 0;
}
