#!/usr/bin/env bash
# divconst.sh -- openassembler divconst (plans for division by a constant),
# the example kernel in the PTX interpreter, and the z3 proofs when z3 is
# installed (tools/prove-divconst; pip install --target build/py z3-solver).
. tests/cli/lib.bash

$OA divconst 7 >"$tmp/u7" 2>&1
if grep -q "^# u32 / 7: 4 instructions" "$tmp/u7" && grep -q "^IMAD.HI.U32 {t1}, {x}, 0x24924925, RZ$" "$tmp/u7"; then
	echo "PASS divconst_print"
else
	echo "FAIL divconst_print"; head -5 "$tmp/u7"
fi
if $OA divconst --type u64 --rem --eval 12345 --eval 0xffffffffffffffff 10 | grep -q "eval 0x3039 -> 0x5" &&
   $OA divconst --type s32 --eval -7 -7 | grep -q "eval 0xfffffffffffffff9 -> 0x1"; then
	echo "PASS divconst_eval"
else
	echo "FAIL divconst_eval"
fi
fails divconst_bad_type $OA divconst --type u16 7
fails divconst_bad_number $OA divconst 7x
fails divconst_no_divisor $OA divconst --rem

ok divconst_example_interp $OA emu --ptx examples/div_by_const.ptx --spec examples/div_by_const.spec.json

# the compiler lowers the example's div/rem through divconst; --verify runs
# its SASS in the emulator against the PTX interpreter on the spec's data
for arch in sm_90 sm_80; do
	if $OA compile examples/div_by_const.ptx --arch $arch --verify --spec examples/div_by_const.spec.json \
		-o dbc --out-dir "$tmp/c_$arch" >"$tmp/c.out" 2>&1 && grep -q "^verify dbc: match$" "$tmp/c.out" &&
	   grep -q "IMAD.HI.U32 R[0-9]*, R[0-9]*, 0x24924925, RZ" "$tmp/c_$arch/sass/dbc.sass"; then
		echo "PASS divconst_example_compile_$arch"
	else
		echo "FAIL divconst_example_compile_$arch"; tail -3 "$tmp/c.out"
	fi
done

# z3: the interpreter may find it in build/py or build/*/py (see the tool)
if python3 tools/prove-divconst --oa "$OA" --timeout 60 --quick >"$tmp/z3" 2>&1; then
	n=$(grep -c "^proven " "$tmp/z3")
	if [ "$n" -ge 10 ] && [ "$n" -eq "$(grep -c . "$tmp/z3")" ]; then echo "PASS divconst_z3 ($n proven)"
	else echo "FAIL divconst_z3"; cat "$tmp/z3"; fi
elif grep -q "z3 is not installed" "$tmp/z3"; then
	skip divconst_z3 "z3 not installed (pip install --target build/py z3-solver)"
else
	echo "FAIL divconst_z3"; tail -5 "$tmp/z3"
fi
