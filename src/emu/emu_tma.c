/* emu_tma.c -- the TMA unit (sm_90) with the tensor-map model the PTX
 * interpreter uses (src/run/tmap.c, docs/compiler-tma.md):
 *
 *   UTMALDG.nD[.MULTICAST] [URa], [URt]{, URm}{, desc[URc]}
 *        URa: shared destination, URa+1: its mbarrier, URa+2..: the n
 *        coordinates; URt:URt+1 the tensor map's generic address; URm the
 *        CTA mask of a multicast in bits 16..31 (ptxas: UMOV URm, 0x30000
 *        for ctaMask 3).  complete_tx(box bytes) on the mbarrier.
 *   UTMASTG.nD [URa], [URt]{, desc[URc]}   URa: shared source, URa+1..: coordinates
 *   UTMAREDG.nD.{ADD,MIN,MAX,INC,DEC,AND,OR,XOR} [URa], [URt]   as UTMASTG
 *   UTMAPF.L2.nD, UTMACCTL.{PF,IV}, UTMACMDFLUSH: no effect here.
 * The copy runs once per instruction (a uniform-datapath instruction, as
 * UBLKCP) and completes at once; desc[] cache policies are ignored. */
#include <string.h>

#include "emu/emu_int.h"
#include "run/tmap.h"

typedef struct {
	Emu *E;
	Warp *w;
	int l;
} Ctx;

static int
g_read(void *ctx, u64 addr, void *p, u32 n)
{
	Ctx *c = ctx;

	memcpy(p, emu_mem(c->E, c->w, c->l, MS_GLOBAL, addr, n, 0), n);
	return 0;
}

static int
g_write(void *ctx, u64 addr, const void *p, u32 n)
{
	Ctx *c = ctx;

	memcpy(emu_mem(c->E, c->w, c->l, MS_GLOBAL, addr, n, 1), p, n);
	return 0;
}

static const char *const reds[] = { "ADD", "MIN", "MAX", "INC", "DEC", "AND", "OR", "XOR" };

static void
h_utma(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Insn *in = &I->in;
	const Operand *o = in->o;
	int l = __builtin_ctz(gm | 0x80000000u), ld = !strcmp(in->op, "UTMALDG"), mc = insn_has(in, "MULTICAST");
	int red = TMAP_RED_NONE, n = 0, k = 0;
	Ctx cx = { E, w, l };
	TmapMem mem = { &cx, g_read, g_write };
	i32 c[TMAP_MAXRANK];
	const char *why;
	u32 a, bytes;
	u64 t;
	Tmap m;

	if (!strcmp(in->op, "UTMAPF") || !strcmp(in->op, "UTMACCTL") || !strcmp(in->op, "UTMACMDFLUSH") || !gm)
		return;
	for (int i = 1; i <= 5; i++)
		if (insn_has(in, (const char *[]){ "", "1D", "2D", "3D", "4D", "5D" }[i]))
			n = i;
	for (int i = 0; i < (int)NELEM(reds); i++)
		if (insn_has(in, reds[i]))
			red = TMAP_RED_ADD + i;
	if (!n || in->nops < 2 || o[0].kind != OPK_MEM || o[0].rk != OPK_UR || o[1].kind != OPK_MEM ||
	    o[1].rk != OPK_UR || o[0].imm || o[1].imm || o[0].reg + 2 + n > URZ || o[1].reg + 1 >= URZ ||
	    (mc && (in->nops < 3 || o[2].kind != OPK_UR)) || (!strcmp(in->op, "UTMAREDG") && !red))
		eunsup(E, I, NULL);
	a = w->ur[o[0].reg];
	k = o[0].reg + (ld ? 2 : 1);
	for (int i = 0; i < n; i++)
		c[i] = (i32)w->ur[k + i];
	t = w->ur[o[1].reg] | (u64)w->ur[o[1].reg + 1] << 32;
	if (t % 64)
		eerr(E, "%s: tensor map at 0x%llx is not 64-byte aligned", in->op, (unsigned long long)t);
	if ((why = tmap_decode(emu_mem(E, w, l, MS_GENERIC, t, TMAP_BYTES, 0), &m)))
		eerr(E, "%s: tensor map at 0x%llx: %s", in->op, (unsigned long long)t, why);
	if (m.rank != n)
		eerr(E, "%s.%dD with a tensor map of rank %d", in->op, n, m.rank);
	if (a % 128)
		eerr(E, "%s: shared address 0x%x is not 128-byte aligned", in->op, a);
	bytes = tmap_box_bytes(&m);
	if (!ld) {
		if (!tmap_red_ok(m.type, red))
			eerr(E, "UTMAREDG: this reduction does not apply to %s elements", elem_name(m.type));
		tmap_store(&m, c, a & 0xffffff, emu_mem(E, w, l, MS_SHARED, a, bytes, 0), red, &mem);
		return;
	}
	{
		u32 bar = w->ur[o[0].reg + 1], mask = mc && o[2].reg != URZ ? w->ur[o[2].reg] >> 16 : 0;
		/* straight into each destination: emu_mem may not return (eerr) */
		for (u32 r = 0; r < (mc ? 16u : 1u); r++) {
			u32 d = a, b = bar;
			if (mc) {
				if (!(mask >> r & 1))
					continue;
				d = r << 24 | (a & 0xffffff);
				b = r << 24 | (bar & 0xffffff);
			}
			tmap_load(&m, c, a & 0xffffff, &mem, emu_mem(E, w, l, MS_SHARED, d, bytes, 1));
			emu_mbar_update90(E, w, l, b, 0, -(i64)bytes);
		}
	}
}

Handler
emu_tma_handler(const char *op)
{
	return strncmp(op, "UTMA", 4) ? NULL : h_utma;
}
