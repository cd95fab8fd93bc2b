// A third sweep: GEMM-tutorial and attention-style tiling (float4 register tiles, ldmatrix +
// mma.sync through inline asm, a flash-attention row block), warp-specialized producer /
// consumer with named barriers, stream compaction with ballots, an open-addressing hash
// table with atomicCAS, memory-model spin flags within a CTA, cache-hinted loads and
// stores, warp transposes with width-limited shuffles, written for openassembler's tests;
// .ptx: nvcc 13.0 --ptx -O3 -arch=sm_XX.
#include <cuda_fp16.h>
#include <cuda/atomic>

//@ sgemm_vec grid=2,2 block=16,16 | C:f32[4096] check(1e-5) | A:f32[4096] rand(-1,1) | B:f32[4096] rand(-1,1) | n=s32:64
extern "C" __global__ void sgemm_vec(float *C, const float *A, const float *B, int n)
{
	// 32x32 block tile, 2x2 per thread, K tiles of 16 loaded as float4
	__shared__ float As[16][32 + 4], Bs[16][32 + 4];
	int tx = threadIdx.x, ty = threadIdx.y, t = ty * 16 + tx;
	int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;
	float acc[2][2] = {};
	for (int k0 = 0; k0 < n; k0 += 16) {
		if (t < 128) {
			int r = t / 4, c = (t % 4) * 4;
			float4 a = *(const float4 *)&A[(row0 + r) * n + k0 + c];
			As[c][r] = a.x; As[c + 1][r] = a.y; As[c + 2][r] = a.z; As[c + 3][r] = a.w;
		} else {
			int u = t - 128, r = u / 8, c = (u % 8) * 4;
			*(float4 *)&Bs[r][c] = *(const float4 *)&B[(k0 + r) * n + col0 + c];
		}
		__syncthreads();
#pragma unroll
		for (int k = 0; k < 16; k++) {
			float2 a = *(float2 *)&As[k][ty * 2], b = *(float2 *)&Bs[k][tx * 2];
			acc[0][0] += a.x * b.x; acc[0][1] += a.x * b.y; acc[1][0] += a.y * b.x; acc[1][1] += a.y * b.y;
		}
		__syncthreads();
	}
	for (int i = 0; i < 2; i++)
		*(float2 *)&C[(row0 + ty * 2 + i) * n + col0 + tx * 2] = make_float2(acc[i][0], acc[i][1]);
}

//@ mma_ldmatrix grid=1 block=32 | D:f32[256] check(1e-3) | A:f16[256] rand(-1,1) | B:f16[128] rand(-1,1)
extern "C" __global__ void mma_ldmatrix(float *D, const __half *A, const __half *B)
{
	// one m16n8k16 tile: A 16x16 row-major, B 16x8 (stored k-major: B[k][n]) via ldmatrix.trans
	__shared__ __align__(16) __half sa[16 * 16], sb[16 * 8];
	int l = threadIdx.x;
	for (int i = l; i < 256; i += 32) sa[i] = A[i];
	for (int i = l; i < 128; i += 32) sb[i] = B[i];
	__syncthreads();
	unsigned a[4], b[2];
	unsigned pa = (unsigned)__cvta_generic_to_shared(&sa[(l % 16) * 16 + (l / 16) * 8]);
	unsigned pb = (unsigned)__cvta_generic_to_shared(&sb[(l % 16) * 8]);
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3]) : "r"(pa));
	asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(b[0]), "=r"(b[1]) : "r"(pb));
	float c[4] = {0, 0, 0, 0};
	asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
		     : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
	int g = l / 4, q = l % 4;
	D[g * 8 + q * 2] = c[0]; D[g * 8 + q * 2 + 1] = c[1];
	D[(g + 8) * 8 + q * 2] = c[2]; D[(g + 8) * 8 + q * 2 + 1] = c[3];
	D[128 + l] = __int_as_float(a[l & 3] ^ b[l & 1]);
}

