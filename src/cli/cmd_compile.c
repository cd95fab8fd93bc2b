/* cmd_compile.c -- openassembler compile: PTX (or CUDA C through nvcc)
 * to a cubin with our own compiler (src/codegen), never ptxas.
 *
 *   compile FILE.{ptx,cu} --arch sm_90|sm_80 [-o NAME] [--out-dir DIR]
 *           [--opt-level safe|mined|sched|opt] [--verify [--spec S]] [-v]
 *           [--dump]
 * writes DIR/cubin/NAME.cubin, DIR/sass/NAME.sass, DIR/manifest.json;
 * with -o FILE.cubin, as ptxas -o, that one file only. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "codegen/compile.h"
#include "emu/emu.h"
#include "ptx/interp.h"
#include "run/devsys.h"
#include "run/spec.h"

/* PTX larger than this compiles with a heap of ~150 pages or more (the
 * suite: 6-31 KiB, 150-720 pages), where one huge page is cheaper than
 * small ones (src/cli/alloc.c). */
enum { LARGE_PTX = 6 << 10 };

typedef struct {
	const char *in, *name, *dir, *spec;
	const char *cubin;   /* -o FILE.cubin: that file only, no listing or manifest */
	int sm, opt, verify, verbose, dump;
} Args;

static void
usage(FILE *f)
{
	fputs("usage: openassembler compile FILE.{ptx,cu} --arch sm_90|sm_80 [-o NAME]\n"
	      "           [--out-dir DIR] [--opt-level safe|mined|sched|opt]\n"
	      "           [--verify] [--spec SPEC.json] [-v] [--dump]\n"
	      "Compile every .entry of a PTX module (a .cu goes through nvcc --ptx first)\n"
	      "to SASS and a cubin with OpenAssembler's own compiler; ptxas is never run.\n"
	      "Writes DIR/cubin/NAME.cubin, DIR/sass/NAME.sass and DIR/manifest.json\n"
	      "(DIR defaults to oa-out, NAME to the input's base name); with\n"
	      "-o FILE.cubin, as ptxas -o, only that cubin (no listing, no manifest;\n"
	      "a .cu's PTX from nvcc still goes to DIR).\n"
	      "  --verify     run the kernel of the launch spec (--spec, or FILE's base\n"
	      "               name + .spec.json) in the SASS emulator on our cubin and in\n"
	      "               the PTX interpreter, compare every buffer; exit 1 on a mismatch\n"
	      "  -v           resource usage per kernel, in ptxas -v's form\n"
	      "  --dump       IR and MIR after each pass, to stderr\n", f);
}

static int
ends_with(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);
	return n >= m && !strcmp(s + n - m, suf);
}

/* base name without directory and extension */
static char *
stem(const char *path)
{
	const char *b = strrchr(path, '/');
	char *s = xstrdup(b ? b + 1 : path), *dot = strrchr(s, '.');
	if (dot && dot != s)
		*dot = 0;
	return s;
}

static int
parse_args(int argc, char **argv, Args *a)
{
	int i;

	memset(a, 0, sizeof *a);
	a->dir = "oa-out";
	a->opt = OPT_OPT;
	for (i = 1; i < argc; i++) {
		const char *s = argv[i];
		int more = i + 1 < argc;
		if (!strcmp(s, "--help") || !strcmp(s, "-h")) {
			usage(stdout);
			exit(0);
		} else if (!strcmp(s, "--arch") && more) {
			const char *v = argv[++i];
			a->sm = !strcmp(v, "sm_90") || !strcmp(v, "sm_90a") ? 90 : !strcmp(v, "sm_80") ? 80 : -1;
			if (a->sm < 0) {
				fprintf(stderr, "openassembler compile: error: unknown --arch '%s' (sm_90 or sm_80)\n", v);
				return -1;
			}
		} else if (!strcmp(s, "-o") && more) {
			a->name = argv[++i];
		} else if (!strcmp(s, "--out-dir") && more) {
			a->dir = argv[++i];
		} else if (!strcmp(s, "--opt-level") && more) {
			if ((a->opt = compile_opt_lookup(argv[++i])) < 0) {
				fprintf(stderr, "openassembler compile: error: unknown --opt-level '%s'"
					" (safe, mined, sched or opt)\n", argv[i]);
				return -1;
			}
		} else if (!strcmp(s, "--verify")) {
			a->verify = 1;
		} else if (!strcmp(s, "--spec") && more) {
			a->spec = argv[++i];
		} else if (!strcmp(s, "-v")) {
			a->verbose = 1;
		} else if (!strcmp(s, "--dump")) {
			a->dump = 1;
		} else if (!strcmp(s, "--fallback")) {
			fprintf(stderr, "openassembler compile: error: --fallback ptxas is not implemented:"
				" OpenAssembler compiles everything itself or says what it cannot\n");
			return -1;
		} else if (s[0] == '-' || a->in) {
			fprintf(stderr, "openassembler compile: error: unexpected argument '%s'\n", s);
			usage(stderr);
			return -1;
		} else {
			a->in = s;
		}
	}
	if (a->name && ends_with(a->name, ".cubin"))
		a->cubin = a->name;
	if (!a->in || !a->sm) {
		usage(stderr);
		return -1;
	}
	return 0;
}

