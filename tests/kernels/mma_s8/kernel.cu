// mma_s8 -- C = A*B with s8 inputs and s32 accumulation, mma.sync.m16n8k32;
// four k-consecutive bytes per register, zero padding at the edges.
__device__ __forceinline__ unsigned
mma_s8_at(const signed char *p, int ld, int r, int c, int R, int C)
{
	return r < R && c < C ? (unsigned char)p[r * ld + c] : 0u;
}
extern "C" __global__ void mma_s8(const signed char *A, const signed char *B, int *C, int M, int N, int K)
{
	int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, g = lane >> 2, t = lane & 3;
	int r0 = blockIdx.y * 32 + (warp >> 1) * 16, c0 = blockIdx.x * 16 + (warp & 1) * 8;
	int d[4] = {0, 0, 0, 0};
	for (int k0 = 0; k0 < K; k0 += 32) {
		unsigned a[4] = {0, 0, 0, 0}, b[2] = {0, 0};
		for (int i = 0; i < 4; i++)
			for (int j = 0; j < 4; j++)
				a[i] |= mma_s8_at(A, K, r0 + g + 8 * (i & 1), k0 + 4 * t + 16 * (i >> 1) + j, M, K) << 8 * j;
		for (int i = 0; i < 2; i++)
			for (int j = 0; j < 4; j++)
				b[i] |= mma_s8_at(B, N, k0 + 4 * t + 16 * i + j, c0 + g, K, N) << 8 * j;
		asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 "
			     "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
			     : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
			     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
	}
	for (int i = 0; i < 4; i++) {
		int r = r0 + g + 8 * (i >> 1), c = c0 + 2 * t + (i & 1);
		if (r < M && c < N)
			C[r * N + c] = d[i];
	}
}
