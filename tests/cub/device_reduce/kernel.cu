// device_reduce -- cub::DeviceReduce::Sum over ints.  For up to one tile
// (256 threads x 16 items) the dispatch launches exactly one kernel,
// DeviceReduceSingleTileKernel, with grid 1 and block 256: that launch is
// what spec.json describes (parameters: d_in, d_out, num_items,
// reduction_op (empty), init, transform_op (empty)).
#include <cub/cub.cuh>

void
device_reduce(const int *in, int *out, int n, void *tmp, size_t bytes)
{
	cub::DeviceReduce::Sum(tmp, bytes, in, out, n);
}
