/* test_ptx.c -- the PTX AST as the interpreter and compiler see it:
 * opcodes and decoded modifiers, operand kinds, register ids, labels,
 * calls, initializers, and the error path. */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx.h"
#include "ptx/ptxint.h"
#include "test.h"

static const char *const src =
	".version 8.3\n"
	".target sm_90a\n"
	".address_size 64\n"
	".global .align 4 .f32 gv = 0f3F800000;\n"
	".global .align 8 .u64 tab[2] = {7, generic(gv)+4};\n"
	".const .s16 neg[] = {-2, 3};\n"
	".func (.param .b32 r) f(.param .b32 a)\n"
	"{\n"
	"\t.reg .b32 %x;\n"
	"\tld.param.b32 %x, [a];\n"
	"\tst.param.b32 [r], %x;\n"
	"\tret;\n"
	"}\n"
	".visible .entry k(.param .u64 out)\n"
	".reqntid 128\n"
	"{\n"
	"\t.reg .pred %p<3>;\n"
	"\t.reg .b32 %r<10>;\n"
	"\t.reg .f32 %f<4>;\n"
	"\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [out];\n"                        /* 0 */
	"\tmov.u32 %r1, %tid.y;\n"                             /* 1 */
	"\tsetp.lo.u32 %p1|%p2, %r1, 32;\n"                    /* 2 */
	"\t@!%p1 bra $L_end;\n"                                /* 3 */
	"\tcvt.rn.f32.s32 %f1, %r1;\n"                         /* 4 */
	"\tadd.rz.ftz.sat.f32 %f2, %f1, 0fBF800000;\n"         /* 5 */
	"\tld.global.nc.v2.f32 {%f1, %f3}, [%rd1+-8];\n"        /* 6 */
	"\tatom.acq_rel.gpu.global.cas.b32 %r2, [tab+8], %r1, 5;\n" /* 7 */
	"\tshfl.sync.bfly.b32 %r3, %r1, 16, 31, -1;\n"         /* 8 */
	"\tmul.wide.s32 %rd2, %r1, %r3;\n"                     /* 9 */
	"\t{\n"
	"\t.reg .b32 %r1;\n"
	"\t.param .b32 p0;\n"
	"\t.param .b32 r0;\n"
	"\tst.param.b32 [p0], %r1;\n"                          /* 10 */
	"\tcall.uni (r0), f, (p0);\n"                          /* 11 */
	"\t}\n"
	"\tst.global.f32 [%rd1], %f2;\n"                       /* 12 */
	"$L_end:\n"
	"\tret;\n"                                             /* 13 */
	"}\n";

static PtxModule *
parse(const char *text)
{
	return ptx_parse("test.ptx", text, strlen(text));
}

/* the 1-based line of an instruction's position in its module's text */
static int
line_of(const PtxModule *m, const PtxInstr *in)
{
	u32 i;
	int line = 1;

	for (i = 0; i < in->pos; i++)
		line += m->src.text[i] == '\n';
	return line;
}

TEST(ptx_module_shape)
{
	PtxModule *m = parse(src);
	PtxFunc *k, *f;

	CHECK(m != NULL);
	if (!m)
		return;
	CHECK(ptx_check(m) == 0);
	CHECK(m->version_major == 8 && m->version_minor == 3);
	CHECK_STR(m->target, "sm_90a");
	CHECK(m->sm == 90 && m->arch_a);
	CHECK(m->nfuncs == 2 && m->nvars == 3);
	k = ptx_find_func(m, "k");
	f = ptx_find_func(m, "f");
	CHECK(k && f && k->is_entry && !f->is_entry);
	if (!k || !f)
		goto out;
	CHECK(k->linkage == PTX_LINK_VISIBLE);
	CHECK(k->reqntid[0] == 128 && k->reqntid[1] == 1 && k->reqntid[2] == 1);
	CHECK(k->nparams == 1 && k->params[0].type == PTX_T_U64);
	CHECK(f->nrets == 1 && f->nparams == 1);
	/* 3 + 10 + 4 + 4 registers and one shadowing %r1 in the call block */
	CHECK_EQ_U64(k->nregs, 22);
	CHECK_EQ_U64(k->ninstrs, 14);
	CHECK_EQ_U64(k->nlocals, 2);
	CHECK_EQ_U64(m->ninstrs, 17);
out:
	ptx_free(m);
}

