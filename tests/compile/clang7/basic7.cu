// basic7.cu -- tests/compile/clang7: clang 14 (LLVM NVPTX) PTX, elementwise and
// scalar styles: i1/i8/i16 arithmetic, byte arrays, 64-bit math, structs by
// value, device function calls, select/min/max, float math.  gen.sh compiles
// it at -O0..-O3; the //@ lines are the launch specs (../real2/gen-specs.py).
#include "c7.h"

//@ saxpy7 grid=2 block=64 | o:f32[128] check(1e-6) | x:f32[128] rand(-4,4) | y:f32[128] rand(-4,4) | a=f32:1.5 | n=s32:120
extern "C" __global__ void saxpy7(float *o, const float *x, const float *y, float a, int n) {
	int i = GID;
	if (i < n) o[i] = a * x[i] + y[i];
}

//@ bytes7 grid=1 block=64 | o:u8[256] check | a:u8[256] rand(0,255) | b:s8[256] rand(-128,127)
extern "C" __global__ void bytes7(unsigned char *o, const unsigned char *a, const signed char *b) {
	int i = threadIdx.x * 4;
	for (int j = 0; j < 4; j++) {
		unsigned char x = a[i + j];
		signed char y = b[i + j];
		unsigned char r = (unsigned char)(x + y);
		if (y < 0) r ^= (unsigned char)(x >> 3);
		r = r > 200 ? (unsigned char)(r - 100) : r;
		o[i + j] = (unsigned char)(r * 3 + (signed char)(y / 3));
	}
}

//@ shorts7 grid=1 block=64 | o:s16[128] check | a:s16[128] rand(-32768,32767) | b:u16[128] rand(0,65535)
extern "C" __global__ void shorts7(short *o, const short *a, const unsigned short *b) {
	int i = threadIdx.x;
	short x = a[i];
	unsigned short y = b[i];
	short s = (short)(x * (short)y);
	unsigned short m = (unsigned short)(y >> 5 | y << 11);
	o[i] = (short)(s + (x < 0 ? -x : x) + (short)(m % 977));
	o[64 + i] = (short)((int)x * (int)y >> 16) ^ (short)(y / 7);
}

//@ bools7 grid=1 block=64 | o:u8[64] check | p:u8[64] rand(0,1) | a:s32[64] rand(-50,50)
extern "C" __global__ void bools7(bool *o, const bool *p, const int *a) {
	int i = threadIdx.x;
	bool q = p[i];
	bool r = a[i] > 0;
	bool s = (q != r) || (a[i] % 3 == 0 && q);
	o[i] = s ^ (a[(i + 1) & 63] < -10);
}

//@ wide7 grid=1 block=64 | o:u64[256] check | a:u64[64] rand(0,18446744073709551615) | b:s64[64] rand(-9223372036854775808,9223372036854775807)
extern "C" __global__ void wide7(unsigned long long *o, const unsigned long long *a, const long long *b) {
	int i = threadIdx.x;
	unsigned long long x = a[i];
	long long y = b[i];
	o[i] = x * (unsigned long long)y + (x >> 17) - (unsigned long long)(y >> 43);
	o[64 + i] = x / ((unsigned long long)(y | 1) >> 40 | 1) + x % 1000003ull;
	o[128 + i] = (unsigned long long)(y / (long long)((x >> 50) + 1)) ^ (unsigned long long)(y % -7);
	o[192 + i] = __builtin_popcountll(x) + ((unsigned long long)__builtin_clzll(x | 1) << 32) + __builtin_bswap64(x) * 3;
}

struct Pt { float x, y; int id; };
struct Big { Pt a, b; double w; char tag; short s; };

//@ structs7 grid=1 block=64 | o:f32[192] check(1e-6) | p:f32[128] rand(-3,3)
static __device__ __noinline__ Pt mid(Pt a, Pt b) { Pt r = {(a.x + b.x) * 0.5f, (a.y + b.y) * 0.5f, a.id ^ b.id}; return r; }
extern "C" __global__ void structs7(float *o, const float *p) {
	int i = threadIdx.x;
	Pt a = {p[2 * i], p[2 * i + 1], i};
	Pt b = {p[(2 * i + 5) & 127], p[(2 * i + 6) & 127], 3 * i};
	Pt m = mid(a, b);
	o[i] = m.x; o[64 + i] = m.y; o[128 + i] = (float)m.id;
}

