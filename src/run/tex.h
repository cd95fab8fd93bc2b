/* tex.h -- the texture and surface model shared by the PTX interpreter
 * and the SASS emulator: how a texture/surface argument of a launch spec
 * (SpecTex) answers a fetch, a sample, a surface load or store.  The
 * rules are CUDA's (CUDA C++ Programming Guide, "Texture Fetching"):
 * docs/FRONTENDS.md, "Textures and surfaces", says what is modelled. */
#ifndef OA_TEX_H
#define OA_TEX_H

#include "run/spec.h"

/* A texture sampled at float coordinates c[0..dims) (texels, or [0,1)
 * when normalized): four result words, f32 bits when the texture reads
 * as float (f32, f16, read mode normalized), else the integer texel
 * (sign- or zero-extended).  Missing channels read 0, alpha 1. */
void tex_sample(const SpecArg *a, const void *data, const float *c, u32 out[4]);
/* The same at integer texel coordinates (tex1Dfetch, tld): outside the
 * texture every word is 0. */
void tex_fetch(const SpecArg *a, const void *data, const i32 *c, u32 out[4]);

/* Surface access modes (suld/sust .trap, .clamp, .zero). */
enum { SURF_TRAP, SURF_CLAMP, SURF_ZERO };
/* Load (store = 0) or store n bytes at byte x, row y, slice z of a
 * surface (x a multiple of n).  Out of range: SURF_ZERO reads zeros and
 * drops stores, SURF_CLAMP moves to the nearest element in range,
 * SURF_TRAP returns -1 (the caller reports it).  A misaligned x is -1. */
int surf_access(const SpecArg *a, void *data, i64 x, i64 y, i64 z, u32 n, int mode, void *val,
		int store);

#endif
