/* block_histogram reference: one count per byte value (both outputs). */
static void
ref_block_histogram(Launch *l)
{
	const u8 *in = launch_buf(l, "in");
	u32 *hs = launch_buf(l, "hsort"), *ha = launch_buf(l, "hatomic");
	u32 i;

	for (i = 0; i < GX(l) * 1024; i++) {
		hs[in[i]]++;
		ha[in[i]]++;
	}
}
