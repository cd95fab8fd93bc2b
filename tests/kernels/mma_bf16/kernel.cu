// mma_bf16 -- C = A*B with bf16 inputs, f32 accumulation, mma.sync.m16n8k16;
// fragments gathered straight from global memory (zero padded at the edges).
#include <cuda_bf16.h>
__device__ __forceinline__ unsigned short
mma_bf16_at(const __nv_bfloat16 *p, int ld, int r, int c, int R, int C)
{
	return r < R && c < C ? __bfloat16_as_ushort(p[r * ld + c]) : 0;
}
extern "C" __global__ void mma_bf16(const __nv_bfloat16 *A, const __nv_bfloat16 *B, float *C, int M, int N, int K)
{
	int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, g = lane >> 2, t = lane & 3;
	int r0 = blockIdx.y * 32 + (warp >> 1) * 16, c0 = blockIdx.x * 16 + (warp & 1) * 8;
	float d[4] = {0.0f, 0.0f, 0.0f, 0.0f};
	for (int k0 = 0; k0 < K; k0 += 16) {
		unsigned a[4], b[2];
		for (int i = 0; i < 4; i++) {
			int r = r0 + g + 8 * (i & 1), k = k0 + 2 * t + 8 * (i >> 1);
			a[i] = mma_bf16_at(A, K, r, k, M, K) | (unsigned)mma_bf16_at(A, K, r, k + 1, M, K) << 16;
		}
		for (int i = 0; i < 2; i++) {
			int k = k0 + 2 * t + 8 * i, c = c0 + g;
			b[i] = mma_bf16_at(B, N, k, c, K, N) | (unsigned)mma_bf16_at(B, N, k + 1, c, K, N) << 16;
		}
		asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
			     "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
			     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
			     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
	}
	for (int i = 0; i < 4; i++) {
		int r = r0 + g + 8 * (i >> 1), c = c0 + 2 * t + (i & 1);
		if (r < M && c < N)
			C[r * N + c] = d[i];
	}
}
