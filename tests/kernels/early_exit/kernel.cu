// early_exit -- nested loops with continue, break and a return from inside the inner loop.
extern "C" __global__ void early_exit(const int *x, int *y, int n, int limit)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	int acc = 0;
	for (int a = 0; a < 8; a++) {
		if (x[(i + a) % n] < 0)
			continue;
		for (int b = 0; b < x[i] % 7 + 1; b++) {
			acc += a * b + x[(i * 3 + b) % n];
			if (acc > limit) {
				y[i] = -acc;
				return;
			}
		}
		if ((acc & 15) == 3)
			break;
	}
	y[i] = acc;
}
