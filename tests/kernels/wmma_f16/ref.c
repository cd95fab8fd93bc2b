/* wmma_f16 reference: C = A*B in double from the f16 inputs. */
#include "../ref.h"

void
ref_wmma_f16(Launch *l)
{
	const u16 *A = launch_buf(l, "A"), *B = launch_buf(l, "B");
	float *C = launch_buf(l, "C");
	i32 M = SI32(l, "M"), N = SI32(l, "N"), K = SI32(l, "K"), r, c, k;

	for (r = 0; r < M; r++)
		for (c = 0; c < N; c++) {
			double acc = 0;
			for (k = 0; k < K; k++)
				acc += f16_to_double(A[r * K + k]) * f16_to_double(B[k * N + c]);
			C[r * N + c] = (float)acc;
		}
}
