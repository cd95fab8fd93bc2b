/* cmd_parse.c -- openassembler parse FILE.ptx...: parse and check PTX,
 * print one summary line per module; exit 1 at the first error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ptx/ptx.h"

static int
parse_one(const char *path, int check, int quiet, int dump)
{
	size_t n;
	char *text = read_file(path, &n);
	PtxModule *m;
	int i, nent = 0, nfn = 0;

	if (!text)
		return 1;
	m = ptx_parse(path, text, n);
	if (!m || (check && ptx_check(m) < 0)) {
		ptx_free(m);
		free(text);
		return 1;
	}
	for (i = 0; i < m->nfuncs; i++) {
		if (!m->funcs[i]->has_body)
			continue;
		if (m->funcs[i]->is_entry)
			nent++;
		else
			nfn++;
	}
	if (dump) {
		Buf b = {0};
		ptx_print(m, &b);
		fwrite(b.s, 1, b.n, stdout);
		buf_free(&b);
	} else if (!quiet)
		printf("%s: PTX %d.%d %s: %d entries, %d functions, %d variables, "
		       "%ld registers, %ld instructions\n",
		       path, m->version_major, m->version_minor, m->target, nent,
		       nfn, m->nvars, m->nregs, m->ninstrs);
	ptx_free(m);
	free(text);
	return 0;
}

int
cmd_parse(int argc, char **argv)
{
	int i, check = 1, quiet = 0, dump = 0, nfiles = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			puts("usage: openassembler parse [--no-check] [-q] [--dump] FILE.ptx...\n"
			     "Parse and check PTX; print one line per module (entries,\n"
			     "functions, registers declared, instruction count).  Exit 1\n"
			     "with the first error.  --dump prints the parsed module as\n"
			     "canonical PTX instead; -q prints nothing.");
			return 0;
		} else if (!strcmp(argv[i], "--no-check")) {
			check = 0;
		} else if (!strcmp(argv[i], "--dump")) {
			dump = 1;
		} else if (!strcmp(argv[i], "-q")) {
			quiet = 1;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "openassembler parse: error: unknown option '%s'\n", argv[i]);
			return 1;
		} else {
			nfiles++;
			if (parse_one(argv[i], check, quiet, dump))
				return 1;
		}
	}
	if (!nfiles) {
		fprintf(stderr, "openassembler parse: error: no input files\n");
		return 1;
	}
	return 0;
}
