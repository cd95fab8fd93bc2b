// Programmatic dependent launch (sm_90), a sixth sweep (session 10, "breadth6"):
// cudaGridDependencySynchronize (griddepcontrol.wait) before reading the previous kernel's
// output and cudaTriggerProgrammaticLaunchCompletion (griddepcontrol.launch_dependents) after
// the last store, in a producer and a consumer kernel, the raw PTX by inline asm, and
// __nanosleep / %globaltimer-free spin-free code around it; written for openassembler's tests;
// .ptx: nvcc 13.0 --ptx -O3 -arch=sm_90 (gen.sh); //@ lines: launch specs.

//@ pdl_producer grid=2 block=64 | o:f32[128] check(1e-6) | in:f32[128] rand(-1,1)
extern "C" __global__ void pdl_producer(float *o, const float *in)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float x = in[i] * 2.0f + 1.0f;
	cudaGridDependencySynchronize();   /* the previous kernel's writes are visible after this */
	o[i] = x * x;
	cudaTriggerProgrammaticLaunchCompletion();
}

//@ pdl_consumer grid=2 block=64 | o:f32[128] check(1e-5) | prev:f32[128] rand(0,4) | w:f32[64] rand(-1,1)
extern "C" __global__ void pdl_consumer(float *o, const float *prev, const float *w)
{
	__shared__ float sw[64];
	int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
	sw[t] = w[t];   /* the prologue that overlaps the previous kernel */
	__syncthreads();
	asm volatile("griddepcontrol.wait;" ::: "memory");
	float acc = 0;
	for (int k = 0; k < 8; k++) acc += prev[(i + 16 * k) & 127] * sw[(t + k) & 63];
	asm volatile("griddepcontrol.launch_dependents;");
	o[i] = acc;
}

//@ pdl_cond grid=2 block=64 | o:s32[128] check | in:s32[128] rand(0,100)
extern "C" __global__ void pdl_cond(int *o, const int *in)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x, v = in[i];
	if (v > 50) {
		cudaGridDependencySynchronize();   /* only some threads wait */
		v += in[(i + 1) & 127];
	}
	if (threadIdx.x == 0) cudaTriggerProgrammaticLaunchCompletion();   /* one thread triggers */
	o[i] = v;
}
