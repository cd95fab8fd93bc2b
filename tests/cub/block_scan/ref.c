/* block_scan reference: per 512-item tile, exclusive sum and inclusive max. */
static void
ref_block_scan(Launch *l)
{
	const i32 *in = launch_buf(l, "in");
	i32 *ex = launch_buf(l, "ex"), *im = launch_buf(l, "incmax");
	u32 b, i;

	for (b = 0; b < GX(l); b++) {
		i32 s = 0, m = in[b * 512];
		for (i = 0; i < 512; i++) {
			u32 k = b * 512 + i;
			ex[k] = s;
			s += in[k];
			if (in[k] > m)
				m = in[k];
			im[k] = m;
		}
	}
}
