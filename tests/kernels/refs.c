/* refs.c -- the C references of the kernel suite in one translation unit,
 * and their registry (refs.h).  Included by tests/unit/test_kernels.c. */
#include "refs.h"

#include "ew_s32/ref.c"
#include "ew_u32_bits/ref.c"
#include "ew_small_ints/ref.c"
#include "ew_u64/ref.c"
#include "ew_saxpy_f32/ref.c"
#include "ew_f32_ops/ref.c"
#include "ew_f16/ref.c"
#include "ew_f16x2/ref.c"
#include "ew_bf16/ref.c"
#include "ew_f64/ref.c"
#include "ew_convert/ref.c"
#include "reduce_shared_f32/ref.c"
#include "reduce_shfl_f32/ref.c"
#include "reduce_atomic_s32/ref.c"
#include "reduce_max_f32/ref.c"
#include "scan_block_s32/ref.c"
#include "scan_warp_f32/ref.c"
#include "histogram_shared/ref.c"
#include "histogram_global/ref.c"
#include "transpose_shared/ref.c"
#include "softmax_f32/ref.c"
#include "layernorm_f32/ref.c"
#include "gelu_f32/ref.c"
#include "adamw_f32/ref.c"
#include "math_f32/ref.c"
#include "math_f64/ref.c"
#include "sgemm_naive/ref.c"
#include "sgemm_tiled/ref.c"
#include "sgemm_regtile/ref.c"
#include "mma_f16/ref.c"
#include "mma_bf16/ref.c"
#include "mma_tf32/ref.c"
#include "mma_s8/ref.c"
#include "gemm_cp_async/ref.c"
#include "div_const_u32/ref.c"
#include "div_const_s32/ref.c"
#include "div_var_u32/ref.c"
#include "div_var_s32/ref.c"
#include "div_const_u64/ref.c"
#include "div_var_s64/ref.c"
#include "devfunc_noinline/ref.c"
#include "recursive_fib/ref.c"
#include "bitonic_sort/ref.c"
#include "divergent_loops/ref.c"
#include "early_exit/ref.c"
#include "warp_vote/ref.c"
#include "dynsmem_reverse/ref.c"
#include "vec_float4/ref.c"
#include "local_array/ref.c"
#include "const_global_mem/ref.c"
#include "grid3d/ref.c"
#include "atomic_cas_max/ref.c"
#include "shfl_width/ref.c"
#include "warp_reduce_match/ref.c"
#include "stencil_shared/ref.c"
#include "gemv_warp/ref.c"
#include "int_intrinsics/ref.c"
#include "reduce_shfl_f64/ref.c"
#include "cluster_dsmem/ref.c"
#include "ew_special_f32/ref.c"
#include "atomics_float/ref.c"
#include "regpressure_spill/ref.c"
#include "switch_jump/ref.c"
#include "func_pointer/ref.c"
#include "wmma_f16/ref.c"
#include "wmma_tf32/ref.c"
#include "fast_math_f32/ref.c"
#include "threadfence_reduce/ref.c"
#include "mbarrier_sync/ref.c"
#include "f16_math/ref.c"
#include "float_classify/ref.c"
#include "ew_special_f16/ref.c"
#include "ew_special_f64/ref.c"
#include "bulk_copy/ref.c"
#include "device_syscalls/ref.c"

const KernelRef kernel_refs[] = {
#define X(n) {#n, ref_##n},
#include "list.def"
#undef X
};
const size_t nkernel_refs = NELEM(kernel_refs);

const KernelRef *
kernel_ref_lookup(const char *name)
{
	size_t i;

	for (i = 0; i < nkernel_refs; i++)
		if (!strcmp(kernel_refs[i].name, name))
			return &kernel_refs[i];
	return NULL;
}
