/* test_cubin.c -- the cubin reader, writer and from-scratch builder.
 *  - every committed ptxas/nvcc cubin reads and writes back byte-identical;
 *  - the listing assembles back to the same model (same bytes);
 *  - a kernel built by cubin_build() from a description (code words from
 *    tests/cubin/single.sm_XX.words, its parameters and resources) is
 *    structurally equal to ptxas's cubin of the same kernel
 *    (tests/cubin/single.sm_XX.cubin): header, every section header,
 *    every non-string section's bytes, symbols, program headers. */
#include <stdlib.h>
#include <string.h>

#include "cubin/build.h"
#include "cubin/cubin.h"
#include "cubin/listing.h"
#include "test.h"

static const char *const inputs[] = {
	"tests/cubin/kernels.sm_80.cubin", "tests/cubin/kernels.sm_90.cubin",
	"tests/cubin/cluster.sm_90.cubin", "tests/cubin/probes.sm_80.cubin",
	"tests/cubin/probes.sm_90.cubin", "tests/cubin/cub.sm_80.cubin",
	"tests/cubin/cub.sm_90.cubin", "tests/cubin/thrust.sm_80.cubin",
	"tests/cubin/thrust.sm_90.cubin", "tests/cubin/single.sm_80.cubin",
	"tests/cubin/single.sm_90.cubin", "tests/cubin/kernels.rel.sm_80.cubin",
	"tests/cubin/kernels.rel.sm_90.cubin", "tests/cubin/single.g.sm_80.cubin",
	"tests/cubin/single.g.sm_90.cubin",
};

TEST(cubin_read_write_identical)
{
	size_t i;

	for (i = 0; i < NELEM(inputs); i++) {
		size_t n;
		u8 *p = (u8 *)read_file(inputs[i], &n);
		Cubin c;
		Buf out = {0};

		CHECK(p != NULL);
		if (!p)
			continue;
		CHECK(cubin_read(&c, inputs[i], p, n) == 0);
		cubin_write(&c, &out);
		if (out.n != n || memcmp(out.s, p, n))
			FAIL("%s: written file differs (%zu vs %zu bytes)", inputs[i], out.n, n);
		cubin_free(&c);
		buf_free(&out);
		free(p);
	}
}

TEST(cubin_listing_assembles_back)
{
	size_t i;

	for (i = 0; i < NELEM(inputs); i++) {
		size_t n;
		u8 *p = (u8 *)read_file(inputs[i], &n);
		Cubin c, d;
		Buf l = {0}, out = {0};
		ListOpts o = {0};

		if (!p)
			continue;
		CHECK(cubin_read(&c, inputs[i], p, n) == 0);
		CHECK(cubin_list(&c, inputs[i], &o, &l) == 0);
		if (cubin_asm(&d, "listing", l.s, l.n) != 0)
			FAIL("%s: listing does not assemble", inputs[i]);
		else {
			cubin_write(&d, &out);
			if (out.n != n || memcmp(out.s, p, n))
				FAIL("%s: reassembled file differs", inputs[i]);
		}
		cubin_free(&c);
		cubin_free(&d);
		buf_free(&l);
		buf_free(&out);
		free(p);
	}
}

TEST(cubin_rejects_bad_headers)
{
	u8 p[64] = {0x7f, 'E', 'L', 'F', 2, 1, 1};
	Cubin c;

	p[18] = 190;
	p[52] = 64;
	p[58] = 64;
	p[60] = 3; /* three sections at offset 0: past the end of 64 bytes */
	fprintf(stderr, "  (expected errors follow)\n");
	CHECK(cubin_read(&c, "hdr", p, 10) < 0);
	cubin_free(&c);
	CHECK(cubin_read(&c, "hdr", p, 64) < 0);
	cubin_free(&c);
	p[18] = 3;
	CHECK(cubin_read(&c, "hdr", p, 64) < 0);
	cubin_free(&c);
}

TEST(cubin_info_records)
{
	static const u8 rec[] = {4, 0x2f, 8, 0, 8, 0, 0, 0, 10, 0, 0, 0, 3, 0x1b, 0xff, 0, 4, 0x1c, 8, 0};
	u64 pos = 0;
	InfoRec r;

	CHECK(info_next(rec, sizeof rec, &pos, &r, "t", "s") == 0);
	CHECK(r.id == 0x2f && r.len == 8 && pos == 12);
	CHECK(info_next(rec, sizeof rec, &pos, &r, "t", "s") == 0);
	CHECK(r.fmt == EIFMT_HVAL && r.len == 0xff);
	fprintf(stderr, "  (an expected error follows)\n");
	CHECK(info_next(rec, sizeof rec, &pos, &r, "t", "s") < 0); /* payload runs past the end */
	CHECK_STR(eiattr_name(0x2f), "EIATTR_REGCOUNT");
	CHECK_STR(eiattr_name(0x5f), "EIATTR_MERCURY_ISA_VERSION");
	CHECK(eiattr_lookup("EIATTR_KPARAM_INFO") == 0x17);
	CHECK(eiattr_name(0x61) == NULL);
}

