// Dynamic device code, a fourth sweep (session 8, "breadth4"): alloca and a runtime-sized
// local array, virtual functions (objects built in device code, called through the
// vtable), function-pointer tables, recursion, and 3-D grid-stride loops with 64-bit index
// math, written for openassembler's tests; .ptx: nvcc 13.0 --ptx -O3 -arch=sm_XX, and
// -G / -lineinfo variants (gen.sh); //@ lines: launch specs.
#include <new>

// alloca of a per-thread size, filled and sorted (insertion sort) in local memory.
//@ alloca_sort grid=1 block=64 | o:s32[64] check | in:s32[1024] rand(-1000,1000) | len:s32[64] rand(1,16)
extern "C" __global__ void alloca_sort(int *o, const int *in, const int *len)
{
	int t = threadIdx.x, n = len[t];
	int *a = (int *)__builtin_alloca(n * sizeof(int));
	for (int i = 0; i < n; i++) a[i] = in[t * 16 + i];
	for (int i = 1; i < n; i++) {
		int v = a[i], j = i - 1;
		while (j >= 0 && a[j] > v) { a[j + 1] = a[j]; j--; }
		a[j + 1] = v;
	}
	o[t] = a[n / 2] * 100 + a[0] - a[n - 1];
}
// Virtual functions: three shapes placement-constructed per thread, called through the
// base pointer (nvcc's vtables in .global, calls through loaded addresses).
struct Shape { __device__ virtual float area(float s) const = 0; __device__ virtual int sides() const { return 0; } };
struct Sq : Shape { __device__ float area(float s) const override { return s * s; } __device__ int sides() const override { return 4; } };
struct Tri : Shape { __device__ float area(float s) const override { return 0.4330127f * s * s; } __device__ int sides() const override { return 3; } };
struct Circ : Shape { float k; __device__ Circ(float k) : k(k) {} __device__ float area(float s) const override { return k * s * s; } };
//@ virt_shapes grid=2 block=64 | o:f32[128] check | n:s32[128] check | kind:s32[128] rand(0,2) | s:f32[128] rand(0,4)
extern "C" __global__ void virt_shapes(float *o, int *n, const int *kind, const float *s)
{
	int g = blockIdx.x * blockDim.x + threadIdx.x;
	alignas(8) char mem[sizeof(Circ) + 8];
	Shape *p;
	switch (kind[g]) {
	case 0: p = new (mem) Sq(); break;
	case 1: p = new (mem) Tri(); break;
	default: p = new (mem) Circ(3.1415927f); break;
	}
	o[g] = p->area(s[g]);
	n[g] = p->sides();
}
// A function-pointer table chosen per element; the pointers live in a __device__ array.
typedef float (*Op)(float, float);
__device__ float op_add(float a, float b) { return a + b; }
__device__ float op_mul(float a, float b) { return a * b; }
__device__ float op_max(float a, float b) { return fmaxf(a, b); }
__device__ float op_hyp(float a, float b) { return sqrtf(a * a + b * b); }
__device__ Op ops[4] = {op_add, op_mul, op_max, op_hyp};
//@ fnptr_table grid=2 block=128 | o:f32[256] check | a:f32[256] rand(-3,3) | b:f32[256] rand(-3,3) | sel:s32[256] rand(0,3)
extern "C" __global__ void fnptr_table(float *o, const float *a, const float *b, const int *sel)
{
	int g = blockIdx.x * blockDim.x + threadIdx.x;
	Op f = ops[sel[g]];
	float r = f(a[g], b[g]);
	if (sel[g] & 1) r = ops[(sel[g] + 1) & 3](r, a[g]);
	o[g] = r;
}
// Recursion with a runtime depth (Ackermann-like bounded recursion, noinline).
__device__ __noinline__ int rec_sum(const int *v, int lo, int hi)
{
	if (hi - lo <= 2) { int s = 0; for (int i = lo; i < hi; i++) s += v[i]; return s; }
	int mid = (lo + hi) / 2;
	return rec_sum(v, lo, mid) * 3 - rec_sum(v, mid, hi);
}
//@ recursion grid=1 block=32 | o:s32[32] check | v:s32[64] rand(-9,9)
extern "C" __global__ void recursion(int *o, const int *v)
{
	o[threadIdx.x] = rec_sum(v, threadIdx.x % 8, 64 - threadIdx.x);
}
// 3-D grid-stride loops over a volume whose linear size needs 64 bits of index math
// (strides as size_t; a 7-point stencil with clamped borders).
//@ grid3d_stencil grid=2,2,2 block=8,4,2 | o:f32[4096] check(1e-6) | in:f32[4096] rand(-1,1) | nx=s64:16 | ny=s64:16 | nz=s64:16
extern "C" __global__ void grid3d_stencil(float *o, const float *in, long long nx, long long ny, long long nz)
{
	for (long long z = blockIdx.z * (long long)blockDim.z + threadIdx.z; z < nz; z += (long long)gridDim.z * blockDim.z)
		for (long long y = blockIdx.y * (long long)blockDim.y + threadIdx.y; y < ny; y += (long long)gridDim.y * blockDim.y)
			for (long long x = blockIdx.x * (long long)blockDim.x + threadIdx.x; x < nx; x += (long long)gridDim.x * blockDim.x) {
				size_t i = (size_t)(z * ny + y) * nx + x;
				size_t sx = 1, sy = nx, sz = (size_t)nx * ny;
				float c = in[i];
				float xm = x > 0 ? in[i - sx] : c, xp = x + 1 < nx ? in[i + sx] : c;
				float ym = y > 0 ? in[i - sy] : c, yp = y + 1 < ny ? in[i + sy] : c;
				float zm = z > 0 ? in[i - sz] : c, zp = z + 1 < nz ? in[i + sz] : c;
				o[i] = 0.4f * c + 0.1f * (xm + xp + ym + yp + zm + zp);
			}
}
