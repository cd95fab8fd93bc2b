/* constfold.c -- constant folding and propagation, algebraic identities,
 * branch folding.
 *
 * Walks each block with the registers whose values are known at that
 * point (a register written once by an unguarded constant is known
 * everywhere; within a block, `mov r, imm` makes r known until r is
 * written again).  An instruction whose operands are all known is
 * replaced by `mov.bN d, imm` computed with the interpreter's own
 * arithmetic (src/ptx/arith.h, the same calls and the same
 * widening/narrowing as interp_exec.c), so folding equals execution.
 * Identities (x+0, x-0, x*1, x*0, x&0, x&~0, x|0, x|~0, x^0, shifts by 0,
 * selp on a known predicate) become moves.  A guard or a branch predicate
 * that is known removes the guard, the instruction, or one CFG edge; the
 * blocks no longer reachable are emptied.  Known values are written into
 * the operands that selection accepts as immediates: integer arithmetic
 * (as copyprop), and f32/f64 arithmetic, compares and selects (FIMM).
 * Results go only into 32- and 64-bit registers; predicates stay
 * registers (their setp dies in DCE once nobody reads it). */
#include <stdlib.h>
#include <string.h>

#include "ir/cfg.h"
#include "ir/ir.h"
#include "ir/walk.h"
#include "ptx/arith.h"

typedef struct {
	IrFunc *f;
	int *defs;      /* definitions of each register */
	int *uses;      /* reads of each register */
	u8 *gk;         /* known everywhere (single constant definition) */
	u64 *gv;
	u8 *lk;         /* known at the current point of the block walk */
	u64 *lv;
	int *touched;   /* registers whose lk/lv the walk changed ... */
	int ntouched;
	u8 *dirty;      /* ... each once */
	int cfg;        /* a branch was folded: prune unreachable blocks */
} Fold;

static int
ibits(PtxType t)
{
	return t == PTX_T_PRED ? 1 : ptx_type_size(t) * 8;
}

static int
is_int(PtxType t)
{
	return t != PTX_T_NONE && t != PTX_T_PRED && !ptx_type_is_float(t) && ptx_type_size(t) >= 1 &&
	       ptx_type_size(t) <= 8 && t != PTX_T_B128;
}

static int
rtype(const Fold *c, int r)
{
	return c->f->rtype[r];
}

/* Is register operand o plain (one register, no negation)? */
static int
plain_reg(const PtxOperand *o)
{
	return o->kind == PTX_OPD_REG && o->reg >= 0 && o->reg2 < 0 && !o->neg;
}

/* The value operand o has for an operation of type t (interp_exec.c's
 * opd_read): registers hold their bits zero-extended, integer immediates
 * their 64-bit value, float immediates converted to t. */
static int
val(const Fold *c, const PtxOperand *o, PtxType t, u64 *v)
{
	switch (o->kind) {
	case PTX_OPD_REG:
		if (o->reg < 0 || o->reg2 >= 0 || !c->lk[o->reg])
			return 0;
		if (o->neg)
			return rtype(c, o->reg) == PTX_T_PRED ? (*v = !c->lv[o->reg], 1) : 0;
		*v = c->lv[o->reg];
		return 1;
	case PTX_OPD_IMM:
		if (ptx_type_is_float(t))
			return 0;
		*v = (u64)o->imm;
		return 1;
	case PTX_OPD_FIMM:
		if (t == PTX_T_F32)
			*v = o->is_f64 ? bits_f32((float)f64_of(o->fbits)) : (u32)o->fbits;
		else if (t == PTX_T_F64)
			*v = o->is_f64 ? o->fbits : bits_f64((double)f32_of((u32)o->fbits));
		else
			return 0;
		return 1;
	}
	return 0;
}

/* Can val succeed on o for some type?  (A cheap test before the folds.) */
static int
may_val(const Fold *c, const PtxOperand *o)
{
	if (o->kind == PTX_OPD_IMM || o->kind == PTX_OPD_FIMM)
		return 1;
	return o->kind == PTX_OPD_REG && o->reg >= 0 && o->reg2 < 0 && c->lk[o->reg];
}

/* Does a source after operand 1 pass may_val?  Without one that does
 * (or operand 1), nothing but identity's x-x kind can fold. */
