// two.cu -- two kernels in one module (vadd, then shared_static): the
// multi-kernel reference of the from-scratch writer test.
extern "C" __global__ void vadd(float *c, const float *a, const float *b, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		c[i] = a[i] + b[i];
}
extern "C" __global__ void __launch_bounds__(256) shared_static(float *out)
{
	__shared__ float buf[256];
	__shared__ int cnt[33];
	buf[threadIdx.x] = threadIdx.x;
	cnt[threadIdx.x % 33] = 1;
	__syncthreads();
	out[threadIdx.x] = buf[255 - threadIdx.x] + cnt[threadIdx.x % 33];
}
