// alloca.cu -- dynamic stack allocation (alloca) in a kernel.
// Generated input: nvcc -arch=sm_90 -ptx -O3 alloca.cu -o alloca.ptx (CUDA 13.0).
// out[t] = sum_i p[n-1-i] * (i+1) with p[i] = i*t: for n = 5, 20*t.
extern "C" __global__ void alloca_sum(int *out, int n)
{
	int *p = (int *)alloca(n * sizeof(int));
	for (int i = 0; i < n; i++)
		p[i] = i * threadIdx.x;
	int s = 0;
	for (int i = 0; i < n; i++)
		s += p[n - 1 - i] * (i + 1);
	out[threadIdx.x] = s;
}
