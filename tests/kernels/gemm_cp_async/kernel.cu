// gemm_cp_async -- C = A*B with 16x16 tiles fetched by cp.async into two
// shared-memory stages (the next tile loads while this one computes);
// src-size 0 zero-fills outside the matrices.
#define BT 16
__device__ __forceinline__ void
gemm_cp_async_copy(float *dst, const float *src, bool ok)
{
	unsigned d = (unsigned)__cvta_generic_to_shared(dst);
	asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(d), "l"(src), "r"(ok ? 4 : 0));
}
extern "C" __global__ void gemm_cp_async(const float *A, const float *B, float *C, int M, int N, int K)
{
	__shared__ float As[2][BT][BT], Bs[2][BT][BT];
	int tx = threadIdx.x, ty = threadIdx.y;
	int r = blockIdx.y * BT + ty, c = blockIdx.x * BT + tx;
	int ntiles = (K + BT - 1) / BT;
	float acc = 0.0f;
	bool ok;
	ok = r < M && tx < K;
	gemm_cp_async_copy(&As[0][ty][tx], ok ? A + r * K + tx : A, ok);
	ok = ty < K && c < N;
	gemm_cp_async_copy(&Bs[0][ty][tx], ok ? B + ty * N + c : B, ok);
	asm volatile("cp.async.commit_group;");
	for (int t = 0; t < ntiles; t++) {
		int s = t & 1;
		if (t + 1 < ntiles) {
			int k0 = (t + 1) * BT;
			ok = r < M && k0 + tx < K;
			gemm_cp_async_copy(&As[s ^ 1][ty][tx], ok ? A + r * K + k0 + tx : A, ok);
			ok = k0 + ty < K && c < N;
			gemm_cp_async_copy(&Bs[s ^ 1][ty][tx], ok ? B + (k0 + ty) * N + c : B, ok);
			asm volatile("cp.async.commit_group;");
			asm volatile("cp.async.wait_group 1;");
		} else {
			asm volatile("cp.async.wait_group 0;");
		}
		__syncthreads();
		for (int k = 0; k < BT; k++)
			acc += As[s][ty][k] * Bs[s][k][tx];
		__syncthreads();
	}
	if (r < M && c < N)
		C[r * N + c] = acc;
}
