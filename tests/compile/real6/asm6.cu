// Rarely used PTX from inline asm, a sixth sweep (session 10, "breadth6"): prmt modes
// (f4e b4e rc8 ecl ecr rc16), bfind(.shiftamt), szext, bmsk, testp.*, copysign, mul24/mad24,
// sad, slct, set (not setp) to u32/f32, cnot, add.cc/addc/madc chains, fns, clz/popc/brev .b64,
// activemask; elect.sync (sm_90); written for openassembler's tests; .ptx: nvcc 13.0 --ptx -O3
// -arch=sm_XX (gen.sh); //@ lines: launch specs.
#include <cstdint>

__device__ unsigned prmt(unsigned a, unsigned b, unsigned c, int m)
{
	unsigned r;
	switch (m) {
	case 0: asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); break;
	case 1: asm("prmt.b32.b4e %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); break;
	case 2: asm("prmt.b32.rc8 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); break;
	case 3: asm("prmt.b32.ecl %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); break;
	case 4: asm("prmt.b32.ecr %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); break;
	case 5: asm("prmt.b32.rc16 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); break;
	default: asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); break;
	}
	return r;
}

//@ prmt_modes grid=1 block=64 | o:u32[448] check | a:u32[64] rand(0,4294967295) | b:u32[64] rand(0,4294967295) | c:u32[64] rand(0,4294967295)
extern "C" __global__ void prmt_modes(unsigned *o, const unsigned *a, const unsigned *b, const unsigned *c)
{
	int t = threadIdx.x;
	for (int m = 0; m < 7; m++) o[m * 64 + t] = prmt(a[t], b[t], c[t] + (t & 7), m);
}

//@ bits_asm grid=1 block=64 | o:u32[640] check | a:u32[64] rand(0,4294967295) | s:s32[64] rand(-2147483648,2147483647)
extern "C" __global__ void bits_asm(unsigned *o, const unsigned *a, const int *s)
{
	int t = threadIdx.x;
	unsigned x = a[t] >> (t & 31), r0, r1, r2, r3, r4, r5, r6, r7, r8, r9;
	int y = s[t] >> (t & 15);
	asm("bfind.u32 %0, %1;" : "=r"(r0) : "r"(x));
	asm("bfind.shiftamt.u32 %0, %1;" : "=r"(r1) : "r"(x));
	asm("bfind.s32 %0, %1;" : "=r"(r2) : "r"(y));
	asm("bfind.shiftamt.s32 %0, %1;" : "=r"(r3) : "r"(y));
	asm("szext.wrap.s32 %0, %1, %2;" : "=r"(r4) : "r"(x), "r"(t));
	asm("szext.clamp.u32 %0, %1, %2;" : "=r"(r5) : "r"(x), "r"(t & 31));
	asm("bmsk.wrap.b32 %0, %1, %2;" : "=r"(r6) : "r"(t & 31), "r"(x & 63));
	asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(r7) : "r"(t), "r"(x & 63));
	asm("fns.b32 %0, %1, %2, %3;" : "=r"(r8) : "r"(x), "r"(t & 31), "r"((t & 7) - 3));
	asm("cnot.b32 %0, %1;" : "=r"(r9) : "r"(x & (t & 1 ? 0u : ~0u)));
	unsigned *p = o + t;
	p[0] = r0; p[64] = r1; p[128] = r2; p[192] = r3; p[256] = r4;
	p[320] = r5; p[384] = r6; p[448] = r7; p[512] = r8; p[576] = r9;
}

//@ int_asm grid=1 block=64 | o:u32[512] check | a:s32[64] rand(-100000,100000) | b:s32[64] rand(-100000,100000) | c:u32[64] rand(0,4294967295)
extern "C" __global__ void int_asm(unsigned *o, const int *a, const int *b, const unsigned *c)
{
	int t = threadIdx.x, x = a[t], y = b[t], r0, r1, r3, r4, r5;
	unsigned z = c[t], r2, r6, r7;
	asm("mul24.lo.s32 %0, %1, %2;" : "=r"(r0) : "r"(x), "r"(y));
	asm("mad24.lo.s32 %0, %1, %2, %3;" : "=r"(r1) : "r"(x), "r"(y), "r"(t));
	asm("mul24.lo.u32 %0, %1, %2;" : "=r"(r2) : "r"(z), "r"((unsigned)y));
	asm("sad.s32 %0, %1, %2, %3;" : "=r"(r3) : "r"(x), "r"(y), "r"(t));
	asm("slct.s32.s32 %0, %1, %2, %3;" : "=r"(r4) : "r"(x), "r"(y), "r"(x - y));
	asm("slct.s32.f32 %0, %1, %2, %3;" : "=r"(r5) : "r"(x), "r"(y), "f"((float)(t - 32)));
	asm("set.gt.u32.s32 %0, %1, %2;" : "=r"(r6) : "r"(x), "r"(y));
	asm("{ .reg .pred q; setp.ne.s32 q, %3, 0; set.lt.and.u32.s32 %0, %1, %2, q; }" : "=r"(r7) : "r"(x), "r"(y), "r"(t & 2));
	unsigned *p = o + t;
	p[0] = r0; p[64] = r1; p[128] = r2; p[192] = r3; p[256] = r4; p[320] = r5; p[384] = r6; p[448] = r7;
}

//@ float_asm grid=1 block=64 | o:u32[384] check | a:f32[64] values(0.0,-0.0,1.0,-1.5,3e38,-3e38,1e-40,-1e-40,3.5,-2.25,1e38,-7.0) | b:f32[64] rand(-8,8)
extern "C" __global__ void float_asm(unsigned *o, const float *a, const float *b)
{
	int t = threadIdx.x;
	float x = t < 12 ? a[t] : (t == 12 ? __int_as_float(0x7fc00001) : b[t] * (t - 30)), y = b[t], f0, f1;
	if (t == 4 || t == 5) x *= 100.0f;   /* +-inf */
	unsigned r0, r1, r2, r3;
	asm("copysign.f32 %0, %1, %2;" : "=f"(f0) : "f"(y), "f"(x));
	asm("set.ge.f32.f32 %0, %1, %2;" : "=f"(f1) : "f"(x), "f"(y));
	asm("set.nan.u32.f32 %0, %1, %2;" : "=r"(r0) : "f"(x), "f"(y));
	asm("{ .reg .pred q; testp.subnormal.f32 q, %1; selp.u32 %0, 1, 0, q; }" : "=r"(r1) : "f"(x));
	asm("{ .reg .pred q, n, f, i; testp.notanumber.f32 n, %1; testp.finite.f32 f, %1; testp.infinite.f32 i, %1;"
	    " testp.normal.f32 q, %1; selp.u32 %0, 8, 0, q; @n or.b32 %0, %0, 1; @f or.b32 %0, %0, 2; @i or.b32 %0, %0, 4; }"
	    : "=r"(r2) : "f"(x));
	double d = (double)x, d1;
	asm("copysign.f64 %0, %1, %2;" : "=d"(d1) : "d"(d), "d"((double)y));
	asm("{ .reg .pred q; testp.number.f64 q, %1; selp.u32 %0, 1, 0, q; }" : "=r"(r3) : "d"(d1));
	unsigned *p = o + t;
	p[0] = __float_as_uint(f0); p[64] = __float_as_uint(f1); p[128] = r0; p[192] = r1; p[256] = r2;
	p[320] = r3 | (unsigned)(__double_as_longlong(d1) >> 32) << 1;
}

//@ carry_chain grid=1 block=64 | o:u32[512] check | a:u32[256] rand(0,4294967295) | b:u32[256] rand(0,4294967295)
extern "C" __global__ void carry_chain(unsigned *o, const unsigned *a, const unsigned *b)
{
	int t = threadIdx.x;
	const unsigned *x = a + 4 * t, *y = b + 4 * t;
	unsigned s0, s1, s2, s3, d0, d1, d2, d3, m0, m1, m2, m3;
	asm("add.cc.u32 %0, %4, %8; addc.cc.u32 %1, %5, %9; addc.cc.u32 %2, %6, %10; addc.u32 %3, %7, %11;"
	    : "=r"(s0), "=r"(s1), "=r"(s2), "=r"(s3)
	    : "r"(x[0]), "r"(x[1]), "r"(x[2]), "r"(x[3]), "r"(y[0]), "r"(y[1]), "r"(y[2]), "r"(y[3]));
	asm("sub.cc.u32 %0, %4, %8; subc.cc.u32 %1, %5, %9; subc.cc.u32 %2, %6, %10; subc.u32 %3, %7, %11;"
	    : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
	    : "r"(x[0]), "r"(x[1]), "r"(x[2]), "r"(x[3]), "r"(y[0]), "r"(y[1]), "r"(y[2]), "r"(y[3]));
	/* a 64 x 64 -> 128 multiply by mad.lo/hi.cc + madc chains (the bignum style) */
	asm("{ .reg .u32 t; mul.lo.u32 %0, %4, %6; mul.hi.u32 %1, %4, %6;"
	    " mad.lo.cc.u32 %1, %5, %6, %1; madc.hi.u32 %2, %5, %6, 0;"
	    " mad.lo.cc.u32 %1, %4, %7, %1; madc.hi.cc.u32 %2, %4, %7, %2; addc.u32 %3, 0, 0;"
	    " mad.lo.cc.u32 %2, %5, %7, %2; madc.hi.u32 %3, %5, %7, %3; }"
	    : "=r"(m0), "=r"(m1), "=r"(m2), "=r"(m3) : "r"(x[0]), "r"(x[1]), "r"(y[0]), "r"(y[1]));
	unsigned *p = o + t;
	p[0] = s0; p[64] = s1; p[128] = s2; p[192] = s3 ^ d0; p[256] = d1 + d2 * 3; p[320] = d3;
	p[384] = m0 ^ m1; p[448] = m2 + m3 * 7;
}

//@ bits64 grid=1 block=64 | o:u32[384] check | a:u64[64] rand(0,18446744073709551615)
extern "C" __global__ void bits64(unsigned *o, const unsigned long long *a)
{
	int t = threadIdx.x;
	unsigned long long x = a[t] >> t, br, b5;
	unsigned c, p, bf, bs;
	asm("clz.b64 %0, %1;" : "=r"(c) : "l"(x));
	asm("popc.b64 %0, %1;" : "=r"(p) : "l"(x));
	asm("brev.b64 %0, %1;" : "=l"(br) : "l"(x));
	asm("bfind.u64 %0, %1;" : "=r"(bf) : "l"(x));
	asm("bfind.shiftamt.s64 %0, %1;" : "=r"(bs) : "l"((long long)x - (1ll << 40)));
	asm("bfe.u64 %0, %1, %2, %3;" : "=l"(b5) : "l"(x), "r"(t), "r"(t & 15));
	unsigned *q = o + t;
	q[0] = c; q[64] = p; q[128] = (unsigned)br ^ (unsigned)(br >> 32); q[192] = bf; q[256] = bs;
	q[320] = (unsigned)b5 + (unsigned)(b5 >> 32);
}

//@ active_elect grid=1 block=64 | o:u32[192] check | a:s32[64] rand(0,9)
extern "C" __global__ void active_elect(unsigned *o, const int *a)
{
	int t = threadIdx.x;
	unsigned m = 0, e = 0, leader = 99;
	if (a[t] > 3) {
		asm volatile("activemask.b32 %0;" : "=r"(m));
		m = __popc(m) > 0;
	}
	__syncwarp();
#if __CUDA_ARCH__ >= 900
	asm volatile("{ .reg .pred p; elect.sync %0|p, 0xffffffff; selp.u32 %1, 1, 0, p; }" : "=r"(leader), "=r"(e));
#else
	leader = 0; e = (t & 31) == 0;
#endif
	o[t] = m; o[64 + t] = e; o[128 + t] = leader;
}

//@ more_asm grid=1 block=64 | o:u32[640] check | a:u32[64] rand(0,4294967295) | b:u32[64] rand(0,4294967295)
extern "C" __global__ void more_asm(unsigned *o, const unsigned *a, const unsigned *b)
{
	int t = threadIdx.x;
	unsigned x = a[t], y = b[t], r0, r1, r2, r3, r4, r5, r6, r7, r8, r9;
	unsigned long long w = (unsigned long long)x << 32 | y, q;
	asm("mul24.hi.u32 %0, %1, %2;" : "=r"(r0) : "r"(x), "r"(y));
	asm("mad24.hi.s32 %0, %1, %2, %3;" : "=r"(r1) : "r"(x), "r"(y), "r"(t));
	asm("bfi.b64 %0, %1, %2, %3, %4;" : "=l"(q) : "l"(w), "l"(~w), "r"(t), "r"(t & 31));
	asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(r2) : "r"(x), "r"(y), "r"(t + 5));
	asm("shf.r.clamp.b32 %0, %1, %2, %3;" : "=r"(r3) : "r"(x), "r"(y), "r"(t));
	asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(r4) : "r"(x), "r"(y), "r"(t));
	asm("prmt.b32 %0, %1, %2, 0x3210 ;" : "=r"(r5) : "r"(y), "r"(x));
	asm("{ .reg .pred p, c; setp.gt.u32 c, %1, 0xf0000000; vote.sync.any.pred p, c, 0xffffffff; selp.u32 %0, 1, 0, p; }" : "=r"(r6) : "r"(x));
	asm("{ .reg .pred p; setp.lt.u32 p, %1, %2; bar.red.popc.u32 %0, 0, p; }" : "=r"(r7) : "r"(x), "r"(y));
	asm("{ .reg .pred p, q; setp.lt.u32 p, %1, %2; bar.red.or.pred q, 0, p; selp.u32 %0, 7, 3, q; }" : "=r"(r8) : "r"(x), "r"(y >> 4));
	asm("mad.hi.u32 %0, %1, %2, %3;" : "=r"(r9) : "r"(x), "r"(y), "r"(t));
	unsigned *p = o + t;
	p[0] = r0; p[64] = r1; p[128] = (unsigned)q; p[192] = (unsigned)(q >> 32); p[256] = r2 ^ r3;
	p[320] = r4; p[384] = r5; p[448] = r6; p[512] = r7 + r8; p[576] = r9;
}

