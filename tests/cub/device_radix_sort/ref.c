/* device_radix_sort reference: the keys in ascending order. */
static int
device_radix_sort_cmp(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;
	return x < y ? -1 : x > y;
}

static void
ref_device_radix_sort(Launch *l)
{
	u32 n = (u32)SI32(l, "num_items");
	u32 *out = launch_buf(l, "keys_out");

	memcpy(out, launch_buf(l, "keys_in"), n * 4);
	qsort(out, n, 4, device_radix_sort_cmp);
}
