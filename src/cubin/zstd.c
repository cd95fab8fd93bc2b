/* zstd.c -- a Zstandard decoder written from RFC 8878 ("Zstandard
 * Compression and the application/zstd Media Type"); section numbers below
 * are the RFC's.
 *
 * A frame (3.1.1) is a header and blocks (3.1.1.2).  A compressed block
 * holds a literals section (3.1.1.3.1: raw, RLE or Huffman-coded, 4.2) and
 * a sequences section (3.1.1.3.2: FSE-coded, 4.1); each sequence copies
 * some literals, then a match from the output already produced (3.1.1.4).
 * Everything is decoded straight into the caller's buffer, so a match may
 * reach back to the start of its frame, and any window fits.
 *
 * Every input read and output write is bounds-checked, every loop is
 * bounded by the input or output size, and anything malformed makes
 * zstd_decode return -1 with a message.  Dictionaries are not supported. */
#include <stdlib.h>
#include <string.h>

#include "cubin/zstd.h"

#define ZSTD_MAGIC 0xFD2FB528u
#define SKIP_MAGIC 0x184D2A50u /* skippable frames: 0x184D2A50..5F (3.1.2) */
enum { BLOCK_MAX = 128 << 10, HUF_MAXBITS = 11 };

/* One cell of a decoding table, FSE (4.1) or Huffman (4.2): the symbol,
 * how many bits to read, and (FSE) the baseline those bits are added to
 * to form the next state. */
typedef struct {
	u16 base;
	u8 sym;
	u8 bits;
} Cell;

typedef struct {
	Cell c[512]; /* 1 << log cells; accuracy logs are at most 9 */
	int log;
	int ok; /* defined in this frame (for Repeat_Mode) */
} Fse;

typedef struct {
	Cell c[1 << HUF_MAXBITS];
	int bits; /* Max_Number_of_Bits: index the table with that many bits */
	int ok;   /* defined in this frame (for Treeless_Literals_Block) */
} Huf;

/* The decoder: the output, the state that lives across the blocks of a
 * frame (repeat offsets, previous tables), and the current literals. */
typedef struct {
	u8 *out;
	size_t cap, o; /* out[0..o) is written */
	size_t frame;  /* where the current frame's output starts */
	u64 block_max; /* Block_Maximum_Size of the current frame */
	u64 rep[3];    /* repeat offsets (3.1.2.5) */
	Fse ll, of, ml;
	Huf huf;
	const u8 *lit; /* the current block's literals not yet used */
	size_t nlit;
	const char *err;
	u8 litbuf[BLOCK_MAX];
} Z;

static int
fail(Z *z, const char *msg)
{
	if (!z->err)
		z->err = msg;
	return -1;
}

static u32
le32(const u8 *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (u32)p[3] << 24;
}

static inline u64
le64(const u8 *p)
{
	return le32(p) | (u64)le32(p + 4) << 32;
}

/* Index of the highest set bit of x (x > 0). */
static int
hibit(u64 x)
{
	int i = 0;

	while (x >>= 1)
		i++;
	return i;
}

/* ---- XXH64 (the content checksum, 3.1.1; XXH64 specification) ---- */

#define P1 0x9E3779B185EBCA87ull
#define P2 0xC2B2AE3D27D4EB4Full
#define P3 0x165667B19E3779F9ull
#define P4 0x85EBCA77C2B2AE63ull
#define P5 0x27D4EB2F165667C5ull

static u64
rotl(u64 x, int r)
{
	return x << r | x >> (64 - r);
}

static u64
xround(u64 acc, u64 lane)
{
	return rotl(acc + lane * P2, 31) * P1;
}

static u64
xmerge(u64 acc, u64 v)
{
	return (acc ^ xround(0, v)) * P1 + P4;
}

