// block_radix_sort -- cub::BlockRadixSort: each 128-thread block sorts a
// 512-item tile of (u32 key, s32 value) pairs, keys ascending, stable.
#include <cub/cub.cuh>

extern "C" __global__ void __launch_bounds__(128)
block_radix_sort(const unsigned *keys, unsigned *okeys, int *ovals)
{
	typedef cub::BlockRadixSort<unsigned, 128, 4, int> S;
	__shared__ typename S::TempStorage t;
	unsigned k[4];
	int v[4];
	int base = blockIdx.x * 512;

	for (int i = 0; i < 4; i++) {
		k[i] = keys[base + threadIdx.x * 4 + i];
		v[i] = threadIdx.x * 4 + i;
	}
	S(t).Sort(k, v);
	for (int i = 0; i < 4; i++) {
		okeys[base + threadIdx.x * 4 + i] = k[i];
		ovals[base + threadIdx.x * 4 + i] = v[i];
	}
}
