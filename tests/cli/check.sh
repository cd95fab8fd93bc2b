# check.sh -- openassembler check: the hazard checker on ptxas cubins, a
# cubin with a broken stall, re-assignment, and bad input.
. tests/cli/lib.bash
k=tests/kernels/ew_saxpy_f32/kernel.sm_90.cubin
ok check_ptxas_sm90 "$OA" check "$k"
ok check_ptxas_sm80 "$OA" check tests/kernels/ew_saxpy_f32/kernel.sm_80.cubin
ok check_kernel_option "$OA" check "$k" --kernel ew_saxpy_f32
fails check_no_such_kernel "$OA" check "$k" --kernel nope

# tests/ctrl/saxpy_short_stall.sm_90.cubin: ew_saxpy_f32's ptxas cubin with
# the stall of its FFMA feeding the STG lowered from 5 to 1 (see the
# findings doc): must be reported with exit 1, naming the two instructions.
b=tests/ctrl/saxpy_short_stall.sm_90.cubin
"$OA" check "$b" >"$tmp/bad" 2>&1; rc=$?
if [ $rc -eq 1 ] && grep -q "read by STG before FFMA" "$tmp/bad"; then echo "PASS check_finds_short_stall"
else echo "FAIL check_finds_short_stall: exit $rc"; head -5 "$tmp/bad"; fi

ok reassign_safe "$OA" check "$b" --reassign 0 -o "$tmp/r0.cubin"
ok reassign_mined "$OA" check "$b" --reassign 1 -o "$tmp/r1.cubin"
ok reassigned_checks "$OA" check "$tmp/r1.cubin"
ok reassign_reuse "$OA" check tests/kernels/sgemm_regtile/kernel.sm_90.cubin --reassign 2 -o "$tmp/r2.cubin"
if "$OA" disasm "$tmp/r2.cubin" 2>/dev/null | grep -q '\.reuse'; then echo "PASS reassign_reuse_shows"
else echo "FAIL reassign_reuse_shows: no .reuse in the listing"; fi
if [ -f tests/kernels/ew_saxpy_f32/spec.json ]; then
	"$OA" emu "$k" --spec tests/kernels/ew_saxpy_f32/spec.json -o "$tmp/want" 2>/dev/null
	"$OA" emu "$tmp/r1.cubin" --spec tests/kernels/ew_saxpy_f32/spec.json -o "$tmp/got" 2>/dev/null
	same reassigned_runs_same "$tmp/want" "$tmp/got"
fi

printf 'not an elf' >"$tmp/junk.cubin"
fails check_junk "$OA" check "$tmp/junk.cubin"
fails check_missing "$OA" check "$tmp/none.cubin"
fails check_bad_mode "$OA" check "$k" --reassign 7

# ptxas's own schedules are the ground truth: every ptxas cubin of the CUB
# tests and the emulator tests (textures, video, cache policies, mbarriers,
# wgmma included) passes.  The latency tables are mined from them
# (tools/mine-latency), so a failure here means the tables are stale.
bad=""
for c in tests/cub/*/kernel.sm_*.cubin tests/emu/*.sm_*.cubin tests/emu/*/*.sm_*.cubin; do
	"$OA" check "$c" >/dev/null 2>&1 || bad="$bad $c"
done
if [ -z "$bad" ]; then echo "PASS check_ptxas_cub_emu_cubins"
else echo "FAIL check_ptxas_cub_emu_cubins:$bad"; fi
