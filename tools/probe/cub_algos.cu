// cub_algos.cu -- instantiates CUB device algorithms so that nvcc -cubin
// emits their kernels (probe input for tools/harvest; never run).
#include <cub/cub.cuh>
#include <cuda_fp16.h>

template <typename T> void reduce_scan(T *in, T *out, int n, void *tmp, size_t bytes)
{
	cub::DeviceReduce::Sum(tmp, bytes, in, out, n);
	cub::DeviceReduce::Max(tmp, bytes, in, out, n);
	cub::DeviceReduce::Min(tmp, bytes, in, out, n);
	cub::DeviceScan::InclusiveSum(tmp, bytes, in, out, n);
	cub::DeviceScan::ExclusiveSum(tmp, bytes, in, out, n);
	cub::DeviceScan::InclusiveScan(tmp, bytes, in, out, cuda::maximum<>(), n);
}

template <typename K> void sorts(K *k, K *k2, int *v, int *v2, int n, void *tmp, size_t bytes)
{
	cub::DeviceRadixSort::SortKeys(tmp, bytes, k, k2, n);
	cub::DeviceRadixSort::SortKeysDescending(tmp, bytes, k, k2, n);
	cub::DeviceRadixSort::SortPairs(tmp, bytes, k, k2, v, v2, n);
}

struct Pred { __host__ __device__ bool operator()(int x) const { return (x & 3) == 1; } };

void instantiate(void *tmp, size_t bytes, int n)
{
	reduce_scan<int>((int *)tmp, (int *)tmp + n, n, tmp, bytes);
	reduce_scan<float>((float *)tmp, (float *)tmp + n, n, tmp, bytes);
	reduce_scan<double>((double *)tmp, (double *)tmp + n, n, tmp, bytes);
	reduce_scan<unsigned long long>((unsigned long long *)tmp, (unsigned long long *)tmp + n, n, tmp, bytes);
	cub::KeyValuePair<int, float> *kv = (cub::KeyValuePair<int, float> *)tmp;
	cub::DeviceReduce::ArgMin(tmp, bytes, (float *)tmp, kv, n);
	cub::DeviceReduce::ArgMax(tmp, bytes, (float *)tmp, kv, n);
	sorts<unsigned>((unsigned *)tmp, (unsigned *)tmp + n, (int *)tmp, (int *)tmp + n, n, tmp, bytes);
	sorts<float>((float *)tmp, (float *)tmp + n, (int *)tmp, (int *)tmp + n, n, tmp, bytes);
	sorts<unsigned long long>((unsigned long long *)tmp, (unsigned long long *)tmp + n, (int *)tmp, (int *)tmp + n, n, tmp, bytes);
	sorts<short>((short *)tmp, (short *)tmp + n, (int *)tmp, (int *)tmp + n, n, tmp, bytes);
	sorts<double>((double *)tmp, (double *)tmp + n, (int *)tmp, (int *)tmp + n, n, tmp, bytes);
	int *h = (int *)tmp;
	cub::DeviceHistogram::HistogramEven(tmp, bytes, (float *)tmp, h, 65, 0.0f, 1.0f, n);
	cub::DeviceHistogram::HistogramEven(tmp, bytes, (unsigned char *)tmp, h, 257, 0, 256, n);
	cub::DeviceHistogram::HistogramRange(tmp, bytes, (float *)tmp, h, 9, (float *)tmp, n);
	cub::DeviceSelect::If(tmp, bytes, (int *)tmp, (int *)tmp + n, h, n, Pred());
	cub::DeviceSelect::Unique(tmp, bytes, (int *)tmp, (int *)tmp + n, h, n);
	cub::DeviceSelect::Flagged(tmp, bytes, (float *)tmp, (char *)tmp, (float *)tmp + n, h, n);
	cub::DeviceRunLengthEncode::Encode(tmp, bytes, (int *)tmp, (int *)tmp + n, h, h + 1, n);
	cub::DeviceSegmentedReduce::Sum(tmp, bytes, (float *)tmp, (float *)tmp + n, 16, h, h + 1);
	cub::DeviceSegmentedRadixSort::SortKeys(tmp, bytes, (unsigned *)tmp, (unsigned *)tmp + n, n, 16, h, h + 1);
	cub::DevicePartition::If(tmp, bytes, (int *)tmp, (int *)tmp + n, h, n, Pred());
	cub::DeviceMergeSort::SortKeys(tmp, bytes, (int *)tmp, n, cuda::std::less<int>());
}