static int
may_val_rest(const Fold *c, const PtxInstr *in)
{
	int k;

	for (k = 2; k < in->nopds; k++)
		if (may_val(c, &in->opds[k]))
			return 1;
	return 0;
}

/* Rewrite x into `mov.bN d, src` (N from the destination register). */
static void
to_mov(Fold *c, IrIns *x, const PtxOperand *src)
{
	PtxInstr *in = &x->p;
	PtxOperand *ops = arena_alloc(c->f->a, 2 * sizeof *ops);
	int sz = ptx_type_size((PtxType)rtype(c, in->opds[0].reg));

	ops[0] = in->opds[0];
	ops[1] = *src;
	ops[1].pos = in->opds[0].pos;
	in->op = PTX_OP_mov;
	in->ntypes = 1;
	in->types[0] = sz == 8 ? PTX_T_B64 : sz == 4 ? PTX_T_B32 : PTX_T_B16;
	in->rnd = in->cmp = in->aop = in->mode = in->sem = in->scope = in->cache = 0;
	in->vec = 1;
	in->nspaces = 0;
	in->flags = 0;
	in->nmods = 0;
	in->opds = ops;
	in->nopds = 2;
	x->own = 0;
}

static void
to_mov_imm(Fold *c, IrIns *x, u64 v)
{
	PtxOperand o;
	int sz = ptx_type_size((PtxType)rtype(c, x->p.opds[0].reg));

	memset(&o, 0, sizeof o);
	o.kind = PTX_OPD_IMM;
	o.reg = o.reg2 = -1;
	o.comp = -1;
	o.imm = sz == 8 ? (i64)v : sz == 4 ? (i64)(i32)(u32)v : (i64)(u16)v;
	to_mov(c, x, &o);
}

/* The destination register of a one-register result, if its width is w bits. */
static int
dest_fits(const Fold *c, const PtxInstr *in, int w)
{
	const PtxOperand *d = &in->opds[0];
	int t;
	if (in->nopds < 2 || !plain_reg(d))
		return 0;
	t = rtype(c, d->reg);
	return t != PTX_T_PRED && (w == 32 || w == 64) && ibits((PtxType)t) == w;
}

static int
cmpop(int cmp)
{
	switch (cmp) {
	case PTX_CMP_EQ: return CMP_EQ;
	case PTX_CMP_NE: return CMP_NE;
	case PTX_CMP_LT: case PTX_CMP_LO: return CMP_LT;
	case PTX_CMP_LE: case PTX_CMP_LS: return CMP_LE;
	case PTX_CMP_GT: case PTX_CMP_HI: return CMP_GT;
	case PTX_CMP_GE: case PTX_CMP_HS: return CMP_GE;
	case PTX_CMP_EQU: return CMP_EQU;
	case PTX_CMP_NEU: return CMP_NEU;
	case PTX_CMP_LTU: return CMP_LTU;
	case PTX_CMP_LEU: return CMP_LEU;
	case PTX_CMP_GTU: return CMP_GTU;
	case PTX_CMP_GEU: return CMP_GEU;
	case PTX_CMP_NUM: return CMP_NUM;
	case PTX_CMP_NAN: return CMP_NAN;
	}
	return -1;
}

static int
rnd_of(const PtxInstr *in)
{
	switch (in->rnd) {
	case PTX_RND_RZ: return RND_RZ;
	case PTX_RND_RM: return RND_RM;
	case PTX_RND_RP: return RND_RP;
	}
	return RND_RN;
}

/* Integer arithmetic of x with known operands a, b, cc (iop in
 * interp_exec.c); *w the result width.  0 when not foldable. */
