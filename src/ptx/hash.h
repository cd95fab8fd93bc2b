/* hash.h -- the hash and key comparison of the PTX front end's string
 * maps (tables.c's HMap) and of the generated name tables
 * (tables_hash.h, made by tools/gen-ptx-hash, which includes this file).
 * (FNV-1a, a multiply per byte, cost more than the rest of a lookup.)
 * A key is read a word at a time, never past its end: 8-byte words, the
 * last one the key's last 8 bytes (overlapping the one before); a key of
 * 4 to 7 bytes as two overlapping 4-byte halves, a shorter one as its
 * first, middle and last bytes.  The words cover every byte, so two keys
 * of one length are equal when their words are.  Multiplicative hashing;
 * the slot index comes from the product's high half. */
#ifndef OA_PTX_HASH_H
#define OA_PTX_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint64_t
hm_le(uint64_t v)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

static inline uint64_t
hm_ld64(const char *s)
{
	uint64_t v;

	memcpy(&v, s, 8);
	return hm_le(v);
}

/* the one word of a key of n <= 8 bytes */
static inline uint64_t
hm_short(const char *s, size_t n)
{
	uint32_t a, b;

	if (n == 8)
		return hm_ld64(s);
	if (n >= 4) {
		memcpy(&a, s, 4);
		memcpy(&b, s + n - 4, 4);
		return hm_le((uint64_t)b << 32 | a);
	}
	if (!n)
		return 0;
	return (uint64_t)(unsigned char)s[0] | (uint64_t)(unsigned char)s[n / 2] << 8 |
	       (uint64_t)(unsigned char)s[n - 1] << 16;
}

static inline uint32_t
hm_hash(const char *s, size_t n)
{
	const uint64_t k = 0x9e3779b97f4a7c15ull;
	uint64_t h = n * k;
	size_t i;

	if (n <= 8)
		return (uint32_t)(((h ^ hm_short(s, n)) * k) >> 32);
	for (i = 0; i + 8 < n; i += 8)
		h = (h ^ hm_ld64(s + i)) * k;
	return (uint32_t)(((h ^ hm_ld64(s + n - 8)) * k) >> 32);
}

/* s[0..n) == t[0..n) */
static inline int
hm_same(const char *s, const char *t, size_t n)
{
	size_t i;

	if (n <= 8)
		return hm_short(s, n) == hm_short(t, n);
	for (i = 0; i + 8 < n; i += 8)
		if (hm_ld64(s + i) != hm_ld64(t + i))
			return 0;
	return hm_ld64(s + n - 8) == hm_ld64(t + n - 8);
}

#endif
