/* test_zstd.c -- our Zstandard decoder (src/cubin/zstd.c).
 *
 * Round trips: tests/cubin/zstd/KIND-SIZE.TAG.zst is KIND-SIZE, made by
 * gen() below (mirrored by tests/cubin/zstd/gen.py), compressed by the zstd
 * program with the options TAG stands for (see make-inputs there); the
 * decoder must give back exactly gen()'s bytes.  Hand-made frames cover
 * what the zstd program did not produce here (RLE literals, a 3-byte
 * sequence count, skippable frames) and were checked against zstd -d when
 * written.  Fuzz: truncations and bit flips of every input must give -1
 * with a message or a size within the buffer, never a crash (make check
 * SANITIZE=1 also proves no out-of-bounds access). */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "cubin/zstd.h"
#include "test.h"

#define DIR_ "tests/cubin/zstd"

/* ---- gen(): the inputs' originals (keep in step with gen.py) ---- */

static const char *const WORDS[] = {
	"the", "a", "of", "to", "in", "is", "that", "for", "it", "as", "with",
	"was", "on", "be", "by", "this", "are", "or", "from", "at", "kernel",
	"warp", "thread", "block", "shared", "register", "barrier", "predicate",
	"load", "store", "fatbin", "cubin",
};
enum { NWORDS = sizeof WORDS / sizeof WORDS[0] };

static u32
lcg(u32 *x) /* 15 bits */
{
	*x = *x * 1103515245u + 12345u;
	return *x >> 16 & 0x7FFF;
}

static u32
min3(u32 a, u32 b, u32 c)
{
	u32 m = a < b ? a : b;

	return m < c ? m : c;
}

/* Fill p[0..n) with KIND-n's bytes; 0 for an unknown kind. */
static int
gen(const char *kind, u8 *p, size_t n)
{
	u32 x = (u32)(n + strlen(kind)), k = (u32)atoi(kind + strcspn(kind, "0123456789"));
	size_t o = 0;

#define PUT(b)                         \
	do {                           \
		u8 b_ = (u8)(b);       \
		if (o < n)             \
			p[o] = b_;     \
		o++;                   \
	} while (0)
	if (!strcmp(kind, "rand")) {
		while (o < n)
			PUT(lcg(&x));
	} else if (!strncmp(kind, "alpha", 5)) {
		while (o < n)
			PUT(97 + lcg(&x) % k);
	} else if (!strcmp(kind, "text")) {
		while (o < n) {
			u32 a = lcg(&x) % NWORDS, b = lcg(&x) % NWORDS;

			for (const char *w = WORDS[a < b ? a : b]; *w; w++)
				PUT(*w);
			PUT(lcg(&x) % 12 == 0 ? '\n' : ' ');
		}
	} else if (!strcmp(kind, "rep")) {
		while (o < n) {
			for (const char *w = "abcabcabd\n"; *w; w++)
				PUT(*w);
			if (lcg(&x) % 64 == 0)
				PUT(lcg(&x));
		}
	} else if (!strcmp(kind, "runs")) {
		while (o < n) {
			for (u32 i = lcg(&x) % 40; i > 0; i--)
				PUT('a');
			PUT(lcg(&x));
		}
	} else if (!strncmp(kind, "rec", 3)) {
		while (o < n) {
			PUT(lcg(&x));
			for (u32 i = 0; i + 1 < k; i++)
				PUT('A' + i);
		}
	} else if (!strncmp(kind, "skew", 4)) {
		while (o < n) {
			u32 a = lcg(&x) % k, b = lcg(&x) % k;

			PUT(min3(a, b, lcg(&x) % k));
		}
	} else if (!strcmp(kind, "zeros")) {
		memset(p, 0, n);
	} else {
		return 0;
	}
#undef PUT
	return 1;
}

/* ---- the committed inputs ---- */

typedef struct {
	char name[256];
	u8 *z; /* the compressed file */
	size_t nz;
	u8 *orig; /* gen()'s bytes */
	size_t norig;
} Input;

/* Load tests/cubin/zstd/KIND-SIZE.TAG.zst files (sorted by the caller's
 * needs: order does not matter).  Returns the count; -1 on a bad name. */
