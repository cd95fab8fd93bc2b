/* test_ctrl.c -- control bits: the hazard checker against ptxas's own
 * schedules (the suite's committed cubins), the checker catching broken
 * bits, and the assigner: every suite kernel with its control bits erased
 * and re-assigned (safe and mined modes) passes the checker and still runs
 * in the SASS emulator to the C reference's results (all 148 cubins, a
 * few seconds; OA_CTRL_QUICK=1 runs a third). */
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "codegen/ctrlbits.h"
#include "codegen/hazard.h"
#include "cubin/cubin.h"
#include "cubin/listing.h"
#include "isa/isa_impl.h"
#include "emu/emu.h"
#include "../kernels/refs.h"

/* ptxas cubins of the suite the checker accepts today (of 148); the
 * rest are listed in docs/findings-ctrl.md as model gaps.  Raising it
 * is progress; lowering it fails. */
#define PTXAS_ACCEPTED_MIN 148

typedef struct {
	Cubin c;
	u8 *data;
	const Arch *a;
} Cub;

static int
cub_load(Cub *k, const char *name, const char *arch)
{
	char path[256];
	size_t n;

	snprintf(path, sizeof path, "tests/kernels/%s/kernel.%s.cubin", name, arch);
	memset(k, 0, sizeof *k);
	if (!(k->data = (u8 *)read_file(path, &n)))
		return -1;
	if (cubin_read(&k->c, path, k->data, n) < 0) {
		cubin_free(&k->c);
		free(k->data);
		return -1;
	}
	k->a = arch_lookup(arch);
	return 0;
}

static void
cub_free(Cub *k)
{
	cubin_free(&k->c);
	free(k->data);
}

static Word *
sec_words(CSection *s, size_t *n)
{
	Word *w;
	size_t i;

	*n = s->size / 16;
	w = xcalloc(*n + 1, sizeof *w);
	for (i = 0; i < *n; i++) {
		memcpy(&w[i].lo, s->data + 16 * i, 8);
		memcpy(&w[i].hi, s->data + 16 * i + 8, 8);
	}
	return w;
}

static void
sec_store(CSection *s, const Word *w, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		memcpy(s->data + 16 * i, &w[i].lo, 8);
		memcpy(s->data + 16 * i + 8, &w[i].hi, 8);
	}
}

/* Hazards in every .text section of k (-1: a word does not decode). */
static int
cub_check(Cub *k, Buf *rep)
{
	size_t s, n;
	int total = 0, h;

	for (s = 1; s < k->c.sec.n; s++) {
		CSection *sec = &k->c.sec.v[s];
		if (!sec->name || strncmp(sec->name, ".text.", 6) || !sec->data)
			continue;
		Word *w = sec_words(sec, &n);
		h = hazard_check(k->a, w, n, sec->name + 6, rep);
		free(w);
		if (h < 0)
			return -1;
		total += h;
	}
	return total;
}

/* Erase every control field and assign it again. */
static int
cub_reassign(Cub *k, int mode)
{
	size_t s, n, i;
	int rc = 0;

	for (s = 1; s < k->c.sec.n; s++) {
		CSection *sec = &k->c.sec.v[s];
		if (!sec->name || strncmp(sec->name, ".text.", 6) || !sec->data)
			continue;
		Word *w = sec_words(sec, &n);
		for (i = 0; i < n; i++)
			w[i].hi &= ((u64)1 << 41) - 1;
		if (ctrl_assign(k->a, w, n, mode) == -1)
			rc = -1;
		sec_store(sec, w, n);
		free(w);
	}
	return rc;
}

static const char *const archs[] = {"sm_90", "sm_80"};

