/* arith.h -- exact PTX arithmetic as pure functions on raw bits.
 *
 * Floating-point values travel as their bit patterns (u16 for f16/bf16,
 * u32 for f32, u64 for f64) so that NaN payloads, signed zeros and
 * subnormals are never touched by the host compiler.  Every function is
 * deterministic and independent of the host's rounding mode.
 *
 * Models (see docs/findings-interp.md):
 *  - NaN results are canonical: f32 0x7fffffff, f64 0x7fffffffffffffff,
 *    f16 0x7fff, bf16 0x7fff (the GPU does not propagate payloads).
 *  - .ftz flushes subnormal inputs and results to zero of the same sign;
 *    the result is tested after rounding.
 *  - .sat clamps to [+0.0, 1.0]; NaN -> +0.0; -0.0 -> +0.0.
 *  - .approx functions return the exact function rounded to nearest
 *    (computed in double), with PTX's special values. */
#ifndef OA_ARITH_H
#define OA_ARITH_H

#include "util/util.h"

/* Rounding modes (.rn .rz .rm .rp; .rna only for cvt to tf32). */
enum { RND_RN, RND_RZ, RND_RM, RND_RP, RND_RNA };

/* Float formats. */
enum { FF_F16, FF_BF16, FF_TF32, FF_F32, FF_F64, FF_E4M3, FF_E5M2 };

#define F32_NAN 0x7fffffffu
#define F64_NAN 0x7fffffffffffffffull
#define F16_NAN 0x7fffu

/* Host helpers. */
float f32_of(u32 b);
u32 bits_f32(float f);
double f64_of(u64 b);
u64 bits_f64(double d);
int f32_isnan(u32 a);
int f64_isnan(u64 a);
int f32_issub(u32 a);
u32 f32_flush(u32 a);            /* ftz on one input */

/* Round a double (exact, or rounded to odd) to format ff; returns bits.
 * NaN gives the format's canonical NaN. */
u64 round_to(double x, int ff, int rnd, int ftz);
/* Widen bits of format ff to a double (exact). */
double widen(u64 bits, int ff);

/* f32: rnd is a RND_*; ftz flushes inputs and result; sat clamps. */
u32 f32_add(u32 a, u32 b, int rnd, int ftz, int sat);
u32 f32_sub(u32 a, u32 b, int rnd, int ftz, int sat);
u32 f32_mul(u32 a, u32 b, int rnd, int ftz, int sat);
u32 f32_fma(u32 a, u32 b, u32 c, int rnd, int ftz, int sat);
u32 f32_mul_scaled(u32 a, u32 b, int k, int rnd, int ftz, int sat);   /* a * b * 2^k, one rounding */
u32 f32_div(u32 a, u32 b, int rnd, int ftz);
u32 f32_sqrt(u32 a, int rnd, int ftz);
u32 f32_rcp(u32 a, int rnd, int ftz);
u32 f32_min(u32 a, u32 b, int ftz, int nan);  /* nan: .NaN variant */
u32 f32_max(u32 a, u32 b, int ftz, int nan);
u32 f32_abs(u32 a, int ftz);
u32 f32_neg(u32 a, int ftz);
u32 f32_sat(u32 a);
/* .approx: op is one of the AP_* below.  f32_mufu: the SASS MUFU unit's
 * model; f32_approx, f32_div_approx (full: div.full): the PTX instruction
 * as the compiled sequence computes it, bit for bit. */
enum { AP_RCP, AP_RSQRT, AP_SQRT, AP_EX2, AP_LG2, AP_SIN, AP_COS, AP_TANH };
u32 f32_mufu(int op, u32 a);
u32 f32_approx(int op, u32 a, int ftz);
u32 f32_div_approx(u32 a, u32 b, int ftz, int full);
/* setp comparisons: cmp is one of the CMP_* below. */
enum { CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE,
       CMP_EQU, CMP_NEU, CMP_LTU, CMP_LEU, CMP_GTU, CMP_GEU,
       CMP_NUM, CMP_NAN, CMP_LO, CMP_LS, CMP_HI, CMP_HS };
int f32_cmp(int cmp, u32 a, u32 b, int ftz);
int f64_cmp(int cmp, u64 a, u64 b);
int fx_cmp(int cmp, double a, double b);  /* any float widened to double */
int i_cmp(int cmp, u64 a, u64 b, int is_signed, int bits);

/* f64. */
u64 f64_add(u64 a, u64 b, int rnd);
u64 f64_sub(u64 a, u64 b, int rnd);
u64 f64_mul(u64 a, u64 b, int rnd);
u64 f64_fma(u64 a, u64 b, u64 c, int rnd);
u64 f64_div(u64 a, u64 b, int rnd);
u64 f64_sqrt(u64 a, int rnd);
u64 f64_rcp(u64 a, int rnd);
u64 f64_min(u64 a, u64 b, int nan);
u64 f64_max(u64 a, u64 b, int nan);
u64 f64_approx(int op, u64 a, int ftz);   /* rcp, rsqrt, sqrt only */
u32 f64_mufu_hi(int op, u32 hi);          /* MUFU.RCP64H / RSQ64H: AP_RCP, AP_RSQRT */