TEST(ptx_instr_fields)
{
	PtxModule *m = parse(src);
	PtxFunc *k;
	PtxInstr *in;

	CHECK(m != NULL);
	if (!m)
		return;
	k = ptx_find_func(m, "k");
	in = k->instrs;
	/* ld.param.u64 %rd1, [out] */
	CHECK(in[0].op == PTX_OP_ld && in[0].space[0] == PTX_S_PARAM);
	CHECK(in[0].types[0] == PTX_T_U64 && in[0].nopds == 2);
	CHECK(in[0].opds[0].kind == PTX_OPD_REG);
	CHECK_STR(ptx_reg_name(k, in[0].opds[0].reg), "%rd1");
	CHECK(k->regs[in[0].opds[0].reg].type == PTX_T_B64);
	CHECK(in[0].opds[1].kind == PTX_OPD_ADDR && in[0].opds[1].symkind == PTX_SYM_VAR);
	CHECK(in[0].opds[1].var == &k->params[0]);
	/* mov.u32 %r1, %tid.y */
	CHECK(in[1].opds[1].kind == PTX_OPD_SREG && in[1].opds[1].sreg == PTX_SR_tid);
	CHECK(in[1].opds[1].comp == 1);
	/* setp.lo.u32 %p1|%p2, %r1, 32: .lo is a compare here */
	CHECK(in[2].op == PTX_OP_setp && in[2].cmp == PTX_CMP_LO && in[2].mode == 0);
	CHECK(in[2].opds[0].reg2 >= 0);
	CHECK_STR(ptx_reg_name(k, in[2].opds[0].reg2), "%p2");
	CHECK(in[2].opds[2].kind == PTX_OPD_IMM && in[2].opds[2].imm == 32);
	/* @!%p1 bra $L_end */
	CHECK(in[3].op == PTX_OP_bra && in[3].guard_neg && in[3].guard >= 0);
	CHECK_STR(ptx_reg_name(k, in[3].guard), "%p1");
	CHECK(in[3].opds[0].symkind == PTX_SYM_LABEL && in[3].opds[0].index == 13);
	/* cvt.rn.f32.s32 */
	CHECK(in[4].op == PTX_OP_cvt && in[4].rnd == PTX_RND_RN && in[4].ntypes == 2);
	CHECK(in[4].types[0] == PTX_T_F32 && in[4].types[1] == PTX_T_S32);
	/* add.rz.ftz.sat.f32 %f2, %f1, 0fBF800000 */
	CHECK(in[5].rnd == PTX_RND_RZ && (in[5].flags & PTX_F_FTZ) && (in[5].flags & PTX_F_SAT));
	CHECK(in[5].opds[2].kind == PTX_OPD_FIMM && !in[5].opds[2].is_f64);
	CHECK_EQ_U64(in[5].opds[2].fbits, 0xBF800000);
	CHECK(in[5].nmods == 4 && in[5].mods[1] == PTX_M_ftz);
	CHECK_STR(ptx_mod_name(in[5].mods[3]), ".f32");
	/* ld.global.nc.v2.f32 {%f1, %f3}, [%rd1+-8] */
	CHECK(in[6].vec == 2 && (in[6].flags & PTX_F_NC) && in[6].space[0] == PTX_S_GLOBAL);
	CHECK(in[6].opds[0].kind == PTX_OPD_VEC && in[6].opds[0].nelems == 2);
	CHECK(in[6].opds[1].kind == PTX_OPD_ADDR && in[6].opds[1].imm == -8);
	/* atom.acq_rel.gpu.global.cas.b32 %r2, [tab+8], %r1, 5 */
	CHECK(in[7].op == PTX_OP_atom && in[7].aop == PTX_AOP_CAS);
	CHECK(in[7].sem == PTX_SEM_ACQ_REL && in[7].scope == PTX_SCOPE_GPU);
	CHECK(in[7].opds[1].var == ptx_find_var(m, "tab") && in[7].opds[1].imm == 8);
	/* shfl.sync.bfly.b32 */
	CHECK(in[8].op == PTX_OP_shfl && in[8].mode == PTX_MODE_BFLY && (in[8].flags & PTX_F_SYNC));
	CHECK(in[8].opds[4].imm == -1);
	/* mul.wide.s32 */
	CHECK(in[9].op == PTX_OP_mul && in[9].mode == PTX_MODE_WIDE);
	/* the shadowing %r1 in the call block is a different register */
	CHECK(in[10].opds[1].reg != in[1].opds[0].reg);
	CHECK(in[10].opds[0].var == k->locals[0]);
	/* call.uni (r0), f, (p0) */
	CHECK(in[11].op == PTX_OP_call && in[11].nopds == 3 && (in[11].flags & PTX_F_UNI));
	CHECK(in[11].opds[0].kind == PTX_OPD_VEC && in[11].opds[0].nelems == 1);
	CHECK(in[11].opds[0].elems[0].var == k->locals[1]);
	CHECK(in[11].opds[1].symkind == PTX_SYM_FUNC);
	CHECK(m->funcs[in[11].opds[1].index] == ptx_find_func(m, "f"));
	CHECK(in[11].opds[2].nelems == 1 && in[11].opds[2].elems[0].var == k->locals[0]);
	CHECK(k->nlabels == 1 && k->labelat[0] == 13);
	CHECK(line_of(m, &in[0]) == 21 && line_of(m, &in[13]) == 40);
	ptx_free(m);
}

