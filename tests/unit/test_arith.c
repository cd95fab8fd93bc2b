/* test_arith.c -- hand-checked vectors for src/ptx/arith*.c: every
 * rounding mode, special values, ftz/sat, cvt, integer corner cases. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"
#include "ptx/arith.h"

#define ONE 0x3f800000u
#define ULP24 0x33800000u  /* 2^-24: half an ulp of 1.0f */

TEST(arith_f32_add_rounding)
{
	CHECK_EQ_U64(f32_add(ONE, ULP24, RND_RN, 0, 0), ONE);          /* tie -> even */
	CHECK_EQ_U64(f32_add(ONE, ULP24, RND_RZ, 0, 0), ONE);
	CHECK_EQ_U64(f32_add(ONE, ULP24, RND_RM, 0, 0), ONE);
	CHECK_EQ_U64(f32_add(ONE, ULP24, RND_RP, 0, 0), 0x3f800001);
	CHECK_EQ_U64(f32_add(ONE | 1u << 31, ULP24 | 1u << 31, RND_RM, 0, 0), 0xbf800001);
	CHECK_EQ_U64(f32_add(ONE | 1u << 31, ULP24 | 1u << 31, RND_RP, 0, 0), 0xbf800000);
	CHECK_EQ_U64(f32_add(0x3f800001, ULP24, RND_RN, 0, 0), 0x3f800002); /* tie, odd -> up */
	/* exact cancellation: +0, except -0 when rounding down */
	CHECK_EQ_U64(f32_sub(ONE, ONE, RND_RN, 0, 0), 0);
	CHECK_EQ_U64(f32_sub(ONE, ONE, RND_RM, 0, 0), 0x80000000);
	/* overflow: RN -> inf, RZ -> max finite */
	CHECK_EQ_U64(f32_add(0x7f7fffff, 0x7f7fffff, RND_RN, 0, 0), 0x7f800000);
	CHECK_EQ_U64(f32_add(0x7f7fffff, 0x7f7fffff, RND_RZ, 0, 0), 0x7f7fffff);
	CHECK_EQ_U64(f32_add(0xff7fffff, 0xff7fffff, RND_RP, 0, 0), 0xff7fffff);
}

TEST(arith_f32_nan_ftz_sat)
{
	CHECK_EQ_U64(f32_add(0x7fc00001, ONE, RND_RN, 0, 0), F32_NAN);
	CHECK_EQ_U64(f32_mul(0x7f800000, 0, RND_RN, 0, 0), F32_NAN);  /* inf*0 */
	CHECK_EQ_U64(f32_sub(0x7f800000, 0x7f800000, RND_RZ, 0, 0), F32_NAN);
	CHECK_EQ_U64(f32_mul(1, ONE, RND_RN, 0, 0), 1);               /* subnormal kept */
	CHECK_EQ_U64(f32_mul(1, ONE, RND_RN, 1, 0), 0);               /* .ftz */
	CHECK_EQ_U64(f32_mul(0x80400000, ONE, RND_RN, 1, 0), 0x80000000);
	CHECK_EQ_U64(f32_mul(0x00800000, 0x3f000000, RND_RN, 1, 0), 0); /* result flushed */
	CHECK_EQ_U64(f32_add(ONE, 0x3f000000, RND_RN, 0, 1), ONE);    /* 1.5 -> 1 */
	CHECK_EQ_U64(f32_add(0xc0000000, 0, RND_RN, 0, 1), 0);        /* -2 -> 0 */
	CHECK_EQ_U64(f32_add(0x7fc00000, 0, RND_RN, 0, 1), 0);        /* NaN -> 0 */
	CHECK_EQ_U64(f32_add(0x3e800000, 0, RND_RN, 0, 1), 0x3e800000);
}

TEST(arith_f32_div_sqrt_fma)
{
	CHECK_EQ_U64(f32_div(ONE, 0x40400000, RND_RN, 0), 0x3eaaaaab);
	CHECK_EQ_U64(f32_div(ONE, 0x40400000, RND_RZ, 0), 0x3eaaaaaa);
	CHECK_EQ_U64(f32_div(ONE, 0x40400000, RND_RM, 0), 0x3eaaaaaa);
	CHECK_EQ_U64(f32_div(ONE, 0x40400000, RND_RP, 0), 0x3eaaaaab);
	CHECK_EQ_U64(f32_div(0xbf800000, 0x40400000, RND_RM, 0), 0xbeaaaaab);
	CHECK_EQ_U64(f32_div(ONE, 0, RND_RN, 0), 0x7f800000);
	CHECK_EQ_U64(f32_div(0, 0, RND_RN, 0), F32_NAN);
	CHECK_EQ_U64(f32_sqrt(0x40000000, RND_RN, 0), 0x3fb504f3);
	CHECK_EQ_U64(f32_sqrt(0x40000000, RND_RP, 0), 0x3fb504f4);
	CHECK_EQ_U64(f32_sqrt(0x40000000, RND_RZ, 0), 0x3fb504f3);
	CHECK_EQ_U64(f32_sqrt(0xbf800000, RND_RN, 0), F32_NAN);
	CHECK_EQ_U64(f32_sqrt(0x80000000, RND_RN, 0), 0x80000000);
	/* fused: (1+2^-23)(1-2^-23) - 1 = -2^-46 exactly (unfused gives 0) */
	CHECK_EQ_U64(f32_fma(0x3f800001, 0x3f7ffffe, 0xbf800000, RND_RN, 0, 0), 0xa8800000);
	CHECK_EQ_U64(f32_mul(0x3f800001, 0x3f7ffffe, RND_RN, 0, 0), ONE);
	CHECK_EQ_U64(f32_rcp(0x40800000, RND_RN, 0), 0x3e800000);
}

