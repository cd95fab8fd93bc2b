/* brx.c -- brx.idx (an indexed branch through a .branchtargets list) as a
 * compare chain, before the CFG is built (ir_build), so every target is
 * an ordinary two-way branch:
 *
 *     @!g bra NEXT;  (unguarded: bra to the next instruction, dropped)
 *     setp.eq.u32 %pk, idx, k;  @%pk bra T[k];     k = 0 .. n-2
 *     bra T[n-1];                         (an index out of range is
 *   NEXT:                                  undefined in PTX)
 *
 * The predicates are new registers after the function's (nextra of them;
 * the caller gives them IR registers of type pred in that order). */
#include <string.h>

#include "ir/ir.h"

static PtxOperand
label_opd(int at)
{
	PtxOperand o;
	memset(&o, 0, sizeof o);
	o.kind = PTX_OPD_SYM;
	o.symkind = PTX_SYM_LABEL;
	o.index = at;
	o.reg = o.reg2 = -1;
	o.comp = -1;
	return o;
}

static PtxInstr
bra_to(const PtxInstr *like, Arena *a, int at, int guard, int neg)
{
	PtxInstr b;
	memset(&b, 0, sizeof b);
	b.op = PTX_OP_bra;
	b.guard = guard;
	b.guard_neg = (u8)neg;
	b.pos = like->pos;
	b.nopds = 1;
	b.opds = arena_alloc(a, sizeof(PtxOperand));
	b.opds[0] = label_opd(at);
	return b;
}

static int
brx_ntargets(const PtxFunc *fn, const PtxInstr *in)
{
	if (in->op != PTX_OP_brx_idx || in->nopds < 2 || in->opds[1].kind != PTX_OPD_SYM ||
	    in->opds[1].symkind != PTX_SYM_BTARGETS || in->opds[1].index < 0 ||
	    in->opds[1].index >= fn->nbtargets)
		return -1;
	return fn->btargets[in->opds[1].index].ntargets;
}

const PtxInstr *
ir_expand_brx(const PtxFunc *fn, Arena *a, int *ninstrs, int *nextra, const PtxInstr **bad)
{
	int n = fn->ninstrs, i, k, m = 0, extra = 0, *at;
	PtxInstr *out;

	*bad = NULL;
	*nextra = 0;
	*ninstrs = n;
	for (i = 0; i < n; i++)
		if (fn->instrs[i].op == PTX_OP_brx_idx) {
			int t = brx_ntargets(fn, &fn->instrs[i]);
			if (t < 1 || fn->instrs[i].opds[0].kind != PTX_OPD_REG) {
				*bad = &fn->instrs[i];
				return NULL;
			}
			m += 2 * t;
		} else {
			m++;
		}
	if (m == n)
		return fn->instrs;
	at = arena_alloc(a, sizeof(int) * (size_t)(n + 1));
	for (i = k = 0; i < n; i++) {   /* new index of every old instruction */
		at[i] = k;
		k += fn->instrs[i].op == PTX_OP_brx_idx ? 2 * brx_ntargets(fn, &fn->instrs[i]) : 1;
	}
	at[n] = k;
	out = arena_alloc(a, sizeof(PtxInstr) * (size_t)(m + 1));
	for (i = k = 0; i < n; i++) {
		const PtxInstr *in = &fn->instrs[i];
		const PtxBtargets *bt;
		int j, next;
		if (in->op != PTX_OP_brx_idx) {
			out[k] = *in;
			out[k].opds = arena_alloc(a, sizeof(PtxOperand) * (size_t)(in->nopds + 1));
			memcpy(out[k].opds, in->opds, sizeof(PtxOperand) * (size_t)in->nopds);
			for (j = 0; j < in->nopds; j++)
				if (in->opds[j].kind == PTX_OPD_SYM && in->opds[j].symkind == PTX_SYM_LABEL)
					out[k].opds[j].index = at[in->opds[j].index];
			k++;
			continue;
		}
		bt = &fn->btargets[in->opds[1].index];
		next = at[i + 1];
		/* a guard skips the chain; unguarded, this slot branches to the
		 * next instruction (isel drops such a branch) */
		out[k++] = bra_to(in, a, in->guard >= 0 ? next : at[i] + 1, in->guard, !in->guard_neg);
		for (j = 0; j + 1 < bt->ntargets; j++) {
			PtxInstr s;
			int p = fn->nregs + extra++;
			PtxType it = (PtxType)fn->regs[in->opds[0].reg].type;
			memset(&s, 0, sizeof s);
			s.op = PTX_OP_setp;
			s.guard = -1;
			s.ntypes = 1;
			s.types[0] = ptx_type_size(it) == 8 ? PTX_T_U64 : PTX_T_U32;
			s.cmp = PTX_CMP_EQ;
			s.pos = in->pos;
			s.nopds = 3;
			s.opds = arena_alloc(a, sizeof(PtxOperand) * 3);
			s.opds[0] = in->opds[0];
			s.opds[0].reg = p;
			s.opds[1] = in->opds[0];
			memset(&s.opds[2], 0, sizeof s.opds[2]);
			s.opds[2].kind = PTX_OPD_IMM;
			s.opds[2].imm = j;
			s.opds[2].reg = s.opds[2].reg2 = -1;
			s.opds[2].comp = -1;
			out[k++] = s;
			out[k++] = bra_to(in, a, at[bt->targets[j]], p, 0);
		}
		out[k++] = bra_to(in, a, at[bt->targets[bt->ntargets - 1]], -1, 0);
		if (k != next)
			die("ir_expand_brx: %d instructions where %d were planned", k - at[i], next - at[i]);
	}
	*ninstrs = m;
	*nextra = extra;
	return out;
}