u64
zstd_xxh64(const u8 *p, size_t n, u64 seed)
{
	const u8 *end = p + n;
	u64 h;

	if (n >= 32) {
		u64 v[4] = {seed + P1 + P2, seed + P2, seed, seed - P1};

		for (; end - p >= 32; p += 32)
			for (int i = 0; i < 4; i++)
				v[i] = xround(v[i], le64(p + 8 * i));
		h = rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18);
		for (int i = 0; i < 4; i++)
			h = xmerge(h, v[i]);
	} else {
		h = seed + P5;
	}
	h += n;
	for (; end - p >= 8; p += 8)
		h = rotl(h ^ xround(0, le64(p)), 27) * P1 + P4;
	if (end - p >= 4) {
		h = rotl(h ^ le32(p) * P1, 23) * P2 + P3;
		p += 4;
	}
	for (; p < end; p++)
		h = rotl(h ^ *p * P5, 11) * P1;
	h ^= h >> 33;
	h *= P2;
	h ^= h >> 29;
	h *= P3;
	return h ^ h >> 32;
}

/* ---- Bitstreams (4.1, 4.2.2) ----
 * FSE table descriptions are read forward, from the lowest bit of the
 * first byte.  FSE- and Huffman-coded data are read backward: the last
 * byte's highest set bit marks the end, and each read takes the highest
 * bits not yet read.  Reading past the start gives zero bits (the decoders
 * detect that as an overrun). */

/* k (<= 32) bits at bit position `bit` of p[0..n), zeros past the end. */
static u32
fwd_peek(const u8 *p, size_t n, size_t bit, int k)
{
	u64 w = 0;
	size_t i = bit >> 3;

	for (int j = 0; j < 5 && i + j < n; j++)
		w |= (u64)p[i + j] << 8 * j;
	return (u32)(w >> (bit & 7)) & ((1u << k) - 1);
}

typedef struct {
	const u8 *p;
	size_t n;
	long long pos; /* bits left to read; negative once reads overran */
} Bits;

static int
bits_init(Bits *b, const u8 *p, size_t n)
{
	if (!n || !p[n - 1])
		return -1; /* no end marker */
	b->p = p;
	b->n = n;
	b->pos = 8 * (long long)(n - 1) + hibit(p[n - 1]);
	return 0;
}

/* bits_peek near either end of the stream: fewer than 8 bytes from `at`
 * to the end, or reads past the start. */
static u64
bits_peek_edge(const Bits *b, int k)
{
	long long at = b->pos - k;
	int pad = 0;
	size_t i;
	u64 w = 0;

	if (b->pos <= 0 || !k)
		return 0;
	if (at < 0) { /* past the start: zeros below what is left */
		pad = (int)-at;
		k = (int)b->pos;
		at = 0;
	}
	i = (size_t)at >> 3;
	for (size_t j = 0; j < 8 && i + j < b->n; j++)
		w |= (u64)b->p[i + j] << 8 * j;
	return (w >> (at & 7) & (((u64)1 << k) - 1)) << pad;
}

/* The next k (<= 56) bits, without consuming them. */
static inline u64
bits_peek(const Bits *b, int k)
{
	long long at = b->pos - k;

	if (at >= 0 && b->n - ((size_t)at >> 3) >= 8)
		return le64(b->p + ((size_t)at >> 3)) >> (at & 7) & (((u64)1 << k) - 1);
	return bits_peek_edge(b, k);
}

static u64
bits_read(Bits *b, int k)
{
	u64 v = bits_peek(b, k);

	b->pos -= k;
	return v;
}

/* ---- FSE tables (4.1.1) ---- */

/* Spread the distribution prob[0..nsym) (sum 1 << log, -1 meaning "less
 * than 1") over the table and compute each cell's bits and baseline. */
static int
fse_build(Z *z, Fse *f, const short *prob, int nsym, int log)
{
	int size = 1 << log, high = size - 1, step = (size >> 1) + (size >> 3) + 3;
	int pos = 0;
	u16 next[256];

	for (int s = 0; s < nsym; s++)
		if (prob[s] == -1) {
			f->c[high--].sym = (u8)s;
			next[s] = 1;
		}
	for (int s = 0; s < nsym; s++) {
		if (prob[s] <= 0)
			continue;
		next[s] = (u16)prob[s];
		for (int i = 0; i < prob[s]; i++) {
			f->c[pos].sym = (u8)s;
			do
				pos = (pos + step) & (size - 1);
			while (pos > high);
		}
	}
	if (pos)
		return fail(z, "zstd: bad FSE distribution");
	for (int u = 0; u < size; u++) {
		u32 x = next[f->c[u].sym]++;
		int bits = log - hibit(x);

		f->c[u].bits = (u8)bits;
		f->c[u].base = (u16)((x << bits) - size);
	}
	f->log = log;
	f->ok = 1;
	return 0;
}

