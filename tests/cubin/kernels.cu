// kernels.cu -- small test kernels for the cubin reader/writer round trip.
// Regenerate the PTX and cubins with tests/cubin/make-inputs (needs nvcc, ptxas).
#include <cstdio>

extern "C" __global__ void vadd(float *c, const float *a, const float *b, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		c[i] = a[i] + b[i];
}

struct S16 { double d; int i; char c; };
struct __align__(16) F4 { float x, y, z, w; };

extern "C" __global__ void params(char a, short b, int c, long long d, float *p,
				  S16 s, double e, F4 f, int g)
{
	p[0] = a + b + c + (float)d + (float)s.d + s.i + s.c + (float)e + f.x + f.w + g;
}

extern "C" __global__ void empty() {}

extern "C" __global__ void shared_static(float *out)
{
	__shared__ float buf[256];
	__shared__ int cnt[33];
	buf[threadIdx.x] = threadIdx.x;
	cnt[threadIdx.x % 33] = 1;
	__syncthreads();
	out[threadIdx.x] = buf[255 - threadIdx.x] + cnt[threadIdx.x % 33];
}

extern "C" __global__ void shared_dynamic(float *out)
{
	extern __shared__ float dyn[];
	dyn[threadIdx.x] = out[threadIdx.x];
	__syncthreads();
	out[threadIdx.x] = dyn[blockDim.x - 1 - threadIdx.x];
}

extern "C" __global__ void local_array(int *out, int k)
{
	int arr[64];
	for (int i = 0; i < 64; i++)
		arr[i] = i * k + threadIdx.x;
	out[threadIdx.x] = arr[(threadIdx.x * 7 + k) & 63];
}

__device__ __noinline__ int helper1(int x) { return x * x + 3; }
__device__ __noinline__ int helper2(int x, int k)
{
	int a[16];
	for (int i = 0; i < 16; i++) a[i] = x + i;
	return a[k & 15];
}

extern "C" __global__ void calls(int *out, int k)
{
	out[threadIdx.x] = helper1(threadIdx.x) + helper2(threadIdx.x, k);
}

__constant__ float ctab[64];
__constant__ int cval = 42;
__device__ int gcount;
__device__ float ginit[100] = {1, 2, 3};

extern "C" __global__ void globals(float *out)
{
	atomicAdd(&gcount, 1);
	out[threadIdx.x] = ctab[threadIdx.x & 63] + cval + ginit[threadIdx.x % 100];
}

extern "C" __global__ void __launch_bounds__(128, 4) bounded(float *out)
{
	out[threadIdx.x] = threadIdx.x * 2.0f;
}

extern "C" __global__ void with_printf(int x)
{
	printf("hello %d\n", x);
}

extern "C" __global__ void atomics(int *p, float *f, unsigned long long *q)
{
	atomicAdd(p, 1);
	atomicAdd(f, 1.0f);
	atomicCAS(q, 0ull, 1ull);
	atomicMax(p + 1, (int)threadIdx.x);
	__syncthreads();
	__threadfence();
}