static int
eval_int(const PtxInstr *in, PtxType t, u64 a, u64 b, u64 cc, u64 *r, int *w)
{
	int n = ibits(t), sg = ptx_type_is_signed(t);

	*w = n;
	switch (in->op) {
	case PTX_OP_add:
		*r = (in->flags & PTX_F_SAT) ? i_add_sat_s32((u32)a, (u32)b) : zext(a, n) + zext(b, n);
		return 1;
	case PTX_OP_sub:
		*r = (in->flags & PTX_F_SAT) ? i_sub_sat_s32((u32)a, (u32)b) : zext(a, n) - zext(b, n);
		return 1;
	case PTX_OP_mul:
		if (in->mode == PTX_MODE_HI)
			*r = i_mulhi(a, b, n, sg);
		else if (in->mode == PTX_MODE_WIDE)
			*r = i_mulwide(a, b, n, sg), *w = 2 * n;
		else
			*r = a * b;
		return 1;
	case PTX_OP_mad:
		if (in->flags & PTX_F_SAT)
			return 0;
		if (in->mode == PTX_MODE_HI)
			*r = i_mulhi(a, b, n, sg) + cc;
		else if (in->mode == PTX_MODE_WIDE)
			*r = i_mulwide(a, b, n, sg) + cc, *w = 2 * n;
		else
			*r = a * b + cc;
		return 1;
	case PTX_OP_div:
		return zext(b, n) ? (*r = i_div(a, b, n, sg), 1) : 0;
	case PTX_OP_rem:
		return zext(b, n) ? (*r = i_rem(a, b, n, sg), 1) : 0;
	case PTX_OP_min: case PTX_OP_max:
		if (in->flags & PTX_F_RELU)
			return 0;
		*r = in->op == PTX_OP_min ? i_min(a, b, n, sg) : i_max(a, b, n, sg);
		return 1;
	case PTX_OP_abs: *r = i_abs(a, n); return 1;
	case PTX_OP_neg: *r = -a; return 1;
	case PTX_OP_and: *r = a & b; return 1;
	case PTX_OP_or: *r = a | b; return 1;
	case PTX_OP_xor: *r = a ^ b; return 1;
	case PTX_OP_not: *r = ~a; return 1;
	case PTX_OP_cnot: *r = zext(a, n) == 0; return 1;
	case PTX_OP_shl: *r = i_shl(a, (u32)b, n); return 1;
	case PTX_OP_shr: *r = i_shr(a, (u32)b, n, sg); return 1;
	}
	return 0;
}

static int
has_cc(const PtxInstr *in)
{
	return (in->flags & PTX_F_CC) || in->op == PTX_OP_addc || in->op == PTX_OP_subc || in->op == PTX_OP_madc;
}

/* Fold an integer operation whose sources are all known. */
static int
fold_int(Fold *c, IrIns *x)
{
	const PtxInstr *in = &x->p;
	PtxType t = (PtxType)(in->ntypes ? in->types[0] : 0);
	u64 a = 0, b = 0, cc = 0, r;
	int w, k, nsrc = in->nopds - 1;

	if (!is_int(t) || has_cc(in) || nsrc < 1 || nsrc > 3)
		return 0;
	if (in->op == PTX_OP_mad ? nsrc != 3 : nsrc > 2)
		return 0;
	for (k = 1; k <= nsrc; k++) {
		u64 *p = k == 1 ? &a : k == 2 ? &b : &cc;
		PtxType ot = t;
		if ((in->op == PTX_OP_shl || in->op == PTX_OP_shr) && k == 2)
			ot = PTX_T_U32;
		if (!val(c, &in->opds[k], ot, p))
			return 0;
	}
	if (!eval_int(in, t, a, b, cc, &r, &w) || !dest_fits(c, in, w))
		return 0;
	to_mov_imm(c, x, zext(r, w));
	return 1;
}

static int
ffmt_of(PtxType t)
{
	switch ((int)t) {
	case PTX_T_F16: return FF_F16;
	case PTX_T_BF16: return FF_BF16;
	case PTX_T_F32: return FF_F32;
	case PTX_T_F64: return FF_F64;
	}
	return -1;
}

/* interp_exec.c's rmode(): the rounding and whether it is an integer one. */
static int
rnd_full(const PtxInstr *in, int *irnd)
{
	*irnd = in->rnd >= PTX_RND_RNI && in->rnd <= PTX_RND_RPI;
	switch (in->rnd) {
	case PTX_RND_RZ: case PTX_RND_RZI: return RND_RZ;
	case PTX_RND_RM: case PTX_RND_RMI: return RND_RM;
	case PTX_RND_RP: case PTX_RND_RPI: return RND_RP;
	case PTX_RND_RNA: return RND_RNA;
	}
	return RND_RN;
}

/* cvt of a known value (exec_cvt): integer <-> integer, float <-> float,
 * float <-> integer; f16/bf16 results go into 16-bit registers. */
