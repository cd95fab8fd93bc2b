// ew_special_f16 -- f16/bf16 special values: hmin/hmax (NaN and signed-zero rules), add/mul
// overflow, ordered and unordered compares, f32 -> f16/bf16 in all four rounding modes,
// saturating f16 -> int.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
extern "C" __global__ void ew_special_f16(const __half *a, const __half *b, const float *c, __half *h,
					  __nv_bfloat16 *bf, int *k, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		__half x = a[i], y = b[i];
		float f = c[i];
		h[8 * i + 0] = __hmin(x, y);
		h[8 * i + 1] = __hmax(x, y);
		h[8 * i + 2] = __hadd_rn(x, y);
		h[8 * i + 3] = __hmul_rn(x, y);
		h[8 * i + 4] = __float2half_rn(f);
		h[8 * i + 5] = __float2half_rz(f);
		h[8 * i + 6] = __float2half_rd(f);
		h[8 * i + 7] = __float2half_ru(f);
		bf[4 * i + 0] = __float2bfloat16_rn(f);
		bf[4 * i + 1] = __float2bfloat16_rz(f);
		bf[4 * i + 2] = __float2bfloat16_rd(f);
		bf[4 * i + 3] = __float2bfloat16_ru(f);
		k[5 * i + 0] = __hlt(x, y);
		k[5 * i + 1] = __hltu(x, y);
		k[5 * i + 2] = __heq(x, y);
		k[5 * i + 3] = __hisnan(x);
		k[5 * i + 4] = __half2int_rz(x);
	}
}
