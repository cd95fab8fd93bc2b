// mma_f16 -- C = A*B with f16 inputs, f32 accumulation: tiles staged in shared
// memory, fragments loaded with ldmatrix (.trans for B), mma.sync.m16n8k16.
// A block of 4 warps computes a 32x16 tile of C; zero padding at every edge.
#include <cuda_fp16.h>
extern "C" __global__ void mma_f16(const __half *A, const __half *B, float *C, int M, int N, int K)
{
	__shared__ __align__(16) __half As[32][16];
	__shared__ __align__(16) __half Bs[16][16];
	int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, g = lane >> 2, t = lane & 3;
	int br = blockIdx.y * 32, bc = blockIdx.x * 16;
	int wr = (warp >> 1) * 16, wc = (warp & 1) * 8;
	float d[4] = {0.0f, 0.0f, 0.0f, 0.0f};
	for (int k0 = 0; k0 < K; k0 += 16) {
		for (int e = tid; e < 32 * 16; e += 128) {
			int r = e / 16, k = e % 16;
			As[r][k] = br + r < M && k0 + k < K ? A[(br + r) * K + k0 + k] : __float2half(0.0f);
		}
		for (int e = tid; e < 16 * 16; e += 128) {
			int k = e / 16, n = e % 16;
			Bs[k][n] = k0 + k < K && bc + n < N ? B[(k0 + k) * N + bc + n] : __float2half(0.0f);
		}
		__syncthreads();
		unsigned a0, a1, a2, a3, b0, b1;
		unsigned pa = (unsigned)__cvta_generic_to_shared(&As[wr + (lane & 7) + 8 * ((lane >> 3) & 1)][8 * (lane >> 4)]);
		unsigned pb = (unsigned)__cvta_generic_to_shared(&Bs[lane & 15][wc]);
		asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
			     : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3) : "r"(pa));
		asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];"
			     : "=r"(b0), "=r"(b1) : "r"(pb));
		asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
			     "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
			     : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
			     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
		__syncthreads();
	}
	for (int i = 0; i < 4; i++) {
		int r = br + wr + g + 8 * (i >> 1), c = bc + wc + 2 * t + (i & 1);
		if (r < M && c < N)
			C[r * N + c] = d[i];
	}
}
