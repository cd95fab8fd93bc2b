// ew_convert -- conversions: f32 to s32/u32 (truncating and nearest), to f16, to f64, and back.
#include <cuda_fp16.h>
extern "C" __global__ void ew_convert(const float *x, int *si, unsigned *ui, __half *h, double *d, float *f, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		float v = x[i];
		si[i] = (int)v;
		ui[i] = (unsigned)fabsf(v);
		h[i] = __float2half_rn(v * 0.001f);
		d[i] = (double)v * 3.0;
		f[i] = (float)__float2int_rn(v * 1000.0f);
	}
}
