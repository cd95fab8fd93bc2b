/* devsys.h -- the CUDA driver's device-side system calls, as the SASS
 * emulator (CALL.ABS.NOINC to a relocated extern) and the PTX interpreter
 * (call vprintf...) both run them: printf formatting and the device heap.
 * Memory is read through a callback (a generic address and a size, 1..8
 * bytes) that does not return on a fault. */
#ifndef OA_RUN_DEVSYS_H
#define OA_RUN_DEVSYS_H

#include <stdio.h>

#include "util/util.h"

typedef u64 (*DevRead)(void *ctx, u64 addr, int size);

/* vprintf(fmt, args): fmt and args are generic addresses; the argument
 * buffer holds each argument aligned to its size (int and char 4 bytes,
 * l/ll 8, floating point promoted to 8-byte doubles, %s and %p 8-byte
 * addresses; the layout nvcc emits and the driver reads).  Appends the
 * text to out; returns the number of arguments consumed, or -1 with err
 * set for a conversion it does not know. */
int dev_vprintf(Buf *out, u64 fmt, u64 args, DevRead rd, void *ctx, char *err, size_t errlen);

/* __assertfail(message, file, line, function, charSize): the line the
 * CUDA runtime prints, for the thread tid of CTA ctaid. */
void dev_assert_msg(Buf *out, u64 msg, u64 file, u32 line, u64 func, const u32 ctaid[3], const u32 tid[3],
		    DevRead rd, void *ctx);

/* The device heap: a window of `size` bytes at `base` in global memory
 * (the caller maps it), bump-allocated in 16-byte units, each block
 * remembered so that free can tell a live block from anything else. */
typedef struct {
	u64 addr, size;
	int live;
} DevBlock;
typedef struct {
	u64 base, size, top;
	VEC(DevBlock) blk;
} DevHeap;

/* The address of n fresh bytes, 0 when the heap is full (as malloc). */
u64 dev_malloc(DevHeap *h, u64 n);
/* 0, or -1 when p (not 0) is not a live block. */
int dev_free(DevHeap *h, u64 p);
void dev_heap_free(DevHeap *h);

/* Two runs' printed text (NUL-terminated, or NULL for none) compared as
 * sorted lines -- threads print in an order neither side defines: the
 * interpreter runs thread by thread, the emulator warp by warp.  0 when
 * equal, else 1 after naming the first differing line on report (if not
 * NULL).  Both texts are cut into lines in place. */
int dev_printed_compare(char *want, char *got, FILE *report);

enum { DEV_HEAP_SIZE = 8 << 20 };   /* the driver's default malloc heap (cudaLimitMallocHeapSize) */

#endif