TEST(ptx_initializers)
{
	PtxModule *m = parse(src);
	PtxVar *tab, *gv, *neg;

	CHECK(m != NULL);
	if (!m)
		return;
	tab = ptx_find_var(m, "tab");
	gv = ptx_find_var(m, "gv");
	neg = ptx_find_var(m, "neg");
	CHECK(tab && gv && neg);
	CHECK(tab->size == 16 && tab->align == 8 && tab->space == PTX_S_GLOBAL);
	CHECK(tab->init && tab->init[0] == 7);
	CHECK(tab->nrelocs == 1 && tab->relocs[0].at == 8 && tab->relocs[0].generic);
	CHECK_STR(tab->relocs[0].sym, "gv");
	CHECK(tab->relocs[0].addend == 4);
	CHECK(gv->init && gv->init[3] == 0x3f && gv->init[2] == 0x80);
	CHECK(neg->space == PTX_S_CONST && neg->dims[0] == 2 && neg->size == 4);
	CHECK(neg->init[0] == 0xfe && neg->init[1] == 0xff && neg->init[2] == 3);
	ptx_free(m);
}

TEST(ptx_print_roundtrip)
{
	PtxModule *m = parse(src), *m2;
	Buf a = {0}, b = {0};

	CHECK(m != NULL);
	if (!m)
		return;
	ptx_print(m, &a);
	m2 = ptx_parse("dump.ptx", a.s, a.n);
	CHECK(m2 != NULL);
	if (m2) {
		CHECK(ptx_check(m2) == 0);
		ptx_print(m2, &b);
		CHECK(a.n == b.n && !memcmp(a.s, b.s, a.n));
		CHECK(m2->ninstrs == m->ninstrs);
	}
	buf_free(&a);
	buf_free(&b);
	ptx_free(m);
	ptx_free(m2);
}

TEST(ptx_errors_return_null)
{
	static const char *const bad[] = {
		"",
		".version 8.0\n",
		".version 8.0\n.target sm_80\n.entry k() { add.s32 %r1, 1, 2; }\n",
		".version 8.0\n.target sm_80\n.entry k() {",
		".version 8.0\n.target sm_80\n.global .u32 g[2] = {1, 2, 3};\n",
	};
	size_t i;
	FILE *saved = stderr;

	stderr = fopen("/dev/null", "w");
	for (i = 0; i < NELEM(bad); i++) {
		PtxModule *m = parse(bad[i]);
		CHECK(m == NULL);
		ptx_free(m);
	}
	fclose(stderr);
	stderr = saved;
}

TEST(ptx_tables)
{
	CHECK_STR(ptx_op_name(PTX_OP_cp_async_bulk_tensor), "cp.async.bulk.tensor");
	CHECK(ptx_op_lookup("mbarrier.try_wait", 17) == PTX_OP_mbarrier_try_wait);
	CHECK(ptx_op_lookup("nosuch", 6) == PTX_OP_NONE);
	CHECK_STR(ptx_mod_name(PTX_M_shared_cta), ".shared::cta");
	CHECK(ptx_type_size(PTX_T_F16X2) == 4 && ptx_type_size(PTX_T_B128) == 16);
	CHECK(ptx_type_is_signed(PTX_T_S8) && !ptx_type_is_signed(PTX_T_U8));
	CHECK(ptx_type_is_float(PTX_T_BF16) && !ptx_type_is_float(PTX_T_B32));
	CHECK_STR(ptx_sreg_name(PTX_SR_laneid), "%laneid");
}

