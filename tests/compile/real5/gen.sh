#!/bin/sh
# gen.sh -- regenerate the PTX and launch specs of tests/compile/real5 with nvcc 13.0
# (make check does not need nvcc).  gen.sh --cases prints the lines of
# tests/compile/cases.txt for them instead.
#   FILE.sm_XX.ptx            nvcc --ptx -O3 -arch=sm_XX FILE.cu
#   FILE.G.sm_XX.ptx          -G (debug)
#   FILE.lineinfo.sm_90.ptx   -O3 -lineinfo
#   FILE.fastmath.sm_XX.ptx   -O3 -use_fast_math
# atom5.G.sm_90.ptx (0.6 MB of libcu++ atomics) is the control-bit assigner's
# test for functions called from many places (it took 12-22 s to compile before
# bump_back's memo and the fan-out joins of session 9; 0.24 s after)
# The specs come from the //@ lines (../real2/gen-specs.py); bigstruct.spec.json (a
# 1520-byte struct by value, which the //@ syntax cannot say) is written by hand.
cd "$(dirname "$0")" || exit 1
. ../gen-ptx.sh
for f in graph5 hash5 math5 param5 atom5 warp5; do
	for a in sm_90 sm_80; do ptx $f.$a.ptx $a -O3 $f.cu; done
done
ptx cluster5.sm_90.ptx sm_90 -O3 cluster5.cu   # clusters: sm_90 only
ptx graph5.G.sm_90.ptx sm_90 -G graph5.cu
ptx warp5.G.sm_90.ptx sm_90 -G warp5.cu
ptx hash5.G.sm_80.ptx sm_80 -G hash5.cu
ptx param5.G.sm_90.ptx sm_90 -G param5.cu
ptx atom5.G.sm_90.ptx sm_90 -G atom5.cu
ptx hash5.lineinfo.sm_90.ptx sm_90 -O3 -lineinfo hash5.cu
ptx math5.fastmath.sm_90.ptx sm_90 -O3 -use_fast_math math5.cu
ptx math5.fastmath.sm_80.ptx sm_80 -O3 -use_fast_math math5.cu
if [ -n "$cases" ]; then
	for p in param5.sm_90 param5.sm_80 param5.G.sm_90; do
		echo "tests/compile/real5/$p.ptx ${p##*.} tests/compile/real5/bigstruct.spec.json"
	done
else
	python3 ../real2/gen-specs.py *.cu > /dev/null
fi
