/* interp_warp.c -- warp-collective instructions of the interpreter:
 * shfl, vote, match, redux, activemask, bar.warp.sync, elect, ldmatrix,
 * stmatrix, movmatrix and mma.sync with the PTX fragment layouts.
 *
 * exec_collective() gets the lanes of one warp that wait at the same
 * instruction (the scheduler only calls it when no lane of the warp can
 * run).  Lanes named in a .sync membermask that are neither here nor
 * exited are an error (the hardware would hang or be undefined).
 *
 * mma model: products are exact, the sum of a row of products plus the
 * accumulator is computed in double (exact for f16/bf16/tf32 inputs up to
 * the rounding of the final sum... see docs/findings-interp.md) and
 * rounded once to the accumulator type, round to nearest even. */
#include <string.h>

#include "ptx/interp_int.h"

#define R(t, k, ty) opd_read(I, (t), in, &in->opds[k], (ty))
#define W(t, k, ty, v) opd_write(I, (t), &in->opds[k], (ty), (v))

static int
has_mod(const PtxInstr *in, int m)
{
	return ptx_has_mod(in, (PtxModId)m);
}

/* Lanes of the group as a bitmask; checks the membermask. */
static u32
group_mask(Interp *I, Thread **ts, int n, const PtxInstr *in, int maskopd)
{
	u32 g = 0, mm, live = 0;
	Cta *c = ts[0]->cta;
	int i, w0 = ts[0]->warp * 32;

	for (i = 0; i < n; i++)
		g |= 1u << ts[i]->lane;
	if (maskopd < 0 || maskopd >= in->nopds)
		return g;
	mm = (u32)R(ts[0], maskopd, PTX_T_U32);
	for (i = 0; i < 32 && w0 + i < c->nth; i++)
		if (c->th[w0 + i].state != TS_DONE)
			live |= 1u << i;
	if (mm & live & ~g) {
		int l = __builtin_ctz(mm & live & ~g);
		ierr(I, "lane %d is in the membermask 0x%08x but waits elsewhere (divergent collective)", l, mm);
	}
	if (!(mm & (1u << ts[0]->lane)))
		ierr(I, "the executing lane %d is not in the membermask 0x%08x", ts[0]->lane, mm);
	return g;
}

static void
exec_shfl(Interp *I, Thread **ts, int n, const PtxInstr *in)
{
	u64 av[32];
	int i;
	Thread *src[32];

	memset(src, 0, sizeof src);
	group_mask(I, ts, n, in, 4);
	for (i = 0; i < n; i++) {
		av[ts[i]->lane] = R(ts[i], 1, PTX_T_B32);
		src[ts[i]->lane] = ts[i];
	}
	for (i = 0; i < n; i++) {
		Thread *t = ts[i];
		int lane = t->lane, j, pval;
		u32 b = (u32)R(t, 2, PTX_T_U32) & 31, cc = (u32)R(t, 3, PTX_T_U32);
		int cval = cc & 31, mask = (cc >> 8) & 31;
		int maxl = (lane & mask) | (cval & ~mask), minl = lane & mask;
		switch (in->mode) {
		case PTX_MODE_UP: j = lane - (int)b; pval = j >= maxl; break;
		case PTX_MODE_DOWN: j = lane + (int)b; pval = j <= maxl; break;
		case PTX_MODE_BFLY: j = lane ^ (int)b; pval = j <= maxl; break;
		default: j = minl | ((int)b & ~mask); pval = j <= maxl; break;
		}
		if (!pval || j < 0 || j > 31 || !src[j])
			j = lane;   /* out of range, or an inactive source: own value */
		W(t, 0, PTX_T_B32, av[j]);
		if (in->opds[0].reg2 >= 0)
			t->fr->regs[in->opds[0].reg2] = pval;
	}
}

static void
exec_vote(Interp *I, Thread **ts, int n, const PtxInstr *in)
{
	u32 ballot = 0, g;
	int i, last = in->nopds - 1;

	g = group_mask(I, ts, n, in, (in->flags & PTX_F_SYNC) ? last : -1);
	for (i = 0; i < n; i++)
		if (R(ts[i], 1, PTX_T_PRED))
			ballot |= 1u << ts[i]->lane;
	for (i = 0; i < n; i++) {
		u64 r;
		switch (in->mode) {
		case PTX_MODE_ALL: r = ballot == g; break;
		case PTX_MODE_ANY: r = ballot != 0; break;
		case PTX_MODE_UNI: r = ballot == g || ballot == 0; break;
		default: r = ballot; break;
		}
		W(ts[i], 0, in->mode == PTX_MODE_BALLOT ? PTX_T_B32 : PTX_T_PRED, r);
	}
}

