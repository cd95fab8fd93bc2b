/* divconst.c -- plans for x / d and x % d by an immediate d (see divconst.h).
 *
 * 32 bits: |d| a power of two -> shifts; otherwise a multiply-high by a
 * magic number.  Unsigned: the smallest post-shift whose round-up magic
 * fits 32 bits and passes the exact inequality (IMAD.HI.U32 + SHF), else
 * a pre-shift for even d, else the 33-bit magic of odd d with the
 * t + ((x - t) >> 1) halving.  Signed: Hacker's Delight's magic (M, s),
 * IMAD.HI, an add/sub of x when M's sign is not d's, and the sign fix
 * folded into LEA.HI.SX32.  64 bits: the same methods over a 7-instruction
 * 64x64 multiply-high.  The remainder is x - q*d in one IMAD (three for
 * 64 bits), or a mask for unsigned powers of two. */
#include "codegen/divconst.h"

#include <string.h>

typedef unsigned __int128 u128;

typedef struct {
	DivPlan *p;
	int next;  /* next free operand */
} B;

static void
emit(B *b, int kind, int dst, int a, int bb, u64 imm, int pd, int pa, int pb)
{
	DivStep *s;

	ASSERT(b->p->nsteps < DV_MAXSTEPS);
	s = &b->p->s[b->p->nsteps++];
	s->kind = (u8)kind;
	s->dst = (u8)dst;
	s->a = (u8)a;
	s->b = (u8)bb;
	s->imm = imm;
	s->pd = (u8)pd;
	s->pa = (u8)pa;
	s->pb = (u8)pb;
}

/* plain step: no predicates */
static void
op(B *b, int kind, int dst, int a, int bb, u64 imm)
{
	emit(b, kind, dst, a, bb, imm, DV_PT, DV_PT, DV_PT);
}

static int
tmp(B *b)
{
	ASSERT(b->next < DV_NREG);
	return b->next++;
}

static int
pair(B *b)
{
	int k = (b->next + 1) & ~1;

	ASSERT(k + 1 < DV_NREG);
	b->next = k + 2;
	return k;
}

static int
ctz64(u64 v)
{
	int n = 0;

	while (!(v & 1)) {
		v >>= 1;
		n++;
	}
	return n;
}

static int
ceil_log2(u64 v)
{
	int n = 0;

	while (n < 64 && ((u128)1 << n) < v)
		n++;
	return n;
}

/* Exact check that floor(x*m / 2^k) == floor(x/d) for every x in [0, X],
 * where m*d = 2^k + e, e >= 0.  The error term is (x mod d)*2^k + x*e and
 * must stay below d*2^k (strict) or at most d*2^k (non-strict, used for the
 * signed ceiling side); for a fixed residue it grows with x, so only the
 * largest x of residue d-1 and X itself need checking.  Needs d < 2^33,
 * k <= 64, X < 2^33. */
static int
ineq32(u64 d, int k, u64 e, u64 X, int strict)
{
	u128 lim = (u128)d << k, v;
	u64 r = X % d, x1;

	v = ((u128)r << k) + (u128)X * e;
	if (strict ? v >= lim : v > lim)
		return 0;
	if (r != d - 1 && X >= r + 1) {
		x1 = X - r - 1;  /* largest x <= X with x mod d == d-1 */
		if (x1 % d != d - 1)
			die("ineq32: residue");
		v = ((u128)(d - 1) << k) + (u128)x1 * e;
		if (strict ? v >= lim : v > lim)
			return 0;
	}
	return 1;
}

/* Smallest post-shift sh with a round-up magic m < 2^32 that is exact for
 * x in [0, X].  Returns sh, or -1. */
static int
find_mul32(u64 d, u64 X, u64 *m)
{
	int sh;

	for (sh = 0; sh < 32; sh++) {
		u128 two = (u128)1 << (32 + sh);
		u128 mm = (two + d - 1) / d;
		if (mm >> 32)
			return -1;
		if (ineq32(d, 32 + sh, (u64)(mm * d - two), X, 1)) {
			*m = (u64)mm;
			return sh;
		}
	}
	return -1;
}

/* The same for 64 bits with the Granlund-Montgomery sufficient condition
 * x*e < 2^k for every x <= X (then the error term stays below d*2^k). */
static int
find_mul64(u64 d, u64 X, u64 *m)
{
	int sh;

	for (sh = 0; sh < 64; sh++) {
		/* m = ceil(2^(64+sh) / d) from 2^64 = q*d + r, then shifted */
		u128 q = ((u128)1 << 64) / d, r = ((u128)1 << 64) % d, mm, e;
		q <<= sh;
		r <<= sh;  /* r < d < 2^64, sh < 64: fits */
		q += r / d;
		r %= d;
		mm = q + (r != 0);
		if (mm >> 64)
			return -1;
		e = r ? d - r : 0;  /* m*d - 2^(64+sh) */
		if ((u128)X * e < (u128)1 << (64 + sh)) {
			*m = (u64)mm;
			return sh;
		}
	}
	return -1;
}

/* Hacker's Delight (fig. 10-1) signed magic for 2 <= |d| < 2^(W-1):
 * returns M (W bits) and the shift. */
