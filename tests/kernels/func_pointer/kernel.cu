// func_pointer -- indirect calls through a table of device function pointers (call with a prototype).
__device__ __noinline__ int func_pointer_add(int a, int b) { return a + b; }
__device__ __noinline__ int func_pointer_mul(int a, int b) { return a * b; }
__device__ __noinline__ int func_pointer_max(int a, int b) { return a > b ? a : b; }
__device__ __noinline__ int func_pointer_sub(int a, int b) { return a - b; }
typedef int (*func_pointer_fn)(int, int);
extern "C" __global__ void func_pointer(const int *x, int *y, int n)
{
	func_pointer_fn table[4] = {func_pointer_add, func_pointer_mul, func_pointer_max, func_pointer_sub};
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		int v = x[i], acc = v;
		for (int k = 0; k < 3; k++)
			acc = table[(v >> (2 * k)) & 3](acc, k + 2);
		y[i] = acc;
	}
}
