/* test_flow.c -- the compiler's control-flow passes on hand-built MIR
 * (docs/compiler-flow.md): block insertion, the reconvergence pass on a
 * divergent and a uniform diamond, exit threading, spilling under a tiny
 * register limit, and the register limit ptxas derives. */
#include <string.h>

#include "codegen/ra.h"
#include "codegen/reconv.h"
#include "test.h"
#include "test_mir.h"

/* if (x != 0) v = 1; else v = 2; store v -- x from S2R (divergent) or LDC */
static void
diamond(MFunc *f, int divergent)
{
	MRef x, p, v;

	block(f);
	x = mref(mvreg(f, RC_R, 1));
	p = mref(mvreg(f, RC_P, 1));
	v = mref(mvreg(f, RC_R, 1));
	mi(f, "LDC R1, c[0x0][0x28]");
	if (divergent)
		mi(f, "S2R %D, SR_TID.X", x);
	else
		mi(f, "LDC %D, c[0x0][0x210]", x);
	mi(f, "ISETP.NE.AND %D, PT, %U, RZ, PT", p, x);
	f->guard = p.v;
	mi(f, "BRA %L", 2);
	f->guard = -1;
	block(f);   /* 1 */
	mi(f, "MOV %D, 0x1", v);
	mi(f, "BRA %L", 3);
	block(f);   /* 2 */
	mi(f, "MOV %D, 0x2", v);
	block(f);   /* 3: the join */
	mi(f, "STG.E desc[UR4][%U.64], %U", x, v);
	mi(f, "EXIT");
	block(f);   /* 4 */
	mi(f, "BRA %L", 4);
	mir_cfg_recompute(f);
}

TEST(flow_insert_block_shifts_targets)
{
	Arena a = {0};
	MFunc f;

	mfunc_init(&f, &a);
	block(&f);
	mi(&f, "BRA %L", 2);
	block(&f);
	mi(&f, "EXIT");
	block(&f);
	mi(&f, "EXIT");
	mir_insert_block(&f, 1);
	CHECK(f.b.n == 4);
	CHECK(f.b.v[0].ins.v[0].target == 3);
	CHECK(f.b.v[1].ins.n == 0);
	mir_cfg_recompute(&f);
	CHECK(f.b.v[0].succ[0] == -1 && f.b.v[0].succ[1] == 3);
	CHECK(f.b.v[1].succ[0] == 2);
	mfunc_free(&f);
	arena_free(&a);
}

TEST(flow_reconv_divergent_diamond)
{
	Arena a = {0};
	MFunc f;
	ReconvStats st;
	size_t b, i;
	int bsync = -1, e = -1;

	mfunc_init(&f, &a);
	diamond(&f, 1);
	reconv_run(&f, &st);
	CHECK(st.regions == 1 && st.bregs == 1);
	CHECK(count_text(&f, "BSSY B0") == 1 && count_text(&f, "BSYNC B0") == 1);
	for (b = 0; b < f.b.n; b++)
		for (i = 0; i < f.b.v[b].ins.n; i++) {
			const MIns *m = &f.b.v[b].ins.v[i];
			if (!strncmp(m->text, "BSYNC", 5))
				bsync = (int)b;
			if (!strncmp(m->text, "BSSY", 4))
				e = m->target;
		}
	/* the BSSY names the block right after the BSYNC's; both paths of the
	 * diamond reach the BSYNC */
	CHECK(bsync >= 0 && e == bsync + 1 && f.b.v[bsync].ins.n == 1);
	CHECK(!strncmp(f.b.v[0].ins.v[f.b.v[0].ins.n - 2].text, "BSSY", 4));
	for (b = 0; b < f.b.n; b++)
		for (i = 0; i < f.b.v[b].ins.n; i++) {
			const MIns *m = &f.b.v[b].ins.v[i];
			if (mir_is_bra(m) && m->target > bsync && m->target != (int)f.b.n - 1)
				CHECK(!"a branch skips the BSYNC");
		}
	mfunc_free(&f);
	arena_free(&a);
}

