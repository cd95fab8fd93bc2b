// Calls and launch attributes, a eighth sweep (session 12, "real8"): __noinline__ device functions
// taking and returning structs by value (float3, a 40-byte struct, a struct with mixed types),
// recursion (naive fib, recursive quicksort on a local array, Ackermann-like depth, mutual
// recursion), function pointers through a table, __launch_bounds__(N, minBlocks) (.maxntid,
// .minnctapersm) and __maxnreg__ (.maxnreg) on register-hungry kernels.  Written for
// openassembler's tests; .ptx: nvcc 13.0 --ptx with the flags of gen.sh; //@ lines: launch specs.
#include <stdint.h>

struct Vec3 { float x, y, z; };
struct Body { double m; Vec3 p; Vec3 v; int id; };      // 40 bytes with padding
struct Mixed { char tag; short s; int i; long long l; float f; };

__device__ __noinline__ Vec3 vadd(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
__device__ __noinline__ Vec3 vscale(Vec3 a, float s) { return {a.x * s, a.y * s, a.z * s}; }
__device__ __noinline__ float vdot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
__device__ __noinline__ Vec3 vcross(Vec3 a, Vec3 b)
{
	return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
__device__ __noinline__ Body step(Body b, Vec3 f, float dt)
{
	Vec3 acc = vscale(f, (float)(1.0 / b.m));
	b.v = vadd(b.v, vscale(acc, dt));
	b.p = vadd(b.p, vscale(b.v, dt));
	b.id += 1;
	return b;
}
__device__ __noinline__ Mixed mix(Mixed a, int k)
{
	a.tag = (char)(a.tag * 3 + k);
	a.s = (short)(a.s - 1000 * k);
	a.i ^= k << 20;
	a.l = a.l * 1000003 + a.i;
	a.f = a.f * 0.5f + a.tag;
	return a;
}

//@ structs_byval grid=2 block=40 | o:f32[560] check(1e-5) | p:f32[240] rand(-2,2) | n=s32:70
extern "C" __global__ void structs_byval(float *o, const float *p, int n)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	if (t >= n) return;
	const float *q = p + (t % 20) * 12;
	Vec3 a = {q[0], q[1], q[2]}, f = {q[3], q[4], q[5]};
	Body b = {1.0 + q[6] * q[6], a, {q[7], q[8], q[9]}, t};
	for (int i = 0; i < 3; i++) b = step(b, vcross(f, b.v), 0.125f);
	Mixed m = {(char)t, (short)(t * 300), t * 7, (long long)t << 33, q[10]};
	for (int i = 0; i < 4; i++) m = mix(m, i + 1);
	float *r = o + t * 8;
	r[0] = b.p.x; r[1] = b.p.y; r[2] = b.p.z; r[3] = vdot(b.v, b.p); r[4] = (float)b.id;
	r[5] = (float)m.tag + m.s; r[6] = (float)(m.l % 100000) + m.i; r[7] = m.f;
}

__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__device__ __noinline__ void qsort_rec(int *a, int lo, int hi)
{
	if (lo >= hi) return;
	int p = a[(lo + hi) / 2], i = lo, j = hi;
	while (i <= j) {
		while (a[i] < p) i++;
		while (a[j] > p) j--;
		if (i <= j) { int t = a[i]; a[i] = a[j]; a[j] = t; i++; j--; }
	}
	qsort_rec(a, lo, j);
	qsort_rec(a, i, hi);
}
__device__ __noinline__ bool is_odd(unsigned n);
__device__ __noinline__ bool is_even(unsigned n) { return n == 0 ? true : is_odd(n - 1); }
__device__ __noinline__ bool is_odd(unsigned n) { return n == 0 ? false : is_even(n - 1); }
__device__ __noinline__ long long gcd64(long long a, long long b) { return b == 0 ? a : gcd64(b, a % b); }

//@ recursion grid=1 block=48 | o:s32[48] check | s:s32[576] check rand(-50,50) | g:s64[48] check
extern "C" __global__ void recursion(int *o, int *s, long long *g)
{
	int t = threadIdx.x;
	int a[12];
	for (int i = 0; i < 12; i++) a[i] = s[t * 12 + i];
	qsort_rec(a, 0, 11 - (t & 3));
	for (int i = 0; i < 12; i++) s[t * 12 + i] = a[i];
	o[t] = fib(t % 13) * 2 + is_even((t & 7) * 2 + (t >> 5)); // depth <= 15: our frames are 160 bytes (ptxas: 16)
	g[t] = gcd64(1000000007LL * (t + 1) * 6, 4294967296LL * 3 + t * 15);
}

typedef float (*unop)(float, int);
__device__ __noinline__ float op_sq(float x, int k) { return x * x + k; }
__device__ __noinline__ float op_exp(float x, int k) { return __expf(x) - k; }
__device__ __noinline__ float op_sin(float x, int k) { return sinf(x * k); }
__device__ __noinline__ float op_rcp(float x, int k) { return k / (x + 3.0f); }
__device__ unop optab[4] = {op_sq, op_exp, op_sin, op_rcp};

//@ fnptr_table grid=2 block=32 | o:f32[64] check(1e-4) | x:f32[64] rand(-1,1) | sel:s32[64] rand(0,3)
extern "C" __global__ void fnptr_table(float *o, const float *x, const int *sel)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	unop f = optab[sel[t] & 3];
	float v = x[t];
	for (int k = 1; k < 4; k++) v = f(v, k) * 0.25f;
	o[t] = v;
}

// register-hungry: 24 accumulators of a small register-tiled matrix product
#define ACC_BODY                                                                       \
	int t = blockIdx.x * blockDim.x + threadIdx.x;                                 \
	float acc[4][6] = {};                                                          \
	for (int k = 0; k < 16; k++) {                                                 \
		float av[4], bv[6];                                                    \
		for (int i = 0; i < 4; i++) av[i] = a[(t * 4 + i) % 64 * 16 + k];      \
		for (int j = 0; j < 6; j++) bv[j] = b[k * 6 + j];                      \
		for (int i = 0; i < 4; i++)                                            \
			for (int j = 0; j < 6; j++) acc[i][j] = fmaf(av[i], bv[j], acc[i][j]); \
	}                                                                              \
	for (int i = 0; i < 4; i++)                                                    \
		for (int j = 0; j < 6; j++) c[t * 24 + i * 6 + j] = acc[i][j];

//@ lb_tile grid=2 block=64 | c:f32[3072] check(1e-4) | a:f32[1024] rand(-1,1) | b:f32[96] rand(-1,1)
extern "C" __global__ void __launch_bounds__(64, 8) lb_tile(float *c, const float *a, const float *b) { ACC_BODY }

//@ maxnreg_tile grid=2 block=64 | c:f32[3072] check(1e-4) | a:f32[1024] rand(-1,1) | b:f32[96] rand(-1,1)
extern "C" __global__ void __maxnreg__(32) maxnreg_tile(float *c, const float *a, const float *b) { ACC_BODY }

//@ lb_only grid=3 block=96 | c:f32[6912] check(1e-4) | a:f32[1024] rand(-1,1) | b:f32[96] rand(-1,1)
extern "C" __global__ void __launch_bounds__(128) lb_only(float *c, const float *a, const float *b) { ACC_BODY }
