#!/usr/bin/env bash
# emu.sh -- the SASS emulator through `openassembler emu FILE.cubin`: the
# hand-made SIMT kernel (tests/emu/) and a suite kernel give the same
# buffers as the PTX interpreter on their PTX; errors exit 1 with a message.
. tests/cli/lib.bash

# cubin vs PTX interpreter, both arches.  A word the built-in decoder does
# not know yet makes the run "unsupported": reported as SKIP, with why,
# and run again with the oracle decoding (when oracle/nvdisasm exists).
vs_ptx() {	# name cubin ptx spec
	local n=$1
	"$OA" emu --ptx "$3" --spec "$4" -o "$tmp/$n.want" 2>"$tmp/$n.perr" ||
		{ echo "FAIL $n: the interpreter failed"; head -3 "$tmp/$n.perr"; return; }
	if "$OA" emu "$2" --spec "$4" -o "$tmp/$n.got" 2>"$tmp/$n.err"; then
		same "$n" "$tmp/$n.got" "$tmp/$n.want"
	elif grep -q "unsupported instruction" "$tmp/$n.err"; then
		skip "$n" "$(sed 's/.*unsupported/unsupported/' "$tmp/$n.err" | head -1)"
		# the semantics still get checked when the oracle can decode
		if [ -x oracle/nvdisasm ]; then
			if "$OA" emu "$2" --spec "$4" --oracle oracle/nvdisasm -o "$tmp/$n.got" 2>"$tmp/$n.err"; then
				same "${n}_oracle" "$tmp/$n.got" "$tmp/$n.want"
			else
				echo "FAIL ${n}_oracle: emu failed"; head -3 "$tmp/$n.err"
			fi
		fi
	else
		echo "FAIL $n: emu failed"; head -3 "$tmp/$n.err"
	fi
}
for a in sm_90 sm_80; do
	vs_ptx "emu_simt_$a" tests/emu/simt.$a.cubin tests/emu/simt.ptx tests/emu/simt.json
	vs_ptx "emu_extra_$a" tests/emu/extra.$a.cubin tests/emu/extra.ptx tests/emu/extra.json
	vs_ptx "emu_spin_$a" tests/emu/spin.$a.cubin tests/emu/spin.ptx tests/emu/spin.json
	k=tests/kernels/reduce_shared_f32
	vs_ptx "emu_reduce_shared_$a" $k/kernel.$a.cubin $k/kernel.$a.ptx $k/spec.json
done

# --stats reports warp-instructions
orc=
[ -x oracle/nvdisasm ] && orc="--oracle oracle/nvdisasm"
# shellcheck disable=SC2086
if "$OA" emu tests/emu/simt.sm_90.cubin --spec tests/emu/simt.json -o "$tmp/o" --stats $orc 2>"$tmp/err"; then
	if grep -q "warp-instructions" "$tmp/err"; then echo "PASS emu_stats"
	else echo "FAIL emu_stats: no count on stderr"; fi
else
	skip emu_stats "$(head -1 "$tmp/err")"
fi

# errors: exit 1, "error:", no crash
fails emu_err_nospec "$OA" emu tests/emu/simt.sm_90.cubin
fails emu_err_kernel "$OA" emu tests/emu/simt.sm_90.cubin --spec tests/emu/simt.json --kernel nope
printf 'not an ELF file at all' >"$tmp/bad.cubin"
fails emu_err_badcubin "$OA" emu "$tmp/bad.cubin" --spec tests/emu/simt.json
# shellcheck disable=SC2086
"$OA" emu tests/emu/simt.sm_90.cubin --spec tests/emu/simt.json --steps 10 $orc >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 1 ] && grep -q "error: .*\(more than 10 warp-instructions\|unsupported\)" "$tmp/err"; then
	echo "PASS emu_err_steps"
else
	echo "FAIL emu_err_steps: want exit 1 and 'more than 10 warp-instructions'"; head -3 "$tmp/err"
fi
