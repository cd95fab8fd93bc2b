// scan.cu -- cub::DeviceScan::InclusiveSum / ExclusiveSum.
#include <cub/cub.cuh>
void scan_incl(const int *in, int *out, int n, void *tmp, size_t &tb, cudaStream_t s)
{
	cub::DeviceScan::InclusiveSum(tmp, tb, in, out, n, s);
}
void scan_excl(const float *in, float *out, int n, void *tmp, size_t &tb, cudaStream_t s)
{
	cub::DeviceScan::ExclusiveSum(tmp, tb, in, out, n, s);
}
