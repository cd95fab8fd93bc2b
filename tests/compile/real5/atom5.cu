// Atomics, scopes and intrinsics, a fifth sweep (session 9, "breadth5"): cuda::atomic_ref
// with memory orders (fetch_add acq_rel, compare_exchange_strong, load acquire, store
// release), atomicAdd_block / _system, 64-bit atomicMax/Min/Or, the integer intrinsics (__mulhi __umul64hi __sad __usad __vabsdiff4
// __brevll __clzll __ffsll __popcll __fns) and the directed-rounding ones (__fadd_ru
// __fmaf_rz __dmul_rd __fsqrt_rd/ru/rz __double2ll_ru __ll2float_rd __float2int_rz
// __hiloint2double; __frcp_ru __fdiv_rz __ddiv_ru __drcp_rz __dsqrt_ru and 128-bit
// atom.cas are refused: docs/session9-breadth5.md), written for openassembler's tests;
// .ptx: nvcc 13.0 --ptx -O3 -arch=sm_XX (gen.sh); //@ lines: launch specs.
#include <cuda/atomic>
#include <cstdint>

//@ atomic_ref grid=2 block=64 | cnt:u32[4] check | tot:u64[4] check | x:u32[128] rand(0,1000)
extern "C" __global__ void atomic_ref(unsigned *cnt, unsigned long long *tot, const unsigned *x)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	cuda::atomic_ref<unsigned, cuda::thread_scope_device> c0(cnt[0]);
	cuda::atomic_ref<unsigned, cuda::thread_scope_block> c1(cnt[1]);
	cuda::atomic_ref<unsigned long long, cuda::thread_scope_system> t0(tot[0]);
	c0.fetch_add(x[i], cuda::memory_order_acq_rel);
	c1.fetch_max(x[i], cuda::memory_order_relaxed);
	t0.fetch_add((unsigned long long)x[i] << 20, cuda::memory_order_seq_cst);
	cuda::atomic_ref<unsigned, cuda::thread_scope_device> c2(cnt[2]);
	unsigned e = c2.load(cuda::memory_order_acquire);
	while (!c2.compare_exchange_strong(e, e + 3, cuda::memory_order_acq_rel, cuda::memory_order_acquire))
		;
	atomicAdd_block(&cnt[2], 1u);
	atomicAdd_system(&cnt[3], x[i] & 7);
	atomicMax(&tot[1], (unsigned long long)x[i] * 0x100000001ull);
	atomicMin((long long *)&tot[2], -(long long)x[i] * 77);
	atomicOr(&tot[3], 1ull << (x[i] & 63));
	cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> t3(tot[3]);
	/* an atomic RMW: a load + store here raced with the other warps' atomicOr */
	if (i == 0) t3.fetch_or(t3.load(cuda::memory_order_acquire) & 0xff, cuda::memory_order_release);
}

//@ int_intr grid=1 block=64 | o:u32[768] check | a:u32[64] rand(0,4294967295) | b:u32[64] rand(0,4294967295) | c:u64[64] rand(0,18446744073709551615)
extern "C" __global__ void int_intr(unsigned *o, const unsigned *a, const unsigned *b, const unsigned long long *c)
{
	int t = threadIdx.x;
	unsigned x = a[t], y = b[t], *r = o + t * 12;
	unsigned long long z = c[t];
	r[0] = __mulhi((int)x, (int)y);
	r[1] = (unsigned)(__umul64hi(z, (unsigned long long)y * x) >> 3);
	r[2] = __sad((int)x >> 4, (int)y >> 4, t);
	r[3] = __usad(x, y, t);
	r[4] = __vabsdiffu4(x, y) ^ __vmaxs2(x, y) ^ __vcmpgeu4(x, y);
	r[5] = (unsigned)(__brevll(z) >> 7);
	r[6] = __clzll(z >> (t & 63)) + (__ffsll(z << (t & 63)) << 8) + (__popcll(z ^ x) << 16);
	r[7] = __fns(x, y & 31, (t % 7) - 3);
	r[8] = __umulhi(x, y) + __hadd((int)x, (int)y) + __rhadd((int)y, t);
	r[9] = __uhadd(x, y) ^ __urhadd(x, ~y);
	r[10] = __byte_perm(x, y, t * 0x1357);
	r[11] = __vsetgtu2(x, y) + __vadd4(x, y) + __vsubss2(x, y);
}

//@ round_intr grid=1 block=64 | o:u32[832] check | f:f32[64] rand(-100,100) | g:f32[64] rand(0.5,50) | d:f64[64] rand(-1e6,1e6)
extern "C" __global__ void round_intr(unsigned *o, const float *f, const float *g, const double *d)
{
	int t = threadIdx.x;
	float x = f[t], y = g[t];
	double z = d[t];
	unsigned *r = o + t * 13;
	r[0] = __float_as_uint(__fadd_ru(x, y * 1e-7f));
	r[1] = __float_as_uint(__fmaf_rz(x, y, 1e-3f));
	r[2] = __float_as_uint(__fmul_rd(y, x)) ^ __float_as_uint(__fsqrt_rd(y)) ^ __float_as_uint(__fsqrt_ru(y * 3.f)) ^ __float_as_uint(__fsqrt_rz(fabsf(x)));
	r[3] = __float_as_uint(__fsub_rz(y, x * 1e-3f));
	r[4] = __float_as_uint(__fmaf_ru(x, -y, 0.3f));
	r[5] = __float2int_rz(x * 1e5f);
	r[6] = __float_as_uint(__ll2float_rd((long long)(z * 1e9)));
	unsigned long long q = __double_as_longlong(__dmul_rd(z, 1.0000001));
	r[7] = (unsigned)q; r[8] = (unsigned)(q >> 32);
	q = __double_as_longlong(__dadd_ru(z, (double)y * 1e-9));
	r[9] = (unsigned)q ^ (unsigned)(q >> 32);
	q = __double_as_longlong(__fma_rz(z, (double)x, 1e-7) + __double2float_rd(z));
	r[10] = (unsigned)q ^ (unsigned)(q >> 32);
	r[11] = (unsigned)__double2ll_ru(z * 3.3);
	r[12] = __double2hiint(__hiloint2double(r[5], r[0]) * 0.5);
}