static int
fold_cvt(Fold *c, IrIns *x)
{
	const PtxInstr *in = &x->p;
	PtxType dt = (PtxType)in->types[0], st = (PtxType)(in->ntypes > 1 ? in->types[1] : in->types[0]);
	int fd = ffmt_of(dt), fs = ffmt_of(st), irnd, rnd = rnd_full(in, &irnd);
	int ftz = !!(in->flags & PTX_F_FTZ), sat = !!(in->flags & PTX_F_SAT), relu = !!(in->flags & PTX_F_RELU);
	int dbits = ibits(dt), rt;
	u64 a, r;

	if (in->op != PTX_OP_cvt || in->nopds != 2 || (!is_int(dt) && fd < 0) || (!is_int(st) && fs < 0) ||
	    !plain_reg(&in->opds[0]))
		return 0;
	rt = rtype(c, in->opds[0].reg);
	if (dbits == 16 && fd >= 0 ? ibits((PtxType)rt) != 16 || ptx_type_is_signed((PtxType)rt) : !dest_fits(c, in, dbits))
		return 0;
	if (fs >= 0 && st != PTX_T_F32 && st != PTX_T_F64 && !(in->opds[1].kind == PTX_OPD_REG))
		return 0;
	if (!val(c, &in->opds[1], st, &a))
		return 0;
	if (fd >= 0 && fs >= 0)
		r = st == PTX_T_F32 && dt == PTX_T_F32 && !irnd && !ftz && !sat ? a :
		    cvt_f2f(a, fs, fd, rnd, irnd, ftz, sat, relu);
	else if (fs >= 0)
		r = cvt_f2i(ftz && st == PTX_T_F32 ? f32_flush((u32)a) : a, fs, dbits, ptx_type_is_signed(dt), rnd);
	else if (fd >= 0) {
		r = cvt_i2f(a, ibits(st), ptx_type_is_signed(st), fd, rnd, 0);
		if (sat)
			r = cvt_f2f(r, fd, fd, RND_RN, 0, 0, 1, 0);
		if (ftz && dt == PTX_T_F32)
			r = f32_flush((u32)r);
	} else
		r = cvt_i2i(a, ibits(st), ptx_type_is_signed(st), dbits, ptx_type_is_signed(dt), sat);
	to_mov_imm(c, x, zext(r, dbits));
	return 1;
}

/* f32/f64 add, sub, mul, fma with known sources (fop_plain). */
static int
fold_float(Fold *c, IrIns *x)
{
	const PtxInstr *in = &x->p;
	PtxType t = (PtxType)(in->ntypes ? in->types[0] : 0);
	int rnd = rnd_of(in), ftz = !!(in->flags & PTX_F_FTZ), sat = !!(in->flags & PTX_F_SAT);
	u64 a, b, d = 0, r;
	int fma = in->op == PTX_OP_fma || in->op == PTX_OP_mad;

	if ((t != PTX_T_F32 && t != PTX_T_F64) || in->nopds != (fma ? 4 : 3) || !dest_fits(c, in, ibits(t)))
		return 0;
	if (in->op != PTX_OP_add && in->op != PTX_OP_sub && in->op != PTX_OP_mul && !fma)
		return 0;
	if (in->flags & ~(u32)(PTX_F_FTZ | PTX_F_SAT))
		return 0;
	if (!val(c, &in->opds[1], t, &a) || !val(c, &in->opds[2], t, &b) || (fma && !val(c, &in->opds[3], t, &d)))
		return 0;
	if (t == PTX_T_F32)
		r = in->op == PTX_OP_add ? f32_add((u32)a, (u32)b, rnd, ftz, sat) :
		    in->op == PTX_OP_sub ? f32_sub((u32)a, (u32)b, rnd, ftz, sat) :
		    in->op == PTX_OP_mul ? f32_mul((u32)a, (u32)b, rnd, ftz, sat) :
					   f32_fma((u32)a, (u32)b, (u32)d, rnd, ftz, sat);
	else if (sat || ftz)
		return 0;
	else
		r = in->op == PTX_OP_add ? f64_add(a, b, rnd) : in->op == PTX_OP_sub ? f64_sub(a, b, rnd) :
		    in->op == PTX_OP_mul ? f64_mul(a, b, rnd) : f64_fma(a, b, d, rnd);
	to_mov_imm(c, x, r);
	return 1;
}