TEST(ctrl_ptxas_suite_accepted)
{
	size_t i, a, ok = 0, total = 0;

	for (a = 0; a < 2; a++)
		for (i = 0; i < nkernel_refs; i++) {
			Cub k;
			Buf rep = {0};
			if (cub_load(&k, kernel_refs[i].name, archs[a]) < 0) {
				FAIL("%s %s: cannot load", kernel_refs[i].name, archs[a]);
				continue;
			}
			total++;
			int h = cub_check(&k, &rep);
			if (h == 0)
				ok++;
			else if (getenv("OA_CTRL_VERBOSE"))
				fprintf(stderr, "  ptxas %s %s: %d hazards\n%s", kernel_refs[i].name,
					archs[a], h, rep.s ? rep.s : "");
			buf_free(&rep);
			cub_free(&k);
		}
	fprintf(stderr, "  ctrl: checker accepts %zu of %zu ptxas cubins of the suite\n", ok, total);
	CHECK(total >= 140);
	CHECK(ok >= PTXAS_ACCEPTED_MIN);
}

/* A kernel ptxas scheduled tightly: lowering a stall or dropping a wait
   bit must be reported. */
TEST(ctrl_checker_catches_broken_bits)
{
	Cub k;
	size_t s, n, i;
	int tried_stall = 0, tried_wait = 0;

	if (cub_load(&k, "ew_saxpy_f32", "sm_90") < 0)
		SKIP("no tests/kernels/ew_saxpy_f32");
	CHECK(cub_check(&k, NULL) == 0);
	for (s = 1; s < k.c.sec.n; s++) {
		CSection *sec = &k.c.sec.v[s];
		if (!sec->name || strncmp(sec->name, ".text.", 6))
			continue;
		Word *w = sec_words(sec, &n);
		for (i = 0; i + 1 < n; i++) {
			Ctrl c = ctrl_get(w[i]);
			Word save = w[i];
			if (c.wait && !tried_wait) {
				c.wait = 0;
				w[i] = ctrl_set(w[i], c);
				CHECK(hazard_check(k.a, w, n, "k", NULL) > 0);
				tried_wait = 1;
			} else if (c.stall >= 4 && c.wrsb == 7 && !tried_stall) {
				/* a fixed-latency producer: is its result read next? */
				Buf rep = {0};
				c.stall = 1;
				w[i] = ctrl_set(w[i], c);
				if (hazard_check(k.a, w, n, "k", &rep) > 0)
					tried_stall = 1;
				buf_free(&rep);
			}
			w[i] = save;
		}
		free(w);
	}
	CHECK(tried_wait);
	CHECK(tried_stall);
	cub_free(&k);
}

/* One kernel's outcome after re-assignment: 0 ok, 1 unsupported. */
static int
reassign_run(TestState *t_, const KernelRef *ref, const char *arch, int mode)
{
	Cub k;
	Buf rep = {0};
	Spec sp;
	Launch got, want;
	char spath[256];
	EmuOpts o = {0};
	int rc, h, out = 0;
	size_t nbad;

	if (cub_load(&k, ref->name, arch) < 0) {
		FAIL("%s %s: cannot load", ref->name, arch);
		return 0;
	}
	if (cub_reassign(&k, mode) < 0) {
		/* words the decoder does not know: nothing to assign */
		cub_free(&k);
		return 1;
	}
	h = cub_check(&k, &rep);
	if (h != 0)
		FAIL("%s %s mode %d: %d hazards after ctrl_assign:\n%s", ref->name, arch, mode, h,
		     rep.s ? rep.s : "");
	buf_free(&rep);
	snprintf(spath, sizeof spath, "tests/kernels/%s/spec.json", ref->name);
	if (spec_load(spath, &sp) < 0) {
		FAIL("%s: no spec", ref->name);
		cub_free(&k);
		return 0;
	}
	o.quiet = 1;
	o.max_steps = 200000000;
	launch_init(&got, &sp);
	launch_init(&want, &sp);
	rc = emu_run(&k.c, "reassigned", NULL, &got, &o);
	if (rc == EMU_OK) {
		ref->ref(&want);
		nbad = launch_compare(&got, &want, stderr);
		if (nbad)
			FAIL("%s %s mode %d: %zu elements differ after ctrl_assign", ref->name, arch, mode,
			     nbad);
	} else if (rc == EMU_UNSUPPORTED)
		out = 1;
	else
		FAIL("%s %s mode %d: emu: %s", ref->name, arch, mode, emu_why);
	launch_free(&got);
	launch_free(&want);
	spec_free(&sp);
	cub_free(&k);
	return out;
}