static void
exec_match(Interp *I, Thread **ts, int n, const PtxInstr *in)
{
	int type = in->ntypes ? in->types[0] : PTX_T_B32, i, j;
	u64 v[32];
	u32 g = group_mask(I, ts, n, in, 2);

	for (i = 0; i < n; i++)
		v[i] = R(ts[i], 1, type);
	for (i = 0; i < n; i++) {
		u32 m = 0;
		int all = 1;
		for (j = 0; j < n; j++) {
			if (v[j] == v[i])
				m |= 1u << ts[j]->lane;
			else
				all = 0;
		}
		if (in->mode == PTX_MODE_ALL) {
			W(ts[i], 0, PTX_T_B32, all ? g : 0);
			if (in->opds[0].reg2 >= 0)
				ts[i]->fr->regs[in->opds[0].reg2] = all;
		} else
			W(ts[i], 0, PTX_T_B32, m);
	}
}

static void
exec_redux(Interp *I, Thread **ts, int n, const PtxInstr *in)
{
	int type = in->ntypes ? in->types[0] : PTX_T_U32, i, sg = ptx_type_is_signed(type);
	u64 r = 0;

	group_mask(I, ts, n, in, 2);
	for (i = 0; i < n; i++) {
		u64 v = R(ts[i], 1, type) & 0xffffffffu;
		if (i == 0) {
			r = v;
			continue;
		}
		switch (in->aop) {
		case PTX_AOP_ADD: r = (u32)(r + v); break;
		case PTX_AOP_MIN: r = i_min(r, v, 32, sg); break;
		case PTX_AOP_MAX: r = i_max(r, v, 32, sg); break;
		case PTX_AOP_AND: r &= v; break;
		case PTX_AOP_OR: r |= v; break;
		case PTX_AOP_XOR: r ^= v; break;
		default: ierr(I, "redux operation is not supported");
		}
	}
	for (i = 0; i < n; i++)
		W(ts[i], 0, type, r);
}

/* ---- matrices ---- */

static u64
lane_addr(Interp *I, Thread *t, const PtxInstr *in, int k, int *sp)
{
	*sp = in->nspaces ? in->space[0] : PTX_S_NONE;
	return opd_addr(I, t, in, &in->opds[k], sp);
}

static u32
vec_get(Interp *I, Thread *t, const PtxInstr *in, int k, int j)
{
	const PtxOperand *o = &in->opds[k];

	if (o->kind == PTX_OPD_VEC)
		return (u32)opd_read(I, t, in, &o->elems[j], PTX_T_B32);
	return (u32)opd_read(I, t, in, o, PTX_T_B32);
}

static void
vec_set(Interp *I, Thread *t, const PtxInstr *in, int k, int j, int type, u64 v)
{
	const PtxOperand *o = &in->opds[k];

	opd_write(I, t, o->kind == PTX_OPD_VEC ? &o->elems[j] : o, type, v);
}

static int
nmat(const PtxInstr *in)
{
	return has_mod(in, PTX_M_x4) ? 4 : has_mod(in, PTX_M_x2) ? 2 : 1;
}

static Thread **
full_warp(Interp *I, Thread **ts, int n, const PtxInstr *in, Thread **out)
{
	int i;

	memset(out, 0, 32 * sizeof *out);
	for (i = 0; i < n; i++)
		out[ts[i]->lane] = ts[i];
	for (i = 0; i < 32; i++)
		if (!out[i])
			ierr(I, "%s needs all 32 lanes of the warp; lane %d is missing", ptx_op_name(in->op), i);
	return out;
}

/* ldmatrix: row r of matrix j comes from the address of lane 8j + r. */
static void
exec_ldmatrix(Interp *I, Thread **ts, int n, const PtxInstr *in)
{
	Thread *L[32];
	u16 m[4][8][8];
	int nm = nmat(in), j, r, c, l, sp, tr = !!(in->flags & PTX_F_TRANS);

	full_warp(I, ts, n, in, L);
	for (j = 0; j < nm; j++)
		for (r = 0; r < 8; r++) {
			Thread *t = L[8 * j + r];
			u64 a;
			u8 *p;
			I->cur = t;
			a = lane_addr(I, t, in, 1, &sp);
			p = mem_ptr(I, t, sp, a, 16, 0);
			memcpy(m[j][r], p, 16);
		}
	for (l = 0; l < 32; l++)
		for (j = 0; j < nm; j++) {
			u32 v;
			r = l / 4;
			c = 2 * (l % 4);
			if (tr)
				v = m[j][c][r] | (u32)m[j][c + 1][r] << 16;
			else
				v = m[j][r][c] | (u32)m[j][r][c + 1] << 16;
			vec_set(I, L[l], in, 0, j, PTX_T_B32, v);
		}
}

