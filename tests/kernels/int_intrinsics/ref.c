/* int_intrinsics reference: each intrinsic from its CUDA definition. */
#include "../ref.h"

static u32
int_intrinsics_prmt(u32 x, u32 y, u32 s)
{
	u64 v = (u64)y << 32 | x;
	u32 r = 0, k;

	for (k = 0; k < 4; k++)
		r |= (u32)(v >> 8 * ((s >> 4 * k) & 7) & 0xff) << 8 * k;
	return r;
}

void
ref_int_intrinsics(Launch *l)
{
	const u32 *a = launch_buf(l, "a"), *b = launch_buf(l, "b");
	u32 *y = launch_buf(l, "y");
	i32 n = SI32(l, "n"), i, k;

	for (i = 0; i < n; i++) {
		u32 p = a[i], q = b[i], *o = y + 12 * i, sh;
		i32 sp = (i32)p, sq = (i32)q, dp = -5;
		u64 w = (u64)p << 32 | q, hl = (u64)q << 32 | p, ws;
		o[0] = int_intrinsics_prmt(p, q, 0x7531);
		sh = q & 31;        /* clamp: __funnelshift_l wraps the shift mod 32 */
		o[1] = (u32)((hl << sh) >> 32);
		o[2] = (u32)(hl >> (p & 31));
		o[3] = (u32)((sp > sq ? (i64)sp - sq : (i64)sq - sp) + 17);
		for (k = 0; k < 4; k++)
			dp += (int8_t)(p >> 8 * k) * (int8_t)(q >> 8 * k);
		o[4] = (u32)dp;
		o[5] = (u32)((i64)((i32)(p << 8) >> 8) * ((i32)(q << 8) >> 8));
		o[6] = (u32)(((i64)sp * sq) >> 32);
		o[7] = (u32)(((u64)p * q) >> 32);
		o[8] = (u32)(i32)(((i64)sp + sq) >> 1);
		o[9] = (u32)(((u64)p + q + 1) >> 1);
		o[10] = (p & 0xfff000) ? (u32)__builtin_ctz(p & 0xfff000) + 1 : 0;
		ws = w >> (q & 31);
		o[11] = (u32)((ws ? __builtin_clzll(ws) : 64) * 100 + __builtin_popcountll(w));
	}
}