static void
reassign_suite(TestState *t_, int mode)
{
	size_t i, a, ran = 0, unsup = 0;
	int quick = getenv("OA_CTRL_QUICK") != NULL;

	for (a = 0; a < 2; a++)
		for (i = 0; i < nkernel_refs; i++) {
			/* every kernel (about 3 s per mode); OA_CTRL_QUICK=1: a third */
			if (quick && (i + a + (size_t)mode) % 3)
				continue;
			ran++;
			unsup += (size_t)reassign_run(t_, &kernel_refs[i], archs[a], mode);
		}
	fprintf(stderr, "  ctrl: mode %d: %zu kernels re-assigned, checked and emulated (%zu unsupported)\n",
		mode, ran, unsup);
	CHECK(ran >= (quick ? 40 : 140));
}

TEST(ctrl_reassign_safe_suite) { reassign_suite(t_, 0); }
TEST(ctrl_reassign_mined_suite) { reassign_suite(t_, 1); }
TEST(ctrl_reassign_reuse_suite) { reassign_suite(t_, 2); }

/* Mode 2 sets reuse flags that the printer shows where expected: an
   operand read again in the same slot by the next instruction. */
TEST(ctrl_reuse_flags)
{
	Cub k;
	size_t s, n, i;
	int flagged = 0, shown = 0;
	Buf b = {0};

	if (cub_load(&k, "sgemm_regtile", "sm_90") < 0)
		SKIP("no tests/kernels/sgemm_regtile");
	CHECK(cub_reassign(&k, 2) == 0);
	for (s = 1; s < k.c.sec.n; s++) {
		CSection *sec = &k.c.sec.v[s];
		if (!sec->name || strncmp(sec->name, ".text.", 6) || !sec->data)
			continue;
		Word *w = sec_words(sec, &n);
		for (i = 0; i < n; i++) {
			Ctrl c = ctrl_get(w[i]);
			if (!c.reuse)
				continue;
			flagged++;
			CHECK(c.yield == 1);
			b.n = 0;
			if (b.s)
				b.s[0] = 0;
			CHECK(isa_print(k.a, w[i], i * 16, NULL, &b) == 0);
			shown += b.s && strstr(b.s, ".reuse") != NULL;
		}
		free(w);
	}
	fprintf(stderr, "  ctrl: sgemm_regtile sm_90: %d words with reuse flags\n", flagged);
	CHECK(flagged > 0);
	CHECK(shown == flagged);
	buf_free(&b);
	cub_free(&k);
}

/* Random control fields on real code: the checker never crashes and the
   assigner always repairs them (it starts from scratch). */
TEST(ctrl_random_bits)
{
	static const char *const names[] = {"ew_saxpy_f32", "reduce_shared_f32", "softmax_f32", "math_f64"};
	u64 x = 0x9e3779b97f4a7c15ull;
	size_t t, s, n, i;
	int rounds = 0;

	for (t = 0; t < NELEM(names); t++) {
		Cub k;
		if (cub_load(&k, names[t], t % 2 ? "sm_80" : "sm_90") < 0)
			continue;
		for (s = 1; s < k.c.sec.n; s++) {
			CSection *sec = &k.c.sec.v[s];
			if (!sec->name || strncmp(sec->name, ".text.", 6) || !sec->data)
				continue;
			Word *w = sec_words(sec, &n);
			for (i = 0; i < n; i++) {
				Ctrl c = {0};
				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				c.stall = x & 15;
				c.yield = c.stall > 11 ? 0 : (x >> 4) & 1;
				c.wrsb = (x >> 5) & 7;
				c.rdsb = (x >> 8) & 7;
				c.wait = (x >> 11) & 63;
				w[i] = ctrl_set(w[i], c);
			}
			CHECK(hazard_check(k.a, w, n, "k", NULL) >= 0);
			CHECK(ctrl_assign(k.a, w, n, 1) >= 0);
			CHECK(hazard_check(k.a, w, n, "k", NULL) == 0);
			rounds++;
			free(w);
		}
		cub_free(&k);
	}
	CHECK(rounds >= 4);
}

