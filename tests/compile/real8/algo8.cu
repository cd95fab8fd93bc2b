// Kernels of fields the earlier sweeps lack, a eighth sweep (session 12, "real8"): SpMV CSR
// (scalar and warp-per-row), ELL; a BFS level step; SHA-256 and ChaCha20 block functions
// (rotates, funnel shifts, byte perms); varint decode and bit-unpacking; a 3-D 7-point stencil
// with a shared halo; N-body with rsqrtf; Mandelbrot in f64; k-means assignment; a bitonic
// sorting network on registers; 64-bit index math with div/mod by runtime values; radix-2 FFT
// butterflies on double2.  Written for openassembler's tests; .ptx: nvcc 13.0 --ptx with the
// flags of gen.sh; //@ lines: launch specs (../real2/gen-specs.py).
#include <stdint.h>

// CSR: 40 rows, row r has (r*7)%9 nonzeros (0..8), column indices in the values array.
//@ spmv_csr grid=2 block=32 | y:f32[64] check(1e-5) | rowptr:s32[41] values(0,0,7,13,19,20,26,32,33,39,45,46,52,58,59,65,71,72,78,84,85,91,97,98,104,110,111,117,123,124,130,136,137,143,149,150,156,162,163,169,175) | col:s32[175] rand(0,39) | val:f32[175] rand(-1,1) | x:f32[40] rand(-2,2) | nrows=s32:40
extern "C" __global__ void spmv_csr(float *y, const int *rowptr, const int *col, const float *val,
				    const float *x, int nrows)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r >= nrows) return;
	float s = 0;
	for (int j = rowptr[r]; j < rowptr[r + 1]; j++) s += val[j] * __ldg(&x[col[j]]);
	y[r] = s;
}

//@ spmv_csr_warp grid=11 block=128 | y:f32[48] check(1e-5) | rowptr:s32[41] values(0,0,7,13,19,20,26,32,33,39,45,46,52,58,59,65,71,72,78,84,85,91,97,98,104,110,111,117,123,124,130,136,137,143,149,150,156,162,163,169,175) | col:s32[175] rand(0,39) | val:f32[175] rand(-1,1) | x:f32[40] rand(-2,2) | nrows=s32:40
extern "C" __global__ void spmv_csr_warp(float *y, const int *rowptr, const int *col, const float *val,
					 const float *x, int nrows)
{
	int w = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
	if (w >= nrows) return;
	float s = 0;
	for (int j = rowptr[w] + lane; j < rowptr[w + 1]; j += 32) s += val[j] * x[col[j]];
	for (int o = 16; o; o >>= 1) s += __shfl_down_sync(0xffffffff, s, o);
	if (lane == 0) y[w] = s;
}

// ELL, column-major, width 6; col -1 is padding
//@ spmv_ell grid=2 block=64 | y:f32[100] check(1e-5) | col:s32[600] rand(-1,99) | val:f32[600] rand(-1,1) | x:f32[100] rand(-2,2) | n=s32:100
extern "C" __global__ void spmv_ell(float *y, const int *col, const float *val, const float *x, int n)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r >= n) return;
	float s = 0;
#pragma unroll
	for (int k = 0; k < 6; k++) {
		int c = col[k * n + r];
		if (c >= 0) s = fmaf(val[k * n + r], x[c], s);
	}
	y[r] = s;
}

// one BFS level: frontier vertices relax their neighbours (atomicCAS on the level array)
//@ bfs_step grid=2 block=64 | level:s32[100] check values(0,-1,-1,1,-1,-1,1,-1,1,-1,-1,-1,-1,1,-1,-1,-1,-1,-1,1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1,-1) | rowptr:s32[101] range(0,4) | adj:s32[400] rand(0,99) | changed:s32[1] check | n=s32:100 | cur=s32:1
extern "C" __global__ void bfs_step(int *level, const int *rowptr, const int *adj, int *changed, int n, int cur)
{
	int v = blockIdx.x * blockDim.x + threadIdx.x;
	if (v >= n || level[v] != cur) return;
	for (int e = rowptr[v]; e < rowptr[v + 1]; e++) {
		int u = adj[e];
		if (atomicCAS(&level[u], -1, cur + 1) == -1) atomicAdd(changed, 1);
	}
}

