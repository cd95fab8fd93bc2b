// f16_math -- half-precision math functions: hsqrt, hrsqrt, hrcp, hexp, hlog, hsin, hcos,
// htanh_approx (f16 approximations such as ex2.approx.f16 and tanh.approx.f16).
// hostsim: skip (these half functions are device-only)
#include <cuda_fp16.h>
extern "C" __global__ void f16_math(const __half *x, __half *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		__half v = x[i];
		y[8 * i + 0] = hsqrt(v);
		y[8 * i + 1] = hrsqrt(v);
		y[8 * i + 2] = hrcp(v);
		y[8 * i + 3] = hexp(v);
		y[8 * i + 4] = hlog(v);
		y[8 * i + 5] = hsin(v);
		y[8 * i + 6] = hcos(v);
		y[8 * i + 7] = htanh_approx(v);
	}
}
