// tests/compile/intr7/half7.cu: the device APIs of cuda_fp16.hpp, cuda_bf16.hpp, cuda_fp8.hpp,
// cuda_fp6.hpp and cuda_fp4.hpp (conversions in every rounding, arithmetic, math, comparisons,
// loads/stores with cache hints, shuffles, atomics), one kernel per group; 32 threads, o[k*32+t]
// holds result k of thread t.  PTX by gen.sh (nvcc 13.0 -O3); //@ lines: launch specs.

#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cuda_fp6.h>
#include <cuda_fp4.h>
#define K(name) extern "C" __global__ void name(unsigned *o, const unsigned *a, const float *f)
#define I threadIdx.x
#define H(x) __ushort_as_half((unsigned short)(x))
#define B(x) __ushort_as_bfloat16((unsigned short)(x))
#define H2(x) (*(const __half2*)&(x))
#define B2(x) (*(const __nv_bfloat162*)&(x))
#define OU(k, v) o[(k)*32+I] = (unsigned)(v)
#define OH2(k, v) do { __half2 t_ = (v); o[(k)*32+I] = *(unsigned*)&t_; } while (0)
#define OB2(k, v) do { __nv_bfloat162 t_ = (v); o[(k)*32+I] = *(unsigned*)&t_; } while (0)
#define OH(k, v) o[(k)*32+I] = __half_as_ushort(v)
#define OB(k, v) o[(k)*32+I] = __bfloat16_as_ushort(v)

