// CUDA-samples-style kernels (matrixMul, transpose, reduction #0-#6, scan, histogram,
// bitonic sort, merge ranks, separable convolution, sobel, nbody, BlackScholes,
// fastWalsh, quasirandom, atomic intrinsics), written for openassembler's tests.
// The .ptx files are nvcc 13.0 --ptx -O3 -arch=sm_XX of this file.
// Lines starting with //@ are the launch specs (tests/compile/real2/gen-specs.py).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

//@ mm16 grid=2,2 block=16,16 | C:f32[1024] check | A:f32[1024] rand(-1,1) | B:f32[1024] rand(-1,1) | wA=s32:32 | wB=s32:32
template <int BS> __device__ void matmul(float *C, const float *A, const float *B, int wA, int wB)
{
	int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
	int aBegin = wA * BS * by, aEnd = aBegin + wA - 1, bBegin = BS * bx;
	float c = 0;
	for (int a = aBegin, b = bBegin; a <= aEnd; a += BS, b += BS * wB) {
		__shared__ float As[BS][BS], Bs[BS][BS];
		As[ty][tx] = A[a + wA * ty + tx];
		Bs[ty][tx] = B[b + wB * ty + tx];
		__syncthreads();
#pragma unroll
		for (int k = 0; k < BS; ++k) c += As[ty][k] * Bs[k][tx];
		__syncthreads();
	}
	C[wB * BS * by + BS * bx + wB * ty + tx] = c;
}
extern "C" __global__ void mm16(float *C, const float *A, const float *B, int wA, int wB) { matmul<16>(C, A, B, wA, wB); }

//@ tr_naive grid=2,2 block=16,16 | o:f32[1024] check | i:f32[1024] range(0,1) | w=s32:32 | h=s32:32
extern "C" __global__ void tr_naive(float *o, const float *i, int w, int h)
{
	int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
	if (x < w && y < h) o[x * h + y] = i[y * w + x];
}
//@ tr_nobank grid=2,2 block=32,8 | o:f32[4096] check | i:f32[4096] range(0,1) | w=s32:64 | h=s32:64
extern "C" __global__ void tr_nobank(float *o, const float *in, int w, int h)
{
	__shared__ float tile[32][33];
	int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
	for (int j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
	__syncthreads();
	x = blockIdx.y * 32 + threadIdx.x; y = blockIdx.x * 32 + threadIdx.y;
	for (int j = 0; j < 32; j += 8) o[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}

// reduction kernels #0..#6 of the classic sample
//@ red0 grid=4 block=128 | o:s32[4] check | i:s32[512] rand(-1000,1000) | n=u32:512
extern "C" __global__ void red0(int *o, const int *in, unsigned n)
{
	extern __shared__ int s0[];
	__shared__ int sd[128];
	unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
	sd[t] = i < n ? in[i] : 0;
	__syncthreads();
	for (unsigned s = 1; s < blockDim.x; s *= 2) {
		if (t % (2 * s) == 0) sd[t] += sd[t + s];
		__syncthreads();
	}
	if (t == 0) o[blockIdx.x] = sd[0];
}
//@ red3 grid=2 block=128 | o:f32[2] check(1e-5) | i:f32[512] rand(-1,1) | n=u32:512
extern "C" __global__ void red3(float *o, const float *in, unsigned n)
{
	__shared__ float sd[128];
	unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x * 2 + t;
	float s = i < n ? in[i] : 0;
	if (i + blockDim.x < n) s += in[i + blockDim.x];
	sd[t] = s;
	__syncthreads();
	for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
		if (t < k) sd[t] = s = s + sd[t + k];
		__syncthreads();
	}
	if (t == 0) o[blockIdx.x] = s;
}
template <unsigned BS, bool Pow2> __device__ void reduce6(const float *in, float *o, unsigned n)
{
	cg::thread_block cta = cg::this_thread_block();
	__shared__ float sd[BS];
	unsigned t = threadIdx.x, grid = BS * 2 * gridDim.x;
	float s = 0;
	unsigned i = blockIdx.x * BS * 2 + t;
	while (i < n) {
		s += in[i];
		if (Pow2 || i + BS < n) s += in[i + BS];
		i += grid;
	}
	sd[t] = s;
	cg::sync(cta);
	if (BS >= 256 && t < 128) sd[t] = s = s + sd[t + 128];
	cg::sync(cta);
	if (BS >= 128 && t < 64) sd[t] = s = s + sd[t + 64];
	cg::sync(cta);
	cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cta);
	if (cta.thread_rank() < 32) {
		if (BS >= 64) s += sd[t + 32];
		for (int off = tile.size() / 2; off > 0; off /= 2) s += tile.shfl_down(s, off);
	}
	if (cta.thread_rank() == 0) o[blockIdx.x] = s;
}
//@ red6 grid=3 block=256 | o:f32[3] check(1e-5) | i:f32[5000] rand(-1,1) | n=u32:5000
extern "C" __global__ void red6(float *o, const float *in, unsigned n) { reduce6<256, false>(in, o, n); }

