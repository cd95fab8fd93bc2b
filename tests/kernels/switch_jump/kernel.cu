// switch_jump -- a dense 8-way switch inside a loop (nvcc lowers it to compare-and-branch chains).
extern "C" __global__ void switch_jump(const int *x, int *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	int v = x[i], acc = 0;
	for (int k = 0; k < 6; k++) {
		switch ((v + k) & 7) {
		case 0: acc += 3; break;
		case 1: acc ^= 0x55; break;
		case 2: acc = acc * 3 + 1; break;
		case 3: acc -= v; break;
		case 4: acc = (acc << 2) | 1; break;
		case 5: acc = acc / 3; break;
		case 6: acc += k * k; break;
		default: acc = ~acc; break;
		}
	}
	y[i] = acc;
}