static u64
smagic(u64 d, int W, int *shift)
{
	u64 mask = W == 64 ? ~(u64)0 : ((u64)1 << W) - 1;
	u64 two = (u64)1 << (W - 1);
	u64 ad, t, anc, q1, r1, q2, r2, delta, M;
	int p = W - 1, neg = (d >> (W - 1)) & 1;

	d &= mask;
	ad = neg ? (-d & mask) : d;
	t = two + (d >> (W - 1));
	anc = t - 1 - t % ad;
	q1 = two / anc;
	r1 = two - q1 * anc;
	q2 = two / ad;
	r2 = two - q2 * ad;
	do {
		p++;
		q1 = (2 * q1) & mask;
		r1 = (2 * r1) & mask;
		if (r1 >= anc) {
			q1 = (q1 + 1) & mask;
			r1 = (r1 - anc) & mask;
		}
		q2 = (2 * q2) & mask;
		r2 = (2 * r2) & mask;
		if (r2 >= ad) {
			q2 = (q2 + 1) & mask;
			r2 = (r2 - ad) & mask;
		}
		delta = ad - r2;
	} while (q1 < delta || (q1 == delta && r1 == 0));
	M = (q2 + 1) & mask;
	if (neg)
		M = -M & mask;
	*shift = p - W;
	return M;
}

/* ---- 32 bits ---- */

static int
plan_u32(B *b, u64 d)
{
	DivPlan *p = b->p;
	int t, u, v, z;
	u64 m;

	if (d == 0) {
		p->method = DM_ZERO;
		op(b, DV_MOVI, t = tmp(b), DV_RZ, DV_RZ, 0xffffffff);
		return t;
	}
	if (d == 1) {
		p->method = DM_ONE;
		return 0;
	}
	if (!(d & (d - 1))) {
		p->method = DM_POW2;
		p->shift = ctz64(d);
		op(b, DV_SHR_U32, t = tmp(b), 0, DV_RZ, (u64)p->shift);
		return t;
	}
	if (d >> 31) {
		p->method = DM_CMP;
		emit(b, DV_ISETP_GE_U32, DV_RZ, 0, DV_RZ, d, 0, DV_PT, DV_PT);
		emit(b, DV_SEL01, t = tmp(b), DV_RZ, DV_RZ, 0, DV_PT, 0, DV_PT);
		return t;
	}
	p->method = DM_MUL;
	if ((p->shift = find_mul32(d, 0xffffffff, &m)) < 0 && !(d & 1)) {
		z = ctz64(d);
		p->shift = find_mul32(d >> z, 0xffffffffu >> z, &m);
		ASSERT(p->shift >= 0);
		p->preshift = z;
	}
	if (p->shift >= 0) {
		p->magic = m;
		u = 0;
		if (p->preshift)
			op(b, DV_SHR_U32, u = tmp(b), 0, DV_RZ, (u64)p->preshift);
		op(b, DV_IMAD_HI_U32, t = tmp(b), u, DV_RZ, m);
		if (p->shift)
			op(b, DV_SHR_U32, t, t, DV_RZ, (u64)p->shift);
		return t;
	}
	/* odd d, 33-bit magic 2^32 + m: q = (t + ((x - t) >> 1)) >> (s - 1) */
	p->method = DM_MULADD;
	p->shift = ceil_log2(d);
	p->magic = (u64)(((((u128)1 << (32 + p->shift)) + d - 1) / d) - ((u128)1 << 32));
	ASSERT(p->magic >> 32 == 0 && p->shift >= 1);
	op(b, DV_IMAD_HI_U32, t = tmp(b), 0, DV_RZ, p->magic);
	op(b, DV_SUB, u = tmp(b), 0, t, 0);
	op(b, DV_LEA_HI, v = tmp(b), u, t, 31);
	if (p->shift > 1)
		op(b, DV_SHR_U32, v, v, DV_RZ, (u64)(p->shift - 1));
	return v;
}

static int
plan_s32(B *b, u64 d)
{
	DivPlan *p = b->p;
	i32 sd = (i32)(u32)d;
	u32 ad = sd < 0 ? -(u32)sd : (u32)sd;
	int t, g, k;
	u64 M;

	if (sd == 0) {
		p->method = DM_ZERO;
		op(b, DV_MOVI, t = tmp(b), DV_RZ, DV_RZ, 0xffffffff);
		return t;
	}
	if (ad == 1) {
		p->method = DM_ONE;
		if (sd == 1)
			return 0;
		op(b, DV_SUB, t = tmp(b), DV_RZ, 0, 0);
		return t;
	}
	if (ad == 0x80000000u) {
		p->method = DM_CMP;
		emit(b, DV_ISETP_EQ, DV_RZ, 0, DV_RZ, 0x80000000u, 0, DV_PT, DV_PT);
		emit(b, DV_SEL01, t = tmp(b), DV_RZ, DV_RZ, 0, DV_PT, 0, DV_PT);
		return t;
	}
	if (!(ad & (ad - 1))) {
		/* trunc(x / 2^k) = (x + (x < 0 ? 2^k - 1 : 0)) >> k */
		p->method = DM_POW2;
		p->shift = k = ctz64(ad);
		if (k == 1) {
			op(b, DV_LEA_HI, t = tmp(b), 0, 0, 1);
		} else {
			op(b, DV_SHR_S32, g = tmp(b), 0, DV_RZ, 31);
			op(b, DV_LEA_HI, t = tmp(b), g, 0, (u64)k);
		}
		op(b, DV_SHR_S32, t, t, DV_RZ, (u64)k);
		if (sd < 0)
			op(b, DV_SUB, t, DV_RZ, t, 0);
		return t;
	}
	p->method = DM_SMUL;
	M = smagic((u32)sd, 32, &p->shift);
	p->magic = M;
	op(b, DV_IMAD_HI_S32, t = tmp(b), 0, DV_RZ, M);
	if (sd > 0 && (M >> 31)) {
		p->smagic_adj = 1;
		op(b, DV_ADD, t, t, 0, 0);
	} else if (sd < 0 && !(M >> 31)) {
		p->smagic_adj = -1;
		op(b, DV_SUB, t, t, 0, 0);
	}
	if (p->shift == 0) {
		op(b, DV_LEA_HI, t, t, t, 1);
	} else {
		op(b, DV_SHR_U32, g = tmp(b), t, DV_RZ, 31);
		op(b, DV_LEA_HI_SX32, g, t, g, (u64)(32 - p->shift));
		t = g;
	}
	return t;
}

