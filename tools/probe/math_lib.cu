// math_lib.cu -- CUDA math library, intrinsics, integer division, printf,
// malloc, atomics on every type, warp intrinsics and cooperative groups, for
// nvcc -cubin probes (tools/harvest); never run.
// harvest: also -G
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

#define F1(f) o[i++] = f(x);
#define F2(f) o[i++] = f(x, y);

__global__ void mathf(float *o, const float *in, float p)
{
	int t = threadIdx.x, i = t * 128;
	float x = in[t], y = in[t + 1];
	F1(sinf) F1(cosf) F1(tanf) F1(expf) F1(exp2f) F1(exp10f) F1(expm1f) F1(logf) F1(log2f) F1(log10f)
	F1(log1pf) F1(sqrtf) F1(rsqrtf) F1(cbrtf) F1(rcbrtf) F1(asinf) F1(acosf) F1(atanf) F1(sinhf) F1(coshf)
	F1(tanhf) F1(asinhf) F1(acoshf) F1(atanhf) F1(erff) F1(erfcf) F1(erfinvf) F1(erfcinvf) F1(lgammaf)
	F1(tgammaf) F1(truncf) F1(roundf) F1(rintf) F1(nearbyintf) F1(ceilf) F1(floorf) F1(fabsf) F1(j0f)
	F1(y0f) F1(j1f) F1(normcdff) F1(normcdfinvf) F1(logbf) F1(sinpif) F1(cospif)
	F2(powf) F2(atan2f) F2(fmodf) F2(remainderf) F2(hypotf) F2(fdimf) F2(fminf) F2(fmaxf) F2(copysignf)
	F2(nextafterf) F2(__fdividef) F2(__powf) F2(fdividef) F2(__fadd_rz) F2(__fmul_rd) F2(__fdiv_ru)
	F2(__fsub_rn) F2(__fmul_ru) F2(__fadd_rd) F2(__fdiv_rz)
	F1(__sinf) F1(__cosf) F1(__tanf) F1(__expf) F1(__exp10f) F1(__logf) F1(__log2f) F1(__log10f)
	F1(__saturatef) F1(__frcp_rn) F1(__frcp_rz) F1(__fsqrt_rd) F1(__frsqrt_rn)
	o[i++] = fmaf(x, y, p); o[i++] = __fmaf_rz(x, y, p); o[i++] = __fmaf_rd(x, y, p);
	o[i++] = x / y; o[i++] = 1.0f / x; o[i++] = ldexpf(x, t); o[i++] = scalbnf(x, t);
	int e; o[i++] = frexpf(x, &e); o[i++] = e; o[i++] = ilogbf(x);
	float s, c; sincosf(x, &s, &c); o[i++] = s + c; __sincosf(y, &s, &c); o[i++] = s * c;
	o[i++] = isnan(x) + isinf(y) * 2 + isfinite(p) * 4 + signbit(x) * 8;
	o[i++] = (float)__float2int_rn(x) + __float2uint_rz(y) + __float2ll_rd(x) + __float2ull_ru(y);
	o[i++] = __int2float_rz(t) + __uint2float_rd(t) + __ll2float_ru(t) + __int_as_float(t);
	o[i++] = rnormf(3, in) + norm3df(x, y, p) + rhypotf(x, y) + erfcxf(x);
}

__global__ void mathd(double *o, const double *in, double p)
{
	int t = threadIdx.x, i = t * 128;
	double x = in[t], y = in[t + 1];
	F1(sin) F1(cos) F1(tan) F1(exp) F1(exp2) F1(exp10) F1(expm1) F1(log) F1(log2) F1(log10) F1(log1p)
	F1(sqrt) F1(rsqrt) F1(cbrt) F1(asin) F1(acos) F1(atan) F1(sinh) F1(cosh) F1(tanh) F1(erf) F1(erfc)
	F1(erfinv) F1(lgamma) F1(tgamma) F1(trunc) F1(round) F1(rint) F1(ceil) F1(floor) F1(fabs) F1(j0)
	F1(normcdf) F1(sinpi)
	F2(pow) F2(atan2) F2(fmod) F2(remainder) F2(hypot) F2(fmin) F2(fmax) F2(copysign) F2(nextafter)
	F2(__dadd_rz) F2(__dmul_rd) F2(__ddiv_ru) F2(__dsub_rn) F2(__dadd_ru) F2(__ddiv_rz)
	F1(__drcp_rn) F1(__dsqrt_rd) F1(__drcp_rz) F1(__dsqrt_ru)
	o[i++] = fma(x, y, p); o[i++] = __fma_rz(x, y, p); o[i++] = x / y; o[i++] = 1.0 / x;
	o[i++] = ldexp(x, t); int e; o[i++] = frexp(x, &e) + e + ilogb(y);
	o[i++] = (double)__double2int_rn(x) + __double2uint_rz(y) + __double2ll_rd(x) + __double2ull_ru(y);
	o[i++] = __int2double_rn(t) + __ll2double_rz(t) + __ull2double_rd(t) + __double2float_rz(x);
	o[i++] = __hiloint2double(t, t + 1) + __double2hiint(x) + __double_as_longlong(y);
	o[i++] = isnan(x) + isinf(y) * 2;
}

