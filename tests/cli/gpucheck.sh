# gpucheck.sh -- the GPU runner's launch layout without a GPU: --dry-run
# prints every buffer it would allocate (struct-only "buffers" too) and the
# parameter bytes it would pass (launch_param(), made-up device addresses
# 0x7f0000000000 + (i << 32) for buffer i).
. tests/cli/lib.bash
s=tests/cub/struct_arg/spec.json
"$OA" gpucheck --spec $s --dry-run > "$tmp/d1" 2>&1
# struct Args {in=&buffers[0], n=300, mul=-7, out=&buffers[1], add=5000000000, shift=3}, extra=11
want="PARAM 0 a: 40 bytes: 00 00 00 00 02 7f 00 00 2c 01 00 00 f9 ff ff ff 00 00 00 00 03 7f 00 00 00 f2 05 2a 01 00 00 00 03 00 00 00 00 00 00 00"
grep -qxF "$want" "$tmp/d1" && grep -qxF "PARAM 1 extra: 4 bytes: 0b 00 00 00" "$tmp/d1" &&
	echo "PASS gpucheck_struct_param_bytes" || { echo "FAIL gpucheck_struct_param_bytes"; head -5 "$tmp/d1"; }
grep -qxF "BUFFER 2 in: 1200 bytes at 0x7f0200000000" "$tmp/d1" &&
grep -qxF "BUFFER 3 out: 1280 bytes at 0x7f0300000000" "$tmp/d1" && [ "$(grep -c '^PARAM ' "$tmp/d1")" = 2 ] &&
	echo "PASS gpucheck_allocates_struct_buffers" || echo "FAIL gpucheck_allocates_struct_buffers"
s=tests/cub/device_reduce/spec.json
"$OA" gpucheck --spec $s --dry-run tests/cub/device_reduce/kernel.sm_90.cubin > "$tmp/d2" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -qxF "PARAM 1 out: 8 bytes: 00 00 00 00 01 7f 00 00" "$tmp/d2" &&
grep -qxF "PARAM 3 reduction_op: 1 bytes: 00" "$tmp/d2" && grep -qxF "PARAM 2 num_items: 4 bytes: a0 0f 00 00" "$tmp/d2" &&
grep -q '^SKIP gpucheck: --dry-run: launch skipped' "$tmp/d2" && grep -q '^PASS read tests/cub/device_reduce' "$tmp/d2" &&
	echo "PASS gpucheck_dry_run_scalars" || { echo "FAIL gpucheck_dry_run_scalars: exit $rc"; head -5 "$tmp/d2"; }
fails gpucheck_dry_run_needs_spec "$OA" gpucheck --dry-run tests/cub/struct_arg/kernel.sm_90.cubin
printf '{"grid": [1], "block": [1], "args": [{"name": "a", "struct": 8, "fields": [{"offset": 0, "pointer": "nowhere"}]}]}' > "$tmp/bad.json"
fails gpucheck_dry_run_bad_spec "$OA" gpucheck --spec "$tmp/bad.json" --dry-run
