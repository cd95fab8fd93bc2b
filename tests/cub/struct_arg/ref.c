/* struct_arg reference: out[i] = ((in[i] * mul + add) >> shift) + extra
 * for i < n, with the struct's fields read back from the spec. */
static void
ref_struct_arg(Launch *l)
{
	const i32 *in = launch_buf(l, "in");
	i32 *out = launch_buf(l, "out");
	i32 n = (i32)launch_field(l, "a", 8), mul = (i32)launch_field(l, "a", 12);
	i64 add = (i64)launch_field(l, "a", 24);
	int shift = (int)launch_field(l, "a", 32), i;

	for (i = 0; i < n; i++)
		out[i] = (i32)(((i64)in[i] * mul + add) >> shift) + SI32(l, "extra");
}
