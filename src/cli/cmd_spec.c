/* cmd_spec.c -- check launch specifications and print their initial buffers.
 *   openassembler spec SPEC.json...        check each; print "SPEC: ok (...)"
 *   openassembler spec --init SPEC.json    write the initialised buffers
 *                                          ("name[i] = value", as emu writes them)
 * The format is documented in docs/FRONTENDS.md ("Launch specification"). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "run/spec.h"

static void
usage(FILE *f)
{
	fputs("usage: openassembler spec [--init] [-o OUT] SPEC.json...\n"
	      "Check launch specifications (strictly: unknown keys, wrong types and\n"
	      "values that do not fit are errors).  With --init, write the initial\n"
	      "contents of every buffer of the one SPEC, one \"name[i] = value\" per line.\n",
	      f);
}

static void
summary(const char *path, const Spec *s)
{
	size_t i, nbuf = 0, ncheck = 0, bytes = 0;

	for (i = 0; i < s->nall; i++)
		if (s->args[i].is_buffer) {
			nbuf++;
			ncheck += s->args[i].check.enabled;
			bytes += s->args[i].count * elem_size(s->args[i].type);
		}
	printf("%s: ok: kernel %s, grid %ux%ux%u, block %ux%ux%u, %zu args, %zu buffers "
	       "(%zu bytes, %zu checked)\n", path, s->kernel ? s->kernel : "(the only one)",
	       s->grid[0], s->grid[1], s->grid[2], s->block[0], s->block[1], s->block[2],
	       s->nargs, nbuf, bytes, ncheck);
}

int
cmd_spec(int argc, char **argv)
{
	const char *out = "-";
	int i, init = 0, rc = 0, nfiles = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--init"))
			init = 1;
		else if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
		else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "openassembler spec: error: unknown or incomplete option '%s'\n", argv[i]);
			usage(stderr);
			return 1;
		} else
			nfiles++;
	}
	if (!nfiles || (init && nfiles != 1)) {
		fprintf(stderr, "openassembler spec: error: %s\n",
			nfiles ? "--init takes exactly one SPEC" : "no SPEC given");
		usage(stderr);
		return 1;
	}
	for (i = 1; i < argc; i++) {
		Spec s;
		Launch l;
		if (argv[i][0] == '-' && argv[i][1]) {
			i += !strcmp(argv[i], "-o");
			continue;
		}
		if (spec_load(argv[i], &s) < 0) {
			rc = 1;
			continue;
		}
		if (init) {
			launch_init(&l, &s);
			rc |= launch_write(&l, out) < 0;
			launch_free(&l);
		} else
			summary(argv[i], &s);
		spec_free(&s);
	}
	return rc;
}
