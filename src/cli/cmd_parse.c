/* cmd_parse.c -- openassembler parse FILE.ptx...: parse and check PTX,
 * print one summary line per module; exit 1 at the first error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "ptx/ptx.h"

/* CPU time of this process: the machine may be shared, and the goal is
 * throughput on one core. */
static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double
wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* --bench N: parse (and check) every file N times in memory; print the
 * best run's throughput. */
static int
bench(char **files, int nfiles, int runs, int check)
{
	char **text = xcalloc((size_t)nfiles, sizeof *text);
	size_t *len = xcalloc((size_t)nfiles, sizeof *len), total = 0;
	double best = 1e30, bestwall = 1e30;
	long ninstr = 0;
	int i, r, rc = 0;

	for (i = 0; i < nfiles; i++) {
		if (!(text[i] = read_file(files[i], &len[i]))) {
			rc = 1;
			goto out;
		}
		total += len[i];
	}
	for (r = 0; r < runs; r++) {
		double t0 = now(), w0 = wall(), t;
		ninstr = 0;
		for (i = 0; i < nfiles; i++) {
			PtxModule *m = ptx_parse(files[i], text[i], len[i]);
			if (!m || (check && ptx_check(m) < 0)) {
				ptx_free(m);
				rc = 1;
				goto out;
			}
			ninstr += m->ninstrs;
			ptx_free(m);
		}
		t = now() - t0;
		if (t < best)
			best = t;
		if (wall() - w0 < bestwall)
			bestwall = wall() - w0;
	}
	printf("parse%s: %d files, %.2f MB, %ld instructions: best of %d runs %.2f ms, "
	       "%.1f MB/s, %.2f M instructions/s (CPU time; wall: %.1f MB/s)\n",
	       check ? "+check" : "", nfiles, total / 1e6, ninstr, runs, best * 1e3,
	       total / 1e6 / best, ninstr / 1e6 / best, total / 1e6 / bestwall);
out:
	for (i = 0; i < nfiles; i++)
		free(text[i]);
	free(text);
	free(len);
	return rc;
}

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
	int i, check = 1, quiet = 0, dump = 0, nfiles = 0, runs = 0;
	char **files = xcalloc((size_t)argc, sizeof *files);

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			puts("usage: openassembler parse [--no-check] [-q] [--dump] [--bench N] FILE.ptx...\n"
			     "Parse and check PTX; print one line per module (entries,\n"
			     "functions, registers declared, instruction count).  Exit 1\n"
			     "with the first error.  --dump prints the parsed module as\n"
			     "canonical PTX instead; -q prints nothing; --bench N parses\n"
			     "the files N times in memory and prints the best MB/s.");
			free(files);
			return 0;
		} else if (!strcmp(argv[i], "--no-check")) {
			check = 0;
		} else if (!strcmp(argv[i], "--bench") && i + 1 < argc) {
			runs = atoi(argv[++i]);
			if (runs < 1) {
				fprintf(stderr, "openassembler parse: error: --bench needs a run count\n");
				free(files);
				return 1;
			}
		} else if (!strcmp(argv[i], "--dump")) {
			dump = 1;
		} else if (!strcmp(argv[i], "-q")) {
			quiet = 1;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "openassembler parse: error: unknown option '%s'\n", argv[i]);
			free(files);
			return 1;
		} else {
			files[nfiles++] = argv[i];
		}
	}
	if (!nfiles) {
		fprintf(stderr, "openassembler parse: error: no input files\n");
		free(files);
		return 1;
	}
	if (runs) {
		i = bench(files, nfiles, runs, check);
		free(files);
		return i;
	}
	for (i = 0; i < nfiles; i++)
		if (parse_one(files[i], check, quiet, dump)) {
			free(files);
			return 1;
		}
	free(files);
	return 0;
}
