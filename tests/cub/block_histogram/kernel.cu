// block_histogram -- cub::BlockHistogram of 256 u8 bins, 128 threads x 8
// items per block, with the sort algorithm and with shared atomics; each
// block adds its counts to the global histograms with atomicAdd.
#include <cub/cub.cuh>

extern "C" __global__ void __launch_bounds__(128)
block_histogram(const unsigned char *in, unsigned *hsort, unsigned *hatomic)
{
	typedef cub::BlockHistogram<unsigned char, 128, 8, 256, cub::BLOCK_HISTO_SORT> HS;
	typedef cub::BlockHistogram<unsigned char, 128, 8, 256, cub::BLOCK_HISTO_ATOMIC> HA;
	__shared__ typename HS::TempStorage t;
	__shared__ unsigned bs[256], ba[256];
	unsigned char v[8];

	cub::LoadDirectStriped<128>(threadIdx.x, in + blockIdx.x * 1024, v);
	HS(t).Histogram(v, bs);
	HA().Histogram(v, ba);
	__syncthreads();
	for (int i = threadIdx.x; i < 256; i += 128) {
		atomicAdd(&hsort[i], bs[i]);
		atomicAdd(&hatomic[i], ba[i]);
	}
}
