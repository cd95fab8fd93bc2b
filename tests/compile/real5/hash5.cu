// Integer hashing, radix digit counting and warp-level primitives, a fifth sweep (session 9,
// "breadth5"): murmur3 (32 and 64-bit finalizers), xxhash32/64 rounds (64-bit multiply,
// rotates via __funnelshift_l/r, __byte_perm), radix-sort digit counts (__ballot_sync,
// __popc, __match_any_sync, __reduce_add_sync, shared atomics), __syncwarp with partial masks,
// cache hints (__ldg, __ldcs, __ldlu, __ldcv, __stcs, __stwt, __stcg), written for
// openassembler's tests; .ptx: nvcc 13.0 --ptx -O3 -arch=sm_XX (gen.sh); //@ lines: launch specs.
#include <cstdint>

__device__ uint32_t rotl32(uint32_t x, int r) { return __funnelshift_l(x, x, r); }
__device__ uint64_t rotl64(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
__device__ uint32_t fmix32(uint32_t h)
{
	h ^= h >> 16; h *= 0x85ebca6bu; h ^= h >> 13; h *= 0xc2b2ae35u; h ^= h >> 16;
	return h;
}
__device__ uint64_t fmix64(uint64_t k)
{
	k ^= k >> 33; k *= 0xff51afd7ed558ccdull; k ^= k >> 33; k *= 0xc4ceb9fe1a85ec53ull; k ^= k >> 33;
	return k;
}

//@ murmur3 grid=2 block=64 | o:u32[512] check | key:u32[1024] rand(0,4294967295) | seed=u32:2463534242
extern "C" __global__ void murmur3(uint32_t *o, const uint32_t *key, uint32_t seed)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	const uint32_t *k = key + t * 8;
	uint32_t h = seed;
	int len = 4 * (1 + (t % 8));          /* 4..32 bytes */
	for (int i = 0; i < len / 4; i++) {
		uint32_t w = __ldg(&k[i]) * 0xcc9e2d51u;
		w = rotl32(w, 15) * 0x1b873593u;
		h ^= w;
		h = rotl32(h, 13) * 5 + 0xe6546b64u;
	}
	h ^= len;
	o[t * 4 + 0] = fmix32(h);
	uint64_t h64 = fmix64(((uint64_t)h << 32 | k[0]) ^ (uint64_t)seed * 0x9e3779b97f4a7c15ull);
	o[t * 4 + 1] = (uint32_t)h64;
	o[t * 4 + 2] = (uint32_t)(h64 >> 32);
	o[t * 4 + 3] = __funnelshift_r(k[1], k[2], k[3]) ^ __funnelshift_lc(k[4], k[5], k[6]) ^ __funnelshift_rc(k[6], k[7], t);
}

#define P64_1 0x9E3779B185EBCA87ull
#define P64_2 0xC2B2AE3D27D4EB4Full
#define P64_3 0x165667B19E3779F9ull
#define P64_4 0x85EBCA77C2B2AE63ull
#define P64_5 0x27D4EB2F165667C5ull
__device__ uint64_t xxround(uint64_t acc, uint64_t in)
{
	acc += in * P64_2;
	acc = rotl64(acc, 31);
	return acc * P64_1;
}
//@ xxhash64 grid=1 block=64 | o:u64[64] check | data:u64[512] rand(0,18446744073709551615) | bytes:u32[64] check
extern "C" __global__ void xxhash64(uint64_t *o, const uint64_t *data, uint32_t *bytes)
{
	int t = threadIdx.x;
	const uint64_t *p = data + t * 8;
	uint64_t v1 = P64_1 + P64_2, v2 = P64_2, v3 = 0, v4 = 0 - P64_1;
	for (int i = 0; i < 8; i += 4) {
		v1 = xxround(v1, __ldcs(&p[i]));
		v2 = xxround(v2, __ldlu(&p[i + 1]));
		v3 = xxround(v3, __ldcv(&p[i + 2]));
		v4 = xxround(v4, __ldcg(&p[i + 3]));
	}
	uint64_t h = rotl64(v1, 1) + rotl64(v2, 7) + rotl64(v3, 12) + rotl64(v4, 18);
	h += 64;
	h ^= h >> 33; h *= P64_2; h ^= h >> 29; h *= P64_3; h ^= h >> 32;
	__stcs(&o[t], h ^ P64_4 ^ P64_5);
	uint32_t lo = (uint32_t)h, hi = (uint32_t)(h >> 32);
	__stwt(&bytes[t], __byte_perm(lo, hi, 0x7351) ^ __byte_perm(lo, hi, 0x0426 + (t & 0x1111)));
}

