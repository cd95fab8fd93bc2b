/* isel_tex.c -- tex, suld.b and sust.b through texture/surface objects
 * (unified mode), as ptxas selects them (docs/findings-encoding.md,
 * "Session 6"):
 *
 *   tex.{1d,2d}.v4.T.s32  -> TLD.LZ  RZ, d, x, URh, 0x0, nD, mask
 *   tex{.level}.{1d,2d,3d}.v4.T.f32 -> TEX.LL Rzw, Rxy, {x, y..}, lod, URh, 0x0, nD[, mask]
 *                       (a 1D texture is sampled as 2D with y = 0, the
 *                       level is tex.level's or ptxas's -32.0; the
 *                       registers of the words: sel_tex)
 *   suld.b.{1d,2d,3d}[.vN].bN.mode -> SULD.D.BA.nD[.size].STRONG.SM[.TRAP|.IGN]
 *   sust likewise -> SUST
 *
 * sm_90 passes the handle in a uniform register pair (ULDC of the
 * parameter's low word, UMOV URZ above it); sm_80 names the parameter's
 * constant-bank word (".SCR ..., 0x0, IDX").  So the handle must be a
 * kernel parameter loaded with ld.param (what nvcc writes); anything
 * else is reported unsupported.  Only the components the function reads
 * are written (mask 0x1, 0x3 or 0xf). */
#include <string.h>

#include "codegen/isel.h"
#include "ir/walk.h"

/* The handle operand: sm_90 a uniform pair, sm_80 the c[0x0] word index. */
typedef struct {
	MRef ur;
	u32 idx;
} Handle;

static int
handle(Sel *s, const PtxOperand *a, Handle *h)
{
	const PtxInstr *d = a->kind == PTX_OPD_ADDR && a->reg >= 0 ? sel_only_def(s, a->reg) : NULL;
	const PtxOperand *p;
	int i;
	u32 off;

	if (!d || d->op != PTX_OP_ld || d->opds[1].kind != PTX_OPD_ADDR || !s->fn->is_entry ||
	    d->opds[1].reg >= 0 || !d->opds[1].var || ptx_type_size(d->types[0]) != 8)
		return sel_unsupported(s, "a texture/surface handle that is not a kernel parameter read by ld.param");
	p = &d->opds[1];
	for (i = 0; i < s->fn->nparams && &s->fn->params[i] != p->var; i++)
		;
	if (i == s->fn->nparams)
		return sel_unsupported(s, "a texture/surface handle that is not a kernel parameter read by ld.param");
	off = s->param_base + s->param_off[i] + (u32)p->imm;
	h->idx = off / 4;
	if (s->sm >= 90) {
		int v = mvreg(s->mf, RC_UR, 2);
		s->mf->vr.v[v].tmp = 1;
		h->ur = mref(v);
		mi(s->mf, "ULDC %D, c[0x0][%h]", mpart(v, 0, 1), off);
		mi(s->mf, "UMOV %D, URZ", mpart(v, 1, 1));
	}
	return 0;
}

/* Geometry dimensions: 1, 2, 3, or 0 for the others (arrays, cubes). */
static int
dims_of(const PtxInstr *in)
{
	return ptx_has_mod(in, PTX_M_d1d) ? 1 : ptx_has_mod(in, PTX_M_d2d) ? 2 : ptx_has_mod(in, PTX_M_d3d) ? 3 : 0;
}

static void
count_use(void *ctx, int r)
{
	((int *)ctx)[0] += r == ((int *)ctx)[1];
}

/* Does any live instruction read PTX register r? */
static int
is_read(Sel *s, int r)
{
	int c[2] = {0, r};
	size_t b, i;

	for (b = 0; b < s->ir->b.n; b++)
		for (i = 0; i < s->ir->b.v[b].ins.n; i++)
			if (!s->ir->b.v[b].ins.v[i].dead)
				ir_each_use(&s->ir->b.v[b].ins.v[i].p, count_use, c);
	return c[0] > 0;
}

/* tex.{1d,2d,3d}.v4 (and tex.level): TLD.LZ for .s32 coordinates (1d,
 * 2d), TEX.LL for .f32 (1d as 2D with y = 0).  The coordinate words:
 * sm_90 the coordinates in Ra.. and TEX's level in Rb; sm_80 (.SCR) the
 * words (coordinates, then the level) split, the first half (rounded up)
 * in Ra, the rest in Rb: TEX 2D (x, y | lod), 3D (x, y | z, lod), TLD 2D
 * (x | y) -- what ptxas writes (docs/findings-encoding.md). */
