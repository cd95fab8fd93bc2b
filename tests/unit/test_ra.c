/* test_ra.c -- copy coalescing in the register allocator (coalesce.c,
 * ra.c) on hand-built MIR: scalars gathered into a group take its slots,
 * a group scattered into scalars leaves no copies, a loop-carried
 * accumulator stays in place, interfering copies and misaligned slots are
 * kept, coalescing that would spill falls back, and spilled predicates
 * live in general registers. */
#include <stdlib.h>
#include <string.h>

#include "codegen/ra.h"
#include "codegen/reconv.h"
#include "test.h"
#include "test_mir.h"

static MIns *
copy(MFunc *f, MRef d, MRef s)
{
	MIns *m = mi(f, "MOV %D, %U", d, s);
	m->copy = 1;
	return m;
}

static int
phys(const MFunc *f, MRef r)
{
	return f->vr.v[r.v].phys + r.sub;
}

static int
alloc(MFunc *f, int max_r, RaResult *r)
{
	RaOpts o = {0};
	char err[200];
	o.max_r = max_r;
	o.coalesce = 1;
	mir_cfg_recompute(f);
	return ra_run(f, &o, r, err, sizeof err);
}

/* a[k] = k; G = {a0..a3}; D = op(G); b[k] = D.k; store b */
TEST(ra_coalesce_group_in_out)
{
	Arena a = {0};
	MFunc f;
	RaResult r;
	MRef x[4], y[4], G, D;
	int k;

	mfunc_init(&f, &a);
	block(&f);
	mi(&f, "LDC R1, c[0x0][0x28]");
	G = mref(mvreg(&f, RC_R, 4));
	D = mref(mvreg(&f, RC_R, 4));
	for (k = 0; k < 4; k++) {
		x[k] = mref(mvreg(&f, RC_R, 1));
		y[k] = mref(mvreg(&f, RC_R, 1));
		mi(&f, "MOV %D, %h", x[k], (unsigned)k);
	}
	for (k = 0; k < 4; k++)
		copy(&f, mpart(G.v, k, 1), x[k]);
	mi(&f, "HMMA.1688.F32 %D, %U, %U, %U", D, mpart(G.v, 0, 2), mpart(G.v, 2, 1), G);
	for (k = 0; k < 4; k++)
		copy(&f, y[k], mpart(D.v, k, 1));
	for (k = 0; k < 4; k++)
		mi(&f, "STG.E desc[UR4][%U.64], %U", mpart(G.v, 0, 2), y[k]);
	mi(&f, "EXIT");
	CHECK(alloc(&f, 255, &r) == 0);
	CHECK(count_text(&f, "MOV") == 4);   /* only the constants */
	CHECK(r.coalesced >= 4);
	for (k = 0; k < 4; k++) {
		CHECK(phys(&f, x[k]) == phys(&f, G) + k);
		CHECK(phys(&f, y[k]) == phys(&f, D) + k);
	}
	CHECK(phys(&f, G) % 4 == 0 && phys(&f, D) % 4 == 0);
	mfunc_free(&f);
	arena_free(&a);
}

/* acc = 0; loop { C = acc; D = op(A, C); acc = D } store acc: the
 * accumulator, C and D share registers and the loop has no copy */
TEST(ra_coalesce_loop_accumulator)
{
	Arena a = {0};
	MFunc f;
	RaResult r;
	MRef acc[4], C, D, A, p;
	size_t i;
	int k, movs = 0;

	mfunc_init(&f, &a);
	block(&f);
	mi(&f, "LDC R1, c[0x0][0x28]");
	A = mref(mvreg(&f, RC_R, 4));
	p = mref(mvreg(&f, RC_P, 1));
	mi(&f, "LDS.128 %D, [RZ]", A);
	for (k = 0; k < 4; k++) {
		acc[k] = mref(mvreg(&f, RC_R, 1));
		mi(&f, "MOV %D, 0x0", acc[k]);
	}
	block(&f);
	C = mref(mvreg(&f, RC_R, 4));
	D = mref(mvreg(&f, RC_R, 4));
	for (k = 0; k < 4; k++)
		copy(&f, mpart(C.v, k, 1), acc[k]);
	f.vr.v[C.v].tmp = f.vr.v[D.v].tmp = 1;
	mi(&f, "HMMA.16816.F32 %D, %U, %U, %U", D, A, mpart(A.v, 0, 2), C);
	for (k = 0; k < 4; k++)
		copy(&f, acc[k], mpart(D.v, k, 1));
	mi(&f, "ISETP.NE.AND %D, PT, %U, RZ, PT", p, acc[0]);
	f.guard = p.v;
	mi(&f, "BRA %L", 1);
	f.guard = -1;
	block(&f);
	for (k = 0; k < 4; k++)
		mi(&f, "STG.E desc[UR4][%U.64], %U", mpart(A.v, 0, 2), acc[k]);
	mi(&f, "EXIT");
	CHECK(alloc(&f, 255, &r) == 0);
	for (i = 0; i < f.b.v[1].ins.n; i++)
		movs += !strncmp(f.b.v[1].ins.v[i].text, "MOV", 3);
	CHECK(movs == 0);
	CHECK(phys(&f, C) == phys(&f, D));
	for (k = 0; k < 4; k++)
		CHECK(phys(&f, acc[k]) == phys(&f, C) + k);
	mfunc_free(&f);
	arena_free(&a);
}

