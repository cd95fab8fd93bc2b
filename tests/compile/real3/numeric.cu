// A third sweep (session 7, "breadth2"): double-precision linear algebra (LU and Cholesky
// panels), FFT butterflies (__sincosf, __shfl_xor_sync), image kernels on uchar4/float4,
// bit tricks (__brev, __byte_perm, __funnelshift_l, __vsadu4), written for openassembler's
// tests; .ptx: nvcc 13.0 --ptx -O3 -arch=sm_XX (gen.sh); //@ lines: launch specs.
#include <cuda_runtime.h>

// LU of one 32x32 panel per block, no pivoting (diagonally dominant input), in shared memory.
//@ lu_panel grid=2 block=32 | a:f64[2048] rand(-1,1) check(1e-9)
extern "C" __global__ void lu_panel(double *a)
{
	__shared__ double s[32][33];
	double *m = a + blockIdx.x * 1024;
	int t = threadIdx.x;
	for (int i = 0; i < 32; i++) s[i][t] = m[i * 32 + t] + (i == t ? 40.0 : 0.0);
	__syncthreads();
	for (int k = 0; k < 31; k++) {
		if (t > k) s[t][k] /= s[k][k];
		__syncthreads();
		if (t > k)
			for (int j = k + 1; j < 32; j++) s[t][j] = fma(-s[t][k], s[k][j], s[t][j]);
		__syncthreads();
	}
	for (int i = 0; i < 32; i++) m[i * 32 + t] = s[i][t];
}
// Cholesky of a 16x16 SPD matrix per block (A = B*B^T + 16 I built in place), column by column.
//@ cholesky grid=2 block=16 | l:f64[512] check(1e-9) | b:f64[512] rand(-1,1)
extern "C" __global__ void cholesky(double *l, const double *b)
{
	__shared__ double s[16][17];
	const double *B = b + blockIdx.x * 256;
	int t = threadIdx.x;
	for (int j = 0; j < 16; j++) {
		double acc = t == j ? 16.0 : 0.0;
		for (int k = 0; k < 16; k++) acc += B[t * 16 + k] * B[j * 16 + k];
		s[t][j] = acc;
	}
	__syncthreads();
	for (int k = 0; k < 16; k++) {
		if (t == k) s[k][k] = sqrt(s[k][k]);
		__syncthreads();
		if (t > k) s[t][k] /= s[k][k];
		__syncthreads();
		if (t > k)
			for (int j = k + 1; j <= t; j++) s[t][j] -= s[t][k] * s[j][k];
		__syncthreads();
	}
	for (int j = 0; j < 16; j++) l[blockIdx.x * 256 + t * 16 + j] = j <= t ? s[t][j] : 0.0;
}
// Triangular solve L x = y (forward substitution) with warp shuffles of the solved value.
//@ trsv_warp grid=2 block=32 | x:f64[64] check(1e-9) | L:f64[2048] rand(-0.1,0.1) | y:f64[64] rand(-1,1)
extern "C" __global__ void trsv_warp(double *x, const double *L, const double *y)
{
	int t = threadIdx.x;
	const double *M = L + blockIdx.x * 1024;
	double v = y[blockIdx.x * 32 + t], xi = 0;
	for (int k = 0; k < 32; k++) {
		double d = M[k * 32 + k] + 2.0;
		double xk = __shfl_sync(0xffffffff, v / d, k);
		if (t == k) xi = xk;
		if (t > k) v -= M[t * 32 + k] * xk;
	}
	x[blockIdx.x * 32 + t] = xi;
}
// A radix-2 FFT of 32 complex points per warp: butterflies across lanes with __shfl_xor_sync,
// twiddles from __sincosf; then the power spectrum.
//@ fft32 grid=2 block=64 | o:f32[256] check(1e-4) | re:f32[128] rand(-1,1) | im:f32[128] rand(-1,1)
extern "C" __global__ void fft32(float *o, const float *re, const float *im)
{
	int g = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
	float xr = re[g], xi = im[g];
	for (int h = 16; h >= 1; h >>= 1) {
		float pr = __shfl_xor_sync(0xffffffff, xr, h), pi = __shfl_xor_sync(0xffffffff, xi, h);
		bool hi = lane & h;
		int j = lane & (h - 1);
		float s, c;
		__sincosf(-3.14159265f * j / h, &s, &c);
		if (hi) { /* (p - x) * w */
			float dr = pr - xr, di = pi - xi;
			xr = dr * c - di * s; xi = dr * s + di * c;
		} else {
			xr += pr; xi += pi;
		}
	}
	o[2 * g] = xr;
	o[2 * g + 1] = xi;
}
// A 2-D DFT row pass in shared memory with sincospi and a double accumulator.
//@ dft_row grid=4 block=16 | o:f32[128] check(1e-3) | x:f32[64] rand(-1,1)
extern "C" __global__ void dft_row(float *o, const float *x)
{
	__shared__ float s[16];
	int k = threadIdx.x;
	s[k] = x[blockIdx.x * 16 + k];
	__syncthreads();
	double ar = 0, ai = 0;
	for (int n = 0; n < 16; n++) {
		double sn, cs;
		sincospi(-2.0 * n * k / 16.0, &sn, &cs);
		ar += s[n] * cs;
		ai += s[n] * sn;
	}
	o[2 * (blockIdx.x * 16 + k)] = (float)ar;
	o[2 * (blockIdx.x * 16 + k) + 1] = (float)ai;
}
// RGBA -> grey, 3x3 box blur on uchar4 with clamped borders, float4 gain.
//@ img_grey grid=2 block=64 | g:u8[128] check | px:u8[512] rand(0,255)
extern "C" __global__ void img_grey(unsigned char *g, const uchar4 *px)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	uchar4 p = px[i];
	g[i] = (unsigned char)((77u * p.x + 150u * p.y + 29u * p.z) >> 8);
}
//@ img_blur grid=2,2 block=8,8 | o:u8[1024] check | in:u8[1024] rand(0,255)
extern "C" __global__ void img_blur(uchar4 *o, const uchar4 *in)
{
	int x = blockIdx.x * 8 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y, W = 16;
	unsigned r = 0, gg = 0, b = 0, a = 0;
	for (int dy = -1; dy <= 1; dy++)
		for (int dx = -1; dx <= 1; dx++) {
			int xx = min(max(x + dx, 0), W - 1), yy = min(max(y + dy, 0), W - 1);
			uchar4 p = in[yy * W + xx];
			r += p.x; gg += p.y; b += p.z; a += p.w;
		}
	o[y * W + x] = make_uchar4(r / 9, gg / 9, b / 9, a / 9);
}
//@ img_gain grid=2 block=64 | o:f32[512] check(1e-6) | in:f32[512] rand(0,1) | gain=f32:1.5
extern "C" __global__ void img_gain(float4 *o, const float4 *in, float gain)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	float4 p = in[i];
	p.x = fminf(p.x * gain, 1.f); p.y = fminf(p.y * gain, 1.f);
	p.z = fminf(p.z * gain, 1.f); p.w = __saturatef(p.w - 0.25f);
	o[i] = p;
}
// Bit tricks.
//@ bits3 grid=2 block=64 | o:u32[1024] check | a:u32[128] rand(0,4294967295) | b:u32[128] rand(0,4294967295)
extern "C" __global__ void bits3(unsigned *o, const unsigned *a, const unsigned *b)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned x = a[i], y = b[i];
	unsigned *r = o + i * 8;
	r[0] = __brev(x);
	r[1] = __byte_perm(x, y, 0x7531);
	r[2] = __funnelshift_l(x, y, y & 63);
	r[3] = __funnelshift_rc(x, y, x);
	r[4] = __vsadu4(x, y);
	r[5] = __clz(x) + (__ffs(y) << 8) + (__popc(x ^ y) << 16);
	r[6] = __byte_perm(x, 0, 0x0123) ^ (unsigned)(__brevll(((unsigned long long)x << 32) | y) >> 7);
	r[7] = __vcmpgtu4(x, y) | __vmaxs2(x, y);
}
