// A third sweep (session 7, "breadth2"): a CUTLASS-2-style templated GEMM mainloop written
// by hand -- a cp.async multistage pipeline (zero-fill for rows past M), ldmatrix.x4 fragments
// and mma.sync m16n8k16 (f16 and bf16 in, f32 accumulate), plus a tf32 m16n8k8 variant;
// .ptx: nvcc 13.0 --ptx -O3 -arch=sm_XX (gen.sh); //@ lines: launch specs.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

__device__ __forceinline__ unsigned smem(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ __forceinline__ void cp16(void *s, const void *g, bool ok)
{
	asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(smem(s)), "l"(g), "r"(ok ? 16 : 0));
}
__device__ __forceinline__ void ldm4(unsigned (&r)[4], const void *s)
{
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
		     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(smem(s)));
}
template <typename T> struct Mma;
template <> struct Mma<__half> {
	static __device__ void run(float (&d)[4], const unsigned (&a)[4], unsigned b0, unsigned b1)
	{
		asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
			     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
			     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
	}
};
template <> struct Mma<__nv_bfloat16> {
	static __device__ void run(float (&d)[4], const unsigned (&a)[4], unsigned b0, unsigned b1)
	{
		asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
			     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
			     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
	}
};

// C[M][N] = A[M][K] * B[N][K]^T, a 32x32 tile per CTA of 4 warps (16x16 each), K tiles of 32
// through STAGES shared buffers.
template <typename T, int STAGES>
__device__ void gemm_tn(float *C, const T *A, const T *B, int M, int N, int K)
{
	constexpr int LD = 40; /* 32 + 8 halves: 80-byte rows, 16-byte aligned, fewer conflicts */
	__shared__ __align__(16) T As[STAGES][32 * LD], Bs[STAGES][32 * LD];
	int t = threadIdx.x, lane = t & 31, w = t >> 5, wm = w >> 1, wn = w & 1;
	int m0 = blockIdx.y * 32, n0 = blockIdx.x * 32, KT = K / 32;
	int lr = t >> 2, lc = (t & 3) * 8; /* this thread's 16-byte chunk of a 32x32 tile */
	auto load = [&](int kt, int s) {
		int gm = m0 + lr;
		cp16(&As[s][lr * LD + lc], A + (size_t)min(gm, M - 1) * K + kt * 32 + lc, gm < M);
		cp16(&Bs[s][lr * LD + lc], B + (size_t)(n0 + lr) * K + kt * 32 + lc, true);
	};
	float acc[2][4] = {};
	for (int s = 0; s < STAGES - 1; s++) {
		if (s < KT) load(s, s);
		asm volatile("cp.async.commit_group;\n");
	}
	for (int kt = 0; kt < KT; kt++) {
		asm volatile("cp.async.wait_group %0;\n" ::"n"(STAGES - 2));
		__syncthreads();
		if (kt + STAGES - 1 < KT) load(kt + STAGES - 1, (kt + STAGES - 1) % STAGES);
		asm volatile("cp.async.commit_group;\n");
		const T *as = As[kt % STAGES], *bs = Bs[kt % STAGES];
#pragma unroll
		for (int k0 = 0; k0 < 32; k0 += 16) {
			unsigned a[4], b[4];
			ldm4(a, &as[(wm * 16 + (lane & 15)) * LD + k0 + (lane >> 4) * 8]);
			int q = lane >> 3;
			ldm4(b, &bs[(wn * 16 + (q >> 1) * 8 + (lane & 7)) * LD + k0 + (q & 1) * 8]);
			Mma<T>::run(acc[0], a, b[0], b[1]);
			Mma<T>::run(acc[1], a, b[2], b[3]);
		}
	}
	asm volatile("cp.async.wait_all;\n");
	for (int j = 0; j < 2; j++)
		for (int h = 0; h < 2; h++) {
			int r = m0 + wm * 16 + (lane >> 2) + h * 8, c = n0 + wn * 16 + j * 8 + (lane & 3) * 2;
			if (r < M) {
				C[r * N + c] = acc[j][2 * h];
				C[r * N + c + 1] = acc[j][2 * h + 1];
			}
		}
}
//@ gemm_f16_s3 grid=2,2 block=128 | C:f32[3072] check(1e-4) | A:f16[6144] rand(-1,1) | B:f16[8192] rand(-1,1) | M=s32:48 | N=s32:64 | K=s32:128
extern "C" __global__ void gemm_f16_s3(float *C, const __half *A, const __half *B, int M, int N, int K)
{
	gemm_tn<__half, 3>(C, A, B, M, N, K);
}
//@ gemm_bf16_s4 grid=2,2 block=128 | C:f32[3072] check(1e-4) | A:bf16[6144] rand(-1,1) | B:bf16[8192] rand(-1,1) | M=s32:48 | N=s32:64 | K=s32:128
extern "C" __global__ void gemm_bf16_s4(float *C, const __nv_bfloat16 *A, const __nv_bfloat16 *B, int M, int N, int K)
{
	gemm_tn<__nv_bfloat16, 4>(C, A, B, M, N, K);
}
// tf32 m16n8k8: one warp, a 16x8 tile of A[16][K] * B[8][K]^T, fragments loaded directly.
//@ mma_tf32 grid=2 block=32 | C:f32[256] check(1e-4) | A:f32[1024] rand(-1,1) | B:f32[512] rand(-1,1)
extern "C" __global__ void mma_tf32(float *C, const float *A, const float *B)
{
	int lane = threadIdx.x, g = lane >> 2, q = lane & 3;
	const float *a = A + blockIdx.x * 512, *b = B + blockIdx.x * 256;
	float d[4] = {};
	for (int k = 0; k < 32; k += 8) {
		unsigned a0, a1, a2, a3, b0, b1;
		asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(a0) : "f"(a[g * 32 + k + q]));
		asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(a1) : "f"(a[(g + 8) * 32 + k + q]));
		asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(a2) : "f"(a[g * 32 + k + q + 4]));
		asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(a3) : "f"(a[(g + 8) * 32 + k + q + 4]));
		asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(b0) : "f"(b[g * 32 + k + q]));
		asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(b1) : "f"(b[g * 32 + k + q + 4]));
		asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
			     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
			     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
	}
	float *c = C + blockIdx.x * 128;
	c[g * 8 + q * 2] = d[0]; c[g * 8 + q * 2 + 1] = d[1];
	c[(g + 8) * 8 + q * 2] = d[2]; c[(g + 8) * 8 + q * 2 + 1] = d[3];
}