TEST(arith_f32_minmax_cmp)
{
	CHECK_EQ_U64(f32_min(0x7fc00000, ONE, 0, 0), ONE);
	CHECK_EQ_U64(f32_max(ONE, 0x7fc00000, 0, 0), ONE);
	CHECK_EQ_U64(f32_min(0x7fc00000, 0x7fc00001, 0, 0), F32_NAN);
	CHECK_EQ_U64(f32_min(0x7fc00000, ONE, 0, 1), F32_NAN);        /* .NaN */
	CHECK_EQ_U64(f32_min(0, 0x80000000, 0, 0), 0x80000000);
	CHECK_EQ_U64(f32_max(0x80000000, 0, 0, 0), 0);
	CHECK_EQ_U64(f32_min(1, 2, 1, 0), 0);                          /* ftz */
	CHECK(f32_cmp(CMP_LT, ONE, 0x40000000, 0));
	CHECK(!f32_cmp(CMP_LT, ONE, F32_NAN, 0));
	CHECK(f32_cmp(CMP_LTU, ONE, F32_NAN, 0));
	CHECK(f32_cmp(CMP_NAN, F32_NAN, ONE, 0));
	CHECK(f32_cmp(CMP_EQ, 0, 0x80000000, 0));
	CHECK(f32_cmp(CMP_EQ, 1, 0, 1));                               /* ftz */
	CHECK(!f32_cmp(CMP_NE, F32_NAN, F32_NAN, 0));
	CHECK(f32_cmp(CMP_NEU, F32_NAN, F32_NAN, 0));
	CHECK(i_cmp(CMP_LT, 0xffffffff, 0, 1, 32));
	CHECK(!i_cmp(CMP_LO, 0xffffffff, 0, 0, 32));
	CHECK(i_cmp(CMP_HS, 0xffffffff, 0, 0, 32));
}

TEST(arith_f64)
{
	u64 one = 0x3ff0000000000000ull, half_ulp = 0x3ca0000000000000ull;

	CHECK_EQ_U64(f64_add(one, half_ulp, RND_RN), one);
	CHECK_EQ_U64(f64_add(one, half_ulp, RND_RP), one + 1);
	CHECK_EQ_U64(f64_div(one, 0x4008000000000000ull, RND_RN), 0x3fd5555555555555ull);
	CHECK_EQ_U64(f64_div(one, 0x4008000000000000ull, RND_RP), 0x3fd5555555555556ull);
	CHECK_EQ_U64(f64_div(one, 0x4008000000000000ull, RND_RZ), 0x3fd5555555555555ull);
	CHECK_EQ_U64(f64_sub(one, one, RND_RM), 1ull << 63);
	CHECK_EQ_U64(f64_mul(0x7ff0000000000000ull, 0, RND_RN), F64_NAN);
	CHECK_EQ_U64(f64_fma(one + 1, one - 1 + 0x10000000000000ull - 0x10000000000000ull, 0xbff0000000000000ull, RND_RN),
		     f64_fma(one + 1, one - 1, 0xbff0000000000000ull, RND_RN));
	/* a*b + 0 where the product rounds to zero: the product's sign (musl's fma gave +0) */
	CHECK_EQ_U64(f64_fma(0x10000080000000ull, 0xb81000001fffffffull, 0, RND_RN), 1ull << 63);
	CHECK_EQ_U64(f64_fma(0x10000080000000ull, 0xb81000001fffffffull, 0, RND_RZ), 1ull << 63);
	CHECK_EQ_U64(f64_fma(0x10000080000000ull, 0x381000001fffffffull, 1ull << 63, RND_RN), 0);
	CHECK_EQ_U64(f64_fma(0x10000080000000ull, 0xb81000001fffffffull, 0, RND_RM), 0x8000000000000001ull);
	CHECK_EQ_U64(f64_fma(1ull << 63, one, 0, RND_RN), 0);
	CHECK_EQ_U64(f64_sqrt(0x4010000000000000ull, RND_RN), 0x4000000000000000ull);
	CHECK_EQ_U64(f64_min(0, 1ull << 63, 0), 1ull << 63);
	CHECK_EQ_U64(f64_max(F64_NAN, one, 0), one);
}

