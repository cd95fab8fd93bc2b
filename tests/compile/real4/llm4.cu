// LLM kernels, a fourth sweep (session 8, "breadth4"): Welford layernorm (warp shuffles
// with Chan's merge, then shared), fused residual + RMSNorm on half2, top-k by a warp
// bitonic sort of 64-bit keys (__shfl_xor_sync on u64), embedding gather / atomicAdd
// scatter with 64-bit indices, and a flash-attention tile (online softmax, mma.sync
// m16n8k16 bf16, ldmatrix.x4 and ldmatrix.x4.trans by inline asm), written for
// openassembler's tests; .ptx: nvcc 13.0 --ptx -O3 -arch=sm_XX (gen.sh); //@ lines: launch specs.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

struct Welford { float n, mean, m2; };
__device__ Welford welford_merge(Welford a, Welford b)
{
	float n = a.n + b.n;
	if (n == 0) return a;
	float d = b.mean - a.mean, fb = b.n / n;
	return {n, a.mean + d * fb, a.m2 + b.m2 + d * d * a.n * fb};
}
// One block (128 threads) per row of 512: per-thread Welford, warp merge, block merge.
//@ ln_welford grid=4 block=128 | y:f32[2048] check(1e-4) | x:f32[2048] rand(-3,5) | g:f32[512] rand(0.5,1.5) | b:f32[512] rand(-1,1)
extern "C" __global__ void ln_welford(float *y, const float *x, const float *g, const float *b)
{
	__shared__ Welford part[4];
	__shared__ float stat[2];
	const float *row = x + blockIdx.x * 512;
	Welford w = {0, 0, 0};
	for (int i = threadIdx.x; i < 512; i += 128) {
		float v = row[i], d = v - w.mean;
		w.n += 1; w.mean += d / w.n; w.m2 += d * (v - w.mean);
	}
	for (int o = 16; o; o >>= 1) {
		Welford u = {__shfl_xor_sync(~0u, w.n, o), __shfl_xor_sync(~0u, w.mean, o), __shfl_xor_sync(~0u, w.m2, o)};
		w = welford_merge(w, u);
	}
	if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = w;
	__syncthreads();
	if (threadIdx.x == 0) {
		Welford t = part[0];
		for (int k = 1; k < 4; k++) t = welford_merge(t, part[k]);
		stat[0] = t.mean; stat[1] = rsqrtf(t.m2 / t.n + 1e-5f);
	}
	__syncthreads();
	for (int i = threadIdx.x; i < 512; i += 128)
		y[blockIdx.x * 512 + i] = (row[i] - stat[0]) * stat[1] * g[i] + b[i];
}
// Fused residual add + RMSNorm on half2 (one warp per row of 256 halves).
//@ rms_resid grid=2 block=64 | y:f16[1024] check(2e-3) | r:f16[1024] rand(-2,2) check(2e-3) | x:f16[1024] rand(-2,2) | w:f16[256] rand(0.5,1.5)
extern "C" __global__ void rms_resid(__half2 *y, __half2 *r, const __half2 *x, const __half2 *w)
{
	int row = blockIdx.x * 2 + threadIdx.x / 32, lane = threadIdx.x % 32;
	__half2 v[4];
	float ss = 0;
	for (int k = 0; k < 4; k++) {
		int i = row * 128 + k * 32 + lane;
		v[k] = __hadd2(x[i], r[i]);
		r[i] = v[k];
		float2 f = __half22float2(v[k]);
		ss += f.x * f.x + f.y * f.y;
	}
	for (int o = 16; o; o >>= 1) ss += __shfl_xor_sync(~0u, ss, o);
	__half2 s = __float2half2_rn(rsqrtf(ss / 256 + 1e-6f));
	for (int k = 0; k < 4; k++)
		y[row * 128 + k * 32 + lane] = __hmul2(__hmul2(v[k], s), w[k * 32 + lane]);
}
// Top-8 of 32 scores per warp: key = (orderable f32 bits) << 32 | ~index, a warp bitonic sort
// (descending) of the 64-bit keys with __shfl_xor_sync.
__device__ unsigned long long warp_sort_desc(unsigned long long k)
{
	int lane = threadIdx.x % 32;
	for (int size = 2; size <= 32; size <<= 1)
		for (int st = size / 2; st; st >>= 1) {
			unsigned long long o = __shfl_xor_sync(~0u, k, st);
			bool up = (lane & size) != 0, low = (lane & st) == 0;
			bool keep_max = (low != up);
			k = keep_max ? (k > o ? k : o) : (k < o ? k : o);
		}
	return k;
}
//@ topk_bitonic grid=2 block=128 | val:f32[64] check | idx:s32[64] check | s:f32[256] rand(-10,10)
extern "C" __global__ void topk_bitonic(float *val, int *idx, const float *s)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % 32, warp = i / 32;
	unsigned u = __float_as_uint(s[i]);
	u = (u & 0x80000000u) ? ~u : u | 0x80000000u;
	unsigned long long k = warp_sort_desc((unsigned long long)u << 32 | (unsigned)~lane);
	if (lane < 8) {
		unsigned hi = (unsigned)(k >> 32);
		hi = (hi & 0x80000000u) ? hi & 0x7fffffffu : ~hi;
		val[warp * 8 + lane] = __uint_as_float(hi);
		idx[warp * 8 + lane] = ~(unsigned)k;
	}
}
// Embedding forward (gather through int64 ids, scaled) and backward (atomicAdd scatter;
// the gradients are multiples of 1/8, so any order sums exactly).
//@ embed_fwd grid=4 block=128 | o:f32[4096] check | tab:f32[8192] rand(-1,1) | ids:s64[64] rand(0,127) | n=s64:64 | dim=s32:64
extern "C" __global__ void embed_fwd(float *o, const float *tab, const long long *ids, long long n, int dim)
{
	for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n * dim; i += (long long)gridDim.x * blockDim.x) {
		long long t = i / dim;
		int d = (int)(i - t * dim);
		o[i] = tab[ids[t] * dim + d] * 8.0f;
	}
}
//@ embed_bwd grid=2 block=256 | gt:f32[2048] check | g:s32[2048] rand(-64,64) | ids:s64[64] rand(0,31) | n=s64:64 | dim=s32:32
extern "C" __global__ void embed_bwd(float *gt, const int *g, const long long *ids, long long n, int dim)
{
	for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n * dim; i += (long long)gridDim.x * blockDim.x) {
		long long t = i / dim;
		atomicAdd(&gt[ids[t] * dim + (i % dim)], g[i] * 0.125f);
	}
}
// Flash attention, one warp per (batch, head): Q 16x16, K and V 64x16 (bf16), tiles of 16 keys.
__device__ void ldsm_x4(unsigned r[4], const void *p, bool trans)
{
	unsigned a = (unsigned)__cvta_generic_to_shared(p);
	if (trans)
		asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(a));
	else
		asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(a));
}
__device__ void mma_bf16(float c[4], const unsigned a[4], unsigned b0, unsigned b1)
{
	asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
		     : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}
