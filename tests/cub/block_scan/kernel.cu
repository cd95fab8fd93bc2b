// block_scan -- cub::BlockScan over a 512-item tile (128 threads x 4,
// loaded and stored through cub::BlockLoad/BlockStore warp transposes):
// an exclusive int sum and an inclusive max scan.
#include <cub/cub.cuh>

extern "C" __global__ void __launch_bounds__(128)
block_scan(const int *in, int *ex, int *incmax)
{
	typedef cub::BlockLoad<int, 128, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE> L;
	typedef cub::BlockStore<int, 128, 4, cub::BLOCK_STORE_WARP_TRANSPOSE> S;
	typedef cub::BlockScan<int, 128> Sc;
	__shared__ union {
		typename L::TempStorage l;
		typename S::TempStorage s;
		typename Sc::TempStorage sc;
	} t;
	int v[4], a[4], b[4];
	int base = blockIdx.x * 512;

	L(t.l).Load(in + base, v);
	__syncthreads();
	Sc(t.sc).ExclusiveSum(v, a);
	__syncthreads();
	Sc(t.sc).InclusiveScan(v, b, cuda::maximum<>{});
	__syncthreads();
	S(t.s).Store(ex + base, a);
	__syncthreads();
	S(t.s).Store(incmax + base, b);
}
