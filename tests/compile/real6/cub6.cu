// CUB block-level algorithms, a sixth sweep (session 10, "breadth6"): BlockLoad/BlockStore
// WARP_TRANSPOSE, BlockRadixSort on key-value pairs (sort_by_key), BlockDiscontinuity for unique
// and run-length encoding (flag heads + BlockScan of the flags, a scatter), a key-segmented
// inclusive scan (BlockScan with a (key, value) operator: inclusive_scan_by_key), reduce_by_key,
// copy_if / partition by BlockScan of flags, a merge-path set_intersection of two sorted tiles,
// WarpMergeSort; written for openassembler's tests; .ptx: nvcc 13.0 --ptx -O3 -arch=sm_XX
// (gen.sh); //@ lines: launch specs.
#include <cub/block/block_load.cuh>
#include <cub/block/block_store.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_discontinuity.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/warp/warp_merge_sort.cuh>

//@ sort_by_key grid=1 block=64 | ko:u32[256] check | vo:s32[256] check | ki:u32[256] rand(0,4095) | vi:s32[256] range(0,1)
extern "C" __global__ void sort_by_key(unsigned *ko, int *vo, const unsigned *ki, const int *vi)
{
	typedef cub::BlockLoad<unsigned, 64, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE> LK;
	typedef cub::BlockLoad<int, 64, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE> LV;
	typedef cub::BlockRadixSort<unsigned, 64, 4, int> Sort;
	typedef cub::BlockStore<unsigned, 64, 4, cub::BLOCK_STORE_WARP_TRANSPOSE> SK;
	typedef cub::BlockStore<int, 64, 4, cub::BLOCK_STORE_WARP_TRANSPOSE> SV;
	__shared__ union { typename LK::TempStorage lk; typename LV::TempStorage lv; typename Sort::TempStorage s;
			   typename SK::TempStorage sk; typename SV::TempStorage sv; } tmp;
	unsigned k[4];
	int v[4];
	LK(tmp.lk).Load(ki, k);
	__syncthreads();
	LV(tmp.lv).Load(vi, v);
	__syncthreads();
	Sort(tmp.s).Sort(k, v, 0, 12);   /* stable: equal keys keep their index order */
	__syncthreads();
	SK(tmp.sk).Store(ko, k);
	__syncthreads();
	SV(tmp.sv).Store(vo, v);
}

struct NotEq { __device__ bool operator()(const int &a, const int &b) const { return a != b; } };
//@ unique_rle grid=1 block=64 | uo:s32[256] check | counts:s32[256] check | n:s32[1] check | in:s32[256] rand(0,3)
extern "C" __global__ void unique_rle(int *uo, int *counts, int *n, const int *in)
{
	typedef cub::BlockDiscontinuity<int, 64> Disc;
	typedef cub::BlockScan<int, 64> Scan;
	__shared__ typename Disc::TempStorage dt;
	__shared__ typename Scan::TempStorage st;
	__shared__ int start[257];
	int x[4], h[4], pos[4], total, t = threadIdx.x;
	for (int i = 0; i < 4; i++) x[i] = in[4 * t + i] >> 1;   /* blocked arrangement; runs of 0/1 */
	Disc(dt).FlagHeads(h, x, NotEq());
	Scan(st).ExclusiveSum(h, pos, total);
	for (int i = 0; i < 4; i++) if (h[i]) uo[pos[i]] = x[i], start[pos[i]] = 4 * t + i;
	if (t == 0) start[total] = 256, *n = total;
	__syncthreads();
	for (int r = t; r < total; r += 64) counts[r] = start[r + 1] - start[r];
}

