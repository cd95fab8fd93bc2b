/* test_cubin_fuzz.c -- replay the cubin fuzz corpora (tests/fuzz/cubin-bin,
 * tests/fuzz/cubin-text) through the fuzz entry points: every input must
 * be handled without a crash (make check under SANITIZE=1 also proves no
 * out-of-bounds access).  Error messages are silenced while replaying. */
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cubin/cubin.h"
#include "test.h"

static int
replay(const char *dir, int (*fn)(const u8 *, size_t))
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int count = 0, saved, null;

	if (!d)
		return -1;
	fflush(stderr);
	saved = dup(2);
	null = open("/dev/null", O_WRONLY);
	dup2(null, 2);
	while ((e = readdir(d))) {
		char path[1024];
		size_t n;
		char *p;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (!(p = read_file(path, &n)))
			continue;
		fn((const u8 *)p, n);
		free(p);
		count++;
	}
	closedir(d);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(null);
	return count;
}

TEST(cubin_fuzz_corpus_binary)
{
	CHECK(replay("tests/fuzz/cubin-bin", cubin_fuzz_binary) >= 5);
}

TEST(cubin_fuzz_corpus_text)
{
	CHECK(replay("tests/fuzz/cubin-text", cubin_fuzz_text) >= 3);
}
