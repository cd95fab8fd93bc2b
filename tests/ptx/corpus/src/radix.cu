// radix.cu -- cub::DeviceRadixSort::SortKeys over unsigned int.
#include <cub/cub.cuh>
void radix_keys(const unsigned *in, unsigned *out, int n, void *tmp, size_t &tb, cudaStream_t s)
{
	cub::DeviceRadixSort::SortKeys(tmp, tb, in, out, n, 0, 32, s);
}
