/* ptx_fuzz.c -- libFuzzer harness for the PTX front end: parse, check, and
 * for every accepted input print it and parse the print again, which must
 * succeed (the printer's output is valid PTX).  Build and run with
 * tests/fuzz/ptx-fuzz.sh; make check replays tests/fuzz/ptx-corpus/. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/ptx.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int
LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static FILE *devnull;
	FILE *saved = stderr;
	PtxModule *m;

	if (!devnull && !(devnull = fopen("/dev/null", "w")))
		abort();
	stderr = devnull; /* error messages; sanitizer reports go to fd 2 */
	m = ptx_parse("fuzz.ptx", (const char *)data, size);
	if (m && ptx_check(m) == 0) {
		Buf b = {0};
		PtxModule *m2;

		ptx_print(m, &b);
		m2 = ptx_parse("dump.ptx", b.s, b.n);
		if (!m2 || ptx_check(m2) != 0) {
			stderr = saved;
			fwrite(b.s, 1, b.n, stdout);
			abort(); /* the printer wrote something we cannot read back */
		}
		ptx_free(m2);
		buf_free(&b);
	}
	ptx_free(m);
	stderr = saved;
	return 0;
}
