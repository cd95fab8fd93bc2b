// thrust_sort.cu -- thrust::sort of floats (merge sort) with a custom comparator.
#include <thrust/device_ptr.h>
#include <thrust/sort.h>
#include <thrust/functional.h>
struct by_abs {
	__host__ __device__ bool operator()(float a, float b) const { return fabsf(a) < fabsf(b); }
};
void tsort(float *p, int n)
{
	thrust::device_ptr<float> d(p);
	thrust::sort(d, d + n, by_abs());
}
