#!/bin/sh
# gen.sh -- regenerate the PTX and launch specs of tests/compile/real6 with nvcc 13.0
# (make check does not need nvcc).  gen.sh --cases prints the lines of
# tests/compile/cases.txt for them instead.
#   FILE.sm_XX.ptx            nvcc --ptx -O3 -arch=sm_XX FILE.cu
#   FILE.G.sm_XX.ptx          -G (debug)
#   FILE.lineinfo.sm_XX.ptx   -O3 -lineinfo
# cub6 -G (0.9 MB of CUB at -G) verifies too but is not kept; pdl6 is sm_90 only
# (griddepcontrol).  The specs come from the //@ lines (../real2/gen-specs.py).
cd "$(dirname "$0")" || exit 1
. ../gen-ptx.sh
for f in asm6 rodinia6 llmc6 cub6; do
	for a in sm_90 sm_80; do ptx $f.$a.ptx $a -O3 $f.cu; done
done
ptx pdl6.sm_90.ptx sm_90 -O3 pdl6.cu
ptx asm6.G.sm_90.ptx sm_90 -G asm6.cu
ptx rodinia6.G.sm_80.ptx sm_80 -G rodinia6.cu
ptx llmc6.G.sm_90.ptx sm_90 -G llmc6.cu
ptx pdl6.G.sm_90.ptx sm_90 -G pdl6.cu
ptx llmc6.lineinfo.sm_80.ptx sm_80 -O3 -lineinfo llmc6.cu
ptx cub6.lineinfo.sm_80.ptx sm_80 -O3 -lineinfo cub6.cu
[ -n "$cases" ] || python3 ../real2/gen-specs.py *.cu > /dev/null
