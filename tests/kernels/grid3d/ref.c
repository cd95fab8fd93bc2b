/* grid3d reference: recovers block and thread from the global position. */
#include "../ref.h"

void
ref_grid3d(Launch *l)
{
	u32 *out = launch_buf(l, "out");
	const Spec *s = l->spec;
	i32 nx = SI32(l, "nx"), ny = SI32(l, "ny"), nz = SI32(l, "nz"), x, y, z;
	u32 bx = s->block[0], by = s->block[1], bz = s->block[2];

	for (z = 0; z < nz; z++)
		for (y = 0; y < ny; y++)
			for (x = 0; x < nx; x++) {
				u32 cta = x / bx + s->grid[0] * (y / by + s->grid[1] * (z / bz));
				u32 tid = x % bx + bx * (y % by + by * (z % bz));
				out[(z * ny + y) * nx + x] = cta * 1000 + tid + 100000 * (bx * by * bz);
			}
}
