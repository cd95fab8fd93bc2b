#!/bin/sh
# gen.sh -- regenerate the PTX and launch specs of tests/compile/intr7 with nvcc 13.0
# (make check does not need nvcc).  gen.sh --cases prints the lines of
# tests/compile/cases.txt for them instead.
#   FILE.sm_XX.ptx    nvcc --ptx -O3 -arch=sm_XX FILE.cu  (ptx7: sm_90 only)
#   refused/K.ptx     refuse7.cu for sm_90a, one module per kernel K (tests/cli/compile.sh
#                     checks that each is refused by name)
# The specs come from the //@ lines (../real2/gen-specs.py).
cd "$(dirname "$0")" || exit 1
. ../gen-ptx.sh
for f in half7 intr7 cccl7; do
	for a in sm_90 sm_80; do ptx $f.$a.ptx $a -O3 -std=c++17 $f.cu; done
done
ptx ptx7.sm_90.ptx sm_90 -O3 -std=c++17 ptx7.cu
[ -n "$cases" ] && exit 0
nvcc --ptx -arch=sm_90a -O3 -std=c++17 -o refuse7.sm_90a.ptx refuse7.cu || exit 1
rm -rf refused && mkdir refused || exit 1
# one module per .entry: everything outside the other entries' bodies kept
python3 - refuse7.sm_90a.ptx refused <<'PY'
import re, sys, os
src = open(sys.argv[1]).read().split('\n')
blocks, i = [], 0
while i < len(src):
	m = re.search(r'\.entry\s+(\w+)', src[i])
	if not m:
		i += 1
		continue
	j, d, seen = i, 0, False
	while True:
		line = src[j].split('//')[0]
		d += line.count('{') - line.count('}')
		seen = seen or '{' in line
		if seen and d == 0:
			break
		j += 1
	blocks.append((m.group(1), i, j))
	i = j + 1
for name, s, e in blocks:
	keep = [l for k, l in enumerate(src) if not any(b[0] != name and b[1] <= k <= b[2] for b in blocks)]
	open(os.path.join(sys.argv[2], name + '.ptx'), 'w').write('\n'.join(keep))
PY
rm refuse7.sm_90a.ptx
python3 ../real2/gen-specs.py *.cu > /dev/null
