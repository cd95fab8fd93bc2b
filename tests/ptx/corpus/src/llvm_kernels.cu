// llvm_kernels.cu -- compiled by clang's NVPTX back end (no CUDA headers):
//   clang++ -x cuda --cuda-device-only -S -O3 --cuda-gpu-arch=sm_80 \
//       -nocudainc -nocudalib -o ../llvm_kernels.sm_80.ptx llvm_kernels.cu
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))

static __device__ unsigned tid() { return __nvvm_read_ptx_sreg_tid_x(); }
static __device__ unsigned bid() { return __nvvm_read_ptx_sreg_ctaid_x(); }
static __device__ unsigned bdim() { return __nvvm_read_ptx_sreg_ntid_x(); }

__device__ __attribute__((noinline)) float poly(float x, int n)
{
	float r = 1.0f;
	for (int i = 0; i < n; i++)
		r = r * x + (float)i;
	return r;
}

__device__ int counter;

__global__ void saxpy(float a, const float *x, float *y, int n)
{
	unsigned i = bid() * bdim() + tid();
	if (i < (unsigned)n)
		y[i] = a * x[i] + y[i];
}

__global__ void reduce(const int *in, int *out, int n)
{
	__shared__ int s[256];
	unsigned t = tid();
	unsigned i = bid() * bdim() + t;
	s[t] = i < (unsigned)n ? in[i] : 0;
	__nvvm_bar_sync(0);
	for (unsigned k = 128; k > 0; k >>= 1) {
		if (t < k)
			s[t] += s[t + k];
		__nvvm_bar_sync(0);
	}
	if (t == 0)
		__atomic_fetch_add(out, s[0], __ATOMIC_RELAXED);
}

__global__ void calls(float *y, int n)
{
	unsigned i = bid() * bdim() + tid();
	float (*fp)(float, int) = (i & 1) ? poly : 0;
	if (i < (unsigned)n)
		y[i] = poly(y[i], n & 7) + (fp ? fp(1.0f, 2) : 0.0f);
	__atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED);
}
