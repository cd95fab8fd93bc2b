// async7.cu -- tests/compile/clang7: sm_80 features through clang 14's builtins:
// cp.async (ca 4/8 bytes, cg 16 bytes, commit/wait_group) and wmma
// m16n16k16 f16 -> f32 (__hmma_*: wmma.load/mma/store with LLVM's register
// lists and strides).
#include "c7.h"
//@ cpasync7 grid=1 block=64 | o:f32[256] check | a:f32[256] rand(-2,2)
extern "C" __global__ void cpasync7(float *o, const float *a) {
	__shared__ float s[256];
	int t = threadIdx.x;
	__nvvm_cp_async_ca_shared_global_4((__attribute__((address_space(3))) void *)&s[t], (__attribute__((address_space(1))) void *)(a + (t)));
	__nvvm_cp_async_ca_shared_global_8((__attribute__((address_space(3))) void *)&s[64 + 2 * (t & 31)], (__attribute__((address_space(1))) void *)(a + (64 + 2 * (t & 31))));
	__nvvm_cp_async_cg_shared_global_16((__attribute__((address_space(3))) void *)&s[128 + 4 * (t & 31)], (__attribute__((address_space(1))) void *)(a + (128 + 4 * (t & 31))));
	__nvvm_cp_async_commit_group();
	__nvvm_cp_async_wait_group(0);
	__syncthreads();
	for (int j = t; j < 256; j += 64) o[j] = s[255 - j];
}
//@ wmma7 grid=1 block=32 | d:f32[256] check(1e-3) | a:f16[256] rand(-1,1) | b:f16[256] rand(-1,1)
extern "C" __global__ void wmma7(float *d, const unsigned short *a, const unsigned short *b) {
	int fa[8], fb[8]; float fc[8];
	__hmma_m16n16k16_ld_a(fa, (const int *)a, 16, 0);
	__hmma_m16n16k16_ld_b(fb, (const int *)b, 16, 0);
	for (int j = 0; j < 8; j++) fc[j] = 0.f;
	__hmma_m16n16k16_mma_f32f32(fc, fa, fb, fc, 0, 0);
	__hmma_m16n16k16_st_c_f32(d, fc, 16, 0);
}
