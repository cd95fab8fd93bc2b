// wmma_f16 -- C = A*B with the WMMA API: 16x16x16 f16 fragments, f32 accumulation,
// row-major A and B; four warps per block, warps past the matrix edge exit whole.
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;
extern "C" __global__ void wmma_f16(const __half *A, const __half *B, float *C, int M, int N, int K)
{
	int warp = threadIdx.x / 32;
	int tr = blockIdx.y * 32 + (warp >> 1) * 16, tc = blockIdx.x * 32 + (warp & 1) * 16;
	if (tr >= M || tc >= N)
		return;
	wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
	wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> b;
	wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
	wmma::fill_fragment(c, 0.0f);
	for (int k = 0; k < K; k += 16) {
		wmma::load_matrix_sync(a, A + tr * K + k, K);
		wmma::load_matrix_sync(b, B + k * N + tc, N);
		wmma::mma_sync(c, a, b, c);
	}
	wmma::store_matrix_sync(C + tr * N + tc, c, N, wmma::mem_row_major);
}