static void
exec_stmatrix(Interp *I, Thread **ts, int n, const PtxInstr *in)
{
	Thread *L[32];
	u16 m[4][8][8];
	int nm = nmat(in), j, r, c, l, sp, tr = !!(in->flags & PTX_F_TRANS);

	full_warp(I, ts, n, in, L);
	for (l = 0; l < 32; l++)
		for (j = 0; j < nm; j++) {
			u32 v = vec_get(I, L[l], in, 1, j);
			r = l / 4;
			c = 2 * (l % 4);
			if (tr) {
				m[j][c][r] = (u16)v;
				m[j][c + 1][r] = (u16)(v >> 16);
			} else {
				m[j][r][c] = (u16)v;
				m[j][r][c + 1] = (u16)(v >> 16);
			}
		}
	for (j = 0; j < nm; j++)
		for (r = 0; r < 8; r++) {
			Thread *t = L[8 * j + r];
			u64 a;
			I->cur = t;
			a = lane_addr(I, t, in, 0, &sp);
			memcpy(mem_ptr(I, t, sp, a, 16, 1), m[j][r], 16);
		}
}

static void
exec_movmatrix(Interp *I, Thread **ts, int n, const PtxInstr *in)
{
	Thread *L[32];
	u16 m[8][8];
	int l, r, c;

	full_warp(I, ts, n, in, L);
	for (l = 0; l < 32; l++) {
		u32 v = (u32)R(L[l], 1, PTX_T_B32);
		m[l / 4][2 * (l % 4)] = (u16)v;
		m[l / 4][2 * (l % 4) + 1] = (u16)(v >> 16);
	}
	for (l = 0; l < 32; l++) {
		r = l / 4;
		c = 2 * (l % 4);
		W(L[l], 0, PTX_T_B32, m[c][r] | (u32)m[c + 1][r] << 16);
	}
}

/* ---- mma.sync ---- */

typedef struct {
	int m, n, k;
	int at, ct, dt;  /* PtxType of A/B elements, C, D */
} MmaShape;

/* Position (row, col) of element i of lane l's A/B/C fragment. */
static void
a_pos(const MmaShape *s, int l, int i, int *r, int *c)
{
	int g = l >> 2, t = l & 3;

	switch (s->at) {
	case PTX_T_F16: case PTX_T_BF16:
		if (s->k == 16) {
			*r = g + 8 * ((i >> 1) & 1);
			*c = t * 2 + (i & 1) + 8 * (i >> 2);
		} else {
			*r = g + 8 * (i >> 1);
			*c = t * 2 + (i & 1);
		}
		return;
	case PTX_T_TF32: case PTX_T_F64:
		if (s->m == 8) {        /* f64 m8n8k4 */
			*r = g;
			*c = t;
		} else {                /* m16n8k4/k8/k16: a_i alternates rows */
			*r = g + 8 * (i & 1);
			*c = t + 4 * (i >> 1);
		}
		return;
	default:        /* s8/u8 */
		if (s->m == 8) {
			*r = g;
			*c = t * 4 + i;
		} else if (s->k == 32) {
			*r = g + 8 * ((i >> 2) & 1);
			*c = t * 4 + (i & 3) + 16 * (i >> 3);
		} else {
			*r = g + 8 * (i >> 2);
			*c = t * 4 + (i & 3);
		}
		return;
	}
}

static void
b_pos(const MmaShape *s, int l, int i, int *r, int *c)
{
	int g = l >> 2, t = l & 3;

	*c = g;
	switch (s->at) {
	case PTX_T_F16: case PTX_T_BF16:
		*r = t * 2 + (i & 1) + 8 * (i >> 1);
		return;
	case PTX_T_TF32: case PTX_T_F64:
		*r = t + 4 * i;
		return;
	default:
		*r = t * 4 + (i & 3) + 16 * (i >> 2);
		return;
	}
}

static void
c_pos(const MmaShape *s, int l, int i, int *r, int *c)
{
	int g = l >> 2, t = l & 3;

	*r = g + 8 * (i >> 1);
	*c = t * 2 + (i & 1);
}

