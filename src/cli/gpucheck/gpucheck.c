/* gpucheck.c -- oa-gpucheck, the runner behind tools/gpu-check and
 * `openassembler gpucheck` (which runs this binary: openassembler is
 * linked statically for a fast start, and a static program cannot load
 * the CUDA driver with dlopen reliably; this one is linked dynamically).
 * For each cubin: read it with our reader and list its kernels (CPU); then, when a CUDA driver is present, load it with
 * cuModuleLoadDataEx, check every kernel's register count against its
 * REGCOUNT attribute, and launch the vadd(c, a, b, n) test kernel where
 * present, comparing c with a + b computed here.  Without a driver it
 * says "no CUDA driver: launch skipped" and checks only the CPU part.
 * With --spec SPEC.json the files are versions of one kernel (ptxas's,
 * reassembled, ours): each is launched as the launch specification says
 * and every output buffer must equal the first file's bit for bit, and
 * pass the spec's checks against it.  Every buffer of the spec is
 * allocated (also those only struct fields point to) and the parameters
 * are laid out by launch_param(), as the interpreter and the emulator do;
 * --dry-run prints that layout instead of launching.  With --dump DIR
 * the files are independent kernels (tools/lat-sweep): each buffer after
 * the launch is written raw to DIR/FILE.NAME (FILE the cubin's base name)
 * and nothing is compared.
 * Prints PASS/FAIL/SKIP lines; exit 1 if anything failed. */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cubin/kinfo.h"
#include "run/cuda.h"
#include "run/spec.h"

static int fails;
static int time_reps;    /* --time N: median of N timed launches per file */
static int tolerant;     /* --tolerant: outputs may differ within the spec's checks */
static const char *dump_dir; /* --dump DIR: write every buffer, compare nothing */