TEST(arith_f16_bf16)
{
	CHECK_EQ_U64(h_add(FF_F16, 0x3c00, 0x1000, RND_RN, 0, 0), 0x3c00); /* 1 + 2^-11: tie */
	CHECK_EQ_U64(h_add(FF_F16, 0x3c00, 0x1000, RND_RP, 0, 0), 0x3c01);
	CHECK_EQ_U64(h_add(FF_F16, 0x3c01, 0x1000, RND_RN, 0, 0), 0x3c02);
	CHECK_EQ_U64(h_mul(FF_F16, 0x7bff, 0x4000, RND_RN, 0, 0), 0x7c00); /* overflow */
	CHECK_EQ_U64(h_mul(FF_F16, 0x7bff, 0x4000, RND_RZ, 0, 0), 0x7bff);
	CHECK_EQ_U64(h_mul(FF_F16, 0x0001, 0x3800, RND_RN, 0, 0), 0);      /* 2^-25: tie -> 0 */
	CHECK_EQ_U64(h_mul(FF_F16, 0x0001, 0x3800, RND_RP, 0, 0), 1);
	CHECK_EQ_U64(h_mul(FF_F16, 0x0001, 0x3c00, RND_RN, 1, 0), 0);      /* ftz */
	CHECK_EQ_U64(h_fma(FF_F16, 0x3c01, 0x3bff, 0xbc00, RND_RN, 0, 0, 0), 0x0ffe);
	CHECK_EQ_U64(h_fma(FF_F16, 0x3c00, 0xc000, 0, RND_RN, 0, 0, 1), 0); /* relu */
	CHECK_EQ_U64(h_add(FF_F16, 0x7e00, 0x3c00, RND_RN, 0, 0), F16_NAN);
	CHECK_EQ_U64(h_add(FF_F16, 0x3c00, 0x3c00, RND_RN, 0, 1), 0x3c00); /* sat */
	CHECK_EQ_U64(h_add(FF_BF16, 0x3f80, 0x3b80, RND_RN, 0, 0), 0x3f80); /* 1 + 2^-8 */
	CHECK_EQ_U64(h_add(FF_BF16, 0x3f80, 0x3b80, RND_RP, 0, 0), 0x3f81);
	CHECK_EQ_U64(h_min(FF_F16, 0x7e00, 0x3c00, 0, 0), 0x3c00);
	CHECK_EQ_U64(h_max(FF_BF16, 0x8000, 0x0000, 0, 0), 0x0000);
}

TEST(arith_cvt_float)
{
	/* f32 -> f16: 65520 is the tie between 65504 (odd) and inf */
	CHECK_EQ_U64(cvt_f2f(0x477ff000, FF_F32, FF_F16, RND_RN, 0, 0, 0, 0), 0x7c00);
	CHECK_EQ_U64(cvt_f2f(0x477ff000, FF_F32, FF_F16, RND_RZ, 0, 0, 0, 0), 0x7bff);
	CHECK_EQ_U64(cvt_f2f(0x7fc12345, FF_F32, FF_F16, RND_RN, 0, 0, 0, 0), 0x7fff);
	CHECK_EQ_U64(cvt_f2f(0x3f808000, FF_F32, FF_BF16, RND_RN, 0, 0, 0, 0), 0x3f80);
	CHECK_EQ_U64(cvt_f2f(0x3f818000, FF_F32, FF_BF16, RND_RN, 0, 0, 0, 0), 0x3f82);
	CHECK_EQ_U64(cvt_f2f(0x3f801000, FF_F32, FF_TF32, RND_RNA, 0, 0, 0, 0), 0x3f802000);
	CHECK_EQ_U64(cvt_f2f(0x3c00, FF_F16, FF_F32, RND_RN, 0, 0, 0, 0), ONE);
	CHECK_EQ_U64(cvt_f2f(0x0001, FF_F16, FF_F32, RND_RN, 0, 0, 0, 0), 0x33800000);
	/* f64 -> f32 with each mode: 1/3 */
	CHECK_EQ_U64(cvt_f2f(0x3fd5555555555555ull, FF_F64, FF_F32, RND_RN, 0, 0, 0, 0), 0x3eaaaaab);
	CHECK_EQ_U64(cvt_f2f(0x3fd5555555555555ull, FF_F64, FF_F32, RND_RZ, 0, 0, 0, 0), 0x3eaaaaaa);
	CHECK_EQ_U64(cvt_f2f(0x3fd5555555555555ull, FF_F64, FF_F32, RND_RP, 0, 0, 0, 0), 0x3eaaaaab);
	/* integer rounding within f32 */
	CHECK_EQ_U64(cvt_f2f(0x40200000, FF_F32, FF_F32, RND_RN, 1, 0, 0, 0), 0x40000000);  /* 2.5 -> 2 */
	CHECK_EQ_U64(cvt_f2f(0x40600000, FF_F32, FF_F32, RND_RN, 1, 0, 0, 0), 0x40800000);  /* 3.5 -> 4 */
	CHECK_EQ_U64(cvt_f2f(0xc0200000, FF_F32, FF_F32, RND_RM, 1, 0, 0, 0), 0xc0400000);  /* -2.5 -> -3 */
	CHECK_EQ_U64(cvt_f2f(0xbf000000, FF_F32, FF_F32, RND_RP, 1, 0, 0, 0), 0x80000000);  /* -0.5 -> -0 */
	CHECK_EQ_U64(cvt_f2f(0x40000000, FF_F32, FF_F32, RND_RN, 0, 0, 1, 0), ONE);         /* .sat */
	/* cvt.sat.f32.f32 of -0: ptxas 13.0 emits FADD.SAT Rd, RZ, Rx (+0 + -0 = +0) */
	CHECK_EQ_U64(cvt_f2f(0x80000000, FF_F32, FF_F32, RND_RN, 0, 0, 1, 0), 0);
	CHECK_EQ_U64(cvt_f2f(1, FF_F32, FF_F32, RND_RN, 0, 1, 0, 0), 0);                    /* .ftz */
	CHECK_EQ_U64(cvt_pack_f32(ONE, 0x40000000, FF_F16, RND_RN, 0, 0, 0), 0x3c004000);
	/* .satfinite: +-inf and overflowing values to +-MAX_NORM, NaN stays NaN */
	CHECK_EQ_U64(cvt_pack_f32(0x7f800000, 0xd01502f9, FF_F16, RND_RN, 0, 0, 0), 0x7c00fc00);
	CHECK_EQ_U64(cvt_pack_f32(0x7f800000, 0xd01502f9, FF_F16, RND_RN, 0, 0, 1), 0x7bfffbff);
	CHECK_EQ_U64(cvt_pack_f32(0x477fe000, 0x477fefff, FF_F16, RND_RN, 0, 0, 1), 0x7bff7bff);
	CHECK_EQ_U64(cvt_pack_f32(0xff800000, 0x7f7fffff, FF_BF16, RND_RN, 0, 0, 1), 0xff7f7f7f);
	CHECK_EQ_U64(cvt_pack_f32(0xff800000, 0x7f7fffff, FF_BF16, RND_RZ, 0, 0, 0), 0xff807f7f);
	CHECK(cvt_pack_f32(0x7fc00000, ONE, FF_F16, RND_RN, 0, 0, 1) >> 16 != 0x7bff);
	CHECK_EQ_U64(cvt_pack_f32(0x47000000, 0xc3e00000, FF_E4M3, RND_RN, 0, 0, 0), 0x7efe); /* 32768->448, -448 */
	CHECK_EQ_U64(cvt_f2f(0x7e, FF_E4M3, FF_F32, RND_RN, 0, 0, 0, 0), 0x43e00000);
	/* tf32: MAX_NORM 0x7f7fe000; .rna rounds 0x7f7ff000 up to inf, .satfinite keeps it */
	CHECK_EQ_U64(cvt_f32_to(0xff800000, FF_TF32, RND_RNA, 0, 0, 1), 0xff7fe000);
	CHECK_EQ_U64(cvt_f32_to(0x7f7ff000, FF_TF32, RND_RNA, 0, 0, 1), 0x7f7fe000);
	CHECK_EQ_U64(cvt_f32_to(0x7f7ff000, FF_TF32, RND_RNA, 0, 0, 0), 0x7f800000);
	CHECK_EQ_U64(cvt_f32_to(0x3f801000, FF_TF32, RND_RNA, 0, 0, 1), 0x3f802000);
}

