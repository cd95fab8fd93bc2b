/* test_ir_constfold.c -- constant folding (src/ir/constfold.c): random
 * operations on constants fold to exactly what the interpreter computes;
 * identities, constant predicates, branch folding and unreachable blocks;
 * float constants forwarded into float operands. */
#include "test_ir.h"

#include "run/spec.h"

enum { NCASE = 64 };

static const u64 special[] = {
	0, 1, 2, 3, 7, 31, 32, 33, 63, 64, 0xffffffffull, 0xfffffffeull, 0x80000000ull, 0x7fffffffull,
	0x80000001ull, 0xffffffffffffffffull, 0x8000000000000000ull, 0x7fffffffffffffffull, 1000000007,
	0x100000000ull,
};
static const u32 fspecial[] = {
	0, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0x00000001u,
	0x807fffffu, 0x7f7fffffu, 0x00800000u, 0x3eaaaaabu, 0x4b000000u, 0xcf000000u,
};

static u64
pick(u64 *st)
{
	u64 r = splitmix64(st);
	return r % 3 ? special[r % (sizeof special / sizeof *special)] : splitmix64(st);
}

static u32
fpick(u64 *st)
{
	u64 r = splitmix64(st);
	return r % 3 ? fspecial[r % (sizeof fspecial / sizeof *fspecial)] : (u32)splitmix64(st);
}

