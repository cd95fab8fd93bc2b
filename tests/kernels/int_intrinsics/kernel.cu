// int_intrinsics -- prmt, funnel shifts, sad, dp4a, mul24, mulhi, integer averages, ffs, 64-bit clz/popc.
extern "C" __global__ void int_intrinsics(const unsigned *a, const unsigned *b, unsigned *y, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		unsigned p = a[i], q = b[i];
		unsigned long long w = (unsigned long long)p << 32 | q;
		unsigned *o = y + 12 * i;
		o[0] = __byte_perm(p, q, 0x7531);
		o[1] = __funnelshift_l(p, q, q & 63);
		o[2] = __funnelshift_r(p, q, p);
		o[3] = __sad((int)p, (int)q, 17u);
		o[4] = (unsigned)__dp4a((int)p, (int)q, -5);
		o[5] = (unsigned)__mul24((int)p, (int)q);
		o[6] = (unsigned)__mulhi((int)p, (int)q);
		o[7] = __umulhi(p, q);
		o[8] = (unsigned)__hadd((int)p, (int)q);
		o[9] = __urhadd(p, q);
		o[10] = (unsigned)__ffs((int)(p & 0xfff000));
		o[11] = (unsigned)(__clzll(w >> (q & 31)) * 100 + __popcll(w));
	}
}