/* ---- from scratch ---- */

static size_t
load_words(const char *path, Word *w, size_t max)
{
	size_t n = 0, len;
	char *text = read_file(path, &len), *p;

	if (!text)
		return 0;
	for (p = text; n < max && *p;) {
		char *e;

		w[n].lo = strtoull(p, &e, 16);
		if (e == p)
			break;
		w[n].hi = strtoull(e, &p, 16);
		n++;
		while (*p == '\n' || *p == ' ')
			p++;
	}
	free(text);
	return n;
}

static int
same_section(TestState *t_, const Cubin *a, const Cubin *b, size_t i)
{
	const CSection *x = &a->sec.v[i], *y = &b->sec.v[i];
	int strings = x->type == SHT_STRTAB || x->type == SHT_SYMTAB ||
		      !strcmp(x->name, ".note.nv.tkinfo");

	if (strcmp(x->name, y->name) || x->type != y->type || x->flags != y->flags ||
	    x->link != y->link || x->info != y->info || x->align != y->align || x->entsize != y->entsize) {
		FAIL("section %zu (%s / %s): header differs", i, x->name, y->name);
		return 0;
	}
	if (!strings && (x->size != y->size || (x->data && memcmp(x->data, y->data, x->size)))) {
		FAIL("section %zu (%s): contents differ (%llu vs %llu bytes)", i, x->name,
		     (unsigned long long)x->size, (unsigned long long)y->size);
		return 0;
	}
	return 1;
}

static void
compare(TestState *t_, const Cubin *a, const Cubin *b)
{
	size_t i;

	CHECK(a->type == b->type && a->osabi == b->osabi && a->abiversion == b->abiversion);
	CHECK(a->version == b->version && a->flags == b->flags);
	CHECK(a->sec.n == b->sec.n);
	for (i = 1; i < a->sec.n && i < b->sec.n; i++)
		same_section(t_, a, b, i);
	CHECK(a->sym.n == b->sym.n);
	for (i = 0; i < a->sym.n && i < b->sym.n; i++) {
		const CSymbol *x = &a->sym.v[i], *y = &b->sym.v[i];

		if (strcmp(x->name, y->name) || x->info != y->info || x->other != y->other ||
		    x->shndx != y->shndx || x->value != y->value || x->size != y->size)
			FAIL("symbol %zu (%s / %s) differs", i, x->name, y->name);
	}
	CHECK(a->ph.n == b->ph.n);
	for (i = 0; i < a->ph.n && i < b->ph.n; i++) {
		const CPhdr *x = &a->ph.v[i], *y = &b->ph.v[i];

		/* a segment over several sections includes alignment padding
		 * that depends on the (documented) string-table differences */
		if (x->type != y->type || x->flags != y->flags || x->first != y->first ||
		    x->last != y->last || (x->first == x->last && (x->filesz != y->filesz || x->memsz != y->memsz)))
			FAIL("program header %zu differs", i);
	}
}

static void
from_scratch(TestState *t_, int sm, int shared)
{
	static const KParam params[] = {{8, 8}, {8, 8}, {8, 8}, {4, 4}};
	const char *base = shared ? "shared" : "single";
	char wpath[64], cpath[64];
	Word code[64];
	KernelDesc k = {0};
	Cubin built, ref, back;
	Buf out = {0};
	u8 *p;
	size_t n;

	snprintf(wpath, sizeof wpath, "tests/cubin/%s.sm_%d.words", base, sm);
	snprintf(cpath, sizeof cpath, "tests/cubin/%s.sm_%d.cubin", base, sm);
	k.name = shared ? "shared_static" : "vadd";
	k.sm = sm;
	k.code = code;
	k.ncode = load_words(wpath, code, NELEM(code));
	k.params = params;
	k.nparams = shared ? 1 : 4;
	k.regs = shared ? 14 : 12;
	if (shared) { /* static shared arrays, __syncthreads, __launch_bounds__(256) */
		k.shared = 0x484;
		k.shared_align = 4;
		k.uses_shared = 1;
		k.barriers = 1;
		k.max_threads[0] = 256;
		k.max_threads[1] = k.max_threads[2] = 1;
	}
	CHECK(k.ncode > 4);
	CHECK(cubin_build(&built, &k) == 0);
	cubin_write(&built, &out); /* lays out and fills names */
	/* the written bytes read back as the same model */
	CHECK(cubin_read(&back, "built", (u8 *)out.s, out.n) == 0);
	p = (u8 *)read_file(cpath, &n);
	CHECK(p && cubin_read(&ref, cpath, p, n) == 0);
	if (p) {
		compare(t_, &built, &ref);
		compare(t_, &back, &ref);
	}
	cubin_free(&built);
	cubin_free(&back);
	cubin_free(&ref);
	buf_free(&out);
	free(p);
}