/* .cu -> PTX through nvcc; returns the PTX file's path (malloc'd) or NULL. */
static char *
cuda_to_ptx(const char *cu, int sm, const char *dir)
{
	char *out = xmalloc(strlen(dir) + 64 + strlen(cu)), arch[32], *st = stem(cu);
	pid_t pid;
	int status;

	sprintf(out, "%s/%s.sm_%d.ptx", dir, st, sm);
	free(st);
	snprintf(arch, sizeof arch, "-arch=sm_%d", sm);
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		execlp("nvcc", "nvcc", "--ptx", arch, "-o", out, cu, (char *)NULL);
		fprintf(stderr, "openassembler compile: error: cannot run nvcc for %s (is CUDA's bin on PATH?)\n", cu);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		if (pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) != 127)
			fprintf(stderr, "openassembler compile: error: nvcc --ptx failed on %s\n", cu);
		free(out);
		return NULL;
	}
	return out;
}

/* FNV-1a (64 bits) of a[0..na) into h[0] and of b[0..nb) into h[1].  Each
 * byte's step waits for the last one's multiply, so one stream runs at a
 * multiply's latency per byte: the two streams' steps are interleaved, and
 * the processor runs the two chains side by side. */
static void
fnv1a_pair(const u8 *a, size_t na, const u8 *b, size_t nb, u64 h[2])
{
	const u64 k = FNV64_PRIME;
	u64 x = FNV64_BASIS, y = x;
	size_t i, n = MIN(na, nb) & ~(size_t)3;

	for (i = 0; i < n; i += 4) {	/* (unrolled: less loop, same steps) */
		x = (x ^ a[i]) * k, y = (y ^ b[i]) * k;
		x = (x ^ a[i + 1]) * k, y = (y ^ b[i + 1]) * k;
		x = (x ^ a[i + 2]) * k, y = (y ^ b[i + 2]) * k;
		x = (x ^ a[i + 3]) * k, y = (y ^ b[i + 3]) * k;
	}
	h[0] = fnv1a64(x, a + n, na - n);
	h[1] = fnv1a64(y, b + n, nb - n);
}

/* Run the spec's kernel in the PTX interpreter and in the emulator on our
 * cubin; compare the buffers and the printed text.  Returns 0 (match), 1
 * (mismatch or failure). */
static int
verify(PtxModule *m, const Cubin *c, const char *cubin_path, const char *specpath, const char **why)
{
	Spec sp;
	Launch want, got;
	InterpOpts io = {0};
	EmuOpts eo = {0};
	int rc = 1;

	if (spec_load(specpath, &sp) < 0) {
		*why = "bad launch spec";
		return 1;
	}
	char *pw = NULL, *pg = NULL;
	size_t npw = 0, npg = 0;
	int ri, re;

	launch_init(&want, &sp);
	launch_init(&got, &sp);
	io.printf_to = open_memstream(&pw, &npw);
	eo.printf_to = open_memstream(&pg, &npg);
	ri = interp_run(m, sp.kernel, &want, &io);
	/* Our SASS runs at most ~40 instructions per PTX instruction (f64
	 * division), and a warp-instruction covers at least one thread: a run
	 * far beyond the interpreter's count is a hang in our code (or in a
	 * lock that only the interpreter's schedule releases), an error. */
	eo.max_steps = 64 * interp_steps + (1u << 20);
	re = ri == 0 ? emu_run(c, cubin_path, sp.kernel, &got, &eo) : EMU_OK;
	if (io.printf_to)
		fclose(io.printf_to);
	if (eo.printf_to)
		fclose(eo.printf_to);
	if (ri != 0)
		*why = "the PTX interpreter failed";
	else if (re != EMU_OK)
		*why = "the SASS emulator failed on our cubin";
	else if (launch_compare(&got, &want, stderr) != 0)
		*why = "outputs differ (emulated SASS vs PTX interpreter)";
	else if (dev_printed_compare(pw, pg, stderr) != 0)
		*why = "printed text differs (emulated SASS vs PTX interpreter)";
	else
		rc = 0, *why = "match";
	if (ri != 0 && pw && *pw)   /* an assertion's message */
		fputs(pw, stderr);
	else if (re != EMU_OK && pg && *pg)
		fputs(pg, stderr);
	free(pw);
	free(pg);
	launch_free(&want);
	launch_free(&got);
	spec_free(&sp);
	return rc;
}

