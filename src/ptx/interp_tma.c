/* interp_tma.c -- TMA tensor copies through a tensor map (sm_90):
 * cp.async.bulk.tensor (load into shared memory with complete_tx on an
 * mbarrier, optionally multicast to CTAs of the cluster; store from
 * shared memory), cp.reduce.async.bulk.tensor, and the prefetches, which
 * only check their tensor map.  Copies complete at issue, like the other
 * bulk copies.  The tensor map is OUR encoding (run/tmap.h,
 * docs/compiler-tma.md), written there by the launch spec. */
#include <string.h>

#include "ptx/interp_int.h"
#include "run/tmap.h"

typedef struct {
	Interp *I;
	Thread *t;
} Ctx;

static int
g_read(void *ctx, u64 addr, void *p, u32 n)
{
	Ctx *c = ctx;

	memcpy(p, mem_ptr(c->I, c->t, PTX_S_GLOBAL, addr, n, 0), n);
	return 0;
}

static int
g_write(void *ctx, u64 addr, const void *p, u32 n)
{
	Ctx *c = ctx;

	memcpy(mem_ptr(c->I, c->t, PTX_S_GLOBAL, addr, n, 1), p, n);
	return 0;
}

/* The tensor map of operand k ([tmap, {coords}] or [tmap]) and its
 * coordinates (n of them when c is not NULL). */
static void
operand(Interp *I, Thread *t, const PtxInstr *in, int k, Tmap *m, i32 *c)
{
	const PtxOperand *o = &in->opds[k], *v;
	int sp = in->op == PTX_OP_prefetch && in->nspaces ? in->space[0] : PTX_S_GENERIC;
	const char *why;
	u64 a;

	if (o->kind != PTX_OPD_ADDR)
		ierr(I, "%s: the tensor map operand must be an address", ptx_op_name(in->op));
	a = opd_addr(I, t, in, o, &sp);
	if (sp == PTX_S_PARAM || sp == PTX_S_CONST)     /* prefetch.param.tensormap */
		a = to_generic(I, t, sp, a);
	if (a % 64)
		ierr(I, "%s: tensor map at 0x%llx is not 64-byte aligned", ptx_op_name(in->op),
		     (unsigned long long)a);
	if ((why = tmap_decode(mem_ptr(I, t, PTX_S_GENERIC, a, TMAP_BYTES, 0), m)))
		ierr(I, "%s: tensor map at 0x%llx: %s", ptx_op_name(in->op), (unsigned long long)a, why);
	if (!c)
		return;
	if (o->nelems != 1 || (v = &o->elems[0])->kind != PTX_OPD_VEC || v->nelems != m->rank)
		ierr(I, "%s: the tensor map has rank %d: want [tmap, {%d coordinates}]", ptx_op_name(in->op),
		     m->rank, m->rank);
	for (int i = 0; i < m->rank; i++)
		c[i] = (i32)opd_read(I, t, in, &v->elems[i], PTX_T_S32);
}

static void
load(Interp *I, Thread *t, const PtxInstr *in, const Tmap *m, const i32 *c)
{
	int dsp = PTX_S_SHARED_CLUSTER, msp = PTX_S_SHARED_CLUSTER, mc = !!(in->flags & PTX_F_MULTICAST);
	u64 d = opd_addr(I, t, in, &in->opds[0], &dsp), mb = opd_addr(I, t, in, &in->opds[2], &msp);
	u32 n = tmap_box_bytes(m), mask = mc ? (u32)opd_read(I, t, in, &in->opds[3], PTX_T_U16) : 0;
	Ctx cx = { I, t };
	TmapMem mem = { &cx, g_read, g_write };
	u8 *box;

	if (in->opds[2].kind != PTX_OPD_ADDR || !ptx_has_mod(in, PTX_M_mbarrier_complete_tx_bytes))
		ierr(I, "cp.async.bulk.tensor: a load needs .mbarrier::complete_tx::bytes and [mbar]");
	if (d % 128)
		ierr(I, "cp.async.bulk.tensor: shared destination 0x%llx is not 128-byte aligned",
		     (unsigned long long)d);
	box = xmalloc(n);
	tmap_load(m, c, (u32)(d & 0xffffff), &mem, box);
	/* multicast: the same offsets in every CTA of ctaMask (cluster ranks) */
	for (int r = mc ? 0 : -1; r < (mc ? 16 : 0); r++) {
		u64 dd = d, mm = mb;
		if (mc) {
			if (!(mask >> r & 1))
				continue;
			dd = (u64)(r + 1) << 24 | (d & 0xffffff);
			mm = (u64)(r + 1) << 24 | (mb & 0xffffff);
		}
		memcpy(mem_ptr(I, t, dsp, dd, n, 1), box, n);
		mem_st(I, t, msp, mm, 8, mb_update(mem_ld(I, t, msp, mm, 8), 0, 0, -(i64)n));
	}
	free(box);
}

