// single.cu -- one kernel, the reference for the from-scratch writer test
// (tests/unit/test_cubin_build.c): ptxas's cubin of it is compared
// structurally with the cubin our writer builds from a description.
extern "C" __global__ void vadd(float *c, const float *a, const float *b, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		c[i] = a[i] + b[i];
}