static void
print_resources(const CompileResult *r, int sm)
{
	size_t i;
	for (i = 0; i < r->k.n; i++) {
		const KernelStats *k = &r->k.v[i];
		fprintf(stderr, "openassembler info    : Compiling entry function '%s' for 'sm_%d'\n", k->name, sm);
		fprintf(stderr, "openassembler info    : Function properties for %s\n", k->name);
		fprintf(stderr, "    %u bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n", k->local);
		fprintf(stderr, "openassembler info    : Used %d registers, used %u barriers, %u bytes smem, "
			"%zu instructions\n", k->regs, k->barriers, k->shared, k->ninstr);
	}
}

/* d = a b c e; d is as large as for the sprintf this replaces (whose
 * formatter cost ~1 K instructions a path). */
static char *
cat4(char *d, const char *a, const char *b, const char *c, const char *e)
{
	const char *s[4] = {a, b, c, e};
	char *p = d;
	int i;

	for (i = 0; i < 4; i++) {
		size_t n = strlen(s[i]);

		memcpy(p, s[i], n);
		p += n;
	}
	*p = 0;
	return d;
}

/* h as %016llx */
static void
put_hex16(Buf *b, u64 h)
{
	char t[16];
	int i;

	for (i = 15; i >= 0; i--, h >>= 4)
		t[i] = "0123456789abcdef"[h & 15];
	buf_putn(b, t, 16);
}

/* The manifest through buf_puts and friends: buf_printf's formatter cost
 * ~1.7 K instructions a line. */
static void
write_manifest(const Args *a, const char *name, const char *ptxpath, const char *text, size_t tn,
	       const CompileResult *r, const Buf *cub, const char *vres)
{
	Buf j = {0};
	char *path = xmalloc(strlen(a->dir) + 32);
	size_t i;
	u64 h[2];

	fnv1a_pair((const u8 *)text, tn, (const u8 *)cub->s, cub->n, h);
	buf_puts(&j, "{\n  \"tool\": \"openassembler compile\",\n  \"input\": \""), buf_puts(&j, a->in);
	buf_puts(&j, "\",\n  \"ptx\": \""), buf_puts(&j, ptxpath);
	buf_puts(&j, "\",\n  \"ptx_fnv1a64\": \""), put_hex16(&j, h[0]);
	buf_puts(&j, "\",\n  \"arch\": \"sm_"), buf_putd(&j, a->sm);
	buf_puts(&j, "\",\n  \"options\": {\"opt_level\": \""), buf_puts(&j, compile_opt_name(a->opt));
	buf_puts(&j, "\", \"verify\": "), buf_puts(&j, a->verify ? "true" : "false");
	buf_puts(&j, "},\n  \"cubin\": \"cubin/"), buf_puts(&j, name);
	buf_puts(&j, ".cubin\",\n  \"cubin_fnv1a64\": \""), put_hex16(&j, h[1]);
	buf_puts(&j, "\",\n  \"sass\": \"sass/"), buf_puts(&j, name);
	buf_puts(&j, ".sass\",\n  \"kernels\": [\n");
	for (i = 0; i < r->k.n; i++) {
		const KernelStats *k = &r->k.v[i];

		buf_puts(&j, "    {\"name\": \""), buf_puts(&j, k->name);
		buf_puts(&j, "\", \"registers\": "), buf_putd(&j, k->regs);
		buf_puts(&j, ", \"shared_bytes\": "), buf_putu(&j, k->shared);
		buf_puts(&j, ", \"local_bytes\": "), buf_putu(&j, k->local);
		buf_puts(&j, ", \"instructions\": "), buf_putu(&j, k->ninstr);
		buf_puts(&j, ", \"verify\": \""), buf_puts(&j, vres);
		buf_puts(&j, i + 1 < r->k.n ? "\"},\n" : "\"}\n");
	}
	buf_puts(&j, "  ]\n}\n");
	cat4(path, a->dir, "/manifest.json", "", "");
	write_file(path, j.s, j.n);
	free(path);
	buf_free(&j);
}

