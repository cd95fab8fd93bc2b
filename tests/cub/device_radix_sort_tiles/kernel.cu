// device_radix_sort_tiles -- cub::DeviceRadixSort::SortKeys over more keys
// than one tile: the onesweep dispatch launches
// DeviceRadixSortHistogramKernel (all digit histograms), then
// DeviceRadixSortExclusiveSumKernel (their prefix sums), then one
// DeviceRadixSortOnesweepKernel per 8-bit digit (4 passes, ping-pong
// between two key buffers, decoupled look-back between tiles).
// steps.ARCH name the launches' specs.
#include <cub/cub.cuh>

void
device_radix_sort(const unsigned *in, unsigned *out, int n, void *tmp, size_t bytes)
{
	cub::DeviceRadixSort::SortKeys(tmp, bytes, in, out, n);
}
