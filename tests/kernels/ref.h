/* ref.h -- shared helpers for the C references of the kernel suite.
 * Every tests/kernels/NAME/ref.c defines void ref_NAME(Launch *l): it
 * reads the inputs of an initialised Launch and writes the EXPECTED
 * contents of the output buffers, emulating the whole grid on the CPU.
 * All ref.c files are compiled into one translation unit (refs.c), so
 * file-local helpers carry the kernel's name as a prefix. */
#ifndef OA_KERNELS_REF_H
#define OA_KERNELS_REF_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "run/spec.h"

/* Launch shape of the spec. */
#define GX(l) ((l)->spec->grid[0])
#define GY(l) ((l)->spec->grid[1])
#define BX(l) ((l)->spec->block[0])
#define BY(l) ((l)->spec->block[1])
#define SU32(l, n) ((u32)launch_scalar((l), (n)))
#define SI32(l, n) ((i32)launch_scalar((l), (n)))
#define SF32(l, n) ((float)launch_scalar((l), (n)))

static inline float r_h2f(u16 h) { return (float)f16_to_double(h); }
static inline u16 r_f2h(double x) { return f16_from_double(x); }
static inline float r_b2f(u16 h) { return (float)bf16_to_double(h); }
static inline u16 r_f2b(double x) { return bf16_from_double(x); }

/* f32 -> tf32 as cvt.rna.tf32.f32: round to nearest, ties away, keep 10
 * fraction bits (the low 13 bits become zero). */
static inline float
r_tf32(float x)
{
	u32 b;

	memcpy(&b, &x, 4);
	if ((b & 0x7f800000) != 0x7f800000)
		b = (b + 0x1000) & ~0x1fffu;
	memcpy(&x, &b, 4);
	return x;
}

#endif