/* vadd and shared_static in one module, against ptxas's two.sm_XX.cubin */
static void
from_scratch_module(TestState *t_, int sm)
{
	static const KParam pv[] = {{8, 8}, {8, 8}, {8, 8}, {4, 4}}, ps[] = {{8, 8}};
	static Word cv[64], cs[64];
	char path[64];
	KernelDesc k[2];
	Cubin built, ref;
	Buf out = {0};
	u8 *p;
	size_t n;

	memset(k, 0, sizeof k);
	snprintf(path, sizeof path, "tests/cubin/single.sm_%d.words", sm);
	k[0].ncode = load_words(path, cv, NELEM(cv));
	snprintf(path, sizeof path, "tests/cubin/shared.sm_%d.words", sm);
	k[1].ncode = load_words(path, cs, NELEM(cs));
	k[0].name = "vadd";
	k[0].sm = k[1].sm = sm;
	k[0].code = cv;
	k[0].params = pv;
	k[0].nparams = 4;
	k[0].regs = 12;
	k[1].name = "shared_static";
	k[1].code = cs;
	k[1].params = ps;
	k[1].nparams = 1;
	k[1].regs = 14;
	k[1].shared = 0x484;
	k[1].shared_align = 4;
	k[1].uses_shared = 1;
	k[1].barriers = 1;
	k[1].max_threads[0] = 256;
	k[1].max_threads[1] = k[1].max_threads[2] = 1;
	CHECK(cubin_build_module(&built, k, 2) == 0);
	cubin_write(&built, &out);
	snprintf(path, sizeof path, "tests/cubin/two.sm_%d.cubin", sm);
	p = (u8 *)read_file(path, &n);
	CHECK(p && cubin_read(&ref, path, p, n) == 0);
	if (p)
		compare(t_, &built, &ref);
	cubin_free(&built);
	cubin_free(&ref);
	buf_free(&out);
	free(p);
}

TEST(cubin_from_scratch_module_sm90) { from_scratch_module(t_, 90); }
TEST(cubin_from_scratch_module_sm80) { from_scratch_module(t_, 80); }
TEST(cubin_from_scratch_sm90) { from_scratch(t_, 90, 0); }
TEST(cubin_from_scratch_sm80) { from_scratch(t_, 80, 0); }
TEST(cubin_from_scratch_shared_sm90) { from_scratch(t_, 90, 1); }
TEST(cubin_from_scratch_shared_sm80) { from_scratch(t_, 80, 1); }

/* The highest register of an instruction text (REGCOUNT auto, and the
 * emulator's check against REGCOUNT): a register inside [...] is one
 * address register, whatever the width of the operation. */
TEST(cubin_reg_max_widths)
{
	CHECK_EQ_U64((u64)sass_reg_max("LDGSTS.E.BYPASS.128 [R19+0x20], [R8.64]"), 19);
	CHECK_EQ_U64((u64)sass_reg_max("LDGSTS.E.BYPASS.128 [R4+0x20], [R8.64]"), 9);
	CHECK_EQ_U64((u64)sass_reg_max("LDS.128 R4, [R20]"), 20);
	CHECK_EQ_U64((u64)sass_reg_max("LDS.128 R24, [R20]"), 27);
	CHECK_EQ_U64((u64)sass_reg_max("STS.128 [R2+0x10], R4"), 7);
	CHECK_EQ_U64((u64)sass_reg_max("LDG.E.64 R2, desc[UR4][R10.64]"), 11);
	CHECK_EQ_U64((u64)sass_reg_max("IMAD.WIDE.U32 R2, R5, 0x10, R6"), 7);
}

/* The writer's string tables: a name already in the table is not added
 * again (its first offset is reused), below and above the size where the
 * tables start hashing (the "" string first, then the names in order). */
TEST(cubin_strtab_shares_names)
{
	Cubin c;
	Buf out = {0};
	char nm[16];
	size_t i, want = 1 + sizeof ".shstrtab";
	const char *tab;

	cubin_init(&c);
	c.shstrtab = cubin_add_section(&c, ".shstrtab", SHT_STRTAB, 0, 1);
	for (i = 0; i < 100; i++) {
		snprintf(nm, sizeof nm, ".s%zu", i % 60);
		cubin_add_section(&c, nm, SHT_PROGBITS, 0, 1);
		if (i < 60)
			want += strlen(nm) + 1;
	}
	cubin_write(&c, &out);
	tab = (const char *)c.sec.v[c.shstrtab].data;
	CHECK_EQ_U64(c.sec.v[c.shstrtab].size, want);
	for (i = 1; i < c.sec.n; i++)
		CHECK_STR(tab + c.sec.v[i].name_off, c.sec.v[i].name);
	for (i = 60; i < 100; i++)
		CHECK_EQ_U64(c.sec.v[2 + i].name_off, c.sec.v[2 + i - 60].name_off);
	cubin_free(&c);
	buf_free(&out);
}
