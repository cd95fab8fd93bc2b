/* cmd_golden.c -- openassembler golden [--fail] FILE...: check the ISA
 * tables against golden pairs (see src/isa/golden.c). */
#include <string.h>

#include "cli.h"
#include "isa/golden.h"

int
cmd_golden(int argc, char **argv)
{
	int i, show = 0, bench = 0, bad = 0;

	for (i = 1; i < argc; i++) {
		GoldenStats st;

		if (!strcmp(argv[i], "--fail")) {
			show = 1;
			continue;
		}
		if (!strcmp(argv[i], "--bench")) {
			bench = 1;
			continue;
		}
		if (bench) {
			bad |= golden_bench(argv[i], stdout) != 0;
			continue;
		}
		if (!strcmp(argv[i], "--help")) {
			puts("usage: openassembler golden [--fail | --bench] FILE...\n"
			     "  decode every word and compare with the oracle's text; parse the text and\n"
			     "  compare the encoding with the word; --fail lists the words that differ;\n"
			     "  --bench measures decode, print and encode throughput instead");
			return 0;
		}
		if (golden_check(argv[i], NULL, show ? stdout : NULL, &st))
			return 1;
		printf("%s: %zu words, decode %zu (%.2f%%), encode %zu (%.2f%%), encode from text alone %zu (%.2f%%)\n",
		       argv[i], st.words, st.decoded, st.words ? 100.0 * st.decoded / st.words : 0,
		       st.encoded_hidden, st.words ? 100.0 * st.encoded_hidden / st.words : 0, st.encoded,
		       st.words ? 100.0 * st.encoded / st.words : 0);
		bad |= st.decoded != st.words || st.encoded_hidden != st.words;
	}
	return bad;
}
