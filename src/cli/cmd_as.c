/* cmd_as.c -- openassembler as: assemble a cubin listing (the text that
 * `openassembler disasm` prints, edited or not) into a .cubin file. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cubin/cubin.h"

int
cmd_as(int argc, char **argv)
{
	const char *in = NULL, *outp = NULL;
	char *text;
	size_t n;
	Cubin c;
	Buf out = {0};
	int i, rc;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			puts("usage: openassembler as FILE.sass -o FILE.cubin\n"
			     "  FILE.sass is a listing as printed by openassembler disasm\n"
			     "  (syntax: docs/findings-cubin.md, \"Listing format\").");
			return 0;
		} else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			outp = argv[++i];
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "openassembler as: error: unknown option '%s'\n", argv[i]);
			return 1;
		} else if (!in) {
			in = argv[i];
		} else {
			fprintf(stderr, "openassembler as: error: more than one input file\n");
			return 1;
		}
	}
	if (!in || !outp) {
		fputs("usage: openassembler as FILE.sass -o FILE.cubin\n", stderr);
		return 1;
	}
	if (!(text = read_file(in, &n)))
		return 1;
	rc = cubin_asm(&c, in, text, n);
	if (rc == 0) {
		cubin_write(&c, &out);
		rc = write_file(outp, out.s, out.n);
	}
	cubin_free(&c);
	buf_free(&out);
	free(text);
	return rc == 0 ? 0 : 1;
}