/* One case: a line of PTX computing a value of constants into slot i. */
static void
gen_case(Buf *b, u64 *st, int i)
{
	static const char *iops[] = {"add", "sub", "mul.lo", "mul.hi", "div", "rem", "min", "max", "and", "or",
				     "xor", "shl", "shr", "not", "neg", "abs", "mad.lo", "mul.wide", "setp", "cvt",
				     "add.sat", "sub.sat", "mad.hi", "cnot"};
	static const char *ity[] = {"s32", "u32", "s64", "u64"};
	static const char *cmps[] = {"eq", "ne", "lt", "le", "gt", "ge"};
	static const char *fops[] = {"add", "sub", "mul", "fma"};
	static const char *rnds[] = {".rn", ".rz", ".rm", ".rp"};
	u64 k = splitmix64(st);
	const char *op;
	const char *t = ity[k % 4];
	int w64 = t[1] == '6';
	u64 a = pick(st), bb = pick(st), c = pick(st);
	const char *r = w64 ? "%rd" : "%r";

	if (k % 7 == 1) {   /* conversions with a float side */
		static const char *cv[] = {"cvt.rn.f16.f32 %%h%d, %%f%d", "cvt.rz.bf16.f32 %%h%d, %%f%d",
					   "cvt.rzi.s32.f32 %%r%d, %%f%d", "cvt.rni.u32.f32 %%r%d, %%f%d",
					   "cvt.rn.f32.s32 %%f%d, %%rt%d", "cvt.rm.f32.u32 %%f%d, %%rt%d",
					   "cvt.rn.f64.f32 %%fd%d, %%f%d", "cvt.rn.ftz.sat.f32.f32 %%f%d, %%f%d"};
		int v = (int)((k >> 8) % 8), src = 3 * i, dst = 3 * i + 2;
		char line[96];
		buf_printf(b, "\tmov.b32 %%f%d, 0x%08x;\n\tmov.b32 %%rt%d, %u;\n", src, fpick(st), i, (u32)pick(st));
		snprintf(line, sizeof line, cv[v], v < 4 ? i : dst, v == 4 || v == 5 ? i : src);
		buf_printf(b, "\t%s;\n", line);
		if (v < 2)
			buf_printf(b, "\tst.global.b16 [%%rd1+%d], %%h%d;\n", 8 * i, i);
		else if (v < 4)
			buf_printf(b, "\tst.global.u32 [%%rd1+%d], %%r%d;\n", 8 * i, i);
		else if (v == 6)
			buf_printf(b, "\tst.global.f64 [%%rd1+%d], %%fd%d;\n", 8 * i, dst);
		else
			buf_printf(b, "\tst.global.f32 [%%rd1+%d], %%f%d;\n", 8 * i, dst);
		return;
	}
	if (k % 5 == 0) {   /* f32 */
		const char *fo = fops[(k >> 8) % 4];
		int ftz = (k >> 12) & 1, sat = (k >> 13) & 1;
		buf_printf(b, "\tmov.b32 %%f%d, 0x%08x;\n\tmov.b32 %%f%d, 0x%08x;\n\tmov.b32 %%f%d, 0x%08x;\n",
			   3 * i, fpick(st), 3 * i + 1, fpick(st), 3 * i + 2, fpick(st));
		buf_printf(b, "\t%s%s%s%s.f32 %%f%d, %%f%d, %%f%d%s;\n", fo, rnds[(k >> 16) % 4], ftz ? ".ftz" : "",
			   sat ? ".sat" : "", 3 * i + 2, 3 * i, 3 * i + 1, !strcmp(fo, "fma") ? ", %f_c" : "");
		buf_printf(b, "\tst.global.f32 [%%rd1+%d], %%f%d;\n", 8 * i, 3 * i + 2);
		return;
	}
	op = iops[(k >> 8) % (sizeof iops / sizeof *iops)];
	if (!strcmp(op, "div") || !strcmp(op, "rem"))
		while (!(w64 ? bb : (u32)bb))
			bb = pick(st);
	if (!strcmp(op, "add.sat") || !strcmp(op, "sub.sat"))
		t = "s32", w64 = 0, r = "%r";
	if (!strcmp(op, "mad.hi") || !strcmp(op, "mul.wide")) {
		t = (k >> 20) & 1 ? "s32" : "u32";
		w64 = 0;
		r = "%r";
	}
	buf_printf(b, "\tmov.b%d %sa%d, %" PRIu64 ";\n\tmov.b%d %sb%d, %" PRIu64 ";\n\tmov.b%d %sc%d, %" PRIu64 ";\n",
		   w64 ? 64 : 32, r, i, w64 ? a : (u32)a, w64 ? 64 : 32, r, i, w64 ? bb : (u32)bb,
		   w64 ? 64 : 32, r, i, w64 ? c : (u32)c);
	if (!strcmp(op, "setp")) {
		buf_printf(b, "\tsetp.%s.%s %%p%d, %sa%d, %sb%d;\n\tselp.u32 %%r%d, 1, 0, %%p%d;\n",
			   cmps[(k >> 24) % 6], t, i, r, i, r, i, i, i);
		buf_printf(b, "\tst.global.u32 [%%rd1+%d], %%r%d;\n", 8 * i, i);
	} else if (!strcmp(op, "cvt")) {
		const char *dt = ity[(k >> 28) % 4];
		int d64 = dt[1] == '6';
		buf_printf(b, "\tcvt%s.%s.%s %s%d, %sa%d;\n", (k >> 30) & 1 ? ".sat" : "", dt, t, d64 ? "%rd" : "%r", i, r, i);
		buf_printf(b, "\tst.global.u%d [%%rd1+%d], %s%d;\n", d64 ? 64 : 32, 8 * i, d64 ? "%rd" : "%r", i);
	} else if (!strcmp(op, "mul.wide")) {
		buf_printf(b, "\tmul.wide.%s %%rd%d, %%ra%d, %%rb%d;\n", t, i, i, i);
		buf_printf(b, "\tst.global.u64 [%%rd1+%d], %%rd%d;\n", 8 * i, i);
	} else {
		int un = !strcmp(op, "not") || !strcmp(op, "neg") || !strcmp(op, "abs") || !strcmp(op, "cnot");
		int mad = !strncmp(op, "mad", 3);
		const char *opt = t;
		char name[32];
		if (!strcmp(op, "and") || !strcmp(op, "or") || !strcmp(op, "xor") || !strcmp(op, "not") ||
		    !strcmp(op, "cnot"))
			opt = w64 ? "b64" : "b32";
		if (!strcmp(op, "shl"))
			opt = w64 ? "b64" : "b32";
		if ((!strcmp(op, "abs") || !strcmp(op, "neg")) && t[0] == 'u')
			opt = w64 ? "s64" : "s32";
		snprintf(name, sizeof name, "%s", op);
		if (!strcmp(op, "add.sat") || !strcmp(op, "sub.sat"))
			snprintf(name, sizeof name, "%.3s.sat", op), opt = "s32";
		if (!strcmp(op, "shl") || !strcmp(op, "shr"))
			buf_printf(b, "\tmov.b32 %%rs%d, %u;\n\t%s.%s %s%d, %sa%d, %%rs%d;\n", i, (u32)bb % 70, name, opt,
				   r, i, r, i, i);
		else if (un)
			buf_printf(b, "\t%s.%s %s%d, %sa%d;\n", name, opt, r, i, r, i);
		else if (mad)
			buf_printf(b, "\t%s.%s %s%d, %sa%d, %sb%d, %sc%d;\n", name, opt, r, i, r, i, r, i, r, i);
		else
			buf_printf(b, "\t%s.%s %s%d, %sa%d, %sb%d;\n", name, opt, r, i, r, i, r, i);
		buf_printf(b, "\tst.global.u%d [%%rd1+%d], %s%d;\n", w64 ? 64 : 32, 8 * i, r, i);
	}
}


