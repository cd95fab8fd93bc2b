// spin.cu -- independent thread scheduling: within one warp, odd lanes
// spin on a shared flag that their even neighbour sets; ptxas puts the
// spin loop at the lower PC, so this finishes only if the emulator lets
// the higher-PC lanes run while some spin.  Built by regen; compared
// with the PTX interpreter.
extern "C" __global__ void spin(unsigned *out, const unsigned *in)
{
	__shared__ volatile unsigned flag[64];
	unsigned t = threadIdx.x, v = in[t], k;
	flag[t] = 0;
	__syncthreads();
	if (t & 1) {
		while (flag[t - 1] == 0)
			;
		v = flag[t - 1] ^ v;
	} else {
		for (k = 0; k < 50; k++)
			v = v * 1664525u + 1013904223u;
		flag[t] = v | 1;
	}
	out[t] = v;
}
