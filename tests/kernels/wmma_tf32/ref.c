/* wmma_tf32 reference: inputs rounded to tf32 (nearest, ties away), C in double. */
#include "../ref.h"

void
ref_wmma_tf32(Launch *l)
{
	const float *A = launch_buf(l, "A"), *Bt = launch_buf(l, "Bt");
	float *C = launch_buf(l, "C");
	i32 M = SI32(l, "M"), N = SI32(l, "N"), K = SI32(l, "K"), r, c, k;

	for (r = 0; r < M; r++)
		for (c = 0; c < N; c++) {
			double acc = 0;
			for (k = 0; k < K; k++)
				acc += (double)r_tf32(A[r * K + k]) * r_tf32(Bt[c * K + k]);
			C[r * N + c] = (float)acc;
		}
}