struct KV { int k, v; };
struct ScanByKey {
	__device__ KV operator()(const KV &a, const KV &b) const { return KV{b.k, a.k == b.k ? a.v + b.v : b.v}; }
};
//@ scan_by_key grid=1 block=128 | o:s32[256] check | sums:s32[256] check | keys:s32[256] rand(0,2) | vals:s32[256] rand(-50,50)
extern "C" __global__ void scan_by_key(int *o, int *sums, const int *keys, const int *vals)
{
	typedef cub::BlockScan<KV, 128> Scan;
	typedef cub::BlockDiscontinuity<int, 128> Disc;
	__shared__ typename Scan::TempStorage st;
	__shared__ typename Disc::TempStorage dt;
	int t = threadIdx.x, tails[2], ks[2];
	KV in[2], out[2];
	for (int i = 0; i < 2; i++) {
		ks[i] = keys[2 * t + i] + ((2 * t + i) >> 5) * 3;   /* keys grouped in runs (segments) */
		in[i] = KV{ks[i], vals[2 * t + i]};
	}
	Scan(st).InclusiveScan(in, out, ScanByKey());
	Disc(dt).FlagTails(tails, ks, NotEq());
	for (int i = 0; i < 2; i++) {
		o[2 * t + i] = out[i].v;
		sums[2 * t + i] = tails[i] ? out[i].v : 0x7fffffff;   /* reduce_by_key: each run's total at its tail */
	}
}

//@ partition grid=1 block=128 | o:s32[512] check | n:s32[1] check | in:s32[512] rand(-1000,1000)
extern "C" __global__ void partition(int *o, int *n, const int *in)
{
	typedef cub::BlockScan<int, 128> Scan;
	__shared__ typename Scan::TempStorage st;
	int x[4], f[4], p[4], sel, t = threadIdx.x;
	for (int i = 0; i < 4; i++) x[i] = in[4 * t + i], f[i] = (x[i] & 3) == 1 || x[i] > 700;
	Scan(st).ExclusiveSum(f, p, sel);
	for (int i = 0; i < 4; i++) {   /* copy_if to the front, the rest reversed at the back (thrust::partition) */
		int r = 4 * t + i;
		if (f[i]) o[p[i]] = x[i];
		else o[511 - (r - p[i])] = x[i];
	}
	if (t == 0) *n = sel;
}

__device__ int merge_path(const int *a, int na, const int *b, int nb, int diag)
{
	int lo = max(0, diag - nb), hi = min(diag, na);
	while (lo < hi) {
		int m = (lo + hi) >> 1;
		if (a[m] < b[diag - 1 - m]) lo = m + 1; else hi = m;
	}
	return lo;
}
//@ set_isect grid=1 block=32 | o:s32[256] check | cnt:s32[32] check | a:s32[128] range(0,3) | b:s32[128] range(0,5)
extern "C" __global__ void set_isect(int *o, int *cnt, const int *a, const int *b)
{
	/* each thread intersects the 8-item merge-path slice of sorted a and b it owns */
	int t = threadIdx.x, d0 = t * 8, d1 = d0 + 8;
	int i = merge_path(a, 128, b, 128, d0), j = d0 - i, ie = merge_path(a, 128, b, 128, d1), je = d1 - ie, c = 0;
	while (i < ie || j < je) {
		if (j >= je || (i < ie && a[i] < b[j])) i++;
		else if (i >= ie || b[j] < a[i]) j++;
		else { o[t * 8 + c++] = a[i]; i++; j++; }
	}
	for (int k = c; k < 8; k++) o[t * 8 + k] = -1;
	cnt[t] = c;
}

struct Less { __device__ bool operator()(const float &x, const float &y) const { return x < y; } };
//@ warp_msort grid=1 block=64 | o:f32[256] check | in:f32[256] rand(-100,100)
extern "C" __global__ void warp_msort(float *o, const float *in)
{
	typedef cub::WarpMergeSort<float, 4, 32> WS;
	__shared__ typename WS::TempStorage ts[2];
	int w = threadIdx.x >> 5, l = threadIdx.x & 31;
	float k[4];
	for (int i = 0; i < 4; i++) k[i] = in[w * 128 + 4 * l + i];
	WS(ts[w]).Sort(k, Less());
	for (int i = 0; i < 4; i++) o[w * 128 + 4 * l + i] = k[i];
}
