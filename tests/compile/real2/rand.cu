// curand device API: Philox and XORWOW states (curand_init with its skip-ahead tables: a
// 1 MB PTX blob of precomputed matrices), MonteCarlo option pricing, written for
// openassembler's tests.  The .ptx file is nvcc 13.0 --ptx -O3 -arch=sm_90 of this file
// (sm_90 only, for its size); //@ lines: launch specs.
#include <curand_kernel.h>

//@ mc_init grid=1 block=32 | o:f32[64] check | seed=u64:1234
extern "C" __global__ void mc_init(float *o, unsigned long long seed)
{
	curandStatePhilox4_32_10_t st;
	curand_init(seed, threadIdx.x, 0, &st);
	o[threadIdx.x] = curand_uniform(&st);
	o[32 + threadIdx.x] = curand_normal(&st);
}
//@ mc_xorwow grid=1 block=32 | o:f32[32] check | seed=u64:42 | paths=s32:16 | S=f32:100 | K=f32:105 | r=f32:0.05 | v=f32:0.2 | T=f32:1
extern "C" __global__ void mc_xorwow(float *o, unsigned long long seed, int paths, float S, float K, float r, float v, float T)
{
	// MonteCarlo option pricing: XORWOW state with skipahead by subsequence (the big curand_init)
	curandState st;
	curand_init(seed, threadIdx.x, 0, &st);
	float sum = 0, drift = (r - 0.5f * v * v) * T, vol = v * sqrtf(T);
	for (int p = 0; p < paths; p++) {
		float z = curand_normal(&st);
		float ST = S * expf(drift + vol * z);
		sum += fmaxf(ST - K, 0.f);
	}
	o[threadIdx.x] = expf(-r * T) * sum / paths;
}