/* After a zero probability, 2-bit repeat flags (the last one below 3)
 * give how many more zeros follow (4.1.1).  Returns the new symbol count,
 * or -1. */
static int
zero_repeats(Z *z, const u8 *p, size_t n, size_t *bit, short *prob, int nsym, int maxsym)
{
	int r;

	do {
		if (*bit + 2 > 8 * n)
			return fail(z, "zstd: truncated FSE table description");
		r = (int)fwd_peek(p, n, *bit, 2);
		*bit += 2;
		if (nsym + r > maxsym + 1)
			return fail(z, "zstd: bad FSE table description");
		for (int j = 0; j < r; j++)
			prob[nsym++] = 0;
	} while (r == 3);
	return nsym;
}

/* Read an FSE table description from p[0..n) (4.1.1) and build the table.
 * Returns the bytes it used, or -1. */
static long
fse_read(Z *z, Fse *f, const u8 *p, size_t n, int maxlog, int maxsym)
{
	short prob[256];
	size_t bit = 4;
	int log, remaining, threshold, nbits, nsym = 0;

	if (n < 1)
		return fail(z, "zstd: truncated FSE table description");
	log = (p[0] & 15) + 5;
	if (log > maxlog)
		return fail(z, "zstd: FSE accuracy log too large");
	remaining = (1 << log) + 1;
	threshold = 1 << log;
	nbits = log + 1;
	while (remaining > 1) {
		int max = 2 * threshold - 1 - remaining, v, prb;

		if (nsym > maxsym || bit > 8 * n)
			return fail(z, "zstd: bad FSE table description");
		v = (int)fwd_peek(p, n, bit, nbits);
		if ((v & (threshold - 1)) < max) { /* small values take a bit less */
			v &= threshold - 1;
			bit += nbits - 1;
		} else {
			if (v >= threshold)
				v -= max;
			bit += nbits;
		}
		prb = v - 1;
		prob[nsym++] = (short)prb;
		remaining -= prb < 0 ? -prb : prb;
		if (prb == 0 && (nsym = zero_repeats(z, p, n, &bit, prob, nsym, maxsym)) < 0)
			return -1;
		if (remaining < 1)
			return fail(z, "zstd: bad FSE table description");
		while (remaining < threshold) {
			nbits--;
			threshold >>= 1;
		}
	}
	if ((bit + 7) / 8 > n)
		return fail(z, "zstd: truncated FSE table description");
	if (fse_build(z, f, prob, nsym, log) < 0)
		return -1;
	return (long)((bit + 7) / 8);
}

/* One FSE step: move *state on by reading its cell's bits.  0 when that
 * read ran past the start of the stream. */
static int
fse_step(Bits *b, const Fse *f, u32 *state)
{
	const Cell *c = &f->c[*state];

	*state = c->base + (u32)bits_read(b, c->bits);
	return b->pos >= 0;
}

/* ---- Huffman literals (4.2) ---- */

/* Huffman weights coded with FSE (4.2.1.2): two interleaved states over
 * one backward bitstream, until the stream runs out.  Returns the number
 * of weights, or -1. */
static int
huf_fse_weights(Z *z, const u8 *p, size_t n, u8 *w)
{
	Fse f;
	Bits b;
	u32 s1, s2;
	long used = fse_read(z, &f, p, n, 6, 12);
	int nw = 0;

	if (used < 0)
		return -1;
	if (bits_init(&b, p + used, n - (size_t)used) < 0)
		return fail(z, "zstd: bad Huffman weight stream");
	s1 = (u32)bits_read(&b, f.log);
	s2 = (u32)bits_read(&b, f.log);
	if (b.pos < 0)
		return fail(z, "zstd: truncated Huffman weight stream");
	for (;;) {
		if (nw > 252) /* this round could pass 255 weights */
			return fail(z, "zstd: too many Huffman weights");
		w[nw++] = f.c[s1].sym;
		if (!fse_step(&b, &f, &s1)) {
			w[nw++] = f.c[s2].sym;
			break;
		}
		w[nw++] = f.c[s2].sym;
		if (!fse_step(&b, &f, &s2)) {
			w[nw++] = f.c[s1].sym;
			break;
		}
	}
	return nw;
}

