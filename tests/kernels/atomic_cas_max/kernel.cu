// atomic_cas_max -- float maximum by an atomicCAS retry loop, and atomicExch/atomicSub counters.
extern "C" __global__ void atomic_cas_max(const float *x, float *m, int *cnt, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	float v = x[i];
	int *addr = (int *)m;
	int old = *addr, assumed;
	do {
		assumed = old;
		if (__int_as_float(assumed) >= v)
			break;
		old = atomicCAS(addr, assumed, __float_as_int(v));
	} while (old != assumed);
	atomicSub(&cnt[0], 1);
	if (v > 0.0f)
		atomicExch(&cnt[1], 7);
}