/* setp with one destination and no combining predicate: the result
 * becomes known (the instruction stays until DCE finds no reader). */
static int
fold_setp(Fold *c, const PtxInstr *in, u64 *r)
{
	PtxType t = (PtxType)in->types[0];
	int ct = cmpop(in->cmp);
	u64 a, b;

	if (in->nopds != 3 || !plain_reg(&in->opds[0]) || ct < 0 || in->aop)
		return 0;
	if (t != PTX_T_F32 && t != PTX_T_F64 && !is_int(t))
		return 0;
	if (!val(c, &in->opds[1], t, &a) || !val(c, &in->opds[2], t, &b))
		return 0;
	if (t == PTX_T_F32)
		*r = f32_cmp(ct, (u32)a, (u32)b, !!(in->flags & PTX_F_FTZ));
	else if (t == PTX_T_F64)
		*r = f64_cmp(ct, a, b);
	else
		*r = i_cmp(ct, a, b, ptx_type_is_signed(t), ibits(t));
	return 1;
}

/* and/or/xor/not of known predicates. */
static int
fold_pred(Fold *c, const PtxInstr *in, u64 *r)
{
	u64 a, b = 0;

	if (in->ntypes < 1 || in->types[0] != PTX_T_PRED || !plain_reg(&in->opds[0]) || in->nopds < 2 ||
	    !val(c, &in->opds[1], PTX_T_PRED, &a))
		return 0;
	switch (in->op) {
	case PTX_OP_not: *r = !a; return in->nopds == 2;
	case PTX_OP_mov: *r = a; return in->nopds == 2;
	case PTX_OP_and: case PTX_OP_or: case PTX_OP_xor:
		if (in->nopds != 3 || !val(c, &in->opds[2], PTX_T_PRED, &b))
			return 0;
		*r = in->op == PTX_OP_and ? (a && b) : in->op == PTX_OP_or ? (a || b) : (a != b);
		return 1;
	}
	return 0;
}

/* Identities: x+0, x-0, x*1, x|0, x^0, x<<0, x>>0, x&~0 -> x; x*0, x&0 -> 0,
 * x|~0 -> ~0; selp on a known predicate.  Without a source that may_val
 * takes (known) only x-x, x^x, x&x and x|x can apply. */
static int
identity(Fold *c, IrIns *x, int known)
{
	PtxInstr *in = &x->p;
	PtxType t = (PtxType)(in->ntypes ? in->types[0] : 0);
	int n, k;
	u64 v, ones, amt;
	u64 p;

	switch (in->op) {   /* the operations below; the rest have none */
	case PTX_OP_selp: case PTX_OP_add: case PTX_OP_sub: case PTX_OP_mul: case PTX_OP_and:
	case PTX_OP_or: case PTX_OP_xor: case PTX_OP_shl: case PTX_OP_shr:
		break;
	default:
		return 0;
	}
	n = ibits(t);
	if (in->op == PTX_OP_selp && in->nopds == 4 && val(c, &in->opds[3], PTX_T_PRED, &p) &&
	    dest_fits(c, in, n)) {
		const PtxOperand *s = &in->opds[p ? 1 : 2];
		if (s->kind == PTX_OPD_IMM || (plain_reg(s) && ibits((PtxType)rtype(c, s->reg)) == n)) {
			to_mov(c, x, s);
			return 1;
		}
		if (s->kind == PTX_OPD_FIMM && val(c, s, t, &v)) {
			to_mov_imm(c, x, v);
			return 1;
		}
		return 0;
	}
	if (!is_int(t) || has_cc(in) || (in->flags & PTX_F_SAT) || in->nopds != 3 || !dest_fits(c, in, n))
		return 0;
	ones = zext(~0ull, n);
	if (plain_reg(&in->opds[1]) && plain_reg(&in->opds[2]) && in->opds[1].reg == in->opds[2].reg &&
	    ibits((PtxType)rtype(c, in->opds[1].reg)) == n) {
		if (in->op == PTX_OP_sub || in->op == PTX_OP_xor)
			return to_mov_imm(c, x, 0), 1;
		if (in->op == PTX_OP_and || in->op == PTX_OP_or)
			return to_mov(c, x, &in->opds[1]), 1;
	}
	if (!known)
		return 0;
	for (k = 1; k <= 2; k++) {
		const PtxOperand *o = &in->opds[3 - k];   /* the other operand */
		int other_ok = plain_reg(o) && ibits((PtxType)rtype(c, o->reg)) == n;
		if (!val(c, &in->opds[k], k == 2 && (in->op == PTX_OP_shl || in->op == PTX_OP_shr) ? PTX_T_U32 : t, &v))
			continue;
		amt = v;   /* a shift amount: its own 32 bits */
		v = zext(v, n);
		switch (in->op) {
		case PTX_OP_add: case PTX_OP_or: case PTX_OP_xor:
			if (v == 0 && other_ok)
				return to_mov(c, x, o), 1;
			if (in->op == PTX_OP_or && v == ones)
				return to_mov_imm(c, x, ones), 1;
			break;
		case PTX_OP_sub: case PTX_OP_shl: case PTX_OP_shr:
			if (k == 2 && (in->op == PTX_OP_sub ? v : (u32)amt) == 0 && other_ok)
				return to_mov(c, x, o), 1;
			break;
		case PTX_OP_mul:
			if (in->mode != PTX_MODE_LO)
				break;
			if (v == 1 && other_ok)
				return to_mov(c, x, o), 1;
			if (v == 0)
				return to_mov_imm(c, x, 0), 1;
			break;
		case PTX_OP_and:
			if (v == 0)
				return to_mov_imm(c, x, 0), 1;
			if (v == ones && other_ok)
				return to_mov(c, x, o), 1;
			break;
		}
	}
	return 0;
}