/* Build the decoding table from the weights w[0..nw) plus the implied last
 * one (4.2.1.3): prefix codes go to the lowest weights first, then by
 * symbol; a symbol of weight W takes 1 << (W - 1) cells. */
static int
huf_build(Z *z, u8 *w, int nw)
{
	Huf *h = &z->huf;
	u32 sum = 0, rest;
	int maxbits, pos = 0;

	for (int i = 0; i < nw; i++) {
		if (w[i] > HUF_MAXBITS)
			return fail(z, "zstd: Huffman weight too large");
		if (w[i])
			sum += 1u << (w[i] - 1);
	}
	if (!sum)
		return fail(z, "zstd: Huffman weights all zero");
	maxbits = hibit(sum) + 1;
	rest = (1u << maxbits) - sum;
	if (maxbits > HUF_MAXBITS || (rest & (rest - 1)))
		return fail(z, "zstd: bad Huffman weights");
	w[nw++] = (u8)(hibit(rest) + 1);
	for (int wt = 1; wt <= maxbits; wt++)
		for (int s = 0; s < nw; s++) {
			if (w[s] != wt)
				continue;
			for (int j = 0; j < 1 << (wt - 1); j++)
				h->c[pos + j] = (Cell){0, (u8)s, (u8)(maxbits + 1 - wt)};
			pos += 1 << (wt - 1);
		}
	h->bits = maxbits;
	h->ok = 1;
	return 0;
}

/* Huffman tree description (4.2.1).  Returns the bytes used, or -1. */
static long
huf_read(Z *z, const u8 *p, size_t n)
{
	u8 w[256];
	int nw;
	size_t used;

	if (n < 1)
		return fail(z, "zstd: missing Huffman tree description");
	if (p[0] >= 128) { /* direct: 4 bits per weight */
		nw = p[0] - 127;
		used = 1 + (size_t)(nw + 1) / 2;
		if (used > n)
			return fail(z, "zstd: truncated Huffman weights");
		for (int i = 0; i < nw; i++)
			w[i] = i & 1 ? p[1 + i / 2] & 15 : p[1 + i / 2] >> 4;
	} else {
		used = 1 + (size_t)p[0];
		if (used > n)
			return fail(z, "zstd: truncated Huffman weights");
		if ((nw = huf_fse_weights(z, p + 1, p[0], w)) < 0)
			return -1;
	}
	if (huf_build(z, w, nw) < 0)
		return -1;
	return (long)used;
}

/* Decode cnt literals from one backward Huffman stream (4.2.2), which
 * must be used up exactly. */
static int
huf_stream(Z *z, const u8 *p, size_t n, u8 *dst, size_t cnt)
{
	const Huf *h = &z->huf;
	Bits b;

	if (bits_init(&b, p, n) < 0)
		return fail(z, "zstd: bad Huffman stream");
	for (size_t i = 0; i < cnt; i++) {
		const Cell *c = &h->c[bits_peek(&b, h->bits)];

		dst[i] = c->sym;
		b.pos -= c->bits;
	}
	if (b.pos != 0)
		return fail(z, "zstd: Huffman stream not used up exactly");
	return 0;
}

/* One or four streams (4 after a 6-byte jump table, 3.1.1.3.1.6). */
static int
huf_streams(Z *z, const u8 *p, size_t n, int four, size_t cnt)
{
	size_t len[4], seg = (cnt + 3) / 4;

	if (!four)
		return huf_stream(z, p, n, z->litbuf, cnt);
	if (n < 6)
		return fail(z, "zstd: truncated jump table");
	len[0] = p[0] | p[1] << 8;
	len[1] = p[2] | p[3] << 8;
	len[2] = p[4] | p[5] << 8;
	if (len[0] + len[1] + len[2] > n - 6 || 3 * seg > cnt)
		return fail(z, "zstd: bad jump table");
	len[3] = n - 6 - len[0] - len[1] - len[2];
	p += 6;
	for (int i = 0; i < 4; i++) {
		size_t m = i < 3 ? seg : cnt - 3 * seg;

		if (huf_stream(z, p, len[i], z->litbuf + i * seg, m) < 0)
			return -1;
		p += len[i];
	}
	return 0;
}

