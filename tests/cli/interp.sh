#!/usr/bin/env bash
# interp.sh -- the PTX reference interpreter through `openassembler emu`:
# hand-written kernels in tests/interp/ whose outputs were checked by
# hand (NAME.ptx + NAME.json -> NAME.expect), and kernels that must stop
# with a clear error (err_*.ptx) naming what went wrong.
. tests/cli/lib.bash
d=tests/interp

# NAME.json runs NAME.ptx, or BASE.ptx for BASE_VARIANT.json; NAME.expect
# holds the buffers, NAME.stdout (if present) the device printf output,
# NAME.args (if present) extra emu options
for j in "$d"/*.json; do
	n=$(basename "$j" .json)
	case $n in err*) continue ;; esac
	p=$d/$n.ptx
	[ -e "$p" ] || p=$d/${n%_*}.ptx
	extra=
	[ -e "$d/$n.args" ] && extra=$(cat "$d/$n.args")
	# shellcheck disable=SC2086
	if "$OA" emu --ptx "$p" --spec "$j" $extra -o "$tmp/$n.out" >"$tmp/$n.stdout" 2>"$tmp/$n.err"; then
		same "interp_$n" "$tmp/$n.out" "$d/$n.expect"
		# device printf output, where the test has some
		[ -e "$d/$n.stdout" ] && same "interp_${n}_stdout" "$tmp/$n.stdout" "$d/$n.stdout"
	else
		echo "FAIL interp_$n: emu exited $?"; head -3 "$tmp/$n.err"
	fi
done

# TMA with 128B swizzle feeding wgmma's 128B-swizzled descriptors:
# out = A * B^T (gemm.expect was checked against an independent product)
"$OA" emu --ptx tests/compile/tma/gemm.ptx --spec tests/compile/tma/gemm.spec.json -o "$tmp/gemm.all" 2>"$tmp/gemm.err"
grep '^out' "$tmp/gemm.all" > "$tmp/gemm.out"
same interp_tma_gemm "$tmp/gemm.out" tests/compile/tma/gemm.expect

# err_NAME.ptx must fail with exit 1 and a message containing the words
err() {	# name words
	local n=$1 want=$2
	"$OA" emu --ptx "$d/err_$n.ptx" --spec "$d/err.json" --steps 200000 >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	if [ $rc -eq 1 ] && grep -q "error:.*$want" "$tmp/err" && grep -q "err_$n.ptx:[0-9]*:[0-9]*:" "$tmp/err"; then
		echo "PASS interp_err_$n"
	else
		echo "FAIL interp_err_$n: exit $rc, want 1 and '$want'"; head -3 "$tmp/err"
	fi
}
err oob "tid (4,0,0): out-of-bounds global store of 4 bytes at 0x"
err misaligned "misaligned global load of 4 bytes"
err deadlock "deadlock: this thread waits at a barrier"
err divergent "divergent collective"
err recursion "call depth exceeds"
err loop "step limit of 200000"
err trap "trap"
err reqntid "block 64 x 1 x 1 differs from the kernel.s .reqntid 32, 1, 1"
err bigshared "shared memory of 300000 bytes (300000 static + 0 dynamic) exceeds 232448"
err mbarrier "deadlock: this thread waits for an mbarrier phase"

# a suite kernel on buffers too small for it, and a spec with an argument missing
k=tests/kernels/ew_saxpy_f32/kernel.sm_90.ptx
"$OA" emu --ptx $k --spec $d/err_short.json >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 1 ] && grep -q "tid (100,0,0): out-of-bounds global load of 4 bytes at 0x" "$tmp/err"; then
	echo "PASS interp_err_short_buffer"
else
	echo "FAIL interp_err_short_buffer"; head -3 "$tmp/err"
fi
"$OA" emu --ptx $k --spec $d/err_nargs.json >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 1 ] && grep -q "error: .*the spec gives 3 arguments, the kernel has 4 parameters" "$tmp/err"; then
	echo "PASS interp_err_nargs"
else
	echo "FAIL interp_err_nargs"; head -3 "$tmp/err"
fi

# --trace: thread 3 computes fib(3) = 2 and calls square through a pointer
"$OA" emu --ptx $d/calls.ptx --spec $d/calls.json --trace 0:3 -o "$tmp/out" 2>"$tmp/trace"
if grep -q "ld.param.b32 %r2, \[r0\] *%r2=0x2$" "$tmp/trace" && grep -q "call (r0), %rd3, (a0), proto" "$tmp/trace" &&
   grep -q "(guard false)" "$tmp/trace"; then
	echo "PASS interp_trace"
else
	echo "FAIL interp_trace"; head -5 "$tmp/trace"
fi
"$OA" emu --ptx $d/warp.ptx --spec $d/warp.json --trace 0:2 -o "$tmp/out" 2>"$tmp/trace"
if grep -q "shfl.sync.bfly.b32 %r19, %r17, 1, 0x1f, 0xffffffff *%r19=0xc$" "$tmp/trace"; then
	echo "PASS interp_trace_collective"
else
	echo "FAIL interp_trace_collective"; grep shfl "$tmp/trace" | head -3
fi
fails interp_bad_trace "$OA" emu --ptx $d/calls.ptx --spec $d/calls.json --trace 3

# without --all-ctas the grid-wide spin barrier cannot finish (CTAs run in turn)
"$OA" emu --ptx $d/gridsync.ptx --spec $d/gridsync.json --steps 300000 >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 1 ] && grep -q "step limit of 300000" "$tmp/err"; then
	echo "PASS interp_gridsync_needs_all_ctas"
else
	echo "FAIL interp_gridsync_needs_all_ctas"; head -3 "$tmp/err"
fi

fails interp_cubin_not_yet "$OA" emu tests/interp/none.cubin
fails interp_no_spec "$OA" emu --ptx "$d/calls.ptx"
fails interp_bad_spec_path "$OA" emu --ptx "$d/calls.ptx" --spec "$d/nonexistent.json"
fails interp_wrong_kernel "$OA" emu --ptx "$d/calls.ptx" --spec "$d/calls.json" --kernel nosuch
fails interp_bad_option "$OA" emu --frobnicate
ok interp_help "$OA" emu --help