/* d = 5; s = 7; @p d = s; store d, s: when p is false d keeps 5 while s
 * is live, so the guarded copy stays and d, s get different registers */
TEST(ra_coalesce_interference_kept)
{
	Arena a = {0};
	MFunc f;
	RaResult r;
	MRef s, d, q, p;

	mfunc_init(&f, &a);
	block(&f);
	mi(&f, "LDC R1, c[0x0][0x28]");
	s = mref(mvreg(&f, RC_R, 1));
	d = mref(mvreg(&f, RC_R, 1));
	q = mref(mvreg(&f, RC_R, 2));
	p = mref(mvreg(&f, RC_P, 1));
	mi(&f, "LDC.64 %D, c[0x0][0x210]", q);
	mi(&f, "MOV %D, 0x5", d);
	mi(&f, "MOV %D, 0x7", s);
	mi(&f, "ISETP.NE.AND %D, PT, %U, RZ, PT", p, mpart(q.v, 0, 1));
	f.guard = p.v;
	copy(&f, d, s);
	f.guard = -1;
	mi(&f, "STG.E desc[UR4][%U.64], %U", q, d);
	mi(&f, "STG.E desc[UR4][%U.64+0x4], %U", q, s);
	mi(&f, "EXIT");
	CHECK(alloc(&f, 255, &r) == 0);
	CHECK(count_text(&f, "MOV") == 3);
	CHECK(phys(&f, d) != phys(&f, s));
	mfunc_free(&f);
	arena_free(&a);
}

/* t = 1; x = 3; store x; @p t = 2 (t a temporary of selection); store
 * t: the guarded update keeps t's first value when p is false, so t is
 * live across x and they differ (taking the guarded definition as
 * killing would let x reuse t's register) */
TEST(ra_guarded_def_keeps_value)
{
	Arena a = {0};
	MFunc f;
	RaResult r;
	MRef t, x, q, p;

	mfunc_init(&f, &a);
	block(&f);
	mi(&f, "LDC R1, c[0x0][0x28]");
	q = mref(mvreg(&f, RC_R, 2));
	p = mref(mvreg(&f, RC_P, 1));
	t = mref(mvreg(&f, RC_R, 1));
	x = mref(mvreg(&f, RC_R, 1));
	f.vr.v[t.v].tmp = 1;
	mi(&f, "LDC.64 %D, c[0x0][0x210]", q);
	mi(&f, "ISETP.NE.AND %D, PT, %U, RZ, PT", p, mpart(q.v, 0, 1));
	mi(&f, "MOV %D, 0x1", t);
	mi(&f, "MOV %D, 0x3", x);
	mi(&f, "STG.E desc[UR4][%U.64+0x4], %U", q, x);
	f.guard = p.v;
	mi(&f, "MOV %D, 0x2", t);
	f.guard = -1;
	mi(&f, "STG.E desc[UR4][%U.64], %U", q, t);
	mi(&f, "EXIT");
	CHECK(alloc(&f, 255, &r) == 0);
	CHECK(phys(&f, t) != phys(&f, x));
	mfunc_free(&f);
	arena_free(&a);
}

/* A pair copied part by part into parts 1..2 of a quad (an odd offset)
 * cannot be a slot of it: the copies stay, the pair stays even. */