static int
sel_tex(Sel *s, const IrIns *x)
{
	const PtxInstr *in = &x->p;
	const PtxOperand *d = &in->opds[0], *a = &in->opds[1], *c;
	int nd = dims_of(in), fetch, k, n, nc, nw, na, nr = 0, need = 0;
	int level = ptx_has_mod(in, PTX_M_tlevel);
	const char *mask, *scr = s->sm >= 90 ? "" : ".SCR";
	char hs[32], t[128];
	MRef lo, hi = mref(s->mf->rz), ra, rb = mref(-1), w[4], r[6];
	u8 direct[4];
	Handle h;

	if (!nd)
		return sel_unsupported(s, "tex of layered, cube or multisample textures (.a1d .a2d .cube .acube .2dms .a2dms)");
	if (ptx_has_mod(in, PTX_M_tgrad))
		return sel_unsupported(s, "tex.grad");
	if (in->nopds != 2 + level || d->kind != PTX_OPD_VEC || d->nelems != 4 || in->vec != 4 || in->ntypes != 2 ||
	    a->kind != PTX_OPD_ADDR || a->nelems != 1)
		return sel_unsupported(s, "this form of tex (want tex{.level}.{1d,2d,3d}.v4.dtype.ctype d, [handle, {c}]{, lod})");
	if (ptx_type_size(in->types[0]) != 4)
		return sel_unsupported(s, "tex with results other than 32-bit");
	fetch = in->types[1] == PTX_T_S32;
	if (!fetch && in->types[1] != PTX_T_F32)
		return sel_unsupported(s, "tex coordinates other than .s32 and .f32");
	if (fetch && (nd == 3 || level))
		return sel_unsupported(s, nd == 3 ? "tex.3d with .s32 coordinates (tld of 3D)" : "tex.level with .s32 coordinates");
	c = &a->elems[0];
	if (c->kind == PTX_OPD_VEC ? c->nelems < nd : nd > 1)
		return sel_unsupported(s, "tex with too few coordinates");
	for (k = 0; k < 4; k++)
		if (d->elems[k].kind == PTX_OPD_REG && is_read(s, d->elems[k].reg))
			need = k + 1;
	if (handle(s, a, &h) < 0)
		return -1;
	/* the words: coordinates (a 1d sample as 2D), then TEX's level */
	nc = fetch || nd > 1 ? nd : 2;
	nw = nc + !fetch;
	na = s->sm >= 90 ? nc : (nw + 1) / 2;
	/* a word alone in Ra or Rb that is a fetch's coordinate or
	 * tex.level's level is that register (direct); the others are
	 * temporaries the words are moved into */
	memset(direct, 0, sizeof direct);
	if (na == 1)
		ra = sel_r32(s, c->kind == PTX_OPD_VEC ? &c->elems[0] : c, 0), direct[0] = 1;
	else
		ra = sel_tmp(s, s->sm >= 90 && nw == 4 ? 4 : 2);
	if (nw == na)
		;
	else if (fetch)
		rb = sel_r32(s, &c->elems[1], 0), direct[1] = 1;
	else if (s->sm >= 90 && nw == 4)
		rb = mpart(ra.v, 3, 1);
	else if (nw == na + 1 && level)
		rb = sel_r32(s, &in->opds[2], 0), direct[nc] = 1;
	else
		rb = sel_tmp(s, nw - na);
	for (k = 0; k < nw; k++) {
		MRef base = k < na ? ra : rb;
		w[k] = base.sub || s->mf->vr.v[base.v].w == 1 ? base : mpart(base.v, k < na ? k : k - na, 1);
	}
	for (k = 0; k < nc; k++)
		if (!direct[k])
			sel_mov32(s, w[k], k < nd ? sel_b32(s, c->kind == PTX_OPD_VEC ? &c->elems[k] : c, 0)
						  : mopd_reg(mref(s->mf->rz)));
	if (level && !direct[nc])
		sel_mov32(s, w[nc], sel_b32(s, &in->opds[2], 0));
	else if (!fetch && !level)
		mi(s->mf, "MOV %D, 0xc2000000", w[nc]);
	/* results: x, y in lo; z, w in hi */
	n = need <= 1 ? 1 : need == 2 ? 2 : 4;
	mask = n == 1 ? ", 0x1" : n == 2 ? ", 0x3" : s->sm >= 90 ? "" : ", 0xf";
	lo = sel_tmp(s, n == 1 ? 1 : 2);
	if (n == 4)
		hi = sel_tmp(s, 2);
	if (s->sm >= 90)
		str_printf(hs, sizeof hs, "%%U, 0x0");
	else
		str_printf(hs, sizeof hs, "0x0, 0x%x", h.idx);
	str_printf(t, sizeof t, "%s%s.%s %s, %%D, %%U%s, %s, %dD%s", fetch ? "TLD" : "TEX", scr, fetch ? "LZ" : "LL",
		 n == 4 ? "%D" : "RZ", rb.v >= 0 ? ", %U" : "", hs, nc, mask);
	if (n == 4)
		r[nr++] = hi;
	r[nr++] = lo;
	r[nr++] = ra;
	if (rb.v >= 0)
		r[nr++] = rb;
	if (s->sm >= 90)
		r[nr++] = h.ur;
	while (nr < 6)
		r[nr++] = mref(-1);
	mi(s->mf, t, r[0], r[1], r[2], r[3], r[4], r[5]);
	for (k = 0; k < need; k++) {
		MRef src = k < 2 ? (n == 1 ? lo : mpart(lo.v, k, 1)) : mpart(hi.v, k - 2, 1);
		if (d->elems[k].kind == PTX_OPD_REG)
			sel_mov32(s, sel_reg(s, d->elems[k].reg), mopd_reg(src));
	}
	return 0;
}

