/* cmd_mkcubin.c -- openassembler mkcubin: write a whole cubin for one or
 * more kernels from a small description (no template, no ptxas):
 *     kernel vadd            entry name; starts a kernel (several allowed,
 *                            in PTX definition order)
 *     target sm_90           sm_80 or sm_90
 *     param 8 [ALIGN]        one line per parameter, in order (bytes)
 *     regs 12                registers per thread
 *     frame 0 | maxreg 255 | barriers 1
 *     shared BYTES [ALIGN]   static shared memory (sm_90 adds 1 KiB)
 *     maxntid X Y Z | reqntid X Y Z
 *     words FILE             instruction words "0xLO 0xHI" per line
 *     word 0xLO 0xHI         or inline, in order
 *     sass FILE              instructions as `openassembler disasm` lists
 *                            them, control bits included ("OP ops ;
 *                            [B------:R-:W-:Y:S04]" in a comment; without
 *                            one: S15), encoded as `openassembler as` does;
 *                            "NAME:" lines are labels (BRA `(NAME)), local
 *                            to the file
 * The code runs through ptxas's final BRA-to-self; NOP padding is added.
 * Paths in "words" and "sass" are relative to the description file. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cubin/asmint.h"
#include "cubin/build.h"
#include "cubin/elfio.h"

typedef struct {
	KernelDesc k;
	KParam par[256];
	VEC(Word) code;
	char name[256];
} Kern;

typedef struct {
	KernelDesc k; /* the kernel being described */
	KParam par[256];
	VEC(Word) code;
	char name[256];
	Kern done[64]; /* kernels finished by a later "kernel" line */
	int ndone, sm;
	Src src;
	size_t base; /* offset of the current line in src.text */
	char *lb;    /* the current line, NUL-terminated */
} Desc;

#define POS(d, at) ((d)->base + (size_t)((at) - (d)->lb))

static int
num(Desc *d, const char *at, const char *s, u64 max, u64 *v)
{
	char *e;

	*v = strtoull(s, &e, 0);
	if (e == s || (*e && *e != ' ' && *e != '\t' && *e != '\n' && *e != '\r') || *v > max) {
		diag_at(&d->src, POS(d, at), "expected a number up to 0x%llx", (unsigned long long)max);
		return -1;
	}
	return 0;
}

static const char *
file_path(Desc *d, const char *rel, char *path, size_t n)
{
	const char *slash = strrchr(d->src.path, '/');

	if (rel[0] == '/' || !slash)
		snprintf(path, n, "%s", rel);
	else
		snprintf(path, n, "%.*s/%s", (int)(slash - d->src.path), d->src.path, rel);
	return path;
}

static int
words_file(Desc *d, const char *at, const char *rel)
{
	char path[1024], *text, *p;
	size_t n;

	if (!(text = read_file(file_path(d, rel, path, sizeof path), &n)))
		return -1;
	for (p = text; *p;) {
		Word w;
		char *e;

		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		if (!*p)
			break;
		w.lo = strtoull(p, &e, 16);
		if (e == p) {
			diag(path, "expected \"0xLO 0xHI\" words");
			free(text);
			return -1;
		}
		w.hi = strtoull(e, &p, 16);
		vec_push(&d->code, w);
	}
	free(text);
	(void)at;
	return 0;
}

/* A line of a sass file: NULL if blank or a comment, else its text from
 * the first non-blank; *label set if it is "NAME:". */
static const char *
sass_line(const char *p, const char *e, int *label)
{
	const char *q = e;

	while (p < e && (*p == ' ' || *p == '\t' || *p == '\r'))
		p++;
	while (q > p && (q[-1] == ' ' || q[-1] == '\t' || q[-1] == '\r'))
		q--;
	*label = q > p && q[-1] == ':' && !memchr(p, ' ', q - p);
	return p == q || *p == '#' || (q - p >= 2 && p[0] == '/' && p[1] == '/') ? NULL : p;
}

/* "sass FILE": two passes, labels first (each instruction line is 16
 * bytes), then asm_insn, the assembler's own instruction encoder. */
