// warp_vote -- ballot, any, all and a match-free lane mask count within each warp.
extern "C" __global__ void warp_vote(const int *x, unsigned *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int v = i < n ? x[i] : 0;
	unsigned b = __ballot_sync(0xffffffffu, v > 0);
	int any = __any_sync(0xffffffffu, v > 90);
	int all = __all_sync(0xffffffffu, v > -95);
	unsigned below = b & ((1u << (threadIdx.x & 31)) - 1);
	if (i < n)
		y[i] = __popc(b) + (any ? 1000u : 0u) + (all ? 10000u : 0u) + 100000u * __popc(below);
}
