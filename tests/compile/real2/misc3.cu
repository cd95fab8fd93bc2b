// double precision (dgemm tile, Jacobi stencil), printf in a kernel, written for openassembler's tests.
// The .ptx files are nvcc 13.0 --ptx -O3 -arch=sm_XX of this file; //@ lines: launch specs.
#include <cstdio>

//@ dgemm_tile grid=2,2 block=8,8 | C:f64[256] check | A:f64[256] rand(-1,1) | B:f64[256] rand(-1,1) | n=s32:16 | alpha=f64:1.5 | beta=f64:0
extern "C" __global__ void dgemm_tile(double *C, const double *A, const double *B, int n, double alpha, double beta)
{
	__shared__ double As[8][8], Bs[8][8 + 1];
	int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * 8 + ty, col = blockIdx.x * 8 + tx;
	double acc = 0;
	for (int k0 = 0; k0 < n; k0 += 8) {
		As[ty][tx] = A[row * n + k0 + tx];
		Bs[ty][tx] = B[(k0 + ty) * n + col];
		__syncthreads();
#pragma unroll
		for (int k = 0; k < 8; k++) acc = fma(As[ty][k], Bs[k][tx], acc);
		__syncthreads();
	}
	C[row * n + col] = alpha * acc + beta * C[row * n + col];
}
//@ jacobi grid=2,2 block=16,16 | o:f64[1024] check | i:f64[1024] rand(0,1) | res:f64[1] check(1e-12) | n=s32:32
extern "C" __global__ void jacobi(double *o, const double *in, double *res, int n)
{
	int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
	double v = in[y * n + x], d = 0;
	if (x > 0 && y > 0 && x < n - 1 && y < n - 1) {
		double nv = 0.25 * (in[y * n + x - 1] + in[y * n + x + 1] + in[(y - 1) * n + x] + in[(y + 1) * n + x]);
		d = fabs(nv - v);
		v = nv;
	}
	for (int k = 16; k; k >>= 1) d = fmax(d, __shfl_xor_sync(~0u, d, k));
	if ((threadIdx.x & 31) == 1) atomicAdd(res, d);
	o[y * n + x] = v;
}

//@ say grid=1 block=4 | o:s32[4] check | x:f32[4] range(0.5,1)
extern "C" __global__ void say(int *o, const float *x)
{
	int t = threadIdx.x;
	o[t] = printf("thread %d of %d: x=%f %s %lld\n", t, blockDim.x, x[t], t & 1 ? "odd" : "even", -1ll << (t * 8));
}