/* The first .text section of a suite cubin as words (NULL if none). */
static Word *
first_text(Cub *k, size_t *n)
{
	size_t s;

	for (s = 1; s < k->c.sec.n; s++) {
		CSection *sec = &k->c.sec.v[s];
		if (sec->name && !strncmp(sec->name, ".text.", 6) && sec->data)
			return sec_words(sec, n);
	}
	return NULL;
}

/* hazard_find lists every hazard the report prints, in its order, with
   the consumer, producer, register slot and kind. */
TEST(ctrl_hazard_find_list)
{
	static const char *const names[] = {"softmax_f32", "sgemm_regtile"};
	size_t t, n, i, k;
	int total = 0, latency = 0;

	for (t = 0; t < NELEM(names); t++) {
		Cub cb;
		Buf rep = {0};
		HzFoundVec found = {0};
		if (cub_load(&cb, names[t], archs[t]) < 0)
			SKIP("no suite kernel");
		Word *w = first_text(&cb, &n);
		CHECK(w != NULL);
		if (!w) {
			cub_free(&cb);
			continue;
		}
		for (i = 0; i < n; i++) {  /* stall 1, no waits: hazards everywhere */
			Ctrl c = ctrl_get(w[i]);
			c.stall = 1;
			c.wait = 0;
			w[i] = ctrl_set(w[i], c);
		}
		int h = hazard_find(cb.a, w, n, "k", &rep, &found);
		CHECK(h > 0);
		CHECK((size_t)h == found.n);
		/* one report line per entry, at the entry's address */
		const char *p = rep.s;
		for (k = 0; k < found.n && p; k++) {
			const HzFound *f = &found.v[k];
			unsigned long addr = ~0ul;
			CHECK(sscanf(p, "k+0x%lx:", &addr) == 1 && addr == (unsigned long)f->at * 16);
			CHECK(f->at < n && f->prod < (i32)n && f->kind <= HZ_DEPBAR);
			CHECK(f->slot < NSLOT);
			if (f->slot >= 0)
				CHECK(f->file == hz_file(f->slot));
			if (f->kind == HZ_LATENCY) {
				CHECK(strstr(p, "stall sum") && strstr(p, "stall sum") < strchr(p, '\n'));
				CHECK(f->slot >= 0 && f->prod >= 0);
				latency++;
			}
			p = strchr(p, '\n');
			p = p ? p + 1 : NULL;
		}
		CHECK(k == found.n && p && !*p);
		total += h;
		vec_free(&found);
		buf_free(&rep);
		free(w);
		cub_free(&cb);
	}
	CHECK(total > 0);
	CHECK(latency > 0);
}

/* hz_decode finds an opcode's list bits by a binary search. */
TEST(ctrl_op_list_sorted)
{
	CHECK(hz_op_list_sorted());
}

/* The decode memo: the same words decoded again, with other control bits,
   or one instruction later (branch targets are PC-relative) give the same
   view, and branch targets follow the shift. */