/* ---- Literals section (3.1.1.3.1) ---- */

/* Raw or RLE literals; the header's size has 5, 12 or 20 bits. */
static long
literals_plain(Z *z, const u8 *p, size_t n)
{
	int fmt = p[0] >> 2 & 3, hdr = fmt == 1 ? 2 : fmt == 3 ? 3 : 1;
	size_t size;

	if (n < (size_t)hdr)
		return fail(z, "zstd: truncated literals header");
	size = hdr == 1 ? p[0] >> 3 : hdr == 2 ? p[0] >> 4 | p[1] << 4 : p[0] >> 4 | p[1] << 4 | p[2] << 12;
	if (size > BLOCK_MAX)
		return fail(z, "zstd: literals larger than a block");
	z->nlit = size;
	if ((p[0] & 3) == 0) { /* Raw_Literals_Block */
		if (size > n - hdr)
			return fail(z, "zstd: truncated raw literals");
		z->lit = p + hdr;
		return hdr + (long)size;
	}
	if (n - hdr < 1) /* RLE_Literals_Block */
		return fail(z, "zstd: truncated RLE literals");
	memset(z->litbuf, p[hdr], size);
	z->lit = z->litbuf;
	return hdr + 1;
}

/* Compressed or treeless literals: sizes of 10, 14 or 18 bits. */
static long
literals_huf(Z *z, const u8 *p, size_t n)
{
	int fmt = p[0] >> 2 & 3, hdr = fmt < 2 ? 3 : fmt + 2, sbits = fmt < 2 ? 10 : fmt * 4 + 6;
	u64 h = 0;
	size_t regen, comp;
	const u8 *q;

	if (n < (size_t)hdr)
		return fail(z, "zstd: truncated literals header");
	for (int i = 0; i < hdr; i++)
		h |= (u64)p[i] << 8 * i;
	regen = (size_t)(h >> 4) & ((1u << sbits) - 1);
	comp = (size_t)(h >> (4 + sbits)) & ((1u << sbits) - 1);
	if (regen > BLOCK_MAX || comp > n - hdr)
		return fail(z, "zstd: bad compressed literals sizes");
	q = p + hdr;
	if ((p[0] & 3) == 2) { /* Compressed_Literals_Block: a new tree */
		long t = huf_read(z, q, comp);

		if (t < 0)
			return -1;
		q += t;
		comp -= (size_t)t;
	} else if (!z->huf.ok) {
		return fail(z, "zstd: treeless literals without a previous Huffman tree");
	}
	if (huf_streams(z, q, comp, fmt != 0, regen) < 0)
		return -1;
	z->lit = z->litbuf;
	z->nlit = regen;
	return (long)(q - p) + (long)comp;
}

static long
literals(Z *z, const u8 *p, size_t n)
{
	if (n < 1)
		return fail(z, "zstd: empty compressed block");
	return (p[0] & 3) < 2 ? literals_plain(z, p, n) : literals_huf(z, p, n);
}

/* ---- Sequences section (3.1.1.3.2) ---- */

/* Predefined distributions (3.1.1.3.2.2) and the length codes' baselines
 * and extra bits (3.1.1.3.2.1.1). */
static const short LL_DEF[36] = {4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 2, 2,
				 2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1, -1, -1, -1, -1};
static const short ML_DEF[53] = {1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1,
				 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
				 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1};
static const short OF_DEF[29] = {1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1,
				 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1};
static const u32 LL_BASE[36] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18,
				20, 22, 24, 28, 32, 40, 48, 64, 128, 256, 512, 1024, 2048,
				4096, 8192, 16384, 32768, 65536};
static const u8 LL_BITS[36] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1,
			       1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
static const u32 ML_BASE[53] = {3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
				21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 37,
				39, 41, 43, 47, 51, 59, 67, 83, 99, 131, 259, 515, 1027, 2051,
				4099, 8195, 16387, 32771, 65539};
static const u8 ML_BITS[53] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
			       0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1,
			       2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};

typedef struct {
	const short *def; /* predefined distribution */
	int ndef, deflog;
	int maxlog, maxsym;
} Kind;

static const Kind LL_KIND = {LL_DEF, 36, 6, 9, 35};
static const Kind OF_KIND = {OF_DEF, 29, 5, 8, 31};
static const Kind ML_KIND = {ML_DEF, 53, 6, 9, 52};