//@ cg_tiles grid=2 block=128 | o:s32[512] check | i:s32[256] rand(-50,50)
extern "C" __global__ void cg_tiles(int *o, const int *in)
{
	cg::thread_block b = cg::this_thread_block();
	int g = blockIdx.x * blockDim.x + threadIdx.x, v = in[g];
	cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(b);
	int s = v;
	for (int k = t8.size() / 2; k > 0; k /= 2) s += t8.shfl_xor(s, k);
	cg::thread_group t4 = cg::tiled_partition(b, 4);
	int r4 = t4.thread_rank();
	o[g] = s * 16 + r4;
	if (v > 0) {
		cg::coalesced_group act = cg::coalesced_threads();
		int rank = act.thread_rank();
		int tot = act.size();
		int first = act.shfl(v, 0);
		o[256 + g] = rank * 1000 + tot * 10 + (first & 7);
	} else
		o[256 + g] = -1;
}
//@ cg_labeled grid=1 block=128 | o:s32[256] check | i:s32[128] rand(0,5)
extern "C" __global__ void cg_labeled(int *o, const int *in)
{
	cg::thread_block b = cg::this_thread_block();
	cg::thread_block_tile<32> w = cg::tiled_partition<32>(b);
	int v = in[threadIdx.x];
	cg::coalesced_group grp = cg::labeled_partition(w, v);
	o[threadIdx.x] = grp.size() * 100 + grp.thread_rank();
	cg::coalesced_group bin = cg::binary_partition(w, v & 1);
	o[128 + threadIdx.x] = bin.size() * 100 + bin.thread_rank();
}

//@ scan_hs grid=2 block=256 | o:s32[512] check | i:s32[512] rand(-9,9)
extern "C" __global__ void scan_hs(int *o, const int *in)
{
	__shared__ int buf[2][256];
	int t = threadIdx.x, pout = 0, pin = 1;
	buf[0][t] = in[blockIdx.x * 256 + t];
	__syncthreads();
	for (int off = 1; off < 256; off *= 2) {
		pout = 1 - pout; pin = 1 - pout;
		buf[pout][t] = t >= off ? buf[pin][t] + buf[pin][t - off] : buf[pin][t];
		__syncthreads();
	}
	o[blockIdx.x * 256 + t] = buf[pout][t];
}

