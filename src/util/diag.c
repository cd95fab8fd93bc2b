/* diag.c -- error messages for bad input, and whole-file I/O. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

int diag_errors;

void
vdiag_at(const Src *src, size_t pos, const char *fmt, va_list ap)
{
	size_t line = 1, bol = 0, eol, i;

	if (pos > src->len)
		pos = src->len;
	for (i = 0; i < pos; i++)
		if (src->text[i] == '\n') {
			line++;
			bol = i + 1;
		}
	for (eol = pos; eol < src->len && src->text[eol] != '\n'; eol++)
		;
	fprintf(stderr, "%s:%zu:%zu: error: ", src->path, line, pos - bol + 1);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	fprintf(stderr, "%.*s\n", (int)(eol - bol), src->text + bol);
	for (i = bol; i < pos; i++)
		fputc(src->text[i] == '\t' ? '\t' : ' ', stderr);
	fputs("^\n", stderr);
	diag_errors++;
}

void
diag_at(const Src *src, size_t pos, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vdiag_at(src, pos, fmt, ap);
	va_end(ap);
}

void
diag(const char *path, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: error: ", path);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	diag_errors++;
}

char *
read_file(const char *path, size_t *n)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	Buf b = {0};
	char tmp[65536];
	size_t got;

	if (!f) {
		diag(path, "cannot open: %s", strerror(errno));
		return NULL;
	}
	while ((got = fread(tmp, 1, sizeof tmp, f)) > 0)
		buf_putn(&b, tmp, got);
	if (ferror(f)) {
		diag(path, "read failed: %s", strerror(errno));
		if (f != stdin)
			fclose(f);
		buf_free(&b);
		return NULL;
	}
	if (f != stdin)
		fclose(f);
	if (!b.s)
		buf_putn(&b, "", 0);
	*n = b.n;
	return b.s;
}

int
write_file(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");

	if (!f) {
		diag(path, "cannot create: %s", strerror(errno));
		return -1;
	}
	if (fwrite(p, 1, n, f) != n || fclose(f) != 0) {
		diag(path, "write failed: %s", strerror(errno));
		return -1;
	}
	return 0;
}