/* ---- 64 bits (x in operands 0, 1; results are pairs) ---- */

/* hi64(x * m) into a new pair, for the pair xs (7 steps). */
static int
mulhi64(B *b, int xs, u64 m)
{
	u64 ml = (u32)m, mh = m >> 32;
	int w1 = pair(b), w2 = pair(b), t = tmp(b), c = pair(b), h = pair(b);

	op(b, DV_IMAD_WIDE_U32, w1, xs + 1, DV_RZ, ml);
	emit(b, DV_IMAD_WIDE_U32, w2, xs, w1, mh, 0, DV_PT, DV_PT);
	op(b, DV_IMAD_HI_U32, t, xs, DV_RZ, ml);
	emit(b, DV_ADD, DV_RZ, t, w2, 0, 1, DV_PT, DV_PT);
	emit(b, DV_ADD, c + 1, DV_RZ, DV_RZ, 0, DV_PT, 0, DV_PT);
	op(b, DV_MOV, c, w2 + 1, DV_RZ, 0);
	emit(b, DV_IMAD_WIDE_U32, h, xs + 1, c, mh, DV_PT, 1, DV_PT);
	return h;
}

/* pair q = pair v >> s (logical when !sgn), 1 <= s <= 63 */
static int
shr64(B *b, int v, int s, int sgn)
{
	int q = pair(b);

	if (s < 32) {
		op(b, sgn ? DV_SHR_S64 : DV_SHR_U64, q, v, v + 1, (u64)s);
		op(b, sgn ? DV_SHR_S32 : DV_SHR_U32, q + 1, v + 1, DV_RZ, (u64)s);
	} else {
		op(b, sgn ? DV_SHR_S32 : DV_SHR_U32, q, v + 1, DV_RZ, (u64)(s - 32));
		if (sgn)
			op(b, DV_SHR_S32, q + 1, v + 1, DV_RZ, 31);
		else
			op(b, DV_MOV, q + 1, DV_RZ, DV_RZ, 0);
	}
	return q;
}

static int
movi64(B *b, u64 v)
{
	int q = pair(b);

	op(b, DV_MOVI, q, DV_RZ, DV_RZ, (u32)v);
	op(b, DV_MOVI, q + 1, DV_RZ, DV_RZ, v >> 32);
	return q;
}

/* pair = -v */
static int
neg64(B *b, int v)
{
	int q = pair(b);

	emit(b, DV_SUB, q, DV_RZ, v, 0, 0, DV_PT, DV_PT);
	emit(b, DV_SUBX, q + 1, DV_RZ, v + 1, 0, DV_PT, 0, DV_PT);
	return q;
}

static int
plan_u64(B *b, u64 d)
{
	DivPlan *p = b->p;
	int xs = 0, h, q, c, z;
	u64 m;

	if (d == 0) {
		p->method = DM_ZERO;
		return movi64(b, ~(u64)0);
	}
	if (d == 1) {
		p->method = DM_ONE;
		return 0;
	}
	if (!(d & (d - 1))) {
		p->method = DM_POW2;
		p->shift = ctz64(d);
		return shr64(b, 0, p->shift, 0);
	}
	if (d >> 63) {
		p->method = DM_CMP;
		q = pair(b);
		emit(b, DV_ISETP_GE_U32, DV_RZ, 0, DV_RZ, (u32)d, 0, DV_PT, DV_PT);
		/* .EX: compares the high words, ANDed with the low compare */
		emit(b, DV_ISETP_GE_U32, DV_RZ, 1, DV_RZ, d >> 32, 0, 0, DV_PT);
		emit(b, DV_SEL01, q, DV_RZ, DV_RZ, 0, DV_PT, 0, DV_PT);
		op(b, DV_MOV, q + 1, DV_RZ, DV_RZ, 0);
		return q;
	}
	p->method = DM_MUL;
	if ((p->shift = find_mul64(d, ~(u64)0, &m)) < 0 && !(d & 1)) {
		z = ctz64(d);
		p->shift = find_mul64(d >> z, ~(u64)0 >> z, &m);
		ASSERT(p->shift >= 0);
		p->preshift = z;
	}
	if (p->shift >= 0) {
		p->magic = m;
		if (p->preshift)
			xs = shr64(b, 0, p->preshift, 0);
		h = mulhi64(b, xs, m);
		return p->shift ? shr64(b, h, p->shift, 0) : h;
	}
	/* odd d, 65-bit magic: T = x + hi64(x*m) (65 bits), q = T >> s */
	p->method = DM_MULADD;
	p->shift = ceil_log2(d);
	{
		u128 two = (u128)1 << 64, qq = two / d, r = two % d;
		int i;
		for (i = 0; i < p->shift; i++) {
			qq <<= 1;
			r <<= 1;
			if (r >= d) {
				qq++;
				r -= d;
			}
		}
		qq += r != 0;
		ASSERT(qq >> 64 == 1);
		p->magic = (u64)qq;
	}
	h = mulhi64(b, 0, p->magic);
	emit(b, DV_ADD, h, h, 0, 0, 2, DV_PT, DV_PT);
	emit(b, DV_ADD, h + 1, h + 1, 1, 0, 3, 2, DV_PT);
	c = tmp(b);
	emit(b, DV_ADD, c, DV_RZ, DV_RZ, 0, DV_PT, 3, DV_PT);
	/* (c : h+1 : h) >> s as two funnel shifts */
	q = pair(b);
	if (p->shift < 32) {
		op(b, DV_SHR_U64, q, h, h + 1, (u64)p->shift);
		op(b, DV_SHR_U64, q + 1, h + 1, c, (u64)p->shift);
	} else {
		op(b, DV_SHR_U64, q, h + 1, c, (u64)(p->shift - 32));
		op(b, DV_SHR_U32, q + 1, c, DV_RZ, (u64)(p->shift - 32));
	}
	return q;
}

