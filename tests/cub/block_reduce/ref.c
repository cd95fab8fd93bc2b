/* block_reduce reference: per-block sum and max. */
static void
ref_block_reduce(Launch *l)
{
	const i32 *in = launch_buf(l, "in");
	const float *f = launch_buf(l, "fin");
	i32 *sum = launch_buf(l, "sum");
	float *mx = launch_buf(l, "mx");
	u32 b, i;

	for (b = 0; b < GX(l); b++) {
		u32 s = 0;
		float m = f[b * 1024];
		for (i = 0; i < 1024; i++) {
			s += (u32)in[b * 1024 + i];
			if (f[b * 1024 + i] > m)
				m = f[b * 1024 + i];
		}
		sum[b] = (i32)s;
		mx[b] = m;
	}
}
