/* interp_printf.c -- device printf (calls to the extern vprintf) in the
 * interpreter.  vprintf(fmt, args): fmt is a generic address of the
 * format string, args a generic address of a buffer holding the
 * arguments, each aligned to its size (ints 4 bytes unless l/ll, floats
 * promoted to 8-byte doubles, %s and %p 8-byte addresses), the layout
 * nvcc emits.  Output goes to InterpOpts.printf_to (nothing when NULL). */
#include <stdio.h>
#include <string.h>

#include "ptx/interp_int.h"

/* Read a NUL-terminated string of at most cap-1 bytes at generic addr. */
static void
read_str(Interp *I, Thread *t, u64 addr, char *buf, size_t cap)
{
	size_t i;

	for (i = 0; i + 1 < cap; i++) {
		buf[i] = (char)*mem_ptr(I, t, PTX_S_NONE, addr + i, 1, 0);
		if (!buf[i])
			return;
	}
	buf[i] = 0;
}

static u64
arg(Interp *I, Thread *t, u64 args, u64 *off, int size)
{
	u64 v;

	*off = (*off + size - 1) / size * size;
	v = mem_ld(I, t, PTX_S_NONE, args + *off, size);
	*off += size;
	return v;
}

/* Format and print; returns the number of arguments consumed. */
int
interp_vprintf(Interp *I, Thread *t, u64 fmtaddr, u64 args)
{
	char fmt[1024], spec[64], out[2048], s[512];
	u64 off = 0;
	size_t i, j;
	int nargs = 0;
	FILE *f = I->opts.printf_to;

	read_str(I, t, fmtaddr, fmt, sizeof fmt);
	for (i = 0; fmt[i]; i++) {
		int longs = 0;
		char conv;
		if (fmt[i] != '%') {
			if (f)
				fputc(fmt[i], f);
			continue;
		}
		if (fmt[i + 1] == '%') {
			if (f)
				fputc('%', f);
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
			u64 v = arg(I, t, args, &off, longs ? 8 : 4);
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
			snprintf(out, sizeof out, spec, f64_of(arg(I, t, args, &off, 8)));
			break;
		case 's':
			read_str(I, t, arg(I, t, args, &off, 8), s, sizeof s);
			spec[j++] = 's';
			spec[j] = 0;
			snprintf(out, sizeof out, spec, s);
			break;
		case 'p':
			snprintf(out, sizeof out, "0x%llx", (unsigned long long)arg(I, t, args, &off, 8));
			break;
		default:
			ierr(I, "printf: unsupported conversion %%%c", conv);
		}
		if (f)
			fputs(out, f);
	}
	return nargs;
}