static int
plan_s64(B *b, u64 d)
{
	DivPlan *p = b->p;
	i64 sd = (i64)d;
	u64 ad = sd < 0 ? -d : d, M;
	int g, v, q, k, h, t;

	if (d == 0) {
		p->method = DM_ZERO;
		return movi64(b, ~(u64)0);
	}
	if (ad == 1) {
		p->method = DM_ONE;
		return sd == 1 ? 0 : neg64(b, 0);
	}
	if (ad == (u64)1 << 63) {
		p->method = DM_CMP;
		q = pair(b);
		op(b, DV_XOR_OR, q, 1, 0, 0x80000000u);
		emit(b, DV_ISETP_EQ, DV_RZ, q, DV_RZ, 0, 0, DV_PT, DV_PT);
		emit(b, DV_SEL01, q, DV_RZ, DV_RZ, 0, DV_PT, 0, DV_PT);
		op(b, DV_MOV, q + 1, DV_RZ, DV_RZ, 0);
		return q;
	}
	g = tmp(b);
	if (!(ad & (ad - 1))) {
		p->method = DM_POW2;
		p->shift = k = ctz64(ad);
		op(b, DV_SHR_S32, g, 1, DV_RZ, 31);
		v = pair(b);
		if (k < 32) {
			emit(b, DV_LEA_HI, v, g, 0, (u64)k, 0, DV_PT, DV_PT);
			emit(b, DV_ADD, v + 1, 1, DV_RZ, 0, DV_PT, 0, DV_PT);
		} else if (k == 32) {
			emit(b, DV_ADD, v, 0, g, 0, 0, DV_PT, DV_PT);
			emit(b, DV_ADD, v + 1, 1, DV_RZ, 0, DV_PT, 0, DV_PT);
		} else {
			emit(b, DV_ADD, v, 0, g, 0, 0, DV_PT, DV_PT);
			emit(b, DV_LEA_HI, v + 1, g, 1, (u64)(k - 32), DV_PT, 0, DV_PT);
		}
		q = shr64(b, v, k, 1);
		return sd < 0 ? neg64(b, q) : q;
	}
	p->method = DM_SMUL;
	M = smagic(d, 64, &p->shift);
	p->magic = M;
	p->smagic_adj = sd > 0 && (M >> 63) ? 1 : sd < 0 && !(M >> 63) ? -1 : 0;
	/* hi64(x_s * M_s) + adj*x = hi64(x_u * M_u) - [x<0]*M_u - [d<0]*x */
	h = mulhi64(b, 0, M);
	op(b, DV_SHR_S32, g, 1, DV_RZ, 31);
	t = pair(b);
	op(b, DV_AND, t, g, DV_RZ, (u32)M);
	op(b, DV_AND, t + 1, g, DV_RZ, M >> 32);
	emit(b, DV_SUB, h, h, t, 0, 0, DV_PT, DV_PT);
	emit(b, DV_SUBX, h + 1, h + 1, t + 1, 0, DV_PT, 0, DV_PT);
	if (sd < 0) {
		emit(b, DV_SUB, h, h, 0, 0, 0, DV_PT, DV_PT);
		emit(b, DV_SUBX, h + 1, h + 1, 1, 0, DV_PT, 0, DV_PT);
	}
	q = p->shift ? shr64(b, h, p->shift, 1) : h;
	/* q += q < 0 */
	emit(b, DV_LEA_HI, q, q + 1, q, 1, 0, DV_PT, DV_PT);
	emit(b, DV_ADD, q + 1, q + 1, DV_RZ, 0, DV_PT, 0, DV_PT);
	return q;
}

/* x % d = x - q*d: one IMAD (three for 64 bits) after the quotient. */
static int
rem_of(B *b, int q, u64 d, int bits)
{
	u64 nd = -d;
	int r;

	if (bits == 32) {
		op(b, DV_IMAD, r = tmp(b), q, 0, (u32)nd);
		return r;
	}
	/* x + q*nd mod 2^64 = x + ql*ndl + 2^32*(ql*ndh + qh*ndl); a zero
	 * half of nd drops its multiplies (IMAD by 0 is not an instruction
	 * nvdisasm shows as IMAD) */
	r = pair(b);
	if ((u32)nd) {
		op(b, DV_IMAD_WIDE_U32, r, q, 0, (u32)nd);
		if (nd >> 32)
			op(b, DV_IMAD, r + 1, q, r + 1, nd >> 32);
		op(b, DV_IMAD, r + 1, q + 1, r + 1, (u32)nd);
	} else {
		op(b, DV_MOV, r, 0, DV_RZ, 0);
		op(b, DV_IMAD, r + 1, q, 1, nd >> 32);
	}
	return r;
}

