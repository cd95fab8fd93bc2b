#!/bin/sh
# gen.sh -- regenerate the PTX and launch specs of tests/compile/real2 with nvcc 13.0
# (make check does not need nvcc).  gen.sh --cases prints the lines of
# tests/compile/cases.txt for them instead.
#   FILE.sm_XX.ptx            nvcc --ptx -O3 -arch=sm_XX FILE.cu
#   rand.sm_90.ptx            sm_90 only (1 MB of curand tables)
#   gdebug.sm_XX.ptx          nvcc --ptx -G (debug: calls, local frames, .loc)
#   llm2.fastmath.sm_90.ptx   -use_fast_math
#   samples.lineinfo.sm_80.ptx  -lineinfo
cd "$(dirname "$0")" || exit 1
. ../gen-ptx.sh
for f in samples cccl half llm2 misc3 misc4 misc5 misc6; do
	for a in sm_90 sm_80; do ptx $f.$a.ptx $a -O3 $f.cu; done
done
ptx rand.sm_90.ptx sm_90 -O3 rand.cu
for a in sm_90 sm_80; do ptx gdebug.$a.ptx $a -G gdebug.cu; done
ptx llm2.fastmath.sm_90.ptx sm_90 -O3 -use_fast_math llm2.cu
ptx samples.lineinfo.sm_80.ptx sm_80 -O3 -lineinfo samples.cu
[ -n "$cases" ] || python3 gen-specs.py *.cu > /dev/null
