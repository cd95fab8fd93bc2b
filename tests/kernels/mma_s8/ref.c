/* mma_s8 reference: integer C = A*B (exact). */
#include "../ref.h"

void
ref_mma_s8(Launch *l)
{
	const int8_t *A = launch_buf(l, "A"), *B = launch_buf(l, "B");
	i32 *C = launch_buf(l, "C");
	i32 M = SI32(l, "M"), N = SI32(l, "N"), K = SI32(l, "K"), r, c, k;

	for (r = 0; r < M; r++)
		for (c = 0; c < N; c++) {
			i32 acc = 0;
			for (k = 0; k < K; k++)
				acc += A[r * K + k] * B[k * N + c];
			C[r * N + c] = acc;
		}
}