/* Set up one of the three tables by its mode (3.1.1.3.2.1): predefined,
 * RLE, FSE-compressed or repeat.  Returns the bytes used, or -1. */
static long
seq_table(Z *z, Fse *f, int mode, const Kind *k, const u8 *p, size_t n)
{
	switch (mode) {
	case 0: /* Predefined_Mode */
		return fse_build(z, f, k->def, k->ndef, k->deflog);
	case 1: /* RLE_Mode: one symbol, no bits */
		if (n < 1 || p[0] > k->maxsym)
			return fail(z, "zstd: bad RLE sequence table");
		f->c[0] = (Cell){0, p[0], 0};
		f->log = 0;
		f->ok = 1;
		return 1;
	case 2: /* FSE_Compressed_Mode */
		return fse_read(z, f, p, n, k->maxlog, k->maxsym);
	default: /* Repeat_Mode */
		if (!f->ok)
			return fail(z, "zstd: repeated sequence table without a previous one");
		return 0;
	}
}

/* Offset_Value -> offset, updating the repeat offsets (3.1.2.5).  0 for
 * an invalid one. */
static u64
offset(Z *z, u64 v, u32 llen)
{
	u64 *rep = z->rep, off;
	int idx;

	if (v > 3) {
		off = v - 3;
		idx = 3;
	} else {
		idx = (int)v - (llen != 0); /* literal length 0 shifts the codes */
		if (idx == 0)
			return rep[0];
		off = idx == 3 ? rep[0] - 1 : rep[idx];
	}
	if (idx > 1)
		rep[2] = rep[1];
	rep[1] = rep[0];
	rep[0] = off;
	return off;
}

/* Sequence execution (3.1.1.4): llen literals, then a match of mlen bytes
 * `off` back, which must stay inside the frame. */
static int
execute(Z *z, u32 llen, u32 mlen, u64 off)
{
	u8 *o;
	const u8 *from;

	if (llen > z->nlit)
		return fail(z, "zstd: sequence uses more literals than the block has");
	if (llen > z->cap - z->o || mlen > z->cap - z->o - llen)
		return fail(z, "zstd: decoded data larger than the output buffer");
	memcpy(z->out + z->o, z->lit, llen);
	z->lit += llen;
	z->nlit -= llen;
	z->o += llen;
	if (!off || off > z->o - z->frame)
		return fail(z, "zstd: match offset outside the decoded data");
	o = z->out + z->o;
	from = o - off;
	if (off >= mlen) {
		memcpy(o, from, mlen);
	} else {
		for (u32 i = 0; i < mlen; i++) /* overlapping: repeats a pattern */
			o[i] = from[i];
	}
	z->o += mlen;
	return 0;
}

/* Decode and execute nseq sequences from the backward bitstream p[0..n)
 * (3.1.1.3.2.2): initial states LL, OF, ML; per sequence the extra bits of
 * offset, match length, literal length, then the state updates LL, ML,
 * OF (none after the last).  The stream must be used up exactly. */
static int
run_sequences(Z *z, const u8 *p, size_t n, u32 nseq)
{
	Bits b;
	u32 sll, sof, sml;

	if (bits_init(&b, p, n) < 0)
		return fail(z, "zstd: bad sequences bitstream");
	sll = (u32)bits_read(&b, z->ll.log);
	sof = (u32)bits_read(&b, z->of.log);
	sml = (u32)bits_read(&b, z->ml.log);
	for (u32 k = 0; k < nseq; k++) {
		int oc = z->of.c[sof].sym, mc = z->ml.c[sml].sym, lc = z->ll.c[sll].sym;
		u64 v = ((u64)1 << oc) + bits_read(&b, oc);
		u32 mlen = ML_BASE[mc] + (u32)bits_read(&b, ML_BITS[mc]);
		u32 llen = LL_BASE[lc] + (u32)bits_read(&b, LL_BITS[lc]);

		if (k + 1 < nseq) {
			fse_step(&b, &z->ll, &sll);
			fse_step(&b, &z->ml, &sml);
			fse_step(&b, &z->of, &sof);
		}
		if (b.pos < 0)
			return fail(z, "zstd: sequences bitstream overrun");
		if (execute(z, llen, mlen, offset(z, v, llen)) < 0)
			return -1;
	}
	if (b.pos != 0)
		return fail(z, "zstd: sequences bitstream not used up exactly");
	return 0;
}