/* f16 / bf16 scalars (ff = FF_F16 or FF_BF16); relu clamps negatives to +0
 * (NaN stays NaN). */
u16 h_add(int ff, u16 a, u16 b, int rnd, int ftz, int sat);
u16 h_sub(int ff, u16 a, u16 b, int rnd, int ftz, int sat);
u16 h_mul(int ff, u16 a, u16 b, int rnd, int ftz, int sat);
u16 h_fma(int ff, u16 a, u16 b, u16 c, int rnd, int ftz, int sat, int relu);
u16 h_min(int ff, u16 a, u16 b, int ftz, int nan);
u16 h_max(int ff, u16 a, u16 b, int ftz, int nan);
u16 h_neg(int ff, u16 a, int ftz);
u16 h_abs(int ff, u16 a, int ftz);
u16 h_approx(int op, u16 a, int ff, int ftz);  /* ex2, tanh of f16/bf16; ftz flushes input and result */

/* cvt.  Integer types are given as (bits, is_signed).  irnd: 1 when the
 * rounding modifier is an integer one (.rni .rzi .rmi .rpi). */
u64 cvt_f2f(u64 a, int from, int to, int rnd, int irnd, int ftz, int sat, int relu);
u64 cvt_f2i(u64 a, int from, int bits, int is_signed, int rnd);
u64 cvt_i2f(u64 a, int bits, int is_signed, int to, int rnd, int sat);
u64 cvt_i2i(u64 a, int from_bits, int from_signed, int to_bits, int to_signed, int sat);
u32 cvt_f32_to(u32 a, int to, int rnd, int relu, int sat, int satfinite); /* one value, .satfinite included */
u32 cvt_pack_f32(u32 a, u32 b, int to, int rnd, int relu, int sat, int satfinite); /* cvt.rn.f16x2.f32 d, a, b */
double fma_ieee(double a, double b, double c);   /* fma, with a zero addend's sign rule that musl's lacks */
u64 sext(u64 v, int bits);
u64 zext(u64 v, int bits);

/* Integers (values are the low `bits` bits of a u64, results too). */
u64 i_mulhi(u64 a, u64 b, int bits, int is_signed);
u64 i_mulwide(u64 a, u64 b, int bits, int is_signed); /* 2*bits result */
u64 i_div(u64 a, u64 b, int bits, int is_signed);
u64 i_rem(u64 a, u64 b, int bits, int is_signed);
u64 i_shl(u64 a, u32 n, int bits);
u64 i_shr(u64 a, u32 n, int bits, int is_signed);
u64 i_min(u64 a, u64 b, int bits, int is_signed);
u64 i_max(u64 a, u64 b, int bits, int is_signed);
u64 i_abs(u64 a, int bits);
u64 i_sad(u64 a, u64 b, u64 c, int bits, int is_signed);
u32 i_add_sat_s32(u32 a, u32 b);
u32 i_sub_sat_s32(u32 a, u32 b);
u64 i_bfe(u64 a, u32 pos, u32 len, int bits, int is_signed);
u64 i_bfi(u64 f, u64 b, u32 pos, u32 len, int bits);
u32 i_bfind(u64 a, int bits, int is_signed, int shiftamt);
u64 i_brev(u64 a, int bits);
u32 i_popc(u64 a, int bits);
u32 i_clz(u64 a, int bits);
u32 i_prmt(u32 a, u32 b, u32 c, int mode);  /* mode: PRMT_* */
enum { PRMT_DEFAULT, PRMT_F4E, PRMT_B4E, PRMT_RC8, PRMT_ECL, PRMT_ECR, PRMT_RC16 };
u32 i_fns(u32 mask, u32 base, i32 offset);
u32 i_lop3(u32 a, u32 b, u32 c, u32 lut);
u32 i_dp4a(u32 a, u32 b, u32 c, int a_signed, int b_signed);
u32 i_dp2a(u32 a, u32 b, u32 c, int a_signed, int b_signed, int hi);
u32 i_shf(u32 lo, u32 hi, u32 n, int left, int clamp);
u32 i_bmsk(u32 pos, u32 len, int clamp);
u32 i_szext(u32 a, u32 pos, int clamp, int is_signed);

/* createpolicy.fractional's 64-bit L2 cache policy as ptxas's code builds
 * it: low word 0, high word (0x100 | primary << 5 | secondary_first << 4 |
 * (u32)(fraction * 15.99f) & 0xf) << 20; primary 0 evict_unchanged,
 * 1 evict_first, 2 evict_last, 3 evict_normal.  fraction: f32 bits. */
enum { POLICY_FRACTION_SCALE = 0x417fd70a };   /* 15.99f */
u64 cache_policy_fractional(int primary, int secondary_first, u32 fraction);

#endif