TEST(arith_cvt_int)
{
	CHECK_EQ_U64(cvt_f2i(0x40200000, FF_F32, 32, 1, RND_RN), 2);
	CHECK_EQ_U64(cvt_f2i(0x40600000, FF_F32, 32, 1, RND_RN), 4);
	CHECK_EQ_U64(cvt_f2i(0xc0200000, FF_F32, 32, 1, RND_RN), 0xfffffffe);
	CHECK_EQ_U64(cvt_f2i(0xc0200000, FF_F32, 32, 1, RND_RM), 0xfffffffd);
	CHECK_EQ_U64(cvt_f2i(0xc0200000, FF_F32, 32, 1, RND_RP), 0xfffffffe);
	CHECK_EQ_U64(cvt_f2i(0xc02ccccd, FF_F32, 32, 1, RND_RZ), 0xfffffffe);
	CHECK_EQ_U64(cvt_f2i(F32_NAN, FF_F32, 32, 1, RND_RZ), 0);
	CHECK_EQ_U64(cvt_f2i(0x4f32d05e, FF_F32, 32, 1, RND_RZ), 0x7fffffff);  /* 3e9 */
	CHECK_EQ_U64(cvt_f2i(0xcf32d05e, FF_F32, 32, 1, RND_RZ), 0x80000000);
	CHECK_EQ_U64(cvt_f2i(0xbf800000, FF_F32, 32, 0, RND_RZ), 0);
	CHECK_EQ_U64(cvt_f2i(0x7f800000, FF_F32, 64, 0, RND_RZ), ~0ull);
	CHECK_EQ_U64(cvt_i2f(0xffffffff, 32, 0, FF_F32, RND_RN, 0), 0x4f800000);
	CHECK_EQ_U64(cvt_i2f(0xffffffff, 32, 0, FF_F32, RND_RZ, 0), 0x4f7fffff);
	CHECK_EQ_U64(cvt_i2f(0xffffffff, 32, 1, FF_F32, RND_RN, 0), 0xbf800000);
	CHECK_EQ_U64(cvt_i2f(65519, 32, 1, FF_F16, RND_RN, 0), 0x7bff);
	CHECK_EQ_U64(cvt_i2f(65520, 32, 1, FF_F16, RND_RN, 0), 0x7c00);
	CHECK_EQ_U64(cvt_i2f((1ull << 53) + 1, 64, 0, FF_F64, RND_RN, 0), 0x4340000000000000ull);
	CHECK_EQ_U64(cvt_i2f((1ull << 53) + 1, 64, 0, FF_F64, RND_RP, 0), 0x4340000000000001ull);
	CHECK_EQ_U64(cvt_i2f(~0ull, 64, 0, FF_F16, RND_RZ, 0), 0x7bff);
	CHECK_EQ_U64(cvt_i2i(0xfffffffb, 32, 1, 8, 0, 1), 0);
	CHECK_EQ_U64(cvt_i2i(300, 32, 1, 8, 0, 1), 255);
	CHECK_EQ_U64(cvt_i2i(300, 32, 1, 8, 1, 1), 127);
	CHECK_EQ_U64(cvt_i2i(0xfffffed4, 32, 1, 8, 1, 1), 0x80);
	CHECK_EQ_U64(cvt_i2i(300, 32, 1, 8, 0, 0), 44);
	CHECK_EQ_U64(cvt_i2i(0x80, 8, 1, 32, 1, 0), 0xffffff80);
	CHECK_EQ_U64(cvt_i2i(0xffffffff, 32, 0, 32, 1, 1), 0x7fffffff);
}