/* suld.b / sust.b */
static int
sel_surf(Sel *s, const IrIns *x)
{
	const PtxInstr *in = &x->p;
	int st = in->op == PTX_OP_sust, nd = dims_of(in), sz = ptx_type_size(in->types[0]);
	int nv = in->vec ? in->vec : 1, bytes = sz * nv, w = bytes <= 4 ? 1 : bytes / 4, k, j;
	const PtxOperand *a = &in->opds[st ? 0 : 1], *v = &in->opds[st ? 1 : 0], *c;
	const char *size = bytes == 1 ? ".U8" : bytes == 2 ? ".U16" : bytes == 8 ? ".64" : bytes == 16 ? ".128" : "";
	const char *mode = ptx_has_mod(in, PTX_M_zero) ? ".IGN" : ptx_has_mod(in, PTX_M_clamp) ? "" : ".TRAP";
	char t[128], hs[32];
	MRef co, data;
	Handle h;

	if (!nd)
		return sel_unsupported(s, st ? "sust of layered surfaces (.a1d .a2d)" : "suld of layered surfaces (.a1d .a2d)");
	if (!ptx_has_mod(in, PTX_M_b) || in->nopds != 2 || in->ntypes != 1 ||
	    a->kind != PTX_OPD_ADDR || a->nelems != 1 || (nv > 1 && sz != 4) || sz > 8 || bytes > 16)
		return sel_unsupported(s, st ? "this form of sust (want sust.b.{1d,2d,3d}[.v2/.v4 of b32].bN)"
					     : "this form of suld (want suld.b.{1d,2d,3d}[.v2/.v4 of b32].bN)");
	c = &a->elems[0];
	if (c->kind == PTX_OPD_VEC && c->nelems < nd)
		return sel_unsupported(s, "a surface access with too few coordinates");
	if (handle(s, a, &h) < 0)
		return -1;
	if (nd == 1)
		co = sel_r32(s, c->kind == PTX_OPD_VEC ? &c->elems[0] : c, 0);
	else {
		co = sel_tmp(s, nd == 3 ? 4 : 2);   /* x in bytes, y, z (3d: Ra+3 unused) */
		for (k = 0; k < nd; k++)
			sel_mov32(s, mpart(co.v, k, 1), sel_b32(s, c->kind == PTX_OPD_VEC ? &c->elems[k] : c, 0));
	}
	if (s->sm >= 90)
		str_printf(hs, sizeof hs, "%%U, 0x0");
	else
		str_printf(hs, sizeof hs, "0x0, 0x%x", h.idx);
	data = sel_tmp(s, w == 3 ? 4 : w);
	if (st) {
		/* the data registers, one 32-bit word at a time */
		for (k = j = 0; k < nv; k++) {
			const PtxOperand *e = v->kind == PTX_OPD_VEC ? &v->elems[k] : v;
			int p;
			for (p = 0; p < (sz + 3) / 4; p++, j++)
				sel_mov32(s, w == 1 ? data : mpart(data.v, j, 1), sel_b32(s, e, p));
		}
		str_printf(t, sizeof t, "SUST.D.BA.%dD%s.STRONG.SM%s [%%U], %%U, %s", nd, size, mode, hs);
		if (s->sm >= 90)
			mi(s->mf, t, co, data, h.ur);
		else
			mi(s->mf, t, co, data);
		return 0;
	}
	str_printf(t, sizeof t, "SULD.D.BA.%dD%s.STRONG.SM%s %%D, [%%U], %s", nd, size, mode, hs);
	if (s->sm >= 90)
		mi(s->mf, t, data, co, h.ur);
	else
		mi(s->mf, t, data, co);
	for (k = j = 0; k < nv; k++) {
		const PtxOperand *e = v->kind == PTX_OPD_VEC ? &v->elems[k] : v;
		int p;
		if (e->kind != PTX_OPD_REG) {
			j += (sz + 3) / 4;
			continue;
		}
		MRef r = sel_reg(s, e->reg);
		for (p = 0; p < (sz + 3) / 4; p++, j++)
			sel_mov32(s, s->mf->vr.v[r.v].w > 1 ? mpart(r.v, p, 1) : r,
				  mopd_reg(w == 1 ? data : mpart(data.v, j, 1)));
	}
	return 0;
}

const SelRule sel_rules_tex[] = {
	{PTX_OP_tex, sel_tex}, {PTX_OP_suld, sel_surf}, {PTX_OP_sust, sel_surf},
	{0, NULL},
};