/* The rest of the literals, after the last sequence. */
static int
flush_literals(Z *z)
{
	if (z->nlit > z->cap - z->o)
		return fail(z, "zstd: decoded data larger than the output buffer");
	memcpy(z->out + z->o, z->lit, z->nlit);
	z->o += z->nlit;
	z->nlit = 0;
	return 0;
}

static int
sequences(Z *z, const u8 *p, size_t n)
{
	u32 nseq;
	size_t i;
	long t;

	if (n < 1)
		return fail(z, "zstd: missing sequences section");
	if (p[0] < 128) {
		nseq = p[0];
		i = 1;
	} else if (p[0] < 255) {
		if (n < 2)
			return fail(z, "zstd: truncated sequences header");
		nseq = (u32)(p[0] - 128) << 8 | p[1];
		i = 2;
	} else {
		if (n < 3)
			return fail(z, "zstd: truncated sequences header");
		nseq = p[1] + ((u32)p[2] << 8) + 0x7F00;
		i = 3;
	}
	if (!nseq)
		return i == n ? flush_literals(z) : fail(z, "zstd: data after an empty sequences section");
	if (i >= n)
		return fail(z, "zstd: truncated sequences header");
	if (p[i] & 3)
		return fail(z, "zstd: reserved bits set in the sequence compression modes");
	{
		int modes = p[i++];

		if ((t = seq_table(z, &z->ll, modes >> 6, &LL_KIND, p + i, n - i)) < 0)
			return -1;
		i += (size_t)t;
		if ((t = seq_table(z, &z->of, modes >> 4 & 3, &OF_KIND, p + i, n - i)) < 0)
			return -1;
		i += (size_t)t;
		if ((t = seq_table(z, &z->ml, modes >> 2 & 3, &ML_KIND, p + i, n - i)) < 0)
			return -1;
		i += (size_t)t;
	}
	if (run_sequences(z, p + i, n - i, nseq) < 0)
		return -1;
	return flush_literals(z);
}

/* ---- Blocks and frames (3.1.1.2, 3.1.1.1) ---- */

/* One block; returns the bytes used (header included), or -1; *last is
 * set from Last_Block. */
static long
block(Z *z, const u8 *p, size_t n, int *last)
{
	u32 h, size;
	size_t start = z->o;
	long t;

	if (n < 3)
		return fail(z, "zstd: truncated block header");
	h = p[0] | p[1] << 8 | (u32)p[2] << 16;
	*last = h & 1;
	size = h >> 3;
	if (size > z->block_max)
		return fail(z, "zstd: block larger than the maximum block size");
	switch (h >> 1 & 3) {
	case 0: /* Raw_Block */
		if (size > n - 3)
			return fail(z, "zstd: truncated raw block");
		if (size > z->cap - z->o)
			return fail(z, "zstd: decoded data larger than the output buffer");
		memcpy(z->out + z->o, p + 3, size);
		z->o += size;
		return 3 + (long)size;
	case 1: /* RLE_Block: one byte, repeated Block_Size times */
		if (n < 4)
			return fail(z, "zstd: truncated RLE block");
		if (size > z->cap - z->o)
			return fail(z, "zstd: decoded data larger than the output buffer");
		memset(z->out + z->o, p[3], size);
		z->o += size;
		return 4;
	case 2: /* Compressed_Block */
		if (size > n - 3)
			return fail(z, "zstd: truncated compressed block");
		if ((t = literals(z, p + 3, size)) < 0)
			return -1;
		if (sequences(z, p + 3 + t, size - (size_t)t) < 0)
			return -1;
		if (z->o - start > z->block_max)
			return fail(z, "zstd: block decodes to more than the maximum block size");
		return 3 + (long)size;
	default:
		return fail(z, "zstd: reserved block type");
	}
}

typedef struct {
	u64 window, content; /* content: ~0 when absent */
	int checksum;
	size_t size; /* header bytes, magic included */
} Header;