__constant__ uint32_t K256[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
__device__ __forceinline__ uint32_t rotr(uint32_t x, int n) { return __funnelshift_r(x, x, n); }
__device__ __forceinline__ uint32_t bswap(uint32_t x) { return __byte_perm(x, 0, 0x0123); }

// one SHA-256 compression per thread of a 64-byte block (big-endian words from bytes)
//@ sha256_block grid=2 block=40 | out:u32[640] check | msg:u32[1280] rand(0,4294967295) | n=s32:70
extern "C" __global__ void sha256_block(uint32_t *out, const uint32_t *msg, int n)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	if (t >= n) return;
	uint32_t w[64];
	for (int i = 0; i < 16; i++) w[i] = bswap(msg[(t % 80) * 16 + i]);
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
	uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
#pragma unroll 8
	for (int i = 0; i < 64; i++) {
		uint32_t S1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25), ch = (e & f) ^ (~e & g);
		uint32_t t1 = hh + S1 + ch + K256[i] + w[i];
		uint32_t S0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22), mj = (a & b) ^ (a & c) ^ (b & c);
		uint32_t t2 = S0 + mj;
		hh = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
	}
	uint32_t r[8] = {a, b, c, d, e, f, g, hh};
	for (int i = 0; i < 8; i++) out[t * 8 + i] = bswap(h[i] + r[i]);
}

#define QR(a, b, c, d) \
	a += b; d ^= a; d = __funnelshift_l(d, d, 16); c += d; b ^= c; b = __funnelshift_l(b, b, 12); \
	a += b; d ^= a; d = __byte_perm(d, 0, 0x2103); c += d; b ^= c; b = (b << 7) | (b >> 25);
// ChaCha20 block: key from global, counter per thread, 64-bit counter overflow into the nonce
//@ chacha20 grid=2 block=48 | out:u32[1536] check | key:u32[8] rand(0,4294967295) | nonce:u32[3] values(0,1,2) | ctr=u32:4294967240
extern "C" __global__ void chacha20(uint32_t *out, const uint32_t *key, const uint32_t *nonce, uint32_t ctr)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	uint32_t s[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
	for (int i = 0; i < 8; i++) s[4 + i] = key[i];
	uint64_t c = (uint64_t)ctr + t;
	s[12] = (uint32_t)c; s[13] = nonce[0] + (uint32_t)(c >> 32); s[14] = nonce[1]; s[15] = nonce[2];
	uint32_t x[16];
	for (int i = 0; i < 16; i++) x[i] = s[i];
	for (int r = 0; r < 10; r++) {
		QR(x[0], x[4], x[8], x[12]) QR(x[1], x[5], x[9], x[13]) QR(x[2], x[6], x[10], x[14]) QR(x[3], x[7], x[11], x[15])
		QR(x[0], x[5], x[10], x[15]) QR(x[1], x[6], x[11], x[12]) QR(x[2], x[7], x[8], x[13]) QR(x[3], x[4], x[9], x[14])
	}
	for (int i = 0; i < 16; i++) out[t * 16 + i] = x[i] + s[i];
}

// LEB128 varint decode: thread t decodes the varint that starts at off[t] (offsets from a prefix
// pass), up to 10 bytes, 64-bit result; zigzag decode as a second output
//@ varint_decode grid=2 block=32 | v:u64[64] check | zz:s64[64] check | bytes:u8[640] rand(0,255) | n=s32:50
extern "C" __global__ void varint_decode(uint64_t *v, int64_t *zz, const uint8_t *bytes, int n)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	if (t >= n) return;
	const uint8_t *p = bytes + t * 11 + (t & 3);
	uint64_t r = 0;
	int sh = 0;
	for (int i = 0; i < 10; i++) {
		uint8_t b = p[i];
		r |= (uint64_t)(b & 0x7f) << sh;
		sh += 7;
		if (!(b & 0x80)) break;
	}
	v[t] = r;
	zz[t] = (int64_t)(r >> 1) ^ -(int64_t)(r & 1);
}

// bit-unpack: values of BITS bits (runtime width 1..32) packed little-endian into 32-bit words
//@ bitunpack grid=3 block=64 | out:u32[192] check | in:u32[200] rand(0,4294967295) | bits=s32:13 | n=s32:170
extern "C" __global__ void bitunpack(uint32_t *out, const uint32_t *in, int bits, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	uint64_t bit = (uint64_t)i * bits;
	uint32_t w = bit >> 5, o = bit & 31;
	uint64_t two = ((uint64_t)in[w + 1] << 32) | in[w];
	uint32_t mask = bits == 32 ? 0xffffffffu : (1u << bits) - 1;
	out[i] = (uint32_t)(two >> o) & mask;
}

