/* sgemm_naive reference: the same k order with fmaf, and the epilogue
 * as nvcc contracts it (PTX: fma(acc, alpha, beta*C)). */
#include "../ref.h"

void
ref_sgemm_naive(Launch *l)
{
	const float *A = launch_buf(l, "A"), *B = launch_buf(l, "B");
	float *C = launch_buf(l, "C"), alpha = SF32(l, "alpha"), beta = SF32(l, "beta");
	i32 M = SI32(l, "M"), N = SI32(l, "N"), K = SI32(l, "K"), r, c, k;

	for (r = 0; r < M; r++)
		for (c = 0; c < N; c++) {
			float acc = 0.0f;
			for (k = 0; k < K; k++)
				acc = fmaf(A[r * K + k], B[k * N + c], acc);
			C[r * N + c] = fmaf(acc, alpha, beta * C[r * N + c]);
		}
}