__device__ unsigned pack_bf16(float lo, float hi)
{
	__nv_bfloat162 h = __floats2bfloat162_rn(lo, hi);
	return *(unsigned *)&h;
}
//@ flash_tile grid=2 block=32 | o:f32[512] check(1e-5) | q:bf16[512] rand(-1,1) | k:bf16[2048] rand(-1,1) | v:bf16[2048] rand(-1,1)
extern "C" __global__ void flash_tile(float *o, const __nv_bfloat16 *q, const __nv_bfloat16 *k, const __nv_bfloat16 *v)
{
	__shared__ __align__(16) __nv_bfloat16 sq[16][16], sk[64][16], sv[64][16];
	int l = threadIdx.x, g = l / 4, t = l % 4, h = blockIdx.x;
	for (int i = l; i < 256; i += 32) sq[i / 16][i % 16] = q[h * 256 + i];
	for (int i = l; i < 1024; i += 32) { sk[i / 16][i % 16] = k[h * 1024 + i]; sv[i / 16][i % 16] = v[h * 1024 + i]; }
	__syncwarp();
	unsigned qa[4];
	ldsm_x4(qa, &sq[(l % 8) + 8 * ((l / 8) % 2)][8 * (l / 16)], false);
	float acc[2][4] = {}, m[2] = {-INFINITY, -INFINITY}, sum[2] = {0, 0};
	const float sc = 0.25f * 1.44269504f;
	for (int kt = 0; kt < 64; kt += 16) {
		unsigned kb[4], vb[4];
		ldsm_x4(kb, &sk[kt + (l % 8) + 8 * (l / 16)][8 * ((l / 8) % 2)], false);
		ldsm_x4(vb, &sv[kt + (l % 8) + 8 * ((l / 8) % 2)][8 * (l / 16)], true);
		float s[2][4] = {};
		mma_bf16(s[0], qa, kb[0], kb[1]);
		mma_bf16(s[1], qa, kb[2], kb[3]);
		for (int r = 0; r < 2; r++) {        // rows g and g+8
			float mx = fmaxf(fmaxf(s[0][2 * r], s[0][2 * r + 1]), fmaxf(s[1][2 * r], s[1][2 * r + 1])) * sc;
			mx = fmaxf(mx, __shfl_xor_sync(~0u, mx, 1));
			mx = fmaxf(mx, __shfl_xor_sync(~0u, mx, 2));
			float mn = fmaxf(m[r], mx), alpha = exp2f(m[r] - mn), ps = 0;
			for (int n = 0; n < 2; n++)
				for (int c = 0; c < 2; c++) {
					s[n][2 * r + c] = exp2f(s[n][2 * r + c] * sc - mn);
					ps += s[n][2 * r + c];
				}
			ps += __shfl_xor_sync(~0u, ps, 1);
			ps += __shfl_xor_sync(~0u, ps, 2);
			sum[r] = sum[r] * alpha + ps;
			m[r] = mn;
			for (int n = 0; n < 2; n++) { acc[n][2 * r] *= alpha; acc[n][2 * r + 1] *= alpha; }
		}
		unsigned pa[4] = {pack_bf16(s[0][0], s[0][1]), pack_bf16(s[0][2], s[0][3]), pack_bf16(s[1][0], s[1][1]), pack_bf16(s[1][2], s[1][3])};
		mma_bf16(acc[0], pa, vb[0], vb[1]);
		mma_bf16(acc[1], pa, vb[2], vb[3]);
	}
	for (int n = 0; n < 2; n++)
		for (int r = 0; r < 2; r++)
			for (int c = 0; c < 2; c++)
				o[h * 256 + (g + 8 * r) * 16 + n * 8 + 2 * t + c] = acc[n][2 * r + c] / sum[r];
}
