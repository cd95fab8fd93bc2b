/* zstd.h -- a Zstandard decoder (RFC 8878), written from the RFC, so that a
 * statically linked openassembler reads zstd-compressed fat binary entries
 * (nvcc -Xfatbin -compress-all) without libzstd. */
#ifndef OA_ZSTD_H
#define OA_ZSTD_H

#include "util/util.h"

/* Decode the concatenated Zstandard (and skippable) frames in in[0..n) into
 * out[0..cap).  Returns the decoded size, or -1 with *err (if err is not
 * NULL) set to a static message on malformed input, on an output larger
 * than cap, or on a frame that needs a dictionary.  Never reads or writes
 * out of bounds. */
long zstd_decode(const u8 *in, size_t n, u8 *out, size_t cap, const char **err);

/* XXH64 of p[0..n) with the given seed (used for the frame checksum). */
u64 zstd_xxh64(const u8 *p, size_t n, u64 seed);

#endif
