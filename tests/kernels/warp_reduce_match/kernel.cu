// warp_reduce_match -- redux.sync (add, max, min) and match.any within each warp.
extern "C" __global__ void warp_reduce_match(const unsigned *x, unsigned *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned v = i < n ? x[i] : 0;
	unsigned s = __reduce_add_sync(0xffffffffu, v);
	unsigned mx = __reduce_max_sync(0xffffffffu, v);
	int mn = __reduce_min_sync(0xffffffffu, (int)v - 50);
	unsigned m = __match_any_sync(0xffffffffu, v & 3);
	if (i < n) {
		y[4 * i + 0] = s;
		y[4 * i + 1] = mx;
		y[4 * i + 2] = (unsigned)mn;
		y[4 * i + 3] = m;
	}
}
