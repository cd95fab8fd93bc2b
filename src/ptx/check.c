/* check.c -- semantic checks on a parsed PTX module: target features,
 * operand counts, operand kinds and register types against the
 * instruction type (PTX's relaxed type rules), vector sizes, state spaces
 * of addressed variables, directive conflicts, initializer masks.
 * ptxas is the arbiter: every rule here mirrors an error it reports
 * (see tests/ptx/invalid/). */
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include "ptx/ptxint.h"

typedef struct {
	PtxModule *m;
	PtxFunc *f;
	const PtxInstr *in;
	jmp_buf fail;
} C;

static _Noreturn void cerr(C *c, size_t pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void
cerr(C *c, size_t pos, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdiag_at(&c->m->src, pos, fmt, ap);
	va_end(ap);
	longjmp(c->fail, 1);
}

/* ---- target features ---- */

static const struct {
	u8 sm;     /* 0: any target */
	u8 arch_a; /* needs sm_90a */
} features[PTX_NOPS] = {
	[PTX_OP_wgmma_mma_async] = { 90, 1 }, [PTX_OP_wgmma_mma_async_sp] = { 90, 1 },
	[PTX_OP_wgmma_fence] = { 90, 1 }, [PTX_OP_wgmma_commit_group] = { 90, 1 },
	[PTX_OP_wgmma_wait_group] = { 90, 1 }, [PTX_OP_setmaxnreg] = { 90, 1 },
	[PTX_OP_cp_async_bulk] = { 90, 0 }, [PTX_OP_cp_async_bulk_tensor] = { 90, 0 },
	[PTX_OP_cp_async_bulk_commit_group] = { 90, 0 },
	[PTX_OP_cp_async_bulk_wait_group] = { 90, 0 },
	[PTX_OP_cp_async_bulk_prefetch] = { 90, 0 },
	[PTX_OP_cp_async_bulk_prefetch_tensor] = { 90, 0 },
	[PTX_OP_cp_reduce_async_bulk] = { 90, 0 },
	[PTX_OP_cp_reduce_async_bulk_tensor] = { 90, 0 },
	[PTX_OP_mbarrier_expect_tx] = { 90, 0 }, [PTX_OP_mbarrier_complete_tx] = { 90, 0 },
	[PTX_OP_mbarrier_try_wait] = { 90, 0 }, [PTX_OP_elect] = { 90, 0 },
	[PTX_OP_mapa] = { 90, 0 }, [PTX_OP_getctarank] = { 90, 0 },
	[PTX_OP_barrier_cluster_arrive] = { 90, 0 }, [PTX_OP_barrier_cluster_wait] = { 90, 0 },
	[PTX_OP_st_async] = { 90, 0 }, [PTX_OP_red_async] = { 90, 0 },
	[PTX_OP_griddepcontrol_launch_dependents] = { 90, 0 },
	[PTX_OP_griddepcontrol_wait] = { 90, 0 }, [PTX_OP_stmatrix] = { 90, 0 },
	[PTX_OP_fence_proxy_tensormap] = { 90, 0 }, [PTX_OP_multimem_ld_reduce] = { 90, 0 },
	[PTX_OP_multimem_st] = { 90, 0 }, [PTX_OP_multimem_red] = { 90, 0 },
	[PTX_OP_tensormap_replace] = { 90, 1 }, [PTX_OP_tensormap_cp_fenceproxy] = { 90, 0 },
	[PTX_OP_cp_async] = { 80, 0 }, [PTX_OP_cp_async_commit_group] = { 80, 0 },
	[PTX_OP_cp_async_wait_group] = { 80, 0 }, [PTX_OP_cp_async_wait_all] = { 80, 0 },
	[PTX_OP_cp_async_mbarrier_arrive] = { 80, 0 }, [PTX_OP_mbarrier_init] = { 80, 0 },
	[PTX_OP_mbarrier_arrive] = { 80, 0 }, [PTX_OP_mbarrier_test_wait] = { 80, 0 },
	[PTX_OP_redux] = { 80, 0 },
	[PTX_OP_clusterlaunchcontrol_try_cancel] = { 100, 0 },
	[PTX_OP_clusterlaunchcontrol_query_cancel] = { 100, 0 },
	[PTX_OP_st_bulk] = { 100, 0 },
};

static void
check_target(C *c, const PtxInstr *in)
{
	int sm = c->m->sm, need = features[in->op].sm;

	if (sm < need)
		cerr(c, in->pos, "%s requires sm_%d or higher (target is %s)",
		     ptx_op_name(in->op), need, c->m->target);
	if (features[in->op].arch_a && !(c->m->arch_a && sm == need))
		cerr(c, in->pos, "%s requires sm_%da (target is %s)",
		     ptx_op_name(in->op), need, c->m->target);
	if (sm < 90) {
		int k;
		for (k = 0; k < in->nspaces; k++)
			if (in->space[k] == PTX_S_SHARED_CLUSTER)
				cerr(c, in->pos, ".shared::cluster requires sm_90 or higher");
		if (in->op == PTX_OP_min || in->op == PTX_OP_max) {
			if (ptx_has_mod(in, PTX_M_relu) && !ptx_type_is_float(in->types[0]))
				cerr(c, in->pos, "%s.relu on integers requires sm_90 or higher",
				     ptx_op_name(in->op));
		}
	}
	if (sm < 86 && (in->flags & PTX_F_XORSIGN))
		cerr(c, in->pos, ".xorsign requires sm_86 or higher");
}

/* ---- operand roles ----
 * One letter per operand, in order; letters after '?' are optional.
 *   d  destination of the instruction type T      s  source of type T
 *   w  destination of twice T (.wide)             W  source of twice T
 *   P  predicate destination                      p  predicate source
 *   U  32-bit destination                          u  32-bit source
 *   a  address                                     x  anything
 * ld/st/cvt/atom/red allow registers wider than T (PTX's relaxed rule).
 * Indexed by the opcode: a check reads only the lines of its opcodes (a
 * table built at run time cost every compile ~45 fresh cache lines). */
static const char *const roletab[PTX_NOPS] = {
	[PTX_OP_add] = "dss", [PTX_OP_sub] = "dss", [PTX_OP_min] = "dss",
	[PTX_OP_max] = "dss", [PTX_OP_and] = "dss", [PTX_OP_or] = "dss",
	[PTX_OP_xor] = "dss", [PTX_OP_div] = "dss", [PTX_OP_rem] = "dss",
	[PTX_OP_copysign] = "dss", [PTX_OP_mul24] = "dss", [PTX_OP_addc] = "dss",
	[PTX_OP_subc] = "dss", [PTX_OP_sad] = "dsss", [PTX_OP_mad24] = "dsss",
	[PTX_OP_fma] = "dsss", [PTX_OP_madc] = "dsss",
	[PTX_OP_abs] = "ds", [PTX_OP_neg] = "ds", [PTX_OP_not] = "ds",
	[PTX_OP_cnot] = "ds", [PTX_OP_rcp] = "ds", [PTX_OP_sqrt] = "ds",
	[PTX_OP_rsqrt] = "ds", [PTX_OP_sin] = "ds", [PTX_OP_cos] = "ds",
	[PTX_OP_lg2] = "ds", [PTX_OP_ex2] = "ds", [PTX_OP_tanh] = "ds",
	[PTX_OP_brev] = "ds", [PTX_OP_popc] = "Us", [PTX_OP_clz] = "Us",
	[PTX_OP_bfind] = "Us", [PTX_OP_shl] = "dsu", [PTX_OP_shr] = "dsu",
	[PTX_OP_shf] = "dssu", [PTX_OP_bfe] = "dsuu", [PTX_OP_bfi] = "dssuu",
	[PTX_OP_prmt] = "dsss", [PTX_OP_lop3] = "dsssx", [PTX_OP_bmsk] = "dss",
	[PTX_OP_szext] = "dss", [PTX_OP_fns] = "dsss",
	[PTX_OP_setp] = "Pss?p", [PTX_OP_selp] = "dssp", [PTX_OP_testp] = "Ps",
	[PTX_OP_ld] = "da?x", [PTX_OP_ldu] = "da", [PTX_OP_st] = "as?x",
	[PTX_OP_cvt] = "ds", [PTX_OP_cvta] = "ds", [PTX_OP_isspacep] = "Px",
	[PTX_OP_shfl] = "dsuuu", [PTX_OP_activemask] = "U",
	[PTX_OP_bra] = "x", [PTX_OP_ret] = "", [PTX_OP_exit] = "",
	[PTX_OP_trap] = "", [PTX_OP_brkpt] = "",
	[PTX_OP_atom] = "das?sx", [PTX_OP_red] = "as?x",
	[PTX_OP_mov] = "ds", [PTX_OP_mul] = "dss", [PTX_OP_mad] = "dsss",
	[PTX_OP_bar_sync] = "u?u", [PTX_OP_bar_arrive] = "uu",
	[PTX_OP_barrier_sync] = "u?u", [PTX_OP_barrier_arrive] = "uu",
	[PTX_OP_bar_warp_sync] = "u", [PTX_OP_membar] = "", [PTX_OP_fence] = "",
	[PTX_OP_nanosleep] = "u", [PTX_OP_redux] = "dsu", [PTX_OP_match] = "Usu",
	[PTX_OP_vote] = "Ppu", [PTX_OP_mma] = "xxxx?xx",
	[PTX_OP_cp_async] = "aax?xx", [PTX_OP_cp_async_commit_group] = "",
	[PTX_OP_cp_async_wait_group] = "x", [PTX_OP_cp_async_wait_all] = "",
	[PTX_OP_cp_async_bulk_commit_group] = "", [PTX_OP_cp_async_bulk_wait_group] = "x",
	[PTX_OP_wgmma_fence] = "", [PTX_OP_wgmma_commit_group] = "",
	[PTX_OP_wgmma_wait_group] = "x", [PTX_OP_griddepcontrol_wait] = "",
	[PTX_OP_griddepcontrol_launch_dependents] = "", [PTX_OP_setmaxnreg] = "x",
	[PTX_OP_elect] = "Uu", [PTX_OP_brx_idx] = "ux", [PTX_OP_mbarrier_init] = "au",
};

/* Is a register of type rt acceptable where the instruction type is t? */
static int
type_compat(int t, int rt, int wider)
{
	int ts = ptx_type_size(t), rs = ptx_type_size(rt);

	if (t == PTX_T_PRED || rt == PTX_T_PRED)
		return t == rt;
	if (wider ? rs < ts : rs != ts)
		return 0;
	if (wider && rs > ts)
		return 1;
	/* same size: .bX matches anything; .fX needs .fX/.bX; .uX/.sX need
	 * .uX/.sX/.bX */
	if (t >= PTX_T_B8 && t <= PTX_T_B128)
		return 1;
	if (rt >= PTX_T_B8 && rt <= PTX_T_B128)
		return 1;
	if (ptx_type_is_float(t) || ptx_type_is_float(rt))
		return ptx_type_is_float(t) == ptx_type_is_float(rt) ||
		       t == PTX_T_F16X2 || t == PTX_T_BF16X2 || t == PTX_T_BF16 ||
		       rt == PTX_T_F16X2 || rt == PTX_T_BF16X2 || rt == PTX_T_BF16 ||
		       t == PTX_T_F16 || rt == PTX_T_F16;
	return 1;
}

static int
bit_type(int size)
{
	switch (size) {
	case 1: return PTX_T_B8;
	case 2: return PTX_T_B16;
	case 4: return PTX_T_B32;
	case 8: return PTX_T_B64;
	case 16: return PTX_T_B128;
	}
	return PTX_T_NONE;
}

static void
reg_role(C *c, const PtxOperand *o, int reg, int want, int wider, int idx)
{
	int rt = c->f->regs[reg].type;

	if (rt != want && !type_compat(want, rt, wider))   /* type_compat(t, t, w) is 1 */
		cerr(c, o->pos, "operand %d of %s: %s is .%s, expected %s%s register",
		     idx + 1, ptx_op_name(c->in->op), ptx_reg_name(c->f, reg),
		     ptx_type_name(rt), want == PTX_T_PRED ? "a" : "a .",
		     want == PTX_T_PRED ? " predicate" : ptx_type_name(want));
}

static void
check_opd(C *c, const PtxOperand *o, char role, int t, int wider, int idx)
{
	const PtxInstr *in = c->in;
	int want = t, i;
	int dest = role == 'd' || role == 'w' || role == 'P' || role == 'U';

	switch (role) {
	case 'w': case 'W': want = bit_type(2 * ptx_type_size(t)); break;
	case 'P': case 'p': want = PTX_T_PRED; break;
	case 'U': case 'u': want = PTX_T_U32; break;
	case 'a':
		if (o->kind != PTX_OPD_ADDR)
			cerr(c, o->pos, "operand %d of %s must be an address [...]", idx + 1,
			     ptx_op_name(in->op));
		return;
	case 'x':
		return;
	}
	if (!want)
		return;
	switch (o->kind) {
	case PTX_OPD_REG:
		reg_role(c, o, o->reg, want, wider, idx);
		if (o->reg2 >= 0 && role != 'P' && in->op != PTX_OP_shfl && in->op != PTX_OP_match &&
		    in->op != PTX_OP_elect)
			cerr(c, o->pos, "'|' is allowed only on predicate destinations");
		if (o->reg2 >= 0)
			reg_role(c, o, o->reg2, PTX_T_PRED, 0, idx);
		if (o->neg && (role != 'p'))
			cerr(c, o->pos, "'!' is allowed only on predicate sources");
		break;
	case PTX_OPD_IMM:
	case PTX_OPD_FIMM:
		if (dest)
			cerr(c, o->pos, "operand %d of %s must be a register", idx + 1,
			     ptx_op_name(in->op));
		if (want == PTX_T_PRED)
			break;
		if (o->kind == PTX_OPD_FIMM && !ptx_type_is_float(want) && want < PTX_T_B8)
			break;
		if (o->kind == PTX_OPD_FIMM && !ptx_type_is_float(want) &&
		    !(want >= PTX_T_B8 && want <= PTX_T_B128))
			cerr(c, o->pos, "float constant for an integer operand of %s",
			     ptx_op_name(in->op));
		if (o->kind == PTX_OPD_IMM && ptx_type_is_float(want))
			cerr(c, o->pos, "integer constant for a float operand of %s "
			     "(write 0f%s or a decimal with a point)", ptx_op_name(in->op),
			     "3F800000");
		break;
	case PTX_OPD_VEC:
		if (in->op != PTX_OP_ld && in->op != PTX_OP_st && in->op != PTX_OP_ldu &&
		    in->op != PTX_OP_mov && in->op != PTX_OP_atom && in->op != PTX_OP_red)
			cerr(c, o->pos, "unexpected vector operand for %s", ptx_op_name(in->op));
		if (in->op == PTX_OP_mov) {
			/* pack/unpack: each element a register (or, packing, a
			   constant) of an n-th of the size; ptxas counts a .pred as
			   4 bytes ("Incompatible elements of vector expression") */
			int sz = ptx_type_size(t);
			for (i = 0; i < o->nelems; i++) {
				const PtxOperand *e = &o->elems[i];
				int rt = e->kind == PTX_OPD_REG ? c->f->regs[e->reg].type : PTX_T_NONE;
				int es = rt == PTX_T_PRED ? 4 : rt != PTX_T_NONE ? ptx_type_size(rt) : sz / o->nelems;
				if (rt == PTX_T_PRED && es * o->nelems == sz)   /* ptxas takes it; we do not */
					cerr(c, e->pos, "unsupported: a predicate as an element of a mov vector");
				if (e->kind == PTX_OPD_REG && es * o->nelems != sz)
					cerr(c, e->pos, "%s is .%s: each element of a %d-element vector for .%s must have %d bytes",
					     ptx_reg_name(c->f, e->reg), ptx_type_name(rt), o->nelems,
					     ptx_type_name(t), sz / o->nelems);
			}
			break;
		}
		if (o->nelems != in->vec)
			cerr(c, o->pos, "vector of %d elements for .v%d", o->nelems, in->vec);
		for (i = 0; i < o->nelems; i++)
			check_opd(c, &o->elems[i], role, t, wider, idx);
		break;
	case PTX_OPD_SINK:
		if (!dest)
			cerr(c, o->pos, "'_' is allowed only as a destination");
		cerr(c, o->pos, "'_' (discard) is not allowed for %s", ptx_op_name(in->op));
	case PTX_OPD_ADDR:
		cerr(c, o->pos, "operand %d of %s cannot be an address", idx + 1,
		     ptx_op_name(in->op));
	case PTX_OPD_SREG:
		if (dest)
			cerr(c, o->pos, "cannot write special register %s", ptx_sreg_name(o->sreg));
		if (want != PTX_T_PRED && in->op == PTX_OP_mov &&
		    ptx_type_size(want) != (o->sreg == PTX_SR_clock64 ||
					    o->sreg == PTX_SR_globaltimer || o->sreg == PTX_SR_gridid ||
					    (o->sreg >= PTX_SR_pm0_64 && o->sreg <= PTX_SR_pm7_64) ||
					    o->sreg == PTX_SR_current_graph_exec ? 8 : 4) &&
		    !(o->comp < 0 && ptx_sreg_ncomp(o->sreg)))
			cerr(c, o->pos, "%s%s%s has a different size than .%s", ptx_sreg_name(o->sreg),
			     o->comp >= 0 ? "." : "", o->comp >= 0 ? (const char[]){ "xyzw"[o->comp], 0 } : "",
			     ptx_type_name(want));
		break;
	case PTX_OPD_SYM:
		if (dest)
			cerr(c, o->pos, "operand %d of %s must be a register", idx + 1,
			     ptx_op_name(in->op));
		break;
	}
}

static int
instr_type(const PtxInstr *in)
{
	if (in->op == PTX_OP_setp && in->ntypes)
		return in->types[0];
	if (in->op == PTX_OP_cvt || in->op == PTX_OP_atom || in->op == PTX_OP_red)
		return in->types[0];
	return in->ntypes == 1 ? in->types[0] : PTX_T_NONE;
}

/* slct.dtype.ctype d, a, b, c (c of ctype) and dp4a/dp2a.atype.btype d, a,
 * b, c (d and c .u32 when both are unsigned, else .s32): the generic
 * check sees no one type. */
static void
check_two_types(C *c, const PtxInstr *in)
{
	int t0, t1, dt;

	if (in->ntypes != 2 || in->nopds != 4)
		return;
	t0 = in->types[0], t1 = in->types[1];
	if (in->op == PTX_OP_slct) {
		check_opd(c, &in->opds[0], 'd', t0, 0, 0);
		check_opd(c, &in->opds[1], 's', t0, 0, 1);
		check_opd(c, &in->opds[2], 's', t0, 0, 2);
		check_opd(c, &in->opds[3], 's', t1, 0, 3);
		return;
	}
	dt = t0 == PTX_T_U32 && t1 == PTX_T_U32 ? PTX_T_U32 : PTX_T_S32;
	check_opd(c, &in->opds[0], 'd', dt, 0, 0);
	check_opd(c, &in->opds[1], 's', t0, 0, 1);
	check_opd(c, &in->opds[2], 's', t1, 0, 2);
	check_opd(c, &in->opds[3], 's', dt, 0, 3);
}

/* setp/set: the comparison must fit the compared type (ptxas: "Mismatch
 * between instruction type and comparison qualifier"): bit types eq/ne,
 * signed eq..ge, unsigned also lo/ls/hi/hs, floats everything but those. */
static void
check_cmp(C *c, const PtxInstr *in)
{
	int t = in->op == PTX_OP_set ? (in->ntypes > 1 ? in->types[1] : PTX_T_NONE) : in->types[0];
	int k = in->cmp, uns = k == PTX_CMP_LO || k == PTX_CMP_LS || k == PTX_CMP_HI || k == PTX_CMP_HS;
	int ord = k >= PTX_CMP_LT && k <= PTX_CMP_GE, ok;

	if (t == PTX_T_NONE || k == PTX_CMP_NONE)
		return;
	if (ptx_type_is_float(t))
		ok = !uns;
	else if (t == PTX_T_B8 || t == PTX_T_B16 || t == PTX_T_B32 || t == PTX_T_B64)
		ok = k == PTX_CMP_EQ || k == PTX_CMP_NE;
	else
		ok = k == PTX_CMP_EQ || k == PTX_CMP_NE || ord || (uns && !ptx_type_is_signed(t));
	if (!ok)
		cerr(c, in->pos, "this comparison does not apply to .%s", ptx_type_name(t));
}

static void
check_cvt(C *c, const PtxInstr *in)
{
	int d, s, df, sf;

	if (in->ntypes != 2 || ptx_has_mod(in, PTX_M_pack))
		return;
	d = in->types[0];
	s = in->types[1];
	if (d == PTX_T_F16X2 || d == PTX_T_BF16X2 || d == PTX_T_E4M3X2 ||
	    d == PTX_T_E5M2X2 || s == PTX_T_E4M3X2 || s == PTX_T_E5M2X2 || d == PTX_T_TF32) {
		/* a pair packed from two f32 values takes both, the rest one source */
		int want = d != PTX_T_TF32 && s == PTX_T_F32 ? 3 : 2;
		int i;
		if (in->nopds != want)
			cerr(c, in->pos, "cvt.%s.%s takes %d operands, %d given", ptx_type_name(d),
			     ptx_type_name(s), want, in->nopds);
		check_opd(c, &in->opds[0], 'd', d, 1, 0);
		for (i = 1; i < want; i++)
			check_opd(c, &in->opds[i], 's', s, 1, i);
		return;
	}
	if (in->nopds != 2)
		cerr(c, in->pos, "cvt takes 2 operands, %d given", in->nopds);
	df = ptx_type_is_float(d);
	sf = ptx_type_is_float(s);
	check_opd(c, &in->opds[0], 'd', d, 1, 0);
	check_opd(c, &in->opds[1], 's', s, 1, 1);
	if (df && !sf && !in->rnd)
		cerr(c, in->pos, "cvt from an integer to a float type needs a rounding "
		     "modifier (.rn, .rz, .rm, .rp)");
	if (!df && sf && !in->rnd)
		cerr(c, in->pos, "cvt from a float to an integer type needs an integer "
		     "rounding modifier (.rni, .rzi, .rmi, .rpi)");
	if (df && sf && ptx_type_size(d) < ptx_type_size(s) && !in->rnd)
		cerr(c, in->pos, "narrowing float cvt needs a rounding modifier");
	if (!df && sf && in->rnd && in->rnd < PTX_RND_RNI)
		cerr(c, in->pos, "float-to-integer cvt needs an integer rounding "
		     "modifier (.rni, .rzi, .rmi, .rpi)");
	if (!df && !sf && in->rnd)
		cerr(c, in->pos, "integer cvt takes no rounding modifier");
}

/* cvt.pack.sat.{u16,s16}.s32 d, a, b and cvt.pack.sat.{u8,s8,u4,s4}.s32.b32
 * d, a, b, c: the only forms (ptxas: "Unexpected instruction types"). */
static void
check_cvt_pack(C *c, const PtxInstr *in)
{
	int d = in->ntypes ? in->types[0] : PTX_T_NONE, three = in->ntypes == 3;

	if (in->ntypes < 2 || in->types[1] != PTX_T_S32 || (three && in->types[2] != PTX_T_B32) ||
	    (three ? d != PTX_T_U8 && d != PTX_T_S8 && d != PTX_T_U4 && d != PTX_T_S4 :
		     in->ntypes != 2 || (d != PTX_T_U16 && d != PTX_T_S16)))
		cerr(c, in->pos, "cvt.pack takes .sat.{u16,s16}.s32 or .sat.{u8,s8,u4,s4}.s32.b32");
	if (!(in->flags & PTX_F_SAT))
		cerr(c, in->pos, "cvt.pack needs .sat");
	if (in->nopds != 3 + three)
		cerr(c, in->pos, "cvt.pack%s takes %d operands, %d given", three ? " to 8 or 4 bits" : "",
		     3 + three, in->nopds);
}

static void
check_addr_space(C *c, const PtxInstr *in, const PtxOperand *o)
{
	int s = in->nspaces ? in->space[0] : PTX_S_GENERIC, vs;

	if (o->kind != PTX_OPD_ADDR || !o->var)
		return;
	vs = o->var->space;
	if (s == PTX_S_GENERIC || s == vs)
		return;
	if ((s == PTX_S_SHARED || s == PTX_S_SHARED_CLUSTER) &&
	    (vs == PTX_S_SHARED || vs == PTX_S_SHARED_CLUSTER))
		return;
	cerr(c, o->pos, "%s is a .%s variable, but the access is .%s", o->var->name,
	     ptx_space_name(vs), ptx_space_name(s));
}

static void
check_memop(C *c, const PtxInstr *in)
{
	int i;

	for (i = 0; i < in->nopds; i++)
		if (in->opds[i].kind == PTX_OPD_ADDR)
			check_addr_space(c, in, &in->opds[i]);
	if ((in->op == PTX_OP_st || in->op == PTX_OP_atom || in->op == PTX_OP_red) &&
	    in->nspaces && in->space[0] == PTX_S_CONST)
		cerr(c, in->pos, "cannot write to the .const state space");
	if (in->op == PTX_OP_st && in->nopds >= 1 && in->opds[0].kind == PTX_OPD_ADDR &&
	    in->opds[0].var && in->opds[0].var >= c->f->params &&
	    in->opds[0].var < c->f->params + c->f->nparams)
		cerr(c, in->opds[0].pos, "cannot write to the input parameter '%s'",
		     in->opds[0].var->name);
	if ((in->op == PTX_OP_ld || in->op == PTX_OP_st) && in->ntypes != 1)
		cerr(c, in->pos, "%s needs exactly one type", ptx_op_name(in->op));
	if ((in->op == PTX_OP_ld || in->op == PTX_OP_st) && in->nopds >= 2) {
		const PtxOperand *a = &in->opds[in->op == PTX_OP_ld ? 1 : 0];
		if (a->kind == PTX_OPD_ADDR && a->reg < 0 && !a->sym &&
		    !(in->nspaces && in->space[0] == PTX_S_LOCAL))
			cerr(c, a->pos, "immediate addresses are allowed only for .local");
		if (in->vec > 1 && in->opds[in->op == PTX_OP_ld ? 0 : 1].kind != PTX_OPD_VEC)
			cerr(c, in->opds[in->op == PTX_OP_ld ? 0 : 1].pos,
			     ".v%d needs a vector operand {...}", in->vec);
		if (in->vec * ptx_type_size(in->types[0]) > 16)
			cerr(c, in->pos, "vector access wider than 128 bits");
	}
}

/* call arguments and return slots against the formal parameters: same
 * size ("Type of argument does not match formal parameter" in ptxas) */
static void
check_args(C *c, const PtxOperand *list, const PtxVar *formal, const char *fname)
{
	int i;

	for (i = 0; i < list->nelems; i++) {
		const PtxOperand *o = &list->elems[i];
		u64 have;

		if (o->kind == PTX_OPD_SYM && o->var) {
			if (o->var->space != PTX_S_PARAM)
				cerr(c, o->pos, "argument %s of a call must be a .param variable",
				     o->var->name);
			have = o->var->size;
		} else if (o->kind == PTX_OPD_REG) {
			have = (u64)ptx_type_size(c->f->regs[o->reg].type);
		} else if (o->kind == PTX_OPD_IMM || o->kind == PTX_OPD_FIMM) {
			continue;
		} else {
			cerr(c, o->pos, "bad call argument");
		}
		if (have != formal[i].size)
			cerr(c, o->pos, "argument %d of the call to %s is %llu bytes, the parameter "
			     "%s is %llu", i + 1, fname, (unsigned long long)have, formal[i].name,
			     (unsigned long long)formal[i].size);
	}
}

/* ldmatrix/stmatrix .xN: N 32-bit registers */
static void
check_matrix(C *c, const PtxInstr *in)
{
	int n = ptx_has_mod(in, PTX_M_x1) ? 1 : ptx_has_mod(in, PTX_M_x2) ? 2 :
		ptx_has_mod(in, PTX_M_x4) ? 4 : 0, i;
	const PtxOperand *v;

	if (!n || in->nopds != 2)
		cerr(c, in->pos, "%s needs .x1, .x2 or .x4 and 2 operands", ptx_op_name(in->op));
	v = &in->opds[in->op == PTX_OP_ldmatrix ? 0 : 1];
	if (v->kind != PTX_OPD_VEC || v->nelems != n)
		cerr(c, v->pos, "%s.x%d needs a vector of %d registers", ptx_op_name(in->op), n, n);
	for (i = 0; i < n; i++)
		if (v->elems[i].kind != PTX_OPD_REG ||
		    ptx_type_size(c->f->regs[v->elems[i].reg].type) != 4)
			cerr(c, v->elems[i].pos, "%s operands are 32-bit registers",
			     ptx_op_name(in->op));
	if (in->opds[in->op == PTX_OP_ldmatrix ? 1 : 0].kind != PTX_OPD_ADDR)
		cerr(c, in->opds[in->op == PTX_OP_ldmatrix ? 1 : 0].pos,
		     "%s needs an address", ptx_op_name(in->op));
}

static int
elem_bits(int t)
{
	switch (t) {
	case PTX_T_B1: return 1;
	case PTX_T_S4: case PTX_T_U4: return 4;
	case PTX_T_S8: case PTX_T_U8: case PTX_T_E4M3: case PTX_T_E5M2: return 8;
	case PTX_T_F16: case PTX_T_BF16: return 16;
	case PTX_T_TF32: case PTX_T_F32: case PTX_T_S32: return 32;
	case PTX_T_F64: return 64;
	}
	return 0;
}

/* registers per thread for an R x C fragment of E-bit elements */
static int
frag_regs(int r, int c, int e)
{
	int per_thread = r * c / 32;

	return e >= 32 ? per_thread : per_thread * e / 32;
}

static void
check_frag(C *c, const PtxOperand *o, int want, int bits, const char *what)
{
	int i, size = bits == 64 ? 8 : 4;

	if (o->kind != PTX_OPD_VEC || o->nelems != want)
		cerr(c, o->pos, "mma %s needs a vector of %d registers", what, want);
	for (i = 0; i < o->nelems; i++)
		if (o->elems[i].kind == PTX_OPD_REG &&
		    ptx_type_size(c->f->regs[o->elems[i].reg].type) != size)
			cerr(c, o->elems[i].pos, "mma %s elements are %d-bit registers", what, 8 * size);
}

/* mma.sync.aligned.mMnNkK.{layouts}.D.A.B.C d, a, b, c: fragment sizes */
static void
check_mma(C *c, const PtxInstr *in)
{
	int i, m = 0, n = 0, k = 0, da, db, dd, ea, ed, ec;

	if (in->nopds != 4 || in->ntypes < 3 || ptx_has_mod(in, PTX_M_sp) ||
	    ptx_has_mod(in, PTX_M_sp_ordered_metadata))
		return;
	for (i = 0; i < in->nmods; i++)
		if (sscanf(ptx_mod_name(in->mods[i]), ".m%dn%dk%d", &m, &n, &k) == 3)
			break;
	if (i == in->nmods || m <= 0 || n <= 0 || k <= 0 || m > 64 || n > 64 || k > 256)
		cerr(c, in->pos, "mma needs a shape like .m16n8k16");
	ed = elem_bits(in->types[0]);
	ea = elem_bits(in->types[1]);
	ec = elem_bits(in->types[in->ntypes == 4 ? 3 : 0]);
	if (!ed || !ea || !ec)
		return;
	if (m == 8 && n == 8 && k == 4 && ea == 16) {
		/* the Volta quad-pair shape */
		da = db = 2;
		dd = ed == 32 ? 8 : 4;
	} else {
		da = frag_regs(m, k, ea);
		db = frag_regs(n, k, ea);
		dd = frag_regs(m, n, ed);
	}
	if (!da || !db || !dd)
		return;
	check_frag(c, &in->opds[0], dd, ed, "D");
	check_frag(c, &in->opds[1], da, ea, "A");
	check_frag(c, &in->opds[2], db, ea, "B");
	check_frag(c, &in->opds[3], m == 8 && n == 8 && k == 4 && ea == 16 ?
		   (ec == 32 ? 8 : 4) : frag_regs(m, n, ec), ec, "C");
}

/* wgmma.mma_async.sync.aligned.m64nNkK.D.A.B d, a-desc|{a}, b-desc, ... */
static void
check_wgmma(C *c, const PtxInstr *in)
{
	int i, m = 0, n = 0, k = 0, ed, want;
	const PtxOperand *a, *b;

	for (i = 0; i < in->nmods; i++)
		if (sscanf(ptx_mod_name(in->mods[i]), ".m%dn%dk%d", &m, &n, &k) == 3)
			break;
	if (i == in->nmods || m != 64 || n < 8 || n > 256 || n % 8)
		cerr(c, in->pos, "wgmma needs a shape .m64nNkK with N a multiple of 8 up to 256");
	if (in->nopds < 4 || in->ntypes < 3)
		cerr(c, in->pos, "wgmma.mma_async needs d, a, b and scale-d operands");
	ed = elem_bits(in->types[0]);
	want = ed == 16 ? n / 4 : n / 2;
	if (in->opds[0].kind != PTX_OPD_VEC || in->opds[0].nelems != want)
		cerr(c, in->opds[0].pos, "wgmma .m64n%d with .%s accumulators needs %d registers in d",
		     n, ptx_type_name(in->types[0]), want);
	a = &in->opds[1];
	b = &in->opds[2];
	if (!(a->kind == PTX_OPD_VEC && a->nelems == 4) &&
	    !(a->kind == PTX_OPD_REG && ptx_type_size(c->f->regs[a->reg].type) == 8))
		cerr(c, a->pos, "wgmma a is a 64-bit descriptor or a vector of 4 registers");
	if (!(b->kind == PTX_OPD_REG && ptx_type_size(c->f->regs[b->reg].type) == 8))
		cerr(c, b->pos, "wgmma b is a 64-bit descriptor register");
}

/* cp.async.{ca,cg}.shared.global [dst], [src], cp-size{, src-size} */
static void
check_cp_async(C *c, const PtxInstr *in)
{
	const PtxOperand *sz = &in->opds[2];

	if (sz->kind != PTX_OPD_IMM || (sz->imm != 4 && sz->imm != 8 && sz->imm != 16))
		cerr(c, sz->pos, "cp.async copy size must be 4, 8 or 16");
	if (in->cache == PTX_CACHE_CG && sz->imm != 16)
		cerr(c, sz->pos, "cp.async.cg copies 16 bytes");
}

/* The operands (a bit each) that may be predicate registers; all for the
 * operations whose own checks type every operand.  A predicate paired
 * with a destination (`d|p`) is always allowed. */
static unsigned
pred_slots(const PtxInstr *in)
{
	switch (in->op) {
	case PTX_OP_setp: case PTX_OP_set: case PTX_OP_selp: case PTX_OP_and: case PTX_OP_or:
	case PTX_OP_xor: case PTX_OP_not: case PTX_OP_mov: case PTX_OP_vote:
	case PTX_OP_wgmma_mma_async: case PTX_OP_call:
		return ~0u;
	case PTX_OP_mbarrier_try_wait: case PTX_OP_mbarrier_test_wait: case PTX_OP_testp:
	case PTX_OP_isspacep: case PTX_OP_istypep:
		return 1;
	case PTX_OP_cp_async:   /* cp.async [d], [s], size, ignore-src */
		return 1u << 3;
	case PTX_OP_bar_red: case PTX_OP_barrier_red:   /* .and/.or.pred d, a, {!}c; .popc.u32 d, a, {!}c */
		return (in->ntypes && in->types[0] == PTX_T_PRED) | 1u << (in->nopds - 1);
	default:
		return 0;
	}
}

/* A predicate register in o (a vector's elements, an address's base)? */
static const PtxOperand *
pred_in(C *c, const PtxOperand *o)
{
	int i;

	if ((o->kind == PTX_OPD_REG || o->kind == PTX_OPD_ADDR) && o->reg >= 0 &&
	    c->f->regs[o->reg].type == PTX_T_PRED)
		return o;
	if (o->kind == PTX_OPD_VEC || o->kind == PTX_OPD_ADDR)
		for (i = 0; i < o->nelems; i++)
			if (pred_in(c, &o->elems[i]))
				return &o->elems[i];
	return NULL;
}

static void
check_operands(C *c, const PtxInstr *in)
{
	const char *roles = roletab[in->op];
	int t = instr_type(in), i, min = 0, max = 0, wider, k;

	if (in->op == PTX_OP_vote && in->mode == PTX_MODE_BALLOT)
		roles = "Upu";

	c->in = in;
	check_target(c, in);
	if (in->guard >= 0 && c->f->regs[in->guard].type != PTX_T_PRED)
		cerr(c, in->pos, "guard %s is not a predicate", ptx_reg_name(c->f, in->guard));
	for (i = 0; i < in->nopds; i++) {
		const PtxOperand *o = &in->opds[i];
		if (o->kind == PTX_OPD_SYM && o->symkind == PTX_SYM_LABEL &&
		    in->op != PTX_OP_bra && in->op != PTX_OP_brx_idx && in->op != PTX_OP_mov)
			cerr(c, o->pos, "label %s used as an operand of %s", o->sym,
			     ptx_op_name(in->op));
		if (o->kind == PTX_OPD_ADDR && o->reg >= 0 &&
		    (c->f->regs[o->reg].type == PTX_T_PRED || ptx_type_is_float(c->f->regs[o->reg].type)))
			cerr(c, o->pos, "%s is .%s: an address needs an integer or bit-size register",
			     ptx_reg_name(c->f, o->reg), ptx_type_name(c->f->regs[o->reg].type));
	}
	if (in->op == PTX_OP_bra &&
	    (in->nopds != 1 || in->opds[0].kind != PTX_OPD_SYM ||
	     in->opds[0].symkind != PTX_SYM_LABEL))
		cerr(c, in->nopds ? in->opds[0].pos : in->pos, "bra needs a label");
	if (in->op == PTX_OP_call && in->opds[1].kind == PTX_OPD_SYM &&
	    in->opds[1].symkind != PTX_SYM_FUNC)
		cerr(c, in->opds[1].pos, "call target %s is not a function", in->opds[1].sym);
	if (in->op == PTX_OP_call && in->opds[1].kind == PTX_OPD_SYM) {
		const PtxFunc *g = c->m->funcs[in->opds[1].index];
		if (g->is_entry)
			cerr(c, in->opds[1].pos, "cannot call the kernel %s", g->name);
		if (in->opds[2].nelems != g->nparams)
			cerr(c, in->opds[2].pos, "%s takes %d arguments, %d given", g->name,
			     g->nparams, in->opds[2].nelems);
		if (in->opds[0].nelems != g->nrets)
			cerr(c, in->opds[0].pos, "%s returns %d values, %d expected", g->name,
			     g->nrets, in->opds[0].nelems);
		check_args(c, &in->opds[2], g->params, g->name);
		check_args(c, &in->opds[0], g->rets, g->name);
	}
	if (in->op == PTX_OP_call && in->nopds == 4 && in->opds[3].symkind == PTX_SYM_PROTO) {
		const PtxProto *pr = &c->f->protos[in->opds[3].index];
		if (in->opds[2].nelems != pr->nparams)
			cerr(c, in->opds[2].pos, "prototype %s takes %d arguments, %d given",
			     pr->name, pr->nparams, in->opds[2].nelems);
		if (in->opds[0].nelems != pr->nrets)
			cerr(c, in->opds[0].pos, "prototype %s returns %d values, %d expected",
			     pr->name, pr->nrets, in->opds[0].nelems);
		check_args(c, &in->opds[2], pr->params, pr->name);
		check_args(c, &in->opds[0], pr->rets, pr->name);
	}
	switch (in->op) {   /* the checks of one operation each */
	case PTX_OP_ld: case PTX_OP_st: case PTX_OP_atom: case PTX_OP_red: case PTX_OP_ldu:
		check_memop(c, in);
		break;
	case PTX_OP_cvt:
		check_cvt(c, in);
		return;
	case PTX_OP_cvt_pack:
		check_cvt_pack(c, in);
		return;
	case PTX_OP_setp: case PTX_OP_set:
		if (in->ntypes)
			check_cmp(c, in);
		if (in->op == PTX_OP_set && in->ntypes != 2)
			cerr(c, in->pos, "set takes a destination type and a source type (set.cmp.dtype.stype)");
		if (in->op == PTX_OP_set && in->ntypes == 2 && in->nopds >= 3) {
			/* set.cmp.dtype.stype d, a, b[, c]: the generic check sees no one type */
			check_opd(c, &in->opds[0], 'd', in->types[0], 0, 0);
			check_opd(c, &in->opds[1], 's', in->types[1], 0, 1);
			check_opd(c, &in->opds[2], 's', in->types[1], 0, 2);
			if (in->nopds > 3)
				check_opd(c, &in->opds[3], 'p', PTX_T_PRED, 0, 3);
		}
		break;
	case PTX_OP_slct: case PTX_OP_dp4a: case PTX_OP_dp2a:
		check_two_types(c, in);
		break;
	case PTX_OP_mbarrier_test_wait: case PTX_OP_mbarrier_try_wait: case PTX_OP_istypep:
		if (in->nopds >= 1)   /* waitComplete / the answer: a predicate */
			check_opd(c, &in->opds[0], 'P', PTX_T_PRED, 0, 0);
		break;
	case PTX_OP_ldmatrix: case PTX_OP_stmatrix:
		check_matrix(c, in);
		break;
	case PTX_OP_mma:
		check_mma(c, in);
		break;
	case PTX_OP_cvta:
		if ((in->flags & PTX_F_TO) && in->nopds == 2 && in->opds[1].kind != PTX_OPD_REG)
			cerr(c, in->opds[1].pos, "cvta.to needs a register source");
		break;
	case PTX_OP_wgmma_mma_async:
		check_wgmma(c, in);
		break;
	case PTX_OP_cp_async:
		if (in->nopds >= 3)
			check_cp_async(c, in);
		break;
	case PTX_OP_setmaxnreg:
		if (in->nopds == 1 && (in->opds[0].kind != PTX_OPD_IMM || in->opds[0].imm < 24 ||
				       in->opds[0].imm > 256 || in->opds[0].imm % 8))
			cerr(c, in->opds[0].pos, "setmaxnreg needs a constant multiple of 8 in 24..256");
		break;
	case PTX_OP_cp_async_wait_group: case PTX_OP_cp_async_bulk_wait_group:
	case PTX_OP_wgmma_wait_group:
		if (in->nopds == 1 && (in->opds[0].kind != PTX_OPD_IMM || in->opds[0].imm < 0))
			cerr(c, in->opds[0].pos, "%s needs a constant group count", ptx_op_name(in->op));
		break;
	}
	if (!roles)
		return;
	for (k = 0, i = 0; roles[k]; k++) {
		if (roles[k] == '?') {
			i = 1;
			continue;
		}
		max++;
		if (!i)
			min++;
	}
	if (in->op == PTX_OP_atom && in->aop == PTX_AOP_CAS)
		min = 4;
	if (in->nopds < min || in->nopds > max)
		cerr(c, in->pos, "%s takes %d%s operands, %d given", ptx_op_name(in->op),
		     min, max > min ? " or more" : "", in->nopds);
	if (!t && in->ntypes > 1 && in->op != PTX_OP_setp)
		return;
	if (!t && roles[0] == 'x' && in->op != PTX_OP_mma)
		t = PTX_T_B32;
	if (!t && (!roles[0] || in->op == PTX_OP_elect || in->op == PTX_OP_brx_idx ||
		   in->op == PTX_OP_mma || in->op == PTX_OP_cp_async || in->op == PTX_OP_mbarrier_init))
		t = PTX_T_B32;
	if (!t && (in->op == PTX_OP_bra || in->op == PTX_OP_ret || in->op == PTX_OP_exit ||
		   in->op == PTX_OP_trap || in->op == PTX_OP_brkpt || in->op == PTX_OP_isspacep ||
		   in->op == PTX_OP_activemask || in->op == PTX_OP_bar_sync ||
		   in->op == PTX_OP_bar_arrive || in->op == PTX_OP_barrier_sync ||
		   in->op == PTX_OP_barrier_arrive || in->op == PTX_OP_bar_warp_sync ||
		   in->op == PTX_OP_membar || in->op == PTX_OP_fence || in->op == PTX_OP_nanosleep))
		t = PTX_T_B32;
	if (!t)
		cerr(c, in->pos, "%s needs a type (.u32, .f32, ...)", ptx_op_name(in->op));
	wider = in->op == PTX_OP_ld || in->op == PTX_OP_st || in->op == PTX_OP_ldu ||
		in->op == PTX_OP_atom || in->op == PTX_OP_red;
	for (i = 0, k = 0; i < in->nopds && roles[k]; i++, k++) {
		char r;
		if (roles[k] == '?')
			k++;
		r = roles[k];
		if ((in->mode == PTX_MODE_WIDE) && r == 'd')
			r = 'w';
		if ((in->mode == PTX_MODE_WIDE) && r == 's' && i == 3)
			r = 'W';
		if (in->op == PTX_OP_bra)
			continue;
		check_opd(c, &in->opds[i], r, t, wider, i);
	}
}

/* One instruction; then a predicate register anywhere the operation's own
 * checks did not look (a vector's element, an address, an operand the
 * special forms leave unchecked) is an error, not an encoder abort. */
static void
check_instr(C *c, const PtxInstr *in)
{
	int i;
	unsigned slots;

	check_operands(c, in);
	if ((slots = pred_slots(in)) == ~0u)
		return;
	for (i = 0; i < in->nopds; i++) {
		const PtxOperand *o = &in->opds[i], *p = pred_in(c, o);
		if (p && (p != o || o->kind != PTX_OPD_REG || !(slots >> i & 1) ||
			  c->f->regs[o->reg].type != PTX_T_PRED))
			cerr(c, p->pos, in->op == PTX_OP_tex || in->op == PTX_OP_tld4 ?
			     "unsupported: a predicate as operand %d of %s" :   /* ptxas takes it */
			     "operand %d of %s cannot be a predicate", i + 1, ptx_op_name(in->op));
	}
}

static void
check_func(C *c, PtxFunc *f)
{
	int i;

	c->f = f;
	if (f->maxntid[0] && f->reqntid[0])
		cerr(c, f->pos, ".maxntid and .reqntid cannot both be given");
	if ((f->explicitcluster || f->reqnctapercluster[0]) && c->m->sm < 90)
		cerr(c, f->pos, "cluster directives require sm_90 or higher");
	if (!f->is_entry && (f->maxntid[0] || f->reqntid[0] || f->minnctapersm ||
			     f->reqnctapercluster[0] || f->explicitcluster))
		cerr(c, f->pos, "performance directives apply only to .entry functions");
	for (i = 0; i < f->ninstrs; i++)
		check_instr(c, &f->instrs[i]);
	c->f = NULL;
}

static void
check_var(C *c, const PtxVar *v)
{
	int i;

	for (i = 0; i < v->nrelocs; i++) {
		const PtxReloc *r = &v->relocs[i];
		if (r->mask && (r->mask != 0xffull << r->shift))
			cerr(c, v->pos, "initializer of %s: mask 0x%llx must select one byte",
			     v->name, (unsigned long long)r->mask);
		if (r->mask && v->type != PTX_T_U8)
			cerr(c, v->pos, "initializer of %s: byte masks need a .u8 array", v->name);
	}
}

int
ptx_check(PtxModule *m)
{
	C c = {0};
	int i;

	c.m = m;
	if (setjmp(c.fail))
		return -1;
	for (i = 0; i < m->nvars; i++)
		check_var(&c, m->vars[i]);
	for (i = 0; i < m->nfuncs; i++)
		if (m->funcs[i]->has_body)
			check_func(&c, m->funcs[i]);
	return 0;
}
