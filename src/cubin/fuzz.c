/* fuzz.c -- the entry points the cubin fuzzers drive (tests/fuzz/) and
 * that make check replays on the committed corpus: arbitrary bytes through
 * the container readers, the listing and the assembler.  Bad input must
 * give errors, never a crash or an out-of-bounds access (run under ASan). */
#include <stdlib.h>
#include <string.h>

#include "cubin/cubin.h"

static void
list_and_back(const Cubin *c, int raw)
{
	Buf l = {0}, out = {0};
	ListOpts o = {0};
	Cubin d;

	o.raw = raw;
	if (cubin_list(c, "fuzz", &o, &l) == 0) {
		if (cubin_asm(&d, "fuzz.sass", l.s, l.n) == 0)
			cubin_write(&d, &out);
		cubin_free(&d);
	}
	buf_free(&l);
	buf_free(&out);
}

/* Bytes as a cubin, fat binary or host file. */
int
cubin_fuzz_binary(const u8 *p, size_t n)
{
	Cubin c;
	FatEntry *e;
	int k, i;

	if (cubin_read(&c, "fuzz", p, n) == 0) {
		Buf out = {0};

		list_and_back(&c, 0);
		list_and_back(&c, 1);
		cubin_write(&c, &out);
		buf_free(&out);
	}
	cubin_free(&c);
	k = fatbin_extract("fuzz", p, n, &e);
	for (i = 0; i < k; i++) {
		if (cubin_read(&c, "fuzz", e[i].data, e[i].size) == 0)
			list_and_back(&c, 1);
		cubin_free(&c);
	}
	if (k > 0)
		fatbin_free(e, k);
	return 0;
}

/* Bytes as listing text for the assembler. */
int
cubin_fuzz_text(const u8 *p, size_t n)
{
	char *t = xmalloc(n + 1);
	Cubin c;
	Buf out = {0};

	memcpy(t, p, n);
	t[n] = 0;
	if (cubin_asm(&c, "fuzz.sass", t, n) == 0)
		cubin_write(&c, &out);
	cubin_free(&c);
	buf_free(&out);
	free(t);
	return 0;
}
