/* interp_wgmma.c -- sm_90a wgmma.mma_async in the interpreter.
 *
 * D (64 x N) = A (64 x K) * B (K x N) + D, for a warpgroup of 4 warps.
 * Warp w of the group owns rows 16w..16w+15 of A and D, so each warp is
 * computed on its own when its 32 lanes arrive (the other warps need not
 * wait).  The copy completes at issue, so wgmma.fence / commit_group /
 * wait_group are no-ops.
 *
 * A and B come from shared memory through 64-bit matrix descriptors in
 * the PTX ISA's canonical layouts, K-major or, with imm-trans = 1 (f16 and
 * bf16 only), MN-major: src/run/mma_desc.c, shared with the emulator.
 * The descriptor's base offset is assumed 0 (1024-byte aligned atoms).
 * A may also come from registers, laid out like mma.sync's A fragment for
 * the warp's 16 rows.  D: element j < N/2 of a lane (g = lane/4,
 * t = lane%4) is row 16w + g + 8*((j/2)%2), column 8*(j/4) + 2t + j%2
 * (f16 accumulators pack elements 2i, 2i+1 in register i).  Arithmetic as
 * mma.sync: exact products, one rounding per output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/interp_int.h"
#include "run/mma_desc.h"

static int
esize(int type)
{
	return type == PTX_T_TF32 ? 4 : type == PTX_T_F16 || type == PTX_T_BF16 ? 2 : 1;
}

static double
elem(int type, u64 bits)
{
	switch (type) {
	case PTX_T_F16: return widen(bits & 0xffff, FF_F16);
	case PTX_T_BF16: return widen(bits & 0xffff, FF_BF16);
	case PTX_T_TF32: return widen((u32)bits & 0xffffe000u, FF_F32);
	case PTX_T_E4M3: return widen(bits & 0xff, FF_E4M3);
	case PTX_T_E5M2: return widen(bits & 0xff, FF_E5M2);
	case PTX_T_S8: return (double)(int8_t)bits;
	case PTX_T_U8: return (double)(u8)bits;
	}
	return 0;
}

/* Element (r, k) of a matrix through a descriptor (mn: MN-major). */
static double
smem_elem(Interp *I, Thread *t, u64 desc, int mn, int type, int r, int k)
{
	int e = esize(type);

	return elem(type, mem_ld(I, t, PTX_S_SHARED, mma_desc_addr(desc, mn, r, k, e), e));
}

/* Position of element i of the A register fragment (rows of one warp). */
static void
a_reg_pos(int type, int lane, int i, int *r, int *c)
{
	int g = lane >> 2, t = lane & 3;

	if (type == PTX_T_F16 || type == PTX_T_BF16) {
		*r = g + 8 * ((i >> 1) & 1);
		*c = t * 2 + (i & 1) + 8 * (i >> 2);
	} else if (type == PTX_T_TF32) {
		*r = g + 8 * (i & 1);
		*c = t + 4 * (i >> 1);
	} else {
		*r = g + 8 * ((i >> 2) & 1);
		*c = t * 4 + (i & 3) + 16 * (i >> 3);
	}
}

static int
imm(Interp *I, Thread *t, const PtxInstr *in, int k, int dflt)
{
	return k < in->nopds ? (int)(i64)opd_read(I, t, in, &in->opds[k], PTX_T_S32) : dflt;
}