static int
elems_per_reg(int type)
{
	switch (type) {
	case PTX_T_F16: case PTX_T_BF16: return 2;
	case PTX_T_S8: case PTX_T_U8: return 4;
	default: return 1;
	}
}

static double
elem_value(int type, u64 reg, int j)
{
	switch (type) {
	case PTX_T_F16: return widen((reg >> (16 * j)) & 0xffff, FF_F16);
	case PTX_T_BF16: return widen((reg >> (16 * j)) & 0xffff, FF_BF16);
	case PTX_T_TF32: return widen((u32)reg & 0xffffe000u, FF_F32);
	case PTX_T_F64: return f64_of(reg);
	case PTX_T_S8: return (double)(int8_t)(reg >> (8 * j));
	case PTX_T_U8: return (double)(u8)(reg >> (8 * j));
	}
	return 0;
}

static void
exec_mma(Interp *I, Thread **ts, int n, const PtxInstr *in)
{
	Thread *L[32];
	MmaShape s;
	double A[16][32], B[32][8], C[16][8];
	int l, i, r, c, k, epr, na, nb, nc, isint;

	full_warp(I, ts, n, in, L);
	memset(&s, 0, sizeof s);
	if (in->ntypes < 4)
		ierr(I, "mma.sync: expected .dtype.atype.btype.ctype");
	s.dt = in->types[0];
	s.at = in->types[1];
	s.ct = in->types[3];
	if (has_mod(in, PTX_M_m16n8k16)) s.m = 16, s.n = 8, s.k = 16;
	else if (has_mod(in, PTX_M_m16n8k8)) s.m = 16, s.n = 8, s.k = 8;
	else if (has_mod(in, PTX_M_m16n8k4)) s.m = 16, s.n = 8, s.k = 4;
	else if (has_mod(in, PTX_M_m16n8k32)) s.m = 16, s.n = 8, s.k = 32;
	else if (has_mod(in, PTX_M_m8n8k4) && s.at == PTX_T_F64) s.m = 8, s.n = 8, s.k = 4;
	else if (has_mod(in, PTX_M_m8n8k16)) s.m = 8, s.n = 8, s.k = 16;
	else
		ierr(I, "mma.sync: this shape is not supported");
	isint = s.at == PTX_T_S8 || s.at == PTX_T_U8;
	epr = elems_per_reg(s.at);
	na = s.m * s.k / 32;          /* A elements per lane */
	nb = s.k * s.n / 32;
	nc = s.m * s.n / 32;
	for (l = 0; l < 32; l++) {
		Thread *t = L[l];
		for (i = 0; i < na; i++) {
			const PtxOperand *o = &in->opds[1];
			u64 reg = opd_read(I, t, in, o->kind == PTX_OPD_VEC ? &o->elems[i / epr] : o, PTX_T_B64);
			a_pos(&s, l, i, &r, &c);
			A[r][c] = elem_value(s.at, reg, i % epr);
		}
		for (i = 0; i < nb; i++) {
			const PtxOperand *o = &in->opds[2];
			int bt = in->types[2];
			u64 reg = opd_read(I, t, in, o->kind == PTX_OPD_VEC ? &o->elems[i / epr] : o, PTX_T_B64);
			b_pos(&s, l, i, &r, &c);
			B[r][c] = elem_value(bt, reg, i % epr);
		}
		for (i = 0; i < nc; i++) {
			const PtxOperand *o = &in->opds[3];
			u64 v;
			c_pos(&s, l, i, &r, &c);
			if (s.ct == PTX_T_F16) {
				v = opd_read(I, t, in, o->kind == PTX_OPD_VEC ? &o->elems[i / 2] : o, PTX_T_B32);
				C[r][c] = widen((v >> (16 * (i & 1))) & 0xffff, FF_F16);
			} else {
				v = opd_read(I, t, in, o->kind == PTX_OPD_VEC ? &o->elems[i] : o, s.ct);
				C[r][c] = s.ct == PTX_T_F32 ? f32_of((u32)v) : s.ct == PTX_T_F64 ? f64_of(v) : (double)(i32)v;
			}
		}
	}
	for (l = 0; l < 32; l++) {
		u64 packed = 0;
		for (i = 0; i < nc; i++) {
			double sum;
			c_pos(&s, l, i, &r, &c);
			if (isint) {
				i64 acc = (i64)C[r][c];
				for (k = 0; k < s.k; k++)
					acc += (i64)A[r][k] * (i64)B[k][c];
				if (in->flags & PTX_F_SATFINITE)
					acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
				vec_set(I, L[l], in, 0, i, PTX_T_B32, (u32)acc);
				continue;
			}
			if (s.dt == PTX_T_F64) {
				u64 acc = bits_f64(C[r][c]);
				for (k = 0; k < s.k; k++)
					acc = f64_fma(bits_f64(A[r][k]), bits_f64(B[k][c]), acc, RND_RN);
				vec_set(I, L[l], in, 0, i, PTX_T_F64, acc);
				continue;
			}
			sum = C[r][c];
			for (k = 0; k < s.k; k++)
				sum += A[r][k] * B[k][c];
			if (s.dt == PTX_T_F16) {
				packed |= round_to(sum, FF_F16, RND_RN, 0) << (16 * (i & 1));
				if (i & 1) {
					vec_set(I, L[l], in, 0, i / 2, PTX_T_B32, packed);
					packed = 0;
				}
			} else
				vec_set(I, L[l], in, 0, i, PTX_T_F32, bits_f32((float)sum));
		}
	}
}