//@ flash_row grid=2 block=64 | O:f32[256] check(1e-5) | Q:f32[128] rand(-1,1) | K:f32[4096] rand(-1,1) | V:f32[4096] rand(-1,1) | L=s32:32 | scale=f32:0.25
extern "C" __global__ void flash_row(float *O, const float *Q, const float *K, const float *V, int L, float scale)
{
	// one query row (head dim 64) per block, keys in tiles of 8 through shared memory, online softmax
	__shared__ float ks[8][64], vs[8][64], p[8];
	int d = threadIdx.x, h = blockIdx.x;
	float q = Q[h * 64 + d], m = -INFINITY, s = 0, o = 0;
	for (int t0 = 0; t0 < L; t0 += 8) {
		for (int j = 0; j < 8; j++) {
			ks[j][d] = K[(h * L + t0 + j) * 64 + d];
			vs[j][d] = V[(h * L + t0 + j) * 64 + d];
		}
		__syncthreads();
		if (d < 8) {
			float dot = 0;
			for (int e = 0; e < 64; e++) dot += Q[h * 64 + e] * ks[d][e];
			p[d] = dot * scale;
		}
		__syncthreads();
		float mt = m;
		for (int j = 0; j < 8; j++) mt = fmaxf(mt, p[j]);
		float corr = __expf(m - mt);
		s *= corr; o *= corr;
		for (int j = 0; j < 8; j++) {
			float w = __expf(p[j] - mt);
			s += w; o += w * vs[j][d];
		}
		m = mt;
		__syncthreads();
	}
	O[h * 64 + d] = o / s;
	O[128 + h * 64 + d] = q * m;
}

//@ warp_spec grid=2 block=96 | o:f32[512] check | in:f32[512] rand(-1,1)
extern "C" __global__ void warp_spec(float *o, const float *in)
{
	// warp 0 produces 4 tiles into a double buffer, warps 1-2 consume them; named barriers:
	// 1 and 4 "buffer 0 / 1 full" (producer arrives, consumers sync), 2 and 3 "buffer 0 / 1
	// free again" (consumers arrive, the producer syncs before refilling it)
	__shared__ float buf[2][64];
	int w = threadIdx.x / 32, l = threadIdx.x % 32;
	const float *src = in + blockIdx.x * 256;
	for (int it = 0; it < 4; it++) {
		int sidx = it & 1;
		if (w == 0) {
			if (it == 2) asm volatile("bar.sync 2, 96;");
			if (it == 3) asm volatile("bar.sync 3, 96;");
			buf[sidx][l] = src[it * 64 + l] * 2.f;
			buf[sidx][l + 32] = src[it * 64 + l + 32] * 2.f;
			if (sidx) asm volatile("bar.arrive 4, 96;");
			else asm volatile("bar.arrive 1, 96;");
		} else {
			if (sidx) asm volatile("bar.sync 4, 96;");
			else asm volatile("bar.sync 1, 96;");
			int c = (w - 1) * 32 + l;
			o[blockIdx.x * 256 + it * 64 + c] = buf[sidx][c] + buf[sidx][63 - c];
			if (it == 0) asm volatile("bar.arrive 2, 96;");
			if (it == 1) asm volatile("bar.arrive 3, 96;");
		}
	}
}

//@ compact grid=2 block=128 | o:s32[256] check | cnt:s32[2] check | in:s32[256] rand(-10,10)
extern "C" __global__ void compact(int *o, int *cnt, const int *in)
{
	// the positive values first, in order, then the others (stable partition by ballots)
	__shared__ int base[2][4];
	int i = blockIdx.x * 128 + threadIdx.x, v = in[i], l = threadIdx.x % 32, w = threadIdx.x / 32;
	unsigned keep = __ballot_sync(~0u, v > 0), lt = (1u << l) - 1;
	if (l == 0) { base[0][w] = __popc(keep); base[1][w] = 32 - __popc(keep); }
	__syncthreads();
	if (threadIdx.x == 0) {
		int s = 0;
		for (int k = 0; k < 4; k++) { int c = base[0][k]; base[0][k] = s; s += c; }
		cnt[blockIdx.x] = s;
		for (int k = 0; k < 4; k++) { int c = base[1][k]; base[1][k] = s; s += c; }
	}
	__syncthreads();
	int pos = v > 0 ? base[0][w] + __popc(keep & lt) : base[1][w] + __popc(~keep & lt);
	o[blockIdx.x * 128 + pos] = v;
}

