// cub.cu -- a few CUB/Thrust device algorithms, compiled to cubins for the
// round-trip test (tests/cubin/make-inputs).
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_radix_sort.cuh>

extern "C" __global__ void block_sum(const int *in, int *out)
{
	typedef cub::BlockReduce<int, 128> R;
	__shared__ typename R::TempStorage tmp;
	int v = in[blockIdx.x * 128 + threadIdx.x];
	int s = R(tmp).Sum(v);
	if (threadIdx.x == 0)
		out[blockIdx.x] = s;
}

extern "C" __global__ void block_scan(const float *in, float *out)
{
	typedef cub::BlockScan<float, 128> S;
	__shared__ typename S::TempStorage tmp;
	float v = in[blockIdx.x * 128 + threadIdx.x], r;
	S(tmp).InclusiveSum(v, r);
	out[blockIdx.x * 128 + threadIdx.x] = r;
}

extern "C" __global__ void block_sort(unsigned *keys)
{
	typedef cub::BlockRadixSort<unsigned, 128, 4> B;
	__shared__ typename B::TempStorage tmp;
	unsigned k[4];
	for (int i = 0; i < 4; i++)
		k[i] = keys[blockIdx.x * 512 + threadIdx.x * 4 + i];
	B(tmp).Sort(k);
	for (int i = 0; i < 4; i++)
		keys[blockIdx.x * 512 + threadIdx.x * 4 + i] = k[i];
}
