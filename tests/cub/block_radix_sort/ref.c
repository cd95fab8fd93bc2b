/* block_radix_sort reference: stable sort of each 512-item tile by key
 * (insertion sort: equal keys keep their order). */
static void
ref_block_radix_sort(Launch *l)
{
	const u32 *keys = launch_buf(l, "keys");
	u32 *ok = launch_buf(l, "okeys");
	i32 *ov = launch_buf(l, "ovals");
	u32 b, i, j;

	for (b = 0; b < GX(l); b++) {
		u32 *k = ok + b * 512;
		i32 *v = ov + b * 512;
		for (i = 0; i < 512; i++) {
			u32 key = keys[b * 512 + i];
			for (j = i; j > 0 && k[j - 1] > key; j--) {
				k[j] = k[j - 1];
				v[j] = v[j - 1];
			}
			k[j] = key;
			v[j] = (i32)i;
		}
	}
}
