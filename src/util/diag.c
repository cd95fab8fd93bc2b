/* diag.c -- error messages for bad input, and whole-file I/O. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* Whole files through plain read/write: no stdio buffer, and a regular
 * file is read in one call into a buffer of its size (a compile is a few
 * hundred microseconds; each syscall and page counts). */
char *
read_file(const char *path, size_t *n)
{
	int fd = strcmp(path, "-") ? open(path, O_RDONLY) : 0;
	struct stat st;
	size_t cap, len = 0;
	char *s;
	ssize_t got;
	int reg;

	if (fd < 0) {
		diag(path, "cannot open: %s", strerror(errno));
		return NULL;
	}
	reg = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
	cap = reg ? (size_t)st.st_size + 1 : 65536;
	s = xmalloc(cap + 1);
	for (;;) {
		if (len == cap)
			s = xrealloc(s, (cap *= 2) + 1);
		got = read(fd, s + len, cap - len);
		if (got > 0) {
			len += (size_t)got;
			if (reg && len == cap - 1)
				break;   /* the size fstat gave, read short of cap: the end */
		} else if (got == 0)
			break;
		else if (errno != EINTR) {
			diag(path, "read failed: %s", strerror(errno));
			if (fd)
				close(fd);
			free(s);
			return NULL;
		}
	}
	if (fd)
		close(fd);
	s[len] = 0;
	*n = len;
	return s;
}

/* mkdir -p: one mkdir when the parent exists (the usual case), the
 * prefixes from the top only when it does not. */
void
mkdirs(const char *dir)
{
	char *p, *s;

	if (mkdir(dir, 0777) == 0 || errno != ENOENT)
		return;
	p = xstrdup(dir);
	for (s = p + 1; *s; s++)
		if (*s == '/') {
			*s = 0;
			mkdir(p, 0777);
			*s = '/';
		}
	mkdir(p, 0777);
	free(p);
}

/* Writes a file whole, over the old contents in place: the file is opened
 * without O_TRUNC and cut to the new length after the write.  On ext4,
 * truncating a file that holds data to zero and writing it again makes
 * close() start writing the data back (auto_da_alloc), and removing and
 * creating the file costs a new inode: three output files of a compile
 * took 0.21 ms with O_TRUNC, 0.12 ms removed and created anew, 0.05 ms
 * overwritten (docs/compile-speed.md).  Links see the new contents as
 * with O_TRUNC.  A file already as long as the new contents (a compile
 * writing the same outputs again) is not cut: ext4 took ~10 us for an
 * ftruncate that changes nothing.  dirs: path's missing directories are
 * made when the open finds none (no mkdir where they exist). */
static int
write_whole(const char *path, const void *p, size_t n, int dirs)
{
	struct stat st;
	int fd = open(path, O_WRONLY | O_CREAT, 0666);
	const char *q = p, *slash;
	size_t len = n;

	if (fd < 0 && errno == ENOENT && dirs && (slash = strrchr(path, '/')) && slash > path) {
		char *dir = xstrdup(path);
		dir[slash - path] = 0;
		mkdirs(dir);
		free(dir);
		fd = open(path, O_WRONLY | O_CREAT, 0666);
	}
	if (fd < 0) {
		diag(path, "cannot create: %s", strerror(errno));
		return -1;
	}
	while (n) {
		ssize_t put = write(fd, q, n);

		if (put < 0 && errno == EINTR)
			continue;
		if (put <= 0) {
			diag(path, "write failed: %s", strerror(errno));
			close(fd);
			return -1;
		}
		q += put;
		n -= (size_t)put;
	}
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > (off_t)len &&
	    ftruncate(fd, (off_t)len) != 0) {
		diag(path, "write failed: %s", strerror(errno));
		close(fd);
		return -1;
	}
	if (close(fd) != 0) {
		diag(path, "write failed: %s", strerror(errno));
		return -1;
	}
	return 0;
}

int
write_file(const char *path, const void *p, size_t n)
{
	return write_whole(path, p, n, 0);
}

int
write_file_mkdirs(const char *path, const void *p, size_t n)
{
	return write_whole(path, p, n, 1);
}

/* musl's getenv calls strncmp for each of the environment's entries (~35
 * instructions each, ~1.4 K a call with 40 entries; the compile asks twice
 * and more): the first byte is tested first. */
int
env_has(const char *name)
{
	extern char **environ;
	size_t n = strlen(name);
	char **e;

	for (e = environ; e && *e; e++)
		if (**e == *name && !strncmp(*e, name, n) && (*e)[n] == '=')
			return 1;
	return 0;
}
