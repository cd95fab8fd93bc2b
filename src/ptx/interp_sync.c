/* interp_sync.c -- the interpreter's synchronisation and asynchronous
 * copies: bar/barrier arrivals (the scheduler in interp.c releases them),
 * mbarrier objects, cp.async / cp.async.bulk (complete at issue) and the
 * mbarrier transaction counts they update. */
#include <string.h>

#include "ptx/interp_int.h"

#define R(k, ty) opd_read(I, t, in, &in->opds[k], (ty))
#define W(k, ty, v) opd_write(I, t, &in->opds[k], (ty), (v))

static int
ispace(const PtxInstr *in, int k)
{
	return k < in->nspaces ? in->space[k] : PTX_S_NONE;
}

/* ---- mbarrier: a 64-bit object; bits 0-19 pending arrivals, 20-39
 * expected arrivals, 40-61 pending transaction bytes (signed), 63 phase. */

#define MB_PEND(v) ((v) & 0xfffff)
#define MB_EXP(v) (((v) >> 20) & 0xfffff)
#define MB_TX(v) ((i64)((v) << 2) >> 42)
#define MB_PHASE(v) ((v) >> 63)

static u64
mb_make(u64 pend, u64 exp, i64 tx, u64 phase)
{
	return (pend & 0xfffff) | (exp & 0xfffff) << 20 | ((u64)tx & 0x3fffff) << 40 | phase << 63;
}

u64
mb_update(u64 v, i64 arrive, i64 drop, i64 tx)
{
	i64 pend = (i64)MB_PEND(v) - arrive, exp = (i64)MB_EXP(v) - drop;
	i64 t = MB_TX(v) + tx;
	u64 ph = MB_PHASE(v);

	if (pend <= 0 && t == 0) {
		ph ^= 1;
		pend = exp;
	}
	return mb_make((u64)MAX(pend, 0), (u64)exp, t, ph);
}

static int
mb_space(const PtxInstr *in)
{
	int sp = ispace(in, 0);

	return sp == PTX_S_NONE ? PTX_S_GENERIC : sp;
}

void
exec_mbarrier(Interp *I, Thread *t, const PtxInstr *in)
{
	int sp = mb_space(in), k = 0;
	u64 a, v;

	switch (in->op) {
	case PTX_OP_mbarrier_init:
		a = opd_addr(I, t, in, &in->opds[0], &sp);
		v = R(1, PTX_T_U32);
		mem_st(I, t, sp, a, 8, mb_make(v, v, 0, 0));
		break;
	case PTX_OP_mbarrier_inval:
		a = opd_addr(I, t, in, &in->opds[0], &sp);
		mem_st(I, t, sp, a, 8, 0);
		break;
	case PTX_OP_mbarrier_arrive: case PTX_OP_mbarrier_arrive_drop: {
		i64 cnt = 1, tx = 0;
		u64 u;
		int hasd = in->opds[0].kind != PTX_OPD_ADDR;
		k = hasd ? 1 : 0;
		a = opd_addr(I, t, in, &in->opds[k], &sp);
		if (in->flags & PTX_F_EXPECT_TX) {
			tx = (i64)R(k + 1, PTX_T_U32);
			if (in->nopds > k + 2)
				cnt = (i64)R(k + 2, PTX_T_U32);
		} else if (in->nopds > k + 1)
			cnt = (i64)R(k + 1, PTX_T_U32);
		v = mem_ld(I, t, sp, a, 8);
		if (hasd)
			W(0, PTX_T_B64, MB_PHASE(v) << 63);
		u = mb_update(v, cnt, in->op == PTX_OP_mbarrier_arrive_drop ? cnt : 0, tx);
		if (ptx_has_mod(in, PTX_M_noComplete) && MB_PHASE(u) != MB_PHASE(v))
			ierr(I, "mbarrier arrive .noComplete completed the current phase (undefined behaviour)");
		mem_st(I, t, sp, a, 8, u);
		break;
	}
	case PTX_OP_mbarrier_expect_tx: case PTX_OP_mbarrier_complete_tx: {
		i64 tx = (i64)R(1, PTX_T_U32);
		a = opd_addr(I, t, in, &in->opds[0], &sp);
		v = mem_ld(I, t, sp, a, 8);
		mem_st(I, t, sp, a, 8, mb_update(v, 0, 0, in->op == PTX_OP_mbarrier_expect_tx ? tx : -tx));
		break;
	}
	case PTX_OP_mbarrier_test_wait: case PTX_OP_mbarrier_try_wait: {
		u64 want;
		int done;
		a = opd_addr(I, t, in, &in->opds[1], &sp);
		v = mem_ld(I, t, sp, a, 8);
		want = R(2, PTX_T_B64);
		if (in->flags & PTX_F_PARITY)
			done = MB_PHASE(v) != (want & 1);
		else
			done = MB_PHASE(v) != (want >> 63);
		W(0, PTX_T_PRED, done);
		if (!done) {
			t->pc++;
			t->state = TS_YIELD;
			t->spinning = 1;
			return;
		}
		break;
	}
	case PTX_OP_mbarrier_pending_count:
		W(0, PTX_T_U32, MB_PEND(R(1, PTX_T_B64)));
		break;
	}
	t->pc++;
}

