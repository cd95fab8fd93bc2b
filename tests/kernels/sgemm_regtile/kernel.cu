// sgemm_regtile -- C = A*B, each thread a 4x4 register tile of C; 32x32 block tile, K step 8 via shared memory.
#define BM 32
#define BN 32
#define BK 8
extern "C" __global__ void sgemm_regtile(const float *A, const float *B, float *C, int M, int N, int K)
{
	__shared__ float As[BK][BM], Bs[BK][BN];
	int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 8 + tx;
	int r0 = blockIdx.y * BM, c0 = blockIdx.x * BN;
	float acc[4][4] = {};
	for (int k0 = 0; k0 < K; k0 += BK) {
		for (int e = tid; e < BM * BK; e += 64) {
			int m = e / BK, k = e % BK;
			As[k][m] = r0 + m < M && k0 + k < K ? A[(r0 + m) * K + k0 + k] : 0.0f;
			int kk = e / BN, n = e % BN;
			Bs[kk][n] = k0 + kk < K && c0 + n < N ? B[(k0 + kk) * N + c0 + n] : 0.0f;
		}
		__syncthreads();
		for (int k = 0; k < BK; k++) {
			float a[4], b[4];
			for (int i = 0; i < 4; i++) {
				a[i] = As[k][ty * 4 + i];
				b[i] = Bs[k][tx * 4 + i];
			}
			for (int i = 0; i < 4; i++)
				for (int j = 0; j < 4; j++)
					acc[i][j] += a[i] * b[j];
		}
		__syncthreads();
	}
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++) {
			int r = r0 + ty * 4 + i, c = c0 + tx * 4 + j;
			if (r < M && c < N)
				C[r * N + c] = acc[i][j];
		}
}