static int
load_inputs(Input **out)
{
	DIR *d = opendir(DIR_);
	struct dirent *e;
	Input *v = NULL;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char kind[64], path[512];
		size_t len = strlen(e->d_name), size;
		const char *dash = strrchr(e->d_name, '-');
		Input in = {0};

		if (len < 5 || strcmp(e->d_name + len - 4, ".zst") || !dash || dash - e->d_name >= 63)
			continue;
		memcpy(kind, e->d_name, dash - e->d_name);
		kind[dash - e->d_name] = 0;
		size = strtoul(dash + 1, NULL, 10);
		snprintf(in.name, sizeof in.name, "%s", e->d_name);
		snprintf(path, sizeof path, DIR_ "/%s", e->d_name);
		in.z = (u8 *)read_file(path, &in.nz);
		in.orig = xmalloc(size + 1);
		in.norig = size;
		if (!in.z || !gen(kind, in.orig, size)) {
			free(in.z);
			free(in.orig);
			closedir(d);
			*out = v;
			return -1;
		}
		v = realloc(v, (n + 1) * sizeof *v);
		v[n++] = in;
	}
	closedir(d);
	*out = v;
	return n;
}

static void
free_inputs(Input *v, int n)
{
	for (int i = 0; i < n; i++) {
		free(v[i].z);
		free(v[i].orig);
	}
	free(v);
}

TEST(zstd_roundtrip)
{
	Input *v;
	int n = load_inputs(&v);

	CHECK(n >= 20);
	for (int i = 0; i < n; i++) {
		u8 *out = xmalloc(v[i].norig + 1);
		const char *err = NULL;
		long r = zstd_decode(v[i].z, v[i].nz, out, v[i].norig, &err);

		if (r < 0 || (size_t)r != v[i].norig || memcmp(out, v[i].orig, v[i].norig))
			FAIL("%s: got %ld of %zu bytes (%s)", v[i].name, r, v[i].norig, err ? err : "differs");
		if (v[i].norig && zstd_decode(v[i].z, v[i].nz, out, v[i].norig - 1, &err) != -1)
			FAIL("%s: decoded into a buffer one byte short", v[i].name);
		free(out);
	}
	free_inputs(v, n);
}

/* ---- hand-made frames (each checked against zstd -d when written) ---- */

/* single segment, content size 20; one compressed block: RLE literals
 * "z" x 20, no sequences */
static const u8 RLE_LIT[] = {0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x14, 0x1d, 0x00, 0x00, 0xa1, 0x7a, 0x00};
/* content size 98308; a raw block "abcd", then 32768 sequences (count in
 * the 3-byte form) with RLE tables for all three codes: no literals,
 * match length 3, repeat offsets alternating 4 and 1 */
static const u8 SEQ3[] = {0x28, 0xb5, 0x2f, 0xfd, 0xa0, 0x04, 0x80, 0x01, 0x00, 0x20, 0x00, 0x00, 0x61, 0x62,
			  0x63, 0x64, 0x4d, 0x00, 0x00, 0x00, 0xff, 0x00, 0x01, 0x54, 0x00, 0x00, 0x00, 0x01};
static const u8 SKIP[] = {0x5f, 0x2a, 0x4d, 0x18, 0x03, 0x00, 0x00, 0x00, 0x78, 0x79, 0x7a};

static long
decode(const u8 *p, size_t n, u8 *out, size_t cap, const char **err)
{
	*err = NULL;
	return zstd_decode(p, n, out, cap, err);
}

TEST(zstd_handmade)
{
	enum { CAP = 200000 };
	u8 *out = xmalloc(CAP), *cat = xmalloc(256);
	const char *err;
	size_t n = 0;
	long r;
	int ok = 1;

	r = decode(RLE_LIT, sizeof RLE_LIT, out, CAP, &err);
	CHECK(r == 20 && out[0] == 'z' && out[19] == 'z');
	r = decode(SEQ3, sizeof SEQ3, out, CAP, &err);
	CHECK(r == 98308 && !memcmp(out, "abcdabc", 7));
	for (long i = 7; i < r; i++)
		ok &= out[i] == 'c';
	CHECK(ok);
	/* skippable, frame, frame, skippable */
	memcpy(cat + n, SKIP, sizeof SKIP), n += sizeof SKIP;
	memcpy(cat + n, RLE_LIT, sizeof RLE_LIT), n += sizeof RLE_LIT;
	memcpy(cat + n, SEQ3, sizeof SEQ3), n += sizeof SEQ3;
	memcpy(cat + n, SKIP, sizeof SKIP), n += sizeof SKIP;
	r = decode(cat, n, out, CAP, &err);
	CHECK(r == 20 + 98308 && !memcmp(out + 18, "zzabcdabccc", 11));
	CHECK(decode(SKIP, sizeof SKIP, out, CAP, &err) == 0);
	CHECK(decode(cat, 0, out, CAP, &err) == 0);
	free(out);
	free(cat);
}

