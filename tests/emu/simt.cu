// simt.cu -- hand-made SIMT checks for the SASS emulator: nested divergent
// branches inside loops with per-lane trip counts, convergence before warp
// collectives (shfl, ballot, match, redux via __reduce_add_sync), lanes that
// exit early, a divergent while loop after the exits, and a CTA barrier
// between warps that diverged.  Compared with the PTX interpreter on the
// same source (tests/unit/test_emu.c).  Built by tests/emu/regen.
extern "C" __global__ void simt(unsigned *out, const unsigned *in, int n)
{
	__shared__ unsigned sh[128];
	unsigned t = threadIdx.x, acc = in[t], k;

	for (k = 0; k < t % 7; k++) {
		if ((k + t) & 1)
			acc = acc * 3 + k;
		else if (t & 4)
			acc ^= k << 3;
		else
			acc += 17;
	}
	unsigned x = __shfl_xor_sync(0xffffffffu, acc, 1);
	unsigned y = __ballot_sync(0xffffffffu, acc & 1);
	unsigned z = __match_any_sync(0xffffffffu, acc & 3);
	unsigned r = __reduce_add_sync(0xffffffffu, acc & 0xff);
	sh[t] = acc;
	__syncthreads();
	out[6 * t + 0] = acc;
	out[6 * t + 1] = x;
	out[6 * t + 2] = y ^ z;
	out[6 * t + 3] = r + sh[(t + 37) % n];
	if (t % 5 == 4)
		return;
	unsigned v = acc % 1000 + 1, s = 0;
	while (v != 1) {
		v = (v & 1) ? 3 * v + 1 : v >> 1;
		if (++s == 60)
			break;
	}
	out[6 * t + 4] = s;
	if (t & 8) {
		unsigned m = __activemask();
		out[6 * t + 5] = __shfl_sync(m, s, __ffs(m) - 1) + m;
	}
}
