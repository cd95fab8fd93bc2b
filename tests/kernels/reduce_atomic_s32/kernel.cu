// reduce_atomic_s32 -- xor-shuffle warp sum and max, one global atomic per warp.
extern "C" __global__ void reduce_atomic_s32(const int *x, int *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int s = i < n ? x[i] : 0, m = i < n ? x[i] : -2147483647 - 1;
	for (int o = 1; o < 32; o <<= 1) {
		s += __shfl_xor_sync(0xffffffff, s, o);
		m = max(m, __shfl_xor_sync(0xffffffff, m, o));
	}
	if ((threadIdx.x & 31) == 0) {
		atomicAdd(&out[0], s);
		atomicMax(&out[1], m);
	}
}
