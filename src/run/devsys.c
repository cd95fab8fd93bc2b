/* devsys.c -- device printf, assert messages and the device heap, for the
 * emulator and the interpreter (devsys.h). */
#include <stdio.h>
#include <string.h>

#include "ptx/arith.h"
#include "run/devsys.h"

/* A NUL-terminated string of at most cap-1 bytes at generic addr. */
static void
read_str(DevRead rd, void *ctx, u64 addr, char *buf, size_t cap)
{
	size_t i;

	for (i = 0; i + 1 < cap; i++) {
		buf[i] = (char)rd(ctx, addr + i, 1);
		if (!buf[i])
			return;
	}
	buf[i] = 0;
}

static u64
arg(DevRead rd, void *ctx, u64 args, u64 *off, int size)
{
	u64 v;

	*off = (*off + size - 1) / size * size;
	v = rd(ctx, args + *off, size);
	*off += size;
	return v;
}

int
dev_vprintf(Buf *o, u64 fmtaddr, u64 args, DevRead rd, void *ctx, char *err, size_t errlen)
{
	char fmt[1024], spec[64], out[2048], s[512];
	u64 off = 0;
	size_t i, j;
	int nargs = 0;

	read_str(rd, ctx, fmtaddr, fmt, sizeof fmt);
	for (i = 0; fmt[i]; i++) {
		int longs = 0;
		char conv;
		if (fmt[i] != '%') {
			buf_putc(o, fmt[i]);
			continue;
		}
		if (fmt[i + 1] == '%') {
			buf_putc(o, '%');
			i++;
			continue;
		}
		/* %[flags][width][.precision][length]conv; '*' is not supported */
		j = 0;
		spec[j++] = fmt[i++];
		while (fmt[i] && strchr("-+ #0123456789.", fmt[i]) && j < 40)
			spec[j++] = fmt[i++];
		while (fmt[i] == 'l' || fmt[i] == 'h' || fmt[i] == 'z' || fmt[i] == 'j' || fmt[i] == 't') {
			longs += fmt[i] == 'l' || fmt[i] == 'z' || fmt[i] == 'j' || fmt[i] == 't';
			i++;
		}
		conv = fmt[i];
		if (!conv)
			break;
		nargs++;
		switch (conv) {
		case 'd': case 'i': case 'u': case 'x': case 'X': case 'o': case 'c': {
			u64 v = arg(rd, ctx, args, &off, longs ? 8 : 4);
			spec[j++] = 'l';
			spec[j++] = 'l';
			spec[j++] = conv;
			spec[j] = 0;
			if (conv == 'd' || conv == 'i')
				snprintf(out, sizeof out, spec, longs ? (long long)(i64)v : (long long)(i32)v);
			else if (conv == 'c') {
				spec[j - 3] = 'c';
				spec[j - 2] = 0;
				snprintf(out, sizeof out, spec, (int)(u8)v);
			} else
				snprintf(out, sizeof out, spec, longs ? (unsigned long long)v : (unsigned long long)(u32)v);
			break;
		}
		case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
			spec[j++] = conv;
			spec[j] = 0;
			snprintf(out, sizeof out, spec, f64_of(arg(rd, ctx, args, &off, 8)));
			break;
		case 's':
			read_str(rd, ctx, arg(rd, ctx, args, &off, 8), s, sizeof s);
			spec[j++] = 's';
			spec[j] = 0;
			snprintf(out, sizeof out, spec, s);
			break;
		case 'p':
			snprintf(out, sizeof out, "0x%llx", (unsigned long long)arg(rd, ctx, args, &off, 8));
			break;
		default:
			snprintf(err, errlen, "printf: unsupported conversion %%%c", conv);
			return -1;
		}
		buf_puts(o, out);
	}
	return nargs;
}

void
dev_assert_msg(Buf *o, u64 msg, u64 file, u32 line, u64 func, const u32 ctaid[3], const u32 tid[3], DevRead rd,
	       void *ctx)
{
	char m[512], f[512], fn[512];

	read_str(rd, ctx, msg, m, sizeof m);
	read_str(rd, ctx, file, f, sizeof f);
	read_str(rd, ctx, func, fn, sizeof fn);
	buf_printf(o, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n", f, line, fn,
		   ctaid[0], ctaid[1], ctaid[2], tid[0], tid[1], tid[2], m);
}

u64
dev_malloc(DevHeap *h, u64 n)
{
	u64 sz = (n + 15) & ~15ull;
	DevBlock b;

	if (!n || sz < n || sz > h->size - h->top)
		return 0;
	b.addr = h->base + h->top;
	b.size = n;
	b.live = 1;
	h->top += sz;
	vec_push(&h->blk, b);
	return b.addr;
}

int
dev_free(DevHeap *h, u64 p)
{
	size_t lo = 0, hi = h->blk.n;

	if (!p)
		return 0;
	while (lo < hi) {   /* blocks are in address order */
		size_t mid = (lo + hi) / 2;
		if (h->blk.v[mid].addr < p)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == h->blk.n || h->blk.v[lo].addr != p || !h->blk.v[lo].live)
		return -1;
	h->blk.v[lo].live = 0;
	return 0;
}

void
dev_heap_free(DevHeap *h)
{
	vec_free(&h->blk);
	memset(h, 0, sizeof *h);
}

static int
cmp_line(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The printed text's lines, sorted (threads print in an order neither
 * side defines: the interpreter runs thread by thread, the emulator warp
 * by warp).  Returns the count; *lines points into text. */
static size_t
sorted_lines(char *text, char ***lines)
{
	size_t n = 0, i;
	char *p;

	for (p = text; p && *p; p++)
		n += *p == '\n';
	*lines = xcalloc(n + 2, sizeof **lines);
	for (i = 0, p = text; p && *p && i <= n;) {
		char *e = strchr(p, '\n');
		(*lines)[i++] = p;
		if (!e)
			break;
		*e = 0;
		p = e + 1;
	}
	qsort(*lines, i, sizeof **lines, cmp_line);
	return i;
}

int
dev_printed_compare(char *want, char *got, FILE *report)
{
	char **w, **g;
	size_t nw = sorted_lines(want, &w), ng = sorted_lines(got, &g), i;
	int rc = 0;

	for (i = 0; i < nw || i < ng; i++)
		if (i >= nw || i >= ng || strcmp(w[i], g[i])) {
			if (report)
				fprintf(report, "printed text differs (%zu lines from the PTX interpreter, %zu from the emulator):\n"
				"  interpreter: %s\n  emulator:    %s\n", nw, ng, i < nw ? w[i] : "(no more lines)",
				i < ng ? g[i] : "(no more lines)");
			rc = 1;
			break;
		}
	free(w);
	free(g);
	return rc;
}