/* Frame header (3.1.1.1). */
static int
frame_header(Z *z, const u8 *p, size_t n, Header *fh)
{
	static const int did_len[4] = {0, 1, 2, 4}, fcs_lens[4] = {0, 2, 4, 8};
	int d, single, fcs_len, dlen;
	size_t i = 5;
	u64 did = 0, fcs = 0;

	if (n < 5)
		return fail(z, "zstd: truncated frame header");
	d = p[4];
	single = d >> 5 & 1;
	fcs_len = d >> 6 ? fcs_lens[d >> 6] : single; /* 1 byte if single segment */
	dlen = did_len[d & 3];
	if (d & 8)
		return fail(z, "zstd: reserved bit set in the frame header");
	if (n - i < (size_t)(!single + dlen + fcs_len))
		return fail(z, "zstd: truncated frame header");
	if (!single) { /* Window_Descriptor: exponent and mantissa */
		int wlog = 10 + (p[i] >> 3);

		fh->window = ((u64)1 << wlog) + ((u64)1 << wlog >> 3) * (p[i] & 7);
		i++;
	}
	for (int j = 0; j < dlen; j++)
		did |= (u64)p[i++] << 8 * j;
	if (did)
		return fail(z, "zstd: dictionaries are not supported");
	for (int j = 0; j < fcs_len; j++)
		fcs |= (u64)p[i++] << 8 * j;
	if (fcs_len == 2)
		fcs += 256;
	fh->content = fcs_len ? fcs : ~(u64)0;
	if (single)
		fh->window = fcs;
	fh->checksum = d >> 2 & 1;
	fh->size = i;
	return 0;
}

/* One Zstandard frame at p (magic checked); returns the bytes used. */
static long
frame(Z *z, const u8 *p, size_t n)
{
	Header fh;
	size_t i;
	int last = 0;

	if (frame_header(z, p, n, &fh) < 0)
		return -1;
	if (fh.content != ~(u64)0 && fh.content > z->cap - z->o)
		return fail(z, "zstd: decoded data larger than the output buffer");
	z->frame = z->o;
	z->block_max = fh.window < BLOCK_MAX ? fh.window : BLOCK_MAX;
	z->rep[0] = 1; /* no dictionary: fresh state (3.1.2.5) */
	z->rep[1] = 4;
	z->rep[2] = 8;
	z->ll.ok = z->of.ok = z->ml.ok = z->huf.ok = 0;
	for (i = fh.size; !last;) {
		long t = block(z, p + i, n - i, &last);

		if (t < 0)
			return -1;
		i += (size_t)t;
	}
	if (fh.content != ~(u64)0 && z->o - z->frame != fh.content)
		return fail(z, "zstd: decoded size differs from the frame content size");
	if (fh.checksum) { /* low 32 bits of XXH64, seed 0 */
		if (n - i < 4)
			return fail(z, "zstd: truncated content checksum");
		if (le32(p + i) != (u32)zstd_xxh64(z->out + z->frame, z->o - z->frame, 0))
			return fail(z, "zstd: content checksum mismatch");
		i += 4;
	}
	return (long)i;
}

/* A skippable frame (3.1.2): magic, 4-byte size, that many bytes. */
static long
skippable(Z *z, const u8 *p, size_t n)
{
	u32 size;

	if (n < 8 || (size = le32(p + 4)) > n - 8)
		return fail(z, "zstd: truncated skippable frame");
	return 8 + (long)size;
}

long
zstd_decode(const u8 *in, size_t n, u8 *out, size_t cap, const char **err)
{
	Z *z = xmalloc(sizeof *z);
	size_t pos = 0;
	long r;

	z->out = out;
	z->cap = cap;
	z->o = 0;
	z->err = NULL;
	while (pos < n) {
		u32 magic = n - pos >= 4 ? le32(in + pos) : 0;
		long t;

		if (magic == ZSTD_MAGIC)
			t = frame(z, in + pos, n - pos);
		else if ((magic & ~15u) == SKIP_MAGIC)
			t = skippable(z, in + pos, n - pos);
		else
			t = fail(z, "zstd: not a Zstandard frame (bad magic number)");
		if (t < 0)
			break;
		pos += (size_t)t;
	}
	r = z->err ? -1 : (long)z->o;
	if (err)
		*err = z->err;
	free(z);
	return r;
}
