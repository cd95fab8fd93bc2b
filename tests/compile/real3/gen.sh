#!/bin/sh
# gen.sh -- regenerate the PTX and launch specs of tests/compile/real3 with nvcc 13.0
# (make check does not need nvcc).  gen.sh --cases prints the lines of
# tests/compile/cases.txt for them instead.
#   FILE.sm_XX.ptx            nvcc --ptx -O3 -arch=sm_XX FILE.cu
#   FILE.lineinfo.sm_90.ptx   -O3 -lineinfo
#   numeric.G.sm_80.ptx, gemm.G.sm_80.ptx   -G (debug; sync.cu's -G module is 1 MB and its
#                             verification takes minutes: not kept)
#   triton_softmax.ptx        written by hand (Triton's idioms), not generated
# The specs come from the //@ lines (../real2/gen-specs.py).
cd "$(dirname "$0")" || exit 1
. ../gen-ptx.sh
for f in numeric sync gemm; do
	for a in sm_90 sm_80; do ptx $f.$a.ptx $a -O3 $f.cu; done
	ptx $f.lineinfo.sm_90.ptx sm_90 -O3 -lineinfo $f.cu
done
ptx numeric.G.sm_80.ptx sm_80 -G numeric.cu
ptx gemm.G.sm_80.ptx sm_80 -G gemm.cu
if [ -n "$cases" ]; then
	for a in sm_90 sm_80; do echo "tests/compile/real3/triton_softmax.ptx $a"; done
fi
[ -n "$cases" ] || python3 ../real2/gen-specs.py *.cu > /dev/null