// 3-D 7-point stencil: a 2-D block marches in z with a shared xy tile and halo (12x12x8 grid)
#define SX 12
#define SY 12
#define SZ 8
//@ stencil3d grid=2,2 block=8,8 | o:f32[1152] check(1e-5) | in:f32[1152] rand(-1,1)
extern "C" __global__ void stencil3d(float *o, const float *in)
{
	__shared__ float t[10][10];
	int tx = threadIdx.x, ty = threadIdx.y;
	int x = blockIdx.x * 8 + tx - 2 * blockIdx.x, y = blockIdx.y * 8 + ty - 2 * blockIdx.y; // overlapping tiles
	bool in_x = x < SX, in_y = y < SY;
	float below = 0, cur = 0, above;
	if (in_x && in_y) cur = in[y * SX + x];
	for (int z = 0; z < SZ; z++) {
		above = (z + 1 < SZ && in_x && in_y) ? in[((z + 1) * SY + y) * SX + x] : 0.f;
		__syncthreads();
		t[ty + 1][tx + 1] = cur;
		if (tx == 0) t[ty + 1][0] = (x > 0 && in_y) ? in[(z * SY + y) * SX + x - 1] : 0.f;
		if (tx == 7) t[ty + 1][9] = (x + 1 < SX && in_y) ? in[(z * SY + y) * SX + x + 1] : 0.f;
		if (ty == 0) t[0][tx + 1] = (y > 0 && in_x) ? in[(z * SY + y - 1) * SX + x] : 0.f;
		if (ty == 7) t[9][tx + 1] = (y + 1 < SY && in_x) ? in[(z * SY + y + 1) * SX + x] : 0.f;
		__syncthreads();
		if (in_x && in_y && tx > 0 && tx < 7 && ty > 0 && ty < 7 || (in_x && in_y && blockIdx.x == 0 && tx == 0) ||
		    (in_x && in_y && blockIdx.y == 0 && ty == 0))
			o[(z * SY + y) * SX + x] = -6.f * cur + t[ty + 1][tx] + t[ty + 1][tx + 2] + t[ty][tx + 1] +
						   t[ty + 2][tx + 1] + below + above;
		below = cur;
		cur = above;
	}
}

// N-body: all-pairs with a shared tile, softened, rsqrtf; n not a multiple of the block
//@ nbody grid=2 block=64 | acc:f32[400] check(1e-3) | pos:f32[400] rand(-1,1) | n=s32:100
extern "C" __global__ void nbody(float4 *acc, const float4 *pos, int n)
{
	__shared__ float4 sh[64];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float4 p = i < n ? pos[i] : make_float4(0, 0, 0, 0);
	float3 a = {0, 0, 0};
	for (int tile = 0; tile < n; tile += 64) {
		int j = tile + threadIdx.x;
		sh[threadIdx.x] = j < n ? pos[j] : make_float4(0, 0, 0, 0);
		__syncthreads();
		for (int k = 0; k < 64 && tile + k < n; k++) {
			float4 q = sh[k];
			float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
			float d2 = dx * dx + dy * dy + dz * dz + 0.01f, inv = rsqrtf(d2), s = fabsf(q.w) * inv * inv * inv;
			a.x += dx * s; a.y += dy * s; a.z += dz * s;
		}
		__syncthreads();
	}
	if (i < n) acc[i] = make_float4(a.x, a.y, a.z, 0);
}

// Mandelbrot in double, escape count; 2-D grid with partial blocks
//@ mandel64 grid=3,2 block=16,8 | it:s32[880] check | w=s32:40 | h=s32:22 | maxit=s32:200
extern "C" __global__ void mandel64(int *it, int w, int h, int maxit)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x >= w || y >= h) return;
	double cr = -2.0 + 2.6 * x / (w - 1), ci = -1.2 + 2.4 * y / (h - 1), zr = 0, zi = 0;
	int k = 0;
	while (k < maxit && zr * zr + zi * zi <= 4.0) {
		double t = zr * zr - zi * zi + cr;
		zi = 2.0 * zr * zi + ci;
		zr = t;
		k++;
	}
	it[y * w + x] = k;
}