static int
sass_file(Desc *d, const char *rel)
{
	char path[1024];
	size_t n, i;
	Asm s;
	Buf code = {0};
	const char *p, *e, *t;
	int pass, label, rc;

	memset(&s, 0, sizeof s);
	if (!(s.src.text = read_file(file_path(d, rel, path, sizeof path), &n)))
		return -1;
	s.src.path = path;
	s.src.len = n;
	s.arch = arch_lookup(d->sm == 80 ? "sm_80" : "sm_90");
	s.have_target = 1;
	vec_push(&s.data, code);
	for (pass = 0; pass < 2 && !s.errors; pass++)
		for (p = s.src.text, i = 0; *p; p = *e ? e + 1 : e) {
			e = p + strcspn(p, "\n");
			if (!(t = sass_line(p, e, &label)))
				continue;
			if (!label) {
				if (pass)
					asm_insn(&s, t, e);
				i++;
			} else if (!pass) {
				size_t len = strcspn(t, ":");
				Label l = {xmalloc(len + 1), 0, i * 16};

				memcpy(l.name, t, len);
				l.name[len] = 0;
				vec_push(&s.labels, l);
			}
		}
	for (i = 0; !s.errors && i + 16 <= s.data.v[0].n; i += 16) {
		Word w = {rd64((u8 *)s.data.v[0].s + i), rd64((u8 *)s.data.v[0].s + i + 8)};

		vec_push(&d->code, w);
	}
	rc = s.errors ? -1 : 0;
	for (i = 0; i < s.labels.n; i++)
		free(s.labels.v[i].name);
	vec_free(&s.labels);
	buf_free(&s.data.v[0]);
	vec_free(&s.data);
	free((char *)s.src.text);
	return rc;
}

/* Move the kernel being described into done[]. */
static int
finish(Desc *d, const char *at)
{
	Kern *k;

	if (d->ndone == (int)NELEM(d->done)) {
		diag_at(&d->src, POS(d, at), "too many kernels");
		return -1;
	}
	if (!d->code.n) {
		diag_at(&d->src, POS(d, at), "kernel %s has no code (words/word/sass)", d->name);
		return -1;
	}
	k = &d->done[d->ndone++];
	k->k = d->k;
	memcpy(k->par, d->par, sizeof d->par);
	memcpy(k->name, d->name, sizeof d->name);
	k->code.v = d->code.v;
	k->code.n = d->code.n;
	k->code.cap = d->code.cap;
	memset(&d->k, 0, sizeof d->k);
	memset(&d->code, 0, sizeof d->code);
	d->name[0] = 0;
	return 0;
}

static int
line(Desc *d, char *p)
{
	char *kw = p + strspn(p, " \t"), *arg;
	u64 v, a;
	int i;

	if (!*kw || *kw == '#' || *kw == '\n')
		return 0;
	arg = kw + strcspn(kw, " \t\n");
	if (*arg && *arg != '\n')
		*arg++ = 0;
	else
		*arg = 0;
	arg += strspn(arg, " \t");
	arg[strcspn(arg, "\n#")] = 0;
	if (!strcmp(kw, "kernel")) {
		if (d->name[0] && finish(d, kw) < 0)
			return -1;
		snprintf(d->name, sizeof d->name, "%.*s", (int)strcspn(arg, " \t\r"), arg);
		return 0;
	}
	if (!strcmp(kw, "target")) {
		if (strstr(arg, "80"))
			d->sm = 80;
		else if (strstr(arg, "90"))
			d->sm = 90;
		else {
			diag_at(&d->src, POS(d, arg), "target is sm_80 or sm_90");
			return -1;
		}
		return 0;
	}
	if (!strcmp(kw, "words"))
		return words_file(d, arg, arg);
	if (!strcmp(kw, "sass")) {
		if (!d->sm) {
			diag_at(&d->src, POS(d, kw), "\"target\" must come before \"sass\"");
			return -1;
		}
		return sass_file(d, arg);
	}
	if (!strcmp(kw, "word")) {
		Word w;
		char *e;

		w.lo = strtoull(arg, &e, 16);
		w.hi = strtoull(e, NULL, 16);
		vec_push(&d->code, w);
		return 0;
	}
	if (!strcmp(kw, "param")) {
		if (d->k.nparams == NELEM(d->par)) {
			diag_at(&d->src, POS(d, kw), "too many parameters");
			return -1;
		}
		if (num(d, arg, arg, 0x3fff, &v) < 0)
			return -1;
		a = 0;
		arg += strcspn(arg, " \t");
		arg += strspn(arg, " \t");
		if (*arg && num(d, arg, arg, 256, &a) < 0)
			return -1;
		d->par[d->k.nparams].size = v;
		d->par[d->k.nparams++].align = a;
		return 0;
	}
	if (!strcmp(kw, "shared")) {
		if (num(d, arg, arg, 0x100000, &v) < 0)
			return -1;
		a = 0;
		arg += strcspn(arg, " \t");
		arg += strspn(arg, " \t");
		if (*arg && num(d, arg, arg, 256, &a) < 0)
			return -1;
		d->k.shared = v;
		d->k.shared_align = a;
		d->k.uses_shared = 1;
		return 0;
	}
	if (!strcmp(kw, "maxntid") || !strcmp(kw, "reqntid")) {
		u32 *t = kw[0] == 'm' ? d->k.max_threads : d->k.reqntid;

		for (i = 0; i < 3; i++) {
			if (num(d, arg, arg, 1024, &v) < 0)
				return -1;
			t[i] = v;
			arg += strcspn(arg, " \t");
			arg += strspn(arg, " \t");
		}
		return 0;
	}
	if (num(d, arg, arg, 0xffffffffu, &v) < 0)
		return -1;
	if (!strcmp(kw, "regs") && v <= 255)
		d->k.regs = v;
	else if (!strcmp(kw, "frame"))
		d->k.frame = v;
	else if (!strcmp(kw, "maxreg") && v <= 255)
		d->k.maxreg = v;
	else if (!strcmp(kw, "barriers") && v <= 16)
		d->k.barriers = v;
	else {
		diag_at(&d->src, POS(d, kw), "unknown or out-of-range item '%s'", kw);
		return -1;
	}
	return 0;
}