TEST(ra_coalesce_alignment)
{
	Arena a = {0};
	MFunc f;
	RaResult r;
	MRef P, Q;

	mfunc_init(&f, &a);
	block(&f);
	mi(&f, "LDC R1, c[0x0][0x28]");
	P = mref(mvreg(&f, RC_R, 2));
	Q = mref(mvreg(&f, RC_R, 4));
	mi(&f, "LDC.64 %D, c[0x0][0x210]", P);
	mi(&f, "MOV %D, 0x0", mpart(Q.v, 0, 1));
	copy(&f, mpart(Q.v, 1, 1), mpart(P.v, 0, 1));
	copy(&f, mpart(Q.v, 2, 1), mpart(P.v, 1, 1));
	mi(&f, "MOV %D, 0x0", mpart(Q.v, 3, 1));
	mi(&f, "STG.E.128 desc[UR4][%U.64], %U", P, Q);
	mi(&f, "EXIT");
	CHECK(alloc(&f, 255, &r) == 0);
	CHECK(phys(&f, P) % 2 == 0 && phys(&f, Q) % 4 == 0);
	CHECK(count_text(&f, "MOV") == 4);
	mfunc_free(&f);
	arena_free(&a);
}

/* Under a register limit coalescing must not cost spills the plain
 * allocation avoids: eight values live across a chain of copies. */
TEST(ra_coalesce_limit)
{
	Arena a = {0};
	MFunc f;
	RaResult r;
	MRef v[8], w[8], q;
	size_t b, i;
	int k;

	mfunc_init(&f, &a);
	block(&f);
	mi(&f, "LDC R1, c[0x0][0x28]");
	q = mref(mvreg(&f, RC_R, 2));
	mi(&f, "LDC.64 %D, c[0x0][0x210]", q);
	for (k = 0; k < 8; k++) {
		v[k] = mref(mvreg(&f, RC_R, 1));
		w[k] = mref(mvreg(&f, RC_R, 1));
		mi(&f, "MOV %D, %h", v[k], (unsigned)k);
	}
	for (k = 0; k < 8; k++)
		copy(&f, w[k], v[k]);
	for (k = 0; k < 8; k++)
		mi(&f, "STG.E desc[UR4][%U.64], %U", q, w[k]);
	mi(&f, "EXIT");
	CHECK(alloc(&f, 12, &r) == 0);
	CHECK(r.spilled == 0 && r.regs <= 12);
	CHECK(count_text(&f, "MOV") == 8);
	for (b = 0; b < f.b.n; b++)
		for (i = 0; i < f.b.v[b].ins.n; i++)
			for (k = 0; k < f.b.v[b].ins.v[i].nr; k++) {
				const MVreg *x = &f.vr.v[f.b.v[b].ins.v[i].r[k].v];
				if (x->cls == RC_R && !x->fixed)
					CHECK(x->phys + x->w <= 12 && (x->phys > 1 || x->phys + x->w <= 1));
			}
	mfunc_free(&f);
	arena_free(&a);
}

/* Four predicates live at once with two predicate registers: the ones
 * spilled live in general registers (SEL after the def, ISETP before the
 * use), not in local memory. */
TEST(ra_predicate_spill_to_register)
{
	Arena a = {0};
	MFunc f;
	RaOpts o = {0};
	RaResult r;
	char err[200];
	MRef p[4], x, q;
	int k;

	mfunc_init(&f, &a);
	block(&f);
	mi(&f, "LDC R1, c[0x0][0x28]");
	q = mref(mvreg(&f, RC_R, 2));
	x = mref(mvreg(&f, RC_R, 1));
	mi(&f, "LDC.64 %D, c[0x0][0x210]", q);
	mi(&f, "LDG.E %D, desc[UR4][%U.64]", x, q);
	for (k = 0; k < 4; k++) {
		p[k] = mref(mvreg(&f, RC_P, 1));
		mi(&f, "ISETP.GT.AND %D, PT, %U, %h, PT", p[k], x, (unsigned)k);
	}
	for (k = 0; k < 4; k++) {
		f.guard = p[k].v;
		mi(&f, "STG.E desc[UR4][%U.64+0x%x], %U", q, (unsigned)(4 * k), x);
	}
	f.guard = -1;
	mi(&f, "EXIT");
	mir_cfg_recompute(&f);
	o.max_p = 2;
	CHECK(ra_run(&f, &o, &r, err, sizeof err) == 0);
	CHECK(r.spilled > 0);
	CHECK(count_text(&f, "STL") == 0 && count_text(&f, "LDL") == 0);
	CHECK(count_text(&f, "SEL") > 0 && count_text(&f, "ISETP.NE.U32.AND") > 0);
	CHECK(r.frame == 0);
	mfunc_free(&f);
	arena_free(&a);
}
