// thrust_seq -- thrust's algorithms in device code with the sequential
// policy (thrust::seq, one thread each; not thrust's device dispatch):
// each thread squares-and-sums its 8 ints with transform_reduce, reverses
// them with reverse, takes an inclusive_scan of the reversed chunk and
// finds its largest element with max_element.  (thrust::sort with seq
// allocates on the device heap (malloc), which neither the interpreter
// nor the emulator provides.)
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/scan.h>
#include <thrust/extrema.h>
#include <thrust/reverse.h>
#include <thrust/transform_reduce.h>

struct square {
	__host__ __device__ int operator()(int x) const { return x * x; }
};

extern "C" __global__ void
thrust_seq(const int *in, int *sumsq, int *rev, int *scan, int *maxpos, int n)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	int v[8];

	if (t * 8 >= n)
		return;
	for (int i = 0; i < 8; i++)
		v[i] = in[t * 8 + i];
	sumsq[t] = thrust::transform_reduce(thrust::seq, v, v + 8, square(), 0, thrust::plus<int>());
	thrust::reverse(thrust::seq, v, v + 8);
	for (int i = 0; i < 8; i++)
		rev[t * 8 + i] = v[i];
	thrust::inclusive_scan(thrust::seq, v, v + 8, scan + t * 8);
	maxpos[t] = (int)(thrust::max_element(thrust::seq, v, v + 8) - v);
}
