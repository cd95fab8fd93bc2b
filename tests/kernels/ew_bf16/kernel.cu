// ew_bf16 -- bfloat16 arithmetic (mul, add, fma) and conversion to float.
#include <cuda_bf16.h>
extern "C" __global__ void ew_bf16(const __nv_bfloat16 *a, const __nv_bfloat16 *b, __nv_bfloat16 *c,
				   float *f, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		__nv_bfloat16 x = a[i], y = b[i];
		c[2 * i] = __hadd_rn(__hmul_rn(x, y), y);
		c[2 * i + 1] = __hfma(x, y, x);
		f[i] = __bfloat162float(x) + __bfloat162float(y);
	}
}
