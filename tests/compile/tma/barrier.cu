// barrier.cu -- TMA through CCCL's cuda::device::experimental API with a
// cuda::barrier (barrier_arrive_tx), load and store; nvcc --ptx -arch=sm_90a.
// Spec: barrier.spec.json (docs/compiler-tma.md).
#include <cuda.h>
#include <cuda/barrier>
using barrier = cuda::barrier<cuda::thread_scope_block>;
namespace cde = cuda::device::experimental;

extern "C" __global__ void exp2d(const __grid_constant__ CUtensorMap tmap, float *out, int x0, int y0)
{
	__shared__ alignas(128) float tile[8][32];
	#pragma nv_diag_suppress static_var_with_dynamic_init
	__shared__ barrier bar;
	if (threadIdx.x == 0) {
		init(&bar, blockDim.x);
		cde::fence_proxy_async_shared_cta();
	}
	__syncthreads();
	barrier::arrival_token token;
	if (threadIdx.x == 0) {
		cde::cp_async_bulk_tensor_2d_global_to_shared(&tile, &tmap, x0, y0, bar);
		token = cuda::device::barrier_arrive_tx(bar, 1, sizeof(tile));
	} else {
		token = bar.arrive();
	}
	bar.wait(std::move(token));
	out[threadIdx.x] = tile[threadIdx.x / 32][threadIdx.x % 32] * 2.0f;
	__syncthreads();
	if (threadIdx.x < 32)
		tile[1][threadIdx.x] += 1.0f;
	cde::fence_proxy_async_shared_cta();
	__syncthreads();
	if (threadIdx.x == 0) {
		cde::cp_async_bulk_tensor_2d_shared_to_global(&tmap, x0 + 8, y0, &tile);
		cde::cp_async_bulk_commit_group();
		cde::cp_async_bulk_wait_group_read<0>();
	}
}
