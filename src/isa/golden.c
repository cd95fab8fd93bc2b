/* golden.c -- check the tables against golden pairs (word, oracle text).
 *
 * File format (tools/harvest): comment lines start with '#', the first
 * names the arch ("SM90"); then "ADDR LO HI TEXT" per word.  For each
 * word: decode -> text must equal TEXT, and parse(TEXT) -> encode must
 * give the word back (control bits other than reuse come from the word). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "isa/golden.h"
#include "isa/isa_impl.h"

static const Arch *
arch_from_header(const char *line)
{
	const char *p = strstr(line, "SM");

	return p ? arch_lookup((char[]){ p[0], p[1], p[2], p[3], 0 }) : NULL;
}

int
golden_check(const char *path, const Arch *arch, FILE *fail, GoldenStats *st)
{
	size_t n, lineno = 0;
	char *text = read_file(path, &n), *line, *next;

	memset(st, 0, sizeof *st);
	if (!text)
		return -1;
	for (line = text; line && *line; line = next) {
		unsigned long long addr, lo, hi;
		int off = 0;
		Word w, e;
		Buf b = { 0 };
		char err[128];

		lineno++;
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		if (*line == '#') {
			if (!arch)
				arch = arch_from_header(line);
			continue;
		}
		if (!*line)
			continue;
		if (sscanf(line, "%llx %llx %llx %n", &addr, &lo, &hi, &off) != 3 || !off) {
			diag(path, "line %zu: expected 'ADDR LO HI TEXT'", lineno);
			free(text);
			return -1;
		}
		if (!arch) {
			diag(path, "no architecture: the first comment line must name SM80 or SM90");
			free(text);
			return -1;
		}
		w.lo = lo;
		w.hi = hi;
		st->words++;
		isa_print(arch, w, addr, NULL, &b);
		if (b.s && !strcmp(b.s, line + off))
			st->decoded++;
		else if (fail) {
			const IsaForm *fm = isa_match(arch, w);

			fprintf(fail, "D %s\n  ours: %s\n", line, b.s ? b.s : "");
			if (fm)
				fprintf(fail, "  form: %ld\n", (long)(fm - arch->forms));
		}
		if (!isa_parse(arch, line + off, addr, NULL, &e, err, sizeof err, NULL)) {
			Ctrl c = ctrl_get(w), ce = ctrl_get(e);

			Word h = isa_hidden(arch, w);

			c.reuse = (u8)((c.reuse & ~15) | (ce.reuse & 15));
			e = ctrl_set(e, c);
			if (e.lo == w.lo && e.hi == w.hi)
				st->encoded++;
			if ((e.lo ^ h.lo) == w.lo && (e.hi ^ h.hi) == w.hi)
				st->encoded_hidden++;
			else if (fail)
				fprintf(fail, "E %s\n  ours: 0x%016llx 0x%016llx\n", line,
					(unsigned long long)e.lo, (unsigned long long)e.hi);
		} else if (fail) {
			fprintf(fail, "E %s\n  ours: %s\n", line, err);
		}
		buf_free(&b);
	}
	free(text);
	return 0;
}

/* Throughput (CPU time) of decode (find the form and read every field), print (text)
 * and encode (parse the text) over the words of a golden file, on one core. */

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int
golden_bench(const char *path, FILE *out)
{
	size_t n, nw = 0, cap = 0, i, ok = 0;
	char *text = read_file(path, &n), *line, *next;
	const Arch *arch = NULL;
	Word *w = NULL;
	u64 *addr = NULL, sink = 0;
	char **txt = NULL;
	double t0, tm, td, tp, te;
	int rep, reps;

	if (!text)
		return -1;
	for (line = text; line && *line; line = next) {
		unsigned long long a, lo, hi;
		int off = 0;

		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		if (*line == '#') {
			if (!arch)
				arch = arch_from_header(line);
			continue;
		}
		if (sscanf(line, "%llx %llx %llx %n", &a, &lo, &hi, &off) != 3 || !off)
			continue;
		if (nw == cap) {
			cap = cap ? 2 * cap : 1024;
			w = xrealloc(w, cap * sizeof *w);
			addr = xrealloc(addr, cap * sizeof *addr);
			txt = xrealloc(txt, cap * sizeof *txt);
		}
		w[nw].lo = lo;
		w[nw].hi = hi;
		addr[nw] = a;
		txt[nw++] = line + off;
	}
	if (!arch || !nw) {
		diag(path, "no words or no architecture");
		free(text);
		return -1;
	}
	reps = (int)MAX(1, 2000000 / nw);
	t0 = now();
	for (rep = 0; rep < reps; rep++)
		for (i = 0; i < nw; i++)
			sink += (uintptr_t)isa_match(arch, w[i]);
	tm = now() - t0;
	t0 = now();
	for (rep = 0; rep < reps; rep++)
		for (i = 0; i < nw; i++) {
			u64 vals[256];
			const IsaForm *fm = isa_decode(arch, w[i], vals);

			if (fm)
				sink += vals[0];
		}
	td = now() - t0;
	t0 = now();
	for (i = 0; i < nw; i++) {
		Buf b = { 0 };

		isa_print(arch, w[i], addr[i], NULL, &b);
		sink += b.n;
		buf_free(&b);
	}
	tp = now() - t0;
	t0 = now();
	for (i = 0; i < nw; i++) {
		Word e;
		char err[8];

		ok += !isa_parse(arch, txt[i], addr[i], NULL, &e, err, sizeof err, NULL);
	}
	te = now() - t0;
	{
		u32 nodes, cands;

		isa_index_stats(arch, &nodes, &cands);
		fprintf(out, "%s: %zu words (%s; %u forms, index %u nodes, %u leaf entries)\n", path, nw,
			arch_name(arch), arch->nforms, nodes, cands);
	}
	fprintf(out, "  match:  %.1f M words/s  (form only)\n", nw * (double)reps / tm / 1e6);
	fprintf(out, "  decode: %.1f M words/s  (form + every field's value: isa_decode; sink %llu)\n", nw * (double)reps / td / 1e6,
		(unsigned long long)(sink & 1));
	fprintf(out, "  print:  %.2f M words/s\n", nw / tp / 1e6);
	fprintf(out, "  encode: %.2f M words/s  (parse text + encode + verify; %zu parsed)\n", nw / te / 1e6, ok);
	free(w);
	free(addr);
	free(txt);
	free(text);
	return 0;
}