static void
gen_kernel(Buf *b, u64 seed)
{
	u64 st = seed;
	int i;

	buf_printf(b, ".version 8.0\n.target sm_90\n.address_size 64\n"
		      ".visible .entry fold(.param .u64 fold_out)\n{\n"
		      "\t.reg .pred %%p<%d>;\n\t.reg .b32 %%r<%d>;\n\t.reg .b32 %%ra<%d>;\n\t.reg .b32 %%rb<%d>;\n"
		      "\t.reg .b32 %%rc<%d>;\n\t.reg .b32 %%rs<%d>;\n\t.reg .b64 %%rd<%d>;\n\t.reg .b64 %%rda<%d>;\n"
		      "\t.reg .b64 %%rdb<%d>;\n\t.reg .b64 %%rdc<%d>;\n\t.reg .f32 %%f<%d>;\n\t.reg .f32 %%f_c;\n"
		      "\t.reg .b16 %%h<%d>;\n\t.reg .f64 %%fd<%d>;\n\t.reg .b32 %%rt<%d>;\n"
		      "\tld.param.u64 %%rd1, [fold_out];\n\tcvta.to.global.u64 %%rd1, %%rd1;\n"
		      "\tmov.b32 %%f_c, 0x3fc00000;\n",
		   NCASE, NCASE + 2, NCASE, NCASE, NCASE, NCASE, NCASE + 2, NCASE, NCASE, NCASE, 3 * NCASE, NCASE,
		   3 * NCASE, NCASE);
	for (i = 2; i < NCASE; i++)
		gen_case(b, &st, i);
	buf_printf(b, "\tret;\n}\n");
}

/* Every store of the folded kernel stores a constant: its value. */
static int
stored_consts(IrT *t, u64 *out, u8 *have, size_t n)
{
	size_t b, i;
	int bad = 0;

	for (b = 0; b < t->f.b.n; b++)
		for (i = 0; i < t->f.b.v[b].ins.n; i++) {
			const IrIns *x = &t->f.b.v[b].ins.v[i], *d;
			size_t slot;
			int sz;
			if (x->dead || x->p.op != PTX_OP_st)
				continue;
			slot = (size_t)x->p.opds[0].imm / 8;
			sz = ptx_type_size((PtxType)x->p.types[0]);
			if (slot >= n || x->p.opds[1].kind != PTX_OPD_REG || !(d = irt_def(t, x->p.opds[1].reg)) ||
			    d->p.op != PTX_OP_mov || d->p.opds[1].kind != PTX_OPD_IMM) {
				bad++;
				continue;
			}
			out[slot] = sz == 8 ? (u64)d->p.opds[1].imm : sz == 4 ? (u32)d->p.opds[1].imm : (u16)d->p.opds[1].imm;
			have[slot] = 1;
		}
	return bad;
}

TEST(ir_constfold_equals_interp)
{
	u64 seed;
	int kernels = 0, cases = 0;

	for (seed = 1; seed <= 12; seed++) {
		Buf src = {0};
		IrT t;
		u64 *want, got[NCASE];
		u8 have[NCASE];
		int i, bad;
		memset(got, 0, sizeof got);
		memset(have, 0, sizeof have);
		gen_kernel(&src, seed * 7919);
		if (irt_build(&t, src.s) < 0) {
			FAIL("seed %" PRIu64 ": the generated PTX does not build:\n%s", seed, src.s);
			buf_free(&src);
			irt_free(&t);
			return;
		}
		want = irt_interp(&t, NCASE);
		CHECK(want != NULL);
		irt_run(&t, "constfold copyprop dce");
		bad = stored_consts(&t, got, have, NCASE);
		if (bad)
			FAIL("seed %" PRIu64 ": %d stores not folded to constants:\n%s", seed, bad, irt_dump(&t));
		for (i = 2; want && i < NCASE; i++) {
			if (!have[i])
				continue;
			cases++;
			if (got[i] != want[i])
				FAIL("seed %" PRIu64 " case %d: folded 0x%" PRIx64 ", interpreter 0x%" PRIx64, seed, i,
				     got[i], want[i]);
		}
		kernels++;
		free(want);
		buf_free(&src);
		irt_free(&t);
	}
	CHECK(kernels == 12);
	CHECK(cases >= 12 * (NCASE - 2) * 9 / 10);
}

