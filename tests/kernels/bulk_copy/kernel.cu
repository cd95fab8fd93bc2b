// bulk_copy -- cuda::memcpy_async of a 1 KiB tile into shared memory, completed on a
// cuda::barrier: sm_90 issues one cp.async.bulk with mbarrier expect_tx/complete_tx,
// sm_80 cp.async.cg copies with cp.async.mbarrier.arrive.
// hostsim: skip (cuda::memcpy_async is device-only in this libcu++)
#include <cuda/barrier>
extern "C" __global__ void bulk_copy(const int *x, int *y)
{
#pragma nv_diag_suppress static_var_with_dynamic_init
	__shared__ cuda::barrier<cuda::thread_scope_block> bar;
	__shared__ __align__(16) int buf[256];
	int t = threadIdx.x, b = blockIdx.x;
	if (t == 0)
		init(&bar, blockDim.x);
	__syncthreads();
	if (t == 0)
		cuda::memcpy_async(buf, x + b * 256, cuda::aligned_size_t<16>(256 * sizeof(int)), bar);
	bar.arrive_and_wait();
	y[b * 256 + t] = buf[255 - t] * 3 + t;
}