void
exec_wgmma(Interp *I, Thread **L, const PtxInstr *in)
{
	int dt = in->types[0], at = in->ntypes > 1 ? in->types[1] : PTX_T_F16;
	int bt = in->ntypes > 2 ? in->types[2] : at;
	int m = 0, n = 0, k = 0, l, i, j, kk, w = L[0]->warp % 4, areg, isint, ishalf;
	int sa = 1, sb = 1, ta = 0, tb = 0, scale_d;
	const PtxOperand *d = &in->opds[0], *ao = &in->opds[1];
	double A[16][32], *B, acc;
	u64 bdesc, adesc = 0;

	for (i = 0; i < in->nmods; i++)
		if (sscanf(ptx_mod_name(in->mods[i]), ".m%dn%dk%d", &m, &n, &k) == 3)
			break;
	if (m != 64 || n < 8 || n > 256 || n % 8 || k * esize(at) != 32)
		ierr(I, "wgmma.mma_async: unsupported shape or types");
	isint = at == PTX_T_S8 || at == PTX_T_U8;
	ishalf = at == PTX_T_F16 || at == PTX_T_BF16;
	areg = ao->kind == PTX_OPD_VEC;
	if (d->kind != PTX_OPD_VEC || d->nelems != (dt == PTX_T_F16 ? n / 4 : n / 2))
		ierr(I, "wgmma.mma_async: D must be a list of %d registers", dt == PTX_T_F16 ? n / 4 : n / 2);
	/* scale-d, imm-scale-a/b, imm-trans-a/b (f16/bf16 only; A from
	 * registers has no imm-trans-a) */
	scale_d = opd_read(I, L[0], in, &in->opds[3], PTX_T_PRED) != 0;
	if (!isint) {
		sa = imm(I, L[0], in, 4, 1);
		sb = imm(I, L[0], in, 5, 1);
	}
	if (ishalf) {
		ta = areg ? 0 : imm(I, L[0], in, 6, 0) != 0;
		tb = imm(I, L[0], in, areg ? 6 : 7, 0) != 0;
	}
	bdesc = opd_read(I, L[0], in, &in->opds[2], PTX_T_B64);
	if (!areg)
		adesc = opd_read(I, L[0], in, ao, PTX_T_B64);
	/* this warp's 16 rows of A */
	if (areg) {
		int per = 4 / esize(at);   /* elements per register: 8-bit (int and fp8) 4 */
		for (l = 0; l < 32; l++)
			for (i = 0; i < ao->nelems * per; i++) {
				u64 v = opd_read(I, L[l], in, &ao->elems[i / per], PTX_T_B32);
				int r, c;
				a_reg_pos(at, l, i, &r, &c);
				A[r][c] = elem(at, v >> (32 / per * (i % per)));
			}
	} else
		for (i = 0; i < 16; i++)
			for (kk = 0; kk < k; kk++) {
				I->cur = L[0];
				A[i][kk] = smem_elem(I, L[0], adesc, ta, at, 16 * w + i, kk);
			}
	B = xcalloc((size_t)k * n, sizeof *B);
	for (j = 0; j < n; j++)
		for (kk = 0; kk < k; kk++)
			B[kk * n + j] = smem_elem(I, L[0], bdesc, tb, bt, j, kk);
	for (l = 0; l < 32; l++) {
		Thread *t = L[l];
		int g = l >> 2, tq = l & 3;
		for (j = 0; j < n / 2; j++) {
			int r = g + 8 * ((j >> 1) & 1), c = 8 * (j >> 2) + 2 * tq + (j & 1);
			const PtxOperand *reg = &d->elems[dt == PTX_T_F16 ? j / 2 : j];
			u64 *dst, old;
			if (reg->kind != PTX_OPD_REG)
				continue;
			dst = &t->fr->regs[reg->reg];
			old = dt == PTX_T_F16 ? (*dst >> (16 * (j & 1))) & 0xffff : *dst;
			if (isint) {
				i64 s = scale_d ? (i64)(i32)old : 0;
				for (kk = 0; kk < k; kk++)
					s += (i64)A[r][kk] * (i64)B[kk * n + c];
				if (in->flags & PTX_F_SATFINITE)
					s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
				*dst = (u32)s;
				continue;
			}
			acc = !scale_d ? 0 : dt == PTX_T_F16 ? widen(old, FF_F16) : widen((u32)old, FF_F32);
			for (kk = 0; kk < k; kk++)
				acc += sa * A[r][kk] * sb * B[kk * n + c];
			if (dt == PTX_T_F16) {
				u64 h = round_to(acc, FF_F16, RND_RN, 0);
				*dst = (*dst & ~(0xffffull << (16 * (j & 1)))) | h << (16 * (j & 1));
			} else
				*dst = bits_f32((float)acc);
		}
	}
	free(B);
}
