// device_histogram -- cub::DeviceHistogram::HistogramEven over bytes
// (64 bins of levels 0..256 step 4).  The dispatch launches
// DeviceHistogramInitKernel (zero the bins, reset the tile queue) and then
// DeviceHistogramSweepKernel (one CTA per tile here: per-CTA shared
// privatized 256-bin histograms, folded into the output bins through the
// ScaleTransform, a 16-byte struct passed by value).  steps.ARCH name the
// two launches' specs.
#include <cub/cub.cuh>

void
device_histogram(const unsigned char *in, int *hist, int n, void *tmp, size_t bytes)
{
	cub::DeviceHistogram::HistogramEven(tmp, bytes, in, hist, 65, 0, 256, n);
}
