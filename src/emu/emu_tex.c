/* emu_tex.c -- TEX, TLD, SULD and SUST through texture/surface object
 * handles, with the model the PTX interpreter uses (src/run/tex.c).
 *
 *   sm_90: TEX.LL  Rd, Rd2, Ra, Rb, URh, 0x0, 2D[, mask]
 *          TLD.LZ  Rd, Rd2, Ra, URh, 0x0, 1D[, mask]
 *          SULD.D.BA.2D[.U8..128].STRONG.SM[.TRAP|.IGN] Rd, [Ra], URh, 0x0
 *          SUST.D.BA.2D[...] [Ra], Rb, URh, 0x0
 *   sm_80: the same with ".SCR" on TEX/TLD and "0x0, IDX" for "URh, 0x0":
 *          the handle is the word c[0x0][4 * IDX].
 * The handle's low 32 bits name the spec argument (launch_tex_arg).  The
 * geometry (1D, 2D, 3D) says where the coordinates are (h_tex); a
 * texture of fewer dimensions reads the first ones (ptxas samples a 1D
 * texture with a 2D TEX, y = 0).  The level of detail (TEX.LL's) is
 * ignored: textures have one level.  The enabled components of mask
 * (default 0xf) are written in order to Rd2, Rd2+1, Rd, Rd+1. */
#include "emu/emu_int.h"
#include "run/tex.h"

/* Index of the first operand after the registers: the handle. */
static const SpecArg *
object(Emu *E, Warp *w, const EInsn *I, int k, int surface)
{
	const Insn *in = &I->in;
	const Operand *o = &in->o[k];
	u32 h;
	int i;

	if (o->kind == OPK_UR && k + 1 < in->nops && in->o[k + 1].kind == OPK_IMM && !in->o[k + 1].imm)
		h = o->reg == URZ ? 0 : w->ur[o->reg];
	else if (o->kind == OPK_IMM && !o->imm && k + 1 < in->nops && in->o[k + 1].kind == OPK_IMM &&
		 in->o[k + 1].imm < 0x4000) {
		Operand c = {.kind = OPK_CB, .bank = 0, .imm = in->o[k + 1].imm * 4};
		h = e_cbank(E, w, 0, &c, 4);
	} else
		eunsup(E, I, "texture/surface handle operands");
	if ((i = launch_tex_arg(E->l, h, surface)) < 0)
		eerr(E, "%s: handle 0x%x is no %s of the spec", in->op, h, surface ? "surface" : "texture");
	return &E->l->spec->args[i];
}

/* The coordinate count of a geometry operand (1D 2D 3D), 0 for others. */
static int
geom_coords(const char *g)
{
	return !strcmp(g, "1D") ? 1 : !strcmp(g, "2D") ? 2 : !strcmp(g, "3D") ? 3 : 0;
}

/* TEX.LL / TLD.LZ (and .SCR).  The register operands after Rd, Rd2 are
 * Ra and, when present, Rb.  sm_90: the coordinates in Ra, Ra+1, ..,
 * TEX's level in Rb.  sm_80 (.SCR): the words (coordinates, then TEX's
 * level) are split, the first half (rounded up) in Ra, Ra+1, the rest in
 * Rb, Rb+1: TEX 2D (x, y | lod), 3D (x, y | z, lod), TLD 2D (x | y). */
