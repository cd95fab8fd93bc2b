/* cmd_emu.c -- openassembler emu: run a kernel on the CPU.
 *
 *   emu --ptx FILE.ptx --spec SPEC.json [--kernel NAME] [-o OUT]
 *       runs the PTX reference interpreter (src/ptx/interp*);
 *   emu FILE.cubin --spec SPEC.json [--kernel NAME] [-o OUT] [--oracle NVDISASM]
 *       runs the SASS emulator (src/emu/) on a cubin's kernel.
 * The output buffers are written as text ("name[i] = value" lines) to
 * OUT, or to stdout when -o is absent or "-". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "cubin/cubin.h"
#include "emu/emu.h"
#include "ptx/interp.h"
#include "ptx/ptx.h"
#include "run/spec.h"

static void
usage(FILE *f)
{
	fputs("usage: openassembler emu --ptx FILE.ptx --spec SPEC.json [--kernel NAME]\n"
	      "                         [-o OUT] [--steps N] [--stats] [--trace C:T] [--all-ctas]\n"
	      "Run a kernel grid in the PTX reference interpreter on the buffers the\n"
	      "launch specification describes, then write every buffer as text\n"
	      "(\"name[i] = value\" lines) to OUT (default: stdout).\n"
	      "  --kernel NAME  the entry to run (default: the spec's, or the only one)\n"
	      "  --steps N      stop with an error after N thread-instructions\n"
	      "  --stats        print thread-instructions and their rate to stderr\n"
	      "  --all-ctas     run every CTA at once (kernels with grid-wide spin\n"
	      "                 barriers); default: one cluster (or CTA) after another\n"
	      "  --trace C:T    print each instruction thread T (linear index in its\n"
	      "                 CTA) of CTA C (linear index in the grid) executes, with\n"
	      "                 the registers it writes, to stderr\n"
	      "Device printf output goes to stdout when -o names a file, else stderr.\n"
	      "\n"
	      "usage: openassembler emu FILE.cubin --spec SPEC.json [--kernel NAME] [-o OUT]\n"
	      "                         [--steps N] [--stats] [--trace C:W] [--oracle NVDISASM]\n"
	      "                         [--timing]\n"
	      "Run a kernel of an sm_80/sm_90 cubin in the SASS emulator.  --steps and\n"
	      "--stats count warp-instructions; --trace C:W traces warp W of CTA C;\n"
	      "--oracle decodes words the built-in decoder does not know with nvdisasm;\n"
	      "--timing: a register read before its producer's result is due (stall\n"
	      "counts, scoreboard waits, per the latency tables) sees the old value.\n", f);
}

static int
ends_with(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);

	return n >= m && !strcmp(s + n - m, suf);
}

static int
run_ptx(const char *ptx, const char *specpath, const char *kernel, const char *out,
	const InterpOpts *o, int stats)
{
	size_t n;
	char *text;
	PtxModule *m = NULL;
	Spec s;
	Launch l;
	int rc = 1;
	struct timespec t0, t1;

	if (spec_load(specpath, &s) < 0)
		return 1;
	text = read_file(ptx, &n);
	if (!text)
		goto out_spec;
	m = ptx_parse(ptx, text, n);
	if (!m || ptx_check(m) < 0)
		goto out_text;
	launch_init(&l, &s);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (interp_run(m, kernel, &l, o) == 0) {
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (stats) {
			double dt = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
			fprintf(stderr, "emu: %llu thread-instructions in %.3f s (%.1f M/s)\n",
				(unsigned long long)interp_steps, dt, dt > 0 ? interp_steps / dt / 1e6 : 0.0);
		}
		rc = launch_write(&l, out ? out : "-") < 0;
	}
	launch_free(&l);
out_text:
	ptx_free(m);
	free(text);
out_spec:
	spec_free(&s);
	return rc;
}

static int
run_cubin(const char *path, const char *specpath, const char *kernel, const char *out,
	  const EmuOpts *o, int stats)
{
	size_t n;
	u8 *data;
	Cubin c;
	Spec s;
	Launch l;
	int rc = 1;

	if (spec_load(specpath, &s) < 0)
		return 1;
	if (!(data = (u8 *)read_file(path, &n))) {
		spec_free(&s);
		return 1;
	}
	if (cubin_read(&c, path, data, n) == 0) {
		launch_init(&l, &s);
		if (emu_run(&c, path, kernel, &l, o) == EMU_OK) {
			if (stats) {
				double dt = emu_seconds;
				fprintf(stderr, "emu: %llu warp-instructions (%llu thread-instructions) in %.3f s"
					" (%.2f M warp-instr/s)\n", (unsigned long long)emu_steps,
					(unsigned long long)emu_lane_steps, dt, dt > 0 ? emu_steps / dt / 1e6 : 0.0);
			}
			rc = launch_write(&l, out ? out : "-") < 0;
		}
		launch_free(&l);
	}
	cubin_free(&c);
	free(data);
	spec_free(&s);
	return rc;
}

int
cmd_emu(int argc, char **argv)
{
	const char *ptx = NULL, *spec = NULL, *kernel = NULL, *out = NULL, *cubin = NULL;
	InterpOpts o = {0};
	EmuOpts eo = {0};
	int i, stats = 0;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		int more = i + 1 < argc;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "--ptx") && more)
			ptx = argv[++i];
		else if (!strcmp(a, "--spec") && more)
			spec = argv[++i];
		else if (!strcmp(a, "--kernel") && more)
			kernel = argv[++i];
		else if (!strcmp(a, "-o") && more)
			out = argv[++i];
		else if (!strcmp(a, "--steps") && more)
			eo.max_steps = o.max_steps = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(a, "--oracle") && more)
			eo.oracle = argv[++i];
		else if (!strcmp(a, "--stats"))
			stats = 1;
		else if (!strcmp(a, "--timing"))
			eo.timing = 1;
		else if (!strcmp(a, "--all-ctas"))
			o.all_ctas = 1;
		else if (!strcmp(a, "--trace") && more) {
			char *end;
			o.trace_cta = strtol(argv[++i], &end, 0);
			if (*end != ':' || (o.trace_tid = strtol(end + 1, &end, 0), *end)) {
				fprintf(stderr, "openassembler emu: error: --trace wants CTA:THREAD, e.g. 0:5\n");
				return 1;
			}
			o.trace = stderr;
			eo.trace = stderr;
			eo.trace_cta = o.trace_cta;
			eo.trace_warp = o.trace_tid;
		}
		else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "openassembler emu: error: unknown or incomplete option '%s'\n", a);
			usage(stderr);
			return 1;
		} else if (ends_with(a, ".cubin"))
			cubin = a;
		else if (ends_with(a, ".ptx") && !ptx)
			ptx = a;
		else {
			fprintf(stderr, "openassembler emu: error: unexpected argument '%s'\n", a);
			return 1;
		}
	}
	if (cubin) {
		if (!spec) {
			fprintf(stderr, "openassembler emu: error: need --spec SPEC.json\n");
			return 1;
		}
		/* device printf: stdout, unless the buffers go there */
		eo.printf_to = out && strcmp(out, "-") ? stdout : stderr;
		return run_cubin(cubin, spec, kernel, out, &eo, stats);
	}
	if (!ptx || !spec) {
		fprintf(stderr, "openassembler emu: error: need --ptx FILE.ptx and --spec SPEC.json\n");
		usage(stderr);
		return 1;
	}
	/* device printf: stdout, unless the buffers go there */
	o.printf_to = out && strcmp(out, "-") ? stdout : stderr;
	return run_ptx(ptx, spec, kernel, out, &o, stats);
}
