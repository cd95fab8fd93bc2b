// thrust.cu -- Thrust device algorithms (their kernels are template
// instantiations inside the cubin); for the round-trip test.
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/transform.h>

struct square { __host__ __device__ float operator()(float x) const { return x * x; } };

float run(thrust::device_vector<float> &v)
{
	thrust::transform(v.begin(), v.end(), v.begin(), square());
	return thrust::reduce(v.begin(), v.end());
}
