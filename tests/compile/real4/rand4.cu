// curand device API, a fourth sweep (session 8, "breadth4"): Philox4_32_10 with
// curand_uniform4 / curand_normal4 / curand_log_normal2 and skipahead, MRG32k3a
// (curand_init without a subsequence: no skip-ahead tables) with uniform_double / normal2_double,
// a big local state array per thread, written for openassembler's tests;
// .ptx: nvcc 13.0 --ptx -O3 -arch=sm_XX (gen.sh); //@ lines: launch specs.
#include <curand_kernel.h>

//@ philox4 grid=2 block=32 | o:f32[512] check(1e-5) | seed=u64:987654321
extern "C" __global__ void philox4(float *o, unsigned long long seed)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	curandStatePhilox4_32_10_t st;
	curand_init(seed, i, 4 * i, &st);
	float4 u = curand_uniform4(&st);
	float4 n = curand_normal4(&st);
	skipahead(1000ull + i, &st);
	float2 l = curand_log_normal2(&st, 0.5f, 0.25f);
	unsigned r = curand(&st);
	float *p = o + i * 8;
	p[0] = u.x; p[1] = u.y + u.z + u.w; p[2] = n.x; p[3] = n.y * n.z - n.w;
	p[4] = l.x; p[5] = l.y; p[6] = (float)(r >> 8); p[7] = curand_uniform(&st);
}
//@ mrg_f64 grid=1 block=64 | o:f64[256] check(1e-9) | seed=u64:2024
extern "C" __global__ void mrg_f64(double *o, unsigned long long seed)
{
	int i = threadIdx.x;
	curandStateMRG32k3a_t st;
	curand_init(seed + i * 7919ull, 0, 0, &st);
	double u = curand_uniform_double(&st);
	double2 n = curand_normal2_double(&st);
	unsigned r = curand(&st);
	o[i * 4] = u; o[i * 4 + 1] = n.x; o[i * 4 + 2] = n.y; o[i * 4 + 3] = r;
}
// Many Philox states in a local array (a 4 x 64-byte struct indexed by a runtime value):
// round-robin draws into per-thread histogram bins.
//@ rng_bins grid=1 block=64 | o:u32[1024] check | seed=u64:77 | draws=s32:40
extern "C" __global__ void rng_bins(unsigned *o, unsigned long long seed, int draws)
{
	curandStatePhilox4_32_10_t st[4];
	unsigned bins[16] = {0};
	for (int k = 0; k < 4; k++)
		curand_init(seed, threadIdx.x * 4 + k, 0, &st[k]);
	for (int d = 0; d < draws; d++) {
		unsigned v = curand(&st[d & 3]);
		bins[v >> 28]++;
	}
	for (int b = 0; b < 16; b++)
		o[threadIdx.x * 16 + b] = bins[b];
}
// Box-Muller by hand vs curand_normal2 on the same Philox state, with an
// accept/reject loop (exponential by inversion, rejected above a cut).
//@ rng_reject grid=1 block=128 | o:f32[256] check(1e-5) | cnt:u32[128] check | seed=u64:5
extern "C" __global__ void rng_reject(float *o, unsigned *cnt, unsigned long long seed)
{
	curandStatePhilox4_32_10_t st;
	curand_init(seed, threadIdx.x, 0, &st);
	float e;
	unsigned tries = 0;
	do {
		e = -logf(curand_uniform(&st));
		tries++;
	} while (e > 1.5f && tries < 64);
	float2 z = curand_normal2(&st);
	o[threadIdx.x] = e;
	o[128 + threadIdx.x] = z.x * z.y;
	cnt[threadIdx.x] = tries;
}
// XORWOW and MRG32k3a with a subsequence (curand_init's skip-ahead through the
// precomputed matrices, on sm_80 here; real2's rand.cu is sm_90 only), curand_poisson
// (small lambda: inversion; large: the rejection path) and curand_discrete through a
// histogram made on the host side of the test (a fixed table built in the kernel).
//@ skip_pois grid=1 block=32 | o:u32[128] check | f:f32[64] check(1e-6) | seed=u64:31337
extern "C" __global__ void skip_pois(unsigned *o, float *f, unsigned long long seed)
{
	int t = threadIdx.x;
	curandState xs;
	curandStateMRG32k3a_t ms;
	curand_init(seed, t, 17, &xs);
	curand_init(seed, t + 3, 5, &ms);
	o[t] = curand(&xs);
	o[32 + t] = curand(&ms);
	o[64 + t] = curand_poisson(&xs, 3.5);
	o[96 + t] = curand_poisson(&ms, 40.0 + t);
	f[t] = curand_normal(&xs);
	f[32 + t] = curand_uniform(&ms);
}
