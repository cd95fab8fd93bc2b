// printf.cu -- device printf through the interpreter (our own source).
// Generated input: nvcc -arch=sm_90 -ptx -O3 printf.cu -o printf.ptx (CUDA 13.0).
// printf.stdout is what a GPU prints for threads 0-2 (in some order).
#include <cstdio>
extern "C" __global__ void pf(int *out, float x)
{
	int t = threadIdx.x;
	if (t < 3)
		printf("thread %d: x=%f t*x=%.2e name=%s hex=%#x ll=%lld c=%c%%\n", t, x, t * x, "abc", t * 255, (long long)t << 40, 'A' + t);
	out[t] = t;
}