//@ hist64 grid=4 block=64 | h:u32[256] check | d:u32[1024] rand(0,4294967295) | n=s32:1024
extern "C" __global__ void hist64(unsigned *h, const unsigned *d, int n)
{
	__shared__ unsigned char s[64 * 64];
	for (int i = 0; i < 64; i++) s[i * 64 + threadIdx.x] = 0;
	__syncthreads();
	for (int i = blockIdx.x * 64 + threadIdx.x; i < n; i += 64 * gridDim.x) {
		unsigned v = d[i];
		s[((v >> 2) & 63) * 64 + threadIdx.x]++;
		s[((v >> 10) & 63) * 64 + threadIdx.x]++;
		s[((v >> 18) & 63) * 64 + threadIdx.x]++;
		s[((v >> 26) & 63) * 64 + threadIdx.x]++;
	}
	__syncthreads();
	unsigned sum = 0;
	for (int i = 0; i < 64; i++) sum += s[threadIdx.x * 64 + ((i + threadIdx.x) & 63)];
	h[blockIdx.x * 64 + threadIdx.x] = sum;
}
//@ hist256 grid=4 block=192 | h:u32[256] check | d:u32[2048] rand(0,4294967295) | n=s32:2048
extern "C" __global__ void hist256(unsigned *h, const unsigned *d, int n)
{
	__shared__ unsigned s[6 * 256];
	unsigned *ws = s + (threadIdx.x >> 5) * 256;
	for (int i = threadIdx.x; i < 6 * 256; i += blockDim.x) s[i] = 0;
	__syncthreads();
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
		unsigned v = d[i];
		for (int b = 0; b < 4; b++) atomicAdd(ws + ((v >> (8 * b)) & 255), 1u);
	}
	__syncthreads();
	for (int bin = threadIdx.x; bin < 256; bin += blockDim.x) {
		unsigned sum = 0;
		for (int w = 0; w < 6; w++) sum += s[w * 256 + bin];
		atomicAdd(h + bin, sum);
	}
}

//@ bitonic grid=2 block=256 | k:u32[1024] rand(0,100000) check | v:u32[1024] range(0,1) check | dir=u32:1
extern "C" __global__ void bitonic(unsigned *k, unsigned *v, unsigned dir)
{
	__shared__ unsigned sk[512], sv[512];
	k += blockIdx.x * 512; v += blockIdx.x * 512;
	int t = threadIdx.x;
	sk[t] = k[t]; sv[t] = v[t]; sk[t + 256] = k[t + 256]; sv[t + 256] = v[t + 256];
	for (unsigned size = 2; size < 512; size <<= 1) {
		unsigned ddd = dir ^ ((t & (size / 2)) != 0);
		for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
			__syncthreads();
			unsigned pos = 2 * t - (t & (stride - 1));
			if ((sk[pos] > sk[pos + stride]) == ddd) {
				unsigned a = sk[pos]; sk[pos] = sk[pos + stride]; sk[pos + stride] = a;
				a = sv[pos]; sv[pos] = sv[pos + stride]; sv[pos + stride] = a;
			}
		}
	}
	for (unsigned stride = 256; stride > 0; stride >>= 1) {
		__syncthreads();
		unsigned pos = 2 * t - (t & (stride - 1));
		if ((sk[pos] > sk[pos + stride]) == dir) {
			unsigned a = sk[pos]; sk[pos] = sk[pos + stride]; sk[pos + stride] = a;
			a = sv[pos]; sv[pos] = sv[pos + stride]; sv[pos + stride] = a;
		}
	}
	__syncthreads();
	k[t] = sk[t]; v[t] = sv[t]; k[t + 256] = sk[t + 256]; v[t + 256] = sv[t + 256];
}

