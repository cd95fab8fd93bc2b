#!/bin/sh
# tests/fuzz/ptx-fuzz.sh [SECONDS] -- build the PTX parser fuzzer with
# clang -fsanitize=fuzzer,address,undefined and run it for SECONDS (default
# 180) on one core, seeded with the small suite files and the committed
# corpus; new interesting inputs are merged into tests/fuzz/ptx-corpus/.
# Not part of the default build.  Run from the repository root.
set -e
secs=${1:-180}
out=build/fuzz
mkdir -p $out $out/work
lib=$(ls src/ptx/*.c | grep -v -e interp -e arith)
clang -std=c11 -D_POSIX_C_SOURCE=200809L -g -O1 -Isrc -Iinclude \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-o $out/ptx_fuzz tests/fuzz/ptx_fuzz.c $lib src/util/mem.c src/util/buf.c src/util/diag.c
python3 - <<'PY' > $out/ptx.dict
import re
for f in ("src/ptx/ops.def", "src/ptx/mods.def", "src/ptx/sregs.def"):
    for m in re.finditer(r'"([^"]+)"', open(f).read()):
        print('"%s"' % m.group(1).replace('\\', '\\\\'))
for w in [".version 8.0", ".target sm_90a", ".address_size 64", ".entry", ".func", ".reg",
          ".param", ".global", ".shared", ".const", ".local", ".align", ".visible", ".extern",
          ".weak", ".maxntid", ".reqntid", ".pragma", ".loc", ".file", ".callprototype",
          ".branchtargets", "generic(", "{", "}", "[", "]", "%r<", "0f3F800000",
          "0d3FF0000000000000", "@%p1", "@!%p1", ";", ",", ":", "+-"]:
    print('"%s"' % w)
PY
mkdir -p tests/fuzz/ptx-corpus $out/seed
for f in tests/ptx/valid/*.ptx tests/ptx/invalid/*.ptx tests/kernels/*/kernel.sm_90.ptx; do
	[ -e "$f" ] && [ $(wc -c <"$f") -lt 20000 ] && cp "$f" $out/seed/$(echo "$f" | tr / _)
done
$out/ptx_fuzz -max_total_time="$secs" -max_len=16384 -dict=$out/ptx.dict -timeout=10 \
	-rss_limit_mb=1024 $out/work tests/fuzz/ptx-corpus $out/seed
# keep a small, minimized corpus (inputs cut to 1500 bytes)
rm -rf $out/merged; mkdir -p $out/merged
$out/ptx_fuzz -merge=1 -max_len=1500 $out/merged tests/fuzz/ptx-corpus $out/work >/dev/null 2>&1
rm -f tests/fuzz/ptx-corpus/*
cp $out/merged/* tests/fuzz/ptx-corpus/
echo "corpus: $(ls tests/fuzz/ptx-corpus | wc -l) files, $(du -sh tests/fuzz/ptx-corpus | cut -f1)"
