// A fourth sweep: __syncthreads_count/and/or (with a __trap that never fires) and the
// integer intrinsics (__funnelshift_lc/_r, __sad/__usad, __umul24/__mul24, __hadd/__urhadd,
// __mulhi/__umulhi, __fns, __popcll), written for openassembler's tests; .ptx: nvcc 13.0
// --ptx -O3 -arch=sm_XX.  (cg::this_grid().sync() needs a cooperative launch, which the
// launch specs cannot describe: without its workspace in %envreg1/2 the kernel traps.)
//@ sync_count grid=2 block=128 | o:s32[768] check | in:s32[256] rand(-5,5)
extern "C" __global__ void sync_count(int *o, const int *in)
{
	int i = blockIdx.x * 128 + threadIdx.x, v = in[i];
	int c = __syncthreads_count(v > 0), a = __syncthreads_and(v > -5), r = __syncthreads_or(v == 5);
	o[i] = c; o[256 + i] = a; o[512 + i] = r;
	if (c > 1000) __trap();
}
//@ int_intr grid=1 block=64 | o:u32[384] check | a:u32[64] rand(0,4294967295) | b:u32[64] rand(0,4294967295)
extern "C" __global__ void int_intr(unsigned *o, const unsigned *a, const unsigned *b)
{
	unsigned x = a[threadIdx.x], y = b[threadIdx.x];
	o[threadIdx.x] = __funnelshift_lc(x, y, y & 63) ^ __funnelshift_r(x, y, x & 31);
	o[64 + threadIdx.x] = __sad((int)x, (int)y, 7u) + __usad(x, y, 9u);
	o[128 + threadIdx.x] = __umul24(x, y) ^ (unsigned)__mul24((int)x, (int)y);
	o[192 + threadIdx.x] = (unsigned)__hadd((int)x, (int)y) + __urhadd(x, y);
	o[256 + threadIdx.x] = (unsigned)__mulhi((int)x, (int)y) ^ __umulhi(x, y);
	o[320 + threadIdx.x] = __fns(x, threadIdx.x % 32, (int)(y % 7) - 3) + __popcll(((unsigned long long)x << 32) | y);
}
