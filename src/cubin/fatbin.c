/* fatbin.c -- find the cubins inside a fat binary (magic 0xBA55ED50) or
 * inside a host executable/shared object/object file (its .nv_fatbin
 * section, or __nv_relfatbin in objects compiled with nvcc -rdc=true).
 * Entry header (64 bytes, observed with nvcc 13.0 -fatbin):
 *   u16 kind (1 PTX, 2 ELF), u16 ?, u32 header size, u64 payload size,
 *   +0x10 u32 compressed size, u32 ?, u16 ?, u16 ?, +0x1c u32 arch (80, 90),
 *   u32 name offset, u32 name length, +0x28 u64 flags (0x2000 LZ4,
 *   0x8000 zstd), u64 0, +0x38 u64 decompressed size.
 * LZ4 payloads are decoded here, zstd ones by zstd.c. */
#include <stdlib.h>
#include <string.h>

#include "cubin/cubin.h"
#include "cubin/elfio.h"
#include "cubin/zstd.h"

#define FATBIN_MAGIC 0xBA55ED50u
#define FLAG_LZ4 0x2000
#define FLAG_ZSTD 0x8000
#define MAXOUT (1u << 30)

/* LZ4 block format; -1 on malformed input. */
static long
lz4_block(const u8 *in, size_t n, u8 *out, size_t cap)
{
	size_t i = 0, o = 0;

	while (i < n) {
		u32 tok = in[i++];
		size_t lit = tok >> 4, mlen, off;

		if (lit == 15) {
			u8 b;
			do {
				if (i >= n)
					return -1;
				b = in[i++];
				lit += b;
			} while (b == 255);
		}
		if (lit > n - i || lit > cap - o)
			return -1;
		memcpy(out + o, in + i, lit);
		i += lit;
		o += lit;
		if (i >= n)
			break; /* last sequence has no match */
		if (n - i < 2)
			return -1;
		off = in[i] | in[i + 1] << 8;
		i += 2;
		mlen = (tok & 15) + 4;
		if ((tok & 15) == 15) {
			u8 b;
			do {
				if (i >= n)
					return -1;
				b = in[i++];
				mlen += b;
			} while (b == 255);
		}
		if (!off || off > o || mlen > cap - o)
			return -1;
		while (mlen--) {
			out[o] = out[o - off];
			o++;
		}
	}
	return (long)o;
}

typedef VEC(FatEntry) FatVec;

static int
entries(const char *path, const u8 *p, size_t n, FatVec *out)
{
	size_t pos = 0;

	while (n - pos >= 16 && rd32(p + pos) == FATBIN_MAGIC) {
		u64 hsz = rd16(p + pos + 6), fsz = rd64(p + pos + 8), e, end;

		if (hsz < 16 || fsz > n - pos || hsz > n - pos - fsz) {
			diag(path, "fat binary at 0x%zx: size 0x%llx runs past the end", pos, (unsigned long long)fsz);
			return -1;
		}
		e = pos + hsz;
		end = e + fsz;
		while (e < end) {
			const u8 *h = p + e;
			u64 ehs, psz, flags, dsz;
			FatEntry f = {0};
			const char *err = "corrupt LZ4 data";
			long got;

			if (end - e < 64) {
				diag(path, "fat binary entry at 0x%llx is truncated", (unsigned long long)e);
				return -1;
			}
			ehs = rd32(h + 4);
			psz = rd64(h + 8);
			if (ehs < 64 || ehs > end - e || psz > end - e - ehs) {
				diag(path, "fat binary entry at 0x%llx: sizes run past the end", (unsigned long long)e);
				return -1;
			}
			f.kind = rd16(h);
			f.sm = rd32(h + 0x1c);
			flags = rd64(h + 0x28);
			dsz = rd64(h + 0x38);
			if (flags & (FLAG_LZ4 | FLAG_ZSTD)) {
				u64 csz = rd32(h + 0x10);

				if (!dsz || dsz > MAXOUT || csz > psz) {
					diag(path, "fat binary entry at 0x%llx: bad compressed sizes", (unsigned long long)e);
					return -1;
				}
				f.data = xmalloc(dsz);
				got = flags & FLAG_LZ4 ? lz4_block(h + ehs, csz, f.data, dsz)
						       : zstd_decode(h + ehs, csz, f.data, dsz, &err);
				if (got < 0 || (u64)got != dsz) {
					if (got >= 0)
						err = "decoded size differs from the header's";
					diag(path, "fat binary entry at 0x%llx: %s", (unsigned long long)e, err);
					free(f.data);
					return -1;
				}
				f.size = dsz;
			} else {
				f.data = xmalloc(psz ? psz : 1);
				memcpy(f.data, h + ehs, psz);
				f.size = psz;
			}
			vec_push(out, f);
			e += ehs + psz;
		}
		pos = end;
		while (pos < n && pos % 8) /* fatbins in .nv_fatbin are 8-aligned */
			pos++;
	}
	return 0;
}

/* The .nv_fatbin (or, in nvcc -rdc objects, __nv_relfatbin) section of a
 * host ELF64, or NULL. */
static const u8 *
host_section(const u8 *p, size_t n, size_t *len)
{
	u64 shoff, i;
	u32 shnum, strx;
	const u8 *strs;
	u64 stroff, strsz;

	if (n < 64 || memcmp(p, "\177ELF", 4) || p[4] != 2 || p[5] != 1)
		return NULL;
	shoff = rd64(p + 40);
	shnum = rd16(p + 60);
	strx = rd16(p + 62);
	if (shoff > n || (u64)shnum * 64 > n - shoff || strx >= shnum)
		return NULL;
	stroff = rd64(p + shoff + 64 * (u64)strx + 24);
	strsz = rd64(p + shoff + 64 * (u64)strx + 32);
	if (stroff > n || strsz > n - stroff)
		return NULL;
	strs = p + stroff;
	for (i = 0; i < shnum; i++) {
		const u8 *h = p + shoff + 64 * i;
		u32 nm = rd32(h);
		u64 off = rd64(h + 24), sz = rd64(h + 32);

		if (nm < strsz && ((strsz - nm >= 11 && !memcmp(strs + nm, ".nv_fatbin", 11)) ||
				   (strsz - nm >= 15 && !memcmp(strs + nm, "__nv_relfatbin", 15))) &&
		    off <= n && sz <= n - off && rd32(h + 4) != SHT_NOBITS) {
			*len = sz;
			return p + off;
		}
	}
	return NULL;
}

int
fatbin_extract(const char *path, const u8 *p, size_t n, FatEntry **out)
{
	FatVec v = {0};
	const u8 *q = p;
	size_t len = n;

	*out = NULL;
	if (n >= 4 && rd32(p) != FATBIN_MAGIC) {
		q = host_section(p, n, &len);
		if (!q)
			return 0;
		if (len < 16 || rd32(q) != FATBIN_MAGIC) {
			diag(path, ".nv_fatbin section does not start with a fat binary header");
			return -1;
		}
	}
	if (entries(path, q, len, &v) < 0) {
		fatbin_free(v.v, v.n);
		return -1;
	}
	*out = v.v;
	return v.n;
}

void
fatbin_free(FatEntry *e, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(e[i].data);
	free(e);
}
