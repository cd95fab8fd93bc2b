// block_reduce -- cub::BlockReduce: an int sum (raking) and a float max
// (warp reductions) per 256-thread block, 4 items per thread.
#include <cub/cub.cuh>

extern "C" __global__ void __launch_bounds__(256)
block_reduce(const int *in, const float *fin, int *sum, float *mx)
{
	typedef cub::BlockReduce<int, 256> RI;
	typedef cub::BlockReduce<float, 256, cub::BLOCK_REDUCE_WARP_REDUCTIONS> RF;
	__shared__ typename RI::TempStorage ti;
	__shared__ typename RF::TempStorage tf;
	int v[4];
	float f[4];
	int base = blockIdx.x * 1024;

	cub::LoadDirectStriped<256>(threadIdx.x, in + base, v);
	cub::LoadDirectBlocked(threadIdx.x, fin + base, f);
	int s = RI(ti).Sum(v);
	float m = RF(tf).Reduce(f, cuda::maximum<>{});
	if (threadIdx.x == 0) {
		sum[blockIdx.x] = s;
		mx[blockIdx.x] = m;
	}
}