__global__ void mathi(int *o, const int *in, const unsigned *u, long long *l, unsigned long long *ul, int p)
{
	int t = threadIdx.x, i = t * 128;
	int x = in[t], y = in[t + 1] | 1;
	unsigned a = u[t], b = u[t + 1] | 1;
	long long lx = l[t], ly = l[t + 1] | 1;
	unsigned long long ux = ul[t], uy = ul[t + 1] | 1;
	o[i++] = x / y; o[i++] = x % y; o[i++] = a / b; o[i++] = a % b; o[i++] = x / 7; o[i++] = x % 13;
	o[i++] = a / 10; o[i++] = a % 1000; o[i++] = x / -3; o[i++] = x / p; o[i++] = a / 65536;
	o[i++] = (int)(lx / ly); o[i++] = (int)(lx % ly); o[i++] = (int)(ux / uy); o[i++] = (int)(ux % uy);
	o[i++] = (int)(lx / 10); o[i++] = (int)(ux / 1000000007ull); o[i++] = (int)(ux % 97);
	o[i++] = __popc(a) + __popcll(ux) + __clz(x) + __clzll(lx) + __ffs(x) + __ffsll(lx);
	o[i++] = __brev(a) ^ (unsigned)__brevll(ux); o[i++] = __byte_perm(a, b, 0x5140);
	o[i++] = __funnelshift_l(a, b, x) + __funnelshift_r(a, b, 5) + __funnelshift_lc(a, b, x) + __funnelshift_rc(a, b, 7);
	o[i++] = __mulhi(x, y) + __umulhi(a, b) + (int)__mul64hi(lx, ly) + (int)__umul64hi(ux, uy);
	o[i++] = __mul24(x, y) + __umul24(a, b) + __sad(x, y, 3) + __usad(a, b, 4);
	o[i++] = __hadd(x, y) + __rhadd(x, y) + __uhadd(a, b) + __urhadd(a, b);
	o[i++] = __vadd2(a, b) ^ __vsub4(a, b) ^ __vabsdiffu4(a, b) ^ __vmaxu2(a, b) ^ __vmins4(a, b) ^ __vcmpgtu4(a, b) ^ __vsads2(a, b);
	o[i++] = __vavgu4(a, b) ^ __vseteq2(a, b) ^ __vabs4(a) ^ __vneg2(a) ^ __vhaddu2(a, b);
	o[i++] = __dp4a(x, y, p) + __dp2a_lo(x, y, p) + __dp2a_hi(a, b, a);
	o[i++] = __vimax3_s32(x, y, p) + __vimin_s32_relu(x, y) + __vibmax_s32(x, y, (bool *)&o[i + 1]);
	o[i++] = min(x, y) + max(a, b) + abs(x) + (int)llabs(lx) + (int)min(lx, ly) + (int)max(ux, uy);
	o[i++] = (int)(lx * ly) + (int)(lx >> (x & 63)) + (int)(ux >> (y & 63)) + (int)(lx << (a & 63));
	o[i++] = (int)(ux * 12345ull) + (int)(lx * -7);
}

