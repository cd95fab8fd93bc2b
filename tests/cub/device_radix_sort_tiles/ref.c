/* device_radix_sort_tiles reference: the keys in ascending order. */
static int
device_radix_sort_tiles_cmp(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return (x > y) - (x < y);
}

static void
ref_device_radix_sort_tiles(Launch *l)
{
	u32 n = SU32(l, "num_items");

	memcpy(launch_buf(l, "out"), launch_buf(l, "in"), n * sizeof(u32));
	qsort(launch_buf(l, "out"), n, sizeof(u32), device_radix_sort_tiles_cmp);
}
