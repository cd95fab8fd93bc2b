/* golden.h -- check the ISA tables against golden (word, text) pairs. */
#ifndef OA_GOLDEN_H
#define OA_GOLDEN_H

#include "isa/isa.h"

typedef struct {
	size_t words, decoded;
	size_t encoded;		/* parse(oracle text) gives the word back */
	size_t encoded_hidden;	/* ... once the hidden-bit mask (isa_hidden) is applied */
} GoldenStats;

/* arch may be NULL: taken from the file's header.  Failing words are
 * listed on fail when it is not NULL.  Returns -1 on unreadable input. */
int golden_check(const char *path, const Arch *arch, FILE *fail, GoldenStats *st);

/* Print decode, print and encode throughput for the words of a golden file. */
int golden_bench(const char *path, FILE *out);

#endif