/* Operations whose register sources isel accepts as immediates. */
static int
int_takes_imm(const PtxInstr *in)
{
	switch (in->op) {
	case PTX_OP_add: case PTX_OP_sub: case PTX_OP_mul: case PTX_OP_mad: case PTX_OP_and:
	case PTX_OP_or: case PTX_OP_xor: case PTX_OP_shl: case PTX_OP_shr: case PTX_OP_min:
	case PTX_OP_max: case PTX_OP_selp: case PTX_OP_setp:
		return in->ntypes && is_int((PtxType)in->types[0]);
	}
	return 0;
}

static int
float_takes_imm(const PtxInstr *in)
{
	PtxType t = (PtxType)(in->ntypes ? in->types[0] : 0);
	if (t != PTX_T_F32 && t != PTX_T_F64)
		return 0;
	switch (in->op) {
	case PTX_OP_add: case PTX_OP_sub: case PTX_OP_mul: case PTX_OP_fma: case PTX_OP_mad:
	case PTX_OP_min: case PTX_OP_max: case PTX_OP_setp: case PTX_OP_selp:
		return 1;
	}
	return 0;
}

/* Write known register sources of x as immediates where isel takes them.
 * A float constant read by several instructions is left in its register
 * unless it is 0 (RZ): each immediate use would cost a MOV where the
 * selected instruction has no immediate form. */
static int
forward(Fold *c, IrIns *x)
{
	PtxInstr *in = &x->p;
	int k, n = 0, fl = float_takes_imm(in);
	PtxType t = (PtxType)(in->ntypes ? in->types[0] : 0);

	if ((!fl && !int_takes_imm(in)) || !plain_reg(&in->opds[0]))
		return 0;
	for (k = 1; k < in->nopds; k++) {
		PtxOperand *o = &in->opds[k];
		int rt, w, shamt = (in->op == PTX_OP_shl || in->op == PTX_OP_shr) && k == 2;
		u64 v;
		u32 pos;
		if (!plain_reg(o) || !c->lk[o->reg])
			continue;
		rt = rtype(c, o->reg);
		w = ibits((PtxType)rt);
		v = c->lv[o->reg];
		if (rt == PTX_T_PRED || (in->op == PTX_OP_selp && k == 3) || w < 32)
			continue;
		if (w != ibits(t) && !shamt)
			continue;
		if (fl && v && c->uses[o->reg] > 1)
			continue;
		o = &ir_opds_w(c->f, x)[k];
		pos = o->pos;
		memset(o, 0, sizeof *o);
		o->reg = o->reg2 = -1;
		o->comp = -1;
		o->pos = pos;
		if (fl) {
			o->kind = PTX_OPD_FIMM;
			o->is_f64 = w == 64;
			o->fbits = v;
		} else {
			o->kind = PTX_OPD_IMM;
			o->imm = w == 64 ? (i64)v : (i64)(i32)(u32)v;
		}
		n++;
	}
	return n;
}

