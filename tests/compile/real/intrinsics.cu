// Math and warp intrinsics as CUDA code calls them (written for openassembler's
// tests; the .ptx files are nvcc 13.0 -arch=sm_XX --ptx of it).
#include <cuda_fp16.h>
#include <cuda_bf16.h>
extern "C" __global__ void k_match(const unsigned *a, unsigned *o){ int p; int i=threadIdx.x; unsigned m=__match_all_sync(0xffffffff,a[i]&1,&p); o[i]=m+p+__match_any_sync(0xffffffff,a[i])+__ffs(a[i])+__ffsll((long long)a[0]<<20)+__mul24(a[1],a[i])+__umul24(a[3],a[i])+__usad(a[5],a[i],a[7]); }
extern "C" __global__ void k_fmath(const float *x, float *o){ int i=threadIdx.x; float s,c; int e; sincospif(x[i],&s,&c); o[i]=s+c+rnormf(3,x+i)+erfcinvf(x[i]*0.3f)+tgammaf(x[i])+j0f(x[i])+expm1f(x[i])+logbf(x[i])+ilogbf(x[i])+frexpf(x[i],&e)+e+ldexpf(x[i],3)+remainderf(x[i],1.3f)+nextafterf(x[i],0.f)+rintf(x[i])+truncf(x[i])+roundf(x[i]); }
extern "C" __global__ void k_hscalar(const __half *h, const __nv_bfloat16 *b, __half *oh, __nv_bfloat16 *ob){ int i=threadIdx.x; oh[i]=__hadd(h[i],h[i+1])*__hsub(h[i],h[i+2])/h[i+3]; ob[i]=__hadd(b[i],b[i+1])*hexp(b[i]); oh[i+64]=__shfl_down_sync(0xffffffff,h[i],1); }
extern "C" __global__ void k_hi(const unsigned long long *a, unsigned long long *o){ int i=threadIdx.x; o[i]=__umul64hi(a[i],a[i+1])+__mul64hi((long long)a[i],(long long)a[i+2])+__mulhi((int)a[i],3)+__umulhi((unsigned)a[i],7u); }
extern "C" __global__ void k_dmath(const double *x, double *o){ int i=threadIdx.x; o[i]=erf(x[i])+lgamma(x[i])+atan2(x[i],2.0)+acosh(x[i])+cbrt(x[i])+fmod(x[i],0.3)+rsqrt(x[i])+exp10(x[i])+hypot(x[i],1.0)+normcdf(x[i]); }
extern "C" __global__ void k_shfl64(const double *d, const long long *l, double *od, long long *ol){ int i=threadIdx.x; od[i]=__shfl_xor_sync(0xffffffff,d[i],3)+__shfl_up_sync(0xffffffff,d[i],1,16); ol[i]=__shfl_sync(0xffffffff,l[i],5); }
extern "C" __global__ void k_vote(const int *x, int *o){ int i=threadIdx.x; o[i]=__all_sync(0xffffffff,x[i]>0)+__any_sync(__activemask(),x[i]<0)+__popc(__ballot_sync(0xffffffff,x[i]&1))+__uhadd(x[i],x[i+1])+__rhadd(x[i],x[i+2]); }
__device__ int fact(int n){ return n<=1?1:n*fact(n-1); }
extern "C" __global__ void k_rec(const int *x, int *o){ o[threadIdx.x]=fact(x[threadIdx.x]&7); }
