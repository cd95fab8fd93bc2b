/* gemm_cp_async reference: fmaf over k in order (zero fill adds exact
 * zeros), as in sgemm_tiled. */
#include "../ref.h"

void
ref_gemm_cp_async(Launch *l)
{
	const float *A = launch_buf(l, "A"), *B = launch_buf(l, "B");
	float *C = launch_buf(l, "C");
	i32 M = SI32(l, "M"), N = SI32(l, "N"), K = SI32(l, "K"), r, c, k;

	for (r = 0; r < M; r++)
		for (c = 0; c < N; c++) {
			float acc = 0.0f;
			for (k = 0; k < K; k++)
				acc = fmaf(A[r * K + k], B[k * N + c], acc);
			C[r * N + c] = acc;
		}
}
