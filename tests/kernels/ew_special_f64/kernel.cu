// ew_special_f64 -- f64 special values and conversions: min/max with NaN, div/sqrt/fma edge
// cases, f64 -> f32 in rn/rz/rd/ru (overflow, subnormal results), saturating f64 -> s64/u64,
// s64/u64 -> f64/f32 rounding.
// hostsim: skip (the directed-rounding conversions are device-only)
extern "C" __global__ void ew_special_f64(const double *a, const double *b, const long long *p, double *d,
					  float *f, long long *q, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		double x = a[i], y = b[i];
		long long s = p[i];
		d[6 * i + 0] = fmin(x, y);
		d[6 * i + 1] = fmax(x, y);
		d[6 * i + 2] = x / y;
		d[6 * i + 3] = sqrt(x);
		d[6 * i + 4] = fma(x, y, 1.0);
		d[6 * i + 5] = __ll2double_rn(s) + __ull2double_rn((unsigned long long)s);
		f[6 * i + 0] = __double2float_rn(x);
		f[6 * i + 1] = __double2float_rz(x);
		f[6 * i + 2] = __double2float_rd(x);
		f[6 * i + 3] = __double2float_ru(x);
		f[6 * i + 4] = __ll2float_rn(s);
		f[6 * i + 5] = __ull2float_rn((unsigned long long)s);
		q[2 * i + 0] = __double2ll_rz(x);
		q[2 * i + 1] = (long long)__double2ull_rn(y);
	}
}