int
divconst_plan(DivPlan *p, u64 d, int bits, int is_signed, int want_rem)
{
	B b;
	u64 mask = bits == 64 ? ~(u64)0 : 0xffffffffu;
	u64 ad;
	int q, r;

	memset(p, 0, sizeof *p);
	if (bits != 32 && bits != 64)
		return -1;
	d &= mask;
	if (is_signed && bits == 32)
		d = (u64)(i64)(i32)(u32)d & mask;
	p->bits = bits;
	p->is_signed = is_signed;
	p->want_rem = want_rem;
	p->d = d;
	p->shift = -1;
	b.p = p;
	b.next = bits == 32 ? 1 : 2;
	ad = is_signed && (d >> (bits - 1)) ? -d & mask : d;
	if (want_rem && d == 0) {
		/* all ones, as ptxas's general sequences give for x % 0 */
		p->method = DM_ZERO;
		p->result = bits == 32 ? tmp(&b) : pair(&b);
		op(&b, DV_MOVI, p->result, DV_RZ, DV_RZ, 0xffffffff);
		if (bits == 64)
			op(&b, DV_MOVI, p->result + 1, DV_RZ, DV_RZ, 0xffffffff);
		return p->nsteps;
	}
	if (want_rem && ad == 1) {
		p->method = DM_ONE;
		p->result = bits == 32 ? tmp(&b) : pair(&b);
		op(&b, DV_MOV, p->result, DV_RZ, DV_RZ, 0);
		if (bits == 64)
			op(&b, DV_MOV, p->result + 1, DV_RZ, DV_RZ, 0);
		return p->nsteps;
	}
	if (want_rem && !is_signed && !(d & (d - 1))) {
		p->method = DM_POW2;
		p->shift = ctz64(d);
		if (bits == 32) {
			op(&b, DV_AND, p->result = tmp(&b), 0, DV_RZ, d - 1);
		} else {
			r = pair(&b);
			if (p->shift < 32) {
				op(&b, DV_AND, r, 0, DV_RZ, d - 1);
				op(&b, DV_MOV, r + 1, DV_RZ, DV_RZ, 0);
			} else {
				op(&b, DV_MOV, r, 0, DV_RZ, 0);
				op(&b, DV_AND, r + 1, 1, DV_RZ, (d - 1) >> 32);
			}
			p->result = r;
		}
		return p->nsteps;
	}
	if (bits == 32)
		q = is_signed ? plan_s32(&b, d) : plan_u32(&b, d);
	else
		q = is_signed ? plan_s64(&b, d) : plan_u64(&b, d);
	p->result = want_rem ? rem_of(&b, q, d, bits) : q;
	return p->nsteps;
}

/* ---- evaluation: the emulator's semantics (src/emu/emu_exec.c) ---- */

enum { LANES = 256, ZR = DV_NREG, SCR = DV_NREG + 1, ZP = DV_NPRED, SCP = DV_NPRED + 1 };

/* Lanes of registers: row ZR reads as RZ (zeros), writes to RZ go to row
 * SCR; predicate row ZP (PT as a carry in) is zeros, writes to PT go to SCP. */
typedef struct {
	u32 r[DV_NREG + 2][LANES];
	u8 p[DV_NPRED + 2][LANES];
} Regs;

static const u32 *
src(const Regs *R, int k)
{
	return R->r[k == DV_RZ ? ZR : k];
}

/* the high half of the pair k (zeros for RZ) */
static const u32 *
srchi(const Regs *R, int k)
{
	return R->r[k == DV_RZ ? ZR : k + 1];
}

static u32 *
dstr(Regs *R, int k)
{
	return R->r[k == DV_RZ ? SCR : k];
}

static const u8 *
srcp(const Regs *R, int k)
{
	return R->p[k == DV_PT ? ZP : k];
}

static u8 *
dstp(Regs *R, int k)
{
	return R->p[k == DV_PT ? SCP : k];
}