TEST(arith_int_basic)
{
	CHECK_EQ_U64(i_div(7, 0, 32, 0), 0xffffffff);
	CHECK_EQ_U64(i_rem(7, 0, 32, 0), 0xffffffff);        /* as ptxas's sequence */
	CHECK_EQ_U64(i_rem(7, 0, 64, 1), ~0ull);
	CHECK_EQ_U64(i_div(7, 0, 16, 0), 0xffff);
	CHECK_EQ_U64(i_div(0x80000000, 0xffffffff, 32, 1), 0x80000000);
	CHECK_EQ_U64(i_rem(0x80000000, 0xffffffff, 32, 1), 0);
	CHECK_EQ_U64(i_div(0xfffffff9, 2, 32, 1), 0xfffffffd);   /* -7/2 = -3 */
	CHECK_EQ_U64(i_rem(0xfffffff9, 2, 32, 1), 0xffffffff);   /* -7%2 = -1 */
	CHECK_EQ_U64(i_shl(1, 32, 32), 0);
	CHECK_EQ_U64(i_shl(1, 31, 32), 0x80000000);
	CHECK_EQ_U64(i_shr(0x80000000, 40, 32, 1), 0xffffffff);
	CHECK_EQ_U64(i_shr(0x80000000, 40, 32, 0), 0);
	CHECK_EQ_U64(i_shr(0x8000, 4, 16, 1), 0xf800);
	CHECK_EQ_U64(i_mulhi(0xffffffff, 0xffffffff, 32, 0), 0xfffffffe);
	CHECK_EQ_U64(i_mulhi(0xffffffff, 0xffffffff, 32, 1), 0);
	CHECK_EQ_U64(i_mulhi(1ull << 63, 4, 64, 0), 2);
	CHECK_EQ_U64(i_mulhi(~0ull, 2, 64, 1), ~0ull);
	CHECK_EQ_U64(i_mulwide(0xffffffff, 2, 32, 1), 0xfffffffffffffffeull);
	CHECK_EQ_U64(i_mulwide(0xffff, 0xffff, 16, 0), 0xfffe0001);
	CHECK_EQ_U64(i_add_sat_s32(0x7fffffff, 1), 0x7fffffff);
	CHECK_EQ_U64(i_sub_sat_s32(0x80000000, 1), 0x80000000);
	CHECK_EQ_U64(i_min(0xffffffff, 1, 32, 1), 0xffffffff);
	CHECK_EQ_U64(i_min(0xffffffff, 1, 32, 0), 1);
	CHECK_EQ_U64(i_abs(0x80000000, 32), 0x80000000);
	CHECK_EQ_U64(i_sad(3, 10, 100, 32, 0), 107);
	CHECK_EQ_U64(i_sad(0xffffffff, 1, 0, 32, 1), 2);
}

