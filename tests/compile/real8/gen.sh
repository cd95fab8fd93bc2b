#!/bin/sh
# gen.sh -- regenerate the PTX and launch specs of tests/compile/real8 with nvcc 13.0
# (make check does not need nvcc).  gen.sh --cases prints the lines of
# tests/compile/cases.txt for them instead.
#   FILE.sm_XX.ptx         nvcc --ptx -O3 -arch=sm_XX FILE.cu
#   FILE.O0.sm_XX.ptx      -Xcicc -O0 (naive NVVM: generic loads, every call kept)
#   FILE.G.sm_XX.ptx       -G (debug)
#   FILE.fast.sm_XX.ptx    -O3 -use_fast_math
#   FILE.ftz.sm_XX.ptx     -O3 --ftz=true --prec-div=false --prec-sqrt=false (div.full.ftz, sqrt.approx.ftz)
#   FILE.noinl.sm_XX.ptx   -O3 -Xcicc -disable-inlining (every device function a .func call)
#   FILE.sm_90a.ptx        -O3 -arch=sm_90a (.target sm_90a, compiled with --arch sm_90)
# The //@ lines of the .cu files are the launch specs (../real2/gen-specs.py).
# --extra-device-vectorization gives algo8's -O3 PTX byte for byte (not kept).
cd "$(dirname "$0")" || exit 1
. ../gen-ptx.sh
for f in algo8 calls8; do
	for a in sm_90 sm_80; do ptx $f.$a.ptx $a -O3 $f.cu; done
done
ptx algo8.O0.sm_90.ptx sm_90 -Xcicc -O0 algo8.cu
ptx calls8.O0.sm_80.ptx sm_80 -Xcicc -O0 calls8.cu
ptx calls8.G.sm_90.ptx sm_90 -G calls8.cu
ptx algo8.fast.sm_90.ptx sm_90 -O3 -use_fast_math algo8.cu
ptx algo8.ftz.sm_80.ptx sm_80 -O3 --ftz=true --prec-div=false --prec-sqrt=false algo8.cu
ptx calls8.noinl.sm_90.ptx sm_90 -O3 -Xcicc -disable-inlining calls8.cu
ptx algo8.sm_90a.ptx sm_90a -O3 algo8.cu | sed 's/ sm_90a / sm_90 /'
[ -n "$cases" ] || python3 ../real2/gen-specs.py *.cu > /dev/null
