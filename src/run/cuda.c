/* cuda.c -- the CUDA driver API through dlopen("libcuda.so.1").  Only the
 * handful of entry points the runners need; their C signatures are the
 * stable driver ABI (_v2 names where the driver versions them).  Uses the
 * device's primary context, so it works across driver generations. */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "run/cuda.h"
#include "run/tmap.h"

typedef int CUres;
struct Cuda {
	void *lib;
	int dev;
	void *ctx;
	char err[512];
	CUres (*Init)(unsigned);
	CUres (*DeviceGet)(int *, int);
	CUres (*DeviceGetName)(char *, int, int);
	CUres (*DeviceGetAttribute)(int *, int, int);
	CUres (*PrimaryCtxRetain)(void **, int);
	CUres (*PrimaryCtxRelease)(int);
	CUres (*CtxSetCurrent)(void *);
	CUres (*CtxSynchronize)(void);
	CUres (*ModuleLoadDataEx)(void **, const void *, unsigned, int *, void **);
	CUres (*ModuleUnload)(void *);
	CUres (*ModuleGetFunction)(void **, void *, const char *);
	CUres (*FuncGetAttribute)(int *, int, void *);
	CUres (*MemAlloc)(u64 *, size_t);
	CUres (*MemFree)(u64);
	CUres (*MemcpyHtoD)(u64, const void *, size_t);
	CUres (*MemcpyDtoH)(void *, u64, size_t);
	CUres (*LaunchKernel)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
			      unsigned, void *, void **, void **);
	CUres (*GetErrorName)(CUres, const char **);
	CUres (*LaunchKernelEx)(const void *, void *, void **, void **); /* may be NULL */
	CUres (*EventCreate)(void **, unsigned);
	CUres (*EventRecord)(void *, void *);
	CUres (*EventSynchronize)(void *);
	CUres (*EventElapsedTime)(float *, void *, void *);
	CUres (*EventDestroy)(void *);
	/* may be NULL (before CUDA 12) */
	CUres (*TensorMapEncodeTiled)(void *, int, u32, void *, const u64 *, const u64 *, const u32 *,
				      const u32 *, int, int, int, int);
};

/* The driver ABI of cuLaunchKernelEx's configuration (CUDA 12+):
 * CUlaunchAttribute is {u32 id; 4 bytes pad; 64-byte value union (8-aligned)},
 * CUlaunchConfig is {7 x u32 grid/block/shared; stream; attrs; u32 count}. */
typedef struct {
	u32 id, pad;
	union {
		char bytes[64];
		u64 align;
		struct {
			u32 x, y, z;
		} cluster;
	} value;
} LaunchAttr;
typedef struct {
	u32 grid[3], block[3], shared;
	void *stream;
	LaunchAttr *attrs;
	u32 nattrs;
} LaunchConfig;
#define ATTR_CLUSTER_DIMENSION 4

static int
fail(Cuda *cu, const char *what, CUres r)
{
	const char *name = NULL;

	if (cu->GetErrorName)
		cu->GetErrorName(r, &name);
	snprintf(cu->err, sizeof cu->err, "%s failed: %s (%d)", what, name ? name : "?", r);
	return -1;
}

#define CALL(cu, f, ...) ((r = (cu)->f(__VA_ARGS__)) != 0 ? fail((cu), "cu" #f, r) : 0)

static int
bind(Cuda *cu)
{
	static const struct {
		const char *name;
		size_t off;
	} syms[] = {
#define S(f, n) {n, offsetof(Cuda, f)}
		S(Init, "cuInit"), S(DeviceGet, "cuDeviceGet"), S(DeviceGetName, "cuDeviceGetName"),
		S(DeviceGetAttribute, "cuDeviceGetAttribute"),
		S(PrimaryCtxRetain, "cuDevicePrimaryCtxRetain"),
		S(PrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2"),
		S(CtxSetCurrent, "cuCtxSetCurrent"), S(CtxSynchronize, "cuCtxSynchronize"),
		S(ModuleLoadDataEx, "cuModuleLoadDataEx"), S(ModuleUnload, "cuModuleUnload"),
		S(ModuleGetFunction, "cuModuleGetFunction"), S(FuncGetAttribute, "cuFuncGetAttribute"),
		S(MemAlloc, "cuMemAlloc_v2"), S(MemFree, "cuMemFree_v2"),
		S(MemcpyHtoD, "cuMemcpyHtoD_v2"), S(MemcpyDtoH, "cuMemcpyDtoH_v2"),
		S(LaunchKernel, "cuLaunchKernel"), S(GetErrorName, "cuGetErrorName"),
		S(EventCreate, "cuEventCreate"), S(EventRecord, "cuEventRecord"),
		S(EventSynchronize, "cuEventSynchronize"), S(EventElapsedTime, "cuEventElapsedTime"),
		S(EventDestroy, "cuEventDestroy_v2"),
#undef S
	};
	size_t i;

	for (i = 0; i < NELEM(syms); i++) {
		void *p = dlsym(cu->lib, syms[i].name);

		if (!p) {
			snprintf(cu->err, sizeof cu->err, "the driver library lacks %s", syms[i].name);
			return -1;
		}
		memcpy((char *)cu + syms[i].off, &p, sizeof p);
	}
	*(void **)&cu->LaunchKernelEx = dlsym(cu->lib, "cuLaunchKernelEx");
	*(void **)&cu->TensorMapEncodeTiled = dlsym(cu->lib, "cuTensorMapEncodeTiled");
	return 0;
}

int
cuda_open(Cuda **out, char *why, size_t whylen)
{
	const char *path = getenv("OA_LIBCUDA");
	Cuda *cu = xcalloc(1, sizeof *cu);
	CUres r;

	*out = NULL;
	if (!path || !*path)
		path = "libcuda.so.1";
	cu->lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!cu->lib) {
		snprintf(why, whylen, "cannot load %s: %s", path, dlerror());
		free(cu);
		return 1;
	}
	if (bind(cu) < 0 || CALL(cu, Init, 0) < 0 || CALL(cu, DeviceGet, &cu->dev, 0) < 0 ||
	    CALL(cu, PrimaryCtxRetain, &cu->ctx, cu->dev) < 0 || CALL(cu, CtxSetCurrent, cu->ctx) < 0) {
		snprintf(why, whylen, "%s: %s", path, cu->err);
		if (cu->ctx)
			cu->PrimaryCtxRelease(cu->dev);
		dlclose(cu->lib);
		free(cu);
		return 1;
	}
	*out = cu;
	return 0;
}

