// nvvm7.cu -- tests/compile/clang7: clang 14's NVVM builtins as they reach PTX:
// approximate math (sin/cos/lg2/ex2/rsqrt/rcp.f64), directed roundings, ftz,
// saturate, f2i/d2i conversions, match.any, vote.all/any/uni, bar.red
// (popc/and/or), redux.sync, atom.cta/atom.sys, membar, isspacep, atom.inc;
// templates and inline member functions (.weak .func at -O0).
// At -O1 and above LLVM folds __nvvm_i2f_rz into cvt.rn (its instcombine),
// so nvb7's o[256..319] differ between -O0 and -O2: the producer's doing.
#include "c7.h"
//@ nvb7 grid=1 block=64 | o:f32[640] check(1e-5) | a:f32[64] rand(0.1,4) | b:f32[64] rand(-4,4)
extern "C" __global__ void nvb7(float *o, const float *a, const float *b) {
	int i = threadIdx.x; float x = a[i], y = b[i];
	o[i] = __nvvm_sin_approx_f(y) + __nvvm_cos_approx_f(y);
	o[64+i] = __nvvm_lg2_approx_f(x) + __nvvm_rsqrt_approx_f(x);
	o[128+i] = __nvvm_div_approx_f(y, x) + __nvvm_div_rn_f(y, x);
	o[192+i] = __nvvm_saturate_f(y) + __nvvm_fmin_ftz_f(x, y) + __nvvm_fmax_ftz_f(x, y);
	o[256+i] = (float)__nvvm_f2i_rz(y * 10.f) + (float)__nvvm_f2ui_rm(x * 10.f) + __nvvm_i2f_rz(i * 1234567);
	o[320+i] = __nvvm_fma_rn_ftz_f(x, y, 1.0f) + __nvvm_sqrt_approx_f(x) + __nvvm_rcp_approx_ftz_d(x);
	o[384+i] = __nvvm_ex2_approx_ftz_f(y) + __nvvm_floor_f(y) + __nvvm_ceil_f(y) + __nvvm_trunc_f(y) + __nvvm_round_f(y);
	o[448+i] = __builtin_copysignf(x, y) + (float)__nvvm_d2i_rn((double)y * 3.3) + (float)__nvvm_d2f_rz((double)x / 3.0);
	o[512+i] = __nvvm_add_rm_f(x, y) + __nvvm_mul_rp_f(x, y) + __nvvm_fabs_ftz_f(y);
	o[576+i] = (float)__nvvm_f2i_rn(y * 100.f) + __nvvm_bitcast_i2f(__nvvm_bitcast_f2i(x) ^ 0x80000000);
}
//@ nvc7 grid=2 block=64 | o:u32[512] check | a:u32[128] rand(0,4294967295) | c:s32[4] values(0) check
extern "C" __global__ void nvc7(unsigned *o, const unsigned *a, int *c) {
	int i = GID; unsigned x = a[i];
	o[i] = __nvvm_match_any_sync_i32(0xffffffffu, x & 3);
	o[128+i] = __nvvm_vote_all_sync(0xffffffffu, x > 1000u) + 2 * __nvvm_vote_any_sync(0xffffffffu, x < 1000000u) + 4 * __nvvm_vote_uni_sync(0xffffffffu, x & 1);
	o[256+i] = __nvvm_bar0_popc(x & 1) + __nvvm_bar0_and(x != 0) * 1000 + __nvvm_bar0_or(x > 4000000000u) * 100000;
	o[384+i] = __nvvm_redux_sync_add(x & 0xffff, 0xffffffffu) ^ __nvvm_redux_sync_umax(x, 0xffffffffu) ^ __nvvm_redux_sync_min((int)x, 0xffffffffu);
	__nvvm_atom_cta_add_gen_i(&c[0], 1);
	__nvvm_atom_sys_add_gen_i(&c[1], (int)(x & 7));
	__nvvm_membar_gl(); __nvvm_membar_cta(); __nvvm_membar_sys();
	__nvvm_atom_cta_max_gen_i(&c[2], (int)(x >> 4));
	if (__nvvm_isspacep_global(c)) __nvvm_atom_inc_gen_ui((unsigned *)&c[3], 100u);
}

template <typename T, int N> struct Acc {
	T v[N];
	__device__ void put(int i, T x) { v[i % N] += x; }
	__device__ T sum() const { T s = 0; for (int j = 0; j < N; j++) s += v[j] * (T)(j + 1); return s; }
};
template <typename T> __device__ __noinline__ T twice(T x) { return x + x; }
//@ tmpl7 grid=1 block=64 | o:s64[64] check | f:f32[64] check(1e-6) | a:s32[64] rand(-1000,1000)
extern "C" __global__ void tmpl7(long long *o, float *f, const int *a) {
	Acc<long long, 5> q = {};
	Acc<float, 3> r = {};
	for (int j = 0; j < 12; j++) {
		q.put(j, (long long)a[(threadIdx.x + j) & 63] * a[j]);
		r.put(j, (float)a[(threadIdx.x * 3 + j) & 63] * 0.5f);
	}
	o[threadIdx.x] = twice(q.sum());
	f[threadIdx.x] = twice(r.sum());
}
