// c7.h -- the bits of CUDA that clang 14 needs for tests/compile/clang7 without
// CUDA's headers (-nocudainc -nocudalib): qualifiers, built-in variables the
// way clang's __clang_cuda_builtin_vars.h declares them, and a few wrappers.
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __forceinline__ __attribute__((always_inline)) inline
#define __noinline__ __attribute__((noinline))
#define DI static __device__ __forceinline__
#define C7_ATTR __device__ __attribute__((always_inline))
#define C7_PROP(d, f) __declspec(property(get = f)) unsigned int d; \
	static C7_ATTR unsigned int f() { return __nvvm_read_ptx_sreg_##f(); }
struct __c7_tid { C7_PROP(x, tid_x) C7_PROP(y, tid_y) C7_PROP(z, tid_z) };
struct __c7_ctaid { C7_PROP(x, ctaid_x) C7_PROP(y, ctaid_y) C7_PROP(z, ctaid_z) };
struct __c7_ntid { C7_PROP(x, ntid_x) C7_PROP(y, ntid_y) C7_PROP(z, ntid_z) };
struct __c7_nctaid { C7_PROP(x, nctaid_x) C7_PROP(y, nctaid_y) C7_PROP(z, nctaid_z) };
extern const __device__ __c7_tid threadIdx;
extern const __device__ __c7_ctaid blockIdx;
extern const __device__ __c7_ntid blockDim;
extern const __device__ __c7_nctaid gridDim;
#define __syncthreads() __syncthreads()
DI int __shfl_down_sync(unsigned m, int v, int d) { return __nvvm_shfl_sync_down_i32(m, v, d, 0x1f); }
DI int __shfl_up_sync(unsigned m, int v, int d) { return __nvvm_shfl_sync_up_i32(m, v, d, 0); }
DI int __shfl_xor_sync(unsigned m, int v, int d) { return __nvvm_shfl_sync_bfly_i32(m, v, d, 0x1f); }
DI int __shfl_sync(unsigned m, int v, int l) { return __nvvm_shfl_sync_idx_i32(m, v, l, 0x1f); }
DI float __shfl_down_sync(unsigned m, float v, int d) { return __nvvm_shfl_sync_down_f32(m, v, d, 0x1f); }
DI float __shfl_xor_sync(unsigned m, float v, int d) { return __nvvm_shfl_sync_bfly_f32(m, v, d, 0x1f); }
DI int atomicAdd(int *p, int v) { return __nvvm_atom_add_gen_i(p, v); }
DI unsigned atomicAdd(unsigned *p, unsigned v) { return (unsigned)__nvvm_atom_add_gen_i((int *)p, (int)v); }
DI float atomicAdd(float *p, float v) { return __nvvm_atom_add_gen_f(p, v); }
DI unsigned long long atomicAdd(unsigned long long *p, unsigned long long v) { return __nvvm_atom_add_gen_ll((long long *)p, (long long)v); }
DI int atomicMax(int *p, int v) { return __nvvm_atom_max_gen_i(p, v); }
DI int atomicMin(int *p, int v) { return __nvvm_atom_min_gen_i(p, v); }
DI int atomicCAS(int *p, int c, int v) { return __nvvm_atom_cas_gen_i(p, c, v); }
DI unsigned atomicOr(unsigned *p, unsigned v) { return (unsigned)__nvvm_atom_or_gen_i((int *)p, (int)v); }
DI int atomicExch(int *p, int v) { return __nvvm_atom_xchg_gen_i(p, v); }
DI unsigned __ballot_sync(unsigned m, int p) { return __nvvm_vote_ballot_sync(m, p); }
DI float sqrtf(float x) { return __nvvm_sqrt_rn_f(x); }
DI float fabsf(float x) { return __nvvm_fabs_f(x); }
DI float fminf(float a, float b) { return __nvvm_fmin_f(a, b); }
DI float fmaxf(float a, float b) { return __nvvm_fmax_f(a, b); }
DI float __expf(float x) { return __nvvm_ex2_approx_f(x * 1.4426950408889634f); }
DI float rcpf(float x) { return __nvvm_rcp_rn_f(x); }
DI double sqrt(double x) { return __nvvm_sqrt_rn_d(x); }
DI float fmaf(float a, float b, float c) { return __nvvm_fma_rn_f(a, b, c); }
DI int __popc(unsigned x) { return __builtin_popcount(x); }
DI int __clz(int x) { return __builtin_clz((unsigned)x) * (x != 0) + 32 * (x == 0); }
DI unsigned __brev(unsigned x) { return __builtin_bitreverse32(x); }
DI int __mulhi(int a, int b) { return __nvvm_mulhi_i(a, b); }
DI float __ldg(const float *p) { return __nvvm_ldg_f(p); }
DI int __ldg(const int *p) { return __nvvm_ldg_i(p); }
typedef float float4 __attribute__((ext_vector_type(4)));
typedef float float2 __attribute__((ext_vector_type(2)));
typedef int int4 __attribute__((ext_vector_type(4)));
typedef unsigned char uchar4 __attribute__((ext_vector_type(4)));
typedef short short2 __attribute__((ext_vector_type(2)));
#define GID (blockIdx.x * blockDim.x + threadIdx.x)