/* r's lk/lv are about to change: remember to restore them at the end of
 * the block (restoring what changed is cheaper than copying all of gk/gv
 * at every block's start). */
static inline void
touch(Fold *c, int r)
{
	if (!c->dirty[r]) {
		c->dirty[r] = 1;
		c->touched[c->ntouched++] = r;
	}
}

/* Back to lk/lv = gk/gv, the state every block walk starts from. */
static void
restore(Fold *c)
{
	int i;

	for (i = 0; i < c->ntouched; i++) {
		int r = c->touched[i];
		c->lk[r] = c->gk[r];
		c->lv[r] = c->gv[r];
		c->dirty[r] = 0;
	}
	c->ntouched = 0;
}

static void
unknown(void *ctx, int r)
{
	Fold *c = ctx;

	if (c->lk[r]) {   /* else lk[r] == gk[r] == 0 or r is touched already */
		touch(c, r);
		c->lk[r] = 0;
	}
}

/* After an unguarded mov to a plain register executes (its destination
 * made unknown): is the destination known? */
static void
learn(Fold *c, const IrIns *x)
{
	const PtxInstr *in = &x->p;
	const PtxOperand *o = &in->opds[1];
	PtxType rt = (PtxType)rtype(c, in->opds[0].reg);
	int w = ibits(rt);
	u64 v;

	if (rt == PTX_T_PRED || w < 32 || ibits((PtxType)in->types[0]) != w)
		return;
	if (o->kind == PTX_OPD_FIMM && !ptx_type_is_float(rt)) {
		if (o->is_f64)
			return;
		v = o->fbits;
	} else if (!val(c, o, o->kind == PTX_OPD_FIMM ? rt : (PtxType)in->types[0], &v)) {
		return;
	}
	touch(c, in->opds[0].reg);
	c->lk[in->opds[0].reg] = 1;
	c->lv[in->opds[0].reg] = zext(v, w);
}

/* After x executes: which of its destinations are known.  Inline, with
 * the moves' part (learn) out of line: most instructions are not moves,
 * and a call's prologue and epilogue were most of their cost here. */
static inline void
executed(Fold *c, const IrIns *x)
{
	const PtxInstr *in = &x->p;

	ir_each_def(in, unknown, c);
	if (in->op == PTX_OP_mov && in->guard < 0 && in->nopds == 2 && plain_reg(&in->opds[0]))
		learn(c, x);
}

/* A guard or branch predicate that is known. */
static int
fold_guard(Fold *c, int b, IrIns *x)
{
	PtxInstr *in = &x->p;
	IrBlock *B = &c->f->b.v[b];
	int g = in->guard, taken;

	if (g < 0 || !c->lk[g])
		return 0;
	taken = (c->lv[g] != 0) != (in->guard_neg != 0);
	if (x->target >= 0) {
		if (taken) {
			in->guard = -1;
			in->guard_neg = 0;
			if (B->succ[0] >= 0 && B->succ[0] != x->target)
				ir_edge_remove(c->f, b, B->succ[0]);
			if (B->succ[1] < 0 && B->succ[0] == x->target) {   /* the target was also the next block */
				B->succ[0] = -1;
				B->succ[1] = x->target;
			}
		} else {
			if (B->succ[1] >= 0)
				ir_edge_remove(c->f, b, B->succ[1]);
			x->dead = 1;
		}
		c->cfg = 1;
		return 1;
	}
	if (in->op == PTX_OP_ret || in->op == PTX_OP_exit || in->op == PTX_OP_trap || in->op == PTX_OP_brx_idx ||
	    in->op == PTX_OP_call)
		return 0;   /* these end blocks: leave the CFG as built */
	if (taken) {
		in->guard = -1;
		in->guard_neg = 0;
	} else {
		x->dead = 1;
	}
	return 1;
}