//@ radix_digits grid=2 block=128 | hist:u32[512] check | rank:u32[256] check | keys:u32[256] rand(0,4294967295) | shift=u32:8
extern "C" __global__ void radix_digits(uint32_t *hist, uint32_t *rank, const uint32_t *keys, uint32_t shift)
{
	__shared__ uint32_t cnt[256];
	int t = threadIdx.x, i = blockIdx.x * blockDim.x + t, lane = t & 31;
	for (int d = t; d < 256; d += blockDim.x) cnt[d] = 0;
	__syncthreads();
	uint32_t k = keys[i], d = (k >> shift) & 0xff;
	/* warp-level: peers with the same digit, the leader adds the count */
	unsigned peers = __match_any_sync(0xffffffffu, d);
	int leader = __ffs(peers) - 1;
	unsigned below = __popc(peers & ((1u << lane) - 1));
	if (lane == leader) atomicAdd(&cnt[d], __popc(peers));
	/* bit-by-bit digit ranks with ballots (the 4 low bits of the digit) */
	unsigned same = 0xffffffffu;
	for (int b = 0; b < 4; b++) {
		unsigned m = __ballot_sync(0xffffffffu, (d >> b) & 1);
		same &= (d >> b) & 1 ? m : ~m;
	}
	unsigned tot = __reduce_add_sync(0xffffffffu, d);
	unsigned mx = __reduce_max_sync(0xffffffffu, k >> 8), mn = __reduce_min_sync(0xffffffffu, (int)k >> 8);
	unsigned ors = __reduce_or_sync(0xffffffffu, k), ands = __reduce_and_sync(0xffffffffu, k | d), xo = __reduce_xor_sync(0xffffffffu, k);
	__syncthreads();
	for (int e = t; e < 256; e += blockDim.x) hist[blockIdx.x * 256 + e] = cnt[e];
	rank[i] = below + (__popc(same & ((1u << lane) - 1)) << 8) + ((tot ^ mx ^ mn ^ ors ^ ands ^ xo) << 16);
}

//@ partial_sync grid=1 block=64 | o:u32[64] check | a:u32[64] rand(0,65535)
extern "C" __global__ void partial_sync(uint32_t *o, const uint32_t *a)
{
	__shared__ uint32_t s[64];
	int t = threadIdx.x, lane = t & 31;
	s[t] = a[t];
	__syncwarp();
	uint32_t v = s[t];
	if (lane < 16) {                         /* lower half-warp only */
		unsigned m = 0x0000ffffu;
		uint32_t w = s[t ^ 1];
		__syncwarp(m);
		s[t] = v + w;
		__syncwarp(m);
		v = s[t ^ 2] + __shfl_xor_sync(m, v, 4, 16);
		__syncwarp(m);
	} else {
		unsigned m = 0xffff0000u;
		v = __shfl_sync(m, v, 16 + ((lane + 3) & 15)) * 3 + __any_sync(m, v > 60000) + __all_sync(m, v & 1) * 2;
		__syncwarp(m);
	}
	if (lane & 1) {                          /* the odd lanes (__activemask() here is the schedule's: not checked) */
		unsigned m = __ballot_sync(0xaaaaaaaau, v & 4);
		v ^= __popc(m) << 20;
	}
	__syncwarp();
	o[t] = v;
}
