// A PTX instruction zoo by inline asm, a fourth sweep (session 8, "breadth4"): integer
// corner forms (cvt.pack.sat, bfind.shiftamt, bmsk, szext, prmt modes, lop3, bfe/bfi
// 64-bit, mul24.hi, mad.hi.cc/madc chains, shf.r.clamp, add.sat, mul.hi.s64, sad.s32,
// rem.s64, popc/clz/brev.b64, fns, testp, copysign) and packed half/bf16 forms (fma.relu
// bf16x2, abs/neg bf16x2, max/min.NaN, tanh.approx f16x2, ex2 bf16x2 (sm_90),
// cvt.rn.relu.bf16x2.f32, cvt.rna.satfinite.tf32), written for openassembler's tests;
// .ptx: nvcc 13.0 --ptx -O3 -arch=sm_XX (gen.sh); //@ lines: launch specs.
#include <cstdint>

//@ zoo_int grid=1 block=64 | o:u32[1536] check | a:u32[64] rand(0,4294967295) | b:u32[64] rand(0,4294967295) | c:u64[64] rand(0,18446744073709551615)
extern "C" __global__ void zoo_int(unsigned *o, const unsigned *a, const unsigned *b, const unsigned long long *c)
{
	int t = threadIdx.x;
	unsigned x = a[t], y = b[t], r[24];
	unsigned long long z = c[t], w;
	asm("cvt.pack.sat.s8.s32.b32 %0, %1, %2, %3;" : "=r"(r[0]) : "r"((int)x >> 20), "r"((int)y >> 22), "r"(x & 0xffff));
	asm("cvt.pack.sat.u16.s32 %0, %1, %2;" : "=r"(r[1]) : "r"((int)x >> 12), "r"((int)y >> 14));
	asm("bfind.shiftamt.u32 %0, %1;" : "=r"(r[2]) : "r"(x >> (t & 31)));
	asm("bmsk.wrap.b32 %0, %1, %2;" : "=r"(r[3]) : "r"(x & 31), "r"(y & 63));
	asm("szext.clamp.s32 %0, %1, %2;" : "=r"(r[4]) : "r"(x), "r"(y & 63));
	asm("prmt.b32.ecr %0, %1, %2, %3;" : "=r"(r[5]) : "r"(x), "r"(y), "r"(t));
	asm("lop3.b32 %0, %1, %2, %3, 0x6a;" : "=r"(r[6]) : "r"(x), "r"(y), "r"(t * 0x9e3779b9u));
	asm("bfe.s64 %0, %1, %2, %3;" : "=l"(w) : "l"(z), "r"(x & 63), "r"(y & 63));
	r[7] = (unsigned)w; r[8] = (unsigned)(w >> 32);
	asm("bfi.b64 %0, %1, %2, %3, %4;" : "=l"(w) : "l"(z), "l"((unsigned long long)x << 7), "r"(y & 63), "r"(x & 63));
	r[9] = (unsigned)w ^ (unsigned)(w >> 32);
	asm("mul24.hi.s32 %0, %1, %2;" : "=r"(r[10]) : "r"(x), "r"(y));
	asm("{ .reg .u32 lo, hi;\n mad.lo.cc.u32 lo, %1, %2, %3;\n madc.hi.cc.u32 hi, %1, %2, %4;\n addc.u32 %0, hi, lo; }"
	    : "=r"(r[11]) : "r"(x), "r"(y), "r"(t), "r"(~x));
	asm("shf.r.clamp.b32 %0, %1, %2, %3;" : "=r"(r[12]) : "r"(x), "r"(y), "r"(t));
	asm("add.sat.s32 %0, %1, %2;" : "=r"(r[13]) : "r"(x), "r"(y));
	asm("mul.hi.s64 %0, %1, %2;" : "=l"(w) : "l"(z), "l"((long long)(int)x)); r[14] = (unsigned)(w >> 17);
	asm("sad.s32 %0, %1, %2, %3;" : "=r"(r[15]) : "r"(x), "r"(y), "r"(t));   /* sad.u64: refused (rare) */
	asm("rem.s64 %0, %1, %2;" : "=l"(w) : "l"((long long)z), "l"((long long)(int)(y | 1))); r[16] = (unsigned)w;
	asm("{ .reg .u32 p, q, s;\n popc.b64 p, %1;\n clz.b64 q, %1;\n brev.b32 s, %2;\n add.u32 %0, p, q;\n xor.b32 %0, %0, s; }" : "=r"(r[17]) : "l"(z), "r"(x));
	asm("fns.b32 %0, %1, %2, %3;" : "=r"(r[18]) : "r"(x), "r"(y & 31), "r"((int)(t % 9) - 4));
	float f = __int_as_float(x), g = __int_as_float(y);
	asm("{ .reg .pred p, q;\n testp.finite.f32 p, %1;\n testp.subnormal.f32 q, %2;\n selp.u32 %0, 1, 0, p;\n @q add.u32 %0, %0, 2; }"
	    : "=r"(r[19]) : "f"(f), "f"(g));
	asm("copysign.f32 %0, %1, %2;" : "=r"(r[20]) : "f"(f), "f"(g));
	asm("cvt.rni.s32.f32 %0, %1;" : "=r"(r[21]) : "f"((float)(int)x * 0.37f));
	asm("cvt.rzi.ftz.sat.f32.f32 %0, %1;" : "=f"(f) : "f"((float)(int)y * 1e-9f)); r[22] = __float_as_uint(f);
	asm("{ .reg .pred p;\n setp.ne.u32 p, %1, 0;\n vote.sync.ballot.b32 %0, p, 0xffffffff; }" : "=r"(r[23]) : "r"(x & 1));
	for (int k = 0; k < 24; k++) o[t * 24 + k] = r[k];
}
//@ zoo_half grid=1 block=64 | o:u32[768] check | a:f32[128] rand(-8,8) | b:f32[128] rand(-8,8)
extern "C" __global__ void zoo_half(unsigned *o, const float2 *a, const float2 *b)
{
	int t = threadIdx.x;
	float2 p = a[t], q = b[t];
	unsigned hp, hq, bp, bq, r[12];
	asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(hp) : "f"(p.x), "f"(p.y));
	asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(hq) : "f"(q.x), "f"(q.y));
	asm("cvt.rn.relu.bf16x2.f32 %0, %1, %2;" : "=r"(bp) : "f"(p.x), "f"(p.y));
	asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(bq) : "f"(q.x), "f"(q.y));
	r[0] = hp; r[1] = bp;
	asm("fma.rn.relu.bf16x2 %0, %1, %2, %3;" : "=r"(r[2]) : "r"(bq), "r"(bq), "r"(bp));
	asm("{ .reg .b32 u;\n abs.bf16x2 u, %1;\n neg.bf16x2 %0, u; }" : "=r"(r[3]) : "r"(bq));
	asm("max.NaN.f16x2 %0, %1, %2;" : "=r"(r[4]) : "r"(hp), "r"(hq));
	asm("min.NaN.f16x2 %0, %1, %2;" : "=r"(r[5]) : "r"(hp), "r"(hq));   /* .xorsign.abs: refused */
	asm("tanh.approx.f16x2 %0, %1;" : "=r"(r[6]) : "r"(hq));
#if __CUDA_ARCH__ >= 900
	asm("ex2.approx.ftz.bf16x2 %0, %1;" : "=r"(r[7]) : "r"(bq));
#else
	r[7] = bq;
#endif
	asm("cvt.rna.satfinite.tf32.f32 %0, %1;" : "=r"(r[8]) : "f"(p.x * 1e30f));
	asm("{ .reg .b16 l, h;\n mov.b32 {l, h}, %1;\n max.bf16 l, l, h;\n min.f16 h, h, l;\n mov.b32 %0, {h, l}; }" : "=r"(r[9]) : "r"(hq));
	asm("max.NaN.f32 %0, %1, %2;" : "=r"(r[10]) : "f"(p.x / (t & 1 ? q.x : 0.f) * 0.f), "f"(q.y));
	asm("fma.rn.sat.f16x2 %0, %1, %2, %3;" : "=r"(r[11]) : "r"(hp), "r"(hq), "r"(hp));
	for (int k = 0; k < 12; k++) o[t * 12 + k] = r[k];
}
