// tile.cu -- TMA through CUDA's cuda::ptx wrappers (CCCL), compiled with
// nvcc --ptx -arch=sm_90a -o tile.ptx tile.cu (docs/compiler-tma.md).
// The tensor maps are __grid_constant__ CUtensorMap parameters; the launch
// specs describe them (tile_*.spec.json).
#include <cuda.h>
#include <cuda/ptx>
namespace ptx = cuda::ptx;

// One 16 x 32 f32 box at (x0, y0) into shared memory, copied to out.
extern "C" __global__ void load2d(const __grid_constant__ CUtensorMap tmap, float *out, int x0, int y0)
{
	__shared__ alignas(1024) float tile[16][32];
	__shared__ alignas(8) uint64_t bar;
	if (threadIdx.x == 0) {
		ptx::mbarrier_init(&bar, 1);
		ptx::fence_proxy_async(ptx::space_shared);
	}
	__syncthreads();
	if (threadIdx.x == 0) {
		int c[2] = {x0, y0};
		ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, tile, &tmap, c, &bar);
		ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, sizeof tile);
	}
	while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {}
	for (int i = threadIdx.x; i < 16 * 32; i += blockDim.x)
		out[i] = tile[i / 32][i % 32];
}

// in (16 x 32 floats, scaled by 2) stored as the box at (x0, y0).
extern "C" __global__ void store2d(const __grid_constant__ CUtensorMap tmap, const float *in, int x0, int y0)
{
	__shared__ alignas(1024) float tile[16][32];
	for (int i = threadIdx.x; i < 16 * 32; i += blockDim.x)
		tile[i / 32][i % 32] = 2.0f * in[i];
	ptx::fence_proxy_async(ptx::space_shared);
	__syncthreads();
	if (threadIdx.x == 0) {
		int c[2] = {x0, y0};
		ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &tmap, c, tile);
		ptx::cp_async_bulk_commit_group();
		ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
	}
}

// A GEMM-like mainloop: CTA b sums the 16 x 32 boxes of rows 16b.. of A
// along x (ksteps of them) through a two-stage TMA + mbarrier pipeline.
extern "C" __global__ void pipe(const __grid_constant__ CUtensorMap tmap, float *out, int ksteps)
{
	__shared__ alignas(1024) float tile[2][16][32];
	__shared__ alignas(8) uint64_t full[2];
	const int y0 = 16 * blockIdx.x;
	float acc[4] = {0, 0, 0, 0};
	if (threadIdx.x == 0) {
		ptx::mbarrier_init(&full[0], 1);
		ptx::mbarrier_init(&full[1], 1);
		ptx::fence_proxy_async(ptx::space_shared);
		for (int s = 0; s < 2 && s < ksteps; s++) {
			int c[2] = {32 * s, y0};
			ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, tile[s], &tmap, c, &full[s]);
			ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full[s], sizeof tile[s]);
		}
	}
	__syncthreads();
	for (int k = 0; k < ksteps; k++) {
		int s = k & 1;
		while (!ptx::mbarrier_try_wait_parity(&full[s], (k >> 1) & 1)) {}
		for (int j = 0; j < 4; j++) {
			int i = threadIdx.x + 128 * j;
			acc[j] += tile[s][i / 32][i % 32];
		}
		__syncthreads();   // stage s is free again
		if (threadIdx.x == 0 && k + 2 < ksteps) {
			int c[2] = {32 * (k + 2), y0};
			ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, tile[s], &tmap, c, &full[s]);
			ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full[s], sizeof tile[s]);
		}
	}
	for (int j = 0; j < 4; j++)
		out[512 * blockIdx.x + threadIdx.x + 128 * j] = acc[j];
}