void
cuda_close(Cuda *cu)
{
	if (!cu)
		return;
	cu->PrimaryCtxRelease(cu->dev);
	dlclose(cu->lib);
	free(cu);
}

const char *
cuda_error(Cuda *cu)
{
	return cu->err;
}

int
cuda_device(Cuda *cu, char *name, size_t n, int *sm)
{
	int major = 0, minor = 0;
	CUres r;

	if (CALL(cu, DeviceGetName, name, (int)n, cu->dev) < 0 ||
	    CALL(cu, DeviceGetAttribute, &major, 75, cu->dev) < 0 || /* COMPUTE_CAPABILITY_MAJOR */
	    CALL(cu, DeviceGetAttribute, &minor, 76, cu->dev) < 0)
		return -1;
	*sm = major * 10 + minor;
	return 0;
}

int
cuda_load(Cuda *cu, const void *image, void **module)
{
	CUres r;

	return CALL(cu, ModuleLoadDataEx, module, image, 0, NULL, NULL);
}

int
cuda_unload(Cuda *cu, void *module)
{
	CUres r;

	return CALL(cu, ModuleUnload, module);
}

int
cuda_function(Cuda *cu, void *module, const char *name, void **fn, CudaFuncInfo *info)
{
	CUres r;

	if (CALL(cu, ModuleGetFunction, fn, module, name) < 0)
		return -1;
	if (!info)
		return 0;
	/* CU_FUNC_ATTRIBUTE_{MAX_THREADS_PER_BLOCK 0, SHARED 1, CONST 2, LOCAL 3, NUM_REGS 4} */
	if (CALL(cu, FuncGetAttribute, &info->max_threads, 0, *fn) < 0 ||
	    CALL(cu, FuncGetAttribute, &info->shared_bytes, 1, *fn) < 0 ||
	    CALL(cu, FuncGetAttribute, &info->const_bytes, 2, *fn) < 0 ||
	    CALL(cu, FuncGetAttribute, &info->local_bytes, 3, *fn) < 0 ||
	    CALL(cu, FuncGetAttribute, &info->regs, 4, *fn) < 0)
		return -1;
	return 0;
}

int
cuda_alloc(Cuda *cu, size_t bytes, u64 *dptr)
{
	CUres r;

	return CALL(cu, MemAlloc, dptr, bytes ? bytes : 1);
}

int
cuda_free(Cuda *cu, u64 dptr)
{
	CUres r;

	return CALL(cu, MemFree, dptr);
}

int
cuda_put(Cuda *cu, u64 dptr, const void *src, size_t bytes)
{
	CUres r;

	return CALL(cu, MemcpyHtoD, dptr, src, bytes);
}

/* CUtensorMapDataType of our element types (cuda.h); -1: none. */
static int
tmap_dtype(ElemType t)
{
	static const int v[NTYPE] = { [T_S8] = -1, [T_U8] = 0, [T_S16] = -1, [T_U16] = 1, [T_U32] = 2, [T_S32] = 3,
				      [T_U64] = 4, [T_S64] = 5, [T_F16] = 6, [T_F32] = 7, [T_F64] = 8,
				      [T_BF16] = 9 };
	return v[t];
}