// mergeSort's rank step: position of each element of a sorted run in the other run (binary search)
__device__ unsigned bsearch_incl(unsigned val, const unsigned *d, unsigned L, unsigned stride, unsigned sub)
{
	if (L == 0) return 0;
	unsigned pos = 0;
	for (; stride > 0; stride >>= 1) {
		unsigned np = min(pos + stride, L);
		if (d[np - 1] - sub <= val) pos = np;
	}
	return pos;
}
__device__ unsigned bsearch_excl(unsigned val, const unsigned *d, unsigned L, unsigned stride, unsigned sub)
{
	if (L == 0) return 0;
	unsigned pos = 0;
	for (; stride > 0; stride >>= 1) {
		unsigned np = min(pos + stride, L);
		if (d[np - 1] - sub < val) pos = np;
	}
	return pos;
}
//@ merge_runs grid=2 block=128 | o:u32[512] check | a:u32[512] range(0,3)
extern "C" __global__ void merge_runs(unsigned *o, const unsigned *a)
{
	// a holds sorted runs of 128; merge run pairs (2*b, 2*b+1) of each block
	const unsigned *A = a + blockIdx.x * 256, *B = A + 128;
	unsigned t = threadIdx.x;
	unsigned ka = A[t], kb = B[t] - 383; // A: 3t, B: 3t+1 (range(0,3) input)
	unsigned ra = bsearch_excl(ka, B, 128, 128, 383) + t;
	unsigned rb = bsearch_incl(kb, A, 128, 128, 0) + t;
	o[blockIdx.x * 256 + ra] = ka;
	o[blockIdx.x * 256 + rb] = kb;
}

#define KR 8
__constant__ float c_Kernel[2 * KR + 1] = {0.01f, 0.02f, 0.03f, 0.04f, 0.05f, 0.06f, 0.07f, 0.08f, 0.2f, 0.08f, 0.07f, 0.06f, 0.05f, 0.04f, 0.03f, 0.02f, 0.01f};
//@ conv_rows grid=2,4 block=16,4 | o:f32[1024] check | i:f32[1024] rand(0,1) | w=s32:64 | h=s32:16
extern "C" __global__ void conv_rows(float *o, const float *in, int w, int h)
{
	__shared__ float s[4][16 * 4];
	int x0 = blockIdx.x * 32 - 16 + threadIdx.x, y = blockIdx.y * 4 + threadIdx.y;
	for (int k = 0; k < 4; k++) {
		int x = x0 + k * 16;
		s[threadIdx.y][threadIdx.x + k * 16] = x >= 0 && x < w ? in[y * w + x] : 0;
	}
	__syncthreads();
	for (int k = 1; k < 3; k++) {
		int x = x0 + k * 16;
		float sum = 0;
#pragma unroll
		for (int j = -KR; j <= KR; j++) sum += (j + 1) * 0.0625f * s[threadIdx.y][threadIdx.x + k * 16 + j];
		if (x < w) o[y * w + x] = sum;
	}
}
//@ conv_cols grid=4,2 block=16,8 | o:f32[1024] check | i:f32[1024] rand(0,1) | w=s32:64 | h=s32:16
extern "C" __global__ void conv_cols(float *o, const float *in, int w, int h)
{
	int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;
	float sum = 0;
	for (int j = -KR; j <= KR; j++) {
		int yy = min(max(y + j, 0), h - 1);
		sum += c_Kernel[KR - j] * in[yy * w + x];
	}
	o[y * w + x] = sum;
}

//@ sobel grid=2,2 block=16,16 | o:u8[1024] check | i:u8[1024] rand(0,255) | w=s32:32 | h=s32:32 | scale=f32:0.75
extern "C" __global__ void sobel(unsigned char *o, const unsigned char *in, int w, int h, float scale)
{
	int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
	auto P = [&](int dx, int dy) { return (int)in[min(max(y + dy, 0), h - 1) * w + min(max(x + dx, 0), w - 1)]; };
	int gx = P(1, -1) + 2 * P(1, 0) + P(1, 1) - P(-1, -1) - 2 * P(-1, 0) - P(-1, 1);
	int gy = P(-1, 1) + 2 * P(0, 1) + P(1, 1) - P(-1, -1) - 2 * P(0, -1) - P(1, -1);
	float s = scale * (abs(gx) + abs(gy));
	o[y * w + x] = (unsigned char)min(255.f, s);
}

