/* device_reduce reference: the sum of all items. */
static void
ref_device_reduce(Launch *l)
{
	const i32 *in = launch_buf(l, "in");
	u32 n = SU32(l, "num_items"), i, s = 0;

	for (i = 0; i < n; i++)
		s += (u32)in[i];
	*(i32 *)launch_buf(l, "out") = (i32)s;
}