TEST(arith_int_bits)
{
	CHECK_EQ_U64(i_bfe(0xf0, 4, 4, 32, 1), 0xffffffff);
	CHECK_EQ_U64(i_bfe(0xf0, 4, 4, 32, 0), 0xf);
	CHECK_EQ_U64(i_bfe(0x80000000, 40, 4, 32, 1), 0xffffffff);
	CHECK_EQ_U64(i_bfe(0x80000000, 40, 4, 32, 0), 0);
	CHECK_EQ_U64(i_bfe(0x12345678, 8, 0, 32, 1), 0);
	CHECK_EQ_U64(i_bfe(0x12345678, 0x108, 8, 32, 0), 0x56);  /* pos uses 8 bits */
	CHECK_EQ_U64(i_bfi(0xf, 0, 4, 4, 32), 0xf0);
	CHECK_EQ_U64(i_bfi(0xff, 0, 28, 8, 32), 0xf0000000);
	CHECK_EQ_U64(i_bfind(0x10000, 32, 0, 0), 16);
	CHECK_EQ_U64(i_bfind(0x10000, 32, 0, 1), 15);
	CHECK_EQ_U64(i_bfind(0, 32, 0, 0), 0xffffffff);
	CHECK_EQ_U64(i_bfind(0xffffffff, 32, 1, 0), 0xffffffff);
	CHECK_EQ_U64(i_bfind(0xfffffffe, 32, 1, 0), 0);
	CHECK_EQ_U64(i_brev(1, 32), 0x80000000);
	CHECK_EQ_U64(i_brev(1, 64), 1ull << 63);
	CHECK_EQ_U64(i_popc(0xff00ff00, 32), 16);
	CHECK_EQ_U64(i_clz(1, 32), 31);
	CHECK_EQ_U64(i_clz(0, 32), 32);
	CHECK_EQ_U64(i_clz(1, 64), 63);
	CHECK_EQ_U64(i_prmt(0x33221100, 0x77665544, 0x5410, PRMT_DEFAULT), 0x55441100);
	CHECK_EQ_U64(i_prmt(0x00000080, 0, 0x8888, PRMT_DEFAULT), 0xffffffff);
	CHECK_EQ_U64(i_prmt(0x33221100, 0x77665544, 1, PRMT_F4E), 0x44332211);
	CHECK_EQ_U64(i_prmt(0x33221100, 0x77665544, 0, PRMT_B4E), 0x55667700);
	CHECK_EQ_U64(i_prmt(0x33221100, 0x77665544, 2, PRMT_RC8), 0x22222222);
	CHECK_EQ_U64(i_prmt(0x33221100, 0x77665544, 1, PRMT_ECL), 0x33221111);
	CHECK_EQ_U64(i_prmt(0x33221100, 0x77665544, 1, PRMT_ECR), 0x11111100);
	CHECK_EQ_U64(i_prmt(0x33221100, 0x77665544, 1, PRMT_RC16), 0x33223322);
	CHECK_EQ_U64(i_lop3(0xf0, 0xcc, 0xaa, 0x96), 0x96);
	CHECK_EQ_U64(i_lop3(0x12345678, 0, 0, 0xf0), 0x12345678);
	CHECK_EQ_U64(i_lop3(0xf0, 0xcc, 0xaa, 0xe8), 0xe8);
	CHECK_EQ_U64(i_dp4a(0x01020304, 0x01010101, 10, 0, 0), 20);
	CHECK_EQ_U64(i_dp4a(0xff, 0x02, 0, 1, 1), 0xfffffffe);
	CHECK_EQ_U64(i_dp4a(0xff, 0x02, 0, 0, 1), 510);
	CHECK_EQ_U64(i_dp2a(0x00020003, 0x05040302, 1, 0, 0, 0), 1 + 3 * 2 + 2 * 3);
	CHECK_EQ_U64(i_dp2a(0x00020003, 0x05040302, 1, 0, 0, 1), 1 + 3 * 4 + 2 * 5);
	CHECK_EQ_U64(i_shf(0, 1, 4, 1, 0), 16);
	CHECK_EQ_U64(i_shf(0x10, 1, 4, 0, 0), 0x10000001);
	CHECK_EQ_U64(i_shf(5, 1, 40, 1, 1), 5);
	CHECK_EQ_U64(i_shf(0, 1, 36, 1, 0), 16);
	CHECK_EQ_U64(i_shf(0x10, 1, 40, 0, 1), 1);
	CHECK_EQ_U64(i_fns(0xf0, 0, 1), 4);
	CHECK_EQ_U64(i_fns(0xf0, 0, 3), 6);
	CHECK_EQ_U64(i_fns(0xf0, 7, -2), 6);
	CHECK_EQ_U64(i_fns(0xf0, 0, 5), 0xffffffff);
	CHECK_EQ_U64(i_bmsk(4, 8, 1), 0xff0);
	CHECK_EQ_U64(i_bmsk(28, 8, 1), 0xf0000000);
	CHECK_EQ_U64(i_szext(0xff, 8, 1, 1), 0xffffffff);
	CHECK_EQ_U64(i_szext(0x1ff, 8, 1, 0), 0xff);
}

/* The approximate functions: PTX special values, and the model's value
 * (the exact function rounded to nearest) on a few points. */
