/* emu_sys.c -- code addresses and calls to the CUDA system externals.
 *
 * The kernel's code sits at EMU_CODE_BASE (LEPC reads it); each undefined
 * FUNC symbol the cubin relocates into a constant bank (vprintf, malloc,
 * free, __assertfail) gets the address EMU_SYS_BASE + 16 * k.  A
 * CALL.ABS.NOINC to one runs the host version per lane with NVIDIA's
 * register ABI (arguments from R4 on, a 64-bit one at an even register;
 * result in R4(:R5); return to R20:R21) and then poisons the argument
 * registers R6..R15 and UR4..UR35, so that code keeping a value there
 * across the call fails here instead of on a GPU.  Which registers the
 * driver's functions preserve is not documented; ptxas keeps values in
 * R2, R16..R25 and UR36 across vprintf, so those are not poisoned
 * (ptxas's own cubins must run).  Printed text goes to
 * EmuOpts.printf_to; a failed assertion prints CUDA's message there and
 * stops the run with an error. */
#include <stdio.h>
#include <string.h>

#include "emu/emu_int.h"
#include "run/devsys.h"

static const char *const sys_names[] = {"vprintf", "malloc", "free", "__assertfail"};

u64
emu_extern_addr(const char *name)
{
	size_t k;

	for (k = 0; k < NELEM(sys_names); k++)
		if (!strcmp(name, sys_names[k]))
			return EMU_SYS_BASE + 16 * k;
	return 0;
}

/* LEPC Rd[, target]: the absolute address of the target, or of itself. */
void
h_lepc(Emu *E, Warp *w, const EInsn *I, u32 gm)
{
	u64 a = EMU_CODE_BASE + (I->in.nops > 1 && I->in.o[1].kind == OPK_IMM ? I->in.o[1].imm : I->pc);
	int l;

	(void)E;
	if (I->in.nops < 1 || I->in.o[0].kind != OPK_R)
		eunsup(E, I, NULL);
	LANES(l, gm)
		e_wr64(w, l, &I->in.o[0], a);
}

struct Rd {
	Emu *E;
	Warp *w;
	int lane;
};

static u64
rd(void *ctx, u64 addr, int size)
{
	struct Rd *r = ctx;
	u64 v = 0;

	memcpy(&v, emu_mem(r->E, r->w, r->lane, MS_GENERIC, addr, (u64)size, 0), (size_t)size);
	return v;
}

static u64
r64(Warp *w, int l, int r)
{
	return (u64)w->r[r][l] | (u64)w->r[r + 1][l] << 32;
}

static void
emit(Emu *E, Buf *b)
{
	if (E->o->printf_to && b->n)
		fwrite(b->s, 1, b->n, E->o->printf_to);
	buf_free(b);
}

/* One lane's call of system function k; its result into R4(:R5). */
static void
sys_call(Emu *E, Warp *w, int l, u64 k)
{
	struct Rd r = {E, w, l};
	Buf b = {0};
	char err[128];
	int n, wide = 0;
	u64 ret = 0;

	switch (k) {
	case 0:   /* int vprintf(const char *fmt, void *args) */
		n = dev_vprintf(&b, r64(w, l, 4), r64(w, l, 6), rd, &r, err, sizeof err);
		if (n < 0) {
			buf_free(&b);
			eerr(E, "%s (warp %d lane %d)", err, w->id, l);
		}
		emit(E, &b);
		ret = (u32)n;
		break;
	case 1:   /* void *malloc(size_t) */
		if (!E->heap.size) {
			E->heap_data = xcalloc(DEV_HEAP_SIZE, 1);
			E->heap.size = DEV_HEAP_SIZE;
			E->heap.base = emu_add_global(E, E->heap_data, DEV_HEAP_SIZE);
		}
		ret = dev_malloc(&E->heap, r64(w, l, 4));
		wide = 1;
		break;
	case 2:   /* void free(void *) */
		if (dev_free(&E->heap, r64(w, l, 4)) < 0)
			eerr(E, "free(0x%llx): not a block malloc returned, or freed already (warp %d lane %d)",
			     (unsigned long long)r64(w, l, 4), w->id, l);
		break;
	case 3: { /* void __assertfail(msg, file, unsigned line, function, size_t charSize) */
		u32 t = w->tid0 + (u32)l, tid[3] = {t % E->ntid[0], t / E->ntid[0] % E->ntid[1],
						      t / (E->ntid[0] * E->ntid[1])};
		dev_assert_msg(&b, r64(w, l, 4), r64(w, l, 6), w->r[8][l], r64(w, l, 10), w->ctaid, tid, rd, &r);
		emit(E, &b);
		eerr(E, "device-side assertion failed (__assertfail) in warp %d lane %d", w->id, l);
	}
	}
	/* written directly, not through e_setr: in timing mode (emu_tlog)
	 * that would make the result look in flight after the return, and
	 * the callee has long finished when the caller runs on */
	for (n = 6; n < 16; n++)   /* the argument registers past the result */
		w->r[n][l] = 0xdeadbeef;
	w->r[4][l] = (u32)ret;
	if (wide)
		w->r[5][l] = (u32)(ret >> 32);
}

/* CALL.ABS.NOINC Rn to a system function: run it for every lane of gm
 * (in lane order), then return each lane to its R20:R21. */
void
emu_call_sys(Emu *E, Warp *w, const EInsn *I, u32 gm, u64 target)
{
	u64 k = (target - EMU_SYS_BASE) / 16;
	int l, u;

	if ((target - EMU_SYS_BASE) % 16 || k >= NELEM(sys_names))
		eerr(E, "CALL.ABS to 0x%llx at %s+0x%x, which is no function", (unsigned long long)target, E->kname,
		     I->pc);
	LANES(l, gm) {
		u64 ra = r64(w, l, 20);
		sys_call(E, w, l, k);
		if (ra - EMU_CODE_BASE >= (u64)E->ncode * 16 || ra % 16)
			eerr(E, "return address 0x%llx of a call to %s is not in the kernel's code (warp %d lane %d)",
			     (unsigned long long)ra, sys_names[k], w->id, l);
		w->pc[l] = (u32)(ra - EMU_CODE_BASE);
	}
	for (u = 4; u < 36; u++)
		w->ur[u] = 0xdeadbeef;
}