TEST(ptx_loc_lines)
{
	static const char text[] =
		".version 8.0\n.target sm_80\n.address_size 64\n"
		".file 1 \"k.cu\"\n"
		".entry k()\n{\n"
		"\t.reg .b32 %r<2>;\n"
		"\tmov.u32 %r0, 1;\n"
		"\t.loc 1 12 5\n"
		"\tmov.u32 %r1, 2;\n"
		"\t.loc 1 13 1, function_name $L__info_string0, inlined_at 1 12 5\n"
		"\tmov.u32 %r1, 3;\n"
		"\tret;\n}\n";
	PtxModule *m = ptx_parse("loc.ptx", text, strlen(text));
	PtxFunc *f;

	CHECK(m != NULL);
	if (!m)
		return;
	f = m->funcs[0];
	CHECK(f->ninstrs == 4);
	CHECK(f->instrs[0].loc_line == 0 && line_of(m, &f->instrs[0]) == 8);
	CHECK(f->instrs[1].loc_file == 1 && f->instrs[1].loc_line == 12);
	CHECK(f->instrs[2].loc_line == 13 && f->instrs[3].loc_line == 13);
	CHECK(m->nfiles == 2 && m->files[1] && !strcmp(m->files[1], "k.cu"));
	ptx_free(m);
}

/* A body with more instructions than parse.c's body_room bound (the ';'
 * before the first '}' that starts a line; here an inner block's): the
 * instruction array doubles from 1 to 32, every instruction kept. */
TEST(ptx_body_past_bound)
{
	Buf b = {0};
	PtxModule *m;
	int i, ok = 1;

	buf_puts(&b, ".version 8.0\n.target sm_80\n.address_size 64\n"
		 ".entry k()\n{\n.reg .b32 %r<2>;\n{\n}\n");
	for (i = 0; i < 21; i++)
		buf_printf(&b, "add.u32 %%r1, %%r1, %d;\n", i);
	buf_puts(&b, "ret;\n}\n");
	m = ptx_parse("grow.ptx", b.s, b.n);
	CHECK(m != NULL);
	if (m) {
		CHECK_EQ_U64(m->funcs[0]->ninstrs, 22);
		for (i = 0; i < 21; i++)
			ok &= m->funcs[0]->instrs[i].op == PTX_OP_add && m->funcs[0]->instrs[i].opds[2].imm == i;
		CHECK(ok && m->funcs[0]->instrs[21].op == PTX_OP_ret);
		CHECK(ptx_check(m) == 0);
	}
	ptx_free(m);
	buf_free(&b);
}

/* A decimal float token's bits are strtod's, also where the lexer divides
 * instead (short_decimal in lex.c: up to 15 digits, no exponent). */
TEST(ptx_lex_decimal_float)
{
	static const char *const fixed[] = {"9.0", "0.1", "0.3", "8.3", "1.0000000000000", "999999999999999.9",
					    "0.000000000000001", "123456789012345.6", "3.14159265358979", "2.5e3"};
	char s[40];
	unsigned r = 12345;
	int i, j, nd, dot;

	for (i = 0; i < 20000 + 10; i++) {
		Lex l;
		Tok tok;
		jmp_buf fail;
		Src sr = {"test", s, 0};
		double want;
		uint64_t bits = 0;

		if (i < 10) {
			snprintf(s, sizeof s, "%s;", fixed[i]);
		} else {
			nd = 2 + (int)((r = r * 1103515245u + 12345u) >> 16) % 16;
			dot = 1 + (int)((r = r * 1103515245u + 12345u) >> 16) % (nd - 1);
			for (j = 0; j < nd; j++)
				s[j + (j >= dot)] = (char)('0' + ((r = r * 1103515245u + 12345u) >> 16) % 10);
			s[dot] = '.';
			s[nd + 1] = ';';
			s[nd + 2] = 0;
		}
		sr.len = strlen(s);
		want = strtod(s, NULL);
		memcpy(&bits, &want, 8);
		lex_init(&l, s, strlen(s));
		l.src = &sr;
		l.fail = &fail;
		if (setjmp(fail)) {
			CHECK(!"a lexer error");
			break;
		}
		lex_next(&l, &tok);
		CHECK(tok.kind == TK_FLOAT && tok.is_f64);
		CHECK_EQ_U64(tok.ival, bits);
	}
}
