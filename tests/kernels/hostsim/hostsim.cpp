// hostsim.cpp -- the thread machinery of hostsim.h and the driver: load a
// spec, run the kernel (compiled in with -DKNAME=... -include kernel.cu)
// over the whole grid, run the C reference, compare.
#include <pthread.h>
#include <cstdio>
#include <cstdlib>
#include <tuple>
#include <utility>
#include <vector>

#include "hostsim.h"

#define _Noreturn __attribute__((noreturn))
extern "C" {
#include "../refs.h"
}

thread_local uint3 threadIdx, blockIdx;
dim3 blockDim, gridDim;

// A barrier over the threads still running: exited threads stop counting.
struct Bar {
	std::mutex m;
	std::condition_variable cv;
	int live = 0, waiting = 0, live_at_start = 0;
	unsigned gen = 0;
	void wait()
	{
		std::unique_lock<std::mutex> g(m);
		if (++waiting >= live) {
			waiting = 0;
			gen++;
			cv.notify_all();
			return;
		}
		unsigned my = gen;
		cv.wait(g, [&] { return gen != my; });
	}
	void leave()
	{
		std::lock_guard<std::mutex> g(m);
		live--;
		if (waiting > 0 && waiting >= live) {
			waiting = 0;
			gen++;
			cv.notify_all();
		}
	}
};

static Bar cta;
static Bar warps[32];
static unsigned long long slots[32][32];
static thread_local int my_lane, my_warp;
static std::mutex atomic_m;

std::mutex &hs_atomic_lock() { return atomic_m; }
void __syncthreads() { cta.wait(); }

unsigned long long
hs_shfl(unsigned long long v, int mode, int arg, int width)
{
	int lane = my_lane, base = lane & ~(width - 1), src;
	unsigned long long r;

	slots[my_warp][lane] = v;
	warps[my_warp].wait();
	switch (mode) {
	case 0: src = base + (arg & (width - 1)); break;
	case 1: src = lane - arg >= base ? lane - arg : lane; break;
	case 2: src = lane + arg < base + width ? lane + arg : lane; break;
	default: src = base + ((lane - base) ^ arg); break;
	}
	r = slots[my_warp][src];
	warps[my_warp].wait();
	return r;
}

alignas(128) char hs_dynsmem[232448];

/* Vote over the live lanes of this thread's warp. */
unsigned
hs_ballot(int pred)
{
	unsigned r = 0;

	slots[my_warp][my_lane] = pred != 0;
	warps[my_warp].wait();
	for (int l = 0; l < warps[my_warp].live_at_start; l++)
		r |= (unsigned)slots[my_warp][l] << l;
	warps[my_warp].wait();
	return r;
}

unsigned long long
hs_gather(unsigned long long v, unsigned long long *all)
{
	int n = warps[my_warp].live_at_start;

	slots[my_warp][my_lane] = v;
	warps[my_warp].wait();
	for (int l = 0; l < n; l++)
		all[l] = slots[my_warp][l];
	warps[my_warp].wait();
	return (unsigned long long)n;
}

int
__all_sync(unsigned, int p)
{
	unsigned b = hs_ballot(p), n = warps[my_warp].live_at_start;
	return b == (n == 32 ? ~0u : (1u << n) - 1);
}

template <class T> struct Arg {
	static T get(Launch *l, size_t i)
	{
		T v;
		std::memcpy(&v, &l->spec->args[i].scalar_bits, sizeof v);
		return v;
	}
};
template <class T> struct Arg<T *> {
	static T *get(Launch *l, size_t i) { return (T *)l->data[i]; }
};

template <class... P, size_t... I> static void
call(void (*k)(P...), Launch *l, std::index_sequence<I...>)
{
	k(Arg<P>::get(l, I)...);
}

template <class... P> static size_t nparams(void (*)(P...)) { return sizeof...(P); }
template <class... P> static void
invoke(void (*k)(P...), Launch *l)
{
	call(k, l, std::index_sequence_for<P...>{});
}

static Launch *the_launch;

static void *
thread_main(void *p)
{
	unsigned t = (unsigned)(uintptr_t)p;
	threadIdx.x = t % blockDim.x;
	threadIdx.y = t / blockDim.x % blockDim.y;
	threadIdx.z = t / (blockDim.x * blockDim.y);
	my_lane = t % 32;
	my_warp = t / 32;
	invoke(KNAME, the_launch);
	warps[my_warp].leave();
	cta.leave();
	return nullptr;
}

static uint3 cur_block;

static void *
thread_start(void *p)
{
	blockIdx = cur_block;
	return thread_main(p);
}

#define STR2(x) #x
#define STR(x) STR2(x)

int
main()
{
	const char *name = STR(KNAME);
	char path[256];
	Spec s;
	Launch got, want;
	const KernelRef *k = kernel_ref_lookup(name);

	snprintf(path, sizeof path, "tests/kernels/%s/spec.json", name);
	if (!k || spec_load(path, &s))
		return 2;
	if (nparams(KNAME) != s.nargs) {
		fprintf(stderr, "%s: kernel has %zu parameters, spec %zu\n", name, nparams(KNAME), s.nargs);
		return 1;
	}
	launch_init(&got, &s);
	launch_init(&want, &s);
	the_launch = &got;
	blockDim = dim3(s.block[0], s.block[1], s.block[2]);
	gridDim = dim3(s.grid[0], s.grid[1], s.grid[2]);
	unsigned nt = blockDim.x * blockDim.y * blockDim.z;
	for (unsigned bz = 0; bz < gridDim.z; bz++)
	for (unsigned by = 0; by < gridDim.y; by++)
	for (unsigned bx = 0; bx < gridDim.x; bx++) {
		std::vector<pthread_t> th(nt);
		cur_block.x = bx, cur_block.y = by, cur_block.z = bz;
		cta.live = nt;
		for (unsigned w = 0; w < (nt + 31) / 32; w++)
			warps[w].live = warps[w].live_at_start = std::min(32u, nt - 32 * w);
		for (unsigned t = 0; t < nt; t++) {
			pthread_attr_t a;
			pthread_attr_init(&a);
			pthread_attr_setstacksize(&a, 1 << 20);
			if (pthread_create(&th[t], &a, thread_start, (void *)(uintptr_t)t))
				abort();
			pthread_attr_destroy(&a);
		}
		for (unsigned t = 0; t < nt; t++)
			pthread_join(th[t], nullptr);
	}
	k->ref(&want);
	size_t bad = launch_compare(&got, &want, stderr);
	if (bad) {
		fprintf(stderr, "%s: %zu mismatches between the CUDA source run on the host and ref.c\n", name, bad);
		return 1;
	}
	return 0;
}