__global__ void halfs(__half *o, const __half *in, __nv_bfloat16 *bo, const __nv_bfloat16 *bi, __half2 *o2, const __half2 *i2)
{
	int t = threadIdx.x, i = t * 64;
	__half x = in[t], y = in[t + 1];
	__nv_bfloat16 bx = bi[t], by = bi[t + 1];
	__half2 x2 = i2[t], y2 = i2[t + 1];
	o[i++] = hsin(x); o[i++] = hcos(x); o[i++] = hexp(x); o[i++] = hexp2(x); o[i++] = hlog(x); o[i++] = hlog2(x);
	o[i++] = hsqrt(x); o[i++] = hrsqrt(x); o[i++] = hrcp(x); o[i++] = htrunc(x); o[i++] = hceil(x); o[i++] = hfloor(x);
	o[i++] = hrint(x); o[i++] = __hdiv(x, y); o[i++] = __hfma(x, y, x); o[i++] = __hmax(x, y); o[i++] = __hmin_nan(x, y);
	o[i++] = __hfma_relu(x, y, x); o[i++] = __habs(x); o[i++] = __hneg(y); o[i++] = __float2half_rz((float)x * 3.0f);
	o[i++] = __hadd_sat(x, y); o[i++] = htanh(x); o[i++] = hexp10(x); o[i++] = hlog10(x);
	o[i++] = __short2half_rn(t) ; o[i++] = __int2half_rd(t); o[i++] = __uint2half_ru(t);
	o[i++] = __float2half(__half2float(x) + __half2int_rz(y) + __half2uint_rd(x));
	bo[i++] = hsin(bx); bo[i++] = hexp(bx); bo[i++] = hsqrt(bx); bo[i++] = __hdiv(bx, by); bo[i++] = __hfma(bx, by, bx);
	bo[i++] = __hmax(bx, by); bo[i++] = __hmul(bx, by); bo[i++] = __hadd(bx, by); bo[i++] = hrcp(bx);
	bo[i++] = __float2bfloat16(__bfloat162float(bx) * 2.0f); bo[i++] = __int2bfloat16_rn(t); bo[i++] = hfloor(bx);
	o2[i++] = h2sin(x2); o2[i++] = h2exp(x2); o2[i++] = h2sqrt(x2); o2[i++] = __h2div(x2, y2); o2[i++] = __hfma2(x2, y2, x2);
	o2[i++] = __hmax2(x2, y2); o2[i++] = __hmul2_sat(x2, y2); o2[i++] = __hfma2_relu(x2, y2, x2); o2[i++] = __hcmadd(x2, y2, x2);
	o2[i++] = __floats2half2_rn(__low2float(x2), __high2float(y2)); o2[i++] = __hgt2(x2, y2);
	o2[i++] = h2rcp(x2); o2[i++] = h2log(x2); o2[i++] = h2tanh(x2) ;
	atomicAdd(&o[t], y); atomicAdd(&o2[t], y2); atomicAdd(&bo[t], by);
	o[t + 8] = __shfl_xor_sync(~0u, x, 3); o2[t + 8] = __shfl_down_sync(~0u, x2, 1);
}

__device__ unsigned long long counter;
__global__ void atomics(int *i32, unsigned *u32, unsigned long long *u64, long long *s64, float *f, double *d, unsigned short *u16)
{
	int t = threadIdx.x;
	int r = 0;
	r += atomicAdd(i32, t); r += atomicSub(i32 + 1, t); r += atomicExch(i32 + 2, t); r += atomicMin(i32 + 3, t);
	r += atomicMax(i32 + 4, t); r += atomicInc(u32, 17); r += atomicDec(u32 + 1, 17); r += atomicCAS(i32 + 5, t, r);
	r += atomicAnd(i32 + 6, t); r += atomicOr(i32 + 7, t); r += atomicXor(i32 + 8, t);
	r += (int)atomicAdd(u64, 3ull); r += (int)atomicCAS(u64 + 1, 1ull, 2ull); r += (int)atomicMin(s64, (long long)t);
	r += (int)atomicMax(u64 + 2, 5ull); r += (int)atomicAnd(u64 + 3, 5ull); r += (int)atomicExch(u64 + 4, 9ull);
	r += (int)atomicAdd(f, 1.5f); r += (int)atomicExch(f + 1, 2.5f); r += (int)atomicAdd(d, 1.5);
	r += atomicCAS(u16, (unsigned short)1, (unsigned short)t);
	r += atomicAdd_block(i32 + 9, t) + atomicAdd_system(i32 + 10, t);
	__shared__ int sh[64];
	__shared__ float shf[64];
	__shared__ double shd[64];
	__shared__ unsigned long long shu[64];
	r += atomicAdd(&sh[t & 63], 1) + atomicCAS(&sh[(t + 1) & 63], 3, 4) + atomicMax(&sh[2], t) + (int)atomicAdd(&shf[t & 63], 2.0f);
	r += (int)atomicAdd(&shd[t & 63], 2.0) + (int)atomicCAS(&shu[t & 63], 1ull, 7ull) + (int)atomicAdd(&shu[1], 5ull);
	r += atomicInc((unsigned *)&sh[5], 9u) + atomicExch(&sh[6], r) + (int)atomicExch(&shf[7], 1.0f);
	__syncthreads();
	r += sh[t & 63] + (int)shf[t & 31];
	atomicAdd((unsigned long long *)&counter, 1ull);
	i32[t + 64] = r;
}

