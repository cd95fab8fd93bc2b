// ew_f16x2 -- packed half2 arithmetic: two halves per 32-bit register.
#include <cuda_fp16.h>
extern "C" __global__ void ew_f16x2(const __half2 *a, const __half2 *b, __half2 *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		__half2 x = a[i], y = b[i];
		c[i] = __hfma2(x, y, __hmul2_rn(x, __float2half2_rn(0.5f)));
	}
}
