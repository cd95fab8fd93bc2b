// extra.cu -- SASS forms the suite does not reach, for the emulator:
// __syncthreads_count/and/or (BAR.RED), a dense switch (ptxas: a compare chain),
// mma.m8n8k4 f64 (DMMA), 64-bit atomicCAS and atomicExch/atomicMax on
// shared memory, __all_sync/__uni_sync votes.  Compared with the PTX
// interpreter on the same PTX (tests/unit/test_emu.c).  Built by regen.
extern "C" __global__ void extra(unsigned *out, const unsigned *in, double *d,
				 unsigned long long *cas)
{
	__shared__ unsigned sx[4];
	__shared__ long long smax;
	unsigned t = threadIdx.x, v = in[t];
	if (t < 4)
		sx[t] = 0;
	if (t == 0)
		smax = -5;
	__syncthreads();
	int c = __syncthreads_count(v & 1);
	int a = __syncthreads_and(v > 10);
	int o = __syncthreads_or(v == 77);
	unsigned r;
	switch (v % 11) {
	case 0: r = v * 3; break;
	case 1: r = v ^ 0x55; break;
	case 2: r = v + 1000; break;
	case 3: r = v >> 2; break;
	case 4: r = ~v; break;
	case 5: r = v * v; break;
	case 6: r = v | 0xf0; break;
	case 7: r = v - 7; break;
	case 8: r = v << 3; break;
	case 9: r = v & 0x3c; break;
	default: r = 12345; break;
	}
	atomicExch(&sx[t & 3], t);
	atomicMax(&smax, (long long)v - 50);
	unsigned long long old = cas[t & 7], want;
	do {
		want = old;
		old = atomicCAS(&cas[t & 7], want, want + t);
	} while (old != want);
	int all = __all_sync(0xffffffffu, v < 100000);
	int uni = __uni_sync(0xffffffffu, (v & 1));
	__syncthreads();
	out[8 * t + 0] = c;
	out[8 * t + 1] = a | o << 1 | all << 2 | uni << 3;
	out[8 * t + 2] = r;
	out[8 * t + 3] = sx[t & 3] < blockDim.x;
	out[8 * t + 4] = (unsigned)smax;
	if (t < 32) {
		/* mma.m8n8k4 f64: A 8x4 (row), B 4x8 (col), one element each per lane */
		double fa = d[t], fb = d[32 + t], c0 = d[64 + 2 * t], c1 = d[65 + 2 * t], d0, d1;
		asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%4, %5};"
			     : "=d"(d0), "=d"(d1) : "d"(fa), "d"(fb), "d"(c0), "d"(c1));
		d[128 + 2 * t] = d0;
		d[129 + 2 * t] = d1;
	}
}
