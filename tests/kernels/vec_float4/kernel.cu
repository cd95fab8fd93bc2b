// vec_float4 -- 128-bit vector loads and stores (float4, int2), with a scalar tail.
extern "C" __global__ void vec_float4(const float4 *x, float4 *y, const int2 *p, int *q, int n4)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n4) {
		float4 v = x[i];
		y[i] = make_float4(v.w, v.z * 2.0f, v.y - v.x, v.x);
		int2 w = p[i];
		q[i] = w.x - 3 * w.y;
	}
}