TEST(ctrl_decode_memo)
{
	Cub cb;
	size_t n, i, bad;
	Arena ar = {0};
	int branches = 0;

	if (cub_load(&cb, "reduce_shared_f32", "sm_90") < 0)
		SKIP("no tests/kernels/reduce_shared_f32");
	Word *w = first_text(&cb, &n);
	CHECK(w != NULL);
	if (!w) {
		cub_free(&cb);
		return;
	}
	Word *v = xcalloc(n + 2, sizeof *v);
	HIns *a = xcalloc(n + 1, sizeof *a), *b = xcalloc(n + 2, sizeof *b);
	CHECK(hz_decode(cb.a, w, n, a, &ar, &bad) == 0);
	v[0] = w[n - 1];  /* the final BRA to itself: any decodable word */
	for (i = 0; i < n; i++) {
		Ctrl c = ctrl_get(w[i]);
		c.stall = (u8)((c.stall + 3) & 15);
		c.wait ^= 0x15;
		v[i + 1] = ctrl_set(w[i], c);
	}
	CHECK(hz_decode(cb.a, v, n + 1, b, &ar, &bad) == 0);
	for (i = 0; i < n; i++) {
		HIns *x = &a[i], *y = &b[i + 1];
		CHECK(!strcmp(hz_op_name(x->opid), hz_op_name(y->opid)) && !strcmp(x->cls, y->cls));
		CHECK(x->kind == y->kind && x->nrd == y->nrd && x->nwr == y->nwr && x->opid == y->opid);
		CHECK(!memcmp(x->rd, y->rd, x->nrd * sizeof *x->rd) && !memcmp(x->wr, y->wr, x->nwr * sizeof *x->wr));
		CHECK(!memcmp(x->need, y->need, HN_N * sizeof *x->need) && x->minst == y->minst);
		CHECK(y->c.stall == ((x->c.stall + 3) & 15) && y->c.wait == (x->c.wait ^ 0x15));
		if (x->kind == HK_BRA) {
			CHECK(y->target == x->target + 1);
			branches++;
		}
	}
	CHECK(branches > 0);
	free(a);
	free(b);
	free(v);
	free(w);
	arena_free(&ar);
	cub_free(&cb);
}

/* hz_decode counts each word's highest register as sass_reg_max of the
   word's printed text (the compiler's REGCOUNT takes it from there, not
   printing the words again): on the golden words of both arches. */
TEST(ctrl_decode_reg_max)
{
	static const char *files[] = {"suite-sm_90", "fuzz-sm_90", "gaps-sm_90", "tex-sm_90", "tma-sm_90",
				      "suite-sm_80", "fuzz-sm_80", "gaps-sm_80", "tex-sm_80"};
	char path[64], line[512];
	size_t k, words = 0, bad;
	Buf t = {0};

	for (k = 0; k < sizeof files / sizeof *files; k++) {
		const Arch *a = arch_lookup(strstr(files[k], "sm_90") ? "sm_90" : "sm_80");
		FILE *f;
		snprintf(path, sizeof path, "tests/golden/%s.txt", files[k]);
		if (!(f = fopen(path, "r")))
			SKIP("golden file missing");
		while (fgets(line, sizeof line, f)) {
			unsigned long long lo, hi;
			Word w;
			HIns h;
			Arena ar = {0};
			if (sscanf(line, "0x%*x 0x%llx 0x%llx", &lo, &hi) != 2)
				continue;
			w.lo = lo, w.hi = hi;
			t.n = 0;
			if (isa_print(a, w, 0, NULL, &t) == 0 && hz_decode(a, &w, 1, &h, &ar, &bad) == 0) {
				CHECK_EQ_U64((u64)(i64)h.rmax, (u64)(i64)sass_reg_max(t.s));
				words++;
			}
			arena_free(&ar);
		}
		fclose(f);
	}
	buf_free(&t);
	CHECK(words > 50000);
	fprintf(stderr, "  ctrl: %zu golden words, hz_decode's highest register is sass_reg_max's\n", words);
}

/* hz_decode builds a word's view from its fields where its form has an
   operand program (tools/isa-gentab's hz_prog), else from its printed
   text: the two views equal, and fail together, on every golden word of
   both arches (the large files where tests/golden/unpack made them). */