//@ h_cvt_f2h grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(h_cvt_f2h) { float x = f[I]; OH(0, __float2half_rn(x)); OH(1, __float2half_rz(x)); OH(2, __float2half_rd(x)); OH(3, __float2half_ru(x)); OH2(4, __float22half2_rn(make_float2(x, -x))); OH2(5, __floats2half2_rn(x, 1.f)); }
//@ h_cvt_h2i grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(h_cvt_h2i) { __half h = __float2half(f[I]*100.f); OU(0, __half2int_rn(h)); OU(1, __half2int_rz(h)); OU(2, __half2int_rd(h)); OU(3, __half2int_ru(h)); OU(4, __half2uint_rn(h)); OU(5, __half2short_rz(h)); OU(6, __half2ushort_rd(h)); OU(7, __half2ll_rn(h)); OU(8, __half2ull_ru(h)); OU(9, __half2char_rz(h)); OU(10, __half2uchar_rz(h)); }
//@ h_cvt_i2h grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(h_cvt_i2h) { int v = a[I]; OH(0, __int2half_rn(v)); OH(1, __int2half_rz(v)); OH(2, __uint2half_rd(v)); OH(3, __short2half_ru((short)v)); OH(4, __ushort2half_rn((unsigned short)v)); OH(5, __ll2half_rz((long long)v<<20)); OH(6, __ull2half_rn((unsigned long long)v<<20)); OH(7, __double2half((double)f[I])); }
//@ h_arith grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(h_arith) { __half x = H(a[I]), y = H(a[I]>>16); OH(0, __hadd(x,y)); OH(1, __hsub(x,y)); OH(2, __hmul(x,y)); OH(3, __hdiv(x,y)); OH(4, __hfma(x,y,x)); OH(5, __hfma_sat(x,y,x)); OH(6, __hfma_relu(x,y,x)); OH(7, __hadd_sat(x,y)); OH(8, __hneg(x)); OH(9, __habs(x)); OH(10, __hmax(x,y)); OH(11, __hmin_nan(x,y)); OH(12, __hadd_rn(x,y)); OH(13, __hmul_sat(x,y)); }
//@ h_arith2 grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(h_arith2) { __half2 x = H2(a[I]), y = H2(a[I^1]); OH2(0, __hadd2(x,y)); OH2(1, __hmul2(x,y)); OH2(2, __h2div(x,y)); OH2(3, __hfma2_relu(x,y,x)); OH2(4, __hcmadd(x,y,x)); OH2(5, __habs2(x)); OH2(6, __hmax2_nan(x,y)); OH2(7, __hsub2_sat(x,y)); OH2(8, __lowhigh2highlow(x)); OH2(9, __lows2half2(x,y)); OH2(10, __hneg2(x)); }
//@ h_math grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(h_math) { __half x = __float2half(f[I]); OH(0, hsqrt(x)); OH(1, hrsqrt(x)); OH(2, hrcp(x)); OH(3, hexp(x)); OH(4, hexp2(x)); OH(5, hexp10(x)); OH(6, hlog(x)); OH(7, hlog2(x)); OH(8, hlog10(x)); OH(9, hsin(x)); OH(10, hcos(x)); OH(11, htanh(x)); OH(12, htanh_approx(x)); OH(13, hfloor(x)); OH(14, hceil(x)); OH(15, htrunc(x)); OH(16, hrint(x)); }
//@ h_math2 grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(h_math2) { __half2 x = __floats2half2_rn(f[I], f[I^1]); OH2(0, h2sqrt(x)); OH2(1, h2rsqrt(x)); OH2(2, h2rcp(x)); OH2(3, h2exp(x)); OH2(4, h2exp2(x)); OH2(5, h2log(x)); OH2(6, h2log2(x)); OH2(7, h2sin(x)); OH2(8, h2cos(x)); OH2(9, h2tanh(x)); OH2(10, h2floor(x)); OH2(11, h2rint(x)); OH2(12, h2exp10(x)); OH2(13, h2log10(x)); OH2(14, h2tanh_approx(x)); }
//@ h_cmp grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(h_cmp) { __half x = H(a[I]), y = H(a[I]>>16); __half2 p = H2(a[I]), q = H2(a[I^1]); OU(0, __heq(x,y) | __hne(x,y)<<1 | __hlt(x,y)<<2 | __hge(x,y)<<3 | __hequ(x,y)<<4 | __hgtu(x,y)<<5 | __hisnan(x)<<6 | __hisinf(x)<<7); OU(1, __hbeq2(p,q) | __hbltu2(p,q)<<1 | __hbgt2(p,q)<<2); OH2(2, __heq2(p,q)); OH2(3, __hgeu2(p,q)); OU(4, __heq2_mask(p,q)); OU(5, __hltu2_mask(p,q)); OH2(6, __hisnan2(p)); }
//@ h_mem grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(h_mem) { __half2 *o2 = (__half2*)o; __half2 v = __ldg((const __half2*)a + I); v = __hadd2(v, __ldcg((const __half2*)a + (I^3))); v = __hadd2(v, __ldca((const __half2*)a + (I^5))); v = __hadd2(v, __ldcs((const __half2*)a + (I^7))); v = __hadd2(v, __ldlu((const __half2*)a + (I^2))); v = __hadd2(v, __ldcv((const __half2*)a + (I^4))); __stcg(o2 + I, v); __stwb(o2 + 32 + I, v); __stcs(o2 + 64 + I, v); __stwt(o2 + 96 + I, v); __half h = __ldg((const __half*)a + I); __stcs((__half*)(o + 128) + I, h); }
//@ h_shfl grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(h_shfl) { __half2 v = H2(a[I]); __half h = H(a[I]); OH2(0, __shfl_xor_sync(~0u, v, 1)); OH2(1, __shfl_down_sync(~0u, v, 3)); OH(2, __shfl_sync(~0u, h, 5)); OH(3, __shfl_up_sync(~0u, h, 2)); }
//@ h_atomic grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(h_atomic) { __half2 *o2 = (__half2*)o; if (I < 8) o[I] = 0; __syncthreads(); atomicAdd(o2 + (I&7), H2(a[I])); atomicAdd((__half*)(o + 8) + (I&7), H(a[I]&0x3bff)); __syncthreads(); }
//@ b_cvt grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(b_cvt) { float x = f[I]; OB(0, __float2bfloat16(x)); OB(1, __float2bfloat16_rz(x)); OB(2, __float2bfloat16_rd(x)); OB(3, __float2bfloat16_ru(x)); OB2(4, __float22bfloat162_rn(make_float2(x, -x))); OU(5, __float_as_uint(__bfloat162float(B(a[I])))); OB(6, __int2bfloat16_rn((int)a[I])); OU(7, __bfloat162int_rz(B(a[I]))); OB(8, __double2bfloat16((double)x)); OB(9, __ull2bfloat16_rd(a[I])); OU(10, __bfloat162ull_rn(B(a[I]&0x5fff))); OB(11, __short2bfloat16_rz((short)a[I])); OU(12, __bfloat162short_ru(B(a[I]))); OB2(13, __halves2bfloat162(B(a[I]), B(a[I]>>16))); OB(14, __uint2bfloat16_rz(a[I])); OU(15, __bfloat162uint_rd(B(a[I]&0x7fff))); }
//@ b_arith grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(b_arith) { __nv_bfloat16 x = B(a[I]), y = B(a[I]>>16); OB(0, __hadd(x,y)); OB(1, __hsub(x,y)); OB(2, __hmul(x,y)); OB(3, __hdiv(x,y)); OB(4, __hfma(x,y,x)); OB(5, __hfma_relu(x,y,x)); OB(6, __hmax_nan(x,y)); OB(7, __hneg(x)); OB(8, __habs(x)); OB(9, __hadd_sat(x,y)); OB(10, __hmul_rn(x,y)); OB(11, __hfma_sat(x,y,x)); }
//@ b_arith2 grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(b_arith2) { __nv_bfloat162 x = B2(a[I]), y = B2(a[I^1]); OB2(0, __hadd2(x,y)); OB2(1, __hmul2(x,y)); OB2(2, __h2div(x,y)); OB2(3, __hfma2(x,y,x)); OB2(4, __hcmadd(x,y,x)); OB2(5, __hmin2(x,y)); OB2(6, __hsub2(x,y)); OB2(7, __hmul2_sat(x,y)); OB2(8, __hneg2(x)); OB2(9, __habs2(x)); }
//@ b_math grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(b_math) { __nv_bfloat16 x = __float2bfloat16(f[I]); OB(0, hsqrt(x)); OB(1, hrsqrt(x)); OB(2, hrcp(x)); OB(3, hexp(x)); OB(4, hexp2(x)); OB(5, hlog(x)); OB(6, hlog2(x)); OB(7, hsin(x)); OB(8, hcos(x)); OB(9, htanh(x)); OB(10, hfloor(x)); OB(11, hrint(x)); OB(12, hexp10(x)); OB(13, htanh_approx(x)); }
//@ b_cmp grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(b_cmp) { __nv_bfloat16 x = B(a[I]), y = B(a[I]>>16); __nv_bfloat162 p = B2(a[I]), q = B2(a[I^1]); OU(0, __heq(x,y) | __hlt(x,y)<<1 | __hgeu(x,y)<<2 | __hisnan(x)<<3 | __hisinf(x)<<4); OU(1, __hbeq2(p,q) | __hbltu2(p,q)<<1); OB2(2, __heq2(p,q)); OU(3, __hgt2_mask(p,q)); OB2(4, __hmax2(p,q)); }
//@ b_atomic grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(b_atomic) { if (I < 8) o[I] = 0; __syncthreads(); atomicAdd((__nv_bfloat162*)o + (I&7), B2(a[I])); atomicAdd((__nv_bfloat16*)(o + 8) + (I&7), B(a[I]&0x3f7f)); __syncthreads(); }
//@ b_shfl_mem grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(b_shfl_mem) { __nv_bfloat162 v = __ldg((const __nv_bfloat162*)a + I); v = __hadd2(v, __shfl_xor_sync(~0u, v, 4)); __stcs((__nv_bfloat162*)o + I, v); __nv_bfloat16 h = __ldcg((const __nv_bfloat16*)a + I); __stwt((__nv_bfloat16*)(o + 32) + I, h); }
//@ f8_cvt grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(f8_cvt) { float x = f[I]; OU(0, __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E4M3)); OU(1, __nv_cvt_float_to_fp8(x, __NV_NOSAT, __NV_E5M2)); OU(2, __nv_cvt_float2_to_fp8x2(make_float2(x, -x), __NV_SATFINITE, __NV_E4M3)); OU(3, __nv_cvt_halfraw_to_fp8(__half_raw(__float2half(x)), __NV_SATFINITE, __NV_E5M2)); OU(4, __nv_cvt_halfraw2_to_fp8x2(__half2_raw(__floats2half2_rn(x, 2*x)), __NV_SATFINITE, __NV_E4M3)); OU(5, __nv_cvt_bfloat16raw_to_fp8(__nv_bfloat16_raw(__float2bfloat16(x)), __NV_SATFINITE, __NV_E4M3)); OU(6, __nv_cvt_double_to_fp8((double)x, __NV_SATFINITE, __NV_E5M2)); OU(7, __nv_cvt_float_to_e8m0(x, __NV_SATFINITE, cudaRoundPosInf)); }
//@ f8_up grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(f8_up) { __nv_fp8x2_storage_t s = (unsigned short)a[I]; __half2_raw r = __nv_cvt_fp8x2_to_halfraw2(s, __NV_E4M3); OU(0, r.x | (unsigned)r.y << 16); r = __nv_cvt_fp8x2_to_halfraw2(s, __NV_E5M2); OU(1, r.x | (unsigned)r.y << 16); OU(2, __nv_cvt_fp8_to_halfraw((unsigned char)a[I], __NV_E4M3).x); __nv_fp8_e4m3 e; e.__x = (unsigned char)a[I]; OU(3, __float_as_uint((float)e)); __nv_fp8_e5m2 g; g.__x = (unsigned char)(a[I]>>8); OU(4, __float_as_uint((float)g)); OU(5, __nv_cvt_e8m0_to_bf16raw((unsigned char)a[I]).x); }
//@ f6_cvt grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(f6_cvt) { float x = f[I]; OU(0, __nv_cvt_float_to_fp6(x, __NV_E2M3, cudaRoundNearest)); OU(1, __nv_cvt_float2_to_fp6x2(make_float2(x,-x), __NV_E3M2, cudaRoundNearest)); OU(2, __nv_cvt_fp6x2_to_halfraw2((unsigned short)(a[I] & 0x3f3f), __NV_E2M3).x); __nv_fp6_e2m3 v; v.__x = a[I] & 0x3f; OU(3, __float_as_uint((float)v)); }
//@ f4_cvt grid=1 block=32 | o:u32[3072] check | a:u32[64] rand(0,4294967295) | f:f32[64] rand(-4.0,4.0)
K(f4_cvt) { float x = f[I]; OU(0, __nv_cvt_float_to_fp4(x, __NV_E2M1, cudaRoundNearest)); OU(1, __nv_cvt_float2_to_fp4x2(make_float2(x,-x), __NV_E2M1, cudaRoundNearest)); OU(2, __nv_cvt_fp4x2_to_halfraw2((unsigned char)a[I], __NV_E2M1).x); __nv_fp4_e2m1 v; v.__x = a[I] & 0xf; OU(3, __float_as_uint((float)v)); }
