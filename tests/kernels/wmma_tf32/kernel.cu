// wmma_tf32 -- C = A*Bt^T with WMMA tf32 fragments (16x16x8): A row-major, B column-major
// (stored as Bt, N x K), elements rounded with __float_to_tf32, f32 accumulation.
#include <mma.h>
using namespace nvcuda;
extern "C" __global__ void wmma_tf32(const float *A, const float *Bt, float *C, int M, int N, int K)
{
	int warp = threadIdx.x / 32;
	int tr = blockIdx.y * 32 + (warp >> 1) * 16, tc = blockIdx.x * 32 + (warp & 1) * 16;
	if (tr >= M || tc >= N)
		return;
	wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;
	wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> b;
	wmma::fragment<wmma::accumulator, 16, 16, 8, float> c;
	wmma::fill_fragment(c, 0.0f);
	for (int k = 0; k < K; k += 8) {
		wmma::load_matrix_sync(a, A + tr * K + k, K);
		wmma::load_matrix_sync(b, Bt + tc * K + k, K);
		for (int t = 0; t < a.num_elements; t++)
			a.x[t] = wmma::__float_to_tf32(a.x[t]);
		for (int t = 0; t < b.num_elements; t++)
			b.x[t] = wmma::__float_to_tf32(b.x[t]);
		wmma::mma_sync(c, a, b, c);
	}
	wmma::store_matrix_sync(C + tr * N + tc, c, N, wmma::mem_row_major);
}
