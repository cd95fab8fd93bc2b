/* difffuzz.c -- differential fuzzing of src/cubin/zstd.c against libzstd
 * (a development tool; make check needs neither it nor libzstd):
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Isrc \
 *     tests/cubin/zstd/difffuzz.c src/cubin/zstd.c \
 *     /usr/lib/x86_64-linux-gnu/libzstd.so.1 -o /tmp/difffuzz
 *   mkdir -p /tmp/corpus && cp tests/cubin/zstd/[a-z]*.zst /tmp/corpus
 *   /tmp/difffuzz -max_total_time=300 -max_len=70000 /tmp/corpus
 *
 * When both decoders accept an input they must agree byte for byte, and
 * we must never accept what libzstd rejects, except for windows larger
 * than libzstd's limit (we need no window memory).  We may reject what
 * libzstd 1.5 lets through where the format says the data is corrupt:
 * bitstreams not used up exactly or overrun, a Huffman stream whose last
 * byte is 0 (no end marker), an RLE block larger than the maximum block
 * size, non-zero reserved bits in the sequence compression modes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cubin/zstd.h"

size_t ZSTD_decompress(void *, size_t, const void *, size_t);
unsigned ZSTD_isError(size_t);
const char *ZSTD_getErrorName(size_t);

void *
xmalloc(size_t n)
{
	void *p = malloc(n);

	if (!p)
		abort();
	return p;
}

static const char *const STRICTER[] = {
	"used up exactly", "overrun", "bad Huffman stream", "maximum block size", "reserved bits",
};

int LLVMFuzzerTestOneInput(const u8 *d, size_t n);

int
LLVMFuzzerTestOneInput(const u8 *d, size_t n)
{
	static u8 a[1 << 20], b[1 << 20];
	const char *err = NULL;
	long r = zstd_decode(d, n, a, sizeof a, &err);
	size_t s = ZSTD_decompress(b, sizeof b, d, n);

	if (r >= 0 && !ZSTD_isError(s)) {
		if ((size_t)r != s || memcmp(a, b, s)) {
			fprintf(stderr, "DIFFERENT: ours %ld bytes, libzstd %zu\n", r, s);
			abort();
		}
	} else if (r >= 0) {
		if (n && !strstr(ZSTD_getErrorName(s), "too much memory")) {
			fprintf(stderr, "WE ACCEPT (%ld bytes), libzstd: %s\n", r, ZSTD_getErrorName(s));
			abort();
		}
	} else if (!ZSTD_isError(s)) {
		for (size_t i = 0; i < sizeof STRICTER / sizeof *STRICTER; i++)
			if (strstr(err, STRICTER[i]))
				return 0;
		fprintf(stderr, "WE REJECT (%s), libzstd gives %zu bytes\n", err, s);
		abort();
	}
	return 0;
}