TEST(flow_reconv_uniform_diamond)
{
	Arena a = {0};
	MFunc f;
	ReconvStats st;

	mfunc_init(&f, &a);
	diamond(&f, 0);
	reconv_run(&f, &st);
	CHECK(st.regions == 0);
	CHECK(count_text(&f, "BSSY") == 0 && count_text(&f, "BSYNC") == 0);
	mfunc_free(&f);
	arena_free(&a);
}

TEST(flow_reconv_exit_threading)
{
	Arena a = {0};
	MFunc f;
	ReconvStats st;
	MRef x, p;

	mfunc_init(&f, &a);
	block(&f);
	x = mref(mvreg(&f, RC_R, 1));
	p = mref(mvreg(&f, RC_P, 1));
	mi(&f, "S2R %D, SR_TID.X", x);
	mi(&f, "ISETP.NE.AND %D, PT, %U, RZ, PT", p, x);
	f.guard = p.v;
	mi(&f, "BRA %L", 2);
	f.guard = -1;
	block(&f);
	mi(&f, "STG.E desc[UR4][%U.64], %U", x, x);
	block(&f);
	mi(&f, "EXIT");
	mir_cfg_recompute(&f);
	reconv_run(&f, &st);
	CHECK(!strcmp(f.b.v[0].ins.v[2].text, "EXIT") && f.b.v[0].ins.v[2].guard == p.v);
	CHECK(st.regions == 0);
	mfunc_free(&f);
	arena_free(&a);
}

TEST(flow_spill_tiny_limit)
{
	Arena a = {0};
	MFunc f;
	RaOpts o = {0};
	RaResult r;
	char err[200];
	MRef v[6];
	int k, rc;
	size_t b, i;

	mfunc_init(&f, &a);
	block(&f);
	mi(&f, "LDC R1, c[0x0][0x28]");
	for (k = 0; k < 6; k++) {
		v[k] = mref(mvreg(&f, RC_R, 1));
		mi(&f, "MOV %D, %h", v[k], (unsigned)k);
	}
	for (k = 5; k > 0; k--)
		mi(&f, "IADD3 %D, %U, %U, RZ", v[0], v[0], v[k]);
	mi(&f, "STG.E desc[UR4][%U.64], %U", v[0], v[0]);
	mi(&f, "EXIT");
	mir_cfg_recompute(&f);
	o.max_r = 4;   /* R0, R2, R3 (R1 is the stack pointer) */
	rc = ra_run(&f, &o, &r, err, sizeof err);
	CHECK(rc == 0);
	CHECK(r.spilled > 0 && r.frame >= 16 && r.frame % 16 == 0 && r.regs <= 4);
	CHECK(count_text(&f, "STL") > 0 && count_text(&f, "LDL") > 0);
	CHECK(count_text(&f, "IADD3 R1, R1, -0x") == 1);
	for (b = 0; b < f.b.n; b++)
		for (i = 0; i < f.b.v[b].ins.n; i++)
			for (k = 0; k < f.b.v[b].ins.v[i].nr; k++) {
				const MVreg *x = &f.vr.v[f.b.v[b].ins.v[i].r[k].v];
				if (x->cls == RC_R && !x->fixed)
					CHECK(x->phys < 4 && x->phys != 1);
			}
	mfunc_free(&f);
	arena_free(&a);
}

TEST(flow_reg_limit)
{
	u32 none[3] = { 0, 0, 0 }, t1024[3] = { 1024, 1, 1 }, t96[3] = { 96, 0, 0 },
	    t16x16[3] = { 16, 16, 1 }, t1000[3] = { 1000, 1, 1 };

	CHECK(ra_reg_limit(0, none, 0) == 255);
	CHECK(ra_reg_limit(32, none, 0) == 32);
	CHECK(ra_reg_limit(0, t1024, 0) == 64);
	CHECK(ra_reg_limit(0, t1024, 2) == 32);
	CHECK(ra_reg_limit(40, t1024, 1) == 40);
	CHECK(ra_reg_limit(0, t96, 0) == 255);
	CHECK(ra_reg_limit(0, t16x16, 4) == 64);
	CHECK(ra_reg_limit(0, t1000, 1) == 64);   /* rounded up to 32 warps */
	CHECK(ra_reg_limit(0, t1024, 8) == 16);   /* the floor */
}