static void
result(int ok, const char *fmt, ...)
{
	va_list ap;

	fputs(ok ? "PASS " : "FAIL ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fails += !ok;
}

/* vadd(float *c, const float *a, const float *b, int n) on n elements. */
static int
run_vadd(Cuda *cu, void *fn, const char *what)
{
	enum { N = 100003 };
	float *a = xmalloc(N * sizeof *a), *b = xmalloc(N * sizeof *b), *c = xmalloc(N * sizeof *c);
	u64 da = 0, db = 0, dc = 0;
	int n = N, i, bad = 0, rc;
	u32 grid[3] = {(N + 255) / 256, 1, 1}, block[3] = {256, 1, 1};
	void *params[4] = {&dc, &da, &db, &n};

	for (i = 0; i < N; i++) {
		a[i] = (float)i * 0.5f;
		b[i] = 1.0f / (float)(i + 1);
		c[i] = -1.0f;
	}
	rc = cuda_alloc(cu, N * 4, &da) || cuda_alloc(cu, N * 4, &db) || cuda_alloc(cu, N * 4, &dc) ||
	     cuda_put(cu, da, a, N * 4) || cuda_put(cu, db, b, N * 4) || cuda_put(cu, dc, c, N * 4) ||
	     cuda_launch(cu, fn, grid, block, 0, params) || cuda_get(cu, c, dc, N * 4);
	if (rc)
		result(0, "run %s: %s", what, cuda_error(cu));
	else {
		for (i = 0; i < N; i++)
			if (c[i] != a[i] + b[i])
				bad++;
		result(bad == 0, "run %s: %d of %d results differ from a+b", what, bad, N);
	}
	if (da)
		cuda_free(cu, da);
	if (db)
		cuda_free(cu, db);
	if (dc)
		cuda_free(cu, dc);
	free(a);
	free(b);
	free(c);
	return rc;
}

/* The bytes each kernel parameter receives (launch_param(): a buffer's
 * address, a scalar's bits, a struct's fields with its pointer fields'
 * addresses), addr[i] being the device address of buffer i (i < nall).
 * Returns params[0..nargs) pointing into *store (free both). */
static void **
spec_params(const Launch *l, const u64 *addr, u8 **store)
{
	const Spec *sp = l->spec;
	void **params = xcalloc(sp->nargs + 1, sizeof *params);
	size_t i, total = 0;

	for (i = 0; i < sp->nargs; i++)
		total += (launch_param_size(&sp->args[i]) + 7) & ~7u;
	*store = xcalloc(total + 8, 1);
	for (total = 0, i = 0; i < sp->nargs; i++) {
		params[i] = *store + total;
		total += (launch_param(l, i, addr, *store + total) + 7) & ~7u;
	}
	return params;
}

/* --dry-run: the buffers a launch would allocate (every one of the spec,
 * struct-only ones too) and the parameter bytes it would pass, with the
 * made-up device address 0x7f0000000000 + (i << 32) for buffer i. */
static void
dry_run(const Spec *sp)
{
	Launch l;
	u64 *addr = xcalloc(sp->nall + 1, sizeof *addr);
	u8 *store;
	void **params;
	size_t i;
	u32 k, n;

	launch_init(&l, sp);
	for (i = 0; i < sp->nall; i++)
		if (sp->args[i].is_buffer) {
			addr[i] = 0x7f0000000000ull + ((u64)i << 32);
			printf("BUFFER %zu %s: %zu bytes at 0x%llx\n", i, sp->args[i].name, l.bytes[i],
			       (unsigned long long)addr[i]);
		}
	params = spec_params(&l, addr, &store);
	for (i = 0; i < sp->nargs; i++) {
		n = launch_param_size(&sp->args[i]);
		printf("PARAM %zu %s: %u bytes:", i, sp->args[i].name, n);
		for (k = 0; k < n; k++)
			printf(" %02x", ((u8 *)params[i])[k]);
		putchar('\n');
	}
	free(params);
	free(store);
	free(addr);
	launch_free(&l);
}

/* Launch the spec's kernel from module mod into l: every buffer of the
 * spec (parameters and those only struct fields point to) is allocated
 * and filled, the parameters laid out by launch_param(), and every
 * buffer read back. */
static int
run_spec(Cuda *cu, void *mod, const Spec *sp, const char *kernel, Launch *l, const char *what)
{
	void *fn, **params = NULL;
	u64 *dptr = xcalloc(sp->nall + 1, sizeof *dptr);
	u8 *store = NULL;
	size_t i;
	int rc = -1;

	for (i = 0; i < sp->nall; i++)
		if (sp->args[i].tex) {
			result(0, "run %s: %s %s: the GPU runner does not create texture or surface objects yet",
			       what, sp->args[i].tex->surface ? "surface" : "texture", sp->args[i].name);
			free(dptr);
			return -1;
		}
	if (cuda_function(cu, mod, kernel, &fn, NULL) < 0)
		goto out;
	for (i = 0; i < sp->nall; i++)
		if (sp->args[i].is_buffer && (cuda_alloc(cu, l->bytes[i] ? l->bytes[i] : 1, &dptr[i]) < 0 ||
		                              cuda_put(cu, dptr[i], l->data[i], l->bytes[i]) < 0))
			goto out;
	params = spec_params(l, dptr, &store);
	/* tensor maps: the driver's bytes instead of our encoding (field 0
	   names the tensor's buffer; docs/compiler-tma.md) -- not yet run
	   on a GPU */
	for (i = 0; i < sp->nargs; i++)
		if (sp->args[i].tmap &&
		    cuda_tmap_encode(cu, sp->args[i].tmap, dptr[sp->args[i].fields[0].buffer], params[i]) < 0)
			goto out;
	if (cuda_launch_cluster(cu, fn, sp->grid, sp->block, sp->cluster, sp->shared, params) < 0)
		goto out;
	for (i = 0; i < sp->nall; i++)
		if (sp->args[i].is_buffer && cuda_get(cu, l->data[i], dptr[i], l->bytes[i]) < 0)
			goto out;
	if (time_reps > 0) {
		double us;
		if (cuda_time(cu, fn, sp->grid, sp->block, sp->cluster, sp->shared, params, time_reps, &us) < 0)
			goto out;
		printf("TIME %s: median %.3f us over %d launches\n", what, us, time_reps);
	}
	rc = 0;
out:
	if (rc)
		result(0, "run %s: %s", what, cuda_error(cu));
	for (i = 0; i < sp->nall; i++)
		if (dptr[i])
			cuda_free(cu, dptr[i]);
	free(params);
	free(store);
	free(dptr);
	return rc;
}

/* Compare every buffer of got with want, bit for bit. */
static void
same_outputs(const Spec *sp, const Launch *got, const Launch *want, const char *what, const char *ref)
{
	size_t i, bad = 0;

	for (i = 0; i < sp->nall; i++)
		if (sp->args[i].is_buffer && memcmp(got->data[i], want->data[i], got->bytes[i]))
			bad++;
	if (tolerant && bad) {
		size_t n = launch_compare(got, want, stdout);
		result(n == 0, "outputs %s: %s %s", what, n ? "differ beyond the spec's tolerance from" :
		       "within the spec's tolerance of", ref);
		return;
	}
	result(bad == 0, "outputs %s: %s %s", what, bad ? "differ from" : "identical to", ref);
	if (launch_compare(got, want, stdout))
		result(0, "checks %s against %s", what, ref);
}

/* --dump: every buffer of l, raw, to dump_dir/BASENAME.BUFFER. */
static void
dump(const Spec *sp, const Launch *l, const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	char out[4096];
	size_t i;

	for (i = 0; i < sp->nall; i++) {
		if (!sp->args[i].is_buffer)
			continue;
		snprintf(out, sizeof out, "%s/%s.%s", dump_dir, base, sp->args[i].name);
		result(write_file(out, (const char *)l->data[i], l->bytes[i]) == 0, "dump %s", out);
	}
}

static Spec *spec;
static Launch first_launch;
static const char *first_path;

static void
check_file(Cuda *cu, int dev_sm, const char *path)
{
	size_t n, nk, i;
	u8 *p = (u8 *)read_file(path, &n);
	Cubin c;
	KernelInfo *k = NULL;
	void *mod = NULL;

	if (!p) {
		result(0, "read %s", path);
		return;
	}
	if (cubin_read(&c, path, p, n) < 0) {
		result(0, "read %s", path);
		goto out;
	}
	k = cubin_kernels(&c, &nk);
	result(nk > 0, "read %s: sm_%d, %zu kernels", path, cubin_sm(&c), nk);
	for (i = 0; i < nk; i++)
		printf("  kernel %s: regs %u, params %u (%u bytes), frame %u, shared 0x%llx\n", k[i].name,
		       k[i].regs, k[i].nparams, k[i].param_bytes, k[i].frame, (unsigned long long)k[i].shared);
	if (!cu)
		goto out;
	if (cubin_sm(&c) / 10 != dev_sm / 10 || cubin_sm(&c) > dev_sm) {
		printf("SKIP load %s: sm_%d cubin, device is sm_%d\n", path, cubin_sm(&c), dev_sm);
		goto out;
	}
	if (cuda_load(cu, p, &mod) < 0) {
		result(0, "load %s: %s", path, cuda_error(cu));
		goto out;
	}
	result(1, "load %s", path);
	for (i = 0; i < nk; i++) {
		void *fn;
		CudaFuncInfo fi;
		char what[1024];

		snprintf(what, sizeof what, "%s:%s", path, k[i].name);
		if (cuda_function(cu, mod, k[i].name, &fn, &fi) < 0) {
			result(0, "function %s: %s", what, cuda_error(cu));
			continue;
		}
		result(fi.regs == (int)k[i].regs, "function %s: driver regs %d (REGCOUNT %u), local %d, shared %d, max threads %d",
		       what, fi.regs, k[i].regs, fi.local_bytes, fi.shared_bytes, fi.max_threads);
		if (!spec && !strcmp(k[i].name, "vadd") && k[i].param_bytes == 0x1c)
			run_vadd(cu, fn, what);
	}
	if (spec) {
		Launch l;

		const char *kname = spec->kernel ? spec->kernel : nk == 1 ? k[0].name : NULL;

		if (!kname) {
			result(0, "run %s: the spec names no kernel and the file has %zu", path, nk);
			goto unload;
		}
		launch_init(&l, spec);
		if (run_spec(cu, mod, spec, kname, &l, path) == 0) {
			if (dump_dir) {
				dump(spec, &l, path);
				launch_free(&l);
				goto unload;
			}
			if (!first_path) {
				result(1, "run %s (%s)", path, kname);
				first_launch = l;
				first_path = path;
				goto unload;
			}
			same_outputs(spec, &l, &first_launch, path, first_path);
		}
		launch_free(&l);
	}
unload:
	cuda_unload(cu, mod);
out:
	free(k);
	cubin_free(&c);
	free(p);
}

int
cmd_gpucheck(int argc, char **argv)
{
	Cuda *cu = NULL;
	char why[1024], name[256] = "";
	int i, require = 0, sm = 0, first = 1, dry = 0;

	static Spec sp;

	for (; first < argc && argv[first][0] == '-'; first++) {
		if (!strcmp(argv[first], "--require-driver")) {
			require = 1;
		} else if (!strcmp(argv[first], "--spec") && first + 1 < argc) {
			if (spec_load(argv[++first], &sp) < 0)
				return 1;
			spec = &sp;
		} else if (!strcmp(argv[first], "--time") && first + 1 < argc) {
			time_reps = atoi(argv[++first]);
			if (time_reps < 1 || time_reps > 100000) {
				fprintf(stderr, "openassembler gpucheck: error: --time wants a count of launches\n");
				return 1;
			}
		} else if (!strcmp(argv[first], "--dump") && first + 1 < argc) {
			dump_dir = argv[++first];
		} else if (!strcmp(argv[first], "--tolerant")) {
			tolerant = 1;
		} else if (!strcmp(argv[first], "--dry-run")) {
			dry = 1;
		} else {
			break;
		}
	}
	if ((dry || dump_dir) && !spec) {
		fprintf(stderr, "openassembler gpucheck: error: --dry-run and --dump need --spec SPEC.json\n");
		return 1;
	}
	if (dry && argc <= first) {
		dry_run(spec);
		spec_free(spec);
		return 0;
	}
	if (argc <= first || !strcmp(argv[first], "--help")) {
		fputs("usage: openassembler gpucheck [--require-driver] [--spec SPEC.json [--time N] [--tolerant] [--dump DIR]]"
		      " FILE.cubin...\n"
		      "       openassembler gpucheck --spec SPEC.json --dry-run [FILE.cubin...]\n"
		      "  --dry-run   print the buffers and parameter bytes a launch would use\n"
		      "              (made-up device addresses); the files are only read\n"
		      "  --time N    after the checked launch, time N more (median, CUDA events)\n"
		      "  --tolerant  later files' outputs may differ from the first's within the\n"
		      "              spec's checks (our compiler against ptxas)\n"
		      "  --dump DIR  the files are unrelated kernels: write each buffer after the\n"
		      "              launch to DIR/FILE.BUFFER (raw bytes), compare nothing\n",
		      argc <= first ? stderr : stdout);
		return argc <= first;
	}
	if (dry && spec) {
		dry_run(spec);
		printf("SKIP gpucheck: --dry-run: launch skipped\n");
	} else if (cuda_open(&cu, why, sizeof why) != 0) {
		printf("SKIP gpucheck: no CUDA driver: launch skipped (%s)\n", why);
		if (require)
			result(0, "gpucheck: a driver was required");
	} else if (cuda_device(cu, name, sizeof name, &sm) < 0) {
		result(0, "device: %s", cuda_error(cu));
		cuda_close(cu);
		cu = NULL;
	} else {
		printf("gpucheck: device %s (sm_%d)\n", name, sm);
	}
	for (i = first; i < argc; i++)
		check_file(cu, sm, argv[i]);
	if (first_path)
		launch_free(&first_launch);
	if (spec)
		spec_free(spec);
	cuda_close(cu);
	printf("gpucheck: %d failed\n", fails);
	return fails ? 1 : 0;
}

int
main(int argc, char **argv)
{
	return cmd_gpucheck(argc, argv);
}