//@ bilateral grid=2,2 block=16,16 | o:f32[1024] check(1e-5) | i:f32[1024] rand(0,1) | w=s32:32 | h=s32:32 | sr=f32:10
extern "C" __global__ void bilateral(float *o, const float *in, int w, int h, float sr)
{
	int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
	float c = in[y * w + x], sum = 0, wsum = 0;
	for (int dy = -2; dy <= 2; dy++)
		for (int dx = -2; dx <= 2; dx++) {
			float v = in[min(max(y + dy, 0), h - 1) * w + min(max(x + dx, 0), w - 1)];
			float wt = __expf(-(dx * dx + dy * dy) * 0.125f) * __expf(-(v - c) * (v - c) * sr);
			sum += wt * v; wsum += wt;
		}
	o[y * w + x] = __fdividef(sum, wsum);
}

//@ dct8 grid=2 block=8,8 | o:f32[128] check(1e-4) | i:f32[128] rand(-128,127)
extern "C" __global__ void dct8(float *o, const float *in)
{
	__shared__ float blk[8][8], tmp[8][8];
	int u = threadIdx.x, v = threadIdx.y;
	blk[v][u] = in[blockIdx.x * 64 + v * 8 + u];
	__syncthreads();
	float s = 0;
	for (int x = 0; x < 8; x++) s += blk[v][x] * cospif((2 * x + 1) * u / 16.f);
	tmp[v][u] = s * (u ? 0.5f : 0.35355339f);
	__syncthreads();
	s = 0;
	for (int y = 0; y < 8; y++) s += tmp[y][u] * cospif((2 * y + 1) * v / 16.f);
	o[blockIdx.x * 64 + v * 8 + u] = s * (v ? 0.5f : 0.35355339f);
}

//@ nbody grid=2 block=64 | acc:f32[512] check(1e-4) | pos:f32[512] rand(-1,1) | n=s32:128 | eps2=f32:0.01
extern "C" __global__ void nbody(float4 *acc, const float4 *pos, int n, float eps2)
{
	extern __shared__ float4 shp[];
	__shared__ float4 sp[64];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float4 p = pos[i];
	float3 a = {0, 0, 0};
	for (int tile = 0; tile < n / 64; tile++) {
		sp[threadIdx.x] = pos[tile * 64 + threadIdx.x];
		__syncthreads();
#pragma unroll 4
		for (int j = 0; j < 64; j++) {
			float4 q = sp[j];
			float3 r = {q.x - p.x, q.y - p.y, q.z - p.z};
			float d2 = r.x * r.x + r.y * r.y + r.z * r.z + eps2;
			float inv = rsqrtf(d2 * d2 * d2);
			float s = fabsf(q.w) * inv;
			a.x += r.x * s; a.y += r.y * s; a.z += r.z * s;
		}
		__syncthreads();
	}
	acc[i] = make_float4(a.x, a.y, a.z, 0);
}

__device__ inline float cnd(float d)
{
	const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f, A4 = -1.821255978f, A5 = 1.330274429f;
	const float RSQRT2PI = 0.39894228040143267793994605993438f;
	float K = __fdividef(1.0f, (1.0f + 0.2316419f * fabsf(d)));
	float c = RSQRT2PI * __expf(-0.5f * d * d) * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
	if (d > 0) c = 1.0f - c;
	return c;
}
//@ black_scholes grid=2 block=128 | call:f32[512] check | put:f32[512] check | S:f32[512] rand(5,30) | X:f32[512] rand(1,100) | T:f32[512] rand(0.25,10) | R=f32:0.02 | V=f32:0.3 | n=s32:512
extern "C" __global__ void black_scholes(float *call, float *put, const float *S, const float *X, const float *T, float R, float V, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
		float s = S[i], x = X[i], t = T[i];
		float sqrtT = __fdividef(1.0F, rsqrtf(t));
		float d1 = __fdividef(__logf(s / x) + (R + 0.5f * V * V) * t, V * sqrtT);
		float d2 = d1 - V * sqrtT;
		float c1 = cnd(d1), c2 = cnd(d2);
		float ex = __expf(-R * t);
		call[i] = s * c1 - x * ex * c2;
		put[i] = x * ex * (1.0f - c2) - s * (1.0f - c1);
	}
}

