// stencil_shared -- 5-point stencil over a 2-D grid: 16x16 tiles with a clamped halo in shared memory.
extern "C" __global__ void stencil_shared(const float *in, float *out, int W, int H)
{
	__shared__ float t[18][18];
	int tx = threadIdx.x, ty = threadIdx.y;
	int x = blockIdx.x * 16 + tx, y = blockIdx.y * 16 + ty;
	for (int k = ty * 16 + tx; k < 18 * 18; k += 256) {
		int lx = k % 18, ly = k / 18;
		int gx = min(max((int)blockIdx.x * 16 + lx - 1, 0), W - 1);
		int gy = min(max((int)blockIdx.y * 16 + ly - 1, 0), H - 1);
		t[ly][lx] = in[gy * W + gx];
	}
	__syncthreads();
	if (x < W && y < H)
		out[y * W + x] = 0.5f * t[ty + 1][tx + 1] +
				 0.125f * (t[ty][tx + 1] + t[ty + 2][tx + 1] + t[ty + 1][tx] + t[ty + 1][tx + 2]);
}
