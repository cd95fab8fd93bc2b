// mma_tf32 -- C = A*B from f32 inputs rounded to tf32 (cvt.rna.tf32.f32),
// f32 accumulation, mma.sync.m16n8k8; zero padding at the edges.
__device__ __forceinline__ unsigned
mma_tf32_at(const float *p, int ld, int r, int c, int R, int C)
{
	float v = r < R && c < C ? p[r * ld + c] : 0.0f;
	unsigned u;
	asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(u) : "f"(v));
	return u;
}
extern "C" __global__ void mma_tf32(const float *A, const float *B, float *C, int M, int N, int K)
{
	int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, g = lane >> 2, t = lane & 3;
	int r0 = blockIdx.y * 32 + (warp >> 1) * 16, c0 = blockIdx.x * 16 + (warp & 1) * 8;
	float d[4] = {0.0f, 0.0f, 0.0f, 0.0f};
	for (int k0 = 0; k0 < K; k0 += 8) {
		unsigned a[4], b[2];
		for (int i = 0; i < 4; i++)
			a[i] = mma_tf32_at(A, K, r0 + g + 8 * (i & 1), k0 + t + 4 * (i >> 1), M, K);
		for (int i = 0; i < 2; i++)
			b[i] = mma_tf32_at(B, N, k0 + t + 4 * i, c0 + g, K, N);
		asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
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
