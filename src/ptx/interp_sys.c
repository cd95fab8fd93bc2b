/* interp_sys.c -- calls to the CUDA system externals in the interpreter:
 * vprintf (device printf), __assertfail (assert), malloc and free (the
 * device heap, a window of global memory made at the first malloc).  The
 * work is run/devsys.c's, shared with the SASS emulator.  Printed text
 * goes to InterpOpts.printf_to (nothing when NULL); a failed assertion
 * prints CUDA's message there too and stops the run with an error. */
#include <stdio.h>
#include <string.h>

#include "ptx/interp_int.h"
#include "run/devsys.h"

struct Rd {
	Interp *I;
	Thread *t;
};

static u64
rd(void *ctx, u64 addr, int size)
{
	struct Rd *r = ctx;

	return mem_ld(r->I, r->t, PTX_S_NONE, addr, size);
}

static void
emit(Interp *I, Buf *b)
{
	if (I->opts.printf_to && b->n)
		fwrite(b->s, 1, b->n, I->opts.printf_to);
	buf_free(b);
}

int
interp_syscall(Interp *I, Thread *t, const PtxFunc *fn, const u64 *v, int nv, u64 *ret)
{
	struct Rd r = {I, t};
	Buf b = {0};
	char err[128];
	int n;

	*ret = 0;
	if (!strcmp(fn->name, "vprintf") && nv == 2) {
		n = dev_vprintf(&b, v[0], v[1], rd, &r, err, sizeof err);
		if (n < 0) {
			buf_free(&b);
			ierr(I, "%s", err);
		}
		emit(I, &b);
		*ret = (u64)(u32)n;
		return 1;
	}
	if (!strcmp(fn->name, "__assertfail") && nv == 5) {
		dev_assert_msg(&b, v[0], v[1], (u32)v[2], v[3], t->cta->ctaid, t->tid, rd, &r);
		emit(I, &b);
		ierr(I, "device-side assertion failed (__assertfail)");
	}
	if (!strcmp(fn->name, "malloc") && nv == 1) {
		if (!I->heap.size) {
			I->heap.size = DEV_HEAP_SIZE;
			I->heap.base = interp_add_global(I, xcalloc(DEV_HEAP_SIZE, 1), DEV_HEAP_SIZE, -1);
		}
		*ret = dev_malloc(&I->heap, v[0]);
		return 1;
	}
	if (!strcmp(fn->name, "free") && nv == 1) {
		if (dev_free(&I->heap, v[0]) < 0)
			ierr(I, "free(0x%llx): not a block malloc returned, or freed already", (unsigned long long)v[0]);
		return 1;
	}
	return 0;
}
