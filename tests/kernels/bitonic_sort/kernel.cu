// bitonic_sort -- sorts each 256-element segment ascending in shared memory (bitonic network).
extern "C" __global__ void bitonic_sort(float *x)
{
	__shared__ float s[256];
	int t = threadIdx.x;
	float *seg = x + blockIdx.x * 256;
	s[t] = seg[t];
	__syncthreads();
	for (int k = 2; k <= 256; k <<= 1)
		for (int j = k >> 1; j > 0; j >>= 1) {
			int p = t ^ j;
			if (p > t) {
				float a = s[t], b = s[p];
				bool up = (t & k) == 0;
				if ((a > b) == up) {
					s[t] = b;
					s[p] = a;
				}
			}
			__syncthreads();
		}
	seg[t] = s[t];
}
