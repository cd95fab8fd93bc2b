// tests/compile/coop/gsync.cu: cooperative groups' grid-wide sync (cg::this_grid().sync()):
// the launch spec asks for a cooperative launch (every CTA at once, a
// zeroed workspace in %envreg1:%envreg2).  PTX: nvcc --ptx -O3 -arch=sm_XX.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void gsync(int *x, int *y, int n)
{
	cg::grid_group g = cg::this_grid();
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) x[i] = i * 3 + 1;
	g.sync();
	if (i < n) y[i] = x[(i + 7) % n] + x[n - 1 - i];
	g.sync();
	if (i < n) x[i] = y[(i * 5) % n];
}