TEST(ctrl_decode_direct)
{
	static const char *files[] = {"suite-sm_90", "fuzz-sm_90", "gaps-sm_90", "tex-sm_90", "tma-sm_90", "sm_90",
				      "suite-sm_80", "fuzz-sm_80", "gaps-sm_80", "tex-sm_80", "sm_80"};
	char path[64], line[512];
	size_t k, words = 0, direct = 0;
	Arena ar = {0};

	for (k = 0; k < sizeof files / sizeof *files; k++) {
		const Arch *a = arch_lookup(strstr(files[k], "sm_90") ? "sm_90" : "sm_80");
		FILE *f;
		snprintf(path, sizeof path, "tests/golden/%s.txt", files[k]);
		if (!(f = fopen(path, "r"))) {
			CHECK(!strchr(files[k], '-'));  /* only the unpacked ones may be missing */
			continue;
		}
		while (fgets(line, sizeof line, f)) {
			unsigned long long at, lo, hi;
			Word w;
			HIns x, y;
			u64 tx = 0, ty = 0;
			const IsaForm *fm;
			int rx, ry;
			if (sscanf(line, "0x%llx 0x%llx 0x%llx", &at, &lo, &hi) != 3)
				continue;
			w.lo = lo, w.hi = hi;
			rx = hz_decode_one(a, w, at, 1u << 20, 0, &x, &tx, &ar);
			ry = hz_decode_one(a, w, at, 1u << 20, 1, &y, &ty, &ar);
			CHECK_EQ_U64((u64)rx, (u64)ry);
			if (!rx && !ry && (!hz_same_view(&x, &y) || tx != ty)) {
				CHECK(0);
				fprintf(stderr, "  %s: %s", files[k], line);
			}
			if (!(w.hi >> 45 & 1))
				w.hi &= ~(0xfull << 58);
			fm = isa_match(a, w);
			direct += fm && fm->hz;
			words++;
			if (words % 4096 == 0)
				arena_free(&ar);
		}
		fclose(f);
	}
	arena_free(&ar);
	CHECK(words > 50000);
	fprintf(stderr, "  ctrl: %zu golden words (%zu by their fields), the two views equal\n", words, direct);
}

/* hz_decode's memo tells PC-relative words by a "0x" in their text: every
   PC-relative field prints as hex, never left out (FF_OPTPLUS). */
TEST(ctrl_pcrel_fields_print_hex)
{
	const Arch *as[2] = {&arch_sm80, &arch_sm90};
	int k, pc = 0;
	u32 i;

	for (k = 0; k < 2; k++)
		for (i = 0; i < as[k]->nforms; i++) {
			const IsaForm *f = &as[k]->forms[i];
			u32 j;
			for (j = f->field0; j < f->field0 + f->nfield; j++)
				if (as[k]->fields[j].flags & FF_PCREL) {
					CHECK(as[k]->fields[j].kind == FK_HEX && !(as[k]->fields[j].flags & FF_OPTPLUS));
					pc++;
				}
		}
	CHECK(pc > 0);
}

/* One solve, then what hz_solved_hazards/hz_solved_fixes promise: the
   hazards a pass reports, and no change by a fix pass when there are no
   fix events.  Adds to counts[0..3]: solves with hazards, without, with
   fix events, without. */
static void
solve_vs_pass(TestState *t_, const Arch *a, const Word *w, size_t n, int mode, int counts[4])
{
	Arena ar = {0};
	HIns *ins = xmalloc((n + 1) * sizeof *ins);
	size_t bad;
	Hz *h;
	int hz, fx;

	CHECK(hz_decode(a, w, n, ins, &ar, &bad) == 0);
	h = hz_new(a, ins, n, mode);
	hz_solve(h);
	hz = hz_solved_hazards(h);
	fx = hz_solved_fixes(h);
	CHECK(hz == hz_pass(h, "k", NULL, NULL));
	if (!fx)
		CHECK(hz_fix(h) == 0);
	counts[hz ? 0 : 1]++;
	counts[fx ? 2 : 3]++;
	hz_free(h);
	free(ins);
	arena_free(&ar);
}

