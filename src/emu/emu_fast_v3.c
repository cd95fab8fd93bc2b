/* emu_fast_v3.c -- the fast handlers again, compiled for x86-64-v3 hosts
 * (AVX2, FMA, BMI1/2, LZCNT, MOVBE, F16C): with EMU_FAST_V3 defined, every
 * FX(fx_name) of the two files below is fx_name_v3 (emu_fast.h).
 * emu_fast_prep.c chooses them when the host has those units. */
#define EMU_FAST_V3 1
#include "emu/emu_fast.h"

#ifdef EMU_HAVE_V3
#pragma GCC target("avx,avx2,fma,bmi,bmi2,lzcnt,movbe,f16c")
#include "emu_fast.c"
#include "emu_fast_mem.c"
#else
typedef int emu_fast_v3_empty;	/* ISO C: no empty translation unit */
#endif