static void
step(const DivStep *s, Regs *R, int n)
{
	const u32 *A = src(R, s->a), *Bv = src(R, s->b), *Bh = srchi(R, s->b);
	const u8 *Pa = srcp(R, s->pa), *Pb = srcp(R, s->pb);
	u32 *D = dstr(R, s->dst), *Dh = s->kind == DV_IMAD_WIDE_U32 ? dstr(R, s->dst == DV_RZ ? DV_RZ : s->dst + 1) : D;
	u8 *Pd = dstp(R, s->pd);
	u32 imm = (u32)s->imm, tmpd[LANES];
	int l;

	/* fast paths of the common 32-bit forms (no pair, no carries): the
	 * same semantics, in loops the compiler can vectorize */
	if (s->pa == DV_PT && s->pb == DV_PT && s->pd == DV_PT && s->dst != DV_RZ) {
		if (s->kind == DV_IMAD_HI_U32 && s->b == DV_RZ) {
			for (l = 0; l < n; l++)
				tmpd[l] = (u32)(((u64)A[l] * imm) >> 32);
			memcpy(D, tmpd, (size_t)n * sizeof *D);
			return;
		}
		if (s->kind == DV_IMAD_HI_S32 && s->b == DV_RZ) {
			for (l = 0; l < n; l++)
				tmpd[l] = (u32)((u64)((i64)(i32)A[l] * (i32)imm) >> 32);
			memcpy(D, tmpd, (size_t)n * sizeof *D);
			return;
		}
		if (s->kind == DV_ADD || s->kind == DV_SUB) {
			u32 neg = s->kind == DV_SUB ? ~0u : 0;
			for (l = 0; l < n; l++)
				tmpd[l] = A[l] + ((Bv[l] ^ neg) - neg);
			memcpy(D, tmpd, (size_t)n * sizeof *D);
			return;
		}
		if (s->kind == DV_LEA_HI && (imm & 31)) {
			u32 sh = 32 - (imm & 31);
			for (l = 0; l < n; l++)
				tmpd[l] = Bv[l] + (A[l] >> sh);
			memcpy(D, tmpd, (size_t)n * sizeof *D);
			return;
		}
	}
	switch (s->kind) {
	case DV_IMAD_HI_U32:
	case DV_IMAD_HI_S32:
	case DV_IMAD_WIDE_U32:
		for (l = 0; l < n; l++) {
			u64 p = s->kind == DV_IMAD_HI_S32 ? (u64)((i64)(i32)A[l] * (i32)imm) : (u64)A[l] * imm;
			u64 c = Bv[l] | (u64)Bh[l] << 32, r = p + c;
			int co = r < p, cin = Pa[l];
			r += (u64)cin;
			co |= cin && r == 0;
			if (s->kind == DV_IMAD_WIDE_U32) {
				tmpd[l] = (u32)r;
				Dh[l] = (u32)(r >> 32);
			} else
				tmpd[l] = (u32)(r >> 32);
			Pd[l] = (u8)co;
		}
		memcpy(D, tmpd, (size_t)n * sizeof *D);
		break;
	case DV_IMAD:
		for (l = 0; l < n; l++)
			D[l] = A[l] * imm + Bv[l];
		break;
	case DV_ADD:
	case DV_SUB:
	case DV_SUBX:
		for (l = 0; l < n; l++) {
			u32 b = Bv[l];
			u64 v = (u64)A[l] + (u64)Pa[l] + (u64)Pb[l];
			if (s->kind == DV_SUB)
				v += (u64)(u32)~b + 1;
			else if (s->kind == DV_SUBX)
				v += (u32)~b;
			else
				v += b;
			D[l] = (u32)v;
			Pd[l] = (u8)(v >> 32 & 1);
		}
		break;
	case DV_SHR_U32:
		for (l = 0; l < n; l++)
			D[l] = imm >= 32 ? 0 : A[l] >> imm;
		break;
	case DV_SHR_S32:
		for (l = 0; l < n; l++)
			D[l] = (u32)((i32)A[l] >> MIN(imm, 31u));
		break;
	case DV_SHR_U64:
	case DV_SHR_S64:
		for (l = 0; l < n; l++) {
			u64 v = (u64)Bv[l] << 32 | A[l];
			u32 k = MIN(imm, 64u);
			if (s->kind == DV_SHR_S64)
				v = (u64)((i64)v >> MIN(k, 63u));
			else
				v = k >= 64 ? 0 : v >> k;
			D[l] = (u32)v;
		}
		break;
	case DV_LEA_HI:
	case DV_LEA_HI_SX32:
		for (l = 0; l < n; l++) {
			u32 a = A[l], sh = imm & 31;
			u32 c = s->kind == DV_LEA_HI_SX32 ? (u32)((i32)a >> 31) : 0;
			u64 v = ((u64)c << 32 | a) >> (32 - sh);
			v = sh ? (u32)v : c;
			v += (u64)Bv[l] + (u64)Pa[l];
			D[l] = (u32)v;
			Pd[l] = (u8)(v >> 32 & 1);
		}
		break;
	case DV_ISETP_GE_U32:
		/* with a predicate in (pa): the .EX form, high words after low */
		for (l = 0; l < n; l++)
			Pd[l] = (u8)(s->pa == DV_PT ? A[l] >= imm : A[l] > imm || (A[l] == imm && Pa[l]));
		break;
	case DV_ISETP_EQ:
		for (l = 0; l < n; l++)
			Pd[l] = A[l] == imm;
		break;
	case DV_SEL01:
		for (l = 0; l < n; l++)
			D[l] = Pa[l] ? 1 : 0;
		break;
	case DV_MOV:
		for (l = 0; l < n; l++)
			D[l] = A[l];
		break;
	case DV_MOVI:
		for (l = 0; l < n; l++)
			D[l] = imm;
		break;
	case DV_AND:
		for (l = 0; l < n; l++)
			D[l] = A[l] & imm;
		break;
	case DV_XOR_OR:
		for (l = 0; l < n; l++)
			D[l] = (A[l] ^ imm) | Bv[l];
		break;
	default:
		die("divconst: step kind %d", s->kind);
	}
}

/* The lanes' registers, one block per thread (thread_calloc: 36 KiB of
 * _Thread_local data would make every process map a TLS block at start). */
static _Thread_local void *regs_slot;

static Regs *
regs(void)
{
	return thread_calloc(&regs_slot, sizeof(Regs));
}

/* runs the plan on the m <= LANES values already in rows 0 and 1 of R */
static void
run(const DivPlan *p, Regs *R, int m)
{
	int i;

	memset(R->r[ZR], 0, sizeof R->r[ZR]);
	memset(R->p[ZP], 0, sizeof R->p[ZP]);
	/* all LANES lanes, whatever m: a constant trip count lets the
	 * compiler vectorize the step loops (lanes past m hold stale values) */
	(void)m;
	for (i = 0; i < p->nsteps; i++)
		step(&p->s[i], R, LANES);
}