/* The assigner's last round and the checker's pass are skipped when the
   solve's last visits saw nothing: on ptxas's bits, random bits and
   assigned bits of suite kernels, the solve's counts are the pass's. */
TEST(ctrl_solve_counts_match_pass)
{
	u64 x = 0x2545f4914f6cdd1dull;
	size_t i, a, n, k;
	int counts[4] = {0}, mode;

	for (a = 0; a < 2; a++)
		for (i = 0; i < nkernel_refs; i += 3) {
			Cub c;
			Word *w;
			if (cub_load(&c, kernel_refs[i].name, archs[a]) < 0)
				continue;
			if (!(w = first_text(&c, &n))) {
				cub_free(&c);
				continue;
			}
			for (mode = 0; mode < 2; mode++) {
				solve_vs_pass(t_, c.a, w, n, mode, counts);
				for (k = 0; k < n; k++) {  /* random bits, sparse waits */
					Ctrl r = {0};
					x ^= x << 13, x ^= x >> 7, x ^= x << 17;
					r.stall = x & 15;
					r.wrsb = (x >> 5) & 7;
					r.rdsb = (x >> 8) & 7;
					r.wait = (x >> 11) & 63 & (x >> 17);
					w[k] = ctrl_set(w[k], r);
				}
				solve_vs_pass(t_, c.a, w, n, mode, counts);
				CHECK(ctrl_assign(c.a, w, n, mode) != -1);
				solve_vs_pass(t_, c.a, w, n, mode, counts);
			}
			free(w);
			cub_free(&c);
		}
	fprintf(stderr, "  ctrl: solves with/without hazards %d/%d, with/without fix events %d/%d\n",
		counts[0], counts[1], counts[2], counts[3]);
	CHECK(counts[0] > 10 && counts[1] > 10 && counts[2] > 10 && counts[3] > 10);
}

/* Vector atomics (sm_90) read and write register tuples: F32x4 / F16x8 /
   BF16x8 four registers, F32x2 / F16x4 two. */
TEST(ctrl_vector_atomic_widths)
{
	static const struct { const char *t; int n; } c[] = {
		{"ATOMG.E.ADD.F32x4.FTZ.RN.STRONG.GPU PT, R20, desc[UR4][R2.64+0x10], R24", 4},
		{"ATOMG.E.ADD.F32x2.FTZ.RN.STRONG.GPU PT, R18, desc[UR4][R2.64], R20", 2},
		{"ATOMG.E.MAX.F16x8.RN.STRONG.GPU PT, R60, desc[UR4][R2.64+0xc0], R64", 4},
		{"ATOMG.E.MIN.F16x4.RN.STRONG.GPU PT, R56, desc[UR4][R2.64+0xb0], R58", 2},
		{"ATOMG.E.ADD.BF16x8.RN.STRONG.GPU PT, R44, desc[UR4][R2.64+0x90], R48", 4},
	};
	size_t i, k, bad;

	for (i = 0; i < sizeof c / sizeof *c; i++) {
		Arena ar = {0};
		Word w[1];
		HIns h[2];
		char err[200];
		int rd = 0;
		CHECK(isa_parse(&arch_sm90, c[i].t, 0, NULL, &w[0], err, sizeof err, NULL) == 0);
		CHECK(hz_decode(&arch_sm90, w, 1, h, &ar, &bad) == 0);
		CHECK(h[0].nwr >= 1 && h[0].wr[0].n == c[i].n);
		for (k = 0; k < (size_t)h[0].nrd; k++)
			if (h[0].rd[k].n == c[i].n)
				rd = 1;
		CHECK(rd);
		arena_free(&ar);
	}
}