TEST(zstd_errors)
{
	u8 out[64], f[sizeof RLE_LIT + 4];
	const char *err;
	static const u8 dict[] = {0x28, 0xb5, 0x2f, 0xfd, 0x21, 0x14, 0x07, 0x1d, 0x00, 0x00, 0xa1, 0x7a, 0x00};

	CHECK(decode(dict, sizeof dict, out, sizeof out, &err) == -1);
	CHECK_STR(err, "zstd: dictionaries are not supported");
	memcpy(f, RLE_LIT, sizeof RLE_LIT);
	f[4] |= 8; /* reserved bit */
	CHECK(decode(f, sizeof RLE_LIT, out, sizeof out, &err) == -1 && strstr(err, "reserved"));
	f[4] = 0x24; /* with a content checksum, and a wrong one */
	memcpy(f + sizeof RLE_LIT, "\1\2\3\4", 4);
	CHECK(decode(f, sizeof f, out, sizeof out, &err) == -1);
	CHECK_STR(err, "zstd: content checksum mismatch");
	CHECK(decode(RLE_LIT, sizeof RLE_LIT, out, 19, &err) == -1 && strstr(err, "larger than the output"));
	CHECK(decode((const u8 *)"hello", 5, out, sizeof out, &err) == -1 && strstr(err, "magic"));
	CHECK(decode(RLE_LIT, sizeof RLE_LIT - 1, out, sizeof out, &err) == -1 && err);
}

TEST(zstd_xxh64)
{
	CHECK_EQ_U64(zstd_xxh64((const u8 *)"", 0, 0), 0xEF46DB3751D8E999ull);
	CHECK_EQ_U64(zstd_xxh64((const u8 *)"a", 1, 0), 0xD24EC4F1A98C6E5Bull);
	CHECK_EQ_U64(zstd_xxh64((const u8 *)"abc", 3, 0), 0x44BC2CF5AD770999ull);
}

/* ---- fuzz ---- */

static void
must_not_crash(TestState *t_, const char *name, const u8 *p, size_t n, u8 *out, size_t cap)
{
	const char *err = NULL;
	long r = zstd_decode(p, n, out, cap, &err);

	if (r < 0 ? !err : (size_t)r > cap)
		FAIL("%s: decode of a %zu-byte mutant gave %ld", name, n, r);
}

TEST(zstd_fuzz)
{
	Input *v;
	int n = load_inputs(&v);
	u32 x = 1;

	CHECK(n >= 20);
	for (int i = 0; i < n; i++) {
		const Input *in = &v[i];
		size_t cap = in->norig + 64, step = in->nz / 97 + 1;
		int flips = in->norig > 200000 ? 40 : 300;
		u8 *out = xmalloc(cap), *m = xmalloc(in->nz + 1);

		for (size_t len = 0; len < in->nz; len += len < 64 || in->nz - len < 64 ? 1 : step)
			must_not_crash(t_, in->name, in->z, len, out, cap);
		for (int k = 0; k < flips && in->nz; k++) {
			size_t at = (lcg(&x) << 15 | lcg(&x)) % in->nz;

			memcpy(m, in->z, in->nz);
			m[at] ^= (u8)(1 << lcg(&x) % 8);
			if (k & 1) /* a second flip nearby */
				m[(at + lcg(&x) % 16) % in->nz] ^= (u8)(1 << lcg(&x) % 8);
			must_not_crash(t_, in->name, m, in->nz, out, cap);
		}
		free(out);
		free(m);
	}
	free_inputs(v, n);
}