void
divconst_eval_n(const DivPlan *p, const u64 *x, u64 *out, int n)
{
	Regs *R = regs();
	int l, m;

	while (n > 0) {
		m = MIN(n, LANES);
		for (l = 0; l < m; l++) {
			R->r[0][l] = (u32)x[l];
			/* a 32-bit plan must not read operand 1 */
			R->r[1][l] = p->bits == 32 ? 0xdeadbeef : (u32)(x[l] >> 32);
		}
		run(p, R, m);
		for (l = 0; l < m; l++)
			out[l] = R->r[p->result][l] | (p->bits == 64 ? (u64)R->r[p->result + 1][l] << 32 : 0);
		x += m;
		out += m;
		n -= m;
	}
}

void
divconst_eval32_n(const DivPlan *p, u32 x0, u32 *out, int n)
{
	Regs *R = regs();
	int l, m;

	ASSERT(p->bits == 32);
	while (n > 0) {
		m = MIN(n, LANES);
		for (l = 0; l < m; l++) {
			R->r[0][l] = x0 + (u32)l;
			R->r[1][l] = 0xdeadbeef;
		}
		run(p, R, m);
		memcpy(out, R->r[p->result], (size_t)m * sizeof *out);
		x0 += (u32)m;
		out += m;
		n -= m;
	}
}

u64
divconst_eval(const DivPlan *p, u64 x)
{
	u64 r;

	divconst_eval_n(p, &x, &r, 1);
	return r;
}

/* ---- SASS text ---- */

static void
reg(const DivPlan *p, int k, Buf *out)
{
	if (k == DV_RZ)
		buf_puts(out, "RZ");
	else if (p->bits == 32 && k == 0)
		buf_puts(out, "{x}");
	else if (p->bits == 64 && k < 2)
		buf_puts(out, k ? "{x.hi}" : "{x.lo}");
	else
		buf_printf(out, "{t%d}", k);
}

static void
prd(int k, Buf *out)
{
	if (k == DV_PT)
		buf_puts(out, "PT");
	else
		buf_printf(out, "{p%d}", k);
}

/* ", {pd}" after the destination when a carry out is written */
static void
dst(const DivPlan *p, const DivStep *s, Buf *out)
{
	reg(p, s->dst, out);
	if (s->pd != DV_PT) {
		buf_puts(out, ", ");
		prd(s->pd, out);
	}
}

/* nvdisasm's immediates: signed hex for the integer ALU forms */
static void
simm(u64 v, Buf *out)
{
	i32 x = (i32)(u32)v;

	if (x < 0)
		buf_printf(out, "-0x%x", (u32)-(i64)x);
	else
		buf_printf(out, "0x%x", (u32)x);
}

