/* device_scan reference: the exclusive prefix sum. */
static void
ref_device_scan(Launch *l)
{
	const i32 *in = launch_buf(l, "in");
	i32 *out = launch_buf(l, "out");
	u32 n = SU32(l, "num_items"), i, s = 0;

	for (i = 0; i < n; i++) {
		out[i] = (i32)s;
		s += (u32)in[i];
	}
}