static const char *branchy =
	".version 8.0\n.target sm_90\n.address_size 64\n"
	".visible .entry k(.param .u64 k_out, .param .u32 k_n)\n{\n"
	"\t.reg .pred %p<4>;\n\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [k_out];\n"
	"\tld.param.u32 %r1, [k_n];\n"
	"\tmov.u32 %r2, 5;\n"
	"\tsetp.gt.s32 %p1, %r2, 3;\n"          /* true */
	"\t@%p1 bra L1;\n"
	"\tst.global.u32 [%rd1], %r1;\n"         /* unreachable */
	"\tst.global.u32 [%rd1+4], %r1;\n"
	"L1:\n"
	"\tsetp.lt.u32 %p2, %r2, 3;\n"          /* false */
	"\t@%p2 bra L2;\n"
	"\tadd.s32 %r3, %r1, 0;\n"               /* identities */
	"\tmul.lo.s32 %r4, %r3, 1;\n"
	"\tand.b32 %r5, %r4, 0;\n"
	"\tor.b32 %r6, %r4, -1;\n"
	"\tshl.b32 %r7, %r4, 0;\n"
	"\txor.b32 %r8, %r7, %r7;\n"
	"\tst.global.u32 [%rd1+8], %r4;\n"
	"\tst.global.u32 [%rd1+12], %r5;\n"
	"\tst.global.u32 [%rd1+16], %r6;\n"
	"\tst.global.u32 [%rd1+20], %r8;\n"
	"\t@%p2 st.global.u32 [%rd1+24], %r1;\n" /* never */
	"\t@!%p2 st.global.u32 [%rd1+28], %r1;\n"/* always: the guard goes */
	"L2:\n"
	"\tret;\n}\n";

TEST(ir_constfold_branches_identities)
{
	IrT t;
	const char *d;

	if (irt_build(&t, branchy) < 0) {
		FAIL("does not build");
		irt_free(&t);
		return;
	}
	CHECK(irt_count(&t, PTX_OP_bra) == 2);
	irt_run(&t, "constfold copyprop dce");
	d = irt_dump(&t);
	CHECK(irt_count(&t, PTX_OP_bra) == 0);       /* taken -> fall-through to L1; not taken -> gone */
	CHECK(irt_count(&t, PTX_OP_setp) == 0);
	CHECK(irt_count(&t, PTX_OP_st) == 5);        /* 2 unreachable and the never-guarded one are gone */
	CHECK(irt_count(&t, PTX_OP_add) + irt_count(&t, PTX_OP_mul) + irt_count(&t, PTX_OP_and) +
	      irt_count(&t, PTX_OP_or) + irt_count(&t, PTX_OP_shl) + irt_count(&t, PTX_OP_xor) == 0);
	CHECK(strstr(d, "st.global.u32 [%v21+8], %v5;") != NULL);    /* x+0, x*1 read the parameter */
	CHECK(strstr(d, "@") == NULL);                                 /* no guard left */
	CHECK(strstr(d, "mov.b32 %v10, -1;") != NULL);                       /* x | ~0 */
	irt_free(&t);
}

static const char *floats =
	".version 8.0\n.target sm_90\n.address_size 64\n"
	".visible .entry k(.param .u64 k_out)\n{\n"
	"\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n\t.reg .f32 %f<8>;\n\t.reg .f64 %fd<4>;\n\t.reg .pred %p<2>;\n"
	"\tld.param.u64 %rd1, [k_out];\n"
	"\tld.global.f32 %f1, [%rd1];\n"
	"\tmov.f32 %f2, 0f00000000;\n"
	"\tmov.f32 %f3, 0f3F000000;\n"
	"\tfma.rn.f32 %f4, %f1, %f1, %f2;\n"     /* zero: forwarded (RZ) */
	"\tmul.f32 %f5, %f4, %f3;\n"             /* single reader: forwarded */
	"\tst.global.f32 [%rd1], %f5;\n"
	"\tmov.f64 %fd1, 0d4000000000000000;\n"
	"\tld.global.f64 %fd2, [%rd1+8];\n"
	"\tadd.f64 %fd3, %fd2, %fd1;\n"
	"\tst.global.f64 [%rd1+8], %fd3;\n"
	"\tret;\n}\n";

TEST(ir_constfold_float_operands)
{
	IrT t;
	const char *d;

	if (irt_build(&t, floats) < 0) {
		FAIL("does not build");
		irt_free(&t);
		return;
	}
	irt_run(&t, "constfold copyprop dce");
	d = irt_dump(&t);
	CHECK(strstr(d, "fma.rn.f32 %v12, %v9, %v9, 0f00000000;") != NULL);
	CHECK(strstr(d, ", 0f3F000000;") != NULL);
	CHECK(strstr(d, ", 0d4000000000000000;") != NULL);
	CHECK(irt_count(&t, PTX_OP_mov) == 0);
	irt_free(&t);
}
