/* cmd_coverage.c -- openassembler coverage DIR|FILE...: the PTX opcodes and
 * directives seen in a tree of .ptx files, with counts, and whether the
 * parser and the interpreter support each; which files fail to parse.
 *
 * Opcodes are found lexically (first word of each statement, after labels
 * and guards) so files the parser rejects still count; an opcode is
 * "parser: yes" when ops.def names it and every modifier it was written
 * with is known. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "ptx/ptx.h"

static const char *const directives[] = {
	".version", ".target", ".address_size", ".entry", ".func", ".visible",
	".extern", ".weak", ".common", ".global", ".const", ".shared", ".local",
	".param", ".reg", ".tex", ".file", ".loc", ".section", ".pragma",
	".maxnreg", ".maxntid", ".reqntid", ".minnctapersm", ".maxnctapersm",
	".explicitcluster", ".reqnctapercluster", ".maxclusterrank",
	".noreturn", ".callprototype", ".branchtargets", ".alias",
	".blocksareclusters", ".attribute",
};
/* the parser rejects these as unsupported */
static const char *const unsupported_dirs[] = {
	".maxclusterrank", ".alias", ".blocksareclusters",
};

typedef struct {
	long count, files, badmods;
	int lastfile;
} Stat;

typedef struct {
	Stat op[PTX_NOPS];
	Stat dir[NELEM(directives)];
	VEC(char *) unknown; /* unknown opcode words, "word" */
	VEC(long) unknown_count;
	int nfiles, nparsed, fileno;
	VEC(char *) failures;
} Cov;

static void
bump(Stat *s, int fileno)
{
	s->count++;
	if (s->lastfile != fileno) {
		s->lastfile = fileno;
		s->files++;
	}
}

static int
mods_known(const char *w, size_t n, size_t oplen)
{
	size_t i = oplen, j;

	while (i < n) {
		for (j = i + 1; j < n && w[j] != '.'; j++)
			if (w[j] == ':' && j + 1 < n && w[j + 1] == ':')
				j++;
		if (!(j - i == 4 && !memcmp(w + i, ".cta", 4))) {
			/* ptx_mod_lookup is internal; check through the name table */
			int m, found = 0;
			for (m = 1; m < PTX_NMODS && !found; m++) {
				const char *t = ptx_mod_name((PtxModId)m);
				found = strlen(t) == j - i && !memcmp(t, w + i, j - i);
			}
			if (!found)
				return 0;
		}
		i = j;
	}
	return 1;
}

static void
count_opcode(Cov *c, const char *w, size_t n)
{
	size_t k, cut[8];
	int nc = 0, op = 0, i;

	for (k = 0; k <= n && nc < 8; k++)
		if (k == n || w[k] == '.')
			cut[nc++] = k;
	if ((n > 8 && !memcmp(w, "bar.cta.", 8)) || (n > 12 && !memcmp(w, "barrier.cta.", 12))) {
		/* bar.cta.sync: look up bar.sync */
		char buf[64];
		size_t b = w[3] == '.' ? 3 : 7, e;
		for (e = b + 5; e < n && w[e] != '.'; e++)
			;
		if (e - 4 < sizeof buf) {
			memcpy(buf, w, b);
			memcpy(buf + b, w + b + 4, e - b - 4);
			op = ptx_op_lookup(buf, e - 4);
		}
		if (op) {
			bump(&c->op[op], c->fileno);
			if (!mods_known(w, n, e))
				c->op[op].badmods++;
			return;
		}
	}
	for (i = nc - 1; i >= 0 && !op; i--)
		op = ptx_op_lookup(w, cut[i]);
	if (op) {
		bump(&c->op[op], c->fileno);
		if (!mods_known(w, n, cut[i + 1]))
			c->op[op].badmods++;
		return;
	}
	for (k = 0; k < c->unknown.n; k++)
		if (strlen(c->unknown.v[k]) == n && !memcmp(c->unknown.v[k], w, n)) {
			c->unknown_count.v[k]++;
			return;
		}
	{
		char *s = malloc(n + 1);
		memcpy(s, w, n);
		s[n] = 0;
		vec_push(&c->unknown, s);
		vec_push(&c->unknown_count, 1);
	}
}

