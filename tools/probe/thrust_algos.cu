// thrust_algos.cu -- instantiates Thrust algorithms (sort, transform,
// reduce, scan, unique, copy_if, sort_by_key) for nvcc -cubin; never run.
#include <thrust/device_vector.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/unique.h>
#include <thrust/copy.h>
#include <thrust/functional.h>
#include <thrust/count.h>
#include <thrust/inner_product.h>
#include <thrust/iterator/counting_iterator.h>

struct saxpy { float a; __host__ __device__ float operator()(float x, float y) const { return a * x + y; } };
struct is_odd { __host__ __device__ bool operator()(int x) const { return x & 1; } };
struct sq { __host__ __device__ double operator()(double x) const { return x * x; } };

void instantiate(int n)
{
	thrust::device_vector<float> x(n), y(n);
	thrust::device_vector<int> a(n), b(n);
	thrust::device_vector<double> d(n);
	thrust::sort(x.begin(), x.end());
	thrust::sort(a.begin(), a.end(), thrust::greater<int>());
	thrust::sort_by_key(a.begin(), a.end(), x.begin());
	thrust::stable_sort(d.begin(), d.end());
	thrust::transform(x.begin(), x.end(), y.begin(), y.begin(), saxpy{2.0f});
	thrust::transform(d.begin(), d.end(), d.begin(), sq());
	float s = thrust::reduce(x.begin(), x.end());
	int m = thrust::reduce(a.begin(), a.end(), 0, thrust::maximum<int>());
	double t = thrust::transform_reduce(d.begin(), d.end(), sq(), 0.0, thrust::plus<double>());
	thrust::inclusive_scan(a.begin(), a.end(), b.begin());
	thrust::exclusive_scan(x.begin(), x.end(), y.begin());
	thrust::unique(a.begin(), a.end());
	thrust::copy_if(a.begin(), a.end(), b.begin(), is_odd());
	int c = thrust::count_if(a.begin(), a.end(), is_odd());
	float ip = thrust::inner_product(x.begin(), x.end(), y.begin(), 0.0f);
	thrust::sequence(a.begin(), a.end());
	(void)s; (void)m; (void)t; (void)c; (void)ip;
}
