// sgemm_tiled -- C = A*B through 16x16 shared-memory tiles (zero-padded at the edges).
#define TS 16
extern "C" __global__ void sgemm_tiled(const float *A, const float *B, float *C, int M, int N, int K)
{
	__shared__ float As[TS][TS], Bs[TS][TS];
	int tx = threadIdx.x, ty = threadIdx.y;
	int c = blockIdx.x * TS + tx, r = blockIdx.y * TS + ty;
	float acc = 0.0f;
	for (int k0 = 0; k0 < K; k0 += TS) {
		As[ty][tx] = r < M && k0 + tx < K ? A[r * K + k0 + tx] : 0.0f;
		Bs[ty][tx] = k0 + ty < K && c < N ? B[(k0 + ty) * N + c] : 0.0f;
		__syncthreads();
		for (int k = 0; k < TS; k++)
			acc += As[ty][k] * Bs[k][tx];
		__syncthreads();
	}
	if (r < M && c < N)
		C[r * N + c] = acc;
}