int
cmd_mkcubin(int argc, char **argv)
{
	Desc *d;
	char *text, *p;
	size_t n;
	Cubin c;
	Buf out = {0};
	int rc = 0, i;

	if (argc != 4 || strcmp(argv[2], "-o")) {
		fputs("usage: openassembler mkcubin KERNEL.desc -o FILE.cubin\n"
		      "  builds a cubin from a kernel description (see src/cli/cmd_mkcubin.c,\n"
		      "  docs/findings-cubin.md)\n", argc == 2 && !strcmp(argv[1], "--help") ? stdout : stderr);
		return !(argc == 2 && !strcmp(argv[1], "--help"));
	}
	if (!(text = read_file(argv[1], &n)))
		return 1;
	/* 160 KiB (64 kernels of 256 params): in the heap, not .bss, where it
	   would sit between the variables every process touches and spread
	   them over five pages instead of three */
	d = xcalloc(1, sizeof *d);
	d->src.path = argv[1];
	d->src.text = text;
	d->src.len = n;
	for (p = text; *p && rc == 0;) {
		size_t len = strcspn(p, "\n");

		d->base = p - text;
		d->lb = xmalloc(len + 1);
		memcpy(d->lb, p, len);
		d->lb[len] = 0;
		rc = line(d, d->lb);
		free(d->lb);
		p += len + (p[len] == '\n');
	}
	if (rc == 0 && d->name[0])
		rc = finish(d, text + n);
	if (rc == 0 && (!d->ndone || !d->sm)) {
		diag(argv[1], "a description needs a target and at least one kernel with code (words/word)");
		rc = -1;
	}
	if (rc == 0) {
		KernelDesc *ks = xcalloc(d->ndone, sizeof *ks);

		for (i = 0; i < d->ndone; i++) {
			ks[i] = d->done[i].k;
			ks[i].name = d->done[i].name;
			ks[i].sm = d->sm;
			ks[i].params = d->done[i].par;
			ks[i].code = d->done[i].code.v;
			ks[i].ncode = d->done[i].code.n;
		}
		if (cubin_build_module(&c, ks, d->ndone) < 0) {
			diag(argv[1], "cannot build: a kernel's code has no EXIT");
			rc = -1;
		} else {
			cubin_write(&c, &out);
			rc = write_file(argv[3], out.s, out.n);
		}
		cubin_free(&c);
		free(ks);
	}
	for (i = 0; i < d->ndone; i++)
		vec_free(&d->done[i].code);
	buf_free(&out);
	vec_free(&d->code);
	free(d);
	free(text);
	return rc == 0 ? 0 : 1;
}
