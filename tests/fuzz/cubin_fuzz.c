/* cubin_fuzz.c -- libFuzzer targets for the cubin reader (binary input:
 * cubins, fat binaries, host files) and the listing assembler (text).
 * Build and run with tests/fuzz/cubin-fuzz (needs clang with libFuzzer);
 * make check replays the committed corpora tests/fuzz/cubin-bin/ and
 * tests/fuzz/cubin-text/ through the same entry points
 * (tests/unit/test_cubin_fuzz.c). */
#include <stddef.h>
#include <stdint.h>

#include "cubin/cubin.h"

int
LLVMFuzzerTestOneInput(const uint8_t *p, size_t n)
{
#ifdef FUZZ_TEXT
	return cubin_fuzz_text(p, n);
#else
	return cubin_fuzz_binary(p, n);
#endif
}
