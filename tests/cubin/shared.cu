// shared.cu -- one kernel with static shared memory, a barrier and launch
// bounds: the second reference of the from-scratch writer test.
extern "C" __global__ void __launch_bounds__(256) shared_static(float *out)
{
	__shared__ float buf[256];
	__shared__ int cnt[33];
	buf[threadIdx.x] = threadIdx.x;
	cnt[threadIdx.x % 33] = 1;
	__syncthreads();
	out[threadIdx.x] = buf[255 - threadIdx.x] + cnt[threadIdx.x % 33];
}