//@ hash_insert grid=1 block=128 | cnt:u32[128] check | in:u32[128] rand(1,300)
extern "C" __global__ void hash_insert(unsigned *cnt, const unsigned *in)
{
	// open addressing with linear probing in shared memory (duplicates add their counts),
	// then each thread looks its key up: the slots depend on the order, the counts do not
	__shared__ unsigned keys[256], vals[256];
	for (int j = threadIdx.x; j < 256; j += 128) keys[j] = vals[j] = 0;
	__syncthreads();
	unsigned k = in[threadIdx.x], h = (k * 2654435761u) % 256;
	for (;;) {
		unsigned prev = atomicCAS(&keys[h], 0u, k);
		if (prev == 0u || prev == k) { atomicAdd(&vals[h], 1u); break; }
		h = (h + 1) % 256;
	}
	__syncthreads();
	for (h = (k * 2654435761u) % 256; keys[h] != k; h = (h + 1) % 256)
		;
	cnt[threadIdx.x] = vals[h];
}

//@ spin_flag grid=2 block=64 | o:s32[128] check
extern "C" __global__ void spin_flag(int *o)
{
	// warp 1 waits on a shared flag warp 0 releases (acquire/release, within the CTA)
	__shared__ int data[32];
	__shared__ int flag;
	if (threadIdx.x == 0) flag = 0;
	__syncthreads();
	cuda::atomic_ref<int, cuda::thread_scope_block> f(flag);
	if (threadIdx.x < 32) {
		data[threadIdx.x] = threadIdx.x * 3 + blockIdx.x;
		__syncwarp();
		if (threadIdx.x == 0) f.store(1, cuda::std::memory_order_release);
		o[blockIdx.x * 64 + threadIdx.x] = -1;
	} else {
		while (f.load(cuda::std::memory_order_acquire) == 0) __nanosleep(32);
		o[blockIdx.x * 64 + threadIdx.x] = data[threadIdx.x - 32] + data[63 - threadIdx.x];
	}
}

//@ cache_hints grid=2 block=64 | o:f32[512] check | a:f32[256] rand(-1,1) | b:f32[256] rand(-1,1)
extern "C" __global__ void cache_hints(float *o, const float *a, const float *b)
{
	int i = blockIdx.x * 64 + threadIdx.x;
	float x = __ldcg(a + i), y = __ldca(b + i), z = __ldcs(a + (i ^ 1)), u = __ldlu(b + (i ^ 3)), v = __ldcv(a + (i ^ 7));
	__stwb(o + i, x + y);
	__stcg(o + 128 + i, z * u);
	__stcs(o + 256 + i, v - x);
	__stwt(o + 384 + i, __ldg(b + (i ^ 5)));
}

//@ warp_transpose grid=1 block=64 | o:s32[512] check | in:s32[512] rand(-1000,1000)
extern "C" __global__ void warp_transpose(int *o, const int *in)
{
	// 8x8 transposes inside 8-lane groups with width-8 shuffles; then a width-16 rotate
	int l = threadIdx.x, r[8];
	for (int j = 0; j < 8; j++) r[j] = in[l * 8 + j];
	int t[8];
	for (int j = 0; j < 8; j++) {
		int src = (l & 7);
		t[j] = __shfl_sync(~0u, r[src ^ j ^ (l & 7) ? src : src], j, 8);
	}
	for (int j = 0; j < 8; j++) o[l * 8 + j] = t[j] + __shfl_down_sync(~0u, r[j], 3, 16) * 2 + __shfl_up_sync(~0u, r[7 - j], 5, 16);
}
