// hostsim.h -- just enough of CUDA to run a suite kernel.cu as host C++:
// every CTA runs its threads as POSIX threads (CTAs one after another),
// __syncthreads and warp shuffles are barriers over the live threads,
// __shared__ becomes static (one CTA at a time), atomics take a lock.
// Used by tests/kernels/hostsim/run to cross-check the C references
// against the CUDA source itself.  Not for kernels with inline PTX.
#ifndef OA_HOSTSIM_H
#define OA_HOSTSIM_H

#include <cmath>
#include <cstdint>
#include <cstring>
#include <algorithm>
#include <mutex>
#include <condition_variable>

#include <vector_types.h>      /* uint3, dim3 (CUDA headers, host side) */
#include <vector_functions.h>  /* make_float4, ... */
#undef __global__
#undef __device__
#undef __host__
#undef __forceinline__
#undef __noinline__
#undef __shared__
#undef __launch_bounds__
#ifndef __CUDACC__
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline))
#define __shared__ static
#define __restrict__ __restrict
#define __launch_bounds__(...)
#endif

extern thread_local uint3 threadIdx, blockIdx;
extern dim3 blockDim, gridDim;
static const int warpSize = 32;
using std::isnan;
using std::isinf;
using std::isfinite;
using std::signbit;

void __syncthreads();
unsigned long long hs_shfl(unsigned long long v, int mode, int arg, int width);
std::mutex &hs_atomic_lock();
unsigned hs_ballot(int pred);
extern char hs_dynsmem[];       /* extern __shared__ arrays (run rewrites them) */
static inline unsigned __ballot_sync(unsigned, int p) { return hs_ballot(p); }
static inline int __any_sync(unsigned, int p) { return hs_ballot(p) != 0; }
int __all_sync(unsigned, int p);

template <class T> static T
hs_shfl_t(T v, int mode, int arg, int width)
{
	unsigned long long u = 0;
	std::memcpy(&u, &v, sizeof v);
	u = hs_shfl(u, mode, arg, width);
	std::memcpy(&v, &u, sizeof v);
	return v;
}
template <class T> static T __shfl_sync(unsigned, T v, int src, int w = 32) { return hs_shfl_t(v, 0, src, w); }
template <class T> static T __shfl_up_sync(unsigned, T v, unsigned d, int w = 32) { return hs_shfl_t(v, 1, d, w); }
template <class T> static T __shfl_down_sync(unsigned, T v, unsigned d, int w = 32) { return hs_shfl_t(v, 2, d, w); }
template <class T> static T __shfl_xor_sync(unsigned, T v, int m, int w = 32) { return hs_shfl_t(v, 3, m, w); }

template <class T> static T atomicAdd(T *p, T v) { std::lock_guard<std::mutex> g(hs_atomic_lock()); T o = *p; *p = o + v; return o; }
template <class T> static T atomicSub(T *p, T v) { std::lock_guard<std::mutex> g(hs_atomic_lock()); T o = *p; *p = o - v; return o; }
template <class T> static T atomicMax(T *p, T v) { std::lock_guard<std::mutex> g(hs_atomic_lock()); T o = *p; *p = std::max(o, v); return o; }
template <class T> static T atomicMin(T *p, T v) { std::lock_guard<std::mutex> g(hs_atomic_lock()); T o = *p; *p = std::min(o, v); return o; }
template <class T> static T atomicExch(T *p, T v) { std::lock_guard<std::mutex> g(hs_atomic_lock()); T o = *p; *p = v; return o; }
template <class T> static T atomicCAS(T *p, T c, T v) { std::lock_guard<std::mutex> g(hs_atomic_lock()); T o = *p; if (o == c) *p = v; return o; }
static inline void __threadfence() {}