TEST(arith_approx)
{
	CHECK_EQ_U64(f32_approx(AP_EX2, 0, 0), ONE);
	CHECK_EQ_U64(f32_approx(AP_EX2, 0xff800000, 0), 0);
	CHECK_EQ_U64(f32_approx(AP_EX2, 0x7f800000, 0), 0x7f800000);
	CHECK_EQ_U64(f32_approx(AP_EX2, 0x3fc00000, 0), 0x403504f3);  /* 2^1.5 */
	CHECK_EQ_U64(f32_approx(AP_LG2, 0, 0), 0xff800000);
	CHECK_EQ_U64(f32_approx(AP_LG2, 0xbf800000, 0), F32_NAN);
	CHECK_EQ_U64(f32_approx(AP_LG2, 0x41000000, 0), 0x40400000);  /* lg2 8 = 3 */
	CHECK_EQ_U64(f32_approx(AP_RSQRT, 0, 0), 0x7f800000);
	CHECK_EQ_U64(f32_approx(AP_RSQRT, 0x80000000, 0), 0xff800000);
	CHECK_EQ_U64(f32_approx(AP_RSQRT, 0x40800000, 0), 0x3f000000);
	CHECK_EQ_U64(f32_approx(AP_RCP, 0x80000000, 0), 0xff800000);
	CHECK_EQ_U64(f32_approx(AP_RCP, 0x7f800000, 0), 0);
	CHECK_EQ_U64(f32_approx(AP_RCP, 1, 1), 0x7f800000);           /* ftz input */
	CHECK_EQ_U64(f32_approx(AP_SIN, 0x7f800000, 0), F32_NAN);
	CHECK_EQ_U64(f32_approx(AP_COS, 0, 0), ONE);
	CHECK_EQ_U64(f32_approx(AP_TANH, 0x7f800000, 0), ONE);
	CHECK_EQ_U64(f32_approx(AP_SQRT, 0x40800000, 0), 0x40000000);
	CHECK_EQ_U64(f64_approx(AP_RSQRT, 0x4010000000000000ull, 0), 0x3fe0000000000000ull);
	/* .ftz.f64: MUFU.RCP64H / RSQ64H of the high word, low word 0 (1/3, 1/sqrt(2)) */
	CHECK_EQ_U64(f64_approx(AP_RCP, 0x4008000000000001ull, 1), 0x3fd5555500000000ull);
	CHECK_EQ_U64(f64_approx(AP_RSQRT, 0x4000000000000000ull, 1), 0x3fe6a09e00000000ull);
	CHECK_EQ_U64(f64_approx(AP_RSQRT, 0xbff0000000000000ull, 1), 0x7fffffff00000000ull);
	/* the MUFU instructions themselves flush subnormal high words and
	   results (the emulator uses f64_mufu_hi without f64_approx's ftz):
	   1/2^1023 is subnormal, 1/sqrt of a subnormal high word is +inf */
	CHECK_EQ_U64(f64_mufu_hi(AP_RCP, 0x7fe00000), 0);
	CHECK_EQ_U64(f64_mufu_hi(AP_RCP, 0xffefffff), 0x80000000);
	CHECK_EQ_U64(f64_mufu_hi(AP_RSQRT, 0x00040000), 0x7ff00000);
	CHECK_EQ_U64(f64_mufu_hi(AP_RCP, 0x80040000), 0xfff00000);
	CHECK_EQ_U64(f64_mufu_hi(AP_RCP, 0x7fcfffff), 0x00100000);     /* just normal: kept */
	CHECK_EQ_U64(h_approx(AP_EX2, 0x3c00, FF_F16, 0), 0x4000);
	CHECK_EQ_U64(h_approx(AP_EX2, 0xc2fe, FF_BF16, 0), 0x0040);      /* 2^-127: subnormal */
	CHECK_EQ_U64(h_approx(AP_EX2, 0xc2fe, FF_BF16, 1), 0);           /* .ftz */
	/* .approx as compiled: div a * MUFU.RCP(b), twice rounded (3/7: one
	   ulp above div.rn); a tiny b scales both operands by 2^24; an .ftz
	   quotient flushes; div.full scales a huge b by 1/4 */
	CHECK_EQ_U64(f32_div_approx(0x40400000, 0x40e00000, 0, 0), 0x3edb6db8);
	CHECK_EQ_U64(f32_div(0x40400000, 0x40e00000, RND_RN, 0), 0x3edb6db7);
	CHECK_EQ_U64(f32_div_approx(ONE, 0x00400000, 0, 0), 0x7f000000);      /* 1 / 2^-127 */
	CHECK_EQ_U64(f32_div_approx(ONE, 0x00400000, 1, 0), 0x7f800000);      /* ftz: 1 / 0 */
	CHECK_EQ_U64(f32_div_approx(0x7f000000, 0x7f000000, 0, 0), 0);         /* 1/b underflows */
	CHECK_EQ_U64(f32_div_approx(0x7f000000, 0x7f000000, 0, 1), ONE);       /* div.full */
	CHECK_EQ_U64(f32_div_approx(0x7f000000, 0x7f000000, 1, 1), ONE);       /* div.full.ftz too */
	CHECK_EQ_U64(f32_div_approx(0x7f000000, 0x7f000000, 1, 0), 0);         /* not div.approx.ftz */
	CHECK_EQ_U64(f32_div_approx(0x00800000, 0x7f000000, 1, 1), 0);         /* a/4 flushes */
	CHECK_EQ_U64(f32_approx(AP_EX2, 0xc3000000, 0), 0x00000000 | (1u << 21)); /* 2^-128 via 2^-64 squared */
	CHECK_EQ_U64(f32_approx(AP_EX2, 0xc3000000, 1), 0);
	CHECK_EQ_U64(f32_approx(AP_LG2, 1, 0), 0xc3150000);                   /* lg2 2^-149 = -149 */
	{       /* sin: MUFU of x/(2 pi) rounded toward zero, within PTX's 2^-20.5 on [-pi, pi] */
		int i, bad = 0;
		for (i = -2000; i <= 2000; i++) {
			float x = i / 637.0f;
			float got = f32_of(f32_approx(AP_SIN, bits_f32(x), 0));
			if (fabs(got - sin((double)x)) > 0x1.6a09e6p-21)
				bad++;
		}
		CHECK(bad == 0);
	}
}

/* Two independent paths must agree: f32 ops on the host FPU with
 * fesetround (f32_*) and the same op computed in double rounded to odd,
 * then rounded by round_to() (the path f16/bf16 use).  Random operands
 * with exponents spread so that cancellation, ties, overflow and
 * subnormal results all occur.  OA_LONG=1 runs 100x more. */
/* TwoSum: is x + y exact in double? */
static int
exact_sum(double x, double y)
{
	double s = x + y, bp = s - x, ap = s - bp;

	return isfinite(s) && (x - ap) + (y - bp) == 0;
}

