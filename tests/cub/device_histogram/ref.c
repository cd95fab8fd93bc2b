/* device_histogram reference: 64 even bins over [0, 256), as CUB's
 * ScaleTransform computes them: (sample - min) * bins / range. */
static void
ref_device_histogram(Launch *l)
{
	const u8 *in = launch_buf(l, "in");
	i32 *hist = launch_buf(l, "hist");
	u32 n = SU32(l, "num_row_pixels"), i;

	memset(hist, 0, 64 * sizeof *hist);
	for (i = 0; i < n; i++)
		hist[(u32)in[i] * 64 / 256]++;
}