static void
store(Interp *I, Thread *t, const PtxInstr *in, const Tmap *m, const i32 *c, int red)
{
	int ssp = PTX_S_SHARED;
	u64 s = opd_addr(I, t, in, &in->opds[1], &ssp);
	u32 n = tmap_box_bytes(m);
	Ctx cx = { I, t };
	TmapMem mem = { &cx, g_read, g_write };

	if (s % 128)
		ierr(I, "%s: shared source 0x%llx is not 128-byte aligned", ptx_op_name(in->op),
		     (unsigned long long)s);
	if (!tmap_red_ok(m->type, red))
		ierr(I, "cp.reduce.async.bulk.tensor: this reduction does not apply to %s elements",
		     elem_name(m->type));
	tmap_store(m, c, (u32)s, mem_ptr(I, t, ssp, s, n, 0), red, &mem);
}

void
exec_tma(Interp *I, Thread *t, const PtxInstr *in)
{
	static const int red[] = { [PTX_AOP_ADD] = TMAP_RED_ADD, [PTX_AOP_MIN] = TMAP_RED_MIN,
				   [PTX_AOP_MAX] = TMAP_RED_MAX, [PTX_AOP_INC] = TMAP_RED_INC,
				   [PTX_AOP_DEC] = TMAP_RED_DEC, [PTX_AOP_AND] = TMAP_RED_AND,
				   [PTX_AOP_OR] = TMAP_RED_OR, [PTX_AOP_XOR] = TMAP_RED_XOR };
	int global_dst = in->nspaces > 0 && in->space[0] == PTX_S_GLOBAL;
	i32 c[TMAP_MAXRANK];
	Tmap m;

	if (in->op == PTX_OP_prefetch) {        /* prefetch{.param,.const,.global}.tensormap [a] */
		operand(I, t, in, 0, &m, NULL);
		t->pc++;
		return;
	}
	if (ptx_has_mod(in, PTX_M_im2col) || ptx_has_mod(in, PTX_M_im2col_no_offs) ||
	    ptx_has_mod(in, PTX_M_tile_gather4) || ptx_has_mod(in, PTX_M_tile_scatter4) ||
	    ptx_has_mod(in, PTX_M_im2col_w) || ptx_has_mod(in, PTX_M_im2col_w_128))
		ierr(I, "%s: only the .tile mode is modelled", ptx_op_name(in->op));
	operand(I, t, in, in->op == PTX_OP_cp_async_bulk_tensor && !global_dst ? 1 : 0, &m, c);
	if (ptx_tensor_dims(in) != m.rank)
		ierr(I, "%s.%dd with a tensor map of rank %d", ptx_op_name(in->op), ptx_tensor_dims(in), m.rank);
	if (in->op == PTX_OP_cp_reduce_async_bulk_tensor)
		store(I, t, in, &m, c, in->aop < sizeof red / sizeof *red && red[in->aop] ? red[in->aop] : -1);
	else if (in->op == PTX_OP_cp_async_bulk_tensor && global_dst)
		store(I, t, in, &m, c, TMAP_RED_NONE);
	else if (in->op == PTX_OP_cp_async_bulk_tensor)
		load(I, t, in, &m, c);
	t->pc++;                                /* prefetch.tensor: nothing more */
}
