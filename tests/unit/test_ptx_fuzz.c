/* test_ptx_fuzz.c -- malformed PTX never crashes the front end: replay the
 * committed libFuzzer corpus (tests/fuzz/ptx-corpus/) and a deterministic
 * mutation sweep (truncations and byte flips with a fixed seed) over the
 * hand-written suite.  Every input must give a module or a clean error;
 * accepted inputs must print and parse back.  Run under SANITIZE=1 to catch
 * out-of-bounds reads. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx.h"
#include "test.h"

static FILE *devnull;

/* 0 ok, 1 if an accepted module did not round-trip */
static int
try_one(const char *text, size_t n)
{
	FILE *saved = stderr;
	PtxModule *m;
	int bad = 0;

	if (!devnull)
		devnull = fopen("/dev/null", "w");
	stderr = devnull;
	m = ptx_parse("mut.ptx", text, n);
	if (m && ptx_check(m) == 0) {
		Buf b = {0};
		PtxModule *m2;
		ptx_print(m, &b);
		m2 = ptx_parse("dump.ptx", b.s, b.n);
		bad = !m2 || ptx_check(m2) != 0;
		ptx_free(m2);
		buf_free(&b);
	}
	ptx_free(m);
	stderr = saved;
	return bad;
}

/* The parser must not read past len: give it an exact-size heap copy. */
static int
try_copy(const char *text, size_t n)
{
	char *c = malloc(n ? n : 1);
	int r;

	memcpy(c, text, n);
	r = try_one(c, n);
	free(c);
	return r;
}

static int
list_dir(const char *dir, const char *suffix, char ***out)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0, cap = 0;

	*out = NULL;
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name), sl = strlen(suffix);
		if (e->d_name[0] == '.' || l < sl || strcmp(e->d_name + l - sl, suffix))
			continue;
		if (n == cap)
			*out = realloc(*out, (size_t)(cap = cap ? 2 * cap : 64) * sizeof **out);
		(*out)[n] = malloc(strlen(dir) + l + 2);
		sprintf((*out)[n++], "%s/%s", dir, e->d_name);
	}
	closedir(d);
	return n;
}

static char *
slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	char *s;
	long len;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	s = malloc((size_t)len + 1);
	*n = fread(s, 1, (size_t)len, f);
	fclose(f);
	return s;
}

TEST(ptx_fuzz_corpus_replay)
{
	char **files;
	int n = list_dir("tests/fuzz/ptx-corpus", "", &files), i, bad = 0;

	if (n == 0)
		SKIP("no tests/fuzz/ptx-corpus");
	for (i = 0; i < n; i++) {
		size_t len;
		char *s = slurp(files[i], &len);
		if (s && try_copy(s, len)) {
			bad++;
			FAIL("%s: accepted but the printed module does not parse back", files[i]);
		}
		free(s);
		free(files[i]);
	}
	free(files);
	CHECK(n > 100);
	CHECK(bad == 0);
}

static u32 seed = 12345;

static u32
rnd(void)
{
	seed = seed * 1103515245u + 12345u;
	return seed >> 8;
}

TEST(ptx_fuzz_mutations)
{
	static const char interesting[] = "{}[]();,.%@!_|<>+-:0123456789xfd\n\"\0\377";
	char **files;
	int n = list_dir("tests/ptx/valid", ".ptx", &files), i, k, bad = 0;
	long runs = 0;

	if (n == 0)
		SKIP("no tests/ptx/valid");
	for (i = 0; i < n; i++) {
		size_t len, at;
		char *s = slurp(files[i], &len);

		if (!s)
			continue;
		/* truncations */
		for (k = 0; k < 96; k++, runs++)
			bad += try_copy(s, len * (size_t)k / 96);
		for (at = 0; at < 160 && at < len; at++, runs++)
			bad += try_copy(s, at);
		/* byte flips, 1 to 4 per mutant */
		for (k = 0; k < 500; k++, runs++) {
			char *m = malloc(len);
			int j, nflip = 1 + (int)(rnd() % 4);
			memcpy(m, s, len);
			for (j = 0; j < nflip; j++) {
				size_t pos = rnd() % len;
				m[pos] = (rnd() & 1) ? (char)rnd() : interesting[rnd() % (sizeof interesting - 1)];
			}
			bad += try_one(m, len);
			free(m);
		}
		free(s);
		free(files[i]);
	}
	free(files);
	CHECK(runs > 2000);
	CHECK(bad == 0);
}
