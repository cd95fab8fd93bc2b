// Floating-point styles, a fifth sweep (session 9, "breadth5"): double-precision special
// functions (erf, erfc, erfcinv, lgamma, tgamma, cbrt, hypot, pow, j0, j1, y0, y1, normcdfinv,
// expm1, log1p, atan2, sinpi), radix-2 FFT butterflies with cuComplex and sincospif, and an
// n-body step with rsqrtf and float4, written for openassembler's tests; .ptx: nvcc 13.0
// --ptx -O3 -arch=sm_XX (gen.sh, also -use_fast_math); //@ lines: launch specs.
#include <cuComplex.h>

//@ dspecial grid=1 block=64 | o:f64[1152] check(1e-13) | x:f64[64] rand(0.05,0.95) | y:f64[64] rand(-30,30)
extern "C" __global__ void dspecial(double *o, const double *x, const double *y)
{
	int t = threadIdx.x;
	double a = x[t], b = y[t], *r = o + t * 18;
	r[0] = erf(b * 0.1);
	r[1] = erfc(b * 0.2);
	r[2] = erfcinv(a * 1.9);
	r[3] = lgamma(b);
	r[4] = tgamma(b * 0.5);
	r[5] = cbrt(b * 1e5);
	r[6] = hypot(a, b);
	r[7] = pow(a * 3, b * 0.3);
	r[8] = j0(b);
	r[9] = y0(a * 30);
	r[10] = j1(b);
	r[11] = y1(a * 10);
	r[12] = normcdfinv(a);
	r[13] = expm1(b * 0.01);
	r[14] = log1p(a - 0.5);
	r[15] = atan2(b, a - 0.5);
	r[16] = sinpi(b * 0.37);
	r[17] = rsqrt(a) + rcbrt(b);
}

//@ fft_radix2 grid=1 block=128 | o:f32[512] check(1e-4) | in:f32[512] rand(-1,1)
extern "C" __global__ void fft_radix2(cuFloatComplex *o, const cuFloatComplex *in)
{
	__shared__ cuFloatComplex s[256];
	int t = threadIdx.x;
	/* bit-reversed load */
	s[__brev(t) >> 24] = in[t];
	s[__brev(t + 128) >> 24] = in[t + 128];
	__syncthreads();
	for (int len = 2; len <= 256; len <<= 1) {
		int half = len >> 1, grp = t / half, k = t % half;
		int i = grp * len + k, j = i + half;
		float sn, cs;
		sincospif(-2.f * k / len, &sn, &cs);
		cuFloatComplex w = make_cuFloatComplex(cs, sn);
		cuFloatComplex u = s[i], v = cuCmulf(w, s[j]);
		__syncthreads();
		s[i] = cuCaddf(u, v);
		s[j] = cuCsubf(u, v);
		__syncthreads();
	}
	o[t] = s[t];
	o[t + 128] = make_cuFloatComplex(cuCabsf(s[t + 128]), cuCimagf(cuCdivf(s[t + 128], make_cuFloatComplex(1.5f, -0.5f))));
}

//@ zfft4 grid=1 block=32 | o:f64[256] check(1e-12) | in:f64[256] rand(-1,1)
extern "C" __global__ void zfft4(cuDoubleComplex *o, const cuDoubleComplex *in)
{
	/* a radix-4 DFT per thread in double complex with sincospi twiddles */
	int t = threadIdx.x;
	cuDoubleComplex x[4], y[4];
	for (int k = 0; k < 4; k++) x[k] = in[t * 4 + k];
	for (int k = 0; k < 4; k++) {
		y[k] = make_cuDoubleComplex(0, 0);
		for (int n = 0; n < 4; n++) {
			double s, c;
			sincospi(-0.5 * n * k + t / 64.0, &s, &c);
			y[k] = cuCfma(make_cuDoubleComplex(c, s), x[n], y[k]);
		}
	}
	for (int k = 0; k < 4; k++) o[t * 4 + k] = cuCdiv(y[k], make_cuDoubleComplex(2.0 + t, 1.0));
}

//@ nbody_step grid=2 block=64 | pos_out:f32[512] check(1e-4) | vel_out:f32[512] check(1e-4) | pos:f32[512] rand(-1,1) | vel:f32[512] rand(-0.1,0.1) | dt=f32:0.01 | soft=f32:0.05
extern "C" __global__ void nbody_step(float4 *pos_out, float4 *vel_out, const float4 *pos, const float4 *vel, float dt, float soft)
{
	__shared__ float4 tile[64];
	int i = blockIdx.x * blockDim.x + threadIdx.x, n = gridDim.x * blockDim.x;
	float4 p = pos[i];
	float3 acc = {0, 0, 0};
	for (int base = 0; base < n; base += 64) {
		tile[threadIdx.x] = pos[base + threadIdx.x];
		__syncthreads();
#pragma unroll 8
		for (int j = 0; j < 64; j++) {
			float4 q = tile[j];
			float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
			float r2 = dx * dx + dy * dy + dz * dz + soft * soft;
			float inv = rsqrtf(r2), s = fabsf(q.w) * inv * inv * inv;
			acc.x += dx * s; acc.y += dy * s; acc.z += dz * s;
		}
		__syncthreads();
	}
	float4 v = vel[i];
	v.x += acc.x * dt; v.y += acc.y * dt; v.z += acc.z * dt;
	p.x += v.x * dt; p.y += v.y * dt; p.z += v.z * dt;
	pos_out[i] = p;
	vel_out[i] = v;
}
