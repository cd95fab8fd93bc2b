// device_syscalls -- printf, assert, malloc and free: calls to the CUDA system externals (CALL.ABS.NOINC through c[0x4])
#include <cassert>
#include <cstdio>

extern "C" __global__ void device_syscalls(const int *in, int *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i >= n)
		return;
	assert(in[i] >= 0);
	int *p = (int *)malloc(4 * sizeof(int));
	int s = -1;
	if (p) {
		for (int k = 0; k < 4; k++)
			p[k] = in[i] + k;
		s = p[0] + p[3] * p[1] - p[2] * p[2];   // in[i] + (x+3)(x+1) - (x+2)^2 = in[i] - 1
		free(p);
	}
	out[i] = s;
	if (threadIdx.x % 32 == 0)
		printf("block %d warp %d: in=%d out=%d\n", blockIdx.x, threadIdx.x / 32, in[i], s);
}
