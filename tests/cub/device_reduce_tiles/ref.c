/* device_reduce_tiles reference: the sum of all items (in is carried
 * into the last launch's spec as a buffer that is no parameter). */
static void
ref_device_reduce_tiles(Launch *l)
{
	const i32 *in = launch_buf(l, "in");
	size_t n = l->spec->args[spec_arg_index(l->spec, "in")].count, i;
	u32 s = 0;

	for (i = 0; i < n; i++)
		s += (u32)in[i];
	*(i32 *)launch_buf(l, "out") = (i32)s;
}