/* The lanes an instruction waits for: its membermask, all 32 lanes for
 * the .aligned matrix instructions, none for activemask. */
u32
collective_mask(Interp *I, Thread *t, const PtxInstr *in)
{
	int k = -1;

	switch (in->op) {
	case PTX_OP_shfl: k = in->nopds > 4 ? 4 : -1; break;
	case PTX_OP_vote: k = (in->flags & PTX_F_SYNC) ? in->nopds - 1 : -1; break;
	case PTX_OP_match: case PTX_OP_redux: k = 2; break;
	case PTX_OP_bar_warp_sync: k = 0; break;
	case PTX_OP_elect: k = in->nopds - 1; break;
	case PTX_OP_mma: case PTX_OP_ldmatrix: case PTX_OP_stmatrix: case PTX_OP_movmatrix:
	case PTX_OP_wmma_mma: case PTX_OP_wgmma_mma_async:
		return 0xffffffffu;
	}
	if (k < 0 || k >= in->nopds)
		return 0;
	return (u32)opd_read(I, t, in, &in->opds[k], PTX_T_U32);
}

void
exec_collective(Interp *I, Thread **ts, int n, const PtxInstr *in)
{
	int i;

	switch (in->op) {
	case PTX_OP_shfl: exec_shfl(I, ts, n, in); break;
	case PTX_OP_vote: exec_vote(I, ts, n, in); break;
	case PTX_OP_match: exec_match(I, ts, n, in); break;
	case PTX_OP_redux: exec_redux(I, ts, n, in); break;
	case PTX_OP_activemask:
		for (i = 0; i < n; i++)
			opd_write(I, ts[i], &in->opds[0], PTX_T_B32, group_mask(I, ts, n, in, -1));
		break;
	case PTX_OP_bar_warp_sync:
		group_mask(I, ts, n, in, 0);
		break;
	case PTX_OP_elect: {
		u32 g = group_mask(I, ts, n, in, in->nopds - 1);
		u32 mm = (u32)R(ts[0], in->nopds - 1, PTX_T_U32) & g;
		int leader = mm ? __builtin_ctz(mm) : -1;
		for (i = 0; i < n; i++) {
			if (in->opds[0].kind != PTX_OPD_SINK)
				opd_write(I, ts[i], &in->opds[0], PTX_T_U32, (u32)leader);
			if (in->opds[0].reg2 >= 0)
				ts[i]->fr->regs[in->opds[0].reg2] = ts[i]->lane == leader;
		}
		break;
	}
	case PTX_OP_ldmatrix: exec_ldmatrix(I, ts, n, in); break;
	case PTX_OP_stmatrix: exec_stmatrix(I, ts, n, in); break;
	case PTX_OP_movmatrix: exec_movmatrix(I, ts, n, in); break;
	case PTX_OP_mma: exec_mma(I, ts, n, in); break;
	case PTX_OP_wmma_mma: {
		Thread *L[32];
		exec_wmma_mma(I, full_warp(I, ts, n, in, L), in);
		break;
	}
	case PTX_OP_wgmma_mma_async: {
		Thread *L[32];
		exec_wgmma(I, full_warp(I, ts, n, in, L), in);
		break;
	}
	default:
		ierr(I, "%s is not a collective", ptx_op_name(in->op));
	}
	for (i = 0; i < n; i++) {
		ts[i]->state = TS_RUN;
		ts[i]->pc++;
		if (ts[i]->traced)
			interp_trace(I, ts[i], in);
	}
}
