#!/usr/bin/env bash
# seq.sh -- the compiler's multi-instruction sequences keep their shape
# (issue 6, instruction count): shared slow paths are subroutines called
# from every use, the mbarrier/bulk-copy waterfall is a loop, mul.hi.u64
# is ptxas's seven instructions.  Correctness of the same kernels is
# tests/cli/compile.sh's (--verify); this checks the structure and the
# instruction counts, with bounds a regression to the old lowering fails.
. tests/cli/lib.bash

# sass K ARCH: compile suite kernel K, print its instruction lines
sass() {
	"$OA" compile "tests/kernels/$1/kernel.$2.ptx" --arch "$2" --out-dir "$tmp/$1.$2" -o k >/dev/null 2>&1 &&
		grep -E '^\s+/\*[0-9a-f]{4,}\*/' "$tmp/$1.$2/sass/k.sass" | grep -v ' NOP ;'
}
# expect NAME K ARCH PATTERN MIN MAX: lines matching PATTERN within [MIN, MAX]
expect() {
	local n
	n=$(sass "$2" "$3" | grep -cE "$4")
	if [ "$n" -ge "$5" ] && [ "$n" -le "$6" ]; then echo "PASS $1"
	else echo "FAIL $1: $n lines match '$4' in $2 $3 (want $5..$6)"; fi
}

# adamw_f32: three div.rn.f32 -> one body (one RET), one CALL per use
# (its single sqrt.rn stays inline); the inline copies were ~355
for a in sm_90 sm_80; do
	expect "seq_shared_calls_$a" adamw_f32 $a 'CALL\.REL\.NOINC' 3 3
	expect "seq_shared_rets_$a" adamw_f32 $a 'RET\.REL\.NODEC' 1 1
	expect "seq_shared_size_$a" adamw_f32 $a '.' 1 240
	expect "seq_shared_ffma_rm_$a" adamw_f32 $a 'FFMA\.RM' 1 1
done
# ew_special_f32: one use of each slow path -> inline (no CALL)
expect seq_single_inline ew_special_f32 sm_90 'CALL' 0 0
# bulk_copy: one ELECT loop (BRA.U.ANY), not 32 unrolled rounds
expect seq_waterfall_loop bulk_copy sm_90 'BRA\.U\.ANY' 1 1
expect seq_waterfall_elect bulk_copy sm_90 'ELECT' 1 1
expect seq_waterfall_size bulk_copy sm_90 '.' 1 130
expect seq_waterfall_size_sm80 bulk_copy sm_80 '.' 1 200
# div_const_u64: three mul.hi.u64 by constants (the twelve-instruction
# form: 96; now 62-73 depending on the peepholes around it)
expect seq_mulhi_u64_size div_const_u64 sm_90 '.' 1 82
expect seq_mulhi_u64_carry div_const_u64 sm_90 'IMAD\.WIDE\.U32\.X' 3 3
