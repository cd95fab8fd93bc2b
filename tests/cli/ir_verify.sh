#!/usr/bin/env bash
# ir_verify.sh -- OA_VERIFY=1 (src/codegen/compile.c run_passes): the IR
# checker after every pass, each "no change" proved with ir_hash, and every
# def/use count a pass takes from the one before it (ir_count_offer;
# ir_count_current: copyprop, fuse and ifconv keep theirs current through
# their rewrites and give them on) checked against a fresh walk.  Kernels whose passes change the IR (copyprop, fuse, ifconv,
# dce) compile without an internal error, to the same cubin as without.
. tests/cli/lib.bash

for ka in warp_vote:90 sgemm_tiled:90 reduce_max_f32:80 softmax_f32:90 threadfence_reduce:90 \
	  histogram_shared:80 scan_warp_f32:90 layernorm_f32:80; do
	k=${ka%:*}; a=${ka#*:}; n=ir_verify_${k}_sm_$a
	src=tests/kernels/$k/kernel.sm_$a.ptx
	if ! "$OA" compile $src --arch sm_$a --out-dir "$tmp/p/$n" -o k >/dev/null 2>"$tmp/err" ||
	   ! OA_VERIFY=1 "$OA" compile $src --arch sm_$a --out-dir "$tmp/v/$n" -o k >/dev/null 2>"$tmp/err"; then
		echo "FAIL $n"; head -3 "$tmp/err"; continue
	fi
	same $n "$tmp/p/$n/cubin/k.cubin" "$tmp/v/$n/cubin/k.cubin"
done