static u32
rnd_f32(u64 *s)
{
	u64 z = (*s += 0x9e3779b97f4a7c15ull);
	u32 m, e;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	m = (u32)z & 0x807fffff;
	e = (u32)(z >> 32) % 40;
	e = e < 10 ? e : e < 30 ? 107 + e : 220 + e;   /* tiny, near 1, huge */
	if ((z >> 40) % 16 == 0)
		m &= 0x807f0000;                        /* short mantissas: exact cases */
	return m | e << 23;
}

TEST(arith_f32_cross_check)
{
	u64 s = 12345, i, n = getenv("OA_LONG") ? 2000000 : 20000;
	int r, bad = 0;

	for (i = 0; i < n && bad < 5; i++) {
		u32 a = rnd_f32(&s), b = rnd_f32(&s), c = rnd_f32(&s);
		double x = f32_of(a), y = f32_of(b);
		for (r = RND_RN; r <= RND_RP; r++) {
			u32 got, want;
			got = f32_mul(a, b, r, 0, 0);                /* x*y is exact in double */
			want = (u32)round_to(x * y, FF_F32, r, 0);
			if (got != want && !(f32_isnan(got) && f32_isnan(want)))
				bad++, FAIL("mul %08x %08x mode %d: %08x != %08x", a, b, r, got, want);
			got = f32_fma(a, b, c, r, 0, 0);
			want = (u32)cvt_f2f(bits_f64(fma(x, y, f32_of(c))), FF_F64, FF_F32, r, 0, 0, 0, 0);
			if (exact_sum(x * y, f32_of(c)) && fma(x, y, f32_of(c)) != 0 &&
			    got != want && !(f32_isnan(got) && f32_isnan(want)))
				bad++, FAIL("fma %08x %08x %08x mode %d: %08x != %08x", a, b, c, r, got, want);
			got = f32_add(a, b, r, 0, 0);
			if (exact_sum(x, y) && x + y != 0) {
				want = (u32)round_to(x + y, FF_F32, r, 0);
				if (got != want && !(f32_isnan(got) && f32_isnan(want)))
					bad++, FAIL("add %08x %08x mode %d: %08x != %08x", a, b, r, got, want);
			}
		}
	}
	CHECK(bad == 0);
}

/* f16/bf16 round-to-nearest against independent paths: the compiler's
 * _Float16 (computed in float, exact for + and * since 24 >= 2*11+2) and
 * bf16 by the usual bit trick on a float sum/product (24 >= 2*8+2). */
static u16
bf16_rn(float f)
{
	u32 b = bits_f32(f);

	if (f32_isnan(b))
		return 0x7fff;
	return (u16)((b + 0x7fff + ((b >> 16) & 1)) >> 16);
}

TEST(arith_half_cross_check)
{
	u64 s = 99, i, n = getenv("OA_LONG") ? 2000000 : 20000;
	int bad = 0;

	for (i = 0; i < n && bad < 5; i++) {
		u32 r = rnd_f32(&s), q = rnd_f32(&s);
		u16 a = (u16)(r >> 9), b = (u16)(q >> 9), got, want;
		float x, y;
		/* bf16 */
		x = f32_of((u32)a << 16);
		y = f32_of((u32)b << 16);
		got = h_add(FF_BF16, a, b, RND_RN, 0, 0);
		want = bf16_rn(x + y);
		if (got != want && !(f32_isnan((u32)got << 16) && f32_isnan((u32)want << 16)))
			bad++, FAIL("bf16 add %04x %04x: %04x != %04x", a, b, got, want);
		got = h_mul(FF_BF16, a, b, RND_RN, 0, 0);
		want = bf16_rn(x * y);
		if (got != want && !(f32_isnan((u32)got << 16) && f32_isnan((u32)want << 16)))
			bad++, FAIL("bf16 mul %04x %04x: %04x != %04x", a, b, got, want);
#ifdef __FLT16_MANT_DIG__
		{
			_Float16 ha, hb, hs, hp;
			u16 ws, wp;
			memcpy(&ha, &a, 2);
			memcpy(&hb, &b, 2);
			hs = (_Float16)((float)ha + (float)hb);
			hp = (_Float16)((float)ha * (float)hb);
			memcpy(&ws, &hs, 2);
			memcpy(&wp, &hp, 2);
			got = h_add(FF_F16, a, b, RND_RN, 0, 0);
			if (got != ws && !(widen(got, FF_F16) != widen(got, FF_F16) && (float)hs != (float)hs))
				bad++, FAIL("f16 add %04x %04x: %04x != %04x", a, b, got, ws);
			got = h_mul(FF_F16, a, b, RND_RN, 0, 0);
			if (got != wp && !(widen(got, FF_F16) != widen(got, FF_F16) && (float)hp != (float)hp))
				bad++, FAIL("f16 mul %04x %04x: %04x != %04x", a, b, got, wp);
			got = (u16)cvt_f2f(r, FF_F32, FF_F16, RND_RN, 0, 0, 0, 0);
			hs = (_Float16)f32_of(r);
			memcpy(&ws, &hs, 2);
			if (got != ws && !f32_isnan(r))
				bad++, FAIL("cvt f32 %08x -> f16: %04x != %04x", r, got, ws);
		}
#endif
	}
	CHECK(bad == 0);
}
