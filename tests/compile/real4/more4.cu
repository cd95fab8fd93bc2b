// Odds and ends, a fourth sweep (session 8, "breadth4"): the f32/f64 math library
// (frexp/ldexp/scalbn/ilogb/nextafter/remquo/fmod/modf/norm3d/rnorm4d/erfinv/cyl_bessel_i0,
// __fdividef), atomicInc/atomicDec wrap-around, 16-bit atomicCAS, float2/float4 atomicAdd
// (sm_90), __match_all_sync, coalesced groups in divergent code, cg::memcpy_async + cg::wait,
// extern dynamic shared memory of several types, written for openassembler's tests;
// .ptx: nvcc 13.0 --ptx -O3 -arch=sm_XX (gen.sh); //@ lines: launch specs.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;

//@ mathlib grid=1 block=64 | o:f32[768] check | d:f64[512] check | a:f32[64] rand(-50,50) | b:f32[64] rand(0.5,7) | x:f64[64] rand(-30,30)
extern "C" __global__ void mathlib(float *o, double *d, const float *a, const float *b, const double *x)
{
	int t = threadIdx.x, e, q;
	float fa = a[t], fb = b[t], ip;
	float *p = o + t * 12;
	p[0] = frexpf(fa, &e); p[1] = (float)e;
	p[2] = ldexpf(fb, t - 32); p[3] = scalbnf(fa, -t);
	p[4] = (float)ilogbf(fa); p[5] = nextafterf(fa, fb);
	p[6] = remquof(fa, fb, &q); p[7] = (float)q + fmodf(fa, fb);
	p[8] = modff(fa / 3.0f, &ip); p[8] += ip * 0.5f; p[9] = norm3df(fa, fb, 1.5f);
	p[10] = rnorm4df(fa, fb, 2.0f, -1.0f) + erfinvf(fb / 8.0f - 0.4f);
	p[11] = cyl_bessel_i0f(fb) + __fdividef(fa, fb);
	double dx = x[t], di;
	double *r = d + t * 8;
	r[0] = frexp(dx, &e) + e; r[1] = ldexp(dx, 3 * t - 90); r[2] = nextafter(dx, 0.0);
	r[3] = remquo(dx, 2.75, &q) + q; r[4] = fmod(dx, -1.25) + modf(dx, &di) + di;
	r[5] = norm3d(dx, 1.0, t); r[6] = erfinv(dx / 31.0) + ilogb(dx); r[7] = cbrt(dx) + rhypot(dx, 3.0);
}
// atomicInc / atomicDec wrap at a limit; 16-bit atomicCAS on adjacent halves of a word;
// float2 / float4 atomicAdd (sm_90; sm_80 falls back to per-element adds).
//@ atomic_misc grid=2 block=64 | c:u32[4] check | h:u16[8] check | v:f32[8] check | inc:s32[128] rand(0,3)
extern "C" __global__ void atomic_misc(unsigned *c, unsigned short *h, float *v, const int *inc)
{
	int g = blockIdx.x * blockDim.x + threadIdx.x;
	atomicInc(&c[0], 17u);
	atomicDec(&c[1], 5u);
	if (inc[g] == 1) atomicInc(&c[2], 1000u);
	unsigned short *s = &h[g & 7], old = *s, seen;
	do {
		seen = old;
		old = atomicCAS(s, seen, (unsigned short)(seen + inc[g]));
	} while (old != seen);
#if __CUDA_ARCH__ >= 900
	atomicAdd((float2 *)&v[0], make_float2(inc[g], 0.5f));
	atomicAdd((float4 *)&v[4], make_float4(1, -0.25f, inc[g] * 0.125f, 2));
#else
	atomicAdd(&v[0], (float)inc[g]); atomicAdd(&v[1], 0.5f);
	atomicAdd(&v[4], 1.f); atomicAdd(&v[5], -0.25f); atomicAdd(&v[6], inc[g] * 0.125f); atomicAdd(&v[7], 2.f);
#endif
}
// __match_all_sync and coalesced groups formed by divergent branches (reduce inside).
//@ coalesced grid=1 block=64 | o:s32[192] check | in:s32[64] rand(0,5)
extern "C" __global__ void coalesced(int *o, const int *in)
{
	int t = threadIdx.x, v = in[t], pred;
	unsigned m = __match_all_sync(~0u, v & 0x100, &pred);
	o[t] = pred * 2 + (m == ~0u);
	if (v & 1) {
		auto g = cg::coalesced_threads();
		o[64 + t] = cg::reduce(g, v, cg::plus<int>()) * 100 + g.thread_rank() * 10 + (int)g.size();
	} else if (v != 2) {
		auto g = cg::coalesced_threads();
		o[64 + t] = -cg::reduce(g, v, cg::greater<int>()) - 1000 * g.size();
		unsigned b = g.ballot(v == 0);
		o[128 + t] = __popc(b) + (g.any(v == 4) ? 100 : 0) + (g.all(v >= 0) ? 1000 : 0);
	} else {
		o[64 + t] = __activemask() != 0;
	}
}
// cg::memcpy_async of a block's tile into dynamic shared memory, cg::wait, then a
// mixed-type view of the same extern buffer (double sums and int counts).
//@ cg_memcpy grid=2 block=128 shared=4608 | o:f64[4] check(1e-12) | n:s32[4] check | in:f64[1024] rand(-1,1)
extern "C" __global__ void cg_memcpy(double *o, int *n, const double *in)
{
	extern __shared__ __align__(16) unsigned char dyn[];
	double *tile = (double *)dyn;
	int *cnt = (int *)(dyn + 4096);
	auto blk = cg::this_thread_block();
	if (threadIdx.x < 2) cnt[threadIdx.x] = 0;
	cg::memcpy_async(blk, tile, in + blockIdx.x * 512, sizeof(double) * 512);
	cg::wait(blk);
	double s = 0;
	int pos = 0;
	for (int i = threadIdx.x; i < 512; i += 128) { s += tile[i] * tile[i]; pos += tile[i] > 0; }
	auto warp = cg::tiled_partition<32>(blk);
	s = cg::reduce(warp, s, cg::plus<double>());
	pos = cg::reduce(warp, pos, cg::plus<int>());
	if (warp.thread_rank() == 0) { atomicAdd(&cnt[0], pos); atomicAdd(&cnt[1], 1); }
	blk.sync();
	if (threadIdx.x == 0) { n[blockIdx.x * 2] = cnt[0]; n[blockIdx.x * 2 + 1] = cnt[1]; }
	if (warp.thread_rank() == 0) atomicAdd(&o[blockIdx.x * 2 + (warp.meta_group_rank() & 1)], s);
}
