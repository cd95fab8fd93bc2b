/* cuda.h -- the CUDA driver API, loaded at run time with dlopen (no link
 * dependency, no CUDA headers): load cubins, query kernels, move memory,
 * launch.  Everything returns 0 on success or -1 with a message in
 * cuda_error(); cuda_open() returns 1 when there is no usable driver. */
#ifndef OA_CUDA_H
#define OA_CUDA_H

#include "util/util.h"

typedef struct Cuda Cuda;

/* Opens $OA_LIBCUDA or libcuda.so.1, initialises device 0 and its primary
 * context.  Returns 0, or 1 with the reason in *why when there is no
 * usable driver (the caller skips launches); never aborts. */
int cuda_open(Cuda **cu, char *why, size_t whylen);
void cuda_close(Cuda *cu);
const char *cuda_error(Cuda *cu);
/* Device name and compute capability (e.g. 90). */
int cuda_device(Cuda *cu, char *name, size_t n, int *sm);

typedef struct {
	int regs, local_bytes, shared_bytes, const_bytes, max_threads;
} CudaFuncInfo;

int cuda_load(Cuda *cu, const void *image, void **module);
int cuda_unload(Cuda *cu, void *module);
int cuda_function(Cuda *cu, void *module, const char *name, void **fn, CudaFuncInfo *info);
int cuda_alloc(Cuda *cu, size_t bytes, u64 *dptr);
int cuda_free(Cuda *cu, u64 dptr);
int cuda_put(Cuda *cu, u64 dptr, const void *src, size_t bytes);
int cuda_get(Cuda *cu, void *dst, u64 dptr, size_t bytes);
/* The driver's 128 bytes (cuTensorMapEncodeTiled) for our tensor-map
 * description m over the device address addr (run/tmap.h). */
struct Tmap;
int cuda_tmap_encode(Cuda *cu, const struct Tmap *m, u64 addr, u8 out[128]);
/* params[i] points at the value of parameter i (as cuLaunchKernel wants). */
int cuda_launch(Cuda *cu, void *fn, const u32 grid[3], const u32 block[3], u32 shared, void **params);
/* The same with thread-block cluster dimensions (cuLaunchKernelEx);
 * cluster NULL or {0,..} is a plain launch. */
int cuda_launch_cluster(Cuda *cu, void *fn, const u32 grid[3], const u32 block[3], const u32 cluster[3],
			u32 shared, void **params);

/* Median time in microseconds of reps launches (CUDA events around each,
 * after 3 warm-up launches).  The launches overwrite the buffers. */
int cuda_time(Cuda *cu, void *fn, const u32 grid[3], const u32 block[3], const u32 cluster[3], u32 shared,
	      void **params, int reps, double *median_us);

#endif