static void
h_tex(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Insn *in = &I->in;
	const Operand *o = in->o;
	int tld = in->op[1] == 'L', scr = insn_has(in, "SCR");
	int k = 3, g, l, c, n, nc, nw, na;
	u32 mask = 0xf, dst[4];
	const SpecArg *a;
	void *data;

	while (k < in->nops && k < 4 && o[k].kind == OPK_R)
		k++;
	g = k + 2;
	if (in->nops < g + 1 || o[0].kind != OPK_R || o[1].kind != OPK_R || o[2].kind != OPK_R ||
	    o[g].kind != OPK_GEOM || !(nc = geom_coords(o[g].text)) || (tld && nc == 3))
		eunsup(E, I, "this texture instruction form");
	/* words in Ra.. and Rb..: the coordinates and TEX's level */
	nw = nc + !tld;
	na = scr ? (nw + 1) / 2 : nc;
	if ((k == 4) != (nw > na))
		eunsup(E, I, "this texture instruction form");
	if (in->nops > g + 1) {
		if (in->nops != g + 2 || o[g + 1].kind != OPK_IMM || !o[g + 1].imm || o[g + 1].imm > 0xf)
			eunsup(E, I, "this texture write mask");
		mask = (u32)o[g + 1].imm;
	}
	if (!gm)
		return;
	a = object(E, w, I, k, 0);
	data = E->l->data[a - E->l->spec->args];
	if (!tld && a->tex->linear)
		eerr(E, "%s: TEX with float coordinates on linear texture %s", in->op, a->name);
	if (a->tex->dims > nc)
		eerr(E, "%s: %dD access to texture %s of %d dimensions", in->op, nc, a->name, a->tex->dims);
	/* destinations of the enabled components, in order */
	for (c = n = 0; c < 4; c++)
		dst[c] = RZ;
	for (c = 0; c < 4; c++)
		if (mask >> c & 1) {
			int r = n < 2 ? o[1].reg : o[0].reg;
			dst[c] = r == RZ ? RZ : r + (n & 1);
			n++;
		}
	LANES(l, gm) {
		u32 out[4], v[3] = {0, 0, 0};
		int d;
		for (d = 0; d < a->tex->dims; d++) {
			int base = o[d < na ? 2 : 3].reg, r = base + (d < na ? d : d - na);
			v[d] = base == RZ || r >= RZ ? 0 : w->r[r][l];
		}
		if (tld)
			tex_fetch(a, data, (const i32 *)v, out);
		else {
			float f[3];
			memcpy(f, v, sizeof f);
			tex_sample(a, data, f, out);
		}
		for (c = 0; c < 4; c++)
			if (dst[c] != RZ)
				e_setr(w, l, (int)dst[c], out[c]);
	}
}

static int
surf_size(const Insn *in)
{
	return insn_has(in, "U8") || insn_has(in, "S8") ? 1 : insn_has(in, "U16") || insn_has(in, "S16") ? 2 :
	       insn_has(in, "64") ? 8 : insn_has(in, "128") ? 16 : 4;
}

/* SULD.D.BA / SUST.D.BA */
static void
h_surf(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	const Insn *in = &I->in;
	const Operand *o = in->o;
	int st = in->op[2] == 'S', n = surf_size(in), l, d, k;
	int mode = insn_has(in, "TRAP") ? SURF_TRAP : insn_has(in, "IGN") ? SURF_ZERO : SURF_CLAMP;
	int dims = insn_has(in, "1D") ? 1 : insn_has(in, "2D") ? 2 : insn_has(in, "3D") ? 3 : 0;
	int sgn = insn_has(in, "S8") || insn_has(in, "S16");
	const Operand *m = &o[st ? 0 : 1], *v = &o[st ? 1 : 0];
	const SpecArg *a;

	if (in->nops != 4 || !dims || !insn_has(in, "D") || !insn_has(in, "BA") || m->kind != OPK_MEM ||
	    m->rk != OPK_R || v->kind != OPK_R)
		eunsup(E, I, "this surface instruction form");
	if (!gm)
		return;
	a = object(E, w, I, 2, 1);
	if (dims != a->tex->dims)
		eerr(E, "%s: %dD access to surface %s of %d dimensions", in->op, dims, a->name, a->tex->dims);
	LANES(l, gm) {
		i64 c[3] = {0, 0, 0};
		u32 val[4] = {0, 0, 0, 0};
		for (d = 0; d < dims; d++)
			c[d] = m->reg + d >= RZ ? 0 : (i32)w->r[m->reg + d][l];
		if (st)
			for (k = 0; k < (n + 3) / 4; k++)
				val[k] = v->reg + k >= RZ ? 0 : w->r[v->reg + k][l];
		if (surf_access(a, E->l->data[a - E->l->spec->args], c[0], c[1], c[2], (u32)n, mode, val, st))
			eerr(E, "%s: surface %s access at byte %lld, row %lld, slice %lld (%d bytes) is out of range or misaligned",
			     in->op, a->name, (long long)c[0], (long long)c[1], (long long)c[2], n);
		if (st || v->reg == RZ)
			continue;
		if (n == 1 && sgn)
			val[0] = (u32)(i32)(signed char)val[0];
		else if (n == 2 && sgn)
			val[0] = (u32)(i32)(short)val[0];
		for (k = 0; k < (n + 3) / 4; k++)
			e_setr(w, l, v->reg + k, val[k]);
	}
}

Handler
emu_tex_handler(const char *op)
{
	if (!strcmp(op, "TEX") || !strcmp(op, "TLD"))
		return h_tex;
	if (!strcmp(op, "SULD") || !strcmp(op, "SUST"))
		return h_surf;
	return NULL;
}
