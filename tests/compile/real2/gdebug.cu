// Kernels for the debug (-G) PTX: no inlining (device functions are real calls, with
// shared variables and loops around them), every value through the local frame, .loc
// everywhere.  Written for openassembler's tests; the .ptx files are nvcc 13.0 --ptx -G
// -arch=sm_XX of this file; //@ lines: launch specs.
struct Acc { float sum; int count; };

__device__ float warp_sum(float v)
{
	for (int o = 16; o; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
	return v;
}
__device__ float block_sum(float v)
{
	__shared__ float part[32];
	v = warp_sum(v);
	if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = v;
	__syncthreads();
	float s = 0;
	for (int w = 0; w < blockDim.x / 32; w++) s += part[w];
	__syncthreads();
	return s;
}
__device__ Acc add(Acc a, float x) { a.sum += x; a.count += x > 0; return a; }

//@ g_reduce grid=2 block=128 | o:f32[4] check | in:f32[1024] rand(-1,1) | n=s32:1024
extern "C" __global__ void g_reduce(float *o, const float *in, int n)
{
	Acc a = {0, 0};
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) a = add(a, in[i]);
	float s = block_sum(a.sum), c = block_sum((float)a.count);
	if (threadIdx.x == 0) { o[blockIdx.x * 2] = s; o[blockIdx.x * 2 + 1] = c; }
}
__device__ int collatz(unsigned x)
{
	int steps = 0;
	while (x != 1 && steps < 500) { x = x & 1 ? 3 * x + 1 : x / 2; steps++; }
	return steps;
}
//@ g_collatz grid=2 block=64 | o:s32[128] check | in:u32[128] rand(1,100000)
extern "C" __global__ void g_collatz(int *o, const unsigned *in)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int local[4];
	for (int k = 0; k < 4; k++) local[k] = collatz(in[i] + k);
	o[i] = local[0] + local[1] * 2 + local[2] * 3 + local[3] * 4;
}
