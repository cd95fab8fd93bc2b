// sgemm_naive -- C = alpha*A*B + beta*C, row-major, one thread per element of C.
extern "C" __global__ void sgemm_naive(const float *A, const float *B, float *C, int M, int N, int K,
				       float alpha, float beta)
{
	int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
	if (r < M && c < N) {
		float acc = 0.0f;
		for (int k = 0; k < K; k++)
			acc += A[r * K + k] * B[k * N + c];
		C[r * N + c] = alpha * acc + beta * C[r * N + c];
	}
}
