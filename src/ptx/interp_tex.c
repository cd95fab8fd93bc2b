/* interp_tex.c -- tex, suld.b and sust.b through texture and surface
 * objects (unified mode: the handle is a 64-bit register), with the
 * shared model of src/run/tex.c. */
#include <string.h>

#include "ptx/interp_int.h"
#include "run/tex.h"

/* The spec argument a handle names (ierr when it names none). */
static const SpecArg *
object(Interp *I, Thread *t, const PtxInstr *in, int surface)
{
	const PtxOperand *a = &in->opds[in->op == PTX_OP_sust ? 0 : 1];
	u64 h;
	int i;

	if (a->kind != PTX_OPD_ADDR || a->reg < 0 || a->nelems != 1)
		ierr(I, "%s: only [handle-register, {coordinates}] is supported (unified mode)",
		     ptx_op_name(in->op));
	h = opd_read(I, t, in, &(PtxOperand){.kind = PTX_OPD_REG, .reg = a->reg, .reg2 = -1}, PTX_T_B64);
	if ((i = launch_tex_arg(I->l, h, surface)) < 0)
		ierr(I, "%s: handle 0x%llx is no %s of the spec", ptx_op_name(in->op), (unsigned long long)h,
		     surface ? "surface" : "texture");
	return &I->spec->args[i];
}

/* Dimensions of the geometry modifier, or 0. */
static int
geometry(const PtxInstr *in)
{
	return ptx_has_mod(in, PTX_M_d1d) ? 1 : ptx_has_mod(in, PTX_M_d2d) ? 2 : ptx_has_mod(in, PTX_M_d3d) ? 3 : 0;
}

/* Coordinate k of the address's vector (a scalar counts as a vector of one). */
static const PtxOperand *
coord(Interp *I, const PtxInstr *in, const PtxOperand *a, int k)
{
	const PtxOperand *v = &a->elems[0];

	if (v->kind != PTX_OPD_VEC)
		return k ? (ierr(I, "%s: too few coordinates", ptx_op_name(in->op)), v) : v;
	if (k >= v->nelems)
		ierr(I, "%s: too few coordinates", ptx_op_name(in->op));
	return &v->elems[k];
}

void
exec_tex(Interp *I, Thread *t, const PtxInstr *in)
{
	const SpecArg *a = object(I, t, in, 0);
	int nd = geometry(in), ct = in->types[1], k;
	int level = ptx_has_mod(in, PTX_M_tlevel), grad = ptx_has_mod(in, PTX_M_tgrad);
	const PtxOperand *d = &in->opds[0];
	u32 out[4];

	/* tex.level's level of detail and tex.grad's gradients choose a mip
	 * level; the model's textures have one, so every level reads it */
	if (!nd || in->ntypes != 2 || in->vec != 4 || d->kind != PTX_OPD_VEC || d->nelems != 4 ||
	    in->nopds != 2 + level + 2 * grad || (level && grad) || ((level || grad) && ct != PTX_T_F32))
		ierr(I, "this form of tex is not supported (want tex{.level,.grad}.{1d,2d,3d}.v4.dtype.{s32,f32} d, [h, {c}]{, lod}{, dPdx, dPdy})");
	if (nd != a->tex->dims)
		ierr(I, "tex.%dd on texture %s of %d dimensions", nd, a->name, a->tex->dims);
	if (ct == PTX_T_S32) {
		i32 c[3] = {0, 0, 0};
		for (k = 0; k < nd; k++)
			c[k] = (i32)opd_read(I, t, in, coord(I, in, &in->opds[1], k), PTX_T_S32);
		tex_fetch(a, I->l->data[a - I->spec->args], c, out);
	} else if (ct == PTX_T_F32) {
		float c[3] = {0, 0, 0};
		if (a->tex->linear)
			ierr(I, "tex with float coordinates on linear texture %s (tex1Dfetch takes s32)", a->name);
		for (k = 0; k < nd; k++) {
			u32 b = (u32)opd_read(I, t, in, coord(I, in, &in->opds[1], k), PTX_T_F32);
			memcpy(&c[k], &b, 4);
		}
		tex_sample(a, I->l->data[a - I->spec->args], c, out);
	} else
		ierr(I, "tex coordinates of type %s are not supported", ptx_type_name(ct));
	for (k = 0; k < 4; k++)
		opd_write(I, t, &d->elems[k], in->types[0], out[k]);
}

/* suld.b / sust.b */
void
exec_surf(Interp *I, Thread *t, const PtxInstr *in)
{
	int st = in->op == PTX_OP_sust, nd = geometry(in), sz = ptx_type_size(in->types[0]);
	int nv = in->vec ? in->vec : 1, k;
	const SpecArg *a = object(I, t, in, 1);
	const PtxOperand *ad = &in->opds[st ? 0 : 1], *v = &in->opds[st ? 1 : 0];
	int mode = ptx_has_mod(in, PTX_M_zero) ? SURF_ZERO : ptx_has_mod(in, PTX_M_clamp) ? SURF_CLAMP : SURF_TRAP;
	i64 c[3] = {0, 0, 0};
	u8 buf[32];

	if (!ptx_has_mod(in, PTX_M_b) || !nd || in->ntypes != 1 || sz > 8 || in->nopds != 2)
		ierr(I, "this form of %s is not supported (want %s.b.{1d,2d,3d}[.vN].bN.mode)",
		     ptx_op_name(in->op), ptx_op_name(in->op));
	if (nd != a->tex->dims)
		ierr(I, "%s.%dd on surface %s of %d dimensions", ptx_op_name(in->op), nd, a->name, a->tex->dims);
	for (k = 0; k < nd; k++)
		c[k] = (i32)opd_read(I, t, in, coord(I, in, ad, k), PTX_T_S32);
	if (st)
		for (k = 0; k < nv; k++) {
			u64 x = opd_read(I, t, in, v->kind == PTX_OPD_VEC ? &v->elems[k] : v, in->types[0]);
			memcpy(buf + k * sz, &x, sz);
		}
	if (surf_access(a, I->l->data[a - I->spec->args], c[0], c[1], c[2], (u32)(sz * nv), mode, buf, st))
		ierr(I, "%s: surface %s access at byte %lld, row %lld, slice %lld (%d bytes) is out of range or misaligned",
		     ptx_op_name(in->op), a->name, (long long)c[0], (long long)c[1], (long long)c[2], sz * nv);
	if (st)
		I->writes++;
	else
		for (k = 0; k < nv; k++) {
			u64 x = 0;
			memcpy(&x, buf + k * sz, sz);
			opd_write(I, t, v->kind == PTX_OPD_VEC ? &v->elems[k] : v, in->types[0], x);
		}
}
