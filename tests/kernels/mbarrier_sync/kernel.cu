// mbarrier_sync -- block synchronisation through cuda::barrier (mbarrier.init/arrive and
// try_wait on sm_90, test_wait on sm_80) between shared-memory exchange phases.
#include <cuda/barrier>
extern "C" __global__ void mbarrier_sync(const int *x, int *y, int n)
{
#pragma nv_diag_suppress static_var_with_dynamic_init
	__shared__ cuda::barrier<cuda::thread_scope_block> bar;
	__shared__ int s[128];
	int t = threadIdx.x, i = blockIdx.x * blockDim.x + t, b = blockDim.x;
	if (t == 0)
		init(&bar, b);
	__syncthreads();
	s[t] = i < n ? x[i] : 0;
	bar.arrive_and_wait();
	int v = s[(t + 1) % b] + s[(t + 5) % b];
	bar.arrive_and_wait();
	s[t] = v * 2;
	bar.arrive_and_wait();
	if (i < n)
		y[i] = s[b - 1 - t] - v;
}
