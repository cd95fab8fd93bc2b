/* main.c -- run every registered unit test (or those named on the command line). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test.h"

static struct {
	const char *name;
	void (*fn)(TestState *);
} tests[4096];
static int ntests;

void
test_stderr_begin(TestStderr *c)
{
	c->tmp = tmpfile();
	c->saved = dup(2);
	fflush(stderr);
	dup2(fileno(c->tmp), 2);
}

void
test_stderr_end(TestStderr *c, char *err, size_t nerr)
{
	size_t n;

	fflush(stderr);
	dup2(c->saved, 2);
	close(c->saved);
	rewind(c->tmp);
	n = fread(err, 1, nerr - 1, c->tmp);
	err[n] = 0;
	fclose(c->tmp);
}

void
test_register(const char *name, void (*fn)(TestState *))
{
	if (ntests == (int)(sizeof tests / sizeof tests[0]))
		abort();
	tests[ntests].name = name;
	tests[ntests++].fn = fn;
}

void
test_fail(TestState *t, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	if (t->failed++ >= 10)
		return; /* keep logs short; the count still shows */
	fprintf(stderr, "  %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static int
selected(const char *name, int argc, char **argv)
{
	int i;

	if (argc < 2)
		return 1;
	for (i = 1; i < argc; i++)
		if (strstr(name, argv[i]))
			return 1;
	return 0;
}

int
main(int argc, char **argv)
{
	int i, pass = 0, fail = 0, skip = 0;

	for (i = 0; i < ntests; i++) {
		TestState t = {0};

		if (!selected(tests[i].name, argc, argv))
			continue;
		tests[i].fn(&t);
		fflush(stderr);
		if (t.failed) {
			printf("FAIL %s (%d failed checks)\n", tests[i].name, t.failed);
			fail++;
		} else if (t.skip) {
			printf("SKIP %s: %s\n", tests[i].name, t.skip);
			skip++;
		} else {
			printf("PASS %s\n", tests[i].name);
			pass++;
		}
		fflush(stdout);
	}
	return fail != 0;
}