//@ fwt grid=2 block=128 | d:f32[512] rand(-1,1) check(1e-5)
extern "C" __global__ void fwt(float *d)
{
	__shared__ float s[256];
	float *base = d + blockIdx.x * 256;
	s[threadIdx.x] = base[threadIdx.x];
	s[threadIdx.x + 128] = base[threadIdx.x + 128];
	for (int stride = 128; stride >= 1; stride >>= 1) {
		__syncthreads();
		int lo = threadIdx.x & (stride - 1);
		int i0 = ((threadIdx.x - lo) << 1) + lo, i1 = i0 + stride;
		float a = s[i0], b = s[i1];
		s[i0] = a + b; s[i1] = a - b;
	}
	__syncthreads();
	base[threadIdx.x] = s[threadIdx.x];
	base[threadIdx.x + 128] = s[threadIdx.x + 128];
}

//@ quasirandom grid=2 block=64 | o:f32[768] check | tab:u32[93] rand(0,4294967295) | seed=u32:7 | n=u32:256
extern "C" __global__ void quasirandom(float *o, const unsigned *tab, unsigned seed, unsigned n)
{
	// Niederreiter-style: XOR of direction numbers selected by the bits of the Gray code of i
	unsigned dim = blockIdx.y;
	for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
		for (unsigned d = 0; d < 3; d++) {
			unsigned g = (i + seed) ^ ((i + seed) >> 1), r = 0;
			for (int b = 0; g; b++, g >>= 1)
				if (g & 1) r ^= tab[d * 31 + b];
			o[(d + dim) * n + i] = (float)(r + 1) * (1.0f / 4294967296.0f);
		}
	}
}

//@ atomics_intr grid=4 block=64 | g:s32[10] check | f:f32[2] check(1e-3)
extern "C" __global__ void atomics_intr(int *g, float *f)
{
	unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
	atomicAdd(&g[0], 10);
	atomicExch(&g[1], 7);
	atomicMax(&g[2], (int)tid);
	atomicMin(&g[3], -(int)tid);
	atomicInc((unsigned *)&g[4], 17);
	atomicDec((unsigned *)&g[5], 137);
	atomicCAS(&g[6], 0, 5);
	atomicAnd(&g[7], 2 * tid + 7);
	atomicOr(&g[8], 1 << (tid & 31));
	atomicXor(&g[9], tid);
	atomicAdd(&f[0], 0.5f);
	atomicAdd(&f[1], (float)(tid & 3));
}

//@ warp_agg grid=2 block=128 | out:s32[256] check | cnt:s32[1] check | in:s32[256] rand(-5,5)
extern "C" __global__ void warp_agg(int *out, int *cnt, const int *in)
{
	// filter positives: one atomic per warp (warpAggregatedAtomicsCG), order made deterministic afterwards
	int i = blockIdx.x * blockDim.x + threadIdx.x, v = in[i];
	if (v > 0) {
		cg::coalesced_group g = cg::coalesced_threads();
		int base = 0;
		if (g.thread_rank() == 0) base = atomicAdd(cnt, g.size());
		base = g.shfl(base, 0);
		(void)base;
		out[i] = g.thread_rank() + 1000 * (int)g.size();
	} else
		out[i] = 0;
}

//@ vadd_gs grid=3 block=64 | c:f32[1000] check | a:f32[1000] rand(-1,1) | b:f32[1000] rand(-1,1) | n=s32:1000
extern "C" __global__ void vadd_gs(float *c, const float *a, const float *b, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) c[i] = a[i] + b[i];
}