static int
is_word(int ch)
{
	return ch && !strchr(" \t\r\n,;{}()[]", ch);
}

static int
next_is_colon(const char *s, size_t j, size_t n)
{
	while (j < n && (s[j] == ' ' || s[j] == '\t'))
		j++;
	return j < n && s[j] == ':';
}

/* Lexical scan: statements start after ';', block braces and labels.  A
 * '{' inside an instruction or after '=' or ',' is a vector or an
 * initializer, not a block. */
static void
scan(Cov *c, const char *s, size_t n)
{
	size_t i = 0;
	int stmt = 1, depth = 0, in_instr = 0, sp = 0;
	char prevc = ';', stack[64];

	while (i < n) {
		char ch = s[i];
		size_t j;

		if (ch == '/' && i + 1 < n && s[i + 1] == '/') {
			while (i < n && s[i] != '\n')
				i++;
			continue;
		}
		if (ch == '/' && i + 1 < n && s[i + 1] == '*') {
			for (i += 2; i + 1 < n && !(s[i] == '*' && s[i + 1] == '/'); i++)
				;
			i += 2;
			continue;
		}
		if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n') {
			i++;
			continue;
		}
		if (ch == '"') {
			for (i++; i < n && s[i] != '"' && s[i] != '\n'; i++)
				;
			i++;
			prevc = '"';
			continue;
		}
		if (ch == '{') {
			int block = !in_instr && !strchr("=,{", prevc);
			if (sp < (int)sizeof stack)
				stack[sp] = (char)block;
			sp++;
			if (block) {
				depth++;
				stmt = 1;
			}
			prevc = ch;
			i++;
			continue;
		}
		if (ch == '}') {
			int block = sp > 0 && sp <= (int)sizeof stack ? stack[sp - 1] : 1;
			if (sp > 0)
				sp--;
			if (block) {
				depth--;
				stmt = 1;
				in_instr = 0;
			}
			prevc = ch;
			i++;
			continue;
		}
		if (ch == ';') {
			stmt = 1;
			in_instr = 0;
			prevc = ch;
			i++;
			continue;
		}
		if (!is_word(ch)) {
			prevc = ch;
			i++;
			continue;
		}
		for (j = i; j < n && is_word(s[j]); j++)
			;
		prevc = s[j - 1];
		if (ch == '.') {
			size_t d, len = j - i;
			for (d = 0; d < NELEM(directives); d++)
				if (strlen(directives[d]) == len && !memcmp(directives[d], s + i, len))
					bump(&c->dir[d], c->fileno);
			if (len == 4 && !memcmp(s + i, ".loc", 4)) {
				while (j < n && s[j] != '\n')
					j++;
				i = j;
				continue; /* .loc has no ';': the next line starts a statement */
			}
			if (len == 8 && !memcmp(s + i, ".section", 8)) {
				/* skip the debug section body */
				while (j < n && s[j] != '{')
					j++;
				for (d = 1, j++; j < n && d; j++)
					d += s[j] == '{' ? 1 : s[j] == '}' ? -1 : 0;
			}
			stmt = 0;
		} else if (stmt && (s[j - 1] == ':' || next_is_colon(s, j, n))) {
			/* label: still at a statement start */
		} else if (stmt && ch == '@') {
			/* guard */
		} else if (stmt && depth > 0) {
			count_opcode(c, s + i, j - i);
			stmt = 0;
			in_instr = 1;
		} else {
			stmt = 0;
		}
		i = j;
	}
}

/* Parse and check with stderr sent to a temporary file: the first line
 * of what they report goes to err (the failure list).  1 if both pass. */
static int
parse_quietly(const char *path, const char *text, size_t n, char *err, size_t errlen)
{
	FILE *tmp = tmpfile();
	int saved = -1, ok;
	PtxModule *m;

	fflush(stderr);
	if (tmp && (saved = dup(2)) >= 0)
		dup2(fileno(tmp), 2);
	m = ptx_parse(path, text, n);
	ok = m && ptx_check(m) == 0;
	ptx_free(m);
	fflush(stderr);
	if (saved >= 0) {
		dup2(saved, 2);
		close(saved);
		rewind(tmp);
		if (fgets(err, (int)errlen, tmp))
			err[strcspn(err, "\n")] = 0;
	}
	if (tmp)
		fclose(tmp);
	return ok;
}