//@ half_asm grid=1 block=64 | o:u32[256] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4,4)
extern "C" __global__ void half_asm(unsigned *o, const unsigned *a, const float *f)
{
	int t = threadIdx.x;
	unsigned x = a[t] & 0x3fff3fffu, r0, r1, r2;
	unsigned short h;
	asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r0) : "f"(f[t]), "f"(-f[t] * 0.5f));
	asm("{ .reg .b32 z; fma.rn.relu.f16x2 z, %1, %2, %1; min.NaN.f16x2 %0, z, %2; }" : "=r"(r1) : "r"(x), "r"(r0));
	asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(h) : "f"(f[t] * 1000.0f));
	asm("set.gtu.u32.f16x2 %0, %1, %2;" : "=r"(r2) : "r"(x), "r"(r0));
	o[t] = r0; o[64 + t] = r1; o[128 + t] = h; o[192 + t] = r2;
}

//@ misc_asm grid=1 block=64 | o:u32[640] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-3,3) | g:f32[64] rand(-3,3)
extern "C" __global__ void misc_asm(unsigned *o, const unsigned *a, const float *f, const float *g)
{
	__shared__ unsigned sh[64];
	int t = threadIdx.x;
	unsigned x = a[t], r0, r1, r2, r3, r4, r5, r6, r7, r8;
	float y = f[t], z = g[t];
	sh[t] = x;
	__syncthreads();
	asm("{ .reg .pred p; shfl.sync.idx.b32 %0|p, %2, %3, 0x1f, 0xffffffff; selp.u32 %1, 1, 0, p; }"
	    : "=r"(r0), "=r"(r1) : "r"(x), "r"((t * 7) & 31));
	asm("{ .reg .pred p; shfl.sync.up.b32 %0|p, %1, 3, 0x0, 0xffffffff; @!p mov.b32 %0, 0xdead; }" : "=r"(r2) : "r"(x));
	asm("{ .reg .u64 g; .reg .pred p, q; cvta.shared.u64 g, %1; isspacep.shared p, g; isspacep.global q, g;"
	    " selp.u32 %0, 2, 0, p; @q or.b32 %0, %0, 1; }" : "=r"(r3) : "l"((unsigned long long)(size_t)0) );
	asm("mul.wide.s16 %0, %1, %2;" : "=r"(r4) : "h"((short)x), "h"((short)(x >> 16)));
	asm("{ .reg .b16 a, b; mov.b32 {a, b}, %1; mad.wide.u16 %0, a, b, %2; }" : "=r"(r5) : "r"(x), "r"(t));
#if __CUDA_ARCH__ >= 900
	asm("min.u16x2 %0, %1, %2;" : "=r"(r6) : "r"(x), "r"(__brev(x)));   /* sm_90 */
#else
	r6 = __vminu2(x, __brev(x));
#endif
	asm("{ .reg .b32 h; cvt.rn.bf16x2.f32 h, %1, %2; abs.bf16x2 %0, h; }" : "=r"(r7) : "f"(y), "f"(z));
	asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r8) : "f"(y * 1.2345f));
	unsigned *p = o + t;
	p[0] = r0; p[64] = r1; p[128] = r2; p[192] = r3 + sh[(t + 1) & 63]; p[256] = r4;
	p[320] = r5; p[384] = r6; p[448] = r7; p[512] = r8;
	p[576] = __float_as_uint(tanhf(y)) ^ __float_as_uint(__expf(z));
}