static int
fold_block(Fold *c, int b)
{
	IrBlock *B = &c->f->b.v[b];
	size_t i;
	int n = 0;

	for (i = 0; i < B->ins.n; i++) {
		IrIns *x = &B->ins.v[i];
		u64 p;
		if (x->dead)
			continue;
		n += fold_guard(c, b, x);
		if (x->dead)
			continue;
		if (x->p.guard < 0) {
			/* setp, pred, int, cvt and float folds all need the value
			 * of the first source: skip them when it has none */
			int v1 = x->p.nopds > 1 && may_val(c, &x->p.opds[1]);
			if (v1 && ((x->p.op == PTX_OP_setp && fold_setp(c, &x->p, &p)) || fold_pred(c, &x->p, &p))) {
				int d = x->p.opds[0].reg;
				ir_each_def(&x->p, unknown, c);
				touch(c, d);
				c->lk[d] = 1;
				c->lv[d] = p;
				if (c->defs[d] == 1 && !c->gk[d]) {   /* known everywhere */
					c->gk[d] = 1;
					c->gv[d] = p;
					n++;
				}
				continue;
			}
			int known = v1 || may_val_rest(c, &x->p);
			if ((v1 && (fold_int(c, x) || fold_cvt(c, x) || fold_float(c, x))) || identity(c, x, known))
				n++;
			else if (known)
				n += forward(c, x);
		}
		executed(c, x);
	}
	restore(c);
	return n;
}

/* Registers written once, by an unguarded constant move.  Each move is
 * learned with nothing else known (lk all 0; learn sets at most lk[d]).
 * Leaves lk/lv = gk/gv for the block walks. */
static int
find_global(Fold *c)
{
	size_t b, i, nr = (size_t)c->f->nregs;
	int n = 0;

	memset(c->lk, 0, nr);
	for (b = 0; b < c->f->b.n; b++)
		for (i = 0; i < c->f->b.v[b].ins.n; i++) {
			const IrIns *x = &c->f->b.v[b].ins.v[i];
			int d;
			if (x->dead || x->p.op != PTX_OP_mov || x->p.guard >= 0 || x->p.nopds != 2 ||
			    !plain_reg(&x->p.opds[0]))
				continue;
			d = x->p.opds[0].reg;
			/* with nothing known, only an immediate source is learned */
			if (c->defs[d] != 1 || c->gk[d] ||
			    (x->p.opds[1].kind != PTX_OPD_IMM && x->p.opds[1].kind != PTX_OPD_FIMM))
				continue;
			learn(c, x);   /* lk[d] is 0: nothing to make unknown */
			if (c->lk[d]) {
				c->gk[d] = 1;
				c->gv[d] = c->lv[d];
				n++;
			}
			c->lk[d] = 0;
		}
	memcpy(c->lk, c->gk, nr);
	memcpy(c->lv, c->gv, nr * sizeof *c->lv);
	for (i = 0; i < (size_t)c->ntouched; i++)
		c->dirty[c->touched[i]] = 0;
	c->ntouched = 0;
	return n;
}

int
ir_constfold(IrFunc *f)
{
	Fold c;
	int total = 0, round, n;
	size_t b, nr = (size_t)f->nregs + 1;

	memset(&c, 0, sizeof c);
	c.f = f;
	/* one zeroed block: gv, lv (u64), defs, uses, touched (int), gk, lk, dirty (u8) */
	c.gv = xcalloc(nr, 2 * sizeof(u64) + 3 * sizeof(int) + 3);
	c.lv = c.gv + nr;
	c.defs = (int *)(c.lv + nr);
	c.uses = c.defs + nr;
	c.touched = c.uses + nr;
	c.gk = (u8 *)(c.touched + nr);
	c.lk = c.gk + nr;
	c.dirty = c.lk + nr;
	ir_count(f, c.defs, c.uses);
	for (round = 0; round < 4; round++) {
		find_global(&c);
		n = 0;
		for (b = 0; b < f->b.n; b++)
			n += fold_block(&c, (int)b);
		if (c.cfg) {
			n += ir_prune_unreachable(f);
			c.cfg = 0;
		}
		n += ir_drop_jumps(f);
		total += n;
		if (!n)
			break;
		memset(c.defs, 0, nr * sizeof *c.defs);
		memset(c.uses, 0, nr * sizeof *c.uses);
		ir_count(f, c.defs, c.uses);
	}
	if (total && !n)   /* the last round changed nothing: the counts are the IR's */
		ir_count_current(f, c.defs, c.uses);
	free(c.gv);
	return total;
}