static void
copy_mem(Interp *I, Thread *t, int dsp, u64 d, int ssp, u64 s, u64 n, u64 srcn)
{
	u8 *dp = mem_ptr(I, t, dsp, d, n, 1);
	u8 *sp;

	if (srcn > n)
		srcn = n;
	sp = srcn ? mem_ptr(I, t, ssp, s, srcn, 0) : NULL;
	if (srcn)
		memmove(dp, sp, srcn);
	memset(dp + srcn, 0, n - srcn);
}

void
exec_async(Interp *I, Thread *t, const PtxInstr *in)
{
	int dsp = ispace(in, 0), ssp = ispace(in, 1);
	u64 d, s, n, srcn;

	switch (in->op) {
	case PTX_OP_cp_async:   /* cp.async.ca.shared.global [d], [s], cp-size{, src-size} */
		d = opd_addr(I, t, in, &in->opds[0], &dsp);
		s = opd_addr(I, t, in, &in->opds[1], &ssp);
		n = R(2, PTX_T_U32);
		srcn = n;
		if (in->nopds > 3 + !!(in->flags & PTX_F_CACHE_HINT)) {
			const PtxOperand *o = &in->opds[3];
			if (o->kind == PTX_OPD_REG && t->fr->fi->fn->regs[o->reg].type == PTX_T_PRED)
				srcn = R(3, PTX_T_PRED) ? 0 : n;      /* ignore-src */
			else
				srcn = R(3, PTX_T_U32);
		}
		copy_mem(I, t, dsp, d, ssp, s, n, srcn);
		break;
	case PTX_OP_cp_async_bulk: {
		d = opd_addr(I, t, in, &in->opds[0], &dsp);
		s = opd_addr(I, t, in, &in->opds[1], &ssp);
		n = R(2, PTX_T_U32);
		copy_mem(I, t, dsp, d, ssp, s, n, n);
		if (in->nopds > 3 && in->opds[3].kind == PTX_OPD_ADDR) {
			int msp = dsp == PTX_S_SHARED ? PTX_S_SHARED_CLUSTER : dsp;
			u64 m = opd_addr(I, t, in, &in->opds[3], &msp);
			u64 v = mem_ld(I, t, msp, m, 8);
			mem_st(I, t, msp, m, 8, mb_update(v, 0, 0, -(i64)n));
		}
		break;
	}
	case PTX_OP_cp_async_mbarrier_arrive: {
		int sp = mb_space(in);
		u64 m = opd_addr(I, t, in, &in->opds[0], &sp);
		u64 v = mem_ld(I, t, sp, m, 8);
		if (in->flags & PTX_F_NOINC)
			mem_st(I, t, sp, m, 8, mb_update(v, 1, 0, 0));
		break;
	}
	default:        /* commit/wait groups: copies complete at issue */
		break;
	}
	t->pc++;
}

/* ---- barriers ---- */

void
bar_arrive(Interp *I, Thread *t, const PtxInstr *in, int wait)
{
	Cta *c = t->cta;
	int id = in->nopds > 0 && in->op != PTX_OP_bar_red && in->op != PTX_OP_barrier_red ? (int)R(0, PTX_T_U32) : 0;
	int cnt = 0;
	Barrier *b;

	if (in->op == PTX_OP_bar_red || in->op == PTX_OP_barrier_red) {
		id = (int)R(1, PTX_T_U32);
		if (in->nopds > 3)
			cnt = (int)R(2, PTX_T_U32);
		t->barval = R(in->nopds - 1, PTX_T_PRED);
	} else if (in->nopds > 1)
		cnt = (int)R(1, PTX_T_U32);
	if (id < 0 || id > 15)
		ierr(I, "barrier id %d out of range 0..15", id);
	b = &c->bar[id];
	if (cnt)
		b->expected = cnt;
	b->arrived++;
	if (wait) {
		b->waiting++;
		t->bar = id;
		t->state = TS_BAR;
	} else
		t->pc++;
}