static inline int max(int a, int b) { return a > b ? a : b; }
static inline int min(int a, int b) { return a < b ? a : b; }
static inline unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }
static inline unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
static inline int __popc(unsigned x) { return __builtin_popcount(x); }
static inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
static inline int __clz(unsigned x) { return x ? __builtin_clz(x) : 32; }
static inline int __ffs(unsigned x) { return __builtin_ffs((int)x); }
static inline unsigned __brev(unsigned x)
{
	unsigned r = 0;
	for (int k = 0; k < 32; k++)
		r |= (x >> k & 1) << (31 - k);
	return r;
}
static inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b)
{
	return (unsigned long long)(((unsigned __int128)a * b) >> 64);
}
static inline int __mulhi(int a, int b) { return (int)(((long long)a * b) >> 32); }
static inline unsigned __umulhi(unsigned a, unsigned b) { return (unsigned)(((unsigned long long)a * b) >> 32); }
/* float-to-integer conversions as PTX cvt: NaN -> 0, saturating */
static inline long long hs_cvt(double v, double lo, double hi)
{
	return v != v ? 0 : v <= lo ? (long long)lo : v >= hi ? (long long)hi : (long long)v;
}
static inline int __float2int_rn(float x) { return (int)hs_cvt(rint(x), -2147483648.0, 2147483647.0); }
static inline int __float2int_rz(float x) { return (int)hs_cvt(trunc(x), -2147483648.0, 2147483647.0); }
static inline int __float2int_rd(float x) { return (int)hs_cvt(floor(x), -2147483648.0, 2147483647.0); }
static inline unsigned __float2uint_rn(float x) { return (unsigned)hs_cvt(rint(x), 0.0, 4294967295.0); }
static inline long long __float2ll_rz(float x)
{
	return x != x ? 0 : x >= 0x1p63f ? 0x7fffffffffffffffll : x <= -0x1p63f ? (-0x7fffffffffffffffll - 1) : (long long)x;
}
static inline float __fdividef(float a, float b) { return a / b; }
static inline float hs_expf(float x) { return expf(x); }
#define __expf hs_expf
static inline float hs_sinf(float x) { return sinf(x); }
static inline float hs_cosf(float x) { return cosf(x); }
static inline float hs_logf(float x) { return logf(x); }
#define __sinf hs_sinf
#define __cosf hs_cosf
#define __logf hs_logf
static inline float __frcp_rn(float x) { return 1.0f / x; }
static inline float __fsqrt_rn(float x) { return sqrtf(x); }
static inline void __nanosleep(unsigned) {}
static inline unsigned atomicInc(unsigned *p, unsigned v)
{
	std::lock_guard<std::mutex> g(hs_atomic_lock());
	unsigned o = *p;
	*p = o >= v ? 0 : o + 1;
	return o;
}
static inline float __saturatef(float x) { return x != x || x < 0 ? 0 : x > 1 ? 1 : x; }
static inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s)
{
	unsigned long long v = (unsigned long long)y << 32 | x;
	unsigned r = 0;
	for (int k = 0; k < 4; k++)
		r |= (unsigned)(v >> 8 * ((s >> 4 * k) & 7) & 0xff) << 8 * k;
	return r;
}
static inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned sh)
{
	return (unsigned)((((unsigned long long)hi << 32 | lo) << (sh & 31)) >> 32);
}
static inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned sh)
{
	return (unsigned)(((unsigned long long)hi << 32 | lo) >> (sh & 31));
}
static inline unsigned __sad(int x, int y, unsigned z) { return (unsigned)(x > y ? (long long)x - y : (long long)y - x) + z; }
static inline int __dp4a(int a, int b, int c)
{
	for (int k = 0; k < 4; k++)
		c += (signed char)(a >> 8 * k) * (signed char)(b >> 8 * k);
	return c;
}
static inline int __mul24(int a, int b) { return (int)((long long)((a << 8) >> 8) * ((b << 8) >> 8)); }
static inline int __hadd(int a, int b) { return (int)(((long long)a + b) >> 1); }
static inline unsigned __urhadd(unsigned a, unsigned b) { return (unsigned)(((unsigned long long)a + b + 1) >> 1); }
static inline int __clzll(long long x) { return x ? __builtin_clzll(x) : 64; }
static inline float __int_as_float(int x) { float f; memcpy(&f, &x, 4); return f; }
static inline int __float_as_int(float f) { int x; memcpy(&x, &f, 4); return x; }
unsigned long long hs_gather(unsigned long long v, unsigned long long *all);  /* returns live lanes */
static inline unsigned __reduce_add_sync(unsigned, unsigned v)
{
	unsigned long long a[32]; unsigned n = (unsigned)hs_gather(v, a), r = 0;
	for (unsigned k = 0; k < n; k++) r += (unsigned)a[k];
	return r;
}
static inline unsigned __reduce_max_sync(unsigned, unsigned v)
{
	unsigned long long a[32]; unsigned n = (unsigned)hs_gather(v, a), r = 0;
	for (unsigned k = 0; k < n; k++) r = std::max(r, (unsigned)a[k]);
	return r;
}
static inline int __reduce_min_sync(unsigned, int v)
{
	unsigned long long a[32]; unsigned n = (unsigned)hs_gather((unsigned)v, a);
	int r = 0x7fffffff;
	for (unsigned k = 0; k < n; k++) r = std::min(r, (int)(unsigned)a[k]);
	return r;
}
template <class T> static unsigned __match_any_sync(unsigned, T v)
{
	unsigned long long a[32], me = 0;
	std::memcpy(&me, &v, sizeof v);
	unsigned n = (unsigned)hs_gather(me, a), m = 0;
	for (unsigned k = 0; k < n; k++) m |= (unsigned)(a[k] == me) << k;
	return m;
}
static inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
static inline double rsqrt(double x) { return 1.0 / sqrt(x); }

#include <cuda_fp16.h>
#include <cuda_bf16.h>
/* Device-only half intrinsics, on the host: exact in double (the product
 * of two halves has at most 22 bits), rounded once by __double2half. */
static inline __half __hfma(__half a, __half b, __half c)
{
	return __double2half(fma((double)__half2float(a), (double)__half2float(b), (double)__half2float(c)));
}
static inline __half2 __hfma2(__half2 a, __half2 b, __half2 c)
{
	return __halves2half2(__hfma(__low2half(a), __low2half(b), __low2half(c)),
			      __hfma(__high2half(a), __high2half(b), __high2half(c)));
}
static inline __nv_bfloat16 __hfma(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c)
{
	return __double2bfloat16(fma((double)__bfloat162float(a), (double)__bfloat162float(b),
				     (double)__bfloat162float(c)));
}

#endif
