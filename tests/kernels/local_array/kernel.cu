// local_array -- a per-thread array indexed by data (local memory), sorted in place.
extern "C" __global__ void local_array(const int *x, int *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	int a[12];
	for (int k = 0; k < 12; k++)
		a[k] = x[(i * 5 + k * 7) % n];
	for (int k = 0; k < 12; k++)
		for (int j = 0; j + 1 < 12 - k; j++)
			if (a[j] > a[j + 1]) {
				int t = a[j];
				a[j] = a[j + 1];
				a[j + 1] = t;
			}
	int idx = x[i] & 7;
	y[2 * i] = a[idx] + a[idx + 4];
	y[2 * i + 1] = a[11] - a[0];
}
