// wmma.cu -- D = A x B + C with the wmma API: f16 inputs, f32 accumulate
// (m16n16k16, A row-major, B col-major), then 2x on the fragment, stored column-major.
// Generated input: nvcc -arch=sm_90 -ptx -O3 wmma.cu -o wmma.ptx (CUDA 13.0).
// wmma.expect was computed independently (a Python matrix product).
#include <mma.h>
using namespace nvcuda;

extern "C" __global__ void wmma_f32(const half *a, const half *b, const float *c, float *d, float *d2)
{
	wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
	wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
	wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
	wmma::load_matrix_sync(fa, a, 16);
	wmma::load_matrix_sync(fb, b, 16);
	wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
	wmma::mma_sync(fc, fa, fb, fc);
	wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
	for (int i = 0; i < fc.num_elements; i++)
		fc.x[i] *= 2.0f;
	wmma::store_matrix_sync(d2, fc, 16, wmma::mem_col_major);
}