static void
one_file(Cov *c, const char *path)
{
	size_t n;
	char *text = read_file(path, &n);
	char err[512] = "";

	if (!text)
		return;
	c->nfiles++;
	c->fileno++;
	scan(c, text, n);
	if (parse_quietly(path, text, n, err, sizeof err))
		c->nparsed++;
	if (*err)
		vec_push(&c->failures, xstrdup(err));
	free(text);
}

static int
has_suffix(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a >= b && !strcmp(s + a - b, suf);
}

static int
walk(Cov *c, const char *path, int top)
{
	struct stat st;
	DIR *d;
	struct dirent *e;
	VEC(char *) names = {0};
	size_t i;

	if (stat(path, &st) < 0) {
		diag(path, "cannot open");
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		if (top || has_suffix(path, ".ptx"))
			one_file(c, path);
		return 0;
	}
	if (!(d = opendir(path))) {
		diag(path, "cannot open directory");
		return -1;
	}
	while ((e = readdir(d))) {
		Buf b = {0};
		if (e->d_name[0] == '.')
			continue;
		buf_printf(&b, "%s/%s", path, e->d_name);
		vec_push(&names, b.s);
	}
	closedir(d);
	for (i = 0; i < names.n; i++) {
		walk(c, names.v[i], 0);
		free(names.v[i]);
	}
	vec_free(&names);
	return 0;
}

static void
report(Cov *c)
{
	int i, interp = interp_supports != NULL;
	size_t k, d;

	printf("files: %d, %d parse and check, %d fail\n", c->nfiles, c->nparsed,
	       c->nfiles - c->nparsed);
	printf("\n%-32s %9s %6s  %-7s %s\n", "opcode", "count", "files", "parser", "interp");
	for (i = 1; i < PTX_NOPS; i++) {
		Stat *s = &c->op[i];
		if (!s->count)
			continue;
		printf("%-32s %9ld %6ld  %-7s %s\n", ptx_op_name((PtxOp)i), s->count, s->files,
		       s->badmods ? "partial" : "yes",
		       interp ? (interp_supports(i) ? "yes" : "no") : "n/a");
	}
	for (k = 0; k < c->unknown.n; k++)
		printf("%-32s %9ld %6s  %-7s %s\n", c->unknown.v[k], c->unknown_count.v[k], "-",
		       "no", interp ? "no" : "n/a");
	printf("\n%-32s %9s %6s  %s\n", "directive", "count", "files", "parser");
	for (d = 0; d < NELEM(directives); d++) {
		int sup = 1;
		if (!c->dir[d].count)
			continue;
		for (k = 0; k < NELEM(unsupported_dirs); k++)
			if (!strcmp(unsupported_dirs[k], directives[d]))
				sup = 0;
		printf("%-32s %9ld %6ld  %s\n", directives[d], c->dir[d].count, c->dir[d].files,
		       sup ? "yes" : "no");
	}
	if (c->failures.n) {
		printf("\nfailures:\n");
		for (k = 0; k < c->failures.n; k++)
			printf("  %s\n", c->failures.v[k]);
	}
}

int
cmd_coverage(int argc, char **argv)
{
	Cov *c;
	int i, rc = 0, n = 0;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			puts("usage: openassembler coverage DIR|FILE...\n"
			     "Count the PTX opcodes and directives in every .ptx file under\n"
			     "the given folders and say which the parser and the interpreter\n"
			     "support (\"partial\": some modifiers unknown; interp \"n/a\":\n"
			     "no interpreter linked).  Lists the files that fail to parse.");
			return 0;
		}
	c = xcalloc(1, sizeof *c);
	for (i = 1; i < argc; i++, n++)
		if (walk(c, argv[i], 1) < 0)
			rc = 1;
	if (!n) {
		fprintf(stderr, "openassembler coverage: error: no folders given\n");
		rc = 1;
	} else if (!rc) {
		report(c);
	}
	for (i = 0; i < (int)c->unknown.n; i++)
		free(c->unknown.v[i]);
	for (i = 0; i < (int)c->failures.n; i++)
		free(c->failures.v[i]);
	vec_free(&c->unknown);
	vec_free(&c->unknown_count);
	vec_free(&c->failures);
	free(c);
	return rc;
}
