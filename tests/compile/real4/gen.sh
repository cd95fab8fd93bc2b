#!/bin/sh
# gen.sh -- regenerate the PTX and launch specs of tests/compile/real4 with nvcc 13.0
# (make check does not need nvcc).  gen.sh --cases prints the lines of
# tests/compile/cases.txt for them instead.
#   FILE.sm_XX.ptx            nvcc --ptx -O3 -arch=sm_XX FILE.cu
#   rand4.sm_80.ptx           sm_80 only (curand_kernel.h brings 1 MB of XORWOW/MRG tables;
#                             real2/rand.sm_90.ptx covers sm_90)
#   FILE.G.sm_XX.ptx          -G (debug)
#   FILE.lineinfo.sm_90.ptx   -O3 -lineinfo
#   FILE.fastmath.sm_XX.ptx   -O3 -use_fast_math
# (pipe4.cu -G and more4.cu -G compile since session 8 (isspacep) and verify at opt, except
# more4's coalesced (docs/session8-left8.md); their 0.8 MB modules take about 3 minutes
# per spec at safe: not kept)
# The specs come from the //@ lines (../real2/gen-specs.py).
cd "$(dirname "$0")" || exit 1
. ../gen-ptx.sh
for f in lowp llm4 sync4 dyn4 more4 zoo4 pipe4; do
	for a in sm_90 sm_80; do ptx $f.$a.ptx $a -O3 $f.cu; done
done
ptx rand4.sm_80.ptx sm_80 -O3 rand4.cu
for a in sm_90 sm_80; do ptx dyn4.G.$a.ptx $a -G dyn4.cu; done
ptx llm4.G.sm_90.ptx sm_90 -G llm4.cu
for a in sm_90 sm_80; do ptx sync4.G.$a.ptx $a -G sync4.cu; done
for f in llm4 dyn4; do ptx $f.lineinfo.sm_90.ptx sm_90 -O3 -lineinfo $f.cu; done
ptx llm4.fastmath.sm_90.ptx sm_90 -O3 -use_fast_math llm4.cu
ptx lowp.fastmath.sm_80.ptx sm_80 -O3 -use_fast_math lowp.cu
ptx more4.fastmath.sm_90.ptx sm_90 -O3 -use_fast_math more4.cu
[ -n "$cases" ] || python3 ../real2/gen-specs.py *.cu > /dev/null