int
cuda_tmap_encode(Cuda *cu, const Tmap *m, u64 addr, u8 out[TMAP_BYTES])
{
	_Alignas(64) u8 map[TMAP_BYTES];
	u64 dims[TMAP_MAXRANK], strides[TMAP_MAXRANK];
	CUres r;
	int i;

	if (!cu->TensorMapEncodeTiled || tmap_dtype(m->type) < 0) {
		snprintf(cu->err, sizeof cu->err, "cuTensorMapEncodeTiled: %s",
			 cu->TensorMapEncodeTiled ? "no such data type" : "the driver library lacks it");
		return -1;
	}
	for (i = 0; i < m->rank; i++) {
		dims[i] = m->dims[i];
		if (i)
			strides[i - 1] = m->strides[i];
	}
	/* interleave NONE; swizzle, L2 promotion and OOB fill enumerate as ours */
	if (CALL(cu, TensorMapEncodeTiled, map, tmap_dtype(m->type), (u32)m->rank, (void *)(uintptr_t)addr, dims,
		 strides, m->box, m->estr, 0, m->swizzle, m->l2promo, m->oobfill) < 0)
		return -1;
	memcpy(out, map, TMAP_BYTES);
	return 0;
}

int
cuda_get(Cuda *cu, void *dst, u64 dptr, size_t bytes)
{
	CUres r;

	return CALL(cu, MemcpyDtoH, dst, dptr, bytes);
}

/* Enqueue one launch on the default stream (no wait). */
static int
launch_async(Cuda *cu, void *fn, const u32 grid[3], const u32 block[3], const u32 cluster[3],
	     u32 shared, void **params)
{
	LaunchConfig cfg;
	LaunchAttr at;
	CUres r;

	if (!cluster || !cluster[0])
		return CALL(cu, LaunchKernel, fn, grid[0], grid[1], grid[2], block[0], block[1], block[2],
			    shared, NULL, params, NULL);
	if (!cu->LaunchKernelEx) {
		snprintf(cu->err, sizeof cu->err, "the driver lacks cuLaunchKernelEx (needed for clusters)");
		return -1;
	}
	memset(&cfg, 0, sizeof cfg);
	memset(&at, 0, sizeof at);
	memcpy(cfg.grid, grid, sizeof cfg.grid);
	memcpy(cfg.block, block, sizeof cfg.block);
	cfg.shared = shared;
	cfg.attrs = &at;
	cfg.nattrs = 1;
	at.id = ATTR_CLUSTER_DIMENSION;
	at.value.cluster.x = cluster[0];
	at.value.cluster.y = cluster[1] ? cluster[1] : 1;
	at.value.cluster.z = cluster[2] ? cluster[2] : 1;
	return (r = cu->LaunchKernelEx(&cfg, fn, params, NULL)) != 0 ? fail(cu, "cuLaunchKernelEx", r) : 0;
}

/* Launch and wait for the kernel to finish (a fault shows here). */
int
cuda_launch_cluster(Cuda *cu, void *fn, const u32 grid[3], const u32 block[3], const u32 cluster[3],
		    u32 shared, void **params)
{
	CUres r;

	if (launch_async(cu, fn, grid, block, cluster, shared, params) < 0)
		return -1;
	return (r = cu->CtxSynchronize()) != 0 ? fail(cu, "cuCtxSynchronize", r) : 0;
}

int
cuda_launch(Cuda *cu, void *fn, const u32 grid[3], const u32 block[3], u32 shared, void **params)
{
	return cuda_launch_cluster(cu, fn, grid, block, NULL, shared, params);
}

static int
cmp_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;
	return (x > y) - (x < y);
}

int
cuda_time(Cuda *cu, void *fn, const u32 grid[3], const u32 block[3], const u32 cluster[3], u32 shared,
	  void **params, int reps, double *median_us)
{
	void *e0 = NULL, *e1 = NULL;
	float *ms = xcalloc((size_t)reps + 1, sizeof *ms);
	int i, rc = -1;
	CUres r;

	for (i = 0; i < 3; i++)	/* warm-up */
		if (cuda_launch_cluster(cu, fn, grid, block, cluster, shared, params) < 0)
			goto out;
	if (CALL(cu, EventCreate, &e0, 0) < 0 || CALL(cu, EventCreate, &e1, 0) < 0)
		goto out;
	/* events around the launch alone: the host's wait is not timed */
	for (i = 0; i < reps; i++) {
		if (CALL(cu, EventRecord, e0, NULL) < 0 ||
		    launch_async(cu, fn, grid, block, cluster, shared, params) < 0 ||
		    CALL(cu, EventRecord, e1, NULL) < 0 || CALL(cu, EventSynchronize, e1) < 0 ||
		    CALL(cu, EventElapsedTime, &ms[i], e0, e1) < 0)
			goto out;
	}
	qsort(ms, (size_t)reps, sizeof *ms, cmp_float);
	*median_us = reps % 2 ? 1e3 * ms[reps / 2] : 1e3 * 0.5 * (ms[reps / 2 - 1] + ms[reps / 2]);
	rc = 0;
out:
	if (e0)
		cu->EventDestroy(e0);
	if (e1)
		cu->EventDestroy(e1);
	free(ms);
	return rc;
}