__global__ void warps(int *o, const int *in, float *fo, double *dd)
{
	int t = threadIdx.x, x = in[t];
	float f = fo[t];
	double d = dd[t];
	unsigned m = __activemask();
	int r = __shfl_sync(m, x, 3) + __shfl_up_sync(~0u, x, 1) + __shfl_down_sync(~0u, x, 2, 16) + __shfl_xor_sync(~0u, x, 4, 8);
	r += (int)__shfl_sync(~0u, f, x) + (int)__shfl_xor_sync(~0u, d, 1) + (int)__shfl_down_sync(~0u, (long long)x, 1);
	r += __all_sync(~0u, x > 0) + __any_sync(m, x < 0) + __ballot_sync(~0u, x & 1) + __uni_sync(~0u, x);
	r += __match_any_sync(~0u, x); int pred; r += __match_all_sync(~0u, x, &pred) + pred;
	r += __match_any_sync(~0u, (long long)x * 3);
	r += __reduce_add_sync(~0u, x) + __reduce_min_sync(~0u, x) + __reduce_max_sync(~0u, (unsigned)x);
	r += __reduce_and_sync(~0u, x) + __reduce_or_sync(~0u, x) + __reduce_xor_sync(~0u, x);
	{ unsigned lm; asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lm)); r += __popc(lm); }
	__syncwarp(); __syncwarp(0xffff);
	r += __syncthreads_count(x > 3) + __syncthreads_and(x) + __syncthreads_or(x);
	__threadfence(); __threadfence_block(); __threadfence_system();
	r += (int)clock() + (int)clock64();
	__nanosleep(100); __nanosleep(x);
	o[t] = r;
	if (x == 12345) __trap();
	if (x == 54321) __brkpt();
	if (x == 777) asm volatile("exit;");
}

__global__ void groups(int *o, const int *in, float *f)
{
	cg::thread_block b = cg::this_thread_block();
	cg::grid_group g = cg::this_grid();
	auto w = cg::tiled_partition<32>(b);
	auto t8 = cg::tiled_partition<8>(b);
	int x = in[b.thread_rank()];
	int s = cg::reduce(w, x, cg::plus<int>()) + cg::reduce(t8, x, cg::greater<int>());
	float fs = cg::reduce(w, f[b.thread_rank()], cg::plus<float>());
	s += cg::inclusive_scan(w, x) + cg::exclusive_scan(t8, x, cg::bit_xor<int>());
	g.sync();
	b.sync();
	auto co = cg::coalesced_threads();
	s += co.shfl(x, 0) + co.size() + co.thread_rank() + w.meta_group_rank();
	s += t8.shfl_down(x, 1) + t8.any(x) + t8.ballot(x > 2);
	o[g.thread_rank()] = s + (int)fs;
}

__global__ void dyn(int *o, int n)
{
	int *p = (int *)malloc(n * sizeof(int));
	if (p) { for (int i = 0; i < n; i++) p[i] = i * o[i]; o[threadIdx.x] = p[n - 1]; free(p); }
	printf("tid %d n %d f %f d %lld\n", threadIdx.x, n, 1.5 * n, (long long)n * 3);
	void *q = alloca(n); ((volatile char *)q)[n - 1] = 1; o[1] = ((volatile char *)q)[threadIdx.x];
	assert(n != 77);
}

__device__ __noinline__ int rec(int n) { return n < 2 ? n : rec(n - 1) + rec(n - 2); }
typedef int (*fn_t)(int);
__device__ __noinline__ int f1(int x) { return x * 3; }
__device__ __noinline__ int f2(int x) { return x ^ 0x55; }
__device__ fn_t table[2] = {f1, f2};
__global__ void calls(int *o, const int *in)
{
	int x = in[threadIdx.x];
	o[threadIdx.x] = rec(x & 15) + table[x & 1](x);
	switch (x & 7) {
	case 0: o[1] = 5; break; case 1: o[2] = x; break; case 2: o[3] = x * 2; break; case 3: o[4] = 9; break;
	case 4: o[5] = x; break; case 5: o[6] = 1; break; default: o[7] = 0;
	}
}

__constant__ float cst[256];
__global__ void texs(float *o, cudaTextureObject_t t1, cudaTextureObject_t t2, cudaSurfaceObject_t s2, const float4 *in)
{
	int i = threadIdx.x;
	float u = in[i].x, v = in[i].y;
	float4 a = tex2D<float4>(t2, u, v);
	float b = tex1Dfetch<float>(t1, i) + tex1D<float>(t1, u) + tex2DLod<float>(t2, u, v, 1.0f) + tex2DGrad<float>(t2, u, v, make_float2(1, 0), make_float2(0, 1));
	float4 g = tex2Dgather<float4>(t2, u, v, 1);
	float c; surf2Dread(&c, s2, i * 4, i); surf2Dwrite(c + 1.0f, s2, i * 4, i + 1);
	o[i] = a.x + a.w + b + g.y + c + cst[i & 255] + cst[in[i].z > 0 ? 3 : 7];
	float3 w = make_float3(u, v, b);
	o[i + 64] = tex3D<float>(t1, u, v, b) + texCubemap<float>(t2, w.x, w.y, w.z) + tex2DLayered<float>(t2, u, v, i);
}
