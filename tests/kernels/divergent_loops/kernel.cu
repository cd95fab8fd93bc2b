// divergent_loops -- Collatz walks: data-dependent trip counts, early returns, a capped loop with break.
extern "C" __global__ void divergent_loops(const unsigned *x, unsigned *steps, unsigned *peak, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	unsigned v = x[i], s = 0, m = v;
	if (v == 0) {
		steps[i] = 0xffffffffu;
		return;
	}
	while (v != 1) {
		if (s >= 100)
			break;
		v = (v & 1) ? 3 * v + 1 : v >> 1;
		if (v > m)
			m = v;
		s++;
	}
	steps[i] = s;
	peak[i] = m;
}
