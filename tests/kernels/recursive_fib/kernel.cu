// recursive_fib -- a recursive device function (call stack in local memory), data-dependent depth.
__device__ __noinline__ unsigned recursive_fib_f(unsigned n)
{
	return n < 2 ? n : recursive_fib_f(n - 1) + recursive_fib_f(n - 2);
}
extern "C" __global__ void recursive_fib(const unsigned *x, unsigned *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		y[i] = recursive_fib_f(x[i] % 11);
}