int
cmd_compile(int argc, char **argv)
{
	Args a;
	char *ptxpath = NULL, *text = NULL, *name = NULL, *path = NULL, *specpath = NULL;
	size_t n;
	PtxModule *m = NULL;
	CompileOpts co = {0};
	CompileResult r;
	Buf cub = {0}, sass = {0};
	ListOpts lo = {0};
	int rc = 1;
	const char *vres = "not run";

	if (parse_args(argc, argv, &a) < 0)
		return 1;
	if (ends_with(a.in, ".cu")) {
		mkdirs(a.dir);   /* nvcc writes the PTX there */
		if (!(ptxpath = cuda_to_ptx(a.in, a.sm, a.dir)))
			return 1;
	} else {
		ptxpath = xstrdup(a.in);
	}
	name = a.name ? xstrdup(a.name) : stem(a.in);
	if (!(text = read_file(ptxpath, &n)))
		goto out;
	if (n > LARGE_PTX)
		heap_large();
	m = ptx_parse(ptxpath, text, n);
	if (!m || ptx_check(m) < 0)
		goto out;
	if (m->sm > a.sm) {  /* ptxas refuses it too: the code may use what the arch lacks */
		diag_at(&m->src, m->target_pos, ".target %s is above --arch sm_%d", m->target, a.sm);
		goto out;
	}
	co.sm = a.sm;
	co.opt = a.opt;
	co.dump = a.dump ? stderr : NULL;
	if (compile_module(m, &co, &r) < 0)
		goto out_r;
	cubin_write(&r.cubin, &cub);
	if (a.cubin) {
		path = xstrdup(a.cubin);
	} else {
		path = xmalloc(strlen(a.dir) + strlen(name) + 32);
		cat4(path, a.dir, "/cubin/", name, ".cubin");
	}
	if (write_file_mkdirs(path, cub.s, cub.n) < 0)
		goto out_r;
	if (!a.cubin) {
		buf_grow(&sass, 4 * cub.n + 4096);   /* the listing is 2-4 times the cubin: grown once */
		if (cubin_list(&r.cubin, path, &lo, &sass) == 0) {
			char *sp = xmalloc(strlen(a.dir) + strlen(name) + 32);
			cat4(sp, a.dir, "/sass/", name, ".sass");
			write_file_mkdirs(sp, sass.s, sass.n);
			free(sp);
		}
	}
	if (a.verbose)
		print_resources(&r, a.sm);
	rc = 0;
	if (a.verify) {
		if (a.spec) {
			specpath = xstrdup(a.spec);
		} else {
			char *st = xstrdup(a.in), *dot = strrchr(st, '.');
			if (dot)
				*dot = 0;
			specpath = xmalloc(strlen(st) + 16);
			sprintf(specpath, "%s.spec.json", st);
			free(st);
		}
		if (access(specpath, R_OK) != 0) {
			fprintf(stderr, "openassembler compile: error: --verify needs a launch spec: %s not found"
				" (give one with --spec)\n", specpath);
			rc = 1;
			vres = "no spec";
		} else {
			rc = verify(m, &r.cubin, path, specpath, &vres);
			fprintf(stderr, "verify %s: %s\n", name, vres);
		}
	}
	if (!a.cubin)
		write_manifest(&a, name, ptxpath, text, n, &r, &cub, vres);
out_r:
	compile_free(&r);
out:
	ptx_free(m);
	free(text);
	free(ptxpath);
	free(name);
	free(path);
	free(specpath);
	buf_free(&cub);
	buf_free(&sass);
	return rc;
}