void
divconst_sass(const DivPlan *p, int i, Buf *out)
{
	const DivStep *s = &p->s[i];

	switch (s->kind) {
	case DV_IMAD_HI_U32:
	case DV_IMAD_HI_S32:
	case DV_IMAD_WIDE_U32:
		buf_puts(out, s->kind == DV_IMAD_HI_U32 ? "IMAD.HI.U32 " : s->kind == DV_IMAD_HI_S32 ? "IMAD.HI " :
			 s->pa != DV_PT ? "IMAD.WIDE.U32.X " : "IMAD.WIDE.U32 ");
		dst(p, s, out);
		buf_puts(out, ", ");
		reg(p, s->a, out);
		buf_puts(out, ", ");
		simm(s->imm, out);
		buf_puts(out, ", ");
		reg(p, s->b, out);
		if (s->pa != DV_PT) {
			buf_puts(out, ", ");
			prd(s->pa, out);
		}
		break;
	case DV_IMAD:
		/* nvdisasm names a multiplier of 1 IMAD.IADD */
		buf_puts(out, (u32)s->imm == 1 ? "IMAD.IADD " : "IMAD ");
		reg(p, s->dst, out);
		buf_puts(out, ", ");
		reg(p, s->a, out);
		buf_puts(out, ", ");
		simm(s->imm, out);
		buf_puts(out, ", ");
		reg(p, s->b, out);
		break;
	case DV_ADD:
	case DV_SUB:
	case DV_SUBX: {
		int x = s->kind == DV_SUBX || s->pa != DV_PT;
		buf_puts(out, x ? "IADD3.X " : "IADD3 ");
		dst(p, s, out);
		buf_puts(out, ", ");
		reg(p, s->a, out);
		buf_puts(out, s->kind == DV_SUB ? ", -" : s->kind == DV_SUBX ? ", ~" : ", ");
		reg(p, s->b, out);
		buf_puts(out, ", RZ");
		if (x) {
			buf_puts(out, ", ");
			prd(s->pa, out);
			buf_puts(out, ", ");
			if (s->pb == DV_PT)
				buf_puts(out, "!PT");
			else
				prd(s->pb, out);
		}
		break;
	}
	case DV_SHR_U32:
	case DV_SHR_S32:
		buf_puts(out, s->kind == DV_SHR_U32 ? "SHF.R.U32.HI " : "SHF.R.S32.HI ");
		reg(p, s->dst, out);
		buf_printf(out, ", RZ, 0x%x, ", (u32)s->imm);
		reg(p, s->a, out);
		break;
	case DV_SHR_U64:
	case DV_SHR_S64:
		buf_puts(out, s->kind == DV_SHR_U64 ? "SHF.R.U64 " : "SHF.R.S64 ");
		reg(p, s->dst, out);
		buf_puts(out, ", ");
		reg(p, s->a, out);
		buf_printf(out, ", 0x%x, ", (u32)s->imm);
		reg(p, s->b, out);
		break;
	case DV_LEA_HI:
		buf_puts(out, s->pa != DV_PT ? "LEA.HI.X " : "LEA.HI ");
		dst(p, s, out);
		buf_puts(out, ", ");
		reg(p, s->a, out);
		buf_puts(out, ", ");
		reg(p, s->b, out);
		buf_printf(out, ", RZ, 0x%x", (u32)s->imm);
		if (s->pa != DV_PT) {
			buf_puts(out, ", ");
			prd(s->pa, out);
		}
		break;
	case DV_LEA_HI_SX32:
		buf_puts(out, "LEA.HI.SX32 ");
		reg(p, s->dst, out);
		buf_puts(out, ", ");
		reg(p, s->a, out);
		buf_puts(out, ", ");
		reg(p, s->b, out);
		buf_printf(out, ", 0x%x", (u32)s->imm);
		break;
	case DV_ISETP_GE_U32:
	case DV_ISETP_EQ:
		buf_puts(out, s->kind == DV_ISETP_EQ ? "ISETP.EQ.AND " :
			 s->pa != DV_PT ? "ISETP.GE.U32.AND.EX " : "ISETP.GE.U32.AND ");
		prd(s->pd, out);
		buf_puts(out, ", PT, ");
		reg(p, s->a, out);
		buf_puts(out, ", ");
		simm(s->imm, out);
		buf_puts(out, ", PT");
		if (s->pa != DV_PT) {
			buf_puts(out, ", ");
			prd(s->pa, out);
		}
		break;
	case DV_SEL01:
		buf_puts(out, "SEL ");
		reg(p, s->dst, out);
		buf_puts(out, ", RZ, 0x1, !");
		prd(s->pa, out);
		break;
	case DV_MOV:
		buf_puts(out, "MOV ");
		reg(p, s->dst, out);
		buf_puts(out, ", ");
		reg(p, s->a, out);
		break;
	case DV_MOVI:
		buf_puts(out, "MOV ");
		reg(p, s->dst, out);
		buf_printf(out, ", 0x%x", (u32)s->imm);
		break;
	case DV_AND:
	case DV_XOR_OR:
		buf_puts(out, "LOP3.LUT ");
		reg(p, s->dst, out);
		buf_puts(out, ", ");
		reg(p, s->a, out);
		buf_printf(out, ", 0x%x, ", (u32)s->imm);
		reg(p, s->b, out);
		buf_puts(out, s->kind == DV_AND ? ", 0xc0, !PT" : ", 0xbe, !PT");
		break;
	default:
		die("divconst: step kind %d", s->kind);
	}
}

void
divconst_print(const DivPlan *p, Buf *out)
{
	int i;

	for (i = 0; i < p->nsteps; i++) {
		divconst_sass(p, i, out);
		buf_putc(out, '\n');
	}
	buf_puts(out, "-> ");
	reg(p, p->result, out);
	if (p->bits == 64) {
		buf_puts(out, ":");
		reg(p, p->result + 1, out);
	}
	buf_putc(out, '\n');
}

/* ---- the magic-number proof for 32 bits ---- */

int
divconst_prove32(const DivPlan *p)
{
	u64 d = p->d, m, e;
	int k;

	if (p->bits != 32)
		return -1;
	switch (p->method) {
	case DM_MUL: {
		u64 dd = d >> p->preshift;
		k = 32 + p->shift;
		m = p->magic;
		if (p->preshift && (dd << p->preshift) != d)
			return 0;
		if ((u128)m * dd < (u128)1 << k)
			return 0;
		e = (u64)((u128)m * dd - ((u128)1 << k));
		return ineq32(dd, k, e, 0xffffffffu >> p->preshift, 1);
	}
	case DM_MULADD: {
		u128 mm = ((u128)1 << 32) + p->magic;
		k = 32 + p->shift;
		if (mm * d < (u128)1 << k)
			return 0;
		e = (u64)(mm * d - ((u128)1 << k));
		return ineq32(d, k, e, 0xffffffffu, 1);
	}
	case DM_SMUL: {
		/* q = floor(x*A'/2^k) + [x*A' < 0], A' = M + adj*2^32 (signed) */
		i64 A = (i64)(i32)(u32)p->magic + p->smagic_adj * ((i64)1 << 32);
		i64 sd = (i64)(i32)(u32)d;
		u64 ad = sd < 0 ? (u64)-sd : (u64)sd, aa;
		k = 32 + p->shift;
		if ((A < 0) != (sd < 0) || A == 0)
			return 0;
		aa = A < 0 ? (u64)-A : (u64)A;
		if ((u128)aa * ad <= (u128)1 << k)
			return 0;  /* needs e > 0 */
		e = (u64)((u128)aa * ad - ((u128)1 << k));
		/* the side that rounds down is strict, the ceiling side not */
		if (sd > 0)
			return ineq32(ad, k, e, 0x7fffffff, 1) && ineq32(ad, k, e, 0x80000000u, 0);
		return ineq32(ad, k, e, 0x80000000u, 1) && ineq32(ad, k, e, 0x7fffffff, 0);
	}
	default:
		return -1;
	}
}