//@ bigstruct7 grid=1 block=32 | o:f64[64] check(1e-12) | g:struct[40] f32@0=1.5 f32@4=-2.25 s32@8=7 f32@12=0.5 f32@16=3.75 s32@20=-9 f64@24=1.125 s8@32=-5 s16@34=300 | b=f64:0.25
extern "C" __global__ void bigstruct7(double *o, Big g, double b) {
	int i = threadIdx.x;
	o[i] = g.a.x * i + g.b.y + g.w * b + g.tag;
	o[32 + i] = (double)(g.a.id + g.b.id * i + g.s);
}

static __device__ __noinline__ int collatz(int x) {
	int n = 0;
	while (x != 1 && n < 200) { x = (x & 1) ? 3 * x + 1 : x >> 1; n++; }
	return n;
}
static __device__ __noinline__ float poly(float x, const float *c, int k) {
	float r = 0.f;
	for (int j = k - 1; j >= 0; j--) r = r * x + c[j];
	return r;
}
//@ calls7 grid=1 block=64 | o:f32[128] check(1e-5) | a:s32[64] rand(1,1000) | c:f32[8] rand(-1,1) | x:f32[64] rand(-1,1)
extern "C" __global__ void calls7(float *o, const int *a, const float *c, const float *x) {
	int i = threadIdx.x;
	o[i] = (float)collatz(a[i]);
	o[64 + i] = poly(x[i], c, 8);
}

//@ minmax7 grid=1 block=64 | o:s32[256] check | a:s32[64] rand(-1000,1000) | b:u32[64] rand(0,4294967295) | f:f32[64] rand(-5,5)
extern "C" __global__ void minmax7(int *o, const int *a, const unsigned *b, const float *f) {
	int i = threadIdx.x;
	int x = a[i];
	unsigned y = b[i];
	o[i] = x < 17 ? x : 17;
	o[64 + i] = (int)(y > 3000000000u ? y - 3000000000u : y >> 4);
	o[128 + i] = (int)(fmaxf(fminf(f[i], 2.0f), -2.0f) * 1000.0f);
	o[192 + i] = (x > 0) - (x < 0) + (int)(y % 13u) * __mulhi(x, 0x12345678);
}

//@ fmath7 grid=1 block=64 | o:f32[256] check(2e-6) | a:f32[64] rand(0.1,10) | b:f32[64] rand(-3,3)
extern "C" __global__ void fmath7(float *o, const float *a, const float *b) {
	int i = threadIdx.x;
	float x = a[i], y = b[i];
	o[i] = sqrtf(x) + x / (y * y + 1.0f);
	o[64 + i] = fabsf(y) * rcpf(x) - fmaf(x, y, 0.5f);
	o[128 + i] = (float)(int)(y * 100.0f) + (float)(unsigned)(x * 1000.0f);
	o[192 + i] = y < 0.f ? -y * 2.0f : (y != y ? 0.f : y + 1.0f);
}

//@ dmath7 grid=1 block=64 | o:f64[128] check(1e-12) | a:f64[64] rand(0.5,4) | b:s64[64] rand(-1000000,1000000)
extern "C" __global__ void dmath7(double *o, const double *a, const long long *b) {
	int i = threadIdx.x;
	double x = a[i];
	o[i] = sqrt(x) * (double)b[i] / (x + 1.0);
	o[64 + i] = (double)(long long)(x * 1e6) - (double)(unsigned)b[i] * 1e-3 + (float)x;
}

//@ bytearr7 grid=1 block=64 | o:u32[64] check | a:u32[64] rand(0,4294967295)
extern "C" __global__ void bytearr7(unsigned *o, const unsigned *a) {
	unsigned char t[16];
	unsigned v = a[threadIdx.x];
	for (int j = 0; j < 16; j++) t[j] = (unsigned char)(v >> (j & 7) * 4 ^ j);
	unsigned r = 0;
	for (int j = 0; j < 16; j++) r = r * 31 + t[(j * 7 + v) & 15];
	o[threadIdx.x] = r;
}

//@ switch7 grid=1 block=64 | o:s32[64] check | a:s32[64] rand(-3,12)
extern "C" __global__ void switch7(int *o, const int *a) {
	int x = a[threadIdx.x], r;
	switch (x) {
	case 0: r = 11; break;
	case 1: r = x * 7; break;
	case 2: case 3: r = -x; break;
	case 5: r = 1000; break;
	case 6: r = x << 4; break;
	case 7: r = 77; break;
	case 9: r = x ^ 0x55; break;
	default: r = x * x;
	}
	o[threadIdx.x] = r;
}

//@ grid2d7 grid=2,2 block=8,4 | o:s32[128] check | w=s32:16
extern "C" __global__ void grid2d7(int *o, int w) {
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
	o[y * w + x] = x * 1000 + y + (int)(gridDim.x * 10 + gridDim.y);
}