// k-means assignment with centroids in shared memory (dynamic count), argmin with ties to the lowest
//@ kmeans_assign grid=3 block=64 | memb:s32[150] check | cnt:s32[7] check | pts:f32[600] rand(0,4) | cen:f32[28] rand(0,4) | n=s32:150 | k=s32:7 | d=s32:4
extern "C" __global__ void kmeans_assign(int *memb, int *cnt, const float *pts, const float *cen, int n, int k, int d)
{
	__shared__ float c[256];
	for (int i = threadIdx.x; i < k * d; i += blockDim.x) c[i] = cen[i];
	__syncthreads();
	int p = blockIdx.x * blockDim.x + threadIdx.x;
	if (p >= n) return;
	float best = 3.4e38f;
	int bi = 0;
	for (int j = 0; j < k; j++) {
		float s = 0;
		for (int q = 0; q < d; q++) {
			float diff = pts[p * d + q] - c[j * d + q];
			s += diff * diff;
		}
		if (s < best) { best = s; bi = j; }
	}
	memb[p] = bi;
	atomicAdd(&cnt[bi], 1);
}

// bitonic sort of 16 keys held in registers (fully unrolled compare-exchange network), per thread
//@ bitonic_regs grid=1 block=40 | out:s32[640] check | in:s32[640] rand(-1000,1000)
extern "C" __global__ void bitonic_regs(int *out, const int *in)
{
	int t = threadIdx.x, v[16];
#pragma unroll
	for (int i = 0; i < 16; i++) v[i] = in[t * 16 + i];
#pragma unroll
	for (int k = 2; k <= 16; k <<= 1)
#pragma unroll
		for (int j = k >> 1; j > 0; j >>= 1)
#pragma unroll
			for (int i = 0; i < 16; i++) {
				int l = i ^ j;
				if (l > i) {
					bool up = (i & k) == 0;
					int a = v[i], b = v[l];
					if ((a > b) == up) { v[i] = b; v[l] = a; }
				}
			}
#pragma unroll
	for (int i = 0; i < 16; i++) out[t * 16 + i] = v[i];
}

// index math: 64-bit and 32-bit div/mod by runtime extents (a 4-D tensor transposition), signed floor div
//@ index_math grid=3 block=64 | o:s64[180] check | m:s32[180] check | e:s64[4] values(3,5,4,3) | n=s32:180 | dv=s32:-7
extern "C" __global__ void index_math(int64_t *o, int *m, const int64_t *e, int n, int dv)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n) return;
	int64_t lin = (int64_t)i * 1000003 + 17, d0 = e[0], d1 = e[1], d2 = e[2], d3 = e[3];
	int64_t idx = i;
	int64_t c3 = idx % d3; idx /= d3;
	int64_t c2 = idx % d2; idx /= d2;
	int64_t c1 = idx % d1; idx /= d1;
	int64_t c0 = idx % d0;
	o[i] = ((c3 * d2 + c2) * d1 + c1) * d0 + c0 + (lin / (d1 * d2 + 1)) * 0 + (lin % (int64_t)(i + 1));
	int q = (i - 90) / dv, r = (i - 90) % dv;
	int fl = q - ((r != 0) && ((r < 0) != (dv < 0)));
	m[i] = fl * 1000 + (int)((unsigned)(i * 2654435761u) % (unsigned)(n - i)) + (i - 90) / (n - 2 * i == 0 ? 1 : n - 2 * i);
}

// radix-2 DIT FFT of 64 points per block on double2 in shared memory, twiddles by sincospi
//@ fft64 grid=2 block=32 | out:f64[256] check(1e-9) | in:f64[256] rand(-1,1)
extern "C" __global__ void fft64(double2 *out, const double2 *in)
{
	__shared__ double2 s[64];
	int t = threadIdx.x;
	const double2 *src = in + blockIdx.x * 64;
	for (int i = t; i < 64; i += 32) s[__brev(i) >> 26] = src[i];
	__syncthreads();
	for (int len = 2; len <= 64; len <<= 1) {
		int half = len >> 1, grp = t / half, k = t % half, i0 = grp * len + k, i1 = i0 + half;
		double sn, cs;
		sincospi(-2.0 * k / len, &sn, &cs);
		double2 a = s[i0], b = s[i1];
		double2 wb = make_double2(b.x * cs - b.y * sn, b.x * sn + b.y * cs);
		__syncthreads();
		s[i0] = make_double2(a.x + wb.x, a.y + wb.y);
		s[i1] = make_double2(a.x - wb.x, a.y - wb.y);
		__syncthreads();
	}
	for (int i = t; i < 64; i += 32) out[blockIdx.x * 64 + i] = s[i];
}
