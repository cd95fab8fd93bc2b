// llm.c-style training kernels (AdamW with stochastic rounding to bf16, LayerNorm with
// cooperative-groups reductions, GELU on 128-bit bf16 packs, softmax with a block reduction),
// written for openassembler's tests; the .ptx files are nvcc 13.0 -arch=sm_XX --ptx of it.
#include <cuda_bf16.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
typedef __nv_bfloat16 bf16;
struct alignas(16) x128 { bf16 v[8]; };
__device__ inline float lerp(float s,float e,float w){ return fmaf(w,e,fmaf(-w,s,s)); }
__device__ inline unsigned hash(unsigned x){ x^=x>>17; x*=0xed5ad4bbU; x^=x>>11; x*=0xac4c1b51U; x^=x>>15; x*=0x31848babU; x^=x>>14; return x; }
__device__ inline void stochastic_round(bf16 *out, float in, unsigned seed){ unsigned r=hash(threadIdx.x+blockIdx.x*blockDim.x+seed); unsigned bits=__float_as_uint(in); unsigned thr=r&0xFFFF; unsigned f=bits&0xFFFF; bits= f>thr? bits+0x10000 : bits; bits&=0xFFFF0000u; *out=__float2bfloat16(__uint_as_float(bits)); }
extern "C" __global__ void adamw(bf16 *params, float *master, const float *grads, float *m, float *v, int n, float lr, float b1, float b2, float b1c, float b2c, float eps, float wd, unsigned seed){
  int i=blockIdx.x*blockDim.x+threadIdx.x; if(i>=n) return;
  float g=grads[i], mm=m[i], vv=v[i];
  mm=lerp(g,mm,b1); vv=lerp(g*g,vv,b2); m[i]=mm; v[i]=vv; mm/=b1c; vv/=b2c;
  float p=master[i]; p-= lr*(mm/(sqrtf(vv)+eps)+wd*p); master[i]=p; stochastic_round(&params[i],p,seed); }
extern "C" __global__ void layernorm(float *out, float *mean, float *rstd, const float *inp, const float *w, const float *b, int N, int C){
  cg::thread_block block=cg::this_thread_block(); cg::thread_block_tile<32> warp=cg::tiled_partition<32>(block);
  int idx=blockIdx.x*warp.meta_group_size()+warp.meta_group_rank(); if(idx>=N) return;
  const float *x=inp+idx*C; float sum=0.f; for(int i=warp.thread_rank();i<C;i+=warp.size()) sum+=x[i];
  sum=cg::reduce(warp,sum,cg::plus<float>{}); float mu=sum/C; if(warp.thread_rank()==0) mean[idx]=mu;
  sum=0.f; for(int i=warp.thread_rank();i<C;i+=warp.size()){ float d=x[i]-mu; sum+=d*d; }
  sum=cg::reduce(warp,sum,cg::plus<float>{}); float s=rsqrtf(sum/C+1e-5f); if(warp.thread_rank()==0) rstd[idx]=s;
  float *o=out+idx*C; for(int c=warp.thread_rank();c<C;c+=warp.size()){ float n=s*(__ldcs(x+c)-mu); __stcs(o+c,n*w[c]+b[c]); } }
extern "C" __global__ void gelu_bf16(x128 *out, const x128 *in, int n){
  int i=blockIdx.x*blockDim.x+threadIdx.x; if(i>=n) return; x128 a=in[i], r;
  for(int k=0;k<8;k++){ float x=__bfloat162float(a.v[k]); float c=0.7978845608f*(x+0.044715f*x*x*x); r.v[k]=__float2bfloat16(0.5f*x*(1.f+tanhf(c))); }
  out[i]=r; }
extern "C" __global__ void softmax_fwd(float *out, const float *inp, int N, int T){
  extern __shared__ float sh[]; int idx=blockIdx.x; int tid=threadIdx.x; const float *x=inp+idx*T;
  float mx=-INFINITY; for(int i=tid;i<T;i+=blockDim.x) mx=fmaxf(mx,x[i]);
  for(int o=16;o>0;o/=2) mx=fmaxf(mx,__shfl_xor_sync(0xffffffff,mx,o));
  if(tid%32==0) sh[tid/32]=mx; __syncthreads(); if(tid==0){ float m=sh[0]; for(int i=1;i<blockDim.x/32;i++) m=fmaxf(m,sh[i]); sh[0]=m;} __syncthreads(); mx=sh[0]; __syncthreads();
  float s=0; for(int i=tid;i<T;i+=blockDim.x){ float e=expf(x[i]-mx); out[idx*T+i]=e; s+=e; }
  for(int o=16;o>0;o/=2) s+=__shfl_xor_sync(0xffffffff,s,o);
  if(tid%32==0) sh[tid/32]=s; __syncthreads(); if(tid==0){ float t=0; for(int i=0;i<blockDim.x/32;i++) t+=sh[i]; sh[0]=t;} __syncthreads(); s=sh[0];
  for(int i=tid;i<T;i+=blockDim.x) out[idx*T+i]/=s; }
